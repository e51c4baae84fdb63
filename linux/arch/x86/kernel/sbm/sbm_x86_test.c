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
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/nmi.h>
#include <linux/sbm.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/task.h>
#include <trace/events/sbm.h>
#include <asm/apic.h>
#include <asm/sections.h>
#include <asm/tsc.h>

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

static void record_kind(void *data, const struct sbm *sbm, sbm_func func,
			const struct sbm_abort *abort)
{
	*(int *)data = abort->kind;
}

/*
 * Every violation ends the sandbox with -EFAULT, classified for the
 * statistics; the kernel carries on.
 */
static void violation_contained(struct kunit *test)
{
	const struct violation *v = test->param_value;
	int kind = -1, ret;
	struct sbm sbm;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_ASSERT_EQ(test, register_trace_sbm_abort(record_kind, &kind), 0);
	ret = sbm_exec(&sbm, v->func, NULL);
	unregister_trace_sbm_abort(record_kind, &kind);
	tracepoint_synchronize_unregister();
	if (v->func == do_ac_misaligned && ret == 1) {
		sbm_destroy(&sbm);
		kunit_skip(test, "this CPU does not raise #AC (QEMU TCG does not)");
	}
	KUNIT_EXPECT_EQ(test, ret, -EFAULT);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -EFAULT);
	KUNIT_EXPECT_EQ(test, kind, v->kind);
	sbm_destroy(&sbm);

	/* A new instance on the same CPU state still works. */
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_exec(&sbm, do_pf_read_user, NULL), -EFAULT);
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

/* Spin for @cycles TSC cycles, then report how many loops that took. */
static SBM_DEFINE_FUNC(spin, u64, cycles, u64 *, loops)
{
	u64 start = rdtsc(), n = 0;

	while (rdtsc() - start < cycles)
		n++;
	*loops = n;
	return 0;
}

static u64 ms_to_cycles(unsigned int ms)
{
	return (u64)tsc_khz * ms;
}

struct spin_run {
	unsigned int ms;
	u64 loops;
	int ret;
	int cpu;
	unsigned long switches;
};

static void run_spin(struct spin_run *run)
{
	u64 *out;
	struct sbm sbm;

	sbm_init(&sbm);
	out = SBM_COPY_OUT(&sbm, &run->loops, sizeof(run->loops));
	run->ret = sbm_call(&sbm, spin, ms_to_cycles(run->ms), out);
	sbm_destroy(&sbm);
}

/* A long computation survives hundreds of ticks and resumes each time. */
static void long_computation(struct kunit *test)
{
	unsigned int saved = sbm_time_limit_ms;
	struct spin_run run = { .ms = 2000 };
	unsigned long start = jiffies;
	unsigned long nvcsw = current->nvcsw + current->nivcsw;
	u64 clock = local_clock();

	sbm_time_limit_ms = 10000;
	run_spin(&run);
	sbm_time_limit_ms = saved;
	KUNIT_EXPECT_EQ(test, run.ret, 0);
	KUNIT_EXPECT_GT(test, run.loops, 0);
	KUNIT_EXPECT_GE(test, local_clock() - clock, 1900 * NSEC_PER_MSEC);
	/* An emulator may lose ticks; half of them still makes hundreds. */
	KUNIT_EXPECT_GE(test, jiffies - start, msecs_to_jiffies(1000));
	kunit_info(test, "%lu ticks, %lu context switches\n", jiffies - start,
		   current->nvcsw + current->nivcsw - nvcsw);
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

static void time_limit(struct kunit *test)
{
	unsigned int saved = sbm_time_limit_ms;
	u64 start = local_clock();
	struct sbm sbm;

	sbm_time_limit_ms = 200;
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, forever), -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -ETIMEDOUT);
	sbm_destroy(&sbm);
	sbm_time_limit_ms = saved;
	/* The limit counts sandbox time on this clock: it cannot come early. */
	KUNIT_EXPECT_GE(test, local_clock() - start, 200 * NSEC_PER_MSEC);
}

static int spin_thread(void *data)
{
	struct spin_run *run = data;

	run->cpu = raw_smp_processor_id();
	run_spin(run);
	run->switches = current->nvcsw + current->nivcsw;
	return 0;
}

static struct task_struct *start_spin(struct spin_run *run, int cpu,
				      const char *name)
{
	struct task_struct *task;

	task = kthread_create(spin_thread, run, "%s/%d", name, cpu);
	if (IS_ERR(task))
		return task;
	kthread_bind(task, cpu);
	get_task_struct(task);
	wake_up_process(task);
	return task;
}

/* Sandboxes run at the same time on both CPUs. */
static void concurrent_sandboxes(struct kunit *test)
{
	struct spin_run runs[2] = { { .ms = 300 }, { .ms = 300 } };
	struct task_struct *tasks[2];
	int i;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	for (i = 0; i < 2; i++) {
		tasks[i] = start_spin(&runs[i], cpumask_nth(i, cpu_online_mask),
				      "sbm_spin");
		KUNIT_ASSERT_FALSE(test, IS_ERR(tasks[i]));
	}
	for (i = 0; i < 2; i++) {
		kthread_stop(tasks[i]);
		put_task_struct(tasks[i]);
		KUNIT_EXPECT_EQ(test, runs[i].ret, 0);
		KUNIT_EXPECT_GT(test, runs[i].loops, 0);
	}
	KUNIT_EXPECT_NE(test, runs[0].cpu, runs[1].cpu);
}

/* Two sandboxes share one CPU: each is preempted and resumes intact. */
static void preempted_sandboxes(struct kunit *test)
{
	struct spin_run runs[2] = { { .ms = 300 }, { .ms = 300 } };
	int cpu = raw_smp_processor_id();
	struct task_struct *tasks[2];
	int i;

	for (i = 0; i < 2; i++) {
		tasks[i] = start_spin(&runs[i], cpu, "sbm_share");
		KUNIT_ASSERT_FALSE(test, IS_ERR(tasks[i]));
	}
	for (i = 0; i < 2; i++) {
		kthread_stop(tasks[i]);
		put_task_struct(tasks[i]);
		KUNIT_EXPECT_EQ(test, runs[i].ret, 0);
		KUNIT_EXPECT_EQ(test, runs[i].cpu, cpu);
	}
	KUNIT_EXPECT_GT(test, runs[0].switches + runs[1].switches, 2);
}

static atomic_t sbm_test_nmis = ATOMIC_INIT(0);
static atomic_t sbm_test_nmis_in_sandbox = ATOMIC_INIT(0);
static atomic_t sbm_test_nmis_in_switch = ATOMIC_INIT(0);
static int sbm_test_nmi_cpu = -1;

static int sbm_test_nmi(unsigned int type, struct pt_regs *regs)
{
	unsigned long raise = (unsigned long)x86_sbm_raise_stubs;

	if (raw_smp_processor_id() != READ_ONCE(sbm_test_nmi_cpu))
		return NMI_DONE;
	atomic_inc(&sbm_test_nmis);
	/*
	 * An NMI that stopped a sandbox is served from its raise stub; one
	 * that hit the switch to or from a sandbox, from the entry text.
	 */
	if (regs->ip - raise < 256 * SBM_RAISE_STUB_SIZE)
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
	migrate_disable();
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	WRITE_ONCE(sbm_test_nmi_cpu, cpu);
	atomic_set(&sbm_test_nmis, 0);
	atomic_set(&sbm_test_nmis_in_sandbox, 0);
	atomic_set(&sbm_test_nmis_in_switch, 0);
	KUNIT_ASSERT_EQ(test, register_nmi_handler(NMI_LOCAL, sbm_test_nmi, 0,
						   "sbm_test"), 0);
	return cpu;
}

static void sbm_test_unwatch_nmis(void)
{
	unregister_nmi_handler(NMI_LOCAL, "sbm_test");
	WRITE_ONCE(sbm_test_nmi_cpu, -1);
	migrate_enable();
}

/* NMIs that hit a running sandbox reach the kernel; the sandbox resumes. */
static void nmi_during_sandbox(struct kunit *test)
{
	struct spin_run run = { .ms = 500 };
	struct task_struct *task;
	int cpu, i;

	/* Send NMIs from this CPU to the other, where the sandbox spins. */
	cpu = sbm_test_watch_nmis(test);

	task = start_spin(&run, cpu, "sbm_nmi");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	for (i = 0; i < 20; i++) {
		msleep(20);
		__apic_send_IPI(cpu, NMI_VECTOR);
	}
	kthread_stop(task);
	put_task_struct(task);
	sbm_test_unwatch_nmis();

	KUNIT_EXPECT_EQ(test, run.ret, 0);
	KUNIT_EXPECT_GT(test, atomic_read(&sbm_test_nmis_in_sandbox), 0);
	kunit_info(test, "%d NMIs, %d of them stopped the sandbox\n",
		   atomic_read(&sbm_test_nmis),
		   atomic_read(&sbm_test_nmis_in_sandbox));
}

struct short_calls {
	unsigned int done;
	unsigned int failed;
	bool stop;
};

static int short_calls_thread(void *data)
{
	struct short_calls *calls = data;
	struct sbm sbm;

	sbm_init(&sbm);
	while (!READ_ONCE(calls->stop) && !kthread_should_stop()) {
		if (sbm_call(&sbm, return_zero))
			calls->failed++;
		calls->done++;
	}
	sbm_destroy(&sbm);
	return 0;
}

/*
 * A flood of NMIs at a CPU that keeps entering and leaving sandboxes:
 * some land in the switch code itself, where the CR3 and IDT they find
 * must be restored. Every call must still succeed.
 */
static void nmi_storm(struct kunit *test)
{
	struct short_calls calls = { };
	struct task_struct *task;
	unsigned long end;
	int cpu, i;

	cpu = sbm_test_watch_nmis(test);
	task = kthread_create(short_calls_thread, &calls, "sbm_storm");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	kthread_bind(task, cpu);
	get_task_struct(task);
	wake_up_process(task);
	end = jiffies + msecs_to_jiffies(1000);
	/* As fast as the target CPU can take them, without sleeping. */
	while (time_before(jiffies, end)) {
		__apic_send_IPI(cpu, NMI_VECTOR);
		for (i = 0; i < 100; i++)
			cpu_relax();
	}
	WRITE_ONCE(calls.stop, true);
	kthread_stop(task);
	put_task_struct(task);
	sbm_test_unwatch_nmis();

	KUNIT_EXPECT_GT(test, calls.done, 0);
	KUNIT_EXPECT_EQ(test, calls.failed, 0);
	KUNIT_EXPECT_GT(test, atomic_read(&sbm_test_nmis), 0);
	kunit_info(test, "%u calls, %d NMIs: %d stopped a sandbox, %d hit the switch code\n",
		   calls.done, atomic_read(&sbm_test_nmis),
		   atomic_read(&sbm_test_nmis_in_sandbox),
		   atomic_read(&sbm_test_nmis_in_switch));
}

static struct kunit_case sbm_x86_test_cases[] = {
	KUNIT_CASE_PARAM(violation_contained, violation_gen_params),
	KUNIT_CASE(input_is_readonly),
	KUNIT_CASE(no_exec_from_buffer),
	KUNIT_CASE(mapped_readonly_is_readonly),
	KUNIT_CASE(map_kernel_image_refused),
	KUNIT_CASE_SLOW(long_computation),
	KUNIT_CASE(time_limit),
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
