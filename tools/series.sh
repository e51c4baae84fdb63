#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make series: the series of build/linux as mail, one directory each,
# build/series/<name>/, written by git format-patch --cover-letter and
# ready for git send-email. Author and Signed-off-by are the user's (git
# config user.name and user.email); without them the script stops.
#
# The cover letter of a series is patches/cover/<name>.txt: a Subject:,
# the series it applies on (Base:, or none), the make test labels whose
# totals it quotes (Tests:), a blank line, then the text, where @BENCH@
# and @TESTS@ become the numbers of the last make bench (build/bench/) and
# make test (build/test-summary.txt). A series on top of another is laid
# onto that one alone, without the series between them; format-patch
# --base then lists the patches it needs.
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
out=$top/build/series

die() { echo "series: $*" >&2; exit 1; }
git_t() { git -C "$tree" "$@"; }

name=$(git -C "$top" config user.name || true)
email=$(git -C "$top" config user.email || true)
if [ -z "$name" ] || [ -z "$email" ]; then
	die "no identity for From: and Signed-off-by:; set git config user.name and user.email"
fi
git_t rev-parse -q --verify sbm-base > /dev/null || die "no build/linux; run make tree"
export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email
export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email

# header FILE KEY: the value of "KEY: value" in the header of a cover file.
header() {
	sed -n "/^\$/q; s/^$2: //p" "$1"
}

# resign COMMIT PARENT: COMMIT's message, signed off by the user instead of
# the generated identity, with COMMIT's changes laid onto PARENT in a
# scratch index. Prints the new commit.
resign() {
	local index=$out/.index tree_id
	GIT_INDEX_FILE=$index git_t read-tree "$2"
	git_t diff --binary "$1^" "$1" | GIT_INDEX_FILE=$index git_t apply --cached ||
		die "$(git_t log -1 --format='%h %s' "$1") does not apply without the series before it"
	tree_id=$(GIT_INDEX_FILE=$index git_t write-tree)
	rm -f "$index"
	git_t log -1 --format=%B "$1" |
		sed '/^Signed-off-by: SandBox Mode <sbm@localhost>$/d' |
		git interpret-trailers --trailer "Signed-off-by: $name <$email>" |
		git_t commit-tree "$tree_id" -p "$2"
}

# numbers FILE WHAT: FILE indented for the letter, or a note that WHAT has
# not run yet.
numbers() {
	if [ -s "$1" ]; then
		sed 's/^/    /' "$1"
	else
		echo "    (not measured yet: run $2, then make series again)"
		echo "series: no $1; the letter says so" >&2
	fi
}

rm -rf "$out"
mkdir -p "$out"
# The series in the order of build/linux: by the length of the chain.
declare -A start end signed_end
order=() prev=sbm-base
while read -r _ series; do
	order+=("$series")
	start[$series]=$prev
	end[$series]=$(git_t rev-parse "series/$series")
	prev=${end[$series]}
done < <(git_t for-each-ref --format='%(refname:strip=3)' refs/tags/series/ |
	while read -r s; do
		echo "$(git_t rev-list --count "sbm-base..series/$s") $s"
	done | sort -n)

version=$(make -s -C "$tree" kernelversion)
for cover in "$top"/patches/cover/*.txt; do
	[ -n "${end[$(basename "$cover" .txt)]:-}" ] || die "$cover: no series of that name in build/linux"
done
for series in "${order[@]}"; do
	cover=$top/patches/cover/$series.txt
	# A series without a cover letter (local) is not for mailing.
	[ -f "$cover" ] || continue
	base=$(header "$cover" Base)
	case "$base" in
	none) parent=$(git_t rev-parse sbm-base) ;;
	*) parent=${signed_end[$base]:-} ;;
	esac
	[ -n "$parent" ] || die "$cover: base $base is not written before it"
	first=$parent
	for c in $(git_t rev-list --reverse "${start[$series]}..${end[$series]}"); do
		parent=$(resign "$c" "$parent")
	done
	signed_end[$series]=$parent

	dir=$out/$series
	git_t format-patch -q --cover-letter --base=sbm-base -o "$dir" "$first..$parent"
	results=$out/.results
	{
		numbers "$top/build/bench/$series.txt" "make bench"
	} > "$results.bench"
	{
		if [ -s "$top/build/test-summary.txt" ]; then
			for label in $(header "$cover" Tests); do
				while read -r tag rest; do
					run=${tag#\[} run=${run%\]}
					# shellcheck disable=SC2053 # the labels are patterns
					[[ $run != $label ]] || echo "$tag $rest"
				done < "$top/build/test-summary.txt"
			done > "$results.picked"
			sed 's/^/    /' "$results.picked"
			awk '{ p += $2; f += $4; s += $6 }
				END { printf "    in all: %d passed, %d failed, %d skipped\n", p, f, s }' \
				"$results.picked"
			echo
			sed -n 's/^# /    /p' "$top/build/test-summary.txt"
		else
			numbers "$top/build/test-summary.txt" "make test"
		fi
	} > "$results.tests"
	python3 - "$dir/0000-cover-letter.patch" "$cover" "$results.bench" \
		"$results.tests" "$version" <<'EOF'
import sys

letter, cover, bench, tests, version = sys.argv[1:]
head, _, body = open(cover).read().partition("\n\n")
subject = next(line[len("Subject: "):] for line in head.splitlines()
               if line.startswith("Subject: "))
body = body.replace("@BENCH@", open(bench).read().rstrip("\n"))
body = body.replace("@TESTS@", open(tests).read().rstrip("\n"))
body += f"\nAgainst Linux {version} (Debian's linux-source-6.12).\n"
text = open(letter).read()
text = text.replace("*** SUBJECT HERE ***", subject, 1)
text = text.replace("*** BLURB HERE ***\n", body, 1)
open(letter, "w").write(text)
EOF
	rm -f "$results".*
	patches=$(find "$dir" -name '[0-9]*.patch' ! -name '0000-*' | wc -l)
	echo "series: $series: a cover letter and $patches patch(es) in build/series/$series/"
done
