/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 SandBox Mode: switching to and from the sandbox.
 *
 * While a sandbox runs, the CPU uses the sandbox page tables and an IDT of
 * its own whose every vector leads to sbm_entry_common(). That code saves
 * the sandbox registers on the context page, puts back the kernel's CR3,
 * GS, PKRU, DR6 and IDT, and returns from x86_sbm_enter() on the kernel
 * stack with the kernel's RFLAGS, so the C code sees each event as a
 * return and decides what to do with it.
 *
 * For the speculation mitigations a sandbox is user space: entering it
 * does what a return to user mode does (IBRS_EXIT, CLEAR_CPU_BUFFERS),
 * leaving it what an entry from user mode does (IBRS_ENTER, UNTRAIN_RET,
 * CLEAR_BRANCH_HISTORY), each as the kernel chose at boot.
 *
 * All of this lives in .entry.text, which the sandbox page tables map for
 * the supervisor only.
 */

#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/alternative.h>
#include <asm/asm.h>
#include <asm/cpufeatures.h>
#include <asm/ibt.h>
#include <asm/processor-flags.h>
#include <asm/msr-index.h>
#include <asm/nospec-branch.h>
#include <asm/page_types.h>
#include <asm/sbm.h>
#include <asm/trapnr.h>
#include <asm/unwind_hints.h>
#include <uapi/asm/debugreg.h>

#include "../../entry/calling.h"

	.section .entry.text, "ax"

/*
 * void x86_sbm_enter(struct x86_sbm_ctx *ctx)
 *
 * Run the sandbox from the frame at the top of the context page until an
 * event stops it. Called with interrupts disabled; the sandbox runs with
 * them enabled, as its frame says.
 */
SYM_FUNC_START(x86_sbm_enter)
	/* The sandbox leaves its own RFLAGS behind: keep the kernel's. */
	pushfq
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	/* sbm_entry_common() returns from this call when the sandbox stops. */
	UNWIND_HINT_SAVE
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lswitch_to_sandbox
	UNWIND_HINT_RESTORE
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	popfq
	RET

.Lswitch_to_sandbox:
	IBRS_EXIT
	movq	%rsp, SBM_CTX_KERNEL_RSP(%rdi)

	/* From here on, an event finds a stack that both page tables map. */
	leaq	(PAGE_SIZE - SBM_FRAME_SIZE)(%rdi), %rsp
	UNWIND_HINT_REGS offset=8
	lidt	SBM_CTX_SANDBOX_IDT(%rdi)
	movq	SBM_CTX_SANDBOX_CR3(%rdi), %rax
	movq	%rax, %cr3

	/* Protection keys check user pages only: none is touched from here. */
	ALTERNATIVE "jmp .Lsandbox_pkru_done", "", X86_FEATURE_OSPKE
	movl	SBM_CTX_SANDBOX_PKRU(%rdi), %eax
	xorl	%ecx, %ecx
	xorl	%edx, %edx
	wrpkru
.Lsandbox_pkru_done:

	/*
	 * GS as the target left it at its last exit, if it changed it. From
	 * here on, an NMI goes to sbm_entry_kernel(), which copes with any
	 * GS base.
	 */
	cmpl	$0, SBM_CTX_SANDBOX_OWN_GS(%rdi)
	je	.Lsandbox_gs_done
	movl	SBM_CTX_SANDBOX_GS(%rdi), %eax
	movl	%eax, %gs
	movl	$MSR_GS_BASE, %ecx
	movl	SBM_CTX_SANDBOX_GSBASE(%rdi), %eax
	movl	SBM_CTX_SANDBOX_GSBASE+4(%rdi), %edx
	wrmsr
.Lsandbox_gs_done:

	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rax
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	addq	$16, %rsp		/* vector and error code */
	UNWIND_HINT_IRET_REGS
	CLEAR_CPU_BUFFERS
.Lsandbox_iret:
	iretq
	/* Never reached; tells objtool that the IRET ends this path. */
	UNWIND_HINT_UNDEFINED
	int3
SYM_FUNC_END(x86_sbm_enter)

/*
 * An event while switching to or from the sandbox, on the context page's
 * stack. An NMI is only noted, for the C code to send again once the
 * switch is over: serving it here would end in an IRET that lets the next
 * NMI in before this code has left the stack, and a flood of NMIs would
 * nest until the stack runs into the context. #DB and #MC, which do not
 * come in floods, are served with the kernel's CR3, GS base and IDT, then
 * whatever CR3, GS base and IDT were found are put back (on the way out
 * of a sandbox, the GS base may still be the target's).
 *
 * The IRET into the sandbox is the one instruction here that the target
 * has a say in: it loads the frame that the target's last exit left, with
 * the return address of a service. Whatever it raises (#GP for an address
 * that is not canonical, #SS or #NP for a segment) stops the sandbox as if
 * the target had raised it at the address it was to resume at: the frame
 * that the IRET was loading still holds all of the target's registers but
 * the vector and error code, which the CPU gives here. Any other
 * exception in this code is a bug in this file.
 */
SYM_CODE_START_LOCAL(sbm_entry_kernel)
	UNWIND_HINT_IRET_REGS offset=16
	cmpb	$X86_TRAP_NMI, (%rsp)
	je	.Lnmi_pending
	cmpb	$X86_TRAP_DB, (%rsp)
	je	.Lkernel_event
	cmpb	$X86_TRAP_MC, (%rsp)
	je	.Lkernel_event
	pushq	%rax
	leaq	.Lsandbox_iret(%rip), %rax
	cmpq	%rax, 24(%rsp)			/* RIP in the IRET frame */
	popq	%rax
	jne	.Lkernel_event

	pushq	%rax
	pushq	%rcx
	movq	(2 * 8 + 5 * 8)(%rsp), %rax	/* RSP: the sandbox's IRET frame */
	movq	(2 * 8)(%rsp), %rcx		/* vector */
	movq	%rcx, -16(%rax)
	movq	(3 * 8)(%rsp), %rcx		/* error code */
	movq	%rcx, -8(%rax)
	movq	%rax, %rcx
	andq	$PAGE_MASK, %rcx
	movl	$1, SBM_CTX_ENTRY_FAULT(%rcx)
	popq	%rcx
	popq	%rax
	movq	(5 * 8)(%rsp), %rsp
	subq	$16, %rsp
	jmp	.Lsave_sandbox

.Lnmi_pending:
	pushq	%rax
	movq	%rsp, %rax
	andq	$PAGE_MASK, %rax
	movl	$1, SBM_CTX_NMI_PENDING(%rax)
	jmp	.Lreturn

.Lkernel_event:
	pushq	%rax
	pushq	%rcx
	pushq	%rdx
	pushq	%rdi
	movq	%rsp, %rdi
	andq	$PAGE_MASK, %rdi
	movl	$MSR_GS_BASE, %ecx
	rdmsr
	pushq	%rax
	pushq	%rdx
	movl	SBM_CTX_KERNEL_GSBASE(%rdi), %eax
	movl	SBM_CTX_KERNEL_GSBASE+4(%rdi), %edx
	wrmsr
	movq	%cr3, %rax
	pushq	%rax
	subq	$16, %rsp
	sidt	(%rsp)
	movq	SBM_CTX_KERNEL_CR3(%rdi), %rax
	movq	%rax, %cr3
	lidt	SBM_CTX_KERNEL_IDT(%rdi)

	movzbl	(9 * 8)(%rsp), %eax	/* vector */
	cmpl	$X86_TRAP_DB, %eax
	je	.Ldb
	cmpl	$X86_TRAP_MC, %eax
	je	.Lmc
	ud2
.Ldb:
	int	$X86_TRAP_DB
	jmp	.Lserved
.Lmc:
	int	$X86_TRAP_MC
.Lserved:
	lidt	(%rsp)
	addq	$16, %rsp
	popq	%rax
	movq	%rax, %cr3
	movl	$MSR_GS_BASE, %ecx
	popq	%rdx
	popq	%rax
	wrmsr
	popq	%rdi
	popq	%rdx
	popq	%rcx
.Lreturn:
	popq	%rax
	addq	$16, %rsp
	UNWIND_HINT_IRET_REGS
	iretq
	/* Never reached; tells objtool that the IRET ends this path. */
	UNWIND_HINT_UNDEFINED
	int3
SYM_CODE_END(sbm_entry_kernel)

/*
 * Every vector of the sandbox IDT: push a zero where the CPU pushes no
 * error code, push the vector number, go to the common code.
 */
	.align SBM_IDT_STUB_SIZE
SYM_CODE_START(x86_sbm_idt_stubs)
	vector = 0
	.rept 256
	.if (vector == X86_TRAP_DF) || (vector >= X86_TRAP_TS && vector <= X86_TRAP_PF) || \
	    (vector == X86_TRAP_AC) || (vector == X86_TRAP_CP) || (vector == X86_TRAP_VC) || \
	    (vector == 30)
	UNWIND_HINT_IRET_REGS offset=8
0:
	ENDBR
	.else
	UNWIND_HINT_IRET_REGS
0:
	ENDBR
	pushq	$0
	.endif
	.byte	0x6a, vector		/* push, sign-extended */
	jmp	sbm_entry_common
	/* A negative count here means the stub outgrew its slot. */
	.fill 0b + SBM_IDT_STUB_SIZE - ., 1, 0xcc
	vector = vector + 1
	.endr
SYM_CODE_END(x86_sbm_idt_stubs)

SYM_CODE_START_LOCAL(sbm_entry_common)
	UNWIND_HINT_IRET_REGS offset=16
	/*
	 * Interrupt gates leave DF, AC and more as the target set them:
	 * start from clean flags (IF is clear already).
	 */
	pushq	$X86_EFLAGS_FIXED
	popfq
	testb	$3, 24(%rsp)		/* CS in the IRET frame */
	jz	sbm_entry_kernel

.Lsave_sandbox:
	UNWIND_HINT_IRET_REGS offset=16
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%rax
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	UNWIND_HINT_REGS offset=8

	movq	%rsp, %rdi
	andq	$PAGE_MASK, %rdi
	movq	%cr2, %rax
	movq	%rax, SBM_CTX_CR2(%rdi)
	movq	SBM_CTX_KERNEL_CR3(%rdi), %rax
	movq	%rax, %cr3

	/*
	 * The sandbox may have loaded GS or changed its base: keep them for
	 * when it resumes, and put the kernel's back. Until the kernel's IDT
	 * is back, an NMI goes to sbm_entry_kernel(), which copes with either
	 * base.
	 */
	movl	%gs, %eax
	movl	%eax, SBM_CTX_SANDBOX_GS(%rdi)
	movl	$MSR_GS_BASE, %ecx
	rdmsr
	movl	%eax, SBM_CTX_SANDBOX_GSBASE(%rdi)
	movl	%edx, SBM_CTX_SANDBOX_GSBASE+4(%rdi)
	movl	SBM_CTX_KERNEL_GS(%rdi), %eax
	movl	%eax, %gs
	movl	$MSR_GS_BASE, %ecx
	movl	SBM_CTX_KERNEL_GSBASE(%rdi), %eax
	movl	SBM_CTX_KERNEL_GSBASE+4(%rdi), %edx
	wrmsr

	/*
	 * WRPKRU works at CPL 3: the caller's PKRU must not change, and the
	 * target's is its own when it resumes.
	 */
	ALTERNATIVE "jmp .Lpkru_done", "", X86_FEATURE_OSPKE
	xorl	%ecx, %ecx
	rdpkru
	movl	%eax, SBM_CTX_SANDBOX_PKRU(%rdi)
#ifdef CONFIG_SBM_PLANTED_FAULTS
	cmpl	$SBM_PLANT_PKRU, sbm_plant(%rip)
	je	.Lpkru_done
#endif
	movl	SBM_CTX_KERNEL_PKRU(%rdi), %eax
	xorl	%edx, %edx
	wrpkru
.Lpkru_done:

	/* A #DB leaves its cause in DR6, where the kernel's #DB would see it. */
	cmpb	$X86_TRAP_DB, (15 * 8)(%rsp)
	jne	.Ldr6_done
	movl	$DR6_RESERVED, %eax
	movq	%rax, %db6
.Ldr6_done:

	lidt	SBM_CTX_KERNEL_IDT(%rdi)
	movq	SBM_CTX_KERNEL_RSP(%rdi), %rsp
	UNWIND_HINT_FUNC
	IBRS_ENTER
	UNTRAIN_RET
	CLEAR_BRANCH_HISTORY
	RET
SYM_CODE_END(sbm_entry_common)


	.text
/*
 * One stub per vector that serves an interrupt which stopped the sandbox:
 * "sti; int $vector" in the kernel's own context, so that the kernel's
 * handler runs as for any interrupt of kernel code, preemption included.
 * The STI shadow keeps a migration from coming in between.
 */
	.align SBM_RAISE_STUB_SIZE
SYM_CODE_START(x86_sbm_raise_stubs)
	vector = 0
	.rept 256
	UNWIND_HINT_FUNC
0:
	ENDBR
	sti
	.byte	0xcd, vector		/* int $vector */
	RET
	.fill 0b + SBM_RAISE_STUB_SIZE - ., 1, 0xcc
	vector = vector + 1
	.endr
SYM_CODE_END(x86_sbm_raise_stubs)
