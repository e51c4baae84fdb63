#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The modules scene of make test: load, run (KUnit runs a module's suites
# when it loads) and unload every module of the initramfs.
for ko in /lib/modules/*.ko; do
	insmod "$ko" && rmmod "$(basename "$ko" .ko)"
done
