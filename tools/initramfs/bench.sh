#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark scene: the sbm_bench sample's results and a null system
# call measured from user space, as "name size ns" lines for
# tools/bench-table.py.
echo "isolation $(dmesg | sed -n 's/^\[[ 0-9.]*\] sbm: \([a-z]*\) isolation.*/\1/p' | head -n 1)"
cat /sys/kernel/debug/sbm_bench/results
/bin/nullsys
