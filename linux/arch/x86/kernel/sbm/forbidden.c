// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 SandBox Mode: naming the kernel function behind a fault.
 *
 * A target that calls a kernel function which is not on its allowlist
 * runs that function in user mode, until it touches kernel state: a
 * global or per-CPU variable, or a privileged instruction. The fault
 * alone names only the innermost function. To name the function that the
 * target called, follow the return addresses on the sandbox stack from
 * the fault outwards: each must follow a direct CALL of the function that
 * holds the previous one, up to the target itself.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/sections.h>
#include <asm/text-patching.h>
#include <asm/trapnr.h>

#include "sbm.h"

/* The start of the kernel function that holds @ip, or 0. */
static unsigned long sbm_func_start(unsigned long ip)
{
	unsigned long size, offset;

	if (!kernel_text_address(ip) ||
	    !kallsyms_lookup_size_offset(ip, &size, &offset))
		return 0;
	return ip - offset;
}

/* Where the direct CALL that returns to @ret_ip leads, or 0. */
static unsigned long sbm_call_dest(unsigned long ret_ip)
{
	struct {
		u8 opcode;
		s32 rel;
	} __packed call;

	if (!kernel_text_address(ret_ip) ||
	    copy_from_kernel_nofault(&call, (void *)ret_ip - CALL_INSN_SIZE,
				     sizeof(call)) ||
	    call.opcode != CALL_INSN_OPCODE)
		return 0;
	return ret_ip + call.rel;
}

/* Does compiled code reach kernel state at @addr? */
static bool sbm_is_kernel_state(unsigned long addr)
{
	return (addr >= (unsigned long)_sdata && addr < (unsigned long)_end) ||
	       is_kernel_percpu_address(addr);
}

/*
 * Is @callee the function that the thunk @func unpacks the arguments
 * for? Unless the compiler inlined it there, the thunk calls it.
 */
static bool sbm_thunk_calls(unsigned long func, unsigned long callee)
{
	char thunk[KSYM_NAME_LEN], name[KSYM_NAME_LEN];
	size_t prefix;

	if (lookup_symbol_name(func, thunk) || lookup_symbol_name(callee, name))
		return false;
	prefix = str_has_prefix(thunk, "__sbm_thunk_");
	/* The compiler may have made a clone, say name.constprop.0. */
	name[strcspn(name, ".")] = '\0';
	return prefix && !strcmp(thunk + prefix, name);
}

/*
 * Collect the functions called from the target down to the one holding
 * @ip, innermost first. Return: how many, or 0 if the chain does not
 * lead back to @func.
 */
static unsigned int sbm_call_chain(struct x86_sbm *s, unsigned long func,
				   unsigned long ip, unsigned long sp,
				   unsigned long *chain, unsigned int max)
{
	unsigned long *word, *top = s->stack + SBM_STACK_SIZE;
	unsigned long cur = sbm_func_start(ip), caller;
	unsigned int n = 0;

	if ((unsigned long)s->stack > sp || (unsigned long)top <= sp ||
	    !IS_ALIGNED(sp, sizeof(*word)))
		return 0;
	for (word = (unsigned long *)sp; word < top && cur && n < max; word++) {
		if (sbm_call_dest(*word) != cur)
			continue;
		chain[n++] = cur;
		caller = sbm_func_start(*word);
		if (caller == func)
			return n;
		cur = caller;
	}
	return 0;
}

/**
 * sbm_find_forbidden_call() - tell a forbidden call from a plain fault
 * @s:     the sandbox
 * @func:  the target
 * @f:     the frame of the fault
 * @abort: the abort, as sbm_describe() filled it in
 * @buf:   room for the reason
 * @len:   size of @buf
 *
 * When the fault happened in a kernel function that the target called,
 * touching kernel state, make @abort a %SBM_ABORT_FORBIDDEN_CALL that
 * names the function and the calls that led to the fault.
 */
void sbm_find_forbidden_call(struct x86_sbm *s, sbm_func func,
			     const struct x86_sbm_frame *f,
			     struct sbm_abort *abort, char *buf, size_t len)
{
	unsigned long chain[SBM_ABORT_CHAIN + 1];
	unsigned int n, own = 0;
	char fault[64];

	if (f->vector == X86_TRAP_PF) {
		if (!sbm_is_kernel_state(s->ctx->cr2))
			return;
	} else if (f->vector != X86_TRAP_GP) {
		return;
	}
	n = sbm_call_chain(s, (unsigned long)func, f->ip, f->sp, chain,
			   ARRAY_SIZE(chain));
	if (!n)
		return;
	/* The function that a thunk calls is the target's own code too. */
	if (sbm_thunk_calls((unsigned long)func, chain[n - 1]))
		own = 1;
	if (n <= own)
		return;
	n -= own;
	abort->kind = SBM_ABORT_FORBIDDEN_CALL;
	abort->callee = chain[n - 1];
	abort->chain_len = min_t(unsigned int, n, SBM_ABORT_CHAIN);
	memcpy(abort->chain, chain, abort->chain_len * sizeof(*chain));
	strscpy(fault, abort->reason);
	snprintf(buf, len, "call of %ps, not allowed: %s",
		 (void *)abort->callee, fault);
	abort->reason = buf;
}
