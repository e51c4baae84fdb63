#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The reverse of prepare-tree.sh: write the SBM series of build/linux
# (sbm-base..HEAD) back into the repo, as linux/ (every new file as of
# HEAD), patches/<series>/NNNN-*.patch (each commit's message and its
# changes to files that existed before it) and patches/series (the
# commits in order, each with the new files it adds).
#
# The tags series/<name> mark the last commit of each series; after a
# rebase that adds, drops or reorders commits, move them
# (git tag -f series/sbm <commit>) before saving.
#
# tools/save-tree.sh [REPO] saves from another kernel repository that has
# the same tags and an sbm-base tag.
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:-$top/build/linux}
stage=$top/build/save.tmp

die() { echo "save-tree: $*" >&2; exit 1; }
git_t() { git -C "$tree" -c core.abbrev=12 "$@"; }

git_t rev-parse -q --verify sbm-base > /dev/null || die "$tree has no sbm-base tag"
[ -z "$(git_t status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes; commit them first"

mapfile -t commits < <(git_t rev-list --reverse sbm-base..HEAD)
[ ${#commits[@]} -gt 0 ] || die "no commits after sbm-base"
[ -z "$(git_t rev-list --merges sbm-base..HEAD)" ] || die "the series has merges"

# The series of each commit: that of the first series tag at or after it.
declare -A series_end
while read -r name; do
	series_end[$(git_t rev-parse "refs/tags/series/$name^{commit}")]=$name
done < <(git_t for-each-ref --format='%(refname:strip=3)' refs/tags/series/)
[ ${#series_end[@]} -gt 0 ] || die "no series/<name> tags in $tree"

rm -rf "$stage"
mkdir -p "$stage/linux" "$stage/patches"
{
	echo "# The SandBox Mode series, in the order tools/prepare-tree.sh commits them."
	echo "# Each entry is a patch under patches/ (the commit's message and its changes"
	echo "# to files that exist before it), then, indented, the new files under linux/"
	echo "# that the commit adds. Written by tools/save-tree.sh."
} > "$stage/patches/series"

pending=()
declare -A number
for c in "${commits[@]}"; do
	pending+=("$c")
	name=${series_end[$c]:-}
	[ -n "$name" ] || continue
	number[$name]=0
	echo >> "$stage/patches/series"
	for p in "${pending[@]}"; do
		number[$name]=$((number[$name] + 1))
		mapfile -t added < <(git_t diff-tree -r --no-commit-id --diff-filter=A --name-only "$p^" "$p")
		removed=$(git_t diff-tree -r --no-commit-id --diff-filter=D --name-only "$p^" "$p" |
			while read -r f; do git_t cat-file -e "sbm-base:$f" 2>/dev/null || echo "$f"; done)
		[ -z "$removed" ] || die "$(git_t log -1 --format=%h "$p") removes new files: $removed"
		# The name git format-patch would give it.
		file=$(printf '%s/%04d-%.52s.patch' "$name" "${number[$name]}" \
			"$(git_t log -1 --format=%f "$p")")
		mkdir -p "$stage/patches/$name"
		{
			git_t log -1 --format='From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001%nFrom: %an <%ae>%nDate: %aD%nSubject: [PATCH] %s%n%n%b' "$p" |
				sed '${/^$/d}'
			excludes=()
			for f in "${added[@]}"; do
				excludes+=(":(exclude)$f")
			done
			if ! git_t diff --quiet "$p^" "$p" -- . "${excludes[@]}"; then
				echo "---"
				git_t diff --stat=72 --summary "$p^" "$p" -- . "${excludes[@]}"
				echo
				git_t diff "$p^" "$p" -- . "${excludes[@]}"
			fi
		} > "$stage/patches/$file"
		echo "$file" >> "$stage/patches/series"
		for f in "${added[@]}"; do
			printf '\t%s\n' "$f" >> "$stage/patches/series"
			mkdir -p "$stage/linux/$(dirname "$f")"
			git_t show "HEAD:$f" > "$stage/linux/$f"
			[ "$(git_t ls-tree HEAD -- "$f" | cut -d' ' -f1)" != 100755 ] ||
				chmod +x "$stage/linux/$f"
		done
	done
	pending=()
done
[ ${#pending[@]} -eq 0 ] ||
	die "$(git_t log -1 --format=%h "${pending[0]}") and later are in no series: tag the last one series/<name>"
# The cover letters are written by hand, not by this script.
[ ! -d "$top/patches/cover" ] || cp -r "$top/patches/cover" "$stage/patches/"
rm -rf "$top/linux" "$top/patches"
mv "$stage/linux" "$top/linux"
mv "$stage/patches" "$top/patches"
rmdir "$stage"
echo "save-tree: saved ${#commits[@]} commits into linux/ and patches/"
