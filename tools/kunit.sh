#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make kunit: run the KUnit suites of each directory of the series that
# has a .kunitconfig with the kernel's own runner,
# tools/testing/kunit/kunit.py, in build/linux: an x86-64 kernel per
# directory (build/kunit/<dir>, ccache), booted in QEMU with the CPU
# features strong isolation uses. Prints kunit.py's summary of each and
# is non-zero if any failed.
#
# KUNIT_DIRS="kernel/sbm" limits the run to those directories.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
dirs=${KUNIT_DIRS:-kernel/sbm arch/x86/kernel/sbm security/apparmor crypto/asymmetric_keys}

[ -d "$tree/.git" ] || { echo "kunit: run make tree first" >&2; exit 1; }
export CCACHE_BASEDIR=$top CCACHE_NOHASHDIR=1
status=0
for dir in $dirs; do
	out=$top/build/kunit/${dir//\//-}
	mkdir -p "$out"
	echo "kunit: $dir"
	(cd "$tree" && python3 tools/testing/kunit/kunit.py run --arch=x86_64 \
		--kunitconfig="$dir" --build_dir="$out" \
		--make_options CC="ccache gcc" --jobs="$(nproc)" \
		--qemu_args="-cpu max -smp 2" --timeout=900) > "$out/kunit.log" 2>&1 ||
		status=1
	grep -E 'Testing complete|ERROR|error:' "$out/kunit.log" | tail -n 3
done
exit $status
