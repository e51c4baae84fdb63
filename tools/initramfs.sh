#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build build/initramfs.cpio.gz: static busybox, the init script, the
# scenes of tools/initramfs/, the user-space helpers (benchmark, AppArmor
# policy loader, OpenPGP key loader, the boundary fuzzer's oracle), the
# AppArmor policies and the OpenPGP test data when built, and the modules
# of the configurations given as arguments.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
root=$top/build/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,dev,proc,sys}
cp /bin/busybox "$root/bin/busybox"
gcc -static -O2 -o "$root/bin/nullsys" "$top/tools/bench/nullsys.c"
gcc -static -O2 -o "$root/bin/apparmor-load" "$top/tools/apparmor-load.c"
gcc -static -O2 -o "$root/bin/pgp-load" "$top/tools/pgp-load.c"
gcc -static -O2 -o "$root/bin/sbm-fuzz-oracle" "$top/tools/sbm-fuzz-oracle.c"
install -m 755 "$top/tools/initramfs/init" "$root/init"
install -m 755 "$top"/tools/initramfs/*.sh "$root/"
mkdir -p "$root/lib/modules"
for cfg in "$@"; do
	find "$top/build/$cfg" -path '*/sbm/*' -name '*.ko' -exec cp {} "$root/lib/modules/" \;
done
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -9) > "$top/build/initramfs.cpio.gz"

# The AppArmor policies of the apparmor and apparmor-cve scenes, those
# that were made (tools/apparmor-corpus.sh, tools/apparmor-fuzz.py,
# tools/apparmor-exploit.py), under /apparmor: a second archive after the
# first (the kernel unpacks one after the other), lightly compressed:
# gzip -9 takes 13 s for their 55 MB, gzip -1 one.
aa=$top/build/initramfs-apparmor
rm -rf "$aa"
for set in corpus confine fuzz exploit; do
	[ -d "$top/build/apparmor/$set" ] || continue
	mkdir -p "$aa/apparmor/$set"
	find "$top/build/apparmor/$set" -maxdepth 1 -name '*.bin' \
		-exec cp -t "$aa/apparmor/$set" {} +
done
if [ -d "$aa/apparmor" ]; then
	(cd "$aa" && find apparmor | cpio -o -H newc --quiet | gzip -1) \
		>> "$top/build/initramfs.cpio.gz"
fi

# The OpenPGP test data of the pgp scenes, when made (tools/pgp-keys.sh):
# the keys and what goes with them, the signed text and the mutated keys,
# under /pgp, in an archive of their own after the others.
pgp=$top/build/initramfs-pgp
rm -rf "$pgp"
if [ -d "$top/build/pgp/keys" ]; then
	mkdir -p "$pgp/pgp/keys" "$pgp/pgp/fuzz"
	cp -t "$pgp/pgp/keys" "$top"/build/pgp/keys/*
	cp -t "$pgp/pgp" "$top/build/pgp/data.txt"
	if [ -d "$top/build/pgp/fuzz" ]; then
		find "$top/build/pgp/fuzz" -maxdepth 1 \
			\( -name '*.bin' -o -name index.txt \) \
			-exec cp -t "$pgp/pgp/fuzz" {} +
	fi
	(cd "$pgp" && find pgp | cpio -o -H newc --quiet | gzip -1) \
		>> "$top/build/initramfs.cpio.gz"
fi
