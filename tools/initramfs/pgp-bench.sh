#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The OpenPGP benchmark scene: how long add_key() takes to parse a key
# made by gpg (tools/pgp-keys.sh) with the OpenPGP key parser in SandBox
# Mode and without, in one boot, switching pgp_key_parser.sbm between
# runs. Each run adds and unlinks the key ROUNDS times (pgp-load bench,
# which times the add_key() calls only). Prints "pgp-bench KEY sbm=0 NS"
# and "pgp-bench KEY sbm=1 NS" lines, NS the mean nanoseconds of one
# add_key(), then "pgp-bench KEY ratio R" (sbm=1 over sbm=0) per key,
# "pgp-bench error ..." lines for what went wrong, and "end".
# rsa2048-padded is rsa2048 with a 12 KiB padding packet: too big for the
# sandbox the parser keeps, it gets a new sandbox for each add_key().
param=/sys/module/pgp_key_parser/parameters/sbm
keys=/pgp/keys
rounds=200

if [ ! -w "$param" ] || [ ! -d "$keys" ]; then
	echo "pgp-bench error: needs the OpenPGP key parser with pgp_key_parser.sbm and /pgp/keys"
	echo "end"
	exit 0
fi
mkdir -p /tmp
saved=$(cat "$param")
for key in rsa2048 nistp256 rsa2048-padded; do
	file=$keys/$key.pgp
	[ -e "$file" ] || file=$keys/$key.bin
	# One run first, so that both measured runs find the algorithms
	# loaded and the caches warm.
	pgp-load bench "$file" 10 > /dev/null
	for sbm in 0 1; do
		echo "$sbm" > "$param"
		pgp-load bench "$file" "$rounds" > /tmp/pgp-bench.out
		ns=$(awk '$1 == "bench" && $4 ~ /^[0-9]+$/ { print $4 }' \
			/tmp/pgp-bench.out)
		if [ -n "$ns" ]; then
			echo "pgp-bench $key sbm=$sbm $ns"
		else
			echo "pgp-bench error $key sbm=$sbm: $(cat /tmp/pgp-bench.out)"
		fi
		eval "ns$sbm=\$ns"
	done
	if [ -n "$ns0" ] && [ -n "$ns1" ] && [ "$ns0" -gt 0 ]; then
		awk -v k="$key" -v a="$ns0" -v b="$ns1" \
			'BEGIN { printf "pgp-bench %s ratio %.3f\n", k, b / a }'
	fi
done
case "$saved" in
Y | 1) echo 1 > "$param" ;;
*) echo 0 > "$param" ;;
esac
echo "end"
