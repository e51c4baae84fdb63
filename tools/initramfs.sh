#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build build/initramfs.cpio.gz: static busybox, the init script, the
# scenes of tools/initramfs/, the user-space benchmark helper and the
# modules of the configurations given as arguments.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
root=$top/build/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,dev,proc,sys}
cp /bin/busybox "$root/bin/busybox"
gcc -static -O2 -o "$root/bin/nullsys" "$top/tools/bench/nullsys.c"
install -m 755 "$top/tools/initramfs/init" "$root/init"
install -m 755 "$top"/tools/initramfs/*.sh "$root/"
mkdir -p "$root/lib/modules"
for cfg in "$@"; do
	find "$top/build/$cfg" -path '*/sbm/*' -name '*.ko' -exec cp {} "$root/lib/modules/" \;
done
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -9) > "$top/build/initramfs.cpio.gz"
