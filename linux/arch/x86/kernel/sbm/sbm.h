/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 SandBox Mode: internal interfaces between the files of this
 * directory.
 */
#ifndef _X86_KERNEL_SBM_H
#define _X86_KERNEL_SBM_H

#include <linux/list.h>
#include <linux/types.h>
#include <asm/desc_defs.h>
#include <asm/pgtable_types.h>
#include <asm/sbm.h>

/* Permissions of the pages in a sandbox address space. */
#define SBM_USER_EXEC	(_PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED)
#define SBM_USER_RO	(SBM_USER_EXEC | _PAGE_NX)
#define SBM_USER_RW	(SBM_USER_RO | _PAGE_RW | _PAGE_DIRTY)
#define SBM_KERNEL_EXEC	(_PAGE_PRESENT | _PAGE_ACCESSED)
#define SBM_KERNEL_RO	(SBM_KERNEL_EXEC | _PAGE_NX)
#define SBM_KERNEL_RW	(SBM_KERNEL_RO | _PAGE_RW | _PAGE_DIRTY)

/**
 * struct sbm_pgtable - the page tables of one address space
 * @pgd:    top level
 * @tables: the pages of every table that belongs to this address space
 */
struct sbm_pgtable {
	pgd_t *pgd;
	struct list_head tables;
};

int sbm_pgtable_init(struct sbm_pgtable *pt);
void sbm_pgtable_free(struct sbm_pgtable *pt);
int sbm_map_kernel_range(struct sbm_pgtable *pt, unsigned long start,
			 unsigned long end, pteval_t prot);
bool sbm_user_access_ok(struct sbm_pgtable *pt, unsigned long addr,
			unsigned long error_code);
int sbm_pgtable_template_init(const gate_desc *idt);
int sbm_template_map_range(unsigned long start, unsigned long end,
			   pteval_t prot);
void sbm_template_unmap_range(unsigned long start, unsigned long end);
int sbm_modules_init(void);

extern unsigned int sbm_time_limit_ms;

/* Test targets in sbm_x86_test_insns.S. */
int sbm_test_syscall(void *data);
int sbm_test_sysenter(void *data);
int sbm_test_ud2(void *data);

#endif /* _X86_KERNEL_SBM_H */
