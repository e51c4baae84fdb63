#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The AppArmor scene of make demo, in a boot with apparmor.dfa_default_bug=1:
# AppArmor's policy unpacker parses real and broken policies in SandBox
# Mode, then a policy exploits the unpacker bug that this boot puts back on
# purpose (CVE-2026-23407), and the sandbox contains it.
aa=/sys/kernel/security/apparmor
data=/apparmor
param=/sys/module/apparmor/parameters/sbm

caption() {
	echo
	echo "=== $* ==="
}

# load FILE...: write each to .replace, as apparmor_parser -r would
load() {
	apparmor-load load "$aa/.replace" "$@" |
		awk '$1 == "load" { printf "  %-36s %s\n", $2, $3 }'
}

grep -q " /sys/kernel/security " /proc/mounts ||
	mount -t securityfs securityfs /sys/kernel/security
mkdir -p /tmp
caption "AppArmor's policy unpacker in SandBox Mode, on Linux $(uname -r)"
if [ ! -w "$aa/.replace" ] || [ ! -e "$param" ] || [ ! -d "$data/corpus" ]; then
	echo "Needs AppArmor with CONFIG_SECURITY_APPARMOR_SBM and the policy corpus."
	exit 0
fi
echo "apparmor.sbm = $(cat "$param"): every policy written to .load or"
echo ".replace is parsed and verified in a sandbox; the kernel checks the"
echo "unpacked result before it builds profiles from it."

caption "1. Real policies, compiled by Debian's apparmor_parser"
stat() { awk -v n="$1" '$1 == n { print $2 }' /sys/kernel/debug/sbm/stats; }
calls0=$(stat calls) objects0=$(stat objects_allocated)
load "$data"/corpus/bin.ping.bin "$data"/corpus/bin.netstat.bin \
	"$data"/corpus/postfix-smtpd.bin "$data"/corpus/samba-bgqd.bin
echo "The profiles they hold, as AppArmor lists them:"
grep -E "ping|netstat|smtpd|samba-bgqd" "$aa/profiles" | sed 's/^/  /'
echo "One sandbox per load: $(($(stat calls) - calls0)) calls; the unpackers allocated"
echo "$(($(stat objects_allocated) - objects0)) objects in them, which the kernel checked and copied."

caption "2. Broken policies: the unpacker's own errors come back"
echo "Truncated, bit-flipped and random blobs (tools/apparmor-fuzz.py):"
load "$data"/fuzz/0000.bin "$data"/fuzz/0001.bin "$data"/fuzz/0002.bin \
	"$data"/fuzz/1000.bin "$data"/fuzz/2000.bin

if [ ! -e "$data/exploit/cve-2026-23407.bin" ]; then
	exit 0
fi
caption "3. CVE-2026-23407, put back, and a policy that exploits it"
echo "This kernel has CONFIG_SECURITY_APPARMOR_DEBUG_DFA_DEFAULT_BUG: verify_dfa()"
echo "no longer checks that DFA default states are in bounds. The policy is"
echo "bin.ping with one DFA state diff-encoded and its default state 0xffff:"
echo "the unpacker follows that state 256 KiB past the end of its table, to"
echo "read it, and to write to it if the word it reads has its top bit set."
taint=$(cat /proc/sys/kernel/tainted)
mark=$(dmesg | wc -l)
load "$data"/exploit/cve-2026-23407.bin
echo "What the kernel logged:"
dmesg | tail -n +"$((mark + 1))" | sed -n 's/^\[[ 0-9.]*\] \(sbm: .*\)/  \1/p'
echo "The kernel carries on: the next policy loads, and no new taint."
load "$data"/corpus/bin.netstat.bin
echo "  taint before: $taint, after: $(cat /proc/sys/kernel/tainted)"
