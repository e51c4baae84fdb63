#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The apparmor-cve scene of make test, in a boot with
# apparmor.dfa_default_bug=1 (AppArmor's policy unpacker with
# CVE-2026-23407 put back, test only): write a policy that triggers the bug
# (tools/apparmor-exploit.py) to .replace between good ones, and check
# that SandBox Mode contained it. Prints one KTAP suite, apparmor_cve:
#   good_load_before      a corpus policy (bin.ping) loads
#   control_loaded        the control, bin.ping with the exploit's changes
#                         but an in-range default state, loads
#   exploit_refused       each write of the exploit fails with an errno
#                         (EFAULT: the sandbox was stopped)
#   containment_reported  the kernel logged the sandbox stopped in
#                         __sbm_thunk_aa_unpack_image while it loaded
#                         (if the report was rate-limited, the exploit is
#                         written again, up to 10 times)
#   good_load_after       another corpus policy (bin.netstat) loads
#   kernel_untainted      the scene added no taint flag (KUnit at boot
#                         taints the kernel before it: TAINT_TEST)
# With apparmor.sbm=0 the scene takes the same steps without the sandbox,
# and containment_reported fails (build/apparmor/exploit/unsandboxed.log).
aa=/sys/kernel/security/apparmor
data=/apparmor
exploit=$data/exploit/cve-2026-23407.bin
control=$data/exploit/cve-2026-23407-control.bin
before=$data/corpus/bin.ping.bin
after=$data/corpus/bin.netstat.bin
report="sbm: __sbm_thunk_aa_unpack_image stopped:"
marker="apparmor-cve: writing the exploit"
events=/sys/kernel/tracing/events/sbm/sbm_abort
trace=/sys/kernel/tracing/trace
cases=/tmp/cve.cases
n=0

now() { cut -d' ' -f1 /proc/uptime; }
printable() { sed 's/[^ -~]/?/g'; }
# The sandboxes of the unpacker stopped so far, as traced; empty if the
# tracepoint is not there.
aborts() {
	[ -e "$events/enable" ] && grep -c 'sbm_abort:.*aa_unpack_image' "$trace"
}
# verdict NAME PASSED [DIAGNOSTIC...]: record one case.
verdict() {
	name=$1 passed=$2
	shift 2
	n=$((n + 1))
	for d in "$@"; do
		[ -n "$d" ] && echo "    # $name: $d" | printable
	done >> "$cases"
	if [ "$passed" = 1 ]; then
		echo "    ok $n $name"
	else
		echo "    not ok $n $name"
	fi >> "$cases"
}
# load FILE: write FILE to .replace in one write; print ok or the errno.
load() {
	apparmor-load cve "$aa/.replace" "$1" | awk '$1 == "cve" { print $3 }'
}
# load_case NAME FILE: a case passed if FILE loads.
load_case() {
	r=$(load "$2")
	verdict "$1" "$([ "$r" = ok ] && echo 1)" "${2#"$data"/}: ${r:-no result}"
}

mkdir -p /tmp
: > "$cases"
grep -q " /sys/kernel/security " /proc/mounts ||
	mount -t securityfs securityfs /sys/kernel/security
sbm=$(cat /sys/module/apparmor/parameters/sbm 2>/dev/null || echo absent)
taint0=$(cat /proc/sys/kernel/tainted)

if [ ! -w "$aa/.replace" ]; then
	for c in good_load_before control_loaded exploit_refused \
		 containment_reported good_load_after kernel_untainted; do
		verdict $c 0 "AppArmor is not the active LSM"
	done
else
	load_case good_load_before "$before"
	load_case control_loaded "$control"

	# The reports of stopped sandboxes are rate-limited (10 in 5 s, by
	# jiffies) and the KUnit suites at boot stop many: let the interval
	# of the last one printed run out, lest the exploit's be dropped.
	# Jiffies lag behind the clock under TCG (a periodic tick, ticks
	# lost), so try again, a second later, while the sandbox was stopped
	# (as the sbm_abort tracepoint tells) but no report was logged.
	last=$(dmesg | grep 'sbm: .* stopped:' | tail -1 |
		sed -n 's/^\[ *\([0-9]*\.[0-9]*\)\].*/\1/p')
	if [ -n "$last" ]; then
		sleep "$(awk -v l="$last" -v t="$(now)" \
			'BEGIN { w = l + 6 - t; printf "%.1f", (w > 0 ? w : 0) }')"
	fi
	[ -e "$events/enable" ] && echo 1 > "$events/enable"
	try=0 results='' refused=1
	while :; do
		try=$((try + 1))
		a0=$(aborts)
		echo "$marker, try $try (apparmor.sbm=$sbm)" > /dev/kmsg
		r=$(load "$exploit")
		results="$results ${r:-none}"
		case "$r" in
		E*) ;;
		*) refused='' ;;
		esac
		since=$(dmesg | sed -n "/$marker, try $try /,\$p")
		logged=$(echo "$since" | grep -F "$report" | head -1 |
			sed 's/^\[[^]]*\] *//')
		[ -n "$logged" ] || [ "$sbm" != Y ] || [ "$try" -ge 10 ] && break
		[ -n "$a0" ] && [ "$(aborts)" = "$a0" ] && break
		sleep 1
	done
	[ -e "$events/enable" ] && echo 0 > "$events/enable"
	audit=$(echo "$since" |
		grep -o 'apparmor="STATUS".* error=-*[0-9]*' | head -1)
	traced=$(grep -o 'sbm_abort:.*aa_unpack_image.*' "$trace" 2>/dev/null |
		head -1)
	verdict exploit_refused "$refused" \
		"${exploit#"$data"/} with apparmor.sbm=$sbm, $try tries:$results" \
		"${audit:+audit: $audit}"
	verdict containment_reported "$([ -n "$logged" ] && echo 1)" \
		"${logged:-no report of a stopped sandbox after the write}" \
		"$([ -n "$logged" ] && [ "$try" -gt 1 ] &&
			echo "logged at try $try, the reports before were rate-limited")" \
		"${traced:+trace: $traced}"

	load_case good_load_after "$after"
fi

taint1=$(cat /proc/sys/kernel/tainted)
verdict kernel_untainted "$([ "$taint0" = "$taint1" ] && echo 1)" \
	"tainted $taint0 before the scene, $taint1 after"

failed=$(grep -c '^    not ok ' "$cases")
echo "KTAP version 1"
echo "1..1"
echo "    KTAP version 1"
echo "    # Subtest: apparmor_cve"
echo "    1..$n"
cat "$cases"
if [ "$failed" = 0 ]; then
	echo "ok 1 apparmor_cve"
else
	echo "not ok 1 apparmor_cve"
fi
