#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: prove that the series is bisectable and clean. Every commit
# of build/linux after sbm-base is checked out in build/check/linux and
# built incrementally (with ccache) in the configurations its series
# needs: off, weak and strong for sbm, strong (which carries AppArmor and
# the OpenPGP parser) for the others. An orphan section in the link fails
# the build. Each commit also gets checkpatch --strict, kernel-doc -Wall
# on the C files it adds or changes, and a MAINTAINERS lookup of the
# files it adds. One line per commit, then a summary (format:
# errors/warnings/checks); non-zero if anything failed.
#
# CHECK_CONFIGS="weak" limits the builds to those configurations (and
# CHECK_CONFIGS=none to the style checks); CHECK_FROM=<commit> starts at
# that commit of the series, to resume after fixing one.
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

# checkpatch --strict of commit $1: "errors/warnings/checks". Its
# warning that a patch adding files may need a MAINTAINERS update is left
# to uncovered(), which looks the files up.
style() {
	local out

	out=$(git -C "$wt" format-patch -1 --stdout "$1" |
		(cd "$wt" && scripts/checkpatch.pl --strict --terse --no-summary \
			--ignore FILE_PATH_CHANGES -))
	printf '%s\n' "$out" > "$logs/$1-checkpatch.log"
	printf '%d/%d/%d' "$(grep -c ': ERROR:' <<< "$out")" \
		"$(grep -c ': WARNING:' <<< "$out")" "$(grep -c ': CHECK:' <<< "$out")"
}

# How many files that commit $1 adds no MAINTAINERS entry covers (beyond
# the catch-all list).
uncovered() {
	local f n=0

	while read -r f; do
		(cd "$wt" && scripts/get_maintainer.pl --no-git --no-git-fallback \
			--no-rolestats -f "$f" 2>/dev/null) | grep -qv '^linux-kernel@vger.kernel.org$' ||
			{ echo "$f" >> "$logs/$1-maintainers.log"; n=$((n + 1)); }
	done < <(git -C "$wt" diff-tree -r --no-commit-id --name-only --diff-filter=A "$1^" "$1")
	echo $n
}

# kernel-doc -Wall warnings of file list $2.. as of commit $1, without
# line numbers, one per line.
kdoc_at() {
	local dir

	dir=$(mktemp -d)
	git -C "$wt" archive "$1" -- "${@:2}" scripts/kernel-doc | tar -xf - -C "$dir"
	(cd "$dir" && scripts/kernel-doc -none -Wall "${@:2}" 2>&1) |
		sed -E 's/^([^:]*):[0-9]+:/\1:/' | sort
	rm -rf "$dir"
}

# kernel-doc -Wall warnings that commit $1 adds to the C files it adds or
# changes (an old file's own warnings are not the series').
kdoc() {
	local -a files old

	mapfile -t files < <(git -C "$wt" diff-tree -r --no-commit-id --name-only \
		--diff-filter=AM "$1^" "$1" -- '*.c' '*.h')
	[ ${#files[@]} -gt 0 ] || { echo 0; return; }
	mapfile -t old < <(git -C "$wt" diff-tree -r --no-commit-id --name-only \
		--diff-filter=M "$1^" "$1" -- '*.c' '*.h')
	comm -13 <([ ${#old[@]} -eq 0 ] || kdoc_at "$1^" "${old[@]}") \
		<(kdoc_at "$1" "${files[@]}") > "$logs/$1-kernel-doc.log"
	grep -c . "$logs/$1-kernel-doc.log"
}

start=$SECONDS
commits=0 builds=0 failed=0 checks=0
from=${CHECK_FROM:+$(git -C "$tree" rev-parse --verify "$CHECK_FROM^{commit}")} || exit 1
while read -r series c; do
	[ -z "$from" ] || [ "$c" = "$from" ] || continue
	from=""
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
	um=$(uncovered "$c")
	checks=$((checks + ${cp##*/}))
	status=ok
	# CHECKs are counted, not failed: those left are false positives,
	# listed in the logs (a kernel enum's CamelCase, a macro argument that
	# is a name, never evaluated).
	if [ -n "$broken" ] || [ "${cp%/*}" != 0/0 ] || [ "$kd" != 0 ] || [ "$um" != 0 ]; then
		status=FAIL
		failed=$((failed + 1))
	fi
	printf '%-4s %s %-8s built:%-17s%s checkpatch %s kernel-doc %s unmaintained %s  %s\n' \
		"$status" "$short" "$series" "${built:- none}" "${broken:+ failed:$broken}" \
		"$cp" "$kd" "$um" "$(git -C "$tree" log -1 --format=%s "$c")"
	commits=$((commits + 1))
done < "$tree/.git/sbm-series"

echo "check: $commits commits, $builds builds, $failed failed, $checks checkpatch CHECKs, $(((SECONDS - start) / 60)) min; logs in build/check/logs"
[ "$failed" = 0 ]
