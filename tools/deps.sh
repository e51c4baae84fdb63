#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what building, booting and testing need, from Debian's archive.
# Quiet and quick when everything is there already.
set -euo pipefail

packages=(linux-source-6.12 qemu-system-x86 ccache build-essential bc bison
	  flex libelf-dev libssl-dev cpio kmod rsync xz-utils python3 git
	  busybox-static gzip python3-ply python3-git gnupg)
[ -n "${KSRC:-}" ] && packages=("${packages[@]:1}")

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
"${sudo[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
