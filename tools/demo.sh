#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build the newest SBM kernel, boot it in QEMU with a busybox
# initramfs and play tools/initramfs/scene.sh. The kernel's own console
# goes to build/CFG/demo-console.log.
set -euo pipefail
shopt -s inherit_errexit

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
cfg=strong

tools/deps.sh
tools/prepare-tree.sh
tools/build.sh "$cfg"
tools/apparmor-policies.sh
tools/pgp-keys.sh

tools/initramfs.sh

console=build/$cfg/demo-console.log
tools/boot.sh "$cfg" -i build/initramfs.cpio.gz -c "$console" -t 300
echo
echo "=== Kernel log check ==="
python3 tools/ktap.py "$cfg=$console"

# The AppArmor scene: the policy unpacker in SandBox Mode parses real and
# bad policies, then contains CVE-2026-23407, which this boot (test only,
# apparmor.dfa_default_bug=1) puts back.
aa_console=build/$cfg/demo-apparmor-console.log
tools/boot.sh "$cfg" -i build/initramfs.cpio.gz -c "$aa_console" -t 300 \
	"kunit.filter_glob=apparmor*" sbm_scene=apparmor-demo apparmor.sbm=1 \
	apparmor.dfa_default_bug=1
echo
echo "=== Kernel log check (AppArmor scene) ==="
python3 tools/ktap.py "apparmor-demo=$aa_console"

# The OpenPGP scene: keys made by gpg become kernel keys through the
# OpenPGP key parser, parsed in SandBox Mode, verify gpg's signatures, and
# a parser made to fault (debug switch) is contained.
pgp_console=build/$cfg/demo-pgp-console.log
tools/boot.sh "$cfg" -i build/initramfs.cpio.gz -c "$pgp_console" -t 300 \
	"kunit.filter_glob=pgp*" sbm_scene=pgp-demo
echo
echo "=== Kernel log check (OpenPGP scene) ==="
python3 tools/ktap.py "pgp-demo=$pgp_console"
