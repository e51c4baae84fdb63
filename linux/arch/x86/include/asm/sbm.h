/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 SandBox Mode: state shared by the C code and the entry code.
 *
 * Each sandbox has a context page, mapped for the supervisor only in the
 * sandbox page tables. Its start holds what the entry code needs to get
 * back to the kernel; its end is the stack that the CPU switches to (TSS
 * RSP0) when an event interrupts the sandbox, so the entry code finds the
 * context by rounding its stack pointer down to the page.
 */
#ifndef _ASM_X86_SBM_H
#define _ASM_X86_SBM_H

/* Offsets in the context page, for the entry code. */
#define SBM_CTX_KERNEL_CR3	0
#define SBM_CTX_SANDBOX_CR3	8
#define SBM_CTX_KERNEL_RSP	16
#define SBM_CTX_KERNEL_GSBASE	24
#define SBM_CTX_CR2		32
#define SBM_CTX_KERNEL_GS	40
#define SBM_CTX_KERNEL_IDT	48
#define SBM_CTX_SANDBOX_IDT	64
#define SBM_CTX_KERNEL_PKRU	80
#define SBM_CTX_ENTRY_FAULT	84
#define SBM_CTX_SANDBOX_PKRU	88
#define SBM_CTX_SANDBOX_GS	104
#define SBM_CTX_SANDBOX_GSBASE	112
#define SBM_CTX_SANDBOX_OWN_GS	120
#define SBM_CTX_NMI_PENDING	124

/* struct x86_sbm_frame: 15 registers, vector, error code, IRET frame. */
#define SBM_FRAME_SIZE		(22 * 8)

/*
 * Faults that CONFIG_SBM_PLANTED_FAULTS can put into the boundary, for
 * the fuzzer to find (sbm.plant= on the command line).
 */
#define SBM_PLANT_NONE		0
#define SBM_PLANT_DF		1
#define SBM_PLANT_AC		2
#define SBM_PLANT_PKRU		3
#define SBM_PLANT_MSR		4
#define SBM_PLANT_FPU		5
#define SBM_PLANT_PAGE		6
#define SBM_PLANT_NR		7

/* Sizes of the per-vector stubs in entry.S. */
#define SBM_IDT_STUB_SIZE	16
#define SBM_RAISE_STUB_SIZE	16

#ifndef __ASSEMBLER__

#include <linux/types.h>
#include <asm/desc_defs.h>
#include <asm/page_types.h>

/*
 * struct x86_sbm_frame - the sandbox's registers when an event stopped it.
 * Built on the context page's stack by the CPU (@ip to @ss, and @error for
 * some exceptions) and by the entry code (the rest). The sandbox resumes
 * from it, and its first entry starts from a frame built by the kernel.
 */
struct x86_sbm_frame {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10;
	unsigned long r9, r8, ax, cx, dx, si, di;
	unsigned long vector;
	unsigned long error;
	unsigned long ip, cs, flags, sp, ss;
};

/**
 * struct x86_sbm_ctx - the start of a sandbox context page
 * @kernel_cr3:    CR3 to restore when the sandbox stops
 * @sandbox_cr3:   CR3 of the sandbox page tables
 * @kernel_rsp:    kernel stack pointer inside x86_sbm_enter()
 * @kernel_gsbase: GS base to restore (the sandbox may change its own)
 * @cr2:           CR2 when the sandbox stopped
 * @kernel_gs:     GS selector to restore
 * @kernel_idt:    the kernel's IDT
 * @sandbox_idt:   the IDT used while the sandbox runs
 * @kernel_pkru:   PKRU to restore, if the CPU has protection keys
 * @entry_fault:   set by the entry code when the IRET into the sandbox
 *                 raised the exception that the frame holds
 * @sandbox_pkru:  the target's own PKRU, kept across exits
 * @sandbox_fsbase: the target's own FS base, kept across exits
 * @sandbox_gs:    the target's GS selector when it last stopped
 * @sandbox_gsbase: its GS base then
 * @sandbox_own_gs: whether those are its own, to load when it resumes,
 *                 rather than the kernel's, which it starts with
 * @nmi_pending:   set by the entry code for an NMI that hit the switch to
 *                 or from the sandbox, for the kernel to serve afterwards
 */
struct x86_sbm_ctx {
	unsigned long kernel_cr3;
	unsigned long sandbox_cr3;
	unsigned long kernel_rsp;
	unsigned long kernel_gsbase;
	unsigned long cr2;
	unsigned long kernel_gs;
	struct desc_ptr kernel_idt __aligned(16);
	struct desc_ptr sandbox_idt __aligned(16);
	u32 kernel_pkru __aligned(16);
	u32 entry_fault;
	u32 sandbox_pkru;
	unsigned long sandbox_fsbase;
	unsigned long sandbox_gs;
	unsigned long sandbox_gsbase;
	u32 sandbox_own_gs;
	u32 nmi_pending;
};

static inline struct x86_sbm_frame *x86_sbm_frame(struct x86_sbm_ctx *ctx)
{
	return (void *)ctx + PAGE_SIZE - sizeof(struct x86_sbm_frame);
}

/* Entry code, in arch/x86/kernel/sbm/entry.S. */
void x86_sbm_enter(struct x86_sbm_ctx *ctx);
extern const char x86_sbm_idt_stubs[];
extern const char x86_sbm_raise_stubs[];

#endif /* __ASSEMBLER__ */
#endif /* _ASM_X86_SBM_H */
