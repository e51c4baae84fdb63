#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Turn a Linux 6.12 source into build/linux: a git repository whose first
# commit is the pristine source and whose later commits are the SandBox
# Mode series that patches/series lists, one commit per entry: its patch
# and the new files under linux/ that it adds.
# Re-running rebuilds that chain in a scratch index and touches only the
# files that changed, so incremental kernel builds stay incremental.
#
# KSRC=/path/to/linux-6.12 uses an existing tree instead of the Debian
# linux-source-6.12 tarball.
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
tarball=${TARBALL:-$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)}

die() { echo "prepare-tree: $*" >&2; exit 1; }

# Fixed identities and dates make the generated commits reproducible, which
# is how a re-run recognises that nothing changed.
export GIT_AUTHOR_NAME="SandBox Mode" GIT_AUTHOR_EMAIL="sbm@localhost"
export GIT_COMMITTER_NAME="SandBox Mode" GIT_COMMITTER_EMAIL="sbm@localhost"
export GIT_AUTHOR_DATE="2024-01-01T00:00:00Z" GIT_COMMITTER_DATE="2024-01-01T00:00:00Z"
git_t() { git -C "$tree" -c core.autocrlf=false -c advice.detachedHead=false "$@"; }

source_id() {
	if [ -n "${KSRC:-}" ]; then
		(cd "$KSRC" && pwd)
	else
		echo "$tarball"
	fi
}

make_base() {
	local tmp=$top/build/linux.tmp src

	rm -rf "$tmp"
	mkdir -p "$tmp"
	if [ -n "${KSRC:-}" ]; then
		[ -f "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel tree"
		echo "prepare-tree: copying $KSRC"
		(cd "$KSRC" && git ls-files -z 2>/dev/null | grep -qz . &&
			git ls-files -z | tar --null -T - -cf -) | tar -xf - -C "$tmp" ||
		tar -C "$KSRC" --exclude=.git -cf - . | tar -xf - -C "$tmp"
	else
		[ -n "$tarball" ] || die "no /usr/src/linux-source-6.12.tar.*; run tools/deps.sh or set KSRC"
		echo "prepare-tree: unpacking $tarball"
		tar -xf "$tarball" -C "$tmp"
		src=$(ls "$tmp")
		[ "$(echo "$src" | wc -l)" = 1 ] || die "unexpected tarball layout"
		mv "$tmp/$src" "$tmp.src" && rmdir "$tmp" && mv "$tmp.src" "$tmp"
	fi
	grep -q '^VERSION = 6$' "$tmp/Makefile" && grep -q '^PATCHLEVEL = 12$' "$tmp/Makefile" ||
		die "$(source_id) is not Linux 6.12"
	[ -e "$tmp/.config" ] && die "$(source_id) has been configured in-tree; run 'make mrproper' there"

	echo "prepare-tree: committing the pristine base"
	git -C "$tmp" init -q -b sbm
	# Debian's tarball ignores everything at its top level: add by force.
	git -C "$tmp" add -f -A .
	git -C "$tmp" commit -q -m "Linux $(make -s -C "$tmp" kernelversion 2>/dev/null) (pristine)"
	git -C "$tmp" tag sbm-base
	source_id > "$tmp/.git/sbm-source"
	mv "$tmp" "$tree"
}

# Read patches/series into entry_patch[] (a patch file under patches/) and
# entry_files[] (the new files under linux/ that its commit adds).
read_series() {
	local line n=-1

	entry_patch=() entry_files=()
	while IFS= read -r line; do
		case $line in
		'' | '#'*) ;;
		[[:space:]]*)
			[ $n -ge 0 ] || die "patches/series: a file before the first patch"
			entry_files[n]+=" ${line//[[:space:]]/}" ;;
		*)
			n=$((n + 1))
			entry_patch[n]=$line entry_files[n]="" ;;
		esac
	done < "$top/patches/series"
}

# Every patch and every new file belongs to exactly one commit.
check_series() {
	local listed dups f

	listed=$(printf '%s\n' "${entry_files[@]}" | tr ' ' '\n' | sed '/^$/d' | sort)
	dups=$(uniq -d <<< "$listed")
	[ -z "$dups" ] || die "patches/series adds more than once: $dups"
	f=$(comm -3 <(echo "$listed") <(cd "$top/linux" && find . -type f -printf '%P\n' | sort))
	[ -z "$f" ] || die "patches/series and linux/ disagree on: ${f//$'\n'/ }"
	f=$(comm -3 <(printf '%s\n' "${entry_patch[@]}" | sort) \
		<(cd "$top/patches" && find . -name '*.patch' -printf '%P\n' | sort))
	[ -z "$f" ] || die "patches/series and patches/ disagree on: ${f//$'\n'/ }"
}

# Split patch $1 into $2.msg (subject and message) and $2.diff.
split_patch() {
	git mailinfo "$2.body" "$2.diff" < "$top/patches/$1" > "$2.info" ||
		die "patches/$1 is not a patch"
	{ sed -n 's/^Subject: //p' "$2.info"; echo; cat "$2.body"; } > "$2.msg"
}

# Apply $1.diff to the scratch index; the rest are git apply options.
apply_diff() {
	local diff=$1.diff

	shift
	[ -s "$diff" ] || return 0
	git_t apply --cached --whitespace=nowarn "$@" "$diff" >&2
}

# Print the commit id of the SBM chain built on sbm-base, without touching
# the work tree. The files under linux/ are the state after the last
# commit: the chain is built backwards from there, each commit taking off
# what it added (its new files, and its patch reversed, which also takes
# off what it added to new files of earlier commits), then committed
# forwards.
build_chain() {
	local index=$tree/.git/sbm-index work tip f k n
	local -a excludes trees

	read_series
	check_series
	export GIT_INDEX_FILE=$index
	work=$(mktemp -d)
	git_t read-tree sbm-base

	(cd "$top/linux" && find . -type f -printf '%P\n') | sort | while read -r f; do
		if git_t cat-file -e "sbm-base:$f" 2>/dev/null; then
			die "linux/$f exists in the kernel: edit it through patches/ instead"
		fi
		echo "--exclude=$f"
	done > "$work/excludes"
	mapfile -t excludes < "$work/excludes"
	(cd "$top/linux" && git --git-dir="$tree/.git" --work-tree=. add -f --ignore-removal . >&2)
	n=${#entry_patch[@]}
	for ((k = 0; k < n; k++)); do
		split_patch "${entry_patch[k]}" "$work/$k"
		apply_diff "$work/$k" "${excludes[@]}" ||
			die "${entry_patch[k]} does not apply to the kernel's files"
	done
	for ((k = n - 1; k >= 0; k--)); do
		trees[k]=$(git_t write-tree)
		apply_diff "$work/$k" -R ||
			die "${entry_patch[k]} does not match linux/ and the patches after it"
		# shellcheck disable=SC2086 # one argument per file
		[ -z "${entry_files[k]}" ] || git_t update-index --force-remove ${entry_files[k]}
	done
	[ "$(git_t write-tree)" = "$(git_t rev-parse 'sbm-base^{tree}')" ] ||
		die "taking off every commit of patches/series does not give the pristine kernel"

	tip=$(git_t rev-parse sbm-base)
	for ((k = 0; k < n; k++)); do
		tip=$(git_t commit-tree "${trees[k]}" -p "$tip" -F "$work/$k.msg")
		echo "${entry_patch[k]%%/*} $tip" >> "$work/ends"
	done
	# Each commit's series, for make check and make series.
	mv "$work/ends" "$tree/.git/sbm-series"
	rm -rf "$work" "$index"
	unset GIT_INDEX_FILE
	echo "$tip"
}

mkdir -p "$top/build"
if [ ! -d "$tree/.git" ]; then
	make_base
elif [ "$(cat "$tree/.git/sbm-source")" != "$(source_id)" ]; then
	die "build/linux was made from $(cat "$tree/.git/sbm-source"); remove build/ to switch to $(source_id)"
fi

# Tag the last commit of each series: series/sbm, series/apparmor, ...
tag_series() {
	local name commit

	awk '{ last[$1] = $2 } END { for (s in last) print s, last[s] }' "$tree/.git/sbm-series" |
	while read -r name commit; do
		git_t update-ref "refs/tags/series/$name" "$commit"
	done
}

tip=$(build_chain)
head=$(git_t rev-parse HEAD)
if [ "$tip" = "$head" ]; then
	# Also after save-tree.sh saved commits made by hand in build/linux.
	echo "$tip" > "$tree/.git/sbm-tip"
	tag_series
	echo "prepare-tree: build/linux is up to date ($(git_t rev-list --count sbm-base..HEAD) SBM commits)"
	exit 0
fi
last=$(cat "$tree/.git/sbm-tip" 2>/dev/null || git_t rev-parse sbm-base)
[ "$head" = "$last" ] ||
	die "build/linux has commits that are not from this repo; save them with tools/save-tree.sh, or reset to $last"
git_t read-tree -m -u HEAD "$tip" ||
	die "local edits in build/linux conflict with the repo; commit or stash them"
git_t update-ref -m prepare-tree refs/heads/sbm "$tip"
echo "$tip" > "$tree/.git/sbm-tip"
tag_series
echo "prepare-tree: build/linux now at $(git_t log -1 --format='%h %s')"
git_t diff --stat sbm-base HEAD | tail -n 1
