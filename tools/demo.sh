#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build the newest SBM kernel, boot it in QEMU with a busybox
# initramfs and play tools/initramfs/scene.sh. The kernel's own console
# goes to build/CFG/demo-console.log.
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
cfg=strong

tools/deps.sh
tools/prepare-tree.sh
tools/build.sh "$cfg"

tools/initramfs.sh

console=build/$cfg/demo-console.log
tools/boot.sh "$cfg" -i build/initramfs.cpio.gz -c "$console" -t 300
echo
echo "=== Kernel log check ==="
python3 tools/ktap.py "$cfg=$console"
