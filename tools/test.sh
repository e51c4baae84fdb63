#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build every configuration, boot each in QEMU to run its KUnit suites, and
# judge the logs. Ends with "N passed, N failed, N skipped" over all boots;
# exits non-zero on any failed case, kernel trouble or unfinished boot.
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

# label:configuration:CPU model:extra kernel arguments. An empty CPU model
# is QEMU's "-cpu max", which has LA57, so the default boots use 5-level
# paging and no5lvl tests 4-level paging. With an Intel vendor, SYSENTER
# works in 64-bit mode and Linux takes the CPU for one with Meltdown and
# MDS: PTI and the clearing of CPU buffers come on by themselves. TCG has
# no IBRS, IBPB, STIBP, SSBD or MD_CLEAR, so of the other mitigations only
# the LFENCE flavour of Spectre v2 changes the code that runs (with it, BHB
# clearing on system calls).
#
# Three kernels: off, weak and strong. The strong kernel carries modules,
# AppArmor and the OpenPGP key parser, so that the boots differ only in
# their arguments. The strong-* boots run SandBox Mode's own suites
# (kmemleak off); each fuzzes the boundary with 20,000 streams of its own
# seed (sandbox_mode_fuzz). The plant-* boots break one piece of the
# boundary on purpose (sbm.plant=) and check that the fuzzer finds that
# (sandbox_mode_planted). The oracle boot runs without KASLR: the kernel
# addresses in its streams, and so its streams, are the same every time.
# Boots with sbm_scene= also start the initramfs, which plays the scene,
# and run every suite of the kernel with a shorter fuzz: the modules
# scene loads a module of sandboxed targets, the apparmor scene feeds
# AppArmor's policy unpacker real and bad policies, with the unpacker in
# SandBox Mode and without, and the apparmor-cve scene checks that the
# sandbox contains CVE-2026-23407, which apparmor.dfa_default_bug=1 (test
# only) puts back. The pgp scene loads
# OpenPGP keys made by gpg and 2,000 bad ones, with the key parser in
# SandBox Mode and without, and injects faults in the parser.
#
# Every boot runs with panic_on_warn=1 and panic_on_taint, so that a WARN
# or any taint a target provokes ends the boot with a panic that the log
# judge reports: the mask is every taint flag but TAINT_TEST (N, which
# KUnit sets), and for the weak boot also but TAINT_DIE (D), which its
# guard-page cases cause on purpose by killing their threads.
intel=max,vendor=GenuineIntel
strict="panic_on_warn=1 panic_on_taint=0x3ffff"
weak_strict="panic_on_warn=1 panic_on_taint=0x3ff7f"
own="kunit.filter_glob=sandbox_mode* kmemleak=off sbm_fuzz_test.seed"
plant="kunit.filter_glob=sandbox_mode_planted kmemleak=off sbm.plant"
scene="sbm_fuzz_test.streams=2000 sbm_scene"
runs=(
	"off:off::"
	"weak:weak::$weak_strict"
	"strong:strong::$own=1"
	"strong-pti:strong::pti=on $own=2"
	"strong-nopcid:strong::nopcid $own=4"
	"strong-4level:strong::no5lvl $own=5"
	"strong-preempt-none:strong::preempt=none $own=6"
	"strong-preempt-voluntary:strong::preempt=voluntary $own=7"
	"strong-intel:strong:$intel:$own=3"
	"strong-mitigations:strong:$intel:mitigations=auto,nosmt spectre_v2=on mds=full $own=8"
	"strong-lfence:strong:$intel:spectre_v2=retpoline,lfence $own=9"
	"plant-df:strong::$plant=df"
	"plant-ac:strong::$plant=ac"
	"plant-pkru:strong::$plant=pkru"
	"plant-msr:strong::$plant=msr"
	"plant-fpu:strong::$plant=fpu"
	"plant-page:strong::$plant=page"
	"fuzz-oracle:strong::sbm_scene=fuzz-oracle sbm_oracle=1:5000 nokaslr kunit.filter_glob=sandbox_mode_planted kmemleak=off"
	"modules:strong::$scene=modules"
	"apparmor-nosbm:strong::$scene=apparmor apparmor.sbm=0"
	"apparmor-sbm:strong::$scene=apparmor apparmor.sbm=1"
	"apparmor-cve:strong::$scene=apparmor-cve apparmor.sbm=1 apparmor.dfa_default_bug=1"
	"pgp-nosbm:strong::$scene=pgp pgp_key_parser.sbm=0"
	"pgp-sbm:strong::$scene=pgp pgp_key_parser.sbm=1"
)

tools/deps.sh
tools/prepare-tree.sh
for cfg in $(printf '%s\n' "${runs[@]}" | cut -d: -f2 | sort -u); do
	tools/build.sh "$cfg"
done
tools/apparmor-policies.sh
tools/pgp-keys.sh
tools/initramfs.sh strong

logs=()
status=0
for run in "${runs[@]}"; do
	IFS=: read -r label cfg cpu args <<< "$run"
	case "$args" in
	*panic_on_taint=*) ;;
	*) args="$strict $args" ;;
	esac
	log=build/$cfg/kunit-$label.log
	echo "test: booting $label"
	# shellcheck disable=SC2086 # $args is a list of kernel arguments
	case "$args" in
	*sbm_scene=*)
		SBM_CPU=${cpu:-${SBM_CPU:-}} tools/boot.sh "$cfg" \
			-t "${SBM_BOOT_TIMEOUT:-300}" -i build/initramfs.cpio.gz \
			-c "$log" $args > "$log.scene" 2>&1 ;;
	*)
		SBM_CPU=${cpu:-${SBM_CPU:-}} tools/boot.sh "$cfg" \
			-t "${SBM_BOOT_TIMEOUT:-300}" kunit_shutdown=poweroff \
			$args > "$log" 2>&1 ;;
	esac || { echo "test: $label: QEMU did not power off cleanly (see $log)"; status=1; }
	logs+=("$label=$log")
done

# The apparmor scene with the unpacker in SandBox Mode and without: the
# same outcomes (KTAP suite apparmor_compare). And the apparmor-cve
# scene's own suite, apparmor_cve.
aa=build/strong/kunit-apparmor
python3 tools/apparmor-compare.py "$aa-nosbm.log.scene" "$aa-sbm.log.scene" \
	> build/apparmor/compare.ktap 2>&1 ||
	echo "test: apparmor-compare: failed (see build/apparmor/compare.ktap)"
logs+=("apparmor-compare=build/apparmor/compare.ktap")
logs+=("apparmor-cve-scene=build/strong/kunit-apparmor-cve.log.scene")

# The pgp scene's own suite (pgp_keys) in both boots, and their outcomes
# compared, key by key and blob by blob (pgp_compare).
pgp=build/strong/kunit-pgp
python3 tools/pgp-compare.py "$pgp-nosbm.log.scene" "$pgp-sbm.log.scene" \
	> build/pgp/compare.ktap 2>&1 ||
	echo "test: pgp-compare: failed (see build/pgp/compare.ktap)"
logs+=("pgp-nosbm-scene=$pgp-nosbm.log.scene" "pgp-sbm-scene=$pgp-sbm.log.scene")
logs+=("pgp-compare=build/pgp/compare.ktap")

# The build-time check of what sandboxed code reaches, and its test.
python3 tools/sbm-reach-test.py build/strong > build/sbm-reach-test.log 2>&1 ||
	echo "test: sbm-reach: failed (see build/sbm-reach-test.log)"
logs+=("sbm-reach=build/sbm-reach-test.log")

# The OpenPGP packet parser's own source, fuzzed on the host under ASan and
# UBSan (KTAP suite pgp_host_fuzz).
tools/pgp-host-fuzz.sh > build/pgp-host-fuzz.log 2>&1 ||
	echo "test: pgp-host-fuzz: failed (see build/pgp-host-fuzz.log)"
logs+=("pgp-host-fuzz=build/pgp-host-fuzz.log")

# The totals are also kept, with what they were measured on, for the
# cover letters of make series.
{
	echo "# make test of $(git log -1 --format='%h (%s)' 2>/dev/null || echo 'an unknown commit'), $(date -u '+%Y-%m-%d')"
	python3 tools/ktap.py "${logs[@]}" || echo "failed"
} > build/test-summary.txt
grep -v '^# make test of \|^failed$' build/test-summary.txt
! grep -q '^failed$' build/test-summary.txt || status=1
exit $status
