/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hostile targets for the SandBox Mode attack suite: each one does what a
 * compromised parser could do at CPL 3 to leave state behind for the
 * kernel or to reach CPL 0. They break the rules that objtool checks
 * (flags left set, far transfers, instructions that never return), which
 * is why objtool is told to leave them alone.
 *
 * Every target takes one argument in %rdi and returns in %eax, like an
 * sbm_func.
 */

#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include <asm/processor-flags.h>
#include <asm/segment.h>
#include <asm/unwind_hints.h>

	.text

.macro ATTACK name
SYM_FUNC_START(\name)
	ENDBR
.endm

.macro ATTACK_END name
	xorl	%eax, %eax
	RET
SYM_FUNC_END(\name)
STACK_FRAME_NON_STANDARD \name
.endm

/* Set flags that interrupt gates do not clear, then return normally. */
ATTACK sbm_attack_std_ret
	std
ATTACK_END sbm_attack_std_ret

ATTACK sbm_attack_std_fault
	std
	ud2
ATTACK_END sbm_attack_std_fault

/* Spin with DF set for %rdi TSC cycles, across timer interrupts. */
ATTACK sbm_attack_std_spin
	movq	%rdi, %rsi
	rdtsc
	shlq	$32, %rdx
	orq	%rax, %rdx
	movq	%rdx, %r8
	std
1:	rdtsc
	shlq	$32, %rdx
	orq	%rax, %rdx
	subq	%r8, %rdx
	cmpq	%rsi, %rdx
	jb	1b
ATTACK_END sbm_attack_std_spin

ATTACK sbm_attack_ac_ret
	pushfq
	orq	$X86_EFLAGS_AC, (%rsp)
	popfq
ATTACK_END sbm_attack_ac_ret

ATTACK sbm_attack_ac_fault
	pushfq
	orq	$X86_EFLAGS_AC, (%rsp)
	popfq
	ud2
ATTACK_END sbm_attack_ac_fault

ATTACK sbm_attack_nt_ret
	pushfq
	orq	$X86_EFLAGS_NT, (%rsp)
	popfq
ATTACK_END sbm_attack_nt_ret

/* CPL 3 may toggle ID (the CPUID probe). */
ATTACK sbm_attack_id_ret
	pushfq
	xorq	$X86_EFLAGS_ID, (%rsp)
	popfq
ATTACK_END sbm_attack_id_ret

/* POPF at CPL 3 must leave VIF and VIP as they are. */
ATTACK sbm_attack_vif_vip_ret
	pushfq
	orq	$(X86_EFLAGS_VIF | X86_EFLAGS_VIP), (%rsp)
	popfq
ATTACK_END sbm_attack_vif_vip_ret

/* IRETQ at CPL 3 loads RF; the fault that follows reports it set. */
ATTACK sbm_attack_rf_fault
	movq	%rsp, %rax
	movl	%ss, %ecx
	pushq	%rcx
	pushq	%rax
	pushfq
	orq	$X86_EFLAGS_RF, (%rsp)
	movl	%cs, %ecx
	pushq	%rcx
	leaq	1f(%rip), %rcx
	pushq	%rcx
	iretq
1:	ud2
ATTACK_END sbm_attack_rf_fault

/* Single-step: #DB, with DR6.BS set by the CPU. */
ATTACK sbm_attack_single_step
	pushfq
	orq	$X86_EFLAGS_TF, (%rsp)
	popfq
	nop
	nop
ATTACK_END sbm_attack_single_step

/* ICEBP (INT1): #DB without any DPL check. */
ATTACK sbm_attack_icebp
	.byte	0xf1
ATTACK_END sbm_attack_icebp

/* INTO is invalid in 64-bit mode. */
ATTACK sbm_attack_into
	.byte	0xce
ATTACK_END sbm_attack_into

/* %rdi: the new PKRU. */
ATTACK sbm_attack_wrpkru
	movl	%edi, %eax
	xorl	%ecx, %ecx
	xorl	%edx, %edx
	wrpkru
ATTACK_END sbm_attack_wrpkru

/*
 * Deny itself writes to its own pages (protection key 0), then write its
 * stack: the CPU must stop it there, the first time and every time.
 */
ATTACK sbm_attack_pkru_deny_write
	xorl	%ecx, %ecx
	xorl	%edx, %edx
	rdpkru
	orl	$2, %eax
	wrpkru
	movq	%rax, -64(%rsp)
ATTACK_END sbm_attack_pkru_deny_write

/*
 * Set its PKRU (both bits of key 1), call a service, and return what
 * PKRU reads then minus what it set: 0 if the exit and re-entry kept it.
 */
ATTACK sbm_attack_pkru_across_service
	xorl	%ecx, %ecx
	xorl	%edx, %edx
	rdpkru
	orl	$0xc, %eax
	wrpkru
	movl	%eax, %ebx
	xorl	%edi, %edi
	call	kfree
	xorl	%ecx, %ecx
	rdpkru
	subl	%ebx, %eax
	RET
SYM_FUNC_END(sbm_attack_pkru_across_service)
STACK_FRAME_NON_STANDARD sbm_attack_pkru_across_service

/*
 * Return 0 if the FS base it starts with is zero, not its caller's thread
 * pointer, and if after a service call it is the one it set before.
 */
ATTACK sbm_attack_fs_base_private
	rdfsbase %rax
	testq	%rax, %rax
	jnz	1f
	movabsq	$0x00005ec7e75ec7e0, %rbx
	wrfsbase %rbx
	xorl	%edi, %edi
	call	kfree
	rdfsbase %rax
	subq	%rbx, %rax
1:	RET
SYM_FUNC_END(sbm_attack_fs_base_private)
STACK_FRAME_NON_STANDARD sbm_attack_fs_base_private

/*
 * Load a user selector into GS, set a GS base of its own, call a service,
 * and return 0 if both are still the ones it set.
 */
ATTACK sbm_attack_gs_kept
	movl	$__USER_DS, %eax
	movl	%eax, %gs
	movabsq	$0x00005ec7e75ec7e0, %rbx
	wrgsbase %rbx
	xorl	%edi, %edi
	call	kfree
	movl	%gs, %ecx
	movl	$1, %eax
	cmpl	$__USER_DS, %ecx
	jne	1f
	rdgsbase %rax
	subq	%rbx, %rax
1:	RET
SYM_FUNC_END(sbm_attack_gs_kept)
STACK_FRAME_NON_STANDARD sbm_attack_gs_kept

/* %rdi: the new base. */
ATTACK sbm_attack_wrgsbase
	wrgsbase %rdi
ATTACK_END sbm_attack_wrgsbase

ATTACK sbm_attack_wrfsbase
	wrfsbase %rdi
ATTACK_END sbm_attack_wrfsbase

/* Load user selectors into every data segment register. */
ATTACK sbm_attack_load_segments
	movl	$__USER_DS, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %fs
	movl	%eax, %gs
ATTACK_END sbm_attack_load_segments

ATTACK sbm_attack_sysenter
	sysenter
ATTACK_END sbm_attack_sysenter

ATTACK sbm_attack_syscall
	syscall
ATTACK_END sbm_attack_syscall

/* Far transfers: to compat mode, to kernel code, to the TSS. */
ATTACK sbm_attack_lret_user32
	pushq	$__USER32_CS
	leaq	1f(%rip), %rax
	pushq	%rax
	lretq
1:	nop
ATTACK_END sbm_attack_lret_user32

ATTACK sbm_attack_lret_kernel
	pushq	$__KERNEL_CS
	leaq	1f(%rip), %rax
	pushq	%rax
	lretq
1:	nop
ATTACK_END sbm_attack_lret_kernel

ATTACK sbm_attack_iret_kernel
	movq	%rsp, %rax
	pushq	$__KERNEL_DS
	pushq	%rax
	pushfq
	pushq	$__KERNEL_CS
	leaq	1f(%rip), %rax
	pushq	%rax
	iretq
1:	nop
ATTACK_END sbm_attack_iret_kernel

ATTACK sbm_attack_ljmp_tss
	subq	$16, %rsp
	movl	$0, (%rsp)
	movw	$(GDT_ENTRY_TSS * 8), 4(%rsp)
	ljmpl	*(%rsp)
	addq	$16, %rsp
ATTACK_END sbm_attack_ljmp_tss

ATTACK sbm_attack_lcall_kernel
	subq	$16, %rsp
	leaq	1f(%rip), %rax
	movl	%eax, (%rsp)
	movw	$__KERNEL_CS, 4(%rsp)
	ANNOTATE_RETPOLINE_SAFE
	lcalll	*(%rsp)
1:	addq	$16, %rsp
ATTACK_END sbm_attack_lcall_kernel

/* Privileged and UMIP-covered instructions. */
ATTACK sbm_attack_swapgs
	swapgs
ATTACK_END sbm_attack_swapgs

ATTACK sbm_attack_lidt
	subq	$16, %rsp
	lidt	(%rsp)
	addq	$16, %rsp
ATTACK_END sbm_attack_lidt

ATTACK sbm_attack_lgdt
	subq	$16, %rsp
	lgdt	(%rsp)
	addq	$16, %rsp
ATTACK_END sbm_attack_lgdt

ATTACK sbm_attack_ltr
	movl	$(GDT_ENTRY_TSS * 8), %eax
	ltr	%ax
ATTACK_END sbm_attack_ltr

ATTACK sbm_attack_invlpg
	invlpg	(%rsp)
ATTACK_END sbm_attack_invlpg

ATTACK sbm_attack_wbinvd
	wbinvd
ATTACK_END sbm_attack_wbinvd

ATTACK sbm_attack_clts
	clts
ATTACK_END sbm_attack_clts

ATTACK sbm_attack_mov_dr7
	xorl	%eax, %eax
	movq	%rax, %dr7
ATTACK_END sbm_attack_mov_dr7

ATTACK sbm_attack_xsetbv
	xorl	%ecx, %ecx
	movl	$1, %eax
	xorl	%edx, %edx
	xsetbv
ATTACK_END sbm_attack_xsetbv

ATTACK sbm_attack_sysret
	sysretq
ATTACK_END sbm_attack_sysret

ATTACK sbm_attack_sti
	sti
ATTACK_END sbm_attack_sti

ATTACK sbm_attack_rdpmc
	xorl	%ecx, %ecx
	rdpmc
ATTACK_END sbm_attack_rdpmc

ATTACK sbm_attack_sgdt
	subq	$16, %rsp
	sgdt	(%rsp)
	addq	$16, %rsp
ATTACK_END sbm_attack_sgdt

ATTACK sbm_attack_sidt
	subq	$16, %rsp
	sidt	(%rsp)
	addq	$16, %rsp
ATTACK_END sbm_attack_sidt

ATTACK sbm_attack_sldt
	sldt	%ax
ATTACK_END sbm_attack_sldt

ATTACK sbm_attack_str
	str	%ax
ATTACK_END sbm_attack_str

ATTACK sbm_attack_smsw
	smsw	%ax
ATTACK_END sbm_attack_smsw

/* FPU, SIMD and XSAVE-managed state. */
ATTACK sbm_attack_ldmxcsr
	subq	$16, %rsp
	movl	$0x1f80, (%rsp)
	ldmxcsr	(%rsp)
	addq	$16, %rsp
ATTACK_END sbm_attack_ldmxcsr

ATTACK sbm_attack_fxrstor
	movq	%rsp, %r11
	subq	$528, %rsp
	andq	$~15, %rsp
	fxrstor	(%rsp)
	movq	%r11, %rsp
ATTACK_END sbm_attack_fxrstor

ATTACK sbm_attack_xrstor
	movq	%rsp, %r11
	subq	$4160, %rsp
	andq	$~63, %rsp
	movl	$-1, %eax
	movl	$-1, %edx
	xrstor	(%rsp)
	movq	%r11, %rsp
ATTACK_END sbm_attack_xrstor

ATTACK sbm_attack_vzeroall
	vzeroall
ATTACK_END sbm_attack_vzeroall

ATTACK sbm_attack_emms
	emms
ATTACK_END sbm_attack_emms

/* Instructions that a CPL 3 program may use and that reveal nothing. */
ATTACK sbm_attack_rdtsc
	rdtsc
	pushq	%rbx
	xorl	%eax, %eax
	cpuid
	popq	%rbx
	pause
	lfence
ATTACK_END sbm_attack_rdtsc

ATTACK sbm_attack_rdtscp
	rdtscp
ATTACK_END sbm_attack_rdtscp

ATTACK sbm_attack_rdpid
	rdpid	%rax
ATTACK_END sbm_attack_rdpid

/*
 * Kernel services: a call of an allowlisted function with hostile state.
 * With DF set, kmemdup() of the 64 bytes at %rdi into the 64 after them;
 * a service that ran with the target's DF would copy backwards.
 */
ATTACK sbm_attack_std_kmemdup
	pushq	%rbx
	movq	%rdi, %rbx
	std
	movl	$64, %esi
	xorl	%edx, %edx
	call	kmemdup_noprof
	cld
	testq	%rax, %rax
	jz	1f
	movq	%rax, %rsi
	leaq	64(%rbx), %rdi
	movl	$64, %ecx
	rep movsb
1:	popq	%rbx
ATTACK_END sbm_attack_std_kmemdup

/* "Return" from kfree() to a non-canonical address. */
ATTACK sbm_attack_service_noncanonical_ret
	movabsq	$0x8000000000000000, %rax
	pushq	%rax
	xorl	%edi, %edi
	jmp	kfree
ATTACK_END sbm_attack_service_noncanonical_ret

/*
 * "Return" from kfree() to an address that is canonical only with 5-level
 * paging: the first one past the lower half of 4-level paging.
 */
ATTACK sbm_attack_service_ret_past_47_bits
	movabsq	$0x0000800000000000, %rax
	pushq	%rax
	xorl	%edi, %edi
	jmp	kfree
ATTACK_END sbm_attack_service_ret_past_47_bits

/*
 * Enter kfree() with the stack pointer at %rdi, kernel memory, so that the
 * kernel must read the return address from there: a JMP, which pushes
 * nothing, gets as far as the service trap; a CALL would fault first.
 */
ATTACK sbm_attack_service_kernel_stack
	movq	%rsp, %rbx
	movq	%rdi, %rsp
	xorl	%edi, %edi
	jmp	kfree
ATTACK_END sbm_attack_service_kernel_stack

/*
 * INT n for every n, one 16-byte stub each that returns 0 if the INT does:
 * the sandbox must end on every one of them, including INT3 and the
 * vectors of the kernel's handlers.
 */
	.align 16
SYM_CODE_START(sbm_attack_int_stubs)
	vector = 0
	.rept 256
	UNWIND_HINT_FUNC
0:
	ENDBR
	.byte	0xcd, vector
	xorl	%eax, %eax
	RET
	.fill 0b + 16 - ., 1, 0xcc
	vector = vector + 1
	.endr
SYM_CODE_END(sbm_attack_int_stubs)
