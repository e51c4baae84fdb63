#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Turn a Linux 6.12 source into build/linux: a git repository whose first
# commit is the pristine source and whose later commits hold SandBox Mode,
# one for the new files under linux/ (with the patches numbered 0000) and
# one per other patch under patches/.
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

# Apply a git format-patch file to the scratch index; print the name of a
# file that holds its commit message.
apply_patch() {
	local msg

	msg=$(mktemp)
	git mailinfo "$msg" "$msg.diff" < "$1" > "$msg.info"
	git_t apply --cached --whitespace=nowarn "$msg.diff" 2>&1 >&2 ||
		{ rm -f "$msg"*; die "patch $(basename "$1") does not apply"; }
	{ sed -n 's/^Subject: //p' "$msg.info"; echo; cat "$msg"; } > "$msg.full"
	rm -f "$msg" "$msg.diff" "$msg.info"
	echo "$msg.full"
}

# Print the commit id of the SBM chain built on sbm-base, without touching
# the work tree.
build_chain() {
	local index=$tree/.git/sbm-index parent tip f msg
	local -a patches

	export GIT_INDEX_FILE=$index
	parent=$(git_t rev-parse sbm-base)
	git_t read-tree sbm-base

	(cd "$top/linux" && find . -type f -printf '%P\n') | sort | while read -r f; do
		if git_t cat-file -e "sbm-base:$f" 2>/dev/null; then
			die "linux/$f exists in the kernel: edit it through patches/ instead"
		fi
	done
	(cd "$top/linux" && git --git-dir="$tree/.git" --work-tree=. add -f --ignore-removal . >&2)
	# Patches numbered 0000 belong to the commit that adds the new files
	# (MAINTAINERS, say); the others get a commit each.
	mapfile -t patches < <(ls "$top/patches/"0000-*.patch 2>/dev/null | sort)
	for f in "${patches[@]}"; do
		apply_patch "$f" > /dev/null
	done
	tip=$(git_t commit-tree "$(git_t write-tree)" -p "$parent" -F "$top/patches/new-files.txt")

	mapfile -t patches < <(ls "$top/patches/"*.patch 2>/dev/null | grep -v '/0000-' | sort)
	for f in "${patches[@]}"; do
		msg=$(apply_patch "$f")
		tip=$(git_t commit-tree "$(git_t write-tree)" -p "$tip" -F "$msg")
		rm -f "$msg"
	done
	rm -f "$index"
	unset GIT_INDEX_FILE
	echo "$tip"
}

mkdir -p "$top/build"
if [ ! -d "$tree/.git" ]; then
	make_base
elif [ "$(cat "$tree/.git/sbm-source")" != "$(source_id)" ]; then
	die "build/linux was made from $(cat "$tree/.git/sbm-source"); remove build/ to switch to $(source_id)"
fi

tip=$(build_chain)
head=$(git_t rev-parse HEAD)
if [ "$tip" = "$head" ]; then
	echo "prepare-tree: build/linux is up to date ($(git_t rev-list --count sbm-base..HEAD) SBM commits)"
	exit 0
fi
last=$(cat "$tree/.git/sbm-tip" 2>/dev/null || git_t rev-parse sbm-base)
[ "$head" = "$last" ] ||
	die "build/linux has commits that are not from this repo; save them under patches/ (git format-patch), then reset to $last"
git_t read-tree -m -u HEAD "$tip" ||
	die "local edits in build/linux conflict with the repo; commit or stash them"
git_t update-ref -m prepare-tree refs/heads/sbm "$tip"
echo "$tip" > "$tree/.git/sbm-tip"
echo "prepare-tree: build/linux now at $(git_t log -1 --format='%h %s')"
git_t diff --stat sbm-base HEAD | tail -n 1
