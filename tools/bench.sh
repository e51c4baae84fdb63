#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: boot the weak and the strong kernel under QEMU's instruction
# counting, run the benchmark scene in each and print one table; then time
# AppArmor loading its policy corpus with the unpacker in SandBox Mode and
# without, in one boot of the strong kernel, and add_key() of OpenPGP keys
# with the key parser in SandBox Mode and without, in another. kmemleak is
# off in every bench boot. Each table is also kept in build/bench/, for
# the cover letters of make series.
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

tools/deps.sh
tools/prepare-tree.sh
tools/build.sh weak
tools/build.sh strong
tools/apparmor-corpus.sh
tools/pgp-keys.sh
tools/initramfs.sh
mkdir -p build/bench
for cfg in weak strong; do
	SBM_QEMU_ARGS="-icount shift=0,sleep=off" \
	tools/boot.sh "$cfg" -i build/initramfs.cpio.gz \
		-c "build/$cfg/bench-console.log" -t 900 \
		kunit.enable=0 kmemleak=off sbm_scene=bench > "build/$cfg/bench.txt"
done
echo
python3 tools/bench-table.py build/weak/bench.txt build/strong/bench.txt |
	tee build/bench/sbm.txt

SBM_QEMU_ARGS="-icount shift=0,sleep=off" \
tools/boot.sh strong -i build/initramfs.cpio.gz \
	-c build/strong/bench-apparmor-console.log -t 900 \
	kunit.enable=0 kmemleak=off sbm_scene=apparmor-bench > build/apparmor/bench.txt
echo
if grep -q "^apparmor-load error" build/apparmor/bench.txt ||
	! grep -q "^apparmor-load on " build/apparmor/bench.txt; then
	grep "^apparmor-load" build/apparmor/bench.txt >&2
	echo "bench: the AppArmor corpus did not load cleanly" >&2
	exit 1
fi
awk '$1 == "apparmor-corpus" { files = $2; bytes = $4 }
	$1 == "apparmor-load" && $2 == "off" { off += $4; rounds++ }
	$1 == "apparmor-load" && $2 == "on" { on += $4 }
	END {
		printf "AppArmor policy load, %d files (%d bytes), mean of %d rounds in one boot (emulated ms):\n", files, bytes, rounds
		printf "  without SandBox Mode %8.1f\n", off / rounds / 1e6
		printf "  with SandBox Mode    %8.1f\n", on / rounds / 1e6
		printf "  ratio                %8.3f (goal: at most 1.15)\n", on / off
	}' build/apparmor/bench.txt | tee build/bench/apparmor.txt

SBM_QEMU_ARGS="-icount shift=0,sleep=off" \
tools/boot.sh strong -i build/initramfs.cpio.gz \
	-c build/strong/bench-pgp-console.log -t 900 \
	kunit.enable=0 kmemleak=off sbm_scene=pgp-bench > build/pgp/bench.txt
echo
if grep -q "^pgp-bench error" build/pgp/bench.txt ||
	! grep -q "^pgp-bench .* ratio " build/pgp/bench.txt; then
	grep "^pgp-bench" build/pgp/bench.txt >&2
	echo "bench: the OpenPGP keys did not load cleanly" >&2
	exit 1
fi
awk '$1 == "pgp-bench" && $3 == "sbm=0" { off[$2] = $4 }
	$1 == "pgp-bench" && $3 == "sbm=1" { on[$2] = $4; keys[++n] = $2 }
	END {
		print "OpenPGP key load, add_key() of a key made by gpg, mean of 200 in one boot (emulated us):"
		printf "  %-10s %14s %14s %8s\n", "key", "without SBM", "with SBM", "ratio"
		for (i = 1; i <= n; i++)
			printf "  %-10s %14.1f %14.1f %8.3f\n", keys[i], off[keys[i]] / 1e3, on[keys[i]] / 1e3, on[keys[i]] / off[keys[i]]
		print "  (goal: a ratio of at most 1.5)"
	}' build/pgp/bench.txt | tee build/bench/pgp.txt
