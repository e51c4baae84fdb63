/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SandBox Mode statistics: per-CPU counters, summed when read.
 */
#ifndef _KERNEL_SBM_STATS_H
#define _KERNEL_SBM_STATS_H

#include <linux/percpu.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>

enum sbm_stat {
	SBM_STAT_CREATED,
	SBM_STAT_DESTROYED,
	SBM_STAT_CALLS,
	SBM_STAT_ABORTS,	/* one per enum sbm_abort_kind */
	SBM_STAT_BYTES_IN = SBM_STAT_ABORTS + SBM_ABORT_NR,
	SBM_STAT_BYTES_OUT,
	SBM_STAT_PROXIED_CALLS,
	SBM_STAT_OBJECTS_ALLOCATED,
	SBM_STAT_OBJECTS_FREED,
	SBM_STAT_OBJECTS_ADOPTED,
	SBM_STAT_TIME_NS,
	SBM_STAT_NR
};

DECLARE_PER_CPU(u64 [SBM_STAT_NR], sbm_stats);

static inline void sbm_stat_add(enum sbm_stat stat, u64 val)
{
	this_cpu_add(sbm_stats[stat], val);
}

u64 sbm_stat_read(enum sbm_stat stat);

#endif /* _KERNEL_SBM_STATS_H */
