#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The apparmor scene: feed AppArmor's policy unpacker real and bad policies
# and record what the kernel made of each, one line each, so that two boots
# (with the unpacker in SandBox Mode and without) can be compared by
# tools/apparmor-compare.py. The policies come from tools/apparmor-corpus.sh
# (/apparmor/corpus, /apparmor/confine) and tools/apparmor-fuzz.py
# (/apparmor/fuzz). The lines, in this order:
#   begin KERNEL-RELEASE
#   corpus NAME RESULT         each real policy, written to .replace
#   confine profiles RESULT    the profiles of tools/apparmor-confine.profile
#   profiles LINE              /sys/kernel/security/apparmor/profiles, sorted
#   confine CASE DECISION      busybox run under those profiles
#   fuzz NAME RESULT           each bad policy, written to .replace
#   fuzz-profiles LINE         the profiles after them, sorted
#   trouble TAG NAME LINE      kernel trouble logged while loading NAME
#   summary ...                counts by result, kernel trouble, times
#   end
# RESULT is ok or the errno name of the failed write. Bytes of profile
# names outside printable ASCII are shown as "?".
aa=/sys/kernel/security/apparmor
data=/apparmor
trouble='BUG:|Oops|WARNING:|Kernel panic|kernel BUG at|general protection|Call Trace:|soft lockup|hard LOCKUP|rcu: INFO|UBSAN:|KASAN:|KFENCE:|refcount_t:|list_(add|del) corruption|stack-protector|sbm: .* stopped'

now() { cut -d' ' -f1 /proc/uptime; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
printable() { sed 's/[^ -~]/?/g'; }
# summary TAG FILE: "summary TAG N RESULT COUNT..." over the "TAG NAME
# RESULT" lines of FILE.
summary() {
	awk -v tag="$1" '$1 == tag { print $3 }' "$2" | sort | uniq -c |
		awk -v tag="$1" '{ n += $1; s = s " " $2 " " $1 }
			END { print "summary " tag " " n + 0 s }'
}

# stat NAME: a counter of SandBox Mode's statistics, 0 without them. The
# leak checks below compare what changed during the scene: other users
# (the OpenPGP key parser keeps sandboxes between keys) may hold theirs.
stat() {
	awk -v n="$1" '$1 == n { v = $2 } END { print v + 0 }' \
		/sys/kernel/debug/sbm/stats 2>/dev/null || echo 0
}
alloc0=$(stat objects_allocated) freed0=$(stat objects_freed)
adopted0=$(stat objects_adopted)
created0=$(stat instances_created) destroyed0=$(stat instances_destroyed)

echo "begin $(uname -r)"
start=$(now)
grep -q " /sys/kernel/security " /proc/mounts ||
	mount -t securityfs securityfs /sys/kernel/security
if [ ! -w "$aa/.replace" ]; then
	echo "summary error AppArmor is not the active LSM"
	echo "end"
	exit 0
fi
mkdir -p /tmp

# 1. The corpus and the confinement profiles.
t0=$(now)
apparmor-load corpus "$aa/.replace" "$data"/corpus/*.bin | tee /tmp/corpus.out
t1=$(now)
apparmor-load confine "$aa/.replace" "$data"/confine/*.bin | tee /tmp/confine.out
sort "$aa/profiles" | printable | sed 's/^/profiles /'

# 2. Confinement decisions. confined CASE PROFILE COMMAND...: run COMMAND
# under PROFILE (asked for at exec, as aa-exec does) and print
# "confine CASE allowed", "denied", "nochange" (the change of profile was
# refused) or "error"; with CASE "label*", what COMMAND printed instead.
attr=/proc/self/attr/apparmor/exec
[ -e "$attr" ] || attr=/proc/self/attr/exec
confined() {
	case=$1 profile=$2
	shift 2
	out=$( (printf 'exec %s' "$profile" > "$attr" 2>/dev/null || exit 97
		exec "$@") 2>&1)
	status=$?
	case "$case:$status:$out" in
	label*:0:*) decision=$(echo "$out" | printable) ;;
	*:0:*) decision=allowed ;;
	*:97:*) decision=nochange ;;
	*"Permission denied"* | *"Operation not permitted"*) decision=denied ;;
	*) decision="error $(echo "$out" | head -1 | printable)" ;;
	esac
	echo "confine $case $decision" | tee -a /tmp/confine.out
}
mkdir -p /tmp/sbm
echo allowed > /tmp/sbm/allowed
echo secret > /tmp/sbm/secret
echo other > /tmp/other
: > /tmp/sbm/owned
bb=/bin/busybox
confined label sbm-confine $bb cat /proc/self/attr/current
confined read-allowed sbm-confine $bb cat /tmp/sbm/allowed
confined read-denied sbm-confine $bb cat /tmp/sbm/secret
confined read-unlisted sbm-confine $bb cat /tmp/other
confined list-allowed sbm-confine $bb ls /tmp/sbm
confined list-unlisted sbm-confine $bb ls /tmp
confined write-allowed sbm-confine $bb touch /tmp/sbm/new
confined write-denied sbm-confine $bb touch /tmp/sbm/ro-new
confined exec-allowed sbm-confine $bb sh -c "$bb true"
confined exec-denied sbm-confine $bb sh -c /bin/nullsys
confined cap-allowed sbm-confine $bb chown 1 /tmp/sbm/owned
confined cap-denied sbm-confine $bb mknod /tmp/sbm/null c 1 3
confined label-complain sbm-confine-complain $bb cat /proc/self/attr/current
confined complain-read sbm-confine-complain $bb cat /tmp/sbm/secret
confined complain-cap sbm-confine-complain $bb mknod /tmp/sbm/null2 c 1 3
confined unconfined-read unconfined $bb cat /tmp/sbm/secret
if printf '%s' sbm-confine-removed > "$aa/.remove" 2>/dev/null; then
	echo "confine remove ok"
else
	echo "confine remove failed"
fi | tee -a /tmp/confine.out
confined removed sbm-confine-removed $bb cat /tmp/sbm/allowed
confined no-such-profile sbm-no-such-profile $bb cat /tmp/sbm/allowed

# 3. The bad policies.
t2=$(now)
apparmor-load fuzz "$aa/.replace" "$data"/fuzz/*.bin | tee /tmp/fuzz.out
t3=$(now)
sort "$aa/profiles" | printable | sed 's/^/fuzz-profiles /'

# 4. Summary. Trouble: what apparmor-load tied to a policy, and what the
# kernel logged since the scene began, as far as its log buffer still
# holds it (not the KUnit suites of the boot, which ktap.py judges).
scene_dmesg() {
	dmesg | awk -v t="$start" 'match($0, /^\[ *[0-9]+\.[0-9]+\]/) &&
		substr($0, 2, RLENGTH - 2) + 0 >= t' | grep -E "$trouble"
}
summary corpus /tmp/corpus.out
summary confine /tmp/confine.out
summary fuzz /tmp/fuzz.out
echo "summary profiles $(wc -l < "$aa/profiles")"
echo "summary trouble $(cat /tmp/corpus.out /tmp/confine.out /tmp/fuzz.out |
	grep -c '^trouble ') dmesg $(scene_dmesg | wc -l)"
scene_dmesg | head -20 | printable | sed 's/^/summary dmesg /'
echo "summary time corpus $(elapsed "$t0" "$t1") fuzz $(elapsed "$t2" "$t3")"

# 5. Leaks, as the KTAP suite apparmor_unpack_leaks on the kernel log:
# every object that sandboxed unpackers allocated during the scene was
# freed (the kernel copies what it keeps), every sandbox created during it
# was destroyed, and kmemleak finds nothing unreferenced that AppArmor's
# unpacker or SandBox Mode allocated.
ktap() { echo "    $*" > /dev/kmsg; }
suite=ok
# verdict N NAME CONDITION...: a case of the suite
verdict() {
	n=$1 name=$2
	shift 2
	if "$@"; then
		ktap "ok $n $name"
	else
		ktap "not ok $n $name"
		suite="not ok"
	fi
}
balanced() { [ "$1" -gt 0 ] && [ "$1" = "$2" ]; }
ktap "KTAP version 1"
ktap "# Subtest: apparmor_unpack_leaks"
ktap "1..3"
if [ "$(cat /sys/module/apparmor/parameters/sbm 2>/dev/null)" = Y ] &&
	[ -e /sys/kernel/debug/sbm/stats ]; then
	alloc=$(($(stat objects_allocated) - alloc0))
	freed=$(($(stat objects_freed) - freed0))
	adopted=$(($(stat objects_adopted) - adopted0))
	ktap "# sandbox objects: $alloc allocated, $freed freed, $adopted adopted"
	verdict 1 objects_freed balanced "$alloc" $((freed + adopted))
	created=$(($(stat instances_created) - created0))
	destroyed=$(($(stat instances_destroyed) - destroyed0))
	ktap "# sandboxes: $created created, $destroyed destroyed"
	verdict 2 sandboxes_destroyed balanced "$created" "$destroyed"
else
	ktap "ok 1 objects_freed # SKIP unpacker not in SandBox Mode"
	ktap "ok 2 sandboxes_destroyed # SKIP unpacker not in SandBox Mode"
fi
leaks=/sys/kernel/debug/kmemleak
if [ -e "$leaks" ]; then
	# kmemleak reports no object younger than 5 seconds, and only those
	# that stayed unreferenced over two scans.
	sleep 6
	echo scan > "$leaks"
	echo scan > "$leaks"
	found=$(grep -cE "aa_|apparmor|unpack|sbm" "$leaks")
	grep -B12 -E "aa_|apparmor|unpack|sbm" "$leaks" | head -40 |
		sed 's/^/summary kmemleak /'
	ktap "# kmemleak: $found backtrace lines name AppArmor or sbm"
	verdict 3 no_kmemleak [ "$found" = 0 ]
else
	ktap "ok 3 no_kmemleak # SKIP no kmemleak in this kernel"
fi
echo "$suite 1 apparmor_unpack_leaks" > /dev/kmsg
echo "end"
