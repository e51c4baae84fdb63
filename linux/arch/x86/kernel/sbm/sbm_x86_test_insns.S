/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Targets for the x86-64 SandBox Mode tests that objtool rightly refuses
 * in C functions: the system-call instructions, and UD2, which it takes
 * for the end of a function. The sandbox never comes back from them.
 */

#include <linux/linkage.h>
#include <asm/ibt.h>
#include <asm/unwind_hints.h>

	.text
SYM_CODE_START(sbm_test_syscall)
	UNWIND_HINT_FUNC
	ENDBR
	movl	$39, %eax
	syscall
	int3
SYM_CODE_END(sbm_test_syscall)

SYM_CODE_START(sbm_test_sysenter)
	UNWIND_HINT_FUNC
	ENDBR
	movl	$20, %eax
	sysenter
	int3
SYM_CODE_END(sbm_test_sysenter)

SYM_CODE_START(sbm_test_ud2)
	UNWIND_HINT_FUNC
	ENDBR
	ud2
SYM_CODE_END(sbm_test_ud2)
