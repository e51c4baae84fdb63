#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The fuzz-oracle scene of make test: run streams of the boundary fuzzer in
# a sandbox and in a user process, and compare how each ended (KTAP suite
# sandbox_mode_oracle). sbm_oracle=SEED:COUNT on the command line chooses
# them, sbm_oracle_first=N the first (default 0).
seed=1 count=5000 first=0
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	sbm_oracle=*) spec=${arg#sbm_oracle=}; seed=${spec%%:*}; count=${spec#*:} ;;
	sbm_oracle_first=*) first=${arg#sbm_oracle_first=} ;;
	esac
done
sbm-fuzz-oracle "$seed" "$first" "$count"
