#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make the AppArmor policies that the AppArmor scenes load: the corpus of
# real profiles (tools/apparmor-corpus.sh; compiling it takes a while, so
# only when it is older than what makes it), the seeded bad policies
# (tools/apparmor-fuzz.py) and the CVE-2026-23407 policy
# (tools/apparmor-exploit.py). Run tools/initramfs.sh after it.
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

if [ ! -s build/apparmor/corpus.txt ] || [ -n "$(find tools/apparmor-corpus.sh \
		tools/apparmor-features.txt tools/apparmor-confine.profile \
		-newer build/apparmor/corpus.txt)" ]; then
	tools/apparmor-corpus.sh
fi
python3 tools/apparmor-fuzz.py
python3 tools/apparmor-exploit.py
