// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 SandBox Mode: what a sandbox's address space holds, and whether
 * it holds only that.
 *
 * sbm_audit() walks every level of a sandbox's page tables and sorts each
 * mapped page into the region it belongs to. Only kernel and module text
 * and read-only data, the sandbox's stack, the private stand-ins for
 * per-CPU state and "current", the buffers and maps of its caller and the
 * objects it allocated may be user-accessible; only the stack, writable
 * buffers and those objects may be written.
 * The entry text, the sandbox IDT, the CPU entry area and the context page
 * are there for the CPU at CPL 0. Anything else is a violation.
 *
 * /sys/kernel/debug/sbm/address_space shows the address space of a
 * sample sandbox, in the manner of the kernel's page-table dump.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/seq_file.h>
#include <linux/vmalloc.h>
#include <asm/cpu_entry_area.h>
#include <asm/sections.h>

#include "sbm.h"

static const char * const sbm_region_names[SBM_REGION_NR] = {
	[SBM_REGION_UNKNOWN]	= "unknown",
	[SBM_REGION_TEXT]	= "kernel text",
	[SBM_REGION_RODATA]	= "read-only data",
	[SBM_REGION_ENTRY]	= "entry text",
	[SBM_REGION_IDT]	= "sandbox IDT",
	[SBM_REGION_CEA]	= "CPU entry area",
	[SBM_REGION_CONTEXT]	= "context page",
	[SBM_REGION_STACK]	= "sandbox stack",
	[SBM_REGION_SHADOW]	= "private stand-ins",
	[SBM_REGION_BUFFER_RO]	= "input buffer / read-only map",
	[SBM_REGION_BUFFER_RW]	= "output buffer / writable map",
	[SBM_REGION_OBJECT]	= "allocated by the target",
};

/**
 * sbm_region_name() - what a region is, in a few words
 * @region: the region
 *
 * Return: its name.
 */
const char *sbm_region_name(enum sbm_region region)
{
	return sbm_region_names[region];
}

/* Is the page at @addr part of [@start, @end)? */
static bool sbm_in(unsigned long addr, const void *start, const void *end)
{
	return addr >= ((unsigned long)start & PAGE_MASK) &&
	       addr < PAGE_ALIGN((unsigned long)end);
}

static bool sbm_in_object(unsigned long addr, const void *obj, size_t size)
{
	unsigned long start = (unsigned long)obj & PAGE_MASK;

	return obj && addr >= start &&
	       addr < PAGE_ALIGN((unsigned long)obj + size);
}

#ifdef CONFIG_MODULES
static enum sbm_region sbm_module_region(unsigned long addr)
{
	enum sbm_region region = SBM_REGION_UNKNOWN;
	struct module *mod;

	preempt_disable();
	mod = __module_address(addr);
	if (mod) {
		if (within_module_mem_type(addr, mod, MOD_TEXT) ||
		    within_module_mem_type(addr, mod, MOD_INIT_TEXT))
			region = SBM_REGION_TEXT;
		else if (within_module_mem_type(addr, mod, MOD_RODATA) ||
			 within_module_mem_type(addr, mod, MOD_INIT_RODATA) ||
			 within_module_mem_type(addr, mod, MOD_RO_AFTER_INIT))
			region = SBM_REGION_RODATA;
	}
	preempt_enable();
	return region;
}
#else
static enum sbm_region sbm_module_region(unsigned long addr)
{
	return SBM_REGION_UNKNOWN;
}
#endif

static bool sbm_in_shadow(const struct sbm_shadow *sh, unsigned long addr)
{
	unsigned int cpu, i;

	if (sbm_in_object(addr, sh->task, sizeof(*sh->task)) ||
	    sbm_in_object(addr, sh->stack_end, PAGE_SIZE))
		return true;
	for_each_possible_cpu(cpu) {
		for (i = 0; i < sh->nr_percpu; i++)
			if (addr - per_cpu_offset(cpu) ==
			    sbm_shadow_page_offset(i))
				return true;
	}
	return false;
}

/**
 * sbm_region_of() - what a page of a sandbox's address space is for
 * @s:    the sandbox
 * @addr: a page-aligned address
 *
 * Return: the region, or SBM_REGION_UNKNOWN.
 */
enum sbm_region sbm_region_of(const struct x86_sbm *s, unsigned long addr)
{
	const struct sbm_range *range;
	enum sbm_region region = SBM_REGION_UNKNOWN;

	if (sbm_in(addr, __entry_text_start, __entry_text_end))
		return SBM_REGION_ENTRY;
	if (sbm_in(addr, _stext, _etext))
		return SBM_REGION_TEXT;
	if (sbm_in(addr, __start_rodata, __end_rodata))
		return SBM_REGION_RODATA;
	if (sbm_in_object(addr, sbm_idt, PAGE_SIZE))
		return SBM_REGION_IDT;
	if (addr >= CPU_ENTRY_AREA_BASE &&
	    addr < CPU_ENTRY_AREA_BASE + CPU_ENTRY_AREA_MAP_SIZE)
		return SBM_REGION_CEA;
	if (sbm_in_object(addr, s->ctx, PAGE_SIZE))
		return SBM_REGION_CONTEXT;
	if (sbm_in_object(addr, s->stack, SBM_STACK_SIZE))
		return SBM_REGION_STACK;
	if (sbm_in_shadow(&s->shadow, addr))
		return SBM_REGION_SHADOW;
	/* xa_load() takes no const, but only reads. */
	if (xa_load((struct xarray *)&s->objects, addr >> PAGE_SHIFT))
		return SBM_REGION_OBJECT;
	list_for_each_entry(range, &s->ranges, list) {
		if (addr < range->start || addr >= range->end)
			continue;
		if (range->writable)
			return SBM_REGION_BUFFER_RW;
		region = SBM_REGION_BUFFER_RO;
	}
	if (region != SBM_REGION_UNKNOWN)
		return region;
	return sbm_module_region(addr);
}

/* May a page of @region have the permissions @prot? */
static bool sbm_region_allows(enum sbm_region region, pteval_t prot)
{
	bool user = prot & _PAGE_USER, rw = prot & _PAGE_RW;
	bool exec = !(prot & _PAGE_NX);

	switch (region) {
	case SBM_REGION_TEXT:
		return user && !rw;
	case SBM_REGION_RODATA:
	case SBM_REGION_SHADOW:
	case SBM_REGION_BUFFER_RO:
		return user && !rw && !exec;
	case SBM_REGION_STACK:
	case SBM_REGION_BUFFER_RW:
	case SBM_REGION_OBJECT:
		return user && !exec;
	case SBM_REGION_ENTRY:
		return !user && !rw;
	case SBM_REGION_IDT:
		return !user && !rw && !exec;
	case SBM_REGION_CEA:
		return !user;
	case SBM_REGION_CONTEXT:
		return !user && !exec;
	default:
		return false;
	}
}

struct sbm_audit_walk {
	const struct x86_sbm *s;
	struct sbm_audit *audit;
};

static void sbm_audit_page(void *data, unsigned long addr,
			   unsigned long size, pteval_t prot)
{
	struct sbm_audit_walk *walk = data;
	struct sbm_audit *audit = walk->audit;
	enum sbm_region region = sbm_region_of(walk->s, addr);

	audit->bytes[region] += size;
	if (sbm_region_allows(region, prot))
		return;
	if (audit->violations++ < ARRAY_SIZE(audit->bad))
		audit->bad[audit->violations - 1] = addr;
}

/**
 * sbm_audit() - check that a sandbox maps only what it may
 * @sbm:   an instance after a successful sbm_init()
 * @audit: the result: bytes per region, violations and their addresses
 */
void sbm_audit(struct sbm *sbm, struct sbm_audit *audit)
{
	struct sbm_audit_walk walk = { .s = sbm->private, .audit = audit };

	memset(audit, 0, sizeof(*audit));
	sbm_pgtable_walk(&walk.s->pt, sbm_audit_page, &walk);
}

/* A run of pages with the same region and permissions, for the dump. */
struct sbm_dump {
	struct seq_file *m;
	const struct x86_sbm *s;
	unsigned long start, end;
	enum sbm_region region;
	pteval_t prot;
};

static void sbm_dump_flush(struct sbm_dump *d)
{
	unsigned long size = d->end - d->start;

	if (d->end == d->start)
		return;
	seq_printf(d->m, "0x%016lx-0x%016lx %9luK %s %s %s  %s%s\n",
		   d->start, d->end, size >> 10,
		   d->prot & _PAGE_USER ? "USR" : "   ",
		   d->prot & _PAGE_RW ? "RW" : "ro",
		   d->prot & _PAGE_NX ? "NX" : "x ",
		   sbm_region_names[d->region],
		   sbm_region_allows(d->region, d->prot) ? "" : "  VIOLATION");
}

static void sbm_dump_page(void *data, unsigned long addr, unsigned long size,
			  pteval_t prot)
{
	struct sbm_dump *d = data;
	enum sbm_region region = sbm_region_of(d->s, addr);

	if (addr == d->end && region == d->region && prot == d->prot) {
		d->end += size;
		return;
	}
	sbm_dump_flush(d);
	d->start = addr;
	d->end = addr + size;
	d->region = region;
	d->prot = prot;
}

static SBM_DEFINE_FUNC(sbm_dump_target, const u8 *, in, u8 *, out)
{
	out[0] = in[0];
	return 0;
}

static int sbm_address_space_show(struct seq_file *m, void *unused)
{
	struct sbm_dump d = { .m = m };
	u8 in[16] = { 1 }, out[16];
	struct sbm sbm;
	void *page;
	int err;

	page = vzalloc(PAGE_SIZE);
	if (!page)
		return -ENOMEM;
	err = sbm_init(&sbm);
	if (!err) {
		SBM_MAP_WRITABLE(&sbm, page, PAGE_SIZE);
		err = sbm_call(&sbm, sbm_dump_target,
			       SBM_COPY_IN(&sbm, in, sizeof(in)),
			       SBM_COPY_OUT(&sbm, out, sizeof(out)));
	}
	if (!err) {
		seq_printf(m, "A sandbox with a %zu-byte input, a %zu-byte output and a one-page writable map (%d-level paging):\n",
			   sizeof(in), sizeof(out),
			   pgtable_l5_enabled() ? 5 : 4);
		d.s = sbm.private;
		sbm_pgtable_walk(&d.s->pt, sbm_dump_page, &d);
		sbm_dump_flush(&d);
	}
	sbm_destroy(&sbm);
	vfree(page);
	return err;
}
DEFINE_SHOW_ATTRIBUTE(sbm_address_space);

/* After the generic code made its debugfs directory. */
static int __init sbm_ptdump_init(void)
{
	debugfs_create_file("address_space", 0400, sbm_debugfs_dir(), NULL,
			    &sbm_address_space_fops);
	return 0;
}
late_initcall_sync(sbm_ptdump_init);
