#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The modules scene of make test: load, run (KUnit runs a module's suites
# when it loads) and unload every module of the initramfs. Then ask
# kmemleak for memory that no one references any more and that SandBox
# Mode or its tests allocated, and report the answer as a KTAP suite.
for ko in /lib/modules/*.ko; do
	insmod "$ko" && rmmod "$(basename "$ko" .ko)"
done

leaks=/sys/kernel/debug/kmemleak
[ -e "$leaks" ] || exit 0
# kmemleak reports no object younger than 5 seconds.
sleep 6
# A first scan only learns checksums; objects that stay still are reported
# by the second.
echo scan > "$leaks"
echo scan > "$leaks"
found=$(grep -c "sbm" "$leaks")
grep -B12 "sbm" "$leaks"
result="ok"
[ "$found" = 0 ] || result="not ok"
for line in "    1..1" \
	"    # no_sbm_leaks: $found backtrace lines name sbm" \
	"    $result 1 no_sbm_leaks" "$result 1 sandbox_mode_kmemleak"; do
	echo "$line" > /dev/kmsg
done
