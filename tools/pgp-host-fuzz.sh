#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fuzz the OpenPGP packet parser on the host: build the kernel's
# linux/crypto/asymmetric_keys/pgp_packet.c for user space with
# AddressSanitizer and UBSan (tools/pgp-host-fuzz.c, .h), run it on gpg's
# keys, on the fuzz blobs of the pgp scene and on 200,000 seeded mutations
# of the keys, and print the KTAP suite pgp_host_fuzz:
#   keys       the keys parse: all but ed25519, which gets ENOPKG
#   fuzz_blobs the 2,000 blobs of tools/pgp-fuzz.py
#   mutations  200,000 mutations (truncations, bit flips, boundary
#              values, repeated and dropped chunks, random tails)
# A case fails on a sanitizer report, on a result other than 0, EBADMSG,
# EINVAL or ENOPKG, or on a description that points outside the blob.
# Needs build/pgp (tools/pgp-keys.sh).
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=build/pgp-host
keys=build/pgp/keys
mutations=${PGP_HOST_MUTATIONS:-200000}

rm -rf "$out"
mkdir -p "$out/include/linux"
# The parser's kernel includes: what it uses is in pgp-host-fuzz.h.
for h in bitops errno kernel sbm string types unaligned; do
	: > "$out/include/linux/$h.h"
done
gcc -O1 -g -Wall -fsanitize=address,undefined -fno-sanitize-recover=all \
	-include tools/pgp-host-fuzz.h -I"$out/include" \
	-Ilinux/crypto/asymmetric_keys -o "$out/pgp-host-fuzz" \
	linux/crypto/asymmetric_keys/pgp_packet.c tools/pgp-host-fuzz.c

n=0
status=0
echo "KTAP version 1"
echo "1..1"
echo "    KTAP version 1"
echo "    # Subtest: pgp_host_fuzz"
echo "    1..3"
# run NAME CHECK ARGS...: one case; CHECK is a grep -x pattern that the
# output must also match, or "".
run() {
	local name=$1 check=$2 ok=1 log=$out/$1.log
	shift 2
	n=$((n + 1))
	ASAN_OPTIONS=detect_leaks=1 "$out/pgp-host-fuzz" "$@" > "$log" 2>&1 || ok=0
	[ -z "$check" ] || grep -qx "$check" "$log" || ok=0
	grep -E '^(parsed|result) |Sanitizer|runtime error|^broken ' "$log" |
		head -n 12 | sed "s/^/    # $name: /"
	if [ $ok = 1 ]; then
		echo "    ok $n $name"
	else
		echo "    not ok $n $name"
		status=1
	fi
}
mapfile -t key_files < <(ls "$keys"/*.pgp)
run keys "result ENOPKG 1" files "${key_files[@]}"
run fuzz_blobs "parsed 2000" files build/pgp/fuzz/*.bin
run mutations "parsed $mutations" mutate 1 "$mutations" "${key_files[@]}"
if [ $status = 0 ]; then
	echo "ok 1 pgp_host_fuzz"
else
	echo "not ok 1 pgp_host_fuzz"
fi
exit $status
