// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 SandBox Mode: running a target function in CPU user mode on its
 * own page tables and stack.
 *
 * arch_sbm_exec() loops: enter the sandbox (entry.S), and when an event
 * stops it, look at the event in the kernel's own context. An interrupt
 * or NMI is served by the kernel's handler, as if it had hit the loop,
 * and the sandbox resumes; the target's return ends the loop; anything
 * else aborts the sandbox. Between two entries the task is an ordinary
 * kernel task: it can be preempted and migrate, because all sandbox state
 * lives in the context page and the per-CPU state is set up anew with
 * interrupts disabled around each entry.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <linux/init.h>
#include <linux/processor.h>
#include <linux/mm.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <kunit/static_stub.h>
#include <asm/apic.h>
#include <asm/desc.h>
#include <asm/fpu/api.h>
#include <asm/fpu/xstate.h>
#include <asm/fsgsbase.h>
#include <asm/ia32.h>
#include <asm/msr.h>
#include <asm/nospec-branch.h>
#include <asm/special_insns.h>
#include <asm/pkru.h>
#include <asm/tlbflush.h>
#include <asm/trap_pf.h>
#include <asm/trapnr.h>

#include "sbm.h"

/* The entry code finds the context page's fields at these offsets. */
#define SBM_CTX_AT(field, off) \
	static_assert(offsetof(struct x86_sbm_ctx, field) == (off))
SBM_CTX_AT(kernel_cr3, SBM_CTX_KERNEL_CR3);
SBM_CTX_AT(sandbox_cr3, SBM_CTX_SANDBOX_CR3);
SBM_CTX_AT(kernel_rsp, SBM_CTX_KERNEL_RSP);
SBM_CTX_AT(kernel_gsbase, SBM_CTX_KERNEL_GSBASE);
SBM_CTX_AT(cr2, SBM_CTX_CR2);
SBM_CTX_AT(kernel_gs, SBM_CTX_KERNEL_GS);
SBM_CTX_AT(kernel_idt, SBM_CTX_KERNEL_IDT);
SBM_CTX_AT(sandbox_idt, SBM_CTX_SANDBOX_IDT);
SBM_CTX_AT(kernel_pkru, SBM_CTX_KERNEL_PKRU);
SBM_CTX_AT(entry_fault, SBM_CTX_ENTRY_FAULT);
SBM_CTX_AT(sandbox_pkru, SBM_CTX_SANDBOX_PKRU);
SBM_CTX_AT(sandbox_gs, SBM_CTX_SANDBOX_GS);
SBM_CTX_AT(sandbox_gsbase, SBM_CTX_SANDBOX_GSBASE);
SBM_CTX_AT(sandbox_own_gs, SBM_CTX_SANDBOX_OWN_GS);
SBM_CTX_AT(nmi_pending, SBM_CTX_NMI_PENDING);

/*
 * The target returns to this address, which no sandbox maps: the fetch
 * faults, and the fault at this address with the initial stack tells a
 * return. A target that jumps here on purpose merely returns.
 */
#define SBM_RETURN_ADDR		0x5b3d0000UL
/* Retries of a fault that the sandbox page tables do not explain. */
#define SBM_MAX_STALE_FAULTS	4

gate_desc sbm_idt[IDT_ENTRIES] __page_aligned_bss;
static bool sbm_ready;
/* The kernel's SYSENTER_CS, when SYSENTER leads to the kernel. */
static u64 sbm_sysenter_cs;

/* Map caller memory, and remember it for the audit of the address space. */
static int sbm_add_range(struct x86_sbm *s, unsigned long start,
			 unsigned long end, bool writable)
{
	struct sbm_range *range;
	int err;

	range = kmalloc(sizeof(*range), GFP_KERNEL);
	if (!range)
		return -ENOMEM;
	err = sbm_map_kernel_range(&s->pt, start, end,
				   writable ? SBM_USER_RW : SBM_USER_RO);
	if (err) {
		kfree(range);
		return err;
	}
	range->start = start;
	range->end = end;
	range->writable = writable;
	list_add_tail(&range->list, &s->ranges);
	return 0;
}

static int sbm_setup(struct x86_sbm *s)
{
	unsigned long addr;
	int err;

	INIT_LIST_HEAD(&s->ranges);
	xa_init(&s->objects);
	err = sbm_pgtable_init(&s->pt);
	if (err)
		return err;

	s->ctx = (void *)get_zeroed_page(GFP_KERNEL);
	if (!s->ctx)
		return -ENOMEM;
	addr = (unsigned long)s->ctx;
	err = sbm_map_kernel_range(&s->pt, addr, addr + PAGE_SIZE,
				   SBM_KERNEL_RW);
	if (err)
		return err;

	s->stack = vzalloc(SBM_STACK_SIZE);
	if (!s->stack)
		return -ENOMEM;
	addr = (unsigned long)s->stack;
	err = sbm_map_kernel_range(&s->pt, addr, addr + SBM_STACK_SIZE,
				   SBM_USER_RW_TRACKED);
	if (err)
		return err;

	err = sbm_shadow_init(&s->shadow, &s->pt);
	if (err)
		return err;

	s->ctx->sandbox_cr3 = __pa(s->pt.pgd);
	s->ctx->sandbox_idt.size = sizeof(sbm_idt) - 1;
	s->ctx->sandbox_idt.address = (unsigned long)sbm_idt;
	return 0;
}

/**
 * arch_sbm_init() - build the address space of a new sandbox
 * @sbm: the instance
 *
 * Return: 0; -EOPNOTSUPP if this CPU or kernel cannot run sandboxes
 * (FRED, call depth tracking, setup failure at boot); -ENOMEM.
 */
int arch_sbm_init(struct sbm *sbm)
{
	struct x86_sbm *s;
	int err;

	KUNIT_STATIC_STUB_REDIRECT(arch_sbm_init, sbm);

	if (!sbm_ready)
		return -EOPNOTSUPP;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	sbm->private = s;
	err = sbm_setup(s);
	if (err)
		arch_sbm_destroy(sbm);
	return err;
}

/**
 * arch_sbm_destroy() - free the address space of a sandbox
 * @sbm: the instance
 */
void arch_sbm_destroy(struct sbm *sbm)
{
	struct x86_sbm *s = sbm->private;
	struct sbm_range *range, *next;

	if (!s)
		return;
	list_for_each_entry_safe(range, next, &s->ranges, list)
		kfree(range);
	xa_destroy(&s->objects);
	if (s->pt.pgd)
		sbm_pgtable_free(&s->pt);
	sbm_shadow_free(&s->shadow);
	vfree(s->stack);
	free_page((unsigned long)s->ctx);
	kfree(s);
	sbm->private = NULL;
}

/**
 * arch_sbm_map_readonly() - let the target read kernel memory
 * @sbm:   the instance
 * @start: first address, page-aligned
 * @end:   end address, page-aligned
 *
 * Return: 0 or a negative errno (see sbm_map_kernel_range()).
 */
int arch_sbm_map_readonly(struct sbm *sbm, unsigned long start,
			  unsigned long end)
{
	return sbm_add_range(sbm->private, start, end, false);
}

/**
 * arch_sbm_map_writable() - let the target read and write kernel memory
 * @sbm:   the instance
 * @start: first address, page-aligned
 * @end:   end address, page-aligned
 *
 * Return: 0 or a negative errno (see sbm_map_kernel_range()).
 */
int arch_sbm_map_writable(struct sbm *sbm, unsigned long start,
			  unsigned long end)
{
	return sbm_add_range(sbm->private, start, end, true);
}

/*
 * Enter the sandbox once, with the per-CPU state it needs: its stack for
 * events in the TSS, no I/O bitmap, no SYSCALL (it raises #UD), no
 * SYSENTER (a null SYSENTER_CS makes it raise #GP), no user shadow stack,
 * no AMX (XFD), no FPU (CR0.TS and CR0.EM: every FPU, MMX, SSE or AVX
 * instruction raises #NM or #UD, even EMMS, which some emulators let
 * through with TS alone). Put everything back when it stops. Interrupts
 * are disabled.
 *
 * The entry code restores what the target itself can change and the
 * kernel relies on (RFLAGS, GS, PKRU, DR6) before any C code runs; what
 * is restored here, the target cannot change (the MSRs, CR0, the TSS) or
 * matters only on the way back to user space (SS, DS, ES, FS).
 */
static void sbm_run_once(struct x86_sbm_ctx *ctx)
{
	struct tss_struct *tss = this_cpu_ptr(&cpu_tss_rw);
	unsigned long sp0 = tss->x86_tss.sp0, cr0 = read_cr0(), fsbase;
	u16 io_bitmap_base = tss->x86_tss.io_bitmap_base;
	bool shstk = cpu_feature_enabled(X86_FEATURE_USER_SHSTK);
	bool xfd = cpu_feature_enabled(X86_FEATURE_XFD);
	unsigned short ds, es, fs, gs, ss;
	u64 efer, u_cet = 0, xfd_armed = 0;

	savesegment(ss, ss);
	savesegment(ds, ds);
	savesegment(es, es);
	savesegment(fs, fs);
	savesegment(gs, gs);
	rdmsrl(MSR_FS_BASE, fsbase);
	rdmsrl(MSR_GS_BASE, ctx->kernel_gsbase);
	rdmsrl(MSR_EFER, efer);
	ctx->kernel_gs = gs;
	ctx->kernel_cr3 = __read_cr3();
	if (boot_cpu_has(X86_FEATURE_PCID))
		ctx->kernel_cr3 |= X86_CR3_PCID_NOFLUSH;
	store_idt(&ctx->kernel_idt);
	if (cpu_feature_enabled(X86_FEATURE_OSPKE))
		ctx->kernel_pkru = rdpkru();

	tss->x86_tss.sp0 = (unsigned long)ctx + PAGE_SIZE;
	tss->x86_tss.io_bitmap_base = IO_BITMAP_OFFSET_INVALID;
	wrmsrl(MSR_EFER, efer & ~EFER_SCE);
	if (sbm_sysenter_cs)
		wrmsrl(MSR_IA32_SYSENTER_CS, 0);
	if (shstk) {
		rdmsrl(MSR_IA32_U_CET, u_cet);
		wrmsrl(MSR_IA32_U_CET, 0);
	}
	/* CR0.TS does not cover AMX tiles; XFD does. */
	if (xfd) {
		rdmsrl(MSR_IA32_XFD, xfd_armed);
		wrmsrl(MSR_IA32_XFD, xfd_armed | XFEATURE_MASK_USER_DYNAMIC);
	}
	/*
	 * Should an FPU instruction slip past CR0.TS (EMMS under some
	 * emulators), no task may trust the registers it finds. The caller's
	 * own live registers were saved by arch_sbm_exec(), those of the task
	 * that ran before it at the context switch.
	 */
	if (!sbm_planted(SBM_PLANT_FPU)) {
		this_cpu_write(fpu_fpregs_owner_ctx, NULL);
		write_cr0(cr0 | X86_CR0_TS | X86_CR0_EM);
	}
	/* The caller's thread pointer is not the target's business. */
	x86_fsbase_write_cpu(ctx->sandbox_fsbase);

	x86_sbm_enter(ctx);

	ctx->sandbox_fsbase = x86_fsbase_read_cpu();
	/*
	 * GS is the target's own once it changed it. An LDT selector is not
	 * loaded for it again: the entry code cannot take the #GP that a
	 * concurrent change of the process's LDT would raise. The base stays.
	 */
	ctx->sandbox_own_gs = ctx->sandbox_gs != ctx->kernel_gs ||
			      ctx->sandbox_gsbase != ctx->kernel_gsbase;
	if (ctx->sandbox_gs & SEGMENT_TI_MASK)
		ctx->sandbox_gs = 0;
	write_cr0(cr0);
	if (xfd)
		wrmsrl(MSR_IA32_XFD, xfd_armed);
	if (shstk)
		wrmsrl(MSR_IA32_U_CET, u_cet);
	if (sbm_sysenter_cs)
		wrmsrl(MSR_IA32_SYSENTER_CS, sbm_sysenter_cs);
	wrmsrl(MSR_EFER, efer);
	tss->x86_tss.io_bitmap_base = io_bitmap_base;
	tss->x86_tss.sp0 = sp0;
	/*
	 * An exit from CPL 3 leaves a null SS, which SYSRET on some AMD CPUs
	 * would hand to user space unusable.
	 */
	loadsegment(ss, ss);
	loadsegment(ds, ds);
	loadsegment(es, es);
	loadsegment(fs, fs);
	if (!sbm_planted(SBM_PLANT_MSR))
		wrmsrl(MSR_FS_BASE, fsbase);
	/*
	 * Where the kernel separates user processes by flushing branch
	 * predictions, do so between the sandbox and the caller's process.
	 */
	if (static_branch_unlikely(&switch_mm_always_ibpb))
		indirect_branch_prediction_barrier();
}

/*
 * Nothing of a call is left on the stack for the next one to find. Only
 * the pages the target wrote need clearing, and in the top page, if the
 * target did not write it, what the kernel put there from @sp up.
 */
static void sbm_clear_stack(struct x86_sbm *s, unsigned long *sp)
{
	void *top = s->stack + SBM_STACK_SIZE - PAGE_SIZE, *page;

	for (page = s->stack; page <= top; page += PAGE_SIZE) {
		if (sbm_test_and_clean(&s->pt, (unsigned long)page))
			clear_page(page);
		else if (page == top)
			memset(sp, 0, s->stack + SBM_STACK_SIZE - (void *)sp);
	}
}

typedef void (*sbm_raise_fn)(void);

static void sbm_raise(unsigned long vector)
{
	sbm_raise_fn raise = (sbm_raise_fn)(x86_sbm_raise_stubs +
					     vector * SBM_RAISE_STUB_SIZE);

	raise();
}

static const char * const sbm_trap_names[] = {
	[X86_TRAP_DE] = "divide error",
	[X86_TRAP_DB] = "debug trap",
	[X86_TRAP_BP] = "breakpoint",
	[X86_TRAP_OF] = "overflow",
	[X86_TRAP_BR] = "bound range exceeded",
	[X86_TRAP_UD] = "invalid opcode",
	[X86_TRAP_NM] = "FPU or SIMD instruction",
	[X86_TRAP_DF] = "double fault",
	[X86_TRAP_TS] = "invalid TSS",
	[X86_TRAP_NP] = "segment not present",
	[X86_TRAP_SS] = "stack segment fault",
	[X86_TRAP_GP] = "general protection fault",
	[X86_TRAP_PF] = "page fault",
	[X86_TRAP_MF] = "x87 floating-point error",
	[X86_TRAP_AC] = "alignment check",
	[X86_TRAP_MC] = "machine check",
	[X86_TRAP_XF] = "SIMD floating-point error",
	[X86_TRAP_VE] = "virtualization exception",
	[X86_TRAP_CP] = "control protection fault",
};

/* Name the instruction behind #UD or #GP when it asked for a service. */
static const char *sbm_service_insn(const struct x86_sbm_frame *f)
{
	u8 insn[2];

	if (copy_from_kernel_nofault(insn, (void *)f->ip, sizeof(insn)))
		return NULL;
	if (insn[0] == 0x0f && insn[1] == 0x05)
		return "system call (syscall)";
	if (insn[0] == 0x0f && insn[1] == 0x34)
		return "system call (sysenter)";
	if (insn[0] == 0xcd && insn[1] == 0x80)
		return "system call (int $0x80)";
	if (insn[0] == 0xcd)
		return "system call (software interrupt)";
	return NULL;
}

static enum sbm_abort_kind sbm_abort_kind(unsigned long vector)
{
	switch (vector) {
	case X86_TRAP_PF:
		return SBM_ABORT_PAGE_FAULT;
	case X86_TRAP_GP:
		return SBM_ABORT_GENERAL_PROTECTION;
	case X86_TRAP_UD:
		return SBM_ABORT_INVALID_OPCODE;
	case X86_TRAP_BP:
	case X86_TRAP_DB:
		return SBM_ABORT_BREAKPOINT;
	case X86_TRAP_DE:
		return SBM_ABORT_DIVIDE_ERROR;
	default:
		return SBM_ABORT_OTHER;
	}
}

/*
 * The reason for an abort, in @buf. @entering: the IRET into the sandbox
 * raised the exception, at the address where the target was to resume.
 */
static void sbm_describe(const struct x86_sbm_frame *f,
			 const struct x86_sbm_ctx *ctx, bool entering,
			 struct sbm_abort *abort, char *buf, size_t len)
{
	const char *name = NULL;

	abort->ip = f->ip;
	abort->kind = sbm_abort_kind(f->vector);
	if (!entering && (f->vector == X86_TRAP_UD || f->vector == X86_TRAP_GP))
		name = sbm_service_insn(f);
	if (name)
		abort->kind = SBM_ABORT_SYSCALL;
	else if (f->vector < ARRAY_SIZE(sbm_trap_names))
		name = sbm_trap_names[f->vector];
	if (!name)
		name = "unexpected vector";

	if (entering) {
		snprintf(buf, len, "%s, error code 0x%lx, returning to the sandbox",
			 name, f->error);
		abort->reason = buf;
	} else if (f->vector == X86_TRAP_PF) {
		abort->addr = ctx->cr2;
		abort->has_addr = true;
		snprintf(buf, len, "page fault (%s, %s)",
			 f->error & X86_PF_INSTR ? "fetch" :
			 f->error & X86_PF_WRITE ? "write" : "read",
			 f->error & X86_PF_PROT ? "protection" : "not present");
		abort->reason = buf;
	} else if (abort->kind == SBM_ABORT_GENERAL_PROTECTION && f->error) {
		snprintf(buf, len, "%s, selector 0x%lx", name, f->error);
		abort->reason = buf;
	} else {
		abort->reason = name;
	}
}

static void sbm_time_limit(const struct x86_sbm_frame *f,
			   struct sbm_abort *abort)
{
	abort->err = -ETIMEDOUT;
	abort->kind = SBM_ABORT_TIME_LIMIT;
	abort->reason = "time limit exceeded";
	abort->ip = f->ip;
}

/**
 * arch_sbm_exec() - run a target function in the sandbox
 * @sbm:  the instance
 * @func: the target function
 * @data: its argument
 *
 * On abort, calls sbm_abort(): -EFAULT for a violation, -ETIMEDOUT when
 * the target has run for more than sbm.time_limit_ms, counting the time
 * spent in the sandbox and in the services it called, not in interrupts.
 *
 * Return: what @func returned, or the error of the abort.
 */
int arch_sbm_exec(struct sbm *sbm, sbm_func func, void *data)
{
	struct x86_sbm *s = sbm->private;
	struct x86_sbm_frame *f = x86_sbm_frame(s->ctx);
	u64 limit = (u64)sbm_time_limit_ms * NSEC_PER_MSEC, used = 0, start;
	struct sbm_abort abort = { .err = -EFAULT };
	unsigned long *sp, stale_addr = 0;
	enum sbm_serve_result served;
	unsigned int stale = 0;
	bool interrupted;
	char reason[128];
	int ret;

	if (sbm->args_size > SBM_MAX_ARGS_SIZE) {
		abort.err = -E2BIG;
		abort.reason = "argument block too large";
		abort.ip = (unsigned long)func;
		sbm_abort(sbm, func, &abort);
		return abort.err;
	}
	/* The argument block goes on top of the stack, 16-byte aligned. */
	sp = s->stack + SBM_STACK_SIZE;
	if (sbm->args_size) {
		sp -= ALIGN(sbm->args_size, 16) / sizeof(*sp);
		memcpy(sp, data, sbm->args_size);
		data = sp;
	}
	*--sp = SBM_RETURN_ADDR;
	sbm_shadow_update(&s->shadow);
	/* Save the caller's live FPU registers, reloaded on return to user. */
	if (!sbm_planted(SBM_PLANT_FPU)) {
		kernel_fpu_begin();
		kernel_fpu_end();
	}
	memset(f, 0, sizeof(*f));
	f->ip = (unsigned long)func;
	f->di = (unsigned long)data;
	f->cs = __USER_CS;
	f->ss = __USER_DS;
	f->flags = X86_EFLAGS_IF | X86_EFLAGS_FIXED;
	f->sp = (unsigned long)sp;
	/*
	 * The target starts with its caller's protection keys and an FS base
	 * of its own. Its GS is the kernel's, for compiled code to find the
	 * per-CPU stand-ins, until it changes it.
	 */
	if (cpu_feature_enabled(X86_FEATURE_OSPKE))
		s->ctx->sandbox_pkru = rdpkru();
	s->ctx->sandbox_fsbase = 0;
	s->ctx->sandbox_own_gs = 0;

	for (;;) {
		local_irq_disable();
		start = local_clock();
		sbm_run_once(s->ctx);
		/* Only time in the sandbox counts, not the kernel's handlers. */
		used += local_clock() - start;
		/*
		 * An NMI that hit the switch code was only noted there: send
		 * it again, to be served by the kernel's own NMI entry.
		 */
		if (unlikely(s->ctx->nmi_pending)) {
			s->ctx->nmi_pending = 0;
			__apic_send_IPI(raw_smp_processor_id(), NMI_VECTOR);
		}
		/* The stubs push vectors as sign-extended bytes. */
		f->vector &= 0xff;
		if (unlikely(s->ctx->entry_fault)) {
			local_irq_enable();
			s->ctx->entry_fault = 0;
			sbm_describe(f, s->ctx, true, &abort, reason,
				     sizeof(reason));
			break;
		}

		interrupted = f->vector >= FIRST_EXTERNAL_VECTOR ||
			      f->vector == X86_TRAP_NMI;
		served = SBM_NOT_A_SERVICE;
		if (interrupted) {
			/* Returns with interrupts enabled. */
			sbm_raise(f->vector);
		} else {
			local_irq_enable();
		}

		if (f->vector == X86_TRAP_BP) {
			start = local_clock();
			served = sbm_serve(sbm, func, f, &abort, reason,
					   sizeof(reason));
			/* A service works for the target: its time counts. */
			used += local_clock() - start;
			if (served == SBM_SERVICE_REFUSED)
				goto abort;
		}

		if (interrupted || served == SBM_SERVED) {
			if (used > limit) {
				sbm_time_limit(f, &abort);
				break;
			}
			/* The kernel may have cached its own entry again. */
			stale = 0;
			cond_resched();
			continue;
		}

		if (f->vector == X86_TRAP_PF && f->ip == SBM_RETURN_ADDR &&
		    f->sp == (unsigned long)(sp + 1)) {
			ret = (int)f->ax;
			goto out;
		}

		/*
		 * A stale global TLB entry of the kernel's: drop it, retry.
		 * Protection keys are the target's own doing, not the TLB's.
		 */
		if (f->vector == X86_TRAP_PF && !(f->error & X86_PF_PK) &&
		    sbm_user_access_ok(&s->pt, s->ctx->cr2, f->error)) {
			if (s->ctx->cr2 != stale_addr) {
				stale_addr = s->ctx->cr2;
				stale = 0;
			}
			if (++stale <= SBM_MAX_STALE_FAULTS) {
				flush_tlb_one_kernel(stale_addr);
				continue;
			}
		}
		sbm_describe(f, s->ctx, false, &abort, reason, sizeof(reason));
		sbm_find_forbidden_call(s, func, f, &abort, reason,
					sizeof(reason));
		break;
	}
abort:
	sbm_abort(sbm, func, &abort);
	ret = abort.err;
out:
	sbm_clear_stack(s, sp);
	sbm_plant_flags(f->flags);
	return ret;
}

static int __init sbm_x86_init(void)
{
	unsigned int i;
	int err;

	/* SYSENTER reaches the kernel only with IA32 emulation on Intel. */
	if (ia32_enabled() && rdmsrl_safe(MSR_IA32_SYSENTER_CS, &sbm_sysenter_cs))
		sbm_sysenter_cs = 0;
	if (cpu_feature_enabled(X86_FEATURE_FRED) ||
	    cpu_feature_enabled(X86_FEATURE_CALL_DEPTH)) {
		pr_info("strong isolation unavailable on this CPU setup\n");
		return 0;
	}
	/*
	 * Only INT3 may reach its vector from CPL 3, to be reported as the
	 * breakpoint it is; every other INT n raises #GP.
	 */
	for (i = 0; i < IDT_ENTRIES; i++)
		pack_gate(&sbm_idt[i], GATE_INTERRUPT,
			  (unsigned long)x86_sbm_idt_stubs +
			  i * SBM_IDT_STUB_SIZE, i == X86_TRAP_BP ? 3 : 0, 0,
			  __KERNEL_CS);
	err = sbm_pgtable_template_init(sbm_idt);
	if (err) {
		pr_err("cannot build the sandbox page tables: %pe\n",
		       ERR_PTR(err));
		return 0;
	}
	err = sbm_services_init();
	if (err) {
		pr_err("cannot set up kernel services for sandboxes: %pe\n",
		       ERR_PTR(err));
		return 0;
	}
	if (IS_ENABLED(CONFIG_MODULES)) {
		err = sbm_modules_init();
		if (err)
			pr_warn("module code not available to sandboxes: %pe\n",
				ERR_PTR(err));
	}
	sbm_ready = true;
	pr_info("strong isolation: x86-64 user mode, own page tables%s%s\n",
		boot_cpu_has(X86_FEATURE_PTI) ? ", PTI" : "",
		boot_cpu_has(X86_FEATURE_PCID) ? ", PCID" : "");
	return 0;
}
late_initcall(sbm_x86_init);
