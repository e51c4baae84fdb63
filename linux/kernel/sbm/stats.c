// SPDX-License-Identifier: GPL-2.0
/*
 * SandBox Mode statistics: per-CPU counters that the hot path bumps with
 * one instruction, summed over all CPUs in /sys/kernel/debug/sbm/stats.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/seq_file.h>

#include "stats.h"

DEFINE_PER_CPU(u64 [SBM_STAT_NR], sbm_stats);

static const char * const sbm_stat_names[SBM_STAT_NR] = {
	[SBM_STAT_CREATED] = "instances_created",
	[SBM_STAT_DESTROYED] = "instances_destroyed",
	[SBM_STAT_CALLS] = "calls",
	[SBM_STAT_ABORTS + SBM_ABORT_PAGE_FAULT] = "aborts_page_fault",
	[SBM_STAT_ABORTS + SBM_ABORT_GENERAL_PROTECTION] =
		"aborts_general_protection",
	[SBM_STAT_ABORTS + SBM_ABORT_INVALID_OPCODE] = "aborts_invalid_opcode",
	[SBM_STAT_ABORTS + SBM_ABORT_BREAKPOINT] = "aborts_breakpoint",
	[SBM_STAT_ABORTS + SBM_ABORT_DIVIDE_ERROR] = "aborts_divide_error",
	[SBM_STAT_ABORTS + SBM_ABORT_SYSCALL] = "aborts_system_call",
	[SBM_STAT_ABORTS + SBM_ABORT_TIME_LIMIT] = "aborts_time_limit",
	[SBM_STAT_ABORTS + SBM_ABORT_FORBIDDEN_CALL] = "aborts_forbidden_call",
	[SBM_STAT_ABORTS + SBM_ABORT_SERVICE_ARGUMENT] =
		"aborts_service_argument",
	[SBM_STAT_ABORTS + SBM_ABORT_OTHER] = "aborts_other",
	[SBM_STAT_BYTES_IN] = "bytes_copied_in",
	[SBM_STAT_BYTES_OUT] = "bytes_copied_out",
	[SBM_STAT_PROXIED_CALLS] = "proxied_calls",
	[SBM_STAT_OBJECTS_ALLOCATED] = "objects_allocated",
	[SBM_STAT_OBJECTS_FREED] = "objects_freed",
	[SBM_STAT_OBJECTS_ADOPTED] = "objects_adopted",
	[SBM_STAT_TIME_NS] = "time_in_sandbox_ns",
};

/**
 * sbm_stat_read() - the sum of a counter over all CPUs
 * @stat: the counter
 *
 * Return: its value, which concurrent updates may make slightly stale.
 */
u64 sbm_stat_read(enum sbm_stat stat)
{
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu(cpu)
		sum += per_cpu(sbm_stats, cpu)[stat];
	return sum;
}

static int sbm_stats_show(struct seq_file *m, void *v)
{
	unsigned int i;

	for (i = 0; i < SBM_STAT_NR; i++) {
		seq_printf(m, "%-28s %llu\n", sbm_stat_names[i],
			   sbm_stat_read(i));
		if (i == SBM_STAT_DESTROYED)
			seq_printf(m, "%-28s %llu\n", "instances_live",
				   sbm_stat_read(SBM_STAT_CREATED) -
				   sbm_stat_read(SBM_STAT_DESTROYED));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sbm_stats);

static struct dentry *sbm_debugfs;

/**
 * sbm_debugfs_dir() - the SandBox Mode directory of debugfs
 *
 * For the architecture's debugging files, from late_initcall_sync() on.
 *
 * Return: the dentry of /sys/kernel/debug/sbm, or an ERR_PTR without one.
 */
struct dentry *sbm_debugfs_dir(void)
{
	return sbm_debugfs;
}

static int __init sbm_stats_init(void)
{
	sbm_debugfs = debugfs_create_dir("sbm", NULL);
	debugfs_create_file("stats", 0444, sbm_debugfs, NULL, &sbm_stats_fops);
	return 0;
}
late_initcall(sbm_stats_init);
