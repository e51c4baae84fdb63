#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fuzz the SandBox Mode boundary: boot CONFIG (default strong) three ways
# (QEMU's "max" CPU, the same with pti=on, and the Intel model) and run
# STREAMS random instruction streams (default 1,000,000) of seed SEED
# (default 1) in each, with the sandbox_mode_fuzz KUnit suite. Ends with
# one line per boot and the KTAP judge's summary; a finding fails.
#   SEED=7 STREAMS=200000 CONFIG=strong tools/fuzz.sh
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
seed=${SEED:-1} streams=${STREAMS:-1000000} cfg=${CONFIG:-strong}
intel=max,vendor=GenuineIntel

tools/deps.sh
tools/prepare-tree.sh
tools/build.sh "$cfg"

# Each chunk of 50,000 streams takes about half a minute under TCG.
timeout=$((120 + streams / 500))
logs=() status=0
for run in "plain::" "pti::pti=on" "intel:$intel:"; do
	IFS=: read -r label cpu args <<< "$run"
	log=build/$cfg/fuzz-$label.log
	echo "fuzz: $label: $streams streams, seed $seed"
	start=$(date +%s)
	# shellcheck disable=SC2086 # $args is a list of kernel arguments
	SBM_CPU=${cpu:-${SBM_CPU:-}} tools/boot.sh "$cfg" -t "$timeout" \
		kunit_shutdown=poweroff panic_on_warn=1 panic_on_taint=0x3ffff \
		kunit.filter_glob=sandbox_mode_fuzz kmemleak=off sbm_fuzz_test.seed="$seed" \
		sbm_fuzz_test.streams="$streams" $args > "$log" 2>&1 ||
		{ echo "fuzz: $label: QEMU did not power off cleanly (see $log)"; status=1; }
	echo "fuzz: $label: $(($(date +%s) - start)) s;" \
		"$(grep -c 'sbm_fuzz: finding' "$log" || true) findings reported (see $log)"
	logs+=("fuzz-$label=$log")
done
python3 tools/ktap.py "${logs[@]}" || status=1
exit $status
