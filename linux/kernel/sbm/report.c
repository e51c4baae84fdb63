// SPDX-License-Identifier: GPL-2.0
/*
 * SandBox Mode: reporting a sandbox that the architecture stopped.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <trace/events/sbm.h>

#include "stats.h"

static DEFINE_RATELIMIT_STATE(sbm_report_rs, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

/**
 * sbm_abort() - fail a sandbox instance that the architecture stopped
 * @sbm:   the instance
 * @func:  the target function that was running
 * @abort: what happened
 *
 * Sets the sticky error to @abort->err, counts the abort, fires the
 * sbm_abort tracepoint and prints one line about the violation,
 * rate-limited, and a line for each call of a forbidden call chain.
 * Called by arch_sbm_exec().
 */
void sbm_abort(struct sbm *sbm, sbm_func func, const struct sbm_abort *abort)
{
	unsigned int i;

	if (!sbm->error)
		sbm->error = abort->err;
	sbm_stat_add(SBM_STAT_ABORTS + abort->kind, 1);
	trace_sbm_abort(sbm, func, abort);
	if (!__ratelimit(&sbm_report_rs))
		return;
	if (abort->has_addr)
		pr_err("%ps stopped: %s at %pS, address 0x%lx (called from %pS, %s[%d]): %pe\n",
		       func, abort->reason, (void *)abort->ip,
		       abort->addr, (void *)sbm->caller, current->comm,
		       task_pid_nr(current), ERR_PTR(abort->err));
	else
		pr_err("%ps stopped: %s at %pS (called from %pS, %s[%d]): %pe\n",
		       func, abort->reason, (void *)abort->ip,
		       (void *)sbm->caller, current->comm,
		       task_pid_nr(current), ERR_PTR(abort->err));
	for (i = abort->chain_len; i-- > 0; )
		pr_err("  %s %ps\n", i == abort->chain_len - 1 ?
		       "target called" : "which called", (void *)abort->chain[i]);
}
EXPORT_SYMBOL_GPL(sbm_abort);
