// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for x86-64 strong isolation: every class of exception and
 * every way of asking the kernel for service ends the sandbox; interrupts,
 * NMIs and preemption do not; runaway targets hit the time limit.
 */

#define pr_fmt(fmt) "sbm_x86_test: " fmt

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/nmi.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <trace/events/sbm.h>
#include <asm/apic.h>
#include <asm/irq_regs.h>
#include <asm/sections.h>

#include "sbm.h"

/* Opcode of RET, planted in data to try to execute it. */
#define RET_OPCODE	0xc3

struct violation {
	const char *name;
	sbm_func func;
	enum sbm_abort_kind kind;
};

static noinline int do_pf_read_user(void *data)
{
	return READ_ONCE(*(int *)0x1000);
}

static noinline int do_pf_write_user(void *data)
{
	WRITE_ONCE(*(int *)0x1000, 1);
	return 0;
}

static noinline int do_pf_fetch_user(void *data)
{
	return ((int (*)(void))0x1000)();
}

static noinline int do_pf_read_kernel(void *data)
{
	return READ_ONCE(*(int *)&jiffies);
}

static noinline int do_pf_fetch_kernel_data(void *data)
{
	return ((int (*)(void))&jiffies)();
}

static noinline int do_gp_noncanonical_read(void *data)
{
	return READ_ONCE(*(int *)0x8000000000000000UL);
}

static noinline int do_gp_noncanonical_write(void *data)
{
	WRITE_ONCE(*(int *)0x8000000000000000UL, 1);
	return 0;
}

/*
 * A pointer to the target's own stack with a LAM tag in bit 62: the
 * sandbox enables no LAM, so it is non-canonical.
 */
static noinline int do_gp_tagged_pointer(void *data)
{
	int word = 1;

	barrier_data(&word);
	return READ_ONCE(*(int *)((unsigned long)&word & ~BIT_ULL(62)));
}

/* An LDT selector: the kernel thread has no LDT, and none is mapped. */
static noinline int do_gp_ldt_selector(void *data)
{
	asm volatile("movw %w0, %%fs" : : "r" (SEGMENT_TI_MASK | USER_RPL));
	return 0;
}

static noinline int do_gp_cli(void *data)
{
	asm volatile("cli");
	return 0;
}

static noinline int do_gp_hlt(void *data)
{
	asm volatile("hlt");
	return 0;
}

static noinline int do_gp_read_cr3(void *data)
{
	unsigned long cr3;

	asm volatile("mov %%cr3, %0" : "=r" (cr3));
	return cr3 != 0;
}

static noinline int do_gp_write_cr3(void *data)
{
	asm volatile("mov %0, %%cr3" : : "r" (0UL));
	return 0;
}

static noinline int do_gp_rdmsr(void *data)
{
	u32 lo, hi;

	asm volatile("rdmsr" : "=a" (lo), "=d" (hi) : "c" (MSR_EFER));
	return lo;
}

static noinline int do_gp_wrmsr(void *data)
{
	asm volatile("wrmsr" : : "a" (0), "d" (0), "c" (MSR_LSTAR));
	return 0;
}

static noinline int do_gp_in(void *data)
{
	u8 val;

	asm volatile("inb $0x80, %0" : "=a" (val));
	return val;
}

static noinline int do_gp_out(void *data)
{
	asm volatile("outb %0, $0x80" : : "a" ((u8)0));
	return 0;
}

static noinline int do_bp_int3(void *data)
{
	asm volatile("int3");
	return 0;
}

static noinline int do_db_single_step(void *data)
{
	asm volatile("pushfq\n\t"
		     "orq %0, (%%rsp)\n\t"
		     "popfq\n\t"
		     "nop"
		     : : "i" (X86_EFLAGS_TF));
	return 0;
}

static noinline int do_de_divide(void *data)
{
	unsigned long zero = (unsigned long)data & 0, quot;

	asm volatile("divq %2" : "=a" (quot) : "a" (1UL), "r" (zero), "d" (0UL));
	return quot;
}

/* Returns 1 if the CPU let a misaligned access pass with EFLAGS.AC set. */
static noinline int do_ac_misaligned(void *data)
{
	unsigned long words[2] = { }, val;

	asm volatile("pushfq\n\t"
		     "orq %[ac], (%%rsp)\n\t"
		     "popfq\n\t"
		     "movq 1(%[p]), %[val]"
		     : [val] "=r" (val)
		     : [ac] "i" (X86_EFLAGS_AC), [p] "r" (words)
		     : "memory");
	return 1 + val;
}

static noinline int do_nm_sse(void *data)
{
	asm volatile(".byte 0x0f, 0x57, 0xc0");	/* xorps %xmm0, %xmm0 */
	return 0;
}

static noinline int do_nm_x87(void *data)
{
	asm volatile("fninit");
	return 0;
}

static noinline int do_int80(void *data)
{
	asm volatile("int $0x80" : : "a" (20) : "memory");
	return 0;
}

static noinline int do_int_irq_vector(void *data)
{
	asm volatile("int $0x20");
	return 0;
}

static noinline int do_exec_stack(void *data)
{
	u8 code[16];

	code[0] = RET_OPCODE;
	barrier_data(code);
	((void (*)(void))code)();
	return 0;
}

static const struct violation violations[] = {
	{ "pf_read_user", do_pf_read_user, SBM_ABORT_PAGE_FAULT },
	{ "pf_write_user", do_pf_write_user, SBM_ABORT_PAGE_FAULT },
	{ "pf_fetch_user", do_pf_fetch_user, SBM_ABORT_PAGE_FAULT },
	{ "pf_read_kernel_data", do_pf_read_kernel, SBM_ABORT_PAGE_FAULT },
	{ "pf_fetch_kernel_data", do_pf_fetch_kernel_data, SBM_ABORT_PAGE_FAULT },
	{ "pf_fetch_stack", do_exec_stack, SBM_ABORT_PAGE_FAULT },
	{ "gp_noncanonical_read", do_gp_noncanonical_read, SBM_ABORT_GENERAL_PROTECTION },
	{ "gp_noncanonical_write", do_gp_noncanonical_write, SBM_ABORT_GENERAL_PROTECTION },
	{ "gp_tagged_pointer", do_gp_tagged_pointer, SBM_ABORT_GENERAL_PROTECTION },
	{ "gp_ldt_selector", do_gp_ldt_selector, SBM_ABORT_GENERAL_PROTECTION },
	{ "gp_cli", do_gp_cli, SBM_ABORT_GENERAL_PROTECTION },
	{ "gp_hlt", do_gp_hlt, SBM_ABORT_GENERAL_PROTECTION },
	{ "gp_read_cr3", do_gp_read_cr3, SBM_ABORT_GENERAL_PROTECTION },
	{ "gp_write_cr3", do_gp_write_cr3, SBM_ABORT_GENERAL_PROTECTION },
	{ "gp_rdmsr", do_gp_rdmsr, SBM_ABORT_GENERAL_PROTECTION },
	{ "gp_wrmsr", do_gp_wrmsr, SBM_ABORT_GENERAL_PROTECTION },
	{ "gp_in", do_gp_in, SBM_ABORT_GENERAL_PROTECTION },
	{ "gp_out", do_gp_out, SBM_ABORT_GENERAL_PROTECTION },
	{ "ud_ud2", sbm_test_ud2, SBM_ABORT_INVALID_OPCODE },
	{ "bp_int3", do_bp_int3, SBM_ABORT_BREAKPOINT },
	{ "db_single_step", do_db_single_step, SBM_ABORT_BREAKPOINT },
	{ "de_divide", do_de_divide, SBM_ABORT_DIVIDE_ERROR },
	{ "ac_misaligned", do_ac_misaligned, SBM_ABORT_OTHER },
	{ "nm_sse", do_nm_sse, SBM_ABORT_OTHER },
	{ "nm_x87", do_nm_x87, SBM_ABORT_OTHER },
	{ "syscall", sbm_test_syscall, SBM_ABORT_SYSCALL },
	{ "sysenter", sbm_test_sysenter, SBM_ABORT_SYSCALL },
	{ "int80", do_int80, SBM_ABORT_SYSCALL },
	{ "int_irq_vector", do_int_irq_vector, SBM_ABORT_SYSCALL },
};

static void violation_desc(const struct violation *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(violation, violations, violation_desc);

/* The kind of abort of one instance; other instances' aborts do not count. */
struct abort_record {
	const struct sbm *sbm;
	int kind;
};

static void record_kind(void *data, const struct sbm *sbm, sbm_func func,
			const struct sbm_abort *abort)
{
	struct abort_record *rec = data;

	if (sbm == rec->sbm)
		rec->kind = abort->kind;
}

/*
 * Every violation ends the sandbox with -EFAULT, classified for the
 * statistics; the kernel carries on.
 */
static void violation_contained(struct kunit *test)
{
	const struct violation *v = test->param_value;
	struct sbm sbm;
	struct abort_record rec = { .sbm = &sbm, .kind = -1 };
	int ret;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_ASSERT_EQ(test, register_trace_sbm_abort(record_kind, &rec), 0);
	ret = sbm_exec(&sbm, v->func, NULL);
	unregister_trace_sbm_abort(record_kind, &rec);
	tracepoint_synchronize_unregister();
	if (v->func == do_ac_misaligned && ret == 1) {
		sbm_destroy(&sbm);
		kunit_skip(test, "this CPU does not raise #AC (QEMU TCG does not)");
	}
	KUNIT_EXPECT_EQ(test, ret, -EFAULT);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -EFAULT);
	KUNIT_EXPECT_EQ(test, rec.kind, v->kind);
	sbm_destroy(&sbm);

	/* A new instance on the same CPU state still works. */
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_exec(&sbm, do_pf_read_user, NULL), -EFAULT);
	sbm_destroy(&sbm);
}

static noinline int last_arg_byte(void *args)
{
	return ((u8 *)args)[SBM_MAX_ARGS_SIZE - 1];
}

/*
 * An argument block that fits is copied whole; a larger one is refused
 * with a report and a sticky -E2BIG instead of the target's result.
 */
static void args_over_limit_refused(struct kunit *test)
{
	struct abort_record rec = { .kind = -1 };
	u8 *args;
	struct sbm sbm;

	args = kunit_kzalloc(test, SBM_MAX_ARGS_SIZE + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, args);
	args[SBM_MAX_ARGS_SIZE - 1] = 0x5a;
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_exec_args(&sbm, last_arg_byte, args,
					    SBM_MAX_ARGS_SIZE), 0x5a);
	rec.sbm = &sbm;
	KUNIT_ASSERT_EQ(test, register_trace_sbm_abort(record_kind, &rec), 0);
	KUNIT_EXPECT_EQ(test, sbm_exec_args(&sbm, last_arg_byte, args,
					    SBM_MAX_ARGS_SIZE + 1), -E2BIG);
	unregister_trace_sbm_abort(record_kind, &rec);
	tracepoint_synchronize_unregister();
	KUNIT_EXPECT_NE(test, rec.kind, -1);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -E2BIG);
	sbm_destroy(&sbm);
}

static SBM_DEFINE_FUNC(write_input, const u32 *, in)
{
	WRITE_ONCE(*(u32 *)in, 1);
	return 0;
}

/* Input copies and read-only maps cannot be written. */
static void expect_readonly(struct kunit *test, bool map)
{
	u32 val = 7, *in;
	struct sbm sbm;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	in = map ? SBM_MAP_READONLY(&sbm, &val, sizeof(val)) :
		   SBM_COPY_IN(&sbm, &val, sizeof(val));
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, write_input, in), -EFAULT);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, val, 7);
}

static void input_is_readonly(struct kunit *test)
{
	expect_readonly(test, false);
}

static noinline void nop_callee(void)
{
	barrier();
}

/* Switches to @sp and calls a function, whose return address lands there. */
static SBM_DEFINE_FUNC(call_on_stack, unsigned long, sp)
{
	asm volatile("xchg %%rsp, %[sp]\n\t"
		     "call %P[fn]\n\t"
		     "xchg %%rsp, %[sp]"
		     : [sp] "+r" (sp)
		     : [fn] "i" (nop_callee)
		     : "memory", "rax", "rcx", "rdx", "rsi", "rdi",
		       "r8", "r9", "r10", "r11");
	return 0;
}

/* A target that moves its stack onto its caller's cannot write there. */
static void stack_moved_to_kernel_stack(struct kunit *test)
{
	unsigned long sp;
	struct sbm sbm;

	sp = (unsigned long)end_of_stack(current) + THREAD_SIZE - 64;
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, call_on_stack, sp), -EFAULT);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -EFAULT);
	sbm_destroy(&sbm);
}

static SBM_DEFINE_FUNC(exec_buffer, u8 *, code)
{
	code[0] = RET_OPCODE;
	((void (*)(void))code)();
	return 0;
}

static void no_exec_from_buffer(struct kunit *test)
{
	u8 buf[16] = { };
	struct sbm sbm;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, exec_buffer,
				       SBM_COPY_OUT(&sbm, buf, sizeof(buf))),
			-EFAULT);
	sbm_destroy(&sbm);
}

static void mapped_readonly_is_readonly(struct kunit *test)
{
	expect_readonly(test, true);
}

static u32 sbm_test_static;

static void map_kernel_image_refused(struct kunit *test)
{
	struct sbm sbm;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_NULL(test, SBM_MAP_READONLY(&sbm, &sbm_test_static,
						 sizeof(sbm_test_static)));
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -EINVAL);
	sbm_destroy(&sbm);
}

/*
 * The cases below have sandboxes wait for one another, for the test or for
 * interrupts; on a loaded host that can take seconds of sandbox time. This
 * limit is far above that, so that only a real hang ends them, with
 * -ETIMEDOUT, and not a slow emulator.
 */
#define PATIENT_TIME_LIMIT_MS	60000

static void restore_time_limit(void *saved)
{
	sbm_time_limit_ms = (uintptr_t)saved;
}

/* Set the time limit for this case; it comes back when the case ends. */
static void set_time_limit(struct kunit *test, unsigned int ms)
{
	void *saved = (void *)(uintptr_t)sbm_time_limit_ms;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							restore_time_limit,
							saved), 0);
	sbm_time_limit_ms = ms;
}

/*
 * One page that the sandboxes and the test share, mapped writable, whole.
 * The targets poll it and finish only once another party has written it,
 * so that what the cases prove follows from the order of events, never
 * from how long anything took.
 */
struct shared_page {
	unsigned long knock;	/* set by knock(), awaited by answer() */
	unsigned long answer;	/* set by answer(), awaited by knock() */
	unsigned long running;	/* set by wait_for_go() when it starts */
	unsigned long go;	/* set by the test to end wait_for_go() */
	unsigned long irqs;	/* interrupts that stopped count_irqs() */
};

KUNIT_DEFINE_ACTION_WRAPPER(vfree_action, vfree, const void *);

static struct shared_page *alloc_shared_page(struct kunit *test)
{
	struct shared_page *page;

	BUILD_BUG_ON(sizeof(*page) > PAGE_SIZE);
	page = vzalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, vfree_action,
							page), 0);
	return page;
}

static SBM_DEFINE_FUNC(knock, struct shared_page *, p)
{
	WRITE_ONCE(p->knock, 1);
	while (!READ_ONCE(p->answer))
		cpu_relax();
	return 0;
}

static SBM_DEFINE_FUNC(answer, struct shared_page *, p)
{
	while (!READ_ONCE(p->knock))
		cpu_relax();
	WRITE_ONCE(p->answer, 1);
	return 0;
}

static SBM_DEFINE_FUNC(wait_for_go, struct shared_page *, p)
{
	WRITE_ONCE(p->running, 1);
	while (!READ_ONCE(p->go))
		cpu_relax();
	return 0;
}

/* Spin until @irqs interrupts stopped the sandbox; report the loops. */
static SBM_DEFINE_FUNC(count_irqs, struct shared_page *, p,
		       unsigned long, irqs, u64 *, loops)
{
	u64 n = 0;

	while (READ_ONCE(p->irqs) < irqs)
		n++;
	*loops = n;
	return 0;
}

static SBM_DEFINE_FUNC(return_zero)
{
	return 0;
}

static SBM_DEFINE_FUNC(forever)
{
	for (;;)
		cpu_relax();
	return 0;
}

/*
 * The kernel serves an interrupt or NMI that stopped a sandbox from the
 * raise stub of its vector. Return: the vector of the stub at @ip, or -1
 * for an event that did not come from a stub.
 */
static int raise_stub_vector(unsigned long ip)
{
	unsigned long off = ip - (unsigned long)x86_sbm_raise_stubs;

	return off < 256 * SBM_RAISE_STUB_SIZE ? off / SBM_RAISE_STUB_SIZE : -1;
}

#define LONG_COMPUTATION_IRQS	100

struct irq_counter {
	struct hrtimer timer;
	struct shared_page *page;
};

static enum hrtimer_restart count_sandbox_irq(struct hrtimer *timer)
{
	struct irq_counter *c = container_of(timer, struct irq_counter, timer);
	struct pt_regs *regs = get_irq_regs();
	unsigned long irqs = READ_ONCE(c->page->irqs);

	/*
	 * An interrupt can also arrive on the last instruction of a stub,
	 * once the one raised there is served; that too follows a stop, so
	 * at least half of the count are stops.
	 */
	if (regs && raise_stub_vector(regs->ip) >= 0)
		WRITE_ONCE(c->page->irqs, ++irqs);
	if (irqs >= LONG_COMPUTATION_IRQS)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ms_to_ktime(1));
	return HRTIMER_RESTART;
}

/*
 * A long computation is interrupted many times and resumes each time.
 * A timer on this CPU counts the interrupts that stopped the sandbox, and
 * the target runs until the count is reached: returning at all proves
 * it. No clock is read; on a loaded host the case only takes longer.
 */
static void long_computation(struct kunit *test)
{
	struct shared_page *page = alloc_shared_page(test);
	struct irq_counter counter;
	u64 loops = 0, *out;
	struct sbm sbm;
	int ret;

	set_time_limit(test, PATIENT_TIME_LIMIT_MS);
	/*
	 * The timer writes the page at its direct-map address, not at the
	 * vmalloc one that the sandbox reads: a kernel access there would
	 * leave a global TLB entry on this CPU, on which the sandbox faults
	 * each time, and it gives up on an address after a few such faults.
	 */
	counter.page = page_address(vmalloc_to_page(page));
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	page = SBM_MAP_WRITABLE(&sbm, page, PAGE_SIZE);
	out = SBM_COPY_OUT(&sbm, &loops, sizeof(loops));

	/* The timer counts only on its own CPU: keep the sandbox there. */
	migrate_disable();
	hrtimer_init_on_stack(&counter.timer, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_PINNED_HARD);
	counter.timer.function = count_sandbox_irq;
	hrtimer_start(&counter.timer, ms_to_ktime(1),
		      HRTIMER_MODE_REL_PINNED_HARD);
	ret = sbm_call(&sbm, count_irqs, page, LONG_COMPUTATION_IRQS, out);
	hrtimer_cancel(&counter.timer);
	destroy_hrtimer_on_stack(&counter.timer);
	migrate_enable();
	sbm_destroy(&sbm);

	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_GT(test, loops, 0);
	KUNIT_EXPECT_GE(test, READ_ONCE(counter.page->irqs),
			LONG_COMPUTATION_IRQS);
}

static void time_limit(struct kunit *test)
{
	u64 start;
	struct sbm sbm;

	set_time_limit(test, 200);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	/*
	 * The limit counts sandbox time on local_clock(), which is monotonic
	 * on one CPU: staying on this one, the call cannot end before 200 ms
	 * of that clock have passed, however loaded the host is.
	 */
	migrate_disable();
	start = local_clock();
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, forever), -ETIMEDOUT);
	KUNIT_EXPECT_GE(test, local_clock() - start, 200 * NSEC_PER_MSEC);
	migrate_enable();
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -ETIMEDOUT);
	sbm_destroy(&sbm);
}

static SBM_DEFINE_FUNC(free_forever)
{
	void *nothing = NULL;

	for (;;) {
		OPTIMIZER_HIDE_VAR(nothing);
		kfree(nothing);
	}
	return 0;
}

/* Time in the services a target calls counts against its limit. */
static void service_time_limit(struct kunit *test)
{
	struct sbm sbm;

	set_time_limit(test, 200);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, free_forever), -ETIMEDOUT);
	sbm_destroy(&sbm);
}

/* A kernel thread that makes one sandboxed call of @run on @page. */
struct sandbox_thread {
	int (*run)(struct sbm *sbm, struct shared_page *page);
	struct shared_page *page;
	struct task_struct *task;
	struct completion done;
	int ret;
	int cpu;
};

static int run_knock(struct sbm *sbm, struct shared_page *page)
{
	return sbm_call(sbm, knock, page);
}

static int run_answer(struct sbm *sbm, struct shared_page *page)
{
	return sbm_call(sbm, answer, page);
}

static int run_wait_for_go(struct sbm *sbm, struct shared_page *page)
{
	return sbm_call(sbm, wait_for_go, page);
}

static int sandbox_thread_fn(void *data)
{
	struct sandbox_thread *t = data;
	struct sbm sbm;

	t->cpu = raw_smp_processor_id();
	sbm_init(&sbm);
	/* On failure, the call returns the error without running. */
	t->ret = t->run(&sbm, SBM_MAP_WRITABLE(&sbm, t->page, PAGE_SIZE));
	sbm_destroy(&sbm);
	complete(&t->done);
	return 0;
}

/* Create the thread, bound to @cpu; it starts when woken. */
static int create_sandbox_thread(struct sandbox_thread *t, int cpu,
				 const char *name)
{
	init_completion(&t->done);
	t->task = kthread_create(sandbox_thread_fn, t, "%s/%d", name, cpu);
	if (IS_ERR(t->task))
		return PTR_ERR(t->task);
	kthread_bind(t->task, cpu);
	get_task_struct(t->task);
	return 0;
}

/*
 * Wait for the call to end before kthread_stop(): stopping a thread that
 * has not run yet would skip its function altogether.
 */
static void finish_sandbox_thread(struct sandbox_thread *t)
{
	wait_for_completion(&t->done);
	kthread_stop(t->task);
	put_task_struct(t->task);
}

/* Never woken, the thread ends without running its function. */
static void drop_sandbox_thread(struct sandbox_thread *t)
{
	kthread_stop(t->task);
	put_task_struct(t->task);
}

/*
 * knock() in a thread on @cpu0, answer() in another on @cpu1: each waits
 * inside its sandbox for the other, so neither call ends unless both were
 * live at once.
 */
static void handshake(struct kunit *test, int cpu0, int cpu1,
		      struct sandbox_thread t[2])
{
	struct shared_page *page = alloc_shared_page(test);
	int i, err;

	set_time_limit(test, PATIENT_TIME_LIMIT_MS);
	t[0] = (struct sandbox_thread){ .run = run_knock, .page = page };
	t[1] = (struct sandbox_thread){ .run = run_answer, .page = page };
	KUNIT_ASSERT_EQ(test, create_sandbox_thread(&t[0], cpu0, "sbm_knock"),
			0);
	err = create_sandbox_thread(&t[1], cpu1, "sbm_answer");
	if (err)
		drop_sandbox_thread(&t[0]);
	KUNIT_ASSERT_EQ(test, err, 0);
	for (i = 0; i < 2; i++)
		wake_up_process(t[i].task);
	for (i = 0; i < 2; i++) {
		finish_sandbox_thread(&t[i]);
		KUNIT_EXPECT_EQ(test, t[i].ret, 0);
	}
	KUNIT_EXPECT_EQ(test, READ_ONCE(page->knock), 1);
	KUNIT_EXPECT_EQ(test, READ_ONCE(page->answer), 1);
}

/* Sandboxes run at the same time on both CPUs. */
static void concurrent_sandboxes(struct kunit *test)
{
	struct sandbox_thread t[2];

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	handshake(test, cpumask_nth(0, cpu_online_mask),
		  cpumask_nth(1, cpu_online_mask), t);
	KUNIT_EXPECT_NE(test, t[0].cpu, t[1].cpu);
}

/*
 * Two sandboxes share one CPU: whichever starts first spins until the
 * other has run, so it must be preempted inside the sandbox, and it
 * resumes intact to finish.
 */
static void preempted_sandboxes(struct kunit *test)
{
	int cpu = raw_smp_processor_id();
	struct sandbox_thread t[2];

	handshake(test, cpu, cpu, t);
	KUNIT_EXPECT_EQ(test, t[0].cpu, cpu);
	KUNIT_EXPECT_EQ(test, t[1].cpu, cpu);
}

static atomic_t sbm_test_nmis = ATOMIC_INIT(0);
static atomic_t sbm_test_nmis_in_sandbox = ATOMIC_INIT(0);
static atomic_t sbm_test_nmis_in_switch = ATOMIC_INIT(0);
static int sbm_test_nmi_cpu = -1;

static int sbm_test_nmi(unsigned int type, struct pt_regs *regs)
{
	if (raw_smp_processor_id() != READ_ONCE(sbm_test_nmi_cpu))
		return NMI_DONE;
	atomic_inc(&sbm_test_nmis);
	/*
	 * An NMI that stopped a sandbox is served from the NMI raise stub;
	 * one that hit the switch to or from a sandbox while the kernel's IDT
	 * was loaded, from the entry text (with the sandbox's IDT loaded, it
	 * is sent again after the switch). The stub of another vector can be
	 * where an NMI finds the kernel just after it raised an interrupt,
	 * with no sandbox stopped by the NMI; the NMI stub only after an
	 * earlier NMI did stop one.
	 */
	if (raise_stub_vector(regs->ip) == NMI_VECTOR)
		atomic_inc(&sbm_test_nmis_in_sandbox);
	else if (regs->ip >= (unsigned long)__entry_text_start &&
		 regs->ip < (unsigned long)__entry_text_end)
		atomic_inc(&sbm_test_nmis_in_switch);
	return NMI_HANDLED;
}

/*
 * Stay on this CPU and count the NMIs of another one, to which the test
 * sends them. Return: that CPU.
 */
static int sbm_test_watch_nmis(struct kunit *test)
{
	int cpu;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	atomic_set(&sbm_test_nmis, 0);
	atomic_set(&sbm_test_nmis_in_sandbox, 0);
	atomic_set(&sbm_test_nmis_in_switch, 0);
	/* Counting nothing until a CPU is chosen; asserting while migratable. */
	KUNIT_ASSERT_EQ(test, register_nmi_handler(NMI_LOCAL, sbm_test_nmi, 0,
						   "sbm_test"), 0);
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	WRITE_ONCE(sbm_test_nmi_cpu, cpu);
	return cpu;
}

static void sbm_test_unwatch_nmis(void)
{
	unregister_nmi_handler(NMI_LOCAL, "sbm_test");
	WRITE_ONCE(sbm_test_nmi_cpu, -1);
	migrate_enable();
}

/* Send an NMI to @cpu, then give it a moment, without sleeping. */
static void send_nmi(int cpu)
{
	int i;

	__apic_send_IPI(cpu, NMI_VECTOR);
	for (i = 0; i < 100; i++)
		cpu_relax();
}

/* More than enough for one NMI to find the spinning sandbox. */
#define MAX_NMIS_TO_STOP_SANDBOX	100000

/* NMIs that hit a running sandbox reach the kernel; the sandbox resumes. */
static void nmi_during_sandbox(struct kunit *test)
{
	struct shared_page *page = alloc_shared_page(test);
	struct sandbox_thread t = { .run = run_wait_for_go, .page = page };
	int cpu, i;

	set_time_limit(test, PATIENT_TIME_LIMIT_MS);
	/* Send NMIs from this CPU to the other, where the sandbox spins. */
	cpu = sbm_test_watch_nmis(test);
	if (create_sandbox_thread(&t, cpu, "sbm_nmi")) {
		sbm_test_unwatch_nmis();
		KUNIT_FAIL_AND_ABORT(test, "cannot create a kernel thread");
	}
	wake_up_process(t.task);

	/* From the moment the target says it runs until it is told to stop. */
	while (!READ_ONCE(page->running) && !completion_done(&t.done))
		cpu_relax();
	for (i = 0; i < MAX_NMIS_TO_STOP_SANDBOX &&
	     !atomic_read(&sbm_test_nmis_in_sandbox); i++)
		send_nmi(cpu);
	WRITE_ONCE(page->go, 1);
	finish_sandbox_thread(&t);
	sbm_test_unwatch_nmis();

	KUNIT_EXPECT_EQ(test, t.ret, 0);
	KUNIT_EXPECT_GT(test, atomic_read(&sbm_test_nmis_in_sandbox), 0);
	kunit_info(test, "%d NMIs, %d of them stopped the sandbox\n",
		   atomic_read(&sbm_test_nmis),
		   atomic_read(&sbm_test_nmis_in_sandbox));
}

struct short_calls {
	unsigned int done;
	unsigned int failed;
	bool stop;
	long stack_used;
	struct completion finished;
};

#define STACK_PAINT	0xa5

/*
 * The context page's stack below the frame, which only events during the
 * switch use: paint it, and later see how deep they went.
 */
static void paint_switch_stack(struct x86_sbm_ctx *ctx)
{
	memset(ctx + 1, STACK_PAINT, (void *)x86_sbm_frame(ctx) - (void *)(ctx + 1));
}

static long switch_stack_used(struct x86_sbm_ctx *ctx)
{
	u8 *p = (u8 *)(ctx + 1), *frame = (u8 *)x86_sbm_frame(ctx);

	while (p < frame && *p == STACK_PAINT)
		p++;
	return frame - p;
}

static int short_calls_thread(void *data)
{
	struct short_calls *calls = data;
	struct x86_sbm_ctx *ctx = NULL;
	struct sbm sbm;

	sbm_init(&sbm);
	if (sbm.private) {
		ctx = ((struct x86_sbm *)sbm.private)->ctx;
		paint_switch_stack(ctx);
	}
	while (!READ_ONCE(calls->stop)) {
		if (sbm_call(&sbm, return_zero))
			calls->failed++;
		WRITE_ONCE(calls->done, calls->done + 1);
	}
	calls->stack_used = ctx ? switch_stack_used(ctx) : -1;
	sbm_destroy(&sbm);
	complete(&calls->finished);
	return 0;
}

#define STORM_NMIS	10000
/*
 * What an NMI in the switch code may take of the context page's stack:
 * the CPU's frame, aligned to 16 bytes, vector, error code, one register.
 * Served there, an NMI would take twice as much, and nest.
 */
#define SWITCH_NMI_STACK	(9 * 8)

/*
 * A flood of NMIs at a CPU that keeps entering and leaving sandboxes:
 * some land in the switch code itself, which must neither lose them nor
 * let them pile up on its small stack. Every call must still succeed.
 */
static void nmi_storm(struct kunit *test)
{
	struct short_calls calls = { };
	struct task_struct *task;
	int cpu, i;

	cpu = sbm_test_watch_nmis(test);
	init_completion(&calls.finished);
	task = kthread_create(short_calls_thread, &calls, "sbm_storm");
	if (IS_ERR(task)) {
		sbm_test_unwatch_nmis();
		KUNIT_FAIL_AND_ABORT(test, "cannot create a kernel thread");
	}
	kthread_bind(task, cpu);
	get_task_struct(task);
	wake_up_process(task);
	/* As fast as the target CPU can take them, once calls are going. */
	while (!READ_ONCE(calls.done))
		cpu_relax();
	for (i = 0; i < STORM_NMIS; i++)
		send_nmi(cpu);
	WRITE_ONCE(calls.stop, true);
	/* As for the sandbox threads, kthread_stop() comes last. */
	wait_for_completion(&calls.finished);
	kthread_stop(task);
	put_task_struct(task);
	sbm_test_unwatch_nmis();

	KUNIT_EXPECT_GT(test, calls.done, 0);
	KUNIT_EXPECT_EQ(test, calls.failed, 0);
	KUNIT_EXPECT_GT(test, atomic_read(&sbm_test_nmis), 0);
	KUNIT_EXPECT_GE(test, calls.stack_used, 0);
	KUNIT_EXPECT_LE(test, calls.stack_used, SWITCH_NMI_STACK);
	kunit_info(test, "%u calls, %d NMIs: %d stopped a sandbox, %d hit the switch code; %ld bytes of the switch stack used\n",
		   calls.done, atomic_read(&sbm_test_nmis),
		   atomic_read(&sbm_test_nmis_in_sandbox),
		   atomic_read(&sbm_test_nmis_in_switch), calls.stack_used);
}

static struct kunit_case sbm_x86_test_cases[] = {
	KUNIT_CASE_PARAM(violation_contained, violation_gen_params),
	KUNIT_CASE(args_over_limit_refused),
	KUNIT_CASE(input_is_readonly),
	KUNIT_CASE(no_exec_from_buffer),
	KUNIT_CASE(stack_moved_to_kernel_stack),
	KUNIT_CASE(mapped_readonly_is_readonly),
	KUNIT_CASE(map_kernel_image_refused),
	KUNIT_CASE_SLOW(long_computation),
	KUNIT_CASE(time_limit),
	KUNIT_CASE(service_time_limit),
	KUNIT_CASE(concurrent_sandboxes),
	KUNIT_CASE(preempted_sandboxes),
	KUNIT_CASE(nmi_during_sandbox),
	KUNIT_CASE(nmi_storm),
	{}
};

static struct kunit_suite sbm_x86_test_suite = {
	.name = "sandbox_mode_x86",
	.test_cases = sbm_x86_test_cases,
};

kunit_test_suite(sbm_x86_test_suite);

MODULE_DESCRIPTION("KUnit tests for x86-64 SandBox Mode");
MODULE_LICENSE("GPL");
