#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot build/CFG in QEMU with the serial console on stdout.
#   boot.sh CFG [-i INITRD] [-c CONSOLE_LOG] [-I] [-t SECONDS] [KERNEL ARGS...]
# With -c, the kernel console (ttyS0) goes to CONSOLE_LOG and a second
# serial port (ttyS1, for the initramfs) to stdout; -I also connects it
# to stdin, for an interactive session.
# TCG by default (nested KVM does not boot a 64-bit guest everywhere);
# SBM_KVM=1 uses KVM where it works. SBM_CPU sets the CPU model (default
# "max" under TCG, "host" under KVM), e.g. SBM_CPU=max,vendor=GenuineIntel.
# SBM_QEMU_ARGS adds QEMU options.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cfg=${1:?usage: boot.sh CONFIG [-i INITRD] [-c LOG] [-I] [-t SECONDS] [ARGS...]}
shift
initrd=() timeout=${SBM_BOOT_TIMEOUT:-300} serial=(-serial stdio) stdin=/dev/null
while [ $# -gt 0 ]; do
	case "$1" in
	-i) initrd=(-initrd "$2"); shift 2 ;;
	-t) timeout=$2; shift 2 ;;
	-c) serial=(-serial "file:$2" -serial stdio); shift 2 ;;
	-I) stdin=/dev/stdin; shift ;;
	*) break ;;
	esac
done

kernel=$top/build/$cfg/arch/x86/boot/bzImage
[ -f "$kernel" ] || { echo "boot: no $kernel; run tools/build.sh $cfg" >&2; exit 1; }
accel=(-accel tcg -cpu "${SBM_CPU:-max}")
if [ "${SBM_KVM:-0}" = 1 ]; then
	accel=(-accel kvm -cpu "${SBM_CPU:-host}")
fi
bios=()
[ -f /usr/share/qemu/qboot.rom ] && bios=(-bios /usr/share/qemu/qboot.rom)

# The kernel powers the machine off when it is done (kunit_shutdown or the
# initramfs); panic=-1 with -no-reboot turns a panic into an exit too.
exec timeout --foreground -k 10 "$timeout" \
	qemu-system-x86_64 "${accel[@]}" "${bios[@]}" -smp 2 -m 1G \
	-nodefaults -display none "${serial[@]}" -no-reboot \
	-kernel "$kernel" "${initrd[@]}" ${SBM_QEMU_ARGS:-} \
	-append "console=ttyS0 panic=-1 $*" < "$stdin"
