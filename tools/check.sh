#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: prove that the series is bisectable and clean. Every commit
# of build/linux after sbm-base is checked out in build/check/linux and
# built incrementally (with ccache) in the configurations its series
# needs: off, weak and strong for sbm, strong (which carries AppArmor and
# the OpenPGP parser) for the others. An orphan section in the link fails
# the build. Each commit also gets checkpatch --strict and kernel-doc
# -Wall on the C files it adds or changes. One line per commit, then a
# summary; non-zero if anything failed.
#
# CHECK_CONFIGS="weak" limits the builds to those configurations (and
# CHECK_CONFIGS=none to the style checks).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
wt=$top/build/check/linux
logs=$top/build/check/logs
# spdxcheck needs the python3-ply and python3-git of the system Python.
export PATH=/usr/bin:$PATH

[ -f "$tree/.git/sbm-series" ] || { echo "check: run make tree first" >&2; exit 1; }
if [ ! -d "$wt" ]; then
	git -C "$tree" worktree add -q --detach "$wt" sbm-base || exit 1
fi
rm -rf "$logs"
mkdir -p "$logs"

configs_for() {
	local want=${CHECK_CONFIGS:-} cfg

	case $1 in
	sbm) set -- off weak strong ;;
	*) set -- strong ;;
	esac
	for cfg in "$@"; do
		[ -z "$want" ] || [[ " $want " == *" $cfg "* ]] && echo "$cfg"
	done
}

# Build configuration $2 of the checked-out commit $1; log in $logs.
build() {
	local log=$logs/$1-$2.log

	SBM_TREE=$wt SBM_OUT=$top/build/check/$2 SBM_LOOSE=1 \
		"$top/tools/build.sh" "$2" > "$log" 2>&1 || return 1
	! grep -q "orphan section" "$log"
}

# checkpatch --strict of commit $1: "errors/warnings/checks".
style() {
	local out

	out=$(git -C "$wt" format-patch -1 --stdout "$1" |
		(cd "$wt" && scripts/checkpatch.pl --strict --terse --no-summary -))
	printf '%s\n' "$out" >> "$logs/$1-checkpatch.log"
	printf '%d/%d/%d' "$(grep -c ': ERROR:' <<< "$out")" \
		"$(grep -c ': WARNING:' <<< "$out")" "$(grep -c ': CHECK:' <<< "$out")"
}

# kernel-doc -Wall warnings in the C files that commit $1 adds or changes.
kdoc() {
	local -a files

	mapfile -t files < <(git -C "$wt" diff-tree -r --no-commit-id --name-only \
		--diff-filter=AM "$1^" "$1" -- '*.c' '*.h')
	[ ${#files[@]} -gt 0 ] || { echo 0; return; }
	(cd "$wt" && scripts/kernel-doc -none -Wall "${files[@]}" 2>&1) > "$logs/$1-kernel-doc.log"
	grep -c . "$logs/$1-kernel-doc.log"
}

start=$SECONDS
commits=0 builds=0 failed=0
while read -r series c; do
	short=$(git -C "$tree" rev-parse --short=12 "$c")
	git -C "$wt" checkout -q --detach "$c" || exit 1
	built="" broken=""
	for cfg in $(configs_for "$series"); do
		builds=$((builds + 1))
		if build "$short" "$cfg"; then
			built+=" $cfg"
		else
			broken+=" $cfg"
		fi
	done
	cp=$(style "$c")
	kd=$(kdoc "$c")
	status=ok
	if [ -n "$broken" ] || [ "$cp" != 0/0/0 ] || [ "$kd" != 0 ]; then
		status=FAIL
		failed=$((failed + 1))
	fi
	printf '%-4s %s %-8s built:%-17s%s checkpatch %s kernel-doc %s  %s\n' \
		"$status" "$short" "$series" "${built:- none}" "${broken:+ failed:$broken}" \
		"$cp" "$kd" "$(git -C "$tree" log -1 --format=%s "$c")"
	commits=$((commits + 1))
done < "$tree/.git/sbm-series"

echo "check: $commits commits, $builds builds, $failed failed, $(((SECONDS - start) / 60)) min; logs in build/check/logs"
[ "$failed" = 0 ]
