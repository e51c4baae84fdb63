// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit attack suite for x86-64 strong isolation: targets that act as a
 * compromised parser would, trying to leave CPU state behind for the
 * kernel, to reach CPL 0, to read what they were not given, or to crash
 * the kernel through misuse of the API. Each case states the class of
 * attack it stands for; Documentation/arch/x86/sandbox-mode.rst lists
 * them in its inventory.
 */

#define pr_fmt(fmt) "sbm_attack_test: " fmt

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/processor.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/current.h>
#include <asm/debugreg.h>
#include <asm/fsgsbase.h>
#include <asm/msr.h>
#include <asm/pkru.h>
#include <asm/sections.h>
#include <asm/tsc.h>
#include <trace/events/sbm.h>

#include "sbm.h"

#define SECRET		0x5ec7e75ec7e75ec7UL
#define FLAGS_KERNEL	(X86_EFLAGS_DF | X86_EFLAGS_AC | X86_EFLAGS_NT | \
			 X86_EFLAGS_TF | X86_EFLAGS_IF | X86_EFLAGS_IOPL | \
			 X86_EFLAGS_RF | X86_EFLAGS_VIF | X86_EFLAGS_VIP | \
			 X86_EFLAGS_ID)

/* What the last abort said, through the sbm_abort tracepoint. */
struct last_abort {
	enum sbm_abort_kind kind;
	char reason[128];
};

static void last_abort_probe(void *data, const struct sbm *sbm,
			     sbm_func func, const struct sbm_abort *abort)
{
	struct last_abort *last = data;

	last->kind = abort->kind;
	strscpy(last->reason, abort->reason);
}

static int watch_aborts(struct last_abort *last)
{
	last->kind = SBM_ABORT_NR;
	last->reason[0] = 0;
	return register_trace_sbm_abort(last_abort_probe, last);
}

static void unwatch_aborts(struct last_abort *last)
{
	unregister_trace_sbm_abort(last_abort_probe, last);
	tracepoint_synchronize_unregister();
}

/* Run @func once in a new sandbox; return what sbm_exec() returned. */
static int run_once(sbm_func func, void *data)
{
	struct sbm sbm;
	int ret;

	ret = sbm_init(&sbm);
	if (!ret)
		ret = sbm_exec(&sbm, func, data);
	sbm_destroy(&sbm);
	return ret;
}

struct flags_attack {
	const char *name;
	sbm_func func;
	int ret;
};

static const struct flags_attack flags_attacks[] = {
	{ "df_return", sbm_attack_std_ret, 0 },
	{ "df_fault", sbm_attack_std_fault, -EFAULT },
	/* Spins for 20 ms of TSC time, across any interrupt that comes. */
	{ "df_interrupted", sbm_attack_std_spin, 0 },
	{ "ac_return", sbm_attack_ac_ret, 0 },
	{ "ac_fault", sbm_attack_ac_fault, -EFAULT },
	{ "nt_return", sbm_attack_nt_ret, 0 },
	{ "id_toggled", sbm_attack_id_ret, 0 },
	{ "vif_vip_return", sbm_attack_vif_vip_ret, 0 },
	{ "rf_fault", sbm_attack_rf_fault, -EFAULT },
	{ "tf_single_step", sbm_attack_single_step, -EFAULT },
};

static void flags_attack_desc(const struct flags_attack *a, char *desc)
{
	strscpy(desc, a->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(flags_attack, flags_attacks, flags_attack_desc);

/*
 * RFLAGS bits that interrupt gates leave alone (DF, AC) or that the
 * target may set with POPF must be the kernel's again when sbm_exec()
 * returns, and a copy-out (a memcpy, which DF would reverse) must work.
 */
static void rflags_restored(struct kunit *test)
{
	const struct flags_attack *a = test->param_value;
	unsigned long before, after;
	u8 src[64], dst[64] = { }, *out;
	struct sbm sbm;
	int ret;

	memset(src, 0x5a, sizeof(src));
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	out = SBM_COPY_INOUT(&sbm, src, sizeof(src));
	KUNIT_ASSERT_NOT_NULL(test, out);
	local_irq_disable();
	before = native_save_fl();
	local_irq_enable();
	ret = sbm_exec(&sbm, a->func, a->func == sbm_attack_std_spin ?
		       (void *)((u64)tsc_khz * 20) : NULL);
	local_irq_disable();
	after = native_save_fl();
	local_irq_enable();
	memcpy(dst, src, sizeof(dst));
	sbm_destroy(&sbm);

	KUNIT_EXPECT_EQ(test, ret, a->ret);
	KUNIT_EXPECT_EQ(test, after & FLAGS_KERNEL, before & FLAGS_KERNEL);
	KUNIT_EXPECT_EQ(test, dst[0], 0x5a);
	KUNIT_EXPECT_EQ(test, dst[63], 0x5a);
}

/* DR6 keeps no trace of a #DB in the sandbox, for the kernel's handler. */
static void dr6_clean(struct kunit *test)
{
	sbm_func funcs[] = { sbm_attack_single_step, sbm_attack_icebp };
	unsigned long dr6;
	int i;

	for (i = 0; i < ARRAY_SIZE(funcs); i++) {
		migrate_disable();
		KUNIT_EXPECT_EQ(test, run_once(funcs[i], NULL), -EFAULT);
		get_debugreg(dr6, 6);
		migrate_enable();
		KUNIT_EXPECT_EQ(test, dr6 & ~DR6_RESERVED, 0);
	}
}

/* PKRU written by the target does not stay with the calling task. */
static void pkru_restored(struct kunit *test)
{
	u32 before, after;
	int ret;

	if (!cpu_feature_enabled(X86_FEATURE_OSPKE))
		kunit_skip(test, "no protection keys");
	migrate_disable();
	before = read_pkru();
	/* Every key denied but key 0, which its own pages use. */
	ret = run_once(sbm_attack_wrpkru, (void *)(unsigned long)(~before & ~3));
	after = read_pkru();
	migrate_enable();
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, after, before);
}

/*
 * The target's own PKRU is the target's across the exits and re-entries
 * of a call: a page-fault that protection keys raise ends the sandbox
 * instead of being retried (found by the boundary fuzzer's oracle: the
 * retry ran the target on with the kernel's PKRU), and a service call
 * leaves the target the PKRU it had.
 */
static void pkru_kept_for_target(struct kunit *test)
{
	struct last_abort last;

	if (!cpu_feature_enabled(X86_FEATURE_OSPKE))
		kunit_skip(test, "no protection keys");
	KUNIT_ASSERT_EQ(test, watch_aborts(&last), 0);
	KUNIT_EXPECT_EQ(test, run_once(sbm_attack_pkru_deny_write, NULL),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, last.kind, SBM_ABORT_PAGE_FAULT);
	unwatch_aborts(&last);
	KUNIT_EXPECT_EQ(test, run_once(sbm_attack_pkru_across_service, NULL), 0);
}

/*
 * A target starts with an FS base of zero, not with its caller's thread
 * pointer, and keeps the FS base it set across the exits of a call (found
 * by the boundary fuzzer's oracle: a target got its caller's FS base).
 */
static void fs_base_private_to_target(struct kunit *test)
{
	unsigned long fs;

	if (!cpu_feature_enabled(X86_FEATURE_FSGSBASE))
		kunit_skip(test, "no FSGSBASE");
	migrate_disable();
	rdmsrl(MSR_FS_BASE, fs);
	/* As a user process calling into the kernel leaves it. */
	wrmsrl(MSR_FS_BASE, SECRET >> 17);
	KUNIT_EXPECT_EQ(test, run_once(sbm_attack_fs_base_private, NULL), 0);
	wrmsrl(MSR_FS_BASE, fs);
	migrate_enable();
}

/*
 * The GS selector and base that a target set are its own across the exits
 * of a call, as its FS base is (found by the boundary fuzzer's oracle: an
 * interrupt in between put the kernel's GS back under the target).
 */
static void gs_kept_for_target(struct kunit *test)
{
	if (!cpu_feature_enabled(X86_FEATURE_FSGSBASE))
		kunit_skip(test, "no FSGSBASE");
	KUNIT_EXPECT_EQ(test, run_once(sbm_attack_gs_kept, NULL), 0);
}

/* FS and GS: selectors and bases are the kernel's after any exit. */
static void segments_restored(struct kunit *test)
{
	unsigned long fs_before, fs_after, gs_before, gs_after;

	migrate_disable();
	rdmsrl(MSR_FS_BASE, fs_before);
	rdmsrl(MSR_GS_BASE, gs_before);
	KUNIT_EXPECT_EQ(test, run_once(sbm_attack_load_segments, NULL), 0);
	if (cpu_feature_enabled(X86_FEATURE_FSGSBASE)) {
		KUNIT_EXPECT_EQ(test, run_once(sbm_attack_wrgsbase,
					       (void *)SECRET), 0);
		KUNIT_EXPECT_EQ(test, run_once(sbm_attack_wrfsbase,
					       (void *)SECRET), 0);
	}
	rdmsrl(MSR_FS_BASE, fs_after);
	rdmsrl(MSR_GS_BASE, gs_after);
	migrate_enable();
	KUNIT_EXPECT_EQ(test, fs_after, fs_before);
	KUNIT_EXPECT_EQ(test, gs_after, gs_before);
}

struct cpl0_attack {
	const char *name;
	sbm_func func;
	unsigned int feature;
	bool emulators_miss;
};

#define CPL0_ATTACK(n, f)	{ n, f, 0 }

static const struct cpl0_attack cpl0_attacks[] = {
	CPL0_ATTACK("sysenter", sbm_attack_sysenter),
	CPL0_ATTACK("syscall", sbm_attack_syscall),
	CPL0_ATTACK("sysret", sbm_attack_sysret),
	CPL0_ATTACK("into", sbm_attack_into),
	CPL0_ATTACK("icebp", sbm_attack_icebp),
	CPL0_ATTACK("lret_user32", sbm_attack_lret_user32),
	CPL0_ATTACK("lret_kernel_cs", sbm_attack_lret_kernel),
	CPL0_ATTACK("iret_kernel_cs", sbm_attack_iret_kernel),
	CPL0_ATTACK("ljmp_tss", sbm_attack_ljmp_tss),
	CPL0_ATTACK("lcall_kernel_cs", sbm_attack_lcall_kernel),
	CPL0_ATTACK("swapgs", sbm_attack_swapgs),
	CPL0_ATTACK("lidt", sbm_attack_lidt),
	CPL0_ATTACK("lgdt", sbm_attack_lgdt),
	CPL0_ATTACK("ltr", sbm_attack_ltr),
	CPL0_ATTACK("invlpg", sbm_attack_invlpg),
	CPL0_ATTACK("wbinvd", sbm_attack_wbinvd),
	CPL0_ATTACK("clts", sbm_attack_clts),
	CPL0_ATTACK("mov_dr7", sbm_attack_mov_dr7),
	CPL0_ATTACK("xsetbv", sbm_attack_xsetbv),
	CPL0_ATTACK("sti", sbm_attack_sti),
	CPL0_ATTACK("rdpmc", sbm_attack_rdpmc),
	{ "sgdt", sbm_attack_sgdt, X86_FEATURE_UMIP },
	{ "sidt", sbm_attack_sidt, X86_FEATURE_UMIP },
	{ "sldt", sbm_attack_sldt, X86_FEATURE_UMIP },
	{ "str", sbm_attack_str, X86_FEATURE_UMIP },
	{ "smsw", sbm_attack_smsw, X86_FEATURE_UMIP },
	CPL0_ATTACK("ldmxcsr", sbm_attack_ldmxcsr),
	CPL0_ATTACK("fxrstor", sbm_attack_fxrstor),
	/* QEMU's TCG does not check CR0.TS for XRSTOR or EMMS. */
	{ "xrstor", sbm_attack_xrstor, 0, true },
	CPL0_ATTACK("vzeroall", sbm_attack_vzeroall),
	{ "emms", sbm_attack_emms, 0, true },
};

static void cpl0_attack_desc(const struct cpl0_attack *a, char *desc)
{
	strscpy(desc, a->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cpl0_attack, cpl0_attacks, cpl0_attack_desc);

/*
 * Every way into CPL 0 and every privileged, UMIP-covered or FPU
 * instruction ends the sandbox; the kernel carries on.
 */
static void cpl0_refused(struct kunit *test)
{
	const struct cpl0_attack *a = test->param_value;

	int ret;

	if (a->feature && !boot_cpu_has(a->feature))
		kunit_skip(test, "CPU feature %u not enabled", a->feature);
	ret = run_once(a->func, NULL);
	if (a->emulators_miss && !ret)
		kunit_skip(test, "%s runs (QEMU TCG); FPU registers invalidated",
			   a->name);
	KUNIT_EXPECT_EQ(test, ret, -EFAULT);
}

/* INT n, for all 256 vectors. */
static void int_n_refused(struct kunit *test)
{
	unsigned int vector, ok = 0;
	sbm_func func;

	for (vector = 0; vector < 256; vector++) {
		func = (sbm_func)(sbm_attack_int_stubs + vector * 16);
		if (run_once(func, NULL) == -EFAULT)
			ok++;
		else
			kunit_err(test, "int $%u did not end the sandbox\n",
				  vector);
	}
	KUNIT_EXPECT_EQ(test, ok, 256);
}

/* Instructions that CPL 3 may run: allowed, and they reveal nothing. */
static void unprivileged_allowed(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, run_once(sbm_attack_rdtsc, NULL), 0);
	if (cpu_feature_enabled(X86_FEATURE_RDTSCP))
		KUNIT_EXPECT_EQ(test, run_once(sbm_attack_rdtscp, NULL), 0);
	if (cpu_feature_enabled(X86_FEATURE_RDPID))
		KUNIT_EXPECT_EQ(test, run_once(sbm_attack_rdpid, NULL), 0);
}

static SBM_DEFINE_FUNC(read_word, const unsigned long *, addr,
		       unsigned long *, out)
{
	*out = READ_ONCE(*addr);
	return 0;
}

/* Read one word at @addr from a new sandbox. Return: sbm_exec()'s result. */
static int read_from_sandbox(const unsigned long *addr, unsigned long *val)
{
	unsigned long *out;
	struct sbm sbm;
	int ret;

	*val = 0;
	sbm_init(&sbm);
	out = SBM_COPY_OUT(&sbm, val, sizeof(*val));
	ret = sbm_call(&sbm, read_word, addr, out);
	sbm_destroy(&sbm);
	return ret;
}

/* A secret in the caller's stack frame is out of reach. */
static void caller_stack_unreadable(struct kunit *test)
{
	unsigned long secret[4] = { SECRET, SECRET, SECRET, SECRET }, val;

	barrier_data(secret);
	KUNIT_EXPECT_EQ(test, read_from_sandbox(&secret[2], &val), -EFAULT);
	KUNIT_EXPECT_NE(test, val, SECRET);
}

static SBM_DEFINE_FUNC(read_canary, unsigned long *, out)
{
	*out = this_cpu_read(fixed_percpu_data.stack_canary);
	return 0;
}

/* The stack-protector canary the target sees is not the kernel's. */
static void canary_private(struct kunit *test)
{
	unsigned long *out, val = 0;
	struct sbm sbm;

	if (!IS_ENABLED(CONFIG_STACKPROTECTOR))
		kunit_skip(test, "no stack protector");
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	out = SBM_COPY_OUT(&sbm, &val, sizeof(val));
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, read_canary, out), 0);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_NE(test, val, current->stack_canary);
	KUNIT_EXPECT_NE(test, val, 0);
}

/*
 * Every CPU's per-CPU canary, at the address that __per_cpu_offset[] in
 * read-only data gives away: unreadable, or not the kernel's value.
 */
static void percpu_canaries_private(struct kunit *test)
{
	unsigned long val, kernel;
	unsigned int cpu;
	int ret;

	if (!IS_ENABLED(CONFIG_STACKPROTECTOR))
		kunit_skip(test, "no stack protector");
	for_each_possible_cpu(cpu) {
		const unsigned long *addr =
			&per_cpu(fixed_percpu_data.stack_canary, cpu);

		ret = read_from_sandbox(addr, &val);
		kernel = READ_ONCE(*addr);
		if (ret != -EFAULT) {
			KUNIT_EXPECT_EQ(test, ret, 0);
			KUNIT_EXPECT_NE_MSG(test, val, kernel, "CPU %u", cpu);
		}
	}
}

static SBM_DEFINE_FUNC(copy_page_at, const u8 *, page, u8 *, out)
{
	memcpy(out, page, PAGE_SIZE);
	return 0;
}

/*
 * Every page of every CPU's static per-CPU area, at the address that
 * __per_cpu_offset[] in read-only data gives away: unreadable, or one of
 * the stand-ins, which hold no canary and no "current" of the kernel's.
 */
static void other_cpus_percpu_private(struct kunit *test)
{
	unsigned long start = (unsigned long)__per_cpu_start & PAGE_MASK;
	unsigned long end = PAGE_ALIGN((unsigned long)__per_cpu_end);
	unsigned long off, base, canary_off, hot_off;
	unsigned int cpu, readable = 0;
	struct task_struct *task;
	unsigned long canary;
	struct sbm sbm;
	bool stand_in;
	u8 *buf, *out;
	int ret;

	canary_off = (unsigned long)&fixed_percpu_data.stack_canary;
	hot_off = (unsigned long)&pcpu_hot.current_task;
	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for_each_possible_cpu(cpu) {
		base = per_cpu_offset(cpu);
		for (off = start; off < end; off += PAGE_SIZE) {
			memset(buf, 0, PAGE_SIZE);
			KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
			out = SBM_COPY_OUT(&sbm, buf, PAGE_SIZE);
			ret = sbm_call(&sbm, copy_page_at,
				       (const u8 *)(base + off), out);
			sbm_destroy(&sbm);
			if (ret == -EFAULT)
				continue;
			KUNIT_EXPECT_EQ(test, ret, 0);
			readable++;
			stand_in = off == sbm_shadow_page_offset(0) ||
				   off == sbm_shadow_page_offset(1);
			KUNIT_EXPECT_TRUE_MSG(test, stand_in,
					      "CPU %u: per-CPU page at offset %#lx readable",
					      cpu, off);
			canary = *(unsigned long *)(buf + (canary_off & ~PAGE_MASK));
			task = *(struct task_struct **)(buf + (hot_off & ~PAGE_MASK));
			if (IS_ENABLED(CONFIG_STACKPROTECTOR) &&
			    (canary_off & PAGE_MASK) == off)
				KUNIT_EXPECT_NE_MSG(test, canary,
						    per_cpu(fixed_percpu_data.stack_canary, cpu),
						    "CPU %u: canary", cpu);
			if ((hot_off & PAGE_MASK) == off)
				KUNIT_EXPECT_PTR_NE_MSG(test, task,
							per_cpu(pcpu_hot.current_task, cpu),
							"CPU %u: current", cpu);
		}
	}
	kunit_info(test, "%u CPUs, %lu per-CPU pages each, %u readable in all\n",
		   num_possible_cpus(), (end - start) >> PAGE_SHIFT, readable);
}

/*
 * The page around pcpu_hot (where "current" lives) holds per-CPU state
 * of the kernel: in the sandbox it is a private page that has nothing of
 * it but what compiled code reads.
 */
static void percpu_page_private(struct kunit *test)
{
	unsigned long hot = (unsigned long)this_cpu_ptr(&pcpu_hot);
	unsigned long page = hot & PAGE_MASK, off = hot - page, i;
	unsigned int nonzero = 0;
	struct pcpu_hot *copy;
	struct sbm sbm;
	u8 *buf, *out;
	int ret;

	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	out = SBM_COPY_OUT(&sbm, buf, PAGE_SIZE);
	ret = sbm_call(&sbm, copy_page_at, (const u8 *)page, out);
	sbm_destroy(&sbm);
	if (ret == -EFAULT)
		return;
	KUNIT_ASSERT_EQ(test, ret, 0);
	copy = (struct pcpu_hot *)(buf + off);
	KUNIT_EXPECT_PTR_NE(test, copy->current_task, current);
	for (i = 0; i < PAGE_SIZE; i++)
		if ((i < off || i >= off + sizeof(*copy)) && buf[i])
			nonzero++;
	KUNIT_EXPECT_EQ(test, nonzero, 0);
}

struct current_view {
	struct task_struct *task;
	pid_t pid;
	unsigned long stack;
};

static SBM_DEFINE_FUNC(look_at_current, struct current_view *, out)
{
	struct task_struct *task = current;

	out->task = task;
	out->pid = READ_ONCE(task->pid);
	out->stack = (unsigned long)READ_ONCE(task->stack);
	return 0;
}

/*
 * "current" in the sandbox is a private stand-in: not the caller's
 * task_struct, and its stack is not the caller's stack.
 */
static void current_private(struct kunit *test)
{
	struct current_view view = { }, *out;
	unsigned long val;
	struct sbm sbm;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	out = SBM_COPY_OUT(&sbm, &view, sizeof(view));
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, look_at_current, out), 0);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_PTR_NE(test, view.task, current);
	KUNIT_EXPECT_NE(test, view.pid, current->pid);
	KUNIT_EXPECT_NE(test, view.stack, (unsigned long)current->stack);
	/* Nor can the target read the real ones by address. */
	KUNIT_EXPECT_EQ(test, read_from_sandbox((unsigned long *)current,
						&val), -EFAULT);
	KUNIT_EXPECT_EQ(test, read_from_sandbox(current->stack + THREAD_SIZE -
						PAGE_SIZE, &val), -EFAULT);
}

#define LEFTOVER_WORDS	64

static SBM_DEFINE_FUNC(leave_secret, unsigned long, secret)
{
	unsigned long words[LEFTOVER_WORDS];
	int i;

	for (i = 0; i < LEFTOVER_WORDS; i++)
		words[i] = secret;
	barrier_data(words);
	return 0;
}

/* Count words equal to @secret below this function's frame. */
static SBM_DEFINE_FUNC(find_secret, unsigned long, secret,
		       unsigned int *, found)
{
	unsigned long *sp = (unsigned long *)current_stack_pointer;
	unsigned int i, n = 0;

	for (i = 16; i < 512; i++)
		n += READ_ONCE(sp[-(long)i]) == secret;
	*found = n;
	return 0;
}

/* What one call leaves on the sandbox stack, the next one cannot read. */
static void stack_cleared_between_calls(struct kunit *test)
{
	unsigned int found = ~0U, *out;
	struct sbm sbm;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	out = SBM_COPY_OUT(&sbm, &found, sizeof(found));
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, leave_secret, SECRET), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, find_secret, SECRET, out), 0);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, found, 0);
}

struct other_task {
	struct sbm *sbm;
	const unsigned long *addr;
	unsigned long val;
	int ret;
	unsigned long stack;
	struct completion done;
};

static int other_task_fn(void *data)
{
	struct other_task *t = data;
	unsigned long *out;

	t->stack = (unsigned long)current->stack;
	out = SBM_COPY_OUT(t->sbm, &t->val, sizeof(t->val));
	t->ret = sbm_call(t->sbm, read_word, t->addr, out);
	complete(&t->done);
	return 0;
}

/* Run a read of @addr on @sbm from a new kernel thread. */
static void read_from_other_task(struct kunit *test, struct other_task *t)
{
	struct task_struct *task;

	init_completion(&t->done);
	task = kthread_run(other_task_fn, t, "sbm_attack");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	wait_for_completion(&t->done);
}

/*
 * An instance made by one task and used by another exposes neither:
 * neither the stack of the task that set it up, nor that of the task
 * that calls it.
 */
static void other_task_exposes_nothing(struct kunit *test)
{
	unsigned long secret[2] = { SECRET, SECRET };
	struct other_task t = { };
	struct sbm sbm;

	barrier_data(secret);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	t.sbm = &sbm;
	t.addr = &secret[1];
	read_from_other_task(test, &t);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, t.ret, -EFAULT);
	KUNIT_EXPECT_NE(test, t.val, SECRET);

	/* The caller's own stack, through a fresh instance. */
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	t.addr = (unsigned long *)&t;
	read_from_other_task(test, &t);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, t.ret, -EFAULT);

	/* A harmless call from another task works. */
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	t.addr = SBM_COPY_IN(&sbm, &secret[0], sizeof(secret[0]));
	read_from_other_task(test, &t);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, t.ret, 0);
	KUNIT_EXPECT_EQ(test, t.val, SECRET);
}

/* A service runs with the kernel's flags, not the target's DF. */
static void service_df_cleared(struct kunit *test)
{
	u8 buf[128], *copy;
	struct sbm sbm;
	unsigned int i;

	for (i = 0; i < 64; i++)
		buf[i] = i + 1;
	memset(buf + 64, 0, 64);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	copy = SBM_COPY_INOUT(&sbm, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, sbm_exec(&sbm, sbm_attack_std_kmemdup, copy), 0);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_MEMEQ(test, buf + 64, buf, 64);
}

/*
 * A service returns where the target's stack says, but never through a
 * non-canonical address (IRET would fault in the kernel) and never with
 * the return address read from kernel memory.
 */
static void service_return_checked(struct kunit *test)
{
	static unsigned long kernel_word = SECRET;
	struct last_abort last;

	KUNIT_ASSERT_EQ(test, watch_aborts(&last), 0);
	KUNIT_EXPECT_EQ(test, run_once(sbm_attack_service_noncanonical_ret,
				       NULL), -EFAULT);
	KUNIT_EXPECT_EQ(test, last.kind, SBM_ABORT_SERVICE_ARGUMENT);
	KUNIT_EXPECT_NOT_NULL(test, strstr(last.reason, "bad return address"));
	last.kind = SBM_ABORT_NR;
	KUNIT_EXPECT_EQ(test, run_once(sbm_attack_service_kernel_stack,
				       &kernel_word), -EFAULT);
	KUNIT_EXPECT_EQ(test, last.kind, SBM_ABORT_SERVICE_ARGUMENT);
	KUNIT_EXPECT_NOT_NULL(test, strstr(last.reason, "bad return address"));
	unwatch_aborts(&last);
	KUNIT_EXPECT_EQ(test, kernel_word, SECRET);
}

/*
 * Whether a return address is canonical depends on the paging mode in
 * force, not on what the CPU could do: with 4-level paging on an LA57
 * CPU (no5lvl), 0x0000800000000000 must be refused before IRET, which
 * would raise #GP in the kernel; with 5-level paging it is an ordinary
 * unmapped user address, and the fetch faults in the sandbox.
 */
static void service_return_canonical_in_paging_mode(struct kunit *test)
{
	struct last_abort last;

	KUNIT_ASSERT_EQ(test, watch_aborts(&last), 0);
	KUNIT_EXPECT_EQ(test, run_once(sbm_attack_service_ret_past_47_bits,
				       NULL), -EFAULT);
	unwatch_aborts(&last);
	if (pgtable_l5_enabled()) {
		KUNIT_EXPECT_EQ(test, last.kind, SBM_ABORT_PAGE_FAULT);
	} else {
		KUNIT_EXPECT_EQ(test, last.kind, SBM_ABORT_SERVICE_ARGUMENT);
		KUNIT_EXPECT_NOT_NULL(test, strstr(last.reason,
						   "bad return address"));
	}
}

static noinline __noipa void sbm_attack_frame_service(void)
{
	barrier();
}

/*
 * Stands for whatever makes the IRET into the sandbox fault on some CPU
 * (a return address that IRET refuses, a segment it cannot load): gives
 * the frame a supervisor SS, so that IRET raises #GP at CPL 0, in the
 * switch code.
 */
static unsigned long sbm_attack_frame_handler(struct sbm_service_call *call)
{
	struct x86_sbm *s = call->sbm->private;

	x86_sbm_frame(s->ctx)->ss = __KERNEL_DS;
	return 0;
}

static SBM_DEFINE_FUNC(iret_faults)
{
	sbm_attack_frame_service();
	return 0;
}

SBM_ALLOW_CALL_FROM(iret_faults, sbm_attack_frame_service,
		    sbm_attack_frame_handler);

/*
 * An exception raised by the IRET into the sandbox is a contained abort
 * of that sandbox, not an oops in the switch code; the next sandbox runs.
 */
static void entry_fault_contained(struct kunit *test)
{
	struct last_abort last;
	struct sbm sbm;

	KUNIT_ASSERT_EQ(test, watch_aborts(&last), 0);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, iret_faults), -EFAULT);
	sbm_destroy(&sbm);
	unwatch_aborts(&last);
	KUNIT_EXPECT_EQ(test, last.kind, SBM_ABORT_GENERAL_PROTECTION);
	KUNIT_EXPECT_NOT_NULL(test, strstr(last.reason,
					   "returning to the sandbox"));
	KUNIT_EXPECT_EQ(test, run_once(sbm_attack_std_ret, NULL), 0);
}

static SBM_DEFINE_FUNC(strdup_unterminated, const char *, s, char **, out)
{
	*out = kstrdup(s, GFP_KERNEL);
	return 0;
}

/* A string service reads no further than the target could. */
static void service_string_bounded(struct kunit *test)
{
	char *page = kmalloc(PAGE_SIZE, GFP_KERNEL), *out = NULL;
	struct sbm sbm;

	KUNIT_ASSERT_NOT_NULL(test, page);
	memset(page, 'A', PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, strdup_unterminated,
				       SBM_COPY_IN(&sbm, page, PAGE_SIZE),
				       SBM_COPY_OUT(&sbm, &out, sizeof(out))),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, sbm.alloc_bytes, 0);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_NULL(test, out);
	kfree(page);
}

/*
 * Shrinks an object in place, frees it, then writes the byte at @offset
 * of what were its pages: a use after free.
 */
static SBM_DEFINE_FUNC(write_after_free, unsigned long, offset)
{
	u8 *p = kmalloc(3 * PAGE_SIZE, GFP_KERNEL), *q;

	if (!p)
		return -ENOMEM;
	q = krealloc(p, 8, GFP_KERNEL);
	if (q != p)
		return -EINVAL;
	kfree(q);
	OPTIMIZER_HIDE_VAR(p);
	WRITE_ONCE(p[offset], 1);
	return 0;
}

/* Freed objects leave the sandbox whole, however they were resized. */
static void service_use_after_free(struct kunit *test)
{
	struct sbm sbm;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, write_after_free, 0), -EFAULT);
	sbm_destroy(&sbm);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, write_after_free, 2 * PAGE_SIZE),
			-EFAULT);
	sbm_destroy(&sbm);
}

static struct kunit_case sbm_attack_test_cases[] = {
	KUNIT_CASE_PARAM(rflags_restored, flags_attack_gen_params),
	KUNIT_CASE(dr6_clean),
	KUNIT_CASE(pkru_restored),
	KUNIT_CASE(pkru_kept_for_target),
	KUNIT_CASE(segments_restored),
	KUNIT_CASE(fs_base_private_to_target),
	KUNIT_CASE(gs_kept_for_target),
	KUNIT_CASE_PARAM(cpl0_refused, cpl0_attack_gen_params),
	KUNIT_CASE(int_n_refused),
	KUNIT_CASE(unprivileged_allowed),
	KUNIT_CASE(caller_stack_unreadable),
	KUNIT_CASE(canary_private),
	KUNIT_CASE(percpu_canaries_private),
	KUNIT_CASE(percpu_page_private),
	KUNIT_CASE(current_private),
	KUNIT_CASE(stack_cleared_between_calls),
	KUNIT_CASE(other_task_exposes_nothing),
	KUNIT_CASE(service_df_cleared),
	KUNIT_CASE(service_return_checked),
	KUNIT_CASE(service_return_canonical_in_paging_mode),
	KUNIT_CASE(entry_fault_contained),
	KUNIT_CASE(other_cpus_percpu_private),
	KUNIT_CASE(service_string_bounded),
	KUNIT_CASE(service_use_after_free),
	{}
};

static struct kunit_suite sbm_attack_test_suite = {
	.name = "sandbox_mode_attack",
	.test_cases = sbm_attack_test_cases,
};

kunit_test_suite(sbm_attack_test_suite);

MODULE_DESCRIPTION("KUnit attack suite for x86-64 SandBox Mode");
MODULE_LICENSE("GPL");
