#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The OpenPGP scene of make demo: keys made by gpg (tools/pgp-keys.sh,
# under /pgp) become kernel keys through the OpenPGP key parser, which
# parses them in SandBox Mode; the kernel checks gpg's signatures with
# them, refuses what it cannot use and, on a kernel with the parser's
# debug fault switch, contains a parser that goes wrong.
keys=/pgp/keys
param=/sys/module/pgp_key_parser/parameters

caption() {
	echo
	echo "=== $* ==="
}

# add NAME: add NAME.pgp as an asymmetric key; sets serial.
add() {
	r=$(pgp-load add "$keys/$1.pgp" | sed -n 's/^add [^ ]* //p')
	echo "\$ add_key asymmetric < $1.pgp"
	case "$r" in
	ok\ *)
		serial=$(echo "$r" | cut -d' ' -f2)
		echo "  key $serial: $(echo "$r" | cut -d' ' -f3-)"
		;;
	*)
		serial=
		echo "  refused: ${r:-no result}"
		;;
	esac
}

# verify NAME SERIAL DIGEST: check gpg's signature with the key.
verify() {
	r=$(pgp-load verify "$2" "$keys/$1.$3" "$keys/$1.ksig" \
		"$keys/$1.params")
	printf '  %-11s %-22s %s\n' "$3" "$(cat "$keys/$1.params")" \
		"${r#verify }"
}

unlink_key() {
	[ -n "$1" ] && pgp-load unlink "$1" > /dev/null
}

caption "OpenPGP public keys parsed in SandBox Mode, on Linux $(uname -r)"
if [ ! -e "$param/sbm" ] || [ ! -d "$keys" ]; then
	echo "Needs the OpenPGP key parser (CONFIG_PGP_KEY_PARSER) and the keys"
	echo "of tools/pgp-keys.sh."
	exit 0
fi
sbm=$(cat "$param/sbm")
echo "pgp_key_parser.sbm = $sbm: add_key(\"asymmetric\", ...) hands the"
echo "OpenPGP packets to a parser in a sandbox; the kernel checks what it"
echo "describes against the packets before it builds the key."

caption "1. Keys made by gpg"
add rsa2048
rsa=$serial
add nistp256
ec=$serial
echo "gpg's fingerprints: $(cat "$keys/rsa2048.fpr"), $(cat "$keys/nistp256.fpr")"
echo "\$ grep asymmetri /proc/keys"
grep asymmetri /proc/keys | sed 's/^/  /'

caption "2. gpg's signatures, checked by the kernel"
echo "gpg signed data.txt with each key; keyctl pkey_verify checks the"
echo "digest that the signature covers, then the same digest with one bit"
echo "flipped:"
if [ -n "$rsa" ]; then
	echo "rsa2048:"
	verify rsa2048 "$rsa" digest
	verify rsa2048 "$rsa" digest-bad
fi
if [ -n "$ec" ]; then
	echo "nistp256:"
	verify nistp256 "$ec" digest
	verify nistp256 "$ec" digest-bad
fi
unlink_key "$rsa"
unlink_key "$ec"

caption "3. A key the kernel cannot use"
echo "The kernel has no Ed25519:"
add ed25519
unlink_key "$serial"

if [ ! -w "$param/inject_fault" ] || [ "$sbm" != Y ]; then
	exit 0
fi
caption "4. A parser with a bug, contained"
# The boot-time self-tests used up the report rate limit (10 in 5 s).
sleep 5
echo "This kernel has the parser's debug fault switch. With it, the parser"
echo "writes a page past its output, or reads through a pointer into the"
echo "kernel, once it has parsed the key packet."
taint=$(cat /proc/sys/kernel/tainted)
mark=$(dmesg | wc -l)
for fault in oob_write wild_pointer; do
	echo "$fault" > "$param/inject_fault"
	echo "inject_fault = $fault:"
	add rsa2048
	unlink_key "$serial"
done
echo none > "$param/inject_fault"
echo "What the kernel logged:"
dmesg | tail -n +"$((mark + 1))" | sed -n 's/^\[[ 0-9.]*\] \(sbm: .*\)/  \1/p'
echo "The kernel carries on: with the switch off the key loads, and no new taint."
add rsa2048
unlink_key "$serial"
echo "  taint before: $taint, after: $(cat /proc/sys/kernel/tainted)"
