#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: boot the strong kernel once and print what SandBox Mode costs
# next to a direct call and a null system call.
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
cfg=strong

tools/deps.sh
tools/prepare-tree.sh
tools/build.sh "$cfg"
tools/initramfs.sh
tools/boot.sh "$cfg" -i build/initramfs.cpio.gz -c "build/$cfg/bench-console.log" \
	-t 600 kunit.enable=0 sbm_scene=bench
