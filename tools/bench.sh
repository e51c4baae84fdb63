#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: boot the weak and the strong kernel under QEMU's instruction
# counting, run the benchmark scene in each and print one table.
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

tools/deps.sh
tools/prepare-tree.sh
tools/build.sh weak
tools/build.sh strong
tools/initramfs.sh
for cfg in weak strong; do
	SBM_QEMU_ARGS="-icount shift=0,sleep=off" \
	tools/boot.sh "$cfg" -i build/initramfs.cpio.gz \
		-c "build/$cfg/bench-console.log" -t 900 \
		kunit.enable=0 sbm_scene=bench > "build/$cfg/bench.txt"
done
echo
python3 tools/bench-table.py build/weak/bench.txt build/strong/bench.txt
