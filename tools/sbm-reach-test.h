/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tools/sbm-reach-test.c uses and does not define, as the kernel
 * would provide it: an allowlisted function and the per-CPU pcpu_hot.
 * The test passes the kernel's attribute macros on the command line.
 */
#ifndef SBM_REACH_TEST_H
#define SBM_REACH_TEST_H

struct hot {
	void *current_task;
	int preempt_count;
};

void kfree_like(void *p);
extern struct hot pcpu_hot;

#endif /* SBM_REACH_TEST_H */
