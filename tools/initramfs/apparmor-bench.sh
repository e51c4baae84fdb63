#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The AppArmor benchmark scene: how long the kernel takes to load the whole
# policy corpus (tools/apparmor-corpus.sh) with its unpacker in SandBox Mode
# and without, in one boot, switching apparmor.sbm between rounds. A first
# load creates the profiles; the measured rounds replace them. Prints
# "apparmor-load SBM ROUND NS" lines, SBM being off or on and NS the time
# of the write() calls of one round, then "end".
aa=/sys/kernel/security/apparmor
param=/sys/module/apparmor/parameters/sbm
corpus=/apparmor/corpus
rounds=3

grep -q " /sys/kernel/security " /proc/mounts ||
	mount -t securityfs securityfs /sys/kernel/security
if [ ! -w "$aa/.replace" ] || [ ! -w "$param" ] || [ ! -d "$corpus" ]; then
	echo "apparmor-load error: needs AppArmor with apparmor.sbm and the corpus"
	echo "end"
	exit 0
fi
echo "apparmor-corpus $(ls "$corpus"/*.bin | wc -l) files $(cat "$corpus"/*.bin | wc -c) bytes"
mkdir -p /tmp
echo 0 > "$param"
apparmor-load warmup "$aa/.replace" "$corpus"/*.bin > /dev/null
round=1
while [ "$round" -le "$rounds" ]; do
	for sbm in off on; do
		[ "$sbm" = on ] && echo 1 > "$param" || echo 0 > "$param"
		APPARMOR_LOAD_TIME=1 apparmor-load "$sbm" "$aa/.replace" \
			"$corpus"/*.bin > /tmp/bench.out
		grep -v " ok$" /tmp/bench.out | grep -v "^time " | sed 's/^/apparmor-load error /'
		sed -n "s/^time $sbm /apparmor-load $sbm $round /p" /tmp/bench.out
	done
	round=$((round + 1))
done
echo "end"
