#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The pgp scene of make test, in the strong kernel (which has the OpenPGP
# public key parser): add the keys that gpg made
# (tools/pgp-keys.sh, under /pgp) as asymmetric keys, verify gpg's
# signatures with them, feed the parser the mutated keys, and make the
# parser fault where the kernel has the debug switch for it. Prints one
# KTAP suite, pgp_keys:
#   load_NAME        NAME.pgp is added, and the key's description holds
#                    its fingerprint as gpg printed it (NAME: rsa2048,
#                    rsa3072, rsa4096, nistp256, nistp384, nistp521 and
#                    the v6 keys v6-rsa2048, v6-nistp256)
#   verify_NAME      keyctl pkey_verify of gpg's signature of data.txt
#                    succeeds with the key (tools/pgp-sig.py made its
#                    input)
#   tampered_NAME    and fails when the digest has a bit flipped
#   ed25519_refused  the Ed25519 key is refused with ENOPKG (the kernel
#                    has no Ed25519)
#   fuzz_rejected    each of the mutated keys (tools/pgp-fuzz.py, at
#                    least 2000) is added or refused with EBADMSG, EINVAL
#                    or ENOPKG; the counts go in diagnostics
#   fault_oob_write_contained, fault_wild_pointer_contained
#                    with pgp_key_parser.inject_fault (a kernel with the
#                    debug option) and the parser in SandBox Mode: the
#                    parser writes out of bounds, or reads through a wild
#                    pointer, while it parses rsa2048.pgp; add_key()
#                    fails with EFAULT, the kernel reports the sandbox
#                    stopped, and with the switch back at none rsa2048
#                    loads again (skipped without the switch or the
#                    sandbox)
#   kernel_untainted the scene added no taint flag
#   no_leak          kmemleak finds no unreferenced object with pgp in its
#                    backtrace (skipped without kmemleak)
# With pgp_key_parser.sbm=0 the scene takes the same steps without the
# sandbox, but for the faults.
# Before the suite, outside KTAP, one line per outcome, so that two boots
# (with the sandbox and without) can be compared by tools/pgp-compare.py:
#   key NAME RESULT         the add of NAME.pgp (the eight keys and
#                           ed25519): "ok DESCRIPTION" or the errno name
#   verify NAME RESULT      the verify of gpg's signature: ok, the errno
#                           name, or not-run (no params, no key)
#   tampered NAME RESULT    the same with the flipped digest
#   fuzz NNNN.bin RESULT    each mutated key, as pgp-load fuzz printed it
# and a last line "end" after the suite.
data=/pgp
keys=$data/keys
param=/sys/module/pgp_key_parser/parameters
report="sbm: __sbm_thunk_pgp_parse_key stopped:"
cases=/tmp/pgp.cases
accepted="ok EBADMSG EINVAL ENOPKG"
n=0

printable() { sed 's/[^ -~]/?/g'; }
lower() { tr 'A-Z' 'a-z'; }
# verdict NAME PASSED [DIAGNOSTIC...]: record one case; PASSED is 1 for a
# pass, "skip REASON" for a skipped case, anything else for a failure.
verdict() {
	v_name=$1 v_passed=$2
	shift 2
	n=$((n + 1))
	for d in "$@"; do
		[ -n "$d" ] && echo "    # $v_name: $d" | printable
	done >> "$cases"
	case "$v_passed" in
	1) echo "    ok $n $v_name" ;;
	skip\ *) echo "    ok $n $v_name # SKIP ${v_passed#skip }" ;;
	*) echo "    not ok $n $v_name" ;;
	esac >> "$cases"
}
# outcome KIND NAME RESULT: one raw line for tools/pgp-compare.py; for a
# key, RESULT without the serial number ("ok DESCRIPTION" or the errno).
outcome() {
	o_result=$3
	case "$1:$o_result" in
	key:ok\ *) o_result="ok $(echo "$o_result" | cut -d' ' -f3-)" ;;
	esac
	echo "$1 $2 ${o_result:-no-result}" | printable
}
# add FILE: add the key; "ok SERIAL DESCRIPTION" or the errno name.
add() {
	pgp-load add "$1" | sed -n 's/^add [^ ]* //p'
}
unlink_key() {
	pgp-load unlink "$1" > /dev/null
}

mkdir -p /tmp
: > "$cases"
grep -q " /sys/kernel/debug " /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug
sbm=$(cat "$param/sbm" 2>/dev/null || echo absent)
taint0=$(cat /proc/sys/kernel/tainted)

# 1. The keys gpg made, and its signatures.
for name in rsa2048 rsa3072 rsa4096 nistp256 nistp384 nistp521 \
	    v6-rsa2048 v6-nistp256; do
	k=$keys/$name
	fpr=$(cat "$k.fpr" 2>/dev/null | lower)
	r=$(add "$k.pgp")
	serial= desc=
	case "$r" in
	ok\ *)
		serial=$(echo "$r" | cut -d' ' -f2)
		desc=$(echo "$r" | cut -d' ' -f3- | lower)
		;;
	esac
	ok=
	if [ -n "$serial" ] && [ -n "$fpr" ]; then
		case "$desc" in
		*"$fpr"*) ok=1 ;;
		esac
	fi
	verdict "load_$name" "$ok" "add: ${r:-no result}" \
		"gpg's fingerprint: ${fpr:-missing}"
	outcome key "$name" "$r"
	if [ ! -e "$k.params" ]; then
		verdict "verify_$name" 0 "no $k.params (tools/pgp-sig.py)"
		verdict "tampered_$name" 0 "no $k.params (tools/pgp-sig.py)"
		outcome verify "$name" not-run
		outcome tampered "$name" not-run
	elif [ -z "$serial" ]; then
		verdict "verify_$name" 0 "the key was not added"
		verdict "tampered_$name" 0 "the key was not added"
		outcome verify "$name" not-run
		outcome tampered "$name" not-run
	else
		v=$(pgp-load verify "$serial" "$k.digest" "$k.ksig" "$k.params")
		verdict "verify_$name" "$([ "$v" = "verify ok" ] && echo 1)" \
			"$(cat "$k.params"): ${v:-no result}"
		outcome verify "$name" "${v#verify }"
		v=$(pgp-load verify "$serial" "$k.digest-bad" "$k.ksig" \
			"$k.params")
		case "$v" in
		"verify E"*) ok=1 ;;
		*) ok= ;;
		esac
		verdict "tampered_$name" "$ok" \
			"one bit of the digest flipped: ${v:-no result}"
		outcome tampered "$name" "${v#verify }"
	fi
	[ -n "$serial" ] && unlink_key "$serial"
done

# 2. A key the kernel cannot use.
r=$(add "$keys/ed25519.pgp")
verdict ed25519_refused "$([ "$r" = ENOPKG ] && echo 1)" \
	"add: ${r:-no result}"
outcome key ed25519 "$r"
case "$r" in
ok\ *) unlink_key "$(echo "$r" | cut -d' ' -f2)" ;;
esac

# 3. The mutated keys: each is added (and unlinked) or refused with an
# error of the parser.
pgp-load fuzz "$data/fuzz" > /tmp/pgp-fuzz.out
grep '^fuzz ' /tmp/pgp-fuzz.out | printable
total=$(sed -n 's/^fuzz-total //p' /tmp/pgp-fuzz.out)
bad=$(awk -v acc=" $accepted " '$1 == "fuzz" &&
	index(acc, " " $3 " ") == 0 { print $2 }' /tmp/pgp-fuzz.out)
ok=
[ -z "$bad" ] && [ "${total:-0}" -ge 2000 ] && ok=1
diags=/tmp/pgp-fuzz.diag
grep '^fuzz-count ' /tmp/pgp-fuzz.out > "$diags"
for f in $(echo "$bad" | head -10); do
	echo "fuzz $f $(grep "^fuzz $f " /tmp/pgp-fuzz.out | cut -d' ' -f3):" \
		"$(grep "^$f " "$data/fuzz/index.txt" | cut -d' ' -f2-)"
done >> "$diags"
verdict fuzz_rejected "$ok" \
	"${total:-no} blobs tried, $(echo "$bad" | grep -c .) results not in: $accepted"
printable < "$diags" | sed 's/^/    # /' >> "$cases"

# 4. A parser that faults, contained by the sandbox. The reports of
# stopped sandboxes are rate-limited (10 in 5 s): let the interval of the
# last one run out, and try again while a fault gave no report.
fault_case() {
	kind=$1 tc=fault_${1}_contained
	if [ ! -w "$param/inject_fault" ]; then
		verdict "$tc" "skip no fault injection in this kernel"
		return
	fi
	if [ "$sbm" != Y ]; then
		verdict "$tc" \
			"skip pgp_key_parser.sbm=$sbm: the fault would not be contained"
		return
	fi
	last=$(dmesg | grep 'sbm: .* stopped:' | tail -1 |
		sed -n 's/^\[ *\([0-9]*\.[0-9]*\)\].*/\1/p')
	if [ -n "$last" ]; then
		sleep "$(awk -v l="$last" -v t="$(cut -d' ' -f1 /proc/uptime)" \
			'BEGIN { w = l + 6 - t; printf "%.1f", (w > 0 ? w : 0) }')"
	fi
	try=0 results=
	while :; do
		try=$((try + 1))
		marker="pgp: inject_fault=$kind, try $try"
		echo "$marker" > /dev/kmsg
		echo "$kind" > "$param/inject_fault"
		r=$(add "$keys/rsa2048.pgp")
		echo none > "$param/inject_fault"
		results="$results ${r%% *}"
		case "$r" in
		ok\ *) unlink_key "$(echo "$r" | cut -d' ' -f2)" ;;
		esac
		logged=$(dmesg | sed -n "/$marker\$/,\$p" | grep -F "$report" |
			head -1 | sed 's/^\[[^]]*\] *//')
		[ -n "$logged" ] || [ "$r" != EFAULT ] || [ "$try" -ge 5 ] && break
		sleep 2
	done
	after=$(add "$keys/rsa2048.pgp")
	case "$after" in
	ok\ *) unlink_key "$(echo "$after" | cut -d' ' -f2)" ;;
	esac
	ok=
	[ "$r" = EFAULT ] && [ -n "$logged" ] && [ "${after%% *}" = ok ] && ok=1
	verdict "$tc" "$ok" "rsa2048 with inject_fault=$kind, $try tries:$results" \
		"${logged:-no report of a stopped sandbox}" \
		"inject_fault=none, then rsa2048: ${after:-no result}"
}
fault_case oob_write
fault_case wild_pointer

# 5. No taint, no leak.
taint1=$(cat /proc/sys/kernel/tainted)
verdict kernel_untainted "$([ "$taint0" = "$taint1" ] && echo 1)" \
	"tainted $taint0 before the scene, $taint1 after"

leaks=/sys/kernel/debug/kmemleak
if [ -e "$leaks" ]; then
	# The unlinked keys go to the key garbage collector; kmemleak reports
	# no object younger than 5 seconds, and only those that stayed
	# unreferenced over two scans.
	sleep 6
	echo scan > "$leaks"
	echo scan > "$leaks"
	cat "$leaks" > /tmp/pgp-leaks
	all=$(grep -c '^unreferenced object' /tmp/pgp-leaks)
	# The reports with pgp in their backtrace (not in the name of the
	# task, pgp-load): one paragraph per object.
	awk '/^unreferenced object/ { if (hit) printf "%s", obj
				      obj = ""; bt = 0; hit = 0 }
	     { obj = obj $0 "\n" }
	     /^ *backtrace/ { bt = 1 }
	     bt && /pgp/ { hit = 1 }
	     END { if (hit) printf "%s", obj }' /tmp/pgp-leaks \
		> /tmp/pgp-leaks.pgp
	found=$(grep -c '^unreferenced object' /tmp/pgp-leaks.pgp)
	verdict no_leak "$([ "$found" = 0 ] && echo 1)" \
		"kmemleak: $all unreferenced objects, $found with pgp in the backtrace"
	head -30 /tmp/pgp-leaks.pgp | printable | sed 's/^/    # /' >> "$cases"
else
	verdict no_leak "skip no kmemleak in this kernel"
fi

failed=$(grep -c '^    not ok ' "$cases")
echo "KTAP version 1"
echo "1..1"
echo "    KTAP version 1"
echo "    # Subtest: pgp_keys"
echo "    1..$n"
cat "$cases"
if [ "$failed" = 0 ]; then
	echo "ok 1 pgp_keys"
else
	echo "not ok 1 pgp_keys"
fi
echo "end"
