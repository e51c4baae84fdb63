// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 SandBox Mode: private stand-ins for the kernel state that
 * compiled kernel code reads without being asked to.
 *
 * Code built with the stack protector reads its canary at %gs:40, and
 * "current" comes from pcpu_hot through GS. A target runs with the
 * kernel's GS base, so the sandbox maps, at every CPU's addresses of those
 * two per-CPU pages, private pages that hold only a canary of the
 * sandbox's own and a pcpu_hot whose "current" is a zeroed stand-in task.
 * That task's stack is a private page whose first word, the one that
 * end_of_stack() finds, is copied from the caller's before each call.
 * Nothing of the kernel's per-CPU data, of the caller's task_struct or of
 * its stack is mapped.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/processor.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stackprotector.h>
#include <linux/vmalloc.h>
#include <asm/current.h>

#include "sbm.h"

/* Offsets of the two per-CPU pages from a CPU's per-CPU base. */
static unsigned long sbm_canary_page(void)
{
	return (unsigned long)&fixed_percpu_data & PAGE_MASK;
}

static unsigned long sbm_hot_page(void)
{
	return (unsigned long)&pcpu_hot & PAGE_MASK;
}

/**
 * sbm_shadow_page_offset() - where a private per-CPU page goes
 * @i: which page: 0 or 1, below &sbm_shadow.nr_percpu
 *
 * Return: its offset from every CPU's per-CPU base.
 */
unsigned long sbm_shadow_page_offset(unsigned int i)
{
	return i ? sbm_hot_page() : sbm_canary_page();
}

static void sbm_fill_percpu(struct sbm_shadow *sh)
{
	struct fixed_percpu_data *fixed;
	struct pcpu_hot *hot;
	void *hot_page;

	fixed = page_address(sh->percpu[0]) +
		((unsigned long)&fixed_percpu_data & ~PAGE_MASK);
	if (IS_ENABLED(CONFIG_STACKPROTECTOR))
		fixed->stack_canary = get_random_canary();

	hot_page = page_address(sh->percpu[sh->nr_percpu - 1]);
	hot = hot_page + ((unsigned long)&pcpu_hot & ~PAGE_MASK);
	hot->current_task = sh->task;
	hot->preempt_count = PREEMPT_ENABLED;
	hot->top_of_stack = (unsigned long)sh->stack_end + PAGE_SIZE;
}

static int sbm_map_percpu(struct sbm_shadow *sh, struct sbm_pgtable *pt)
{
	unsigned int cpu, i;
	int err;

	for_each_possible_cpu(cpu) {
		for (i = 0; i < sh->nr_percpu; i++) {
			err = sbm_map_pfn(pt, per_cpu_offset(cpu) +
					  sbm_shadow_page_offset(i),
					  page_to_pfn(sh->percpu[i]),
					  SBM_USER_RO);
			if (err)
				return err;
		}
	}
	return 0;
}

static int sbm_map_vmalloc(struct sbm_pgtable *pt, void *addr, size_t size)
{
	unsigned long start = (unsigned long)addr;

	return sbm_map_kernel_range(pt, start, start + PAGE_ALIGN(size),
				    SBM_USER_RO);
}

/**
 * sbm_shadow_init() - make the stand-ins of a new sandbox and map them
 * @sh: the stand-ins, zeroed
 * @pt: the sandbox page tables
 *
 * Return: 0 or a negative errno; call sbm_shadow_free() in both cases.
 */
int sbm_shadow_init(struct sbm_shadow *sh, struct sbm_pgtable *pt)
{
	unsigned int i;
	int err;

	sh->nr_percpu = sbm_canary_page() == sbm_hot_page() ? 1 : 2;
	for (i = 0; i < sh->nr_percpu; i++) {
		sh->percpu[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!sh->percpu[i])
			return -ENOMEM;
	}
	sh->task = vzalloc(sizeof(*sh->task));
	sh->stack_end = vzalloc(PAGE_SIZE);
	if (!sh->task || !sh->stack_end)
		return -ENOMEM;
	sh->task->stack = sh->stack_end;
	sbm_fill_percpu(sh);

	err = sbm_map_percpu(sh, pt);
	if (!err)
		err = sbm_map_vmalloc(pt, sh->task, sizeof(*sh->task));
	if (!err)
		err = sbm_map_vmalloc(pt, sh->stack_end, PAGE_SIZE);
	return err;
}

/**
 * sbm_shadow_update() - refresh the stand-ins before a call
 * @sh: the stand-ins
 *
 * Copies the word at end_of_stack(current), which the caller may have
 * set for the target, to the start of the stand-in stack.
 */
void sbm_shadow_update(struct sbm_shadow *sh)
{
	WRITE_ONCE(*sh->stack_end, READ_ONCE(*end_of_stack(current)));
}

/**
 * sbm_shadow_free() - free the stand-ins of a sandbox
 * @sh: the stand-ins
 */
void sbm_shadow_free(struct sbm_shadow *sh)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sh->percpu); i++)
		if (sh->percpu[i])
			__free_page(sh->percpu[i]);
	vfree(sh->task);
	vfree(sh->stack_end);
	memset(sh, 0, sizeof(*sh));
}
