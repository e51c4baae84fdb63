#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark scene: SBM costs measured in the kernel by the sbm_bench
# sample, and a null system call measured from user space, in one boot.
results=$( { cat /sys/kernel/debug/sbm_bench/results; /bin/nullsys; } )
value() {
	echo "$results" | awk -v k="$1" '$1 == k { print $2 }'
}
direct=$(value direct_call)
call=$(value empty_sbm_call)
init=$(value sbm_init_destroy)
sys=$(value null_syscall)

echo "SandBox Mode cost, $(uname -r), $(dmesg | sed -n 's/^\[[ 0-9.]*\] sbm: \(.*isolation[^:]*\).*/\1/p' | head -n 1)"
echo "Emulator figures (QEMU TCG): compare the ratios, not the absolute times."
echo
printf '%-28s %12s %14s %12s\n' scenario "ns/op" "x direct call" "x syscall"
row() {
	printf '%-28s %12s %14s %12s\n' "$1" "$2" \
		"$(awk -v a="$2" -v b="$direct" 'BEGIN { printf "%.1f", a / (b ? b : 1) }')" \
		"$(awk -v a="$2" -v b="$sys" 'BEGIN { printf "%.2f", a / (b ? b : 1) }')"
}
row "direct call" "$direct"
row "empty sbm_call" "$call"
row "sbm_init + sbm_destroy" "$init"
row "null syscall (user space)" "$sys"
