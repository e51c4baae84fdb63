#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Disassemble the streams that the SandBox Mode boundary fuzzer printed
# with a finding: reads a boot log (or stdin) and prints each stream as
# x86-64 assembly.
#   tools/sbm-fuzz-disasm.sh build/strong/fuzz-plain.log [INDEX]
set -euo pipefail

log=${1:--}
want=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Lines "sbm_fuzz: stream N +OFF: HEX", 32 bytes each, in order.
tr -d '\r' < "$log" | sed -nE 's/.*sbm_fuzz: stream ([0-9]+) \+[0-9a-f]+: ([0-9a-f]+)$/\1 \2/p' |
while read -r index hex; do
	printf '%s' "$hex" >> "$tmp/$index.hex"
done

found=0
for f in "$tmp"/*.hex; do
	[ -e "$f" ] || break
	index=$(basename "$f" .hex)
	[ -n "$want" ] && [ "$want" != "$index" ] && continue
	found=1
	python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(open(sys.argv[1]).read()))' \
		"$f" > "$tmp/$index.bin"
	echo "stream $index ($(stat -c %s "$tmp/$index.bin") bytes):"
	objdump -b binary -m i386:x86-64 -D "$tmp/$index.bin" | sed -n '/<.data>:/,$p' | tail -n +2
done
[ "$found" = 1 ] || { echo "sbm-fuzz-disasm: no stream found in $log" >&2; exit 1; }
