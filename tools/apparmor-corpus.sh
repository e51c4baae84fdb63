#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build a corpus of real binary AppArmor policies for the tests of the
# kernel's policy unpacker: every profile file of Debian's apparmor,
# apparmor-profiles and apparmor-profiles-extra, compiled on the host by
# apparmor_parser into build/apparmor/corpus/NAME.bin (NAME: the file's
# name), one blob per file (all its profiles, as apparmor_parser would
# write them to the kernel). Also compiles the confinement test profiles
# of tools/apparmor-confine.profile into build/apparmor/confine/profiles.bin.
#
# The host's kernel plays no part: the policy is compiled for the feature
# set of our 6.12 apparmor kernel, tools/apparmor-features.txt (dumped from
# its securityfs by the apparmor-features scene of the initramfs), with
# the policy feature ABI that Debian pins for profiles without an abi rule
# (/usr/share/apparmor-features/features, as /etc/apparmor/parser.conf
# says). The parser reads only a private copy of the packages' files
# (build/apparmor/policy), so local changes under /etc/apparmor.d and
# profiles of other packages do not leak in; same packages, same corpus.
#
# Files that do not compile are skipped and listed, with the parser's
# reason, in build/apparmor/corpus-failed.txt; build/apparmor/corpus.txt
# lists the corpus (name, bytes, sha256, source).
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/apparmor
features=$top/tools/apparmor-features.txt
packages=(apparmor apparmor-profiles apparmor-profiles-extra)
export LC_ALL=C

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "apparmor-corpus: installing ${missing[*]}"
	sudo=()
	[ "$(id -u)" = 0 ] || sudo=(sudo)
	"${sudo[@]}" apt-get update -q
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q \
		--no-install-recommends "${missing[@]}"
fi

# The private policy tree: the packages' own files, nothing else.
tree=$out/policy
rm -rf "$tree" "$out/corpus" "$out/confine"
mkdir -p "$tree" "$out/corpus" "$out/confine"
dpkg-query -L "${packages[@]}" | sort -u | while read -r f; do
	case "$f" in
	/etc/apparmor.d | /etc/apparmor.d/* | \
	/usr/share/apparmor/extra-profiles | /usr/share/apparmor/extra-profiles/* | \
	/usr/share/apparmor-features | /usr/share/apparmor-features/*) ;;
	*) continue ;;
	esac
	if [ -d "$f" ]; then
		mkdir -p "$tree$f"
	elif [ -f "$f" ]; then
		install -D -m 644 "$f" "$tree$f"
	fi
done

base=$tree/etc/apparmor.d
# As the packages' maintainer scripts do (dh_apparmor), give every profile
# an empty local/NAME, which some include without "if exists".
for f in "$base"/* "$tree"/usr/share/apparmor/extra-profiles/*; do
	[ -f "$f" ] && [ ! -e "$base/local/${f##*/}" ] && : > "$base/local/${f##*/}"
done
parser=(apparmor_parser --config-file=/dev/null --skip-kernel-load --skip-cache
	--base "$base" --Include "$base"
	--kernel-features "$features"
	--policy-features "$tree/usr/share/apparmor-features/features")

# Profile files: the top of /etc/apparmor.d, apache2.d (hats), the extra
# profiles; not abstractions, tunables, abi, local, disable, force-complain.
sources=()
for f in "$base"/* "$base"/apache2.d/* "$tree"/usr/share/apparmor/extra-profiles/*; do
	[ -f "$f" ] || continue
	case "${f##*/}" in
	README | *.md | *.dpkg-*) continue ;;
	esac
	sources+=("$f")
done

list=$out/corpus.txt failed=$out/corpus-failed.txt
{
	echo "# $(apparmor_parser --version | head -1)"
	for p in "${packages[@]}"; do
		dpkg-query -W -f='# ${Package} ${Version}\n' "$p"
	done
	echo "# kernel features: tools/apparmor-features.txt $(sha256sum < "$features" | cut -c1-16)"
	echo "# name bytes sha256 source"
} > "$list"
: > "$failed"
declare -A taken=()
count=0 bytes=0
for src in "${sources[@]}"; do
	rel=${src#"$tree"}
	name=${src##*/}
	# Names are unique today; should two packages ever ship the same file
	# name, the later one is named after its directory too.
	if [ -n "${taken[$name]:-}" ]; then
		dir=${src%/*}
		name=${dir##*/}.$name
	fi
	taken[$name]=1
	blob=$out/corpus/$name.bin
	if "${parser[@]}" --stdout "$src" > "$blob" 2> "$out/parser.err" &&
			[ -s "$blob" ]; then
		size=$(stat -c %s "$blob")
		echo "$name $size $(sha256sum < "$blob" | cut -d' ' -f1) $rel" >> "$list"
		count=$((count + 1)) bytes=$((bytes + size))
	else
		rm -f "$blob"
		reason=$(grep -v '^Warning' "$out/parser.err" | head -1 | sed "s#$tree##g")
		echo "$name $rel: ${reason:-no output}" >> "$failed"
	fi
done
rm -f "$out/parser.err"

"${parser[@]}" --stdout "$top/tools/apparmor-confine.profile" > "$out/confine/profiles.bin"

echo "apparmor-corpus: $count profile files, $bytes bytes in build/apparmor/corpus" \
	"($(wc -l < "$failed") did not compile: build/apparmor/corpus-failed.txt)"
