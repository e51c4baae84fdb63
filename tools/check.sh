#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Style checks of the SBM series in build/linux: checkpatch --strict on
# every commit, kernel-doc warnings on every new C file.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# spdxcheck needs the python3-ply and python3-git of the system Python.
export PATH=/usr/bin:$PATH
cd "$top/build/linux" || exit 1
status=0

for c in $(git rev-list --reverse sbm-base..HEAD); do
	echo "check: $(git log -1 --format=%s "$c")"
	git format-patch -1 --stdout "$c" |
		scripts/checkpatch.pl --strict --terse --quiet - || status=1
done

files=$(cd "$top/linux" && find . -name '*.[ch]' -printf '%P\n' | sort)
echo "check: kernel-doc"
# shellcheck disable=SC2086 # one argument per file
out=$(scripts/kernel-doc -none -Wall $files 2>&1)
[ -z "$out" ] || { echo "$out"; status=1; }
exit $status
