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

# label:configuration:extra kernel arguments. QEMU's "-cpu max" has LA57,
# so the default boots use 5-level paging and no5lvl tests 4-level paging.
# Boots with sbm_scene= also
# start the initramfs, which loads the configuration's modules.
runs=(
	"off:off:"
	"weak:weak:"
	"strong:strong:"
	"strong-pti:strong:pti=on"
	"strong-nopcid:strong:nopcid"
	"strong-4level:strong:no5lvl"
	"modules:modules:sbm_scene=modules"
)

tools/deps.sh
tools/prepare-tree.sh
for cfg in $(printf '%s\n' "${runs[@]}" | cut -d: -f2 | sort -u); do
	tools/build.sh "$cfg"
done
tools/initramfs.sh modules

logs=()
status=0
for run in "${runs[@]}"; do
	IFS=: read -r label cfg args <<< "$run"
	log=build/$cfg/kunit-$label.log
	echo "test: booting $label"
	# shellcheck disable=SC2086 # $args is a list of kernel arguments
	case "$args" in
	*sbm_scene=*)
		tools/boot.sh "$cfg" -t "${SBM_BOOT_TIMEOUT:-300}" -i build/initramfs.cpio.gz \
			-c "$log" $args > "$log.scene" 2>&1 ;;
	*)
		tools/boot.sh "$cfg" -t "${SBM_BOOT_TIMEOUT:-300}" kunit_shutdown=poweroff \
			$args > "$log" 2>&1 ;;
	esac || { echo "test: $label: QEMU did not power off cleanly (see $log)"; status=1; }
	logs+=("$label=$log")
done

python3 tools/ktap.py "${logs[@]}" || status=1
exit $status
