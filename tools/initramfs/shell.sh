#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The interactive scene of make shell.
cat <<'TEXT'
SandBox Mode shell. At hand:
  /sys/kernel/debug/sbm/stats             statistics
  /sys/kernel/debug/sbm_demo/{parse,fault} the sandboxed demo parser
  /sys/kernel/debug/sbm_bench/results      the benchmark (read to run)
  /sys/kernel/debug/kunit/*/results        the boot-time self-tests
  /sys/kernel/tracing/events/sbm/          the sbm tracepoints
  /bin/nullsys                             a null system call timing
Leave the shell to power off.
TEXT
setsid -c sh -l
