// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 SandBox Mode boundary fuzzer: where streams run. The addresses a
 * stream is aimed at, and the page of kernel text it is written to.
 */

#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include <asm/cpu_entry_area.h>
#include <asm/ibt.h>
#include <asm/processor.h>
#include <asm/sections.h>
#include <asm/text-patching.h>

#include "sbm.h"
#include "sbm_fuzz.h"

/* Where a stream starts in the arena: after its ENDBR, if any. */
#define ARENA_START	(IS_ENABLED(CONFIG_X86_KERNEL_IBT) ? ENDBR_INSN_SIZE : 0)

/**
 * sbm_fuzz_env_init() - aim streams at these buffers and at the kernel
 * @env:     the environment to fill
 * @rw:      the writable buffer a stream gets in %rdi
 * @rw_size: its size
 * @ro:      a read-only buffer
 * @ro_size: its size
 */
void sbm_fuzz_env_init(struct sbm_fuzz_env *env, void *rw, size_t rw_size,
		       void *ro, size_t ro_size)
{
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

	env->rw = (unsigned long)rw;
	env->rw_size = rw_size;
	env->ro = (unsigned long)ro;
	env->ro_size = ro_size;
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
