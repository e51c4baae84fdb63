#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make shell: boot the strong kernel to an interactive busybox shell.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
tools/deps.sh
tools/prepare-tree.sh
tools/build.sh strong
tools/initramfs.sh
exec tools/boot.sh strong -i build/initramfs.cpio.gz -c build/strong/shell-console.log \
	-I -t 86400 sbm_scene=shell
