#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make the OpenPGP test data of the OpenPGP public key parser, in
# build/pgp/:
#   gnupg/         a throwaway GnuPG home, with the secret keys
#   keys/NAME.pgp  the public key made by gpg (gpg --export: the primary
#                  key, its user ID and self-signature), for NAME in
#                  rsa2048 rsa3072 rsa4096 nistp256 nistp384 nistp521
#                  ed25519
#   keys/NAME.fpr  its fingerprint as gpg prints it (upper-case hex)
#   keys/NAME.uid  its user ID
#   keys/NAME.sig  gpg's detached binary signature of data.txt by the key
#   keys/NAME.{digest,digest-bad,ksig,params}
#                  what keyctl pkey_verify takes to check that signature
#                  (tools/pgp-sig.py), for each key the kernel can use
#   keys/v6-rsa2048.*, keys/v6-nistp256.*
#                  the same two keys as version 6 keys (tools/pgp-v6.py),
#                  with the signature files of the version 4 key
#   keys/rsa2048-padded.bin
#                  rsa2048.pgp and a padding packet of 12 KiB, too big for
#                  the sandbox the key parser keeps (make bench)
#   data.txt       the signed text
#   fuzz/          mutated keys (tools/pgp-fuzz.py)
# Keys are made only when missing (or when their secret part is gone), the
# other files only when missing or older than what they come from, so
# running it again is quick.
# tools/initramfs.sh puts keys/, data.txt and fuzz/ in the initramfs.
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

out=build/pgp
keys=$out/keys
export GNUPGHOME=$top/$out/gnupg
names=(rsa2048 rsa3072 rsa4096 nistp256 nistp384 nistp521 ed25519)

mkdir -p "$keys" "$GNUPGHOME"
chmod 700 "$GNUPGHOME"
# Stop the gpg-agent that gpg starts for this home when done.
trap 'gpgconf --kill gpg-agent 2>/dev/null || true' EXIT
gpg=(gpg --batch --quiet --no-tty --pinentry-mode loopback --passphrase '')

# digest NAME: the hash algorithm of NAME's signature, as gpg names it.
digest() {
	case "$1" in
	rsa* | nistp256) echo SHA256 ;;
	nistp384) echo SHA384 ;;
	*) echo SHA512 ;;
	esac
}

# stale TARGET SOURCE...: whether TARGET is missing or older than a
# SOURCE.
stale() {
	local target=$1 src
	shift
	[ -s "$target" ] || return 0
	for src in "$@"; do
		[ "$src" -nt "$target" ] && return 0
	done
	return 1
}

# The signed text: fixed, so that only the keys differ from run to run.
data=$out/data.txt
if [ ! -s "$data" ]; then
	cat > "$data" <<-EOF
	SandBox Mode test data for the OpenPGP public key parser.
	Signed by each test key of tools/pgp-keys.sh with a detached binary
	signature; tools/pgp-sig.py turns each signature into the input of
	keyctl pkey_verify.
	EOF
fi

for name in "${names[@]}"; do
	uid="SBM test $name <$name@sbm.test>"
	fpr=
	[ -s "$keys/$name.fpr" ] && fpr=$(cat "$keys/$name.fpr")
	# Make the key when missing, or when its secret part is gone.
	if [ ! -s "$keys/$name.pgp" ] || [ -z "$fpr" ] ||
		! "${gpg[@]}" --list-secret-keys "$fpr" > /dev/null 2>&1; then
		echo "pgp-keys: generating $name"
		created=$("${gpg[@]}" --status-fd 1 --quick-generate-key \
			"$uid" "$name" sign never |
			awk '$2 == "KEY_CREATED" { print $4 }')
		[ -n "$created" ] || { echo "pgp-keys: no key for $uid" >&2; exit 1; }
		# The fingerprint as gpg lists it: the first fpr record.
		fpr=$("${gpg[@]}" --with-colons --fingerprint "$created" |
			awk -F: '$1 == "fpr" { print $10; exit }')
		[ "$fpr" = "$created" ] ||
			{ echo "pgp-keys: $name: $fpr, not $created" >&2; exit 1; }
		"${gpg[@]}" --export "$fpr" > "$keys/$name.pgp"
		echo "$fpr" > "$keys/$name.fpr"
		echo "$uid" > "$keys/$name.uid"
		rm -f "$keys/$name.sig"
	fi
	if [ ! -s "$keys/$name.sig" ] || [ "$data" -nt "$keys/$name.sig" ]; then
		rm -f "$keys/$name.sig"
		"${gpg[@]}" -u "$fpr!" --digest-algo "$(digest "$name")" \
			--detach-sign -o "$keys/$name.sig" "$data"
	fi
	# The kernel has no Ed25519: that key is to be refused, and its
	# signature cannot be checked there.
	if [ "$name" != ed25519 ] && stale "$keys/$name.params" \
		"$keys/$name.pgp" "$keys/$name.sig" tools/pgp-sig.py; then
		python3 tools/pgp-sig.py --key "$keys/$name.pgp" \
			"$data" "$keys/$name.sig" "$keys/$name"
	fi
done

# The version 6 keys, and the version 4 keys' signatures for them: the
# key material is the same.
for name in rsa2048 nistp256; do
	v6=$keys/v6-$name
	if stale "$v6.fpr" "$keys/$name.pgp" tools/pgp-v6.py; then
		python3 tools/pgp-v6.py "$keys/$name.pgp" "$v6"
	fi
	if stale "$v6.params" "$v6.pgp" "$keys/$name.sig" tools/pgp-sig.py; then
		python3 tools/pgp-sig.py --key "$v6.pgp" \
			"$data" "$keys/$name.sig" "$v6"
	fi
done

# The mutated keys, from every key, when missing or older than a key.
# A padding packet (tag 21, RFC 9580 section 5.15), new format with a
# five-octet length, of zeros.
if stale "$keys/rsa2048-padded.bin" "$keys/rsa2048.pgp"; then
	{ cat "$keys/rsa2048.pgp"; printf '\325\377\000\000\060\000'
	  head -c 12288 /dev/zero; } > "$keys/rsa2048-padded.bin"
fi

if [ ! -s "$out/fuzz/index.txt" ] ||
	stale "$out/fuzz/index.txt" "$keys"/*.pgp tools/pgp-fuzz.py; then
	rm -rf "$out/fuzz"
	python3 tools/pgp-fuzz.py "$out/fuzz" "$keys"/*.pgp
fi
