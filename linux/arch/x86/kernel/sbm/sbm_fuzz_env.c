// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 SandBox Mode boundary fuzzer: where streams run. The addresses a
 * stream is aimed at, and the page of kernel text it is written to.
 */

#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/processor.h>
#include <linux/sbm.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <asm/cpu_entry_area.h>
#include <asm/ibt.h>
#include <asm/sections.h>
#include <asm/text-patching.h>

#include "sbm.h"
#include "sbm_fuzz.h"

/* Where a stream starts in the arena: after its ENDBR, if any. */
#define ARENA_START	(IS_ENABLED(CONFIG_X86_KERNEL_IBT) ? ENDBR_INSN_SIZE : 0)

static u8 *sbm_fuzz_area_page(const struct sbm_fuzz_area *area,
			      unsigned int page)
{
	return area->pages + page * PAGE_SIZE;
}

/**
 * sbm_fuzz_area_aim() - aim streams at the area and at the current task
 * @area: the area
 *
 * Again whenever another task runs the streams: some addresses are its own.
 */
void sbm_fuzz_area_aim(struct sbm_fuzz_area *area)
{
	struct sbm_fuzz_env *env = &area->env;
	unsigned int n = 0;

	memset(env, 0, sizeof(*env));
	env->services[n++] = (unsigned long)__kmalloc_noprof;
	env->services[n++] = (unsigned long)kfree;
	env->services[n++] = (unsigned long)krealloc_noprof;
	env->services[n++] = (unsigned long)kmemdup_noprof;
	env->services[n++] = (unsigned long)kstrdup;
	env->services[n++] = (unsigned long)vmalloc_noprof;
	env->services[n++] = (unsigned long)vfree;
	env->services[n++] = (unsigned long)kvfree;
	env->nr_services = n;
	env->kmalloc = (unsigned long)__kmalloc_noprof;
	env->kfree = (unsigned long)kfree;
	env->forbidden = (unsigned long)ktime_get;

	n = 0;
	env->kernel[n++] = (unsigned long)_stext;
	env->kernel[n++] = (unsigned long)__start_rodata;
	env->kernel[n++] = (unsigned long)_sdata;
	env->kernel[n++] = (unsigned long)__bss_start;
	env->kernel[n++] = PAGE_OFFSET;
	env->kernel[n++] = (unsigned long)current;
	env->kernel[n++] = (unsigned long)task_stack_page(current);
	env->kernel[n++] = (unsigned long)this_cpu_ptr(&cpu_tss_rw);
	env->kernel[n++] = CPU_ENTRY_AREA_BASE;
	env->kernel[n++] = (unsigned long)sbm_idt;
	env->kernel[n++] = VMALLOC_START;
	env->kernel[n++] = (unsigned long)sbm_fuzz_arena - PAGE_SIZE;
	env->nr_kernel = n;

	env->rw = (unsigned long)sbm_fuzz_area_page(area, 1);
	env->rw_size = SBM_FUZZ_RW_PAGES * PAGE_SIZE;
	env->ro = (unsigned long)sbm_fuzz_area_page(area, 2 + SBM_FUZZ_RW_PAGES);
	env->ro_size = PAGE_SIZE;
}

/**
 * sbm_fuzz_area_alloc() - allocate the buffers and fill guards and ro
 * @area: the area, aimed at when this returns 0
 *
 * Return: 0, or -ENOMEM.
 */
int sbm_fuzz_area_alloc(struct sbm_fuzz_area *area)
{
	area->pages = vmalloc(SBM_FUZZ_AREA_PAGES * PAGE_SIZE);
	if (!area->pages)
		return -ENOMEM;
	memset(area->pages, SBM_FUZZ_GUARD_BYTE,
	       SBM_FUZZ_AREA_PAGES * PAGE_SIZE);
	sbm_fuzz_area_aim(area);
	memset((void *)area->env.ro, SBM_FUZZ_RO_BYTE, area->env.ro_size);
	return 0;
}

/**
 * sbm_fuzz_area_free() - free the buffers
 * @area: the area
 */
void sbm_fuzz_area_free(struct sbm_fuzz_area *area)
{
	vfree(area->pages);
	area->pages = NULL;
}

/**
 * sbm_fuzz_area_map() - give @sbm the buffers, rw zeroed
 * @area: the area
 * @sbm:  a sandbox instance
 *
 * Return: true if both are mapped at their own addresses.
 */
bool sbm_fuzz_area_map(struct sbm_fuzz_area *area, struct sbm *sbm)
{
	struct sbm_fuzz_env *env = &area->env;
	void *rw, *ro;

	rw = SBM_MAP_WRITABLE(sbm, (void *)env->rw, env->rw_size);
	ro = SBM_MAP_READONLY(sbm, (void *)env->ro, env->ro_size);
	if (rw != (void *)env->rw || ro != (void *)env->ro)
		return false;
	memset(rw, 0, env->rw_size);
	return true;
}

/**
 * sbm_fuzz_area_guards_intact() - whether no guard page byte changed
 * @area: the area
 *
 * Return: true if all three guard pages hold only their byte.
 */
bool sbm_fuzz_area_guards_intact(const struct sbm_fuzz_area *area)
{
	static const unsigned int guards[] = {
		0, 1 + SBM_FUZZ_RW_PAGES, 3 + SBM_FUZZ_RW_PAGES
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(guards); i++) {
		if (memchr_inv(sbm_fuzz_area_page(area, guards[i]),
			       SBM_FUZZ_GUARD_BYTE, PAGE_SIZE))
			return false;
	}
	return true;
}

/* The arena is core kernel text, which only text_poke() may change. */
static void sbm_fuzz_write(const u8 *page)
{
	mutex_lock(&text_mutex);
	text_poke_copy_locked((void *)sbm_fuzz_arena, page, PAGE_SIZE, true);
	mutex_unlock(&text_mutex);
}

/**
 * sbm_fuzz_load() - make @stream the code at sbm_fuzz_arena
 * @stream:  the stream
 * @scratch: a page to build the arena's new contents in
 *
 * Callers run one stream at a time.
 */
void sbm_fuzz_load(const struct sbm_fuzz_stream *stream, u8 *scratch)
{
	memcpy(scratch, sbm_fuzz_arena, ARENA_START);
	memcpy(scratch + ARENA_START, stream->bytes, stream->len);
	memset(scratch + ARENA_START + stream->len, 0xcc,
	       PAGE_SIZE - ARENA_START - stream->len);
	sbm_fuzz_write(scratch);
}

/**
 * sbm_fuzz_clear() - put INT3 back all over the arena
 * @scratch: a page to build the arena's new contents in
 *
 * For no stale stream to run when the fuzzer is done.
 */
void sbm_fuzz_clear(u8 *scratch)
{
	memcpy(scratch, sbm_fuzz_arena, ARENA_START);
	memset(scratch + ARENA_START, 0xcc, PAGE_SIZE - ARENA_START);
	sbm_fuzz_write(scratch);
}

/**
 * sbm_fuzz_offset() - where in the stream an address is
 * @ip: an instruction address
 *
 * Return: its offset from the start of the stream, or -1 if it is not in
 * the arena.
 */
long sbm_fuzz_offset(unsigned long ip)
{
	unsigned long arena = (unsigned long)sbm_fuzz_arena;

	/* Not a reference to arena + ARENA_START, which is no ENDBR. */
	OPTIMIZER_HIDE_VAR(arena);
	if (ip < arena + ARENA_START || ip >= arena + PAGE_SIZE)
		return -1;
	return ip - arena - ARENA_START;
}
