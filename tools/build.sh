#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build one configuration: build/CFG/arch/x86/boot/bzImage from
# configs/base.config plus configs/CFG.config, in its own output directory.
# A fragment may take in another with a line "#include OTHER.config", in
# its place. Checks that every option the fragments ask for made it into
# .config.
#
# For make check: SBM_TREE builds another source tree than build/linux,
# SBM_OUT names the output directory, and SBM_LOOSE=1 skips the check of
# options that a commit of the series does not define yet.
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
cfg=${1:?usage: build.sh CONFIG}
src=${SBM_TREE:-$top/build/linux}
out=${SBM_OUT:-$top/build/$cfg}
frag=$top/configs/$cfg.config
[ -f "$frag" ] || { echo "build: no configuration $cfg" >&2; exit 1; }

# ccache keyed on paths relative to the checkout, so that clones share it.
export CCACHE_BASEDIR=$top CCACHE_NOHASHDIR=1
export KBUILD_BUILD_TIMESTAMP="2024-01-01" KBUILD_BUILD_USER=sbm KBUILD_BUILD_HOST=sbm
kmake() { make -s -C "$src" O="$out" CC="ccache gcc" "$@"; }

# fragment FILE: its lines, with those of the fragments it includes.
fragment() {
	local line
	while IFS= read -r line || [ -n "$line" ]; do
		case "$line" in
		"#include "*) fragment "$top/configs/${line#\#include }" ;;
		*) printf '%s\n' "$line" ;;
		esac
	done < "$1"
}

mkdir -p "$out"
# Start from the fragments every time: a Kconfig change in the tree must
# not leave an old .config behind. Same contents rebuild nothing.
{ cat "$top/configs/base.config"; fragment "$frag"; } > "$out/sbm.fragment"
cp "$out/sbm.fragment" "$out/.config"
kmake olddefconfig

# Every option the fragments ask for made it into .config.
check_config() {
	local bad=0 line opt

	while read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qxF "$line" "$out/.config" || { echo "build: $cfg: $line did not stick" >&2; bad=1; } ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }; opt=${opt%% *}
			if grep -q "^$opt=" "$out/.config"; then echo "build: $cfg: $opt is set" >&2; bad=1; fi ;;
		esac
	done < "$out/sbm.fragment"
	return $bad
}
[ "${SBM_LOOSE:-0}" = 1 ] || check_config

targets=(bzImage)
grep -q '^CONFIG_MODULES=y' "$out/.config" && targets+=(modules)
echo "build: $cfg"
kmake -j"$(nproc)" "${targets[@]}"
