/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 SandBox Mode: internal interfaces between the files of this
 * directory.
 */
#ifndef _X86_KERNEL_SBM_H
#define _X86_KERNEL_SBM_H

#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <asm/desc_defs.h>
#include <asm/irq_vectors.h>
#include <asm/pgtable_types.h>
#include <asm/sbm.h>

/* Permissions of the pages in a sandbox address space. */
#define SBM_USER_EXEC	(_PAGE_PRESENT | _PAGE_USER | _PAGE_ACCESSED)
#define SBM_USER_RO	(SBM_USER_EXEC | _PAGE_NX)
#define SBM_USER_RW	(SBM_USER_RO | _PAGE_RW | _PAGE_DIRTY)
/* Writable, with the dirty bit left for the CPU to set. */
#define SBM_USER_RW_TRACKED	(SBM_USER_RO | _PAGE_RW)
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
int sbm_map_pfn(struct sbm_pgtable *pt, unsigned long addr, unsigned long pfn,
		pteval_t prot);
int sbm_map_kernel_range(struct sbm_pgtable *pt, unsigned long start,
			 unsigned long end, pteval_t prot);
bool sbm_user_access_ok(struct sbm_pgtable *pt, unsigned long addr,
			unsigned long error_code);
bool sbm_user_lookup(struct sbm_pgtable *pt, unsigned long addr,
		     unsigned long error_code, unsigned long *pfn);
void sbm_unmap_kernel_range(struct sbm_pgtable *pt, unsigned long start,
			    unsigned long end);
bool sbm_test_and_clean(struct sbm_pgtable *pt, unsigned long addr);

/*
 * Called by sbm_pgtable_walk() for each page or large page that a sandbox
 * maps, with the permissions that all levels grant together.
 */
typedef void (*sbm_walk_fn)(void *data, unsigned long addr,
			    unsigned long size, pteval_t prot);
void sbm_pgtable_walk(const struct sbm_pgtable *pt, sbm_walk_fn fn, void *data);
int sbm_pgtable_template_init(const gate_desc *idt);
int sbm_template_map_range(unsigned long start, unsigned long end,
			   pteval_t prot);
void sbm_template_unmap_range(unsigned long start, unsigned long end);
int sbm_template_set_page(unsigned long addr, unsigned long pfn,
			  pteval_t prot);
int sbm_modules_init(void);
int sbm_services_init(void);

/**
 * struct sbm_shadow - private stand-ins for kernel state a target reads
 * @percpu:    the pages that take the place of the per-CPU pages holding
 *             the stack-protector canary and pcpu_hot, on every CPU
 * @nr_percpu: 1 if both live in one page, else 2
 * @task:      what "current" points to in the sandbox
 * @stack_end: the page that @task's stack starts with
 */
struct sbm_shadow {
	struct page *percpu[2];
	unsigned int nr_percpu;
	struct task_struct *task;
	unsigned long *stack_end;
};

/**
 * struct sbm_range - caller memory that a sandbox sees
 * @list:     link in &x86_sbm.ranges
 * @start:    first address, page-aligned
 * @end:      end address, page-aligned
 * @writable: whether the target may write it
 */
struct sbm_range {
	struct list_head list;
	unsigned long start;
	unsigned long end;
	bool writable;
};

/**
 * struct x86_sbm - the x86-64 state of one sandbox instance
 * @pt:     its page tables
 * @ctx:    its context page
 * @stack:  the stack of the target
 * @shadow: what stands in for the kernel state compiled code reads
 * @ranges: the buffer copies and maps, a list of &struct sbm_range
 * @objects: the pages of the objects that the target allocated, by page
 *           frame number of their address
 */
struct x86_sbm {
	struct sbm_pgtable pt;
	struct x86_sbm_ctx *ctx;
	void *stack;
	struct sbm_shadow shadow;
	struct list_head ranges;
	struct xarray objects;
};

#define SBM_STACK_SIZE		(4 * PAGE_SIZE)
/* The largest argument block that goes on the sandbox stack. */
#define SBM_MAX_ARGS_SIZE	256

/* What each page of a sandbox's address space is for. */
enum sbm_region {
	SBM_REGION_UNKNOWN,
	SBM_REGION_TEXT,
	SBM_REGION_RODATA,
	SBM_REGION_ENTRY,
	SBM_REGION_IDT,
	SBM_REGION_CEA,
	SBM_REGION_CONTEXT,
	SBM_REGION_STACK,
	SBM_REGION_SHADOW,
	SBM_REGION_BUFFER_RO,
	SBM_REGION_BUFFER_RW,
	SBM_REGION_OBJECT,
	SBM_REGION_NR
};

/**
 * struct sbm_audit - the result of sbm_audit()
 * @bytes:      how much of each region the sandbox maps
 * @violations: pages mapped with permissions their region may not have,
 *              or that belong to no region
 * @bad:        the first of those pages
 */
struct sbm_audit {
	unsigned long bytes[SBM_REGION_NR];
	unsigned long violations;
	unsigned long bad[8];
};

enum sbm_region sbm_region_of(const struct x86_sbm *s, unsigned long addr);
const char *sbm_region_name(enum sbm_region region);
void sbm_audit(struct sbm *sbm, struct sbm_audit *audit);

extern gate_desc sbm_idt[IDT_ENTRIES];

/* What sbm_serve() made of a breakpoint. */
enum sbm_serve_result {
	SBM_NOT_A_SERVICE,
	SBM_SERVED,
	SBM_SERVICE_REFUSED,
};

enum sbm_serve_result sbm_serve(struct sbm *sbm, sbm_func func,
				struct x86_sbm_frame *f,
				struct sbm_abort *abort, char *buf,
				size_t len);
void sbm_find_forbidden_call(struct x86_sbm *s, sbm_func func,
			     const struct x86_sbm_frame *f,
			     struct sbm_abort *abort, char *buf, size_t len);

int sbm_shadow_init(struct sbm_shadow *sh, struct sbm_pgtable *pt);
unsigned long sbm_shadow_page_offset(unsigned int i);
void sbm_shadow_update(struct sbm_shadow *sh);
void sbm_shadow_free(struct sbm_shadow *sh);

#ifdef CONFIG_SBM_PLANTED_FAULTS
DECLARE_STATIC_KEY_FALSE(sbm_plant_key);
extern int sbm_plant;

/* Whether the planted fault @plant (SBM_PLANT_*) is in force. */
static __always_inline bool sbm_planted(int plant)
{
	return static_branch_unlikely(&sbm_plant_key) && sbm_plant == plant;
}

/* The planted fault in force, SBM_PLANT_NONE if none. */
static inline int sbm_plant_current(void)
{
	return static_branch_unlikely(&sbm_plant_key) ? sbm_plant :
	       SBM_PLANT_NONE;
}

const char *sbm_plant_name(void);
void sbm_plant_flags(unsigned long flags);
#else
static __always_inline bool sbm_planted(int plant)
{
	return false;
}

static inline int sbm_plant_current(void)
{
	return SBM_PLANT_NONE;
}

static inline const char *sbm_plant_name(void)
{
	return "none";
}

static inline void sbm_plant_flags(unsigned long flags)
{
}
#endif

/* Test targets in sbm_x86_test_insns.S. */
int sbm_test_syscall(void *data);
int sbm_test_sysenter(void *data);
int sbm_test_ud2(void *data);

/* Hostile targets in sbm_attack_insns.S. */
int sbm_attack_std_ret(void *data);
int sbm_attack_std_fault(void *data);
int sbm_attack_std_spin(void *cycles);
int sbm_attack_ac_ret(void *data);
int sbm_attack_ac_fault(void *data);
int sbm_attack_nt_ret(void *data);
int sbm_attack_id_ret(void *data);
int sbm_attack_vif_vip_ret(void *data);
int sbm_attack_rf_fault(void *data);
int sbm_attack_single_step(void *data);
int sbm_attack_icebp(void *data);
int sbm_attack_into(void *data);
int sbm_attack_wrpkru(void *pkru);
int sbm_attack_pkru_deny_write(void *data);
int sbm_attack_pkru_across_service(void *data);
int sbm_attack_wrgsbase(void *base);
int sbm_attack_fs_base_private(void *data);
int sbm_attack_gs_kept(void *data);
int sbm_attack_wrfsbase(void *base);
int sbm_attack_load_segments(void *data);
int sbm_attack_sysenter(void *data);
int sbm_attack_syscall(void *data);
int sbm_attack_lret_user32(void *data);
int sbm_attack_lret_kernel(void *data);
int sbm_attack_iret_kernel(void *data);
int sbm_attack_ljmp_tss(void *data);
int sbm_attack_lcall_kernel(void *data);
int sbm_attack_swapgs(void *data);
int sbm_attack_lidt(void *data);
int sbm_attack_lgdt(void *data);
int sbm_attack_ltr(void *data);
int sbm_attack_invlpg(void *data);
int sbm_attack_wbinvd(void *data);
int sbm_attack_clts(void *data);
int sbm_attack_mov_dr7(void *data);
int sbm_attack_xsetbv(void *data);
int sbm_attack_sysret(void *data);
int sbm_attack_sti(void *data);
int sbm_attack_rdpmc(void *data);
int sbm_attack_sgdt(void *data);
int sbm_attack_sidt(void *data);
int sbm_attack_sldt(void *data);
int sbm_attack_str(void *data);
int sbm_attack_smsw(void *data);
int sbm_attack_ldmxcsr(void *data);
int sbm_attack_fxrstor(void *data);
int sbm_attack_xrstor(void *data);
int sbm_attack_vzeroall(void *data);
int sbm_attack_emms(void *data);
int sbm_attack_rdtsc(void *data);
int sbm_attack_rdtscp(void *data);
int sbm_attack_rdpid(void *data);
int sbm_attack_std_kmemdup(void *buf);
int sbm_attack_service_noncanonical_ret(void *data);
int sbm_attack_service_kernel_stack(void *sp);
int sbm_attack_service_ret_past_47_bits(void *data);
extern const char sbm_attack_int_stubs[];

#endif /* _X86_KERNEL_SBM_H */
