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
#include <linux/moduleparam.h>
#include <linux/processor.h>
#include <linux/mm.h>
#include <linux/sbm.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <kunit/static_stub.h>
#include <asm/desc.h>
#include <asm/msr.h>
#include <asm/special_insns.h>
#include <asm/tlbflush.h>
#include <asm/trap_pf.h>
#include <asm/trapnr.h>

#include "sbm.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "sbm."

unsigned int sbm_time_limit_ms = 1000;
module_param_named(time_limit_ms, sbm_time_limit_ms, uint, 0644);
MODULE_PARM_DESC(time_limit_ms, "Time a sandboxed call may run (ms)");

#define SBM_STACK_SIZE		(4 * PAGE_SIZE)
/*
 * The target returns to this address, which no sandbox maps: the fetch
 * faults, and the fault at this address with the initial stack tells a
 * return. A target that jumps here on purpose merely returns.
 */
#define SBM_RETURN_ADDR		0x5b3d0000UL
/* Retries of a fault that the sandbox page tables do not explain. */
#define SBM_MAX_STALE_FAULTS	4

static gate_desc sbm_idt[IDT_ENTRIES] __page_aligned_bss;
static bool sbm_ready;

/**
 * struct x86_sbm - the x86-64 state of one sandbox instance
 * @pt:    its page tables
 * @ctx:   its context page
 * @stack: the stack of the target
 * @task:  the task whose stack and task_struct are mapped
 */
struct x86_sbm {
	struct sbm_pgtable pt;
	struct x86_sbm_ctx *ctx;
	void *stack;
	struct task_struct *task;
};

static int sbm_map_task(struct x86_sbm *s, struct task_struct *task)
{
	unsigned long start = (unsigned long)task_stack_page(task);
	int err;

	err = sbm_map_kernel_range(&s->pt, start, start + THREAD_SIZE,
				   SBM_USER_RO);
	if (err)
		return err;
	start = (unsigned long)task & PAGE_MASK;
	err = sbm_map_kernel_range(&s->pt, start,
				   PAGE_ALIGN((unsigned long)(task + 1)),
				   SBM_USER_RO);
	if (!err)
		s->task = task;
	return err;
}

/*
 * Compiled kernel code reads the per-CPU "current" and stack canary
 * through GS, which keeps the kernel's per-CPU base in the sandbox.
 */
static int sbm_map_percpu(struct x86_sbm *s)
{
	unsigned long canary, hot;
	unsigned int cpu;
	int err;

	for_each_possible_cpu(cpu) {
		canary = (unsigned long)&per_cpu(fixed_percpu_data, cpu);
		hot = (unsigned long)&per_cpu(pcpu_hot, cpu);
		err = sbm_map_kernel_range(&s->pt, canary & PAGE_MASK,
					   PAGE_ALIGN(canary + 1), SBM_USER_RO);
		if (!err)
			err = sbm_map_kernel_range(&s->pt, hot & PAGE_MASK,
						   PAGE_ALIGN(hot + 1),
						   SBM_USER_RO);
		if (err)
			return err;
	}
	return 0;
}

static int sbm_setup(struct x86_sbm *s)
{
	unsigned long addr;
	int err;

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
				   SBM_USER_RW);
	if (err)
		return err;

	err = sbm_map_percpu(s);
	if (err)
		return err;
	err = sbm_map_task(s, current);
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

	if (!s)
		return;
	if (s->pt.pgd)
		sbm_pgtable_free(&s->pt);
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
	struct x86_sbm *s = sbm->private;

	return sbm_map_kernel_range(&s->pt, start, end, SBM_USER_RO);
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
	struct x86_sbm *s = sbm->private;

	return sbm_map_kernel_range(&s->pt, start, end, SBM_USER_RW);
}

/*
 * Enter the sandbox once, with the per-CPU state it needs: its stack for
 * events in the TSS, no I/O bitmap, no SYSCALL (it raises #UD), no FPU
 * (CR0.TS: any FPU or SIMD instruction raises #NM). Put everything back
 * when it stops. Interrupts are disabled.
 */
static void sbm_run_once(struct x86_sbm_ctx *ctx)
{
	struct tss_struct *tss = this_cpu_ptr(&cpu_tss_rw);
	unsigned long sp0 = tss->x86_tss.sp0, cr0 = read_cr0(), fsbase;
	u16 io_bitmap_base = tss->x86_tss.io_bitmap_base;
	unsigned short ds, es, fs, gs;
	u64 efer;

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

	tss->x86_tss.sp0 = (unsigned long)ctx + PAGE_SIZE;
	tss->x86_tss.io_bitmap_base = IO_BITMAP_OFFSET_INVALID;
	wrmsrl(MSR_EFER, efer & ~EFER_SCE);
	write_cr0(cr0 | X86_CR0_TS);

	x86_sbm_enter(ctx);

	write_cr0(cr0);
	wrmsrl(MSR_EFER, efer);
	tss->x86_tss.io_bitmap_base = io_bitmap_base;
	tss->x86_tss.sp0 = sp0;
	loadsegment(ds, ds);
	loadsegment(es, es);
	loadsegment(fs, fs);
	wrmsrl(MSR_FS_BASE, fsbase);
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

static void sbm_describe(const struct x86_sbm_frame *f,
			 const struct x86_sbm_ctx *ctx, struct sbm_abort *abort,
			 char *buf, size_t len)
{
	const char *name = NULL;

	abort->ip = f->ip;
	abort->kind = sbm_abort_kind(f->vector);
	if (f->vector == X86_TRAP_UD || f->vector == X86_TRAP_GP)
		name = sbm_service_insn(f);
	if (name)
		abort->kind = SBM_ABORT_SYSCALL;
	else if (f->vector < ARRAY_SIZE(sbm_trap_names))
		name = sbm_trap_names[f->vector];
	if (!name)
		name = "unexpected vector";

	if (f->vector == X86_TRAP_PF) {
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

/**
 * arch_sbm_exec() - run a target function in the sandbox
 * @sbm:  the instance
 * @func: the target function
 * @data: its argument
 *
 * On abort, calls sbm_abort(): -EFAULT for a violation, -ETIMEDOUT when
 * the target has run for more than sbm.time_limit_ms, counting only the
 * time spent in the sandbox.
 *
 * Return: what @func returned, or the error of the abort.
 */
int arch_sbm_exec(struct sbm *sbm, sbm_func func, void *data)
{
	struct x86_sbm *s = sbm->private;
	struct x86_sbm_frame *f = x86_sbm_frame(s->ctx);
	u64 limit = (u64)sbm_time_limit_ms * NSEC_PER_MSEC, used = 0, start;
	unsigned long *sp, stale_addr = 0;
	struct sbm_abort abort = { .err = -EFAULT };
	unsigned int stale = 0;
	char reason[64];
	int err;

	if (s->task != current) {
		err = sbm_map_task(s, current);
		if (err)
			return err;
	}

	sp = s->stack + SBM_STACK_SIZE - sizeof(*sp);
	*sp = SBM_RETURN_ADDR;
	memset(f, 0, sizeof(*f));
	f->ip = (unsigned long)func;
	f->di = (unsigned long)data;
	f->cs = __USER_CS;
	f->ss = __USER_DS;
	f->flags = X86_EFLAGS_IF | X86_EFLAGS_FIXED;
	f->sp = (unsigned long)sp;

	for (;;) {
		local_irq_disable();
		start = local_clock();
		sbm_run_once(s->ctx);
		/* Only time in the sandbox counts, not the kernel's handlers. */
		used += local_clock() - start;
		/* The stubs push vectors as sign-extended bytes. */
		f->vector &= 0xff;

		if (f->vector >= FIRST_EXTERNAL_VECTOR ||
		    f->vector == X86_TRAP_NMI) {
			/* Returns with interrupts enabled. */
			sbm_raise(f->vector);
			if (used > limit) {
				abort.err = -ETIMEDOUT;
				abort.kind = SBM_ABORT_TIME_LIMIT;
				abort.reason = "time limit exceeded";
				abort.ip = f->ip;
				break;
			}
			cond_resched();
			continue;
		}
		local_irq_enable();

		if (f->vector == X86_TRAP_PF && f->ip == SBM_RETURN_ADDR &&
		    f->sp == (unsigned long)(sp + 1))
			return (int)f->ax;

		/* A stale global TLB entry of the kernel's: drop it, retry. */
		if (f->vector == X86_TRAP_PF &&
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
		sbm_describe(f, s->ctx, &abort, reason, sizeof(reason));
		break;
	}
	sbm_abort(sbm, func, &abort);
	return abort.err;
}

static int __init sbm_x86_init(void)
{
	unsigned int i;
	int err;

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
