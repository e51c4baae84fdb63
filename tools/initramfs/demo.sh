#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The demo scene: a parser that runs in SandBox Mode, fed from user space
# through the sbm_demo sample (samples/sbm/sbm_demo.c).
demo=/sys/kernel/debug/sbm_demo

caption() {
	echo
	echo "=== $* ==="
}

parse() {
	echo "\$ echo '$1' > $demo/parse; cat $demo/parse"
	printf '%s' "$1" > $demo/parse
	cat $demo/parse
}

caption "SandBox Mode on Linux $(uname -r)"
dmesg | sed -n 's/^\[[ 0-9.]*\] \(sbm: .*isolation.*\)/\1/p'

caption "1. A sandboxed parser with good input"
echo "The parser sees only a private copy of the text and an output buffer."
parse "width=640 height=480 depth=24"

caption "2. The same parser with bad input"
echo "The parser's own error comes back; the sandbox itself is fine."
parse "width=640 height=oops"
parse "a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9"

if dmesg | grep -q 'sbm: strong isolation'; then
	caption "3. A parser with a bug, contained"
	# The boot-time self-tests used up the report rate limit (10 in 5 s).
	sleep 5
	echo "The fault switch makes the parser overrun its output buffer."
	echo overrun > $demo/fault
	parse "width=640 height=480"
	echo "Each other kind of fault the switch knows, and the verdict:"
	for fault in wild null exec privileged syscall divide loop printk doublefree; do
		echo $fault > $demo/fault
		printf '%s' "width=640" > $demo/parse
		printf '  %-12s %s' "$fault:" "$(cat $demo/parse)"
		echo
	done
	echo "What the kernel logged for them:"
	dmesg | sed -n -e 's/^\[[ 0-9.]*\] \(sbm: .*demo_parse stopped.*\)/\1/p' \
		-e 's/^\[[ 0-9.]*\] \(sbm:   .*called .*\)/\1/p' | tail -n 12
	echo "The kernel carries on, and the next call works:"
	parse "depth=24"
else
	caption "3. Faults: need strong isolation, not available in this kernel"
fi

caption "4. Tracing a sandboxed call"
if [ -d /sys/kernel/tracing/events/sbm ]; then
	echo 1 > /sys/kernel/tracing/events/sbm/enable
	parse "tracing=1" > /dev/null
	echo overrun > $demo/fault
	parse "tracing=2" > /dev/null
	echo 0 > /sys/kernel/tracing/events/sbm/enable
	grep -o 'sbm_[a-z]*: .*' /sys/kernel/tracing/trace
else
	echo "(no tracing in this kernel)"
fi

if [ -e /sys/kernel/debug/sbm/address_space ]; then
	caption "5. What a sandbox sees: /sys/kernel/debug/sbm/address_space"
	echo "Every page a sample sandbox maps, by region; USR pages are what the"
	echo "target may touch, the others are for the CPU when it leaves the sandbox."
	cat /sys/kernel/debug/sbm/address_space
fi

caption "6. Statistics in /sys/kernel/debug/sbm/stats"
cat /sys/kernel/debug/sbm/stats

caption "7. Self-test results at boot (KUnit)"
for r in /sys/kernel/debug/kunit/*/results; do
	suite=$(basename "$(dirname "$r")")
	pass=$(grep -c '^    ok [0-9]* [a-z_0-9]*$' "$r")
	skip=$(grep -c '^    ok .* # SKIP' "$r")
	fail=$(grep -c '^    not ok' "$r")
	echo "$suite: $pass passed, $fail failed, $skip skipped"
done
