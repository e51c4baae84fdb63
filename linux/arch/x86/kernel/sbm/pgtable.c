// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 SandBox Mode: the page tables of a sandbox.
 *
 * A sandbox sees, at their kernel addresses:
 *
 * - kernel text, user-executable and read-only, except the entry text,
 *   which only the supervisor may execute;
 * - kernel read-only data, user-readable;
 * - the sandbox IDT, readable by the supervisor;
 * - the CPU entry area (GDT, TSS, entry and exception stacks), for the
 *   supervisor, shared with the kernel's own page tables;
 * - what each instance adds: its buffers, its stack, its context page and
 *   the state that compiled kernel code reads (see core.c).
 *
 * Everything in the kernel image's top-level slot comes from a template
 * built once at boot and shared by every instance; that slot holds nothing
 * an instance adds. No entry is global, so nothing of a sandbox survives
 * in the TLB of the kernel's PCID.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pgtable.h>
#include <asm/cpu_entry_area.h>
#include <asm/sections.h>
#include <asm/trap_pf.h>

#include "sbm.h"

static struct sbm_pgtable sbm_template;
static p4d_t sbm_image_p4d;
/* Serialises changes of the template for modules. */
static DEFINE_MUTEX(sbm_template_lock);

static void *sbm_alloc_table(struct sbm_pgtable *pt)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);

	if (!page)
		return NULL;
	list_add(&page->lru, &pt->tables);
	return page_address(page);
}

/*
 * Point an empty entry of any level at a new table. All levels of entry
 * are one pteval_t wide on x86-64.
 */
static int sbm_populate(struct sbm_pgtable *pt, void *entry)
{
	pteval_t *val = entry;
	void *table;

	if (*val & _PAGE_PRESENT)
		return 0;
	table = sbm_alloc_table(pt);
	if (!table)
		return -ENOMEM;
	WRITE_ONCE(*val, __pa(table) | _PAGE_TABLE);
	return 0;
}

/* The P4D entry of @addr, allocating the P4D table with 5-level paging. */
static p4d_t *sbm_p4d(struct sbm_pgtable *pt, unsigned long addr)
{
	pgd_t *pgd = pt->pgd + pgd_index(addr);

	if (pgtable_l5_enabled() && sbm_populate(pt, pgd))
		return NULL;
	return p4d_offset(pgd, addr);
}

static pte_t *sbm_pte(struct sbm_pgtable *pt, unsigned long addr)
{
	p4d_t *p4d = sbm_p4d(pt, addr);
	pud_t *pud;
	pmd_t *pmd;

	if (!p4d || sbm_populate(pt, p4d))
		return NULL;
	pud = pud_offset(p4d, addr);
	if (sbm_populate(pt, pud))
		return NULL;
	pmd = pmd_offset(pud, addr);
	if (sbm_populate(pt, pmd))
		return NULL;
	return pte_offset_kernel(pmd, addr);
}

/*
 * Map one page. A page that is already mapped keeps the union of the old
 * and new permissions: a caller may share writable what is readable.
 */
static int sbm_map_page(struct sbm_pgtable *pt, unsigned long addr,
			unsigned long pfn, pteval_t prot)
{
	pte_t *pte = sbm_pte(pt, addr);
	pteval_t old;

	if (!pte)
		return -ENOMEM;
	old = pte_flags(*pte);
	if (old & _PAGE_PRESENT) {
		if (pte_pfn(*pte) != pfn)
			return -EINVAL;
		prot = (prot | old) & ~(_PAGE_NX & ~(prot & old));
	}
	WRITE_ONCE(*pte, pfn_pte(pfn, __pgprot(prot)));
	return 0;
}

/**
 * sbm_test_and_clean() - has the sandbox written a page since the last look?
 * @pt:   the sandbox page tables
 * @addr: a page mapped with SBM_USER_RW_TRACKED
 *
 * The CPU sets the dirty bit of a PTE when it first writes through it;
 * this clears the bit again. No TLB entry of the sandbox survives its next
 * entry, whose CR3 write flushes them all.
 *
 * Return: true if the page was written.
 */
bool sbm_test_and_clean(struct sbm_pgtable *pt, unsigned long addr)
{
	pte_t *pte = sbm_pte(pt, addr);

	if (!pte || !(pte_val(*pte) & _PAGE_DIRTY))
		return false;
	WRITE_ONCE(*pte, __pte(pte_val(*pte) & ~_PAGE_DIRTY));
	return true;
}

static bool sbm_in_image_slot(unsigned long addr)
{
	return pgd_index(addr) == pgd_index(__START_KERNEL_map) &&
	       (!pgtable_l5_enabled() ||
		p4d_index(addr) == p4d_index(__START_KERNEL_map));
}

/* The page frame behind a kernel virtual address, whatever maps it. */
static int sbm_kernel_pfn(unsigned long addr, unsigned long *pfn)
{
	unsigned int level;
	pte_t *pte = lookup_address(addr, &level);

	if (!pte || !(pte_val(*pte) & _PAGE_PRESENT))
		return -EFAULT;
	switch (level) {
	case PG_LEVEL_4K:
		*pfn = pte_pfn(*pte);
		break;
	case PG_LEVEL_2M:
		*pfn = pmd_pfn(*(pmd_t *)pte) + ((addr & ~PMD_MASK) >> PAGE_SHIFT);
		break;
	case PG_LEVEL_1G:
		*pfn = pud_pfn(*(pud_t *)pte) + ((addr & ~PUD_MASK) >> PAGE_SHIFT);
		break;
	default:
		return -EFAULT;
	}
	return 0;
}

/**
 * sbm_map_pfn() - map one page frame at an address of a sandbox
 * @pt:   the sandbox page tables
 * @addr: the address, page-aligned
 * @pfn:  the page frame
 * @prot: SBM_USER_* or SBM_KERNEL_* permissions
 *
 * For pages private to a sandbox that stand in for kernel pages at the
 * kernel pages' addresses.
 *
 * Return: 0; -EINVAL in the kernel image's slot, which all sandboxes
 * share, or where another page is mapped; -ENOMEM.
 */
int sbm_map_pfn(struct sbm_pgtable *pt, unsigned long addr, unsigned long pfn,
		pteval_t prot)
{
	if (sbm_in_image_slot(addr))
		return -EINVAL;
	return sbm_map_page(pt, addr, pfn, prot);
}

/**
 * sbm_map_kernel_range() - make kernel memory visible in a sandbox
 * @pt:    the sandbox page tables
 * @start: first address, page-aligned
 * @end:   end address, page-aligned
 * @prot:  SBM_USER_* or SBM_KERNEL_* permissions
 *
 * Return: 0; -EINVAL for memory in the kernel image's slot, which all
 * sandboxes share; -EFAULT for an unmapped address; -ENOMEM.
 */
int sbm_map_kernel_range(struct sbm_pgtable *pt, unsigned long start,
			 unsigned long end, pteval_t prot)
{
	unsigned long addr, pfn;
	int err;

	for (addr = start; addr < end; addr += PAGE_SIZE) {
		if (sbm_in_image_slot(addr))
			return -EINVAL;
		err = sbm_kernel_pfn(addr, &pfn);
		if (!err)
			err = sbm_map_page(pt, addr, pfn, prot);
		if (err)
			return err;
	}
	return 0;
}

/*
 * One level of a walk: the access rights are those that every level
 * grants. Sandbox tables have no large pages. Return: false to stop.
 */
static bool sbm_walk_step(pteval_t val, pteval_t *all, pteval_t *nx)
{
	if (!(val & _PAGE_PRESENT) || (val & _PAGE_PSE))
		return false;
	*all &= val;
	*nx |= val & _PAGE_NX;
	return true;
}

/* Unmap pages; the tables stay. */
static void sbm_clear_range(struct sbm_pgtable *pt, unsigned long start,
			    unsigned long end)
{
	unsigned long addr;
	pte_t *pte;

	for (addr = start; addr < end; addr += PAGE_SIZE) {
		pte = sbm_pte(pt, addr);
		if (pte)
			WRITE_ONCE(*pte, __pte(0));
	}
}

/**
 * sbm_user_lookup() - would the sandbox page tables allow an access?
 * @pt:         the sandbox page tables
 * @addr:       the address
 * @error_code: the page-fault error code that describes the access
 * @pfn:        the page frame that the access reaches, if allowed
 *
 * Return: true if a user-mode access of that kind is allowed.
 */
bool sbm_user_lookup(struct sbm_pgtable *pt, unsigned long addr,
		     unsigned long error_code, unsigned long *pfn)
{
	pteval_t all = _PAGE_USER | _PAGE_RW, nx = 0;
	pgd_t *pgd = pt->pgd + pgd_index(addr);
	p4d_t *p4d;
	pud_t *pud;
	pmd_t *pmd;
	pte_t pte;

	if (!(pgd_val(*pgd) & _PAGE_PRESENT))
		return false;
	p4d = p4d_offset(pgd, addr);
	if (!sbm_walk_step(p4d_val(*p4d), &all, &nx))
		return false;
	pud = pud_offset(p4d, addr);
	if (!sbm_walk_step(pud_val(*pud), &all, &nx))
		return false;
	pmd = pmd_offset(pud, addr);
	if (!sbm_walk_step(pmd_val(*pmd), &all, &nx))
		return false;
	pte = READ_ONCE(*pte_offset_kernel(pmd, addr));
	if (!sbm_walk_step(pte_val(pte), &all, &nx))
		return false;

	if (!(all & _PAGE_USER))
		return false;
	if ((error_code & X86_PF_WRITE) && !(all & _PAGE_RW))
		return false;
	if ((error_code & X86_PF_INSTR) && nx)
		return false;
	*pfn = pte_pfn(pte);
	return true;
}

/**
 * sbm_user_access_ok() - would the sandbox page tables allow an access?
 * @pt:         the sandbox page tables
 * @addr:       the address
 * @error_code: the page-fault error code that describes the access
 *
 * A fault on an access that the tables allow comes from a stale TLB entry,
 * typically a global kernel mapping of the same address.
 *
 * Return: true if a user-mode access of that kind is allowed.
 */
bool sbm_user_access_ok(struct sbm_pgtable *pt, unsigned long addr,
			unsigned long error_code)
{
	unsigned long pfn;

	return sbm_user_lookup(pt, addr, error_code, &pfn);
}

/**
 * sbm_unmap_kernel_range() - take memory away from one sandbox
 * @pt:    the sandbox page tables
 * @start: first address, page-aligned, outside the kernel image's slot
 * @end:   end address
 *
 * The sandbox's next entry, whose CR3 write flushes its TLB entries,
 * no longer sees the memory.
 */
void sbm_unmap_kernel_range(struct sbm_pgtable *pt, unsigned long start,
			    unsigned long end)
{
	if (WARN_ON_ONCE(sbm_in_image_slot(start) ||
			 sbm_in_image_slot(end - 1)))
		return;
	sbm_clear_range(pt, start, end);
}

/*
 * One table of a walk: @level 1 holds PTEs, each level above covers 9 more
 * address bits. @prot accumulates what the levels above grant.
 */
static void sbm_walk_table(const pteval_t *table, int level,
			   unsigned long base, pteval_t prot,
			   sbm_walk_fn fn, void *data)
{
	unsigned int shift = PAGE_SHIFT + 9 * (level - 1), i;
	unsigned long addr;
	pteval_t val, here;

	for (i = 0; i < PTRS_PER_PTE; i++) {
		val = READ_ONCE(table[i]);
		if (!(val & _PAGE_PRESENT))
			continue;
		addr = sign_extend64(base | ((unsigned long)i << shift),
				     __VIRTUAL_MASK_SHIFT);
		here = (prot & val & (_PAGE_USER | _PAGE_RW)) |
		       ((prot | val) & _PAGE_NX) | _PAGE_PRESENT;
		if (level == 1 || ((level == 2 || level == 3) &&
				   (val & _PAGE_PSE)))
			fn(data, addr, 1UL << shift, here);
		else
			sbm_walk_table(__va(val & PTE_PFN_MASK), level - 1,
				       addr, here, fn, data);
	}
}

/**
 * sbm_pgtable_walk() - visit every page that a sandbox maps
 * @pt:   the sandbox page tables
 * @fn:   called for each page or large page, in address order
 * @data: passed to @fn
 *
 * Goes through every level, 4 or 5, including the parts shared with the
 * other sandboxes and with the kernel. @fn gets _PAGE_USER and _PAGE_RW
 * only if every level grants them, and _PAGE_NX if any level sets it.
 */
void sbm_pgtable_walk(const struct sbm_pgtable *pt, sbm_walk_fn fn, void *data)
{
	sbm_walk_table((pteval_t *)pt->pgd, pgtable_l5_enabled() ? 5 : 4, 0,
		       _PAGE_USER | _PAGE_RW, fn, data);
}

/**
 * sbm_pgtable_init() - start the page tables of a new sandbox
 * @pt: the page tables to set up
 *
 * Return: 0 or -ENOMEM; call sbm_pgtable_free() in both cases.
 */
int sbm_pgtable_init(struct sbm_pgtable *pt)
{
	unsigned long cea = CPU_ENTRY_AREA_BASE;
	p4d_t *p4d;

	INIT_LIST_HEAD(&pt->tables);
	pt->pgd = sbm_alloc_table(pt);
	if (!pt->pgd)
		return -ENOMEM;

	p4d = sbm_p4d(pt, __START_KERNEL_map);
	if (!p4d)
		return -ENOMEM;
	WRITE_ONCE(*p4d, sbm_image_p4d);

	p4d = sbm_p4d(pt, cea);
	if (!p4d)
		return -ENOMEM;
	WRITE_ONCE(*p4d, *p4d_offset(pgd_offset_k(cea), cea));
	return 0;
}

/**
 * sbm_pgtable_free() - free the page tables of a sandbox
 * @pt: the page tables
 *
 * Frees the tables that belong to @pt only, not the shared template.
 */
void sbm_pgtable_free(struct sbm_pgtable *pt)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &pt->tables, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
	pt->pgd = NULL;
}

static int sbm_template_map(unsigned long start, unsigned long end,
			    pteval_t prot)
{
	unsigned long addr;
	int err;

	for (addr = start & PAGE_MASK; addr < end; addr += PAGE_SIZE) {
		err = sbm_map_page(&sbm_template, addr,
				   __pa_symbol(addr) >> PAGE_SHIFT, prot);
		if (err)
			return err;
	}
	return 0;
}

/**
 * sbm_template_map_range() - add kernel memory to what all sandboxes see
 * @start: first address, page-aligned, in the kernel image's slot
 * @end:   end address
 * @prot:  SBM_USER_* permissions
 *
 * For the text and read-only data of modules, which load into that slot.
 *
 * Return: 0 or a negative errno; a failure may leave part of the range
 * mapped.
 */
int sbm_template_map_range(unsigned long start, unsigned long end,
			   pteval_t prot)
{
	unsigned long addr, pfn;
	int err = 0;

	mutex_lock(&sbm_template_lock);
	for (addr = start; addr < end && !err; addr += PAGE_SIZE) {
		err = sbm_kernel_pfn(addr, &pfn);
		if (!err)
			err = sbm_map_page(&sbm_template, addr, pfn, prot);
	}
	mutex_unlock(&sbm_template_lock);
	return err;
}

/**
 * sbm_template_set_page() - show all sandboxes another page somewhere
 * @addr: a page-aligned address in the kernel image's slot
 * @pfn:  the page frame that sandboxes see there instead of the kernel's
 * @prot: SBM_USER_* permissions
 *
 * For private copies of kernel text. Replaces whatever the template maps
 * at @addr.
 *
 * Return: 0 or -ENOMEM.
 */
int sbm_template_set_page(unsigned long addr, unsigned long pfn,
			  pteval_t prot)
{
	pte_t *pte;

	mutex_lock(&sbm_template_lock);
	pte = sbm_pte(&sbm_template, addr);
	if (pte)
		WRITE_ONCE(*pte, pfn_pte(pfn, __pgprot(prot)));
	mutex_unlock(&sbm_template_lock);
	return pte ? 0 : -ENOMEM;
}

/**
 * sbm_template_unmap_range() - take kernel memory back from all sandboxes
 * @start: first address, page-aligned
 * @end:   end address
 *
 * The tables stay, for the next module. A sandbox that runs while its
 * memory goes away may keep a TLB entry until it next enters.
 */
void sbm_template_unmap_range(unsigned long start, unsigned long end)
{
	mutex_lock(&sbm_template_lock);
	sbm_clear_range(&sbm_template, start, end);
	mutex_unlock(&sbm_template_lock);
}

/**
 * sbm_pgtable_template_init() - build the part that all sandboxes share
 * @idt: the sandbox IDT, a page in the kernel image
 *
 * Return: 0 or a negative errno.
 */
int sbm_pgtable_template_init(const gate_desc *idt)
{
	/* The entry text is PMD-aligned: its pages hold nothing else. */
	unsigned long entry_start = (unsigned long)__entry_text_start & PAGE_MASK;
	unsigned long entry_end = PAGE_ALIGN((unsigned long)__entry_text_end);
	int err;

	if (sbm_in_image_slot(CPU_ENTRY_AREA_BASE) ||
	    !sbm_in_image_slot((unsigned long)__end_rodata))
		return -EOPNOTSUPP;

	INIT_LIST_HEAD(&sbm_template.tables);
	sbm_template.pgd = sbm_alloc_table(&sbm_template);
	if (!sbm_template.pgd)
		return -ENOMEM;

	err = sbm_template_map((unsigned long)_stext, entry_start,
			       SBM_USER_EXEC);
	if (!err)
		err = sbm_template_map(entry_start, entry_end, SBM_KERNEL_EXEC);
	if (!err)
		err = sbm_template_map(entry_end, (unsigned long)_etext,
				       SBM_USER_EXEC);
	if (!err)
		err = sbm_template_map((unsigned long)__start_rodata,
				       (unsigned long)__end_rodata, SBM_USER_RO);
	if (!err)
		err = sbm_template_map((unsigned long)idt,
				       (unsigned long)idt + PAGE_SIZE,
				       SBM_KERNEL_RO);
	if (err) {
		sbm_pgtable_free(&sbm_template);
		return err;
	}
	sbm_image_p4d = *sbm_p4d(&sbm_template, __START_KERNEL_map);
	return 0;
}
