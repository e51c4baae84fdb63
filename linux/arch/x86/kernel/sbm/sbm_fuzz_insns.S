/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 SandBox Mode boundary fuzzer: the page that the streams run from,
 * and the call of sbm_exec() that records what the caller's registers
 * looked like when it returned.
 */

#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include <asm/page_types.h>
#include <asm/smap.h>
#include <asm/unwind_hints.h>

	.text

/*
 * Kernel text, so that the sandbox maps it user-executable like any
 * target; the fuzzer rewrites it with text_poke_copy(), all but the ENDBR
 * that a target starts with. Whatever a stream does not cover is INT3.
 */
	.balign PAGE_SIZE
SYM_CODE_START(sbm_fuzz_arena)
	UNWIND_HINT_FUNC
	ENDBR
	.fill	PAGE_SIZE - (. - sbm_fuzz_arena), 1, 0xcc
SYM_CODE_END(sbm_fuzz_arena)

/*
 * int sbm_fuzz_exec(struct sbm *sbm, void *target, void *data,
 *		     struct sbm_fuzz_regs *regs)
 *
 * Call sbm_exec() with known values in the callee-saved registers and
 * store them, how far RSP and the frame pointer moved and RFLAGS in @regs
 * as sbm_exec() left them. Then clear
 * DF and AC, which a broken boundary may have left set, before any more
 * kernel code runs.
 */
SYM_FUNC_START(sbm_fuzz_exec)
	pushq	%rbp
	movq	%rsp, %rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	pushq	%rcx
	movabsq	$0xb0b0b0b0b0b0b0b0, %rbx
	movabsq	$0x1212121212121212, %r12
	movabsq	$0x1313131313131313, %r13
	movabsq	$0x1414141414141414, %r14
	movabsq	$0x1515151515151515, %r15
	movq	%rsp, 6 * 8(%rcx)
	call	sbm_exec
	pushfq
	movq	8(%rsp), %rcx
	popq	7 * 8(%rcx)
	movq	%rbx, 0 * 8(%rcx)
	leaq	6 * 8(%rsp), %rdx
	subq	%rbp, %rdx
	movq	%rdx, 1 * 8(%rcx)
	movq	%r12, 2 * 8(%rcx)
	movq	%r13, 3 * 8(%rcx)
	movq	%r14, 4 * 8(%rcx)
	movq	%r15, 5 * 8(%rcx)
	subq	%rsp, 6 * 8(%rcx)
	cld
	ASM_CLAC
	popq	%rcx
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	RET
SYM_FUNC_END(sbm_fuzz_exec)
STACK_FRAME_NON_STANDARD sbm_fuzz_exec
