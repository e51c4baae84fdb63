// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit boundary fuzzer for x86-64 strong isolation: run seeded random
 * instruction streams (sbm_fuzz_gen.c) as sandboxed targets, and after
 * each one check that everything the kernel relies on is as it was
 * before and that the call ended in a documented way. A difference is a
 * finding, printed with the seed, the stream's number and its bytes, 32
 * per line, which objdump -D -b binary -m i386:x86-64 disassembles.
 *
 * sandbox_mode_fuzz finds nothing on a correct kernel. sandbox_mode_planted
 * runs on a kernel booted with sbm.plant= (CONFIG_SBM_PLANTED_FAULTS) and
 * checks that the fuzzer finds the planted fault.
 */

#define pr_fmt(fmt) "sbm_fuzz: " fmt

#include <kunit/test.h>
#include <linux/jhash.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/processor.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <asm/debugreg.h>
#include <asm/desc.h>
#include <asm/fpu/api.h>
#include <asm/fpu/types.h>
#include <asm/fpu/xcr.h>
#include <asm/msr.h>
#include <asm/pkru.h>
#include <asm/special_insns.h>
#include <asm/tlbflush.h>
#include <trace/events/sbm.h>

#include "sbm.h"
#include "sbm_fuzz.h"

static ulong seed = 1;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "seed of the instruction streams");
static ulong streams = 20000;
module_param(streams, ulong, 0444);
MODULE_PARM_DESC(streams, "how many streams sandbox_mode_fuzz runs");

/* KUnit stops a case after 300 s: long runs go in chunks of this. */
#define STREAMS_PER_CHUNK	50000UL
#define MAX_REPORTS		16
#define FS_BASE_PATTERN		0x00007f5bf5000000UL
#define MXCSR_PATTERN		0x3f80
#define FLAGS_ARITH		(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | \
				 X86_EFLAGS_ZF | X86_EFLAGS_SF | X86_EFLAGS_OF)

/* Everything compared after each stream. */
enum fuzz_field {
	F_FLAGS_DF, F_FLAGS_AC, F_FLAGS_TF, F_FLAGS_IF, F_FLAGS_NT,
	F_FLAGS_OTHER, F_BX, F_BP, F_R12, F_R13, F_R14, F_R15, F_SP,
	F_CS, F_SS, F_DS, F_ES, F_FS, F_GS,
	F_FS_BASE, F_GS_BASE, F_KERNEL_GS_BASE,
	F_EFER, F_STAR, F_LSTAR, F_CSTAR, F_SFMASK,
	F_SYSENTER_CS, F_SYSENTER_ESP, F_SYSENTER_EIP, F_TSC_AUX, F_PAT,
	F_CR0, F_CR3, F_CR4, F_XCR0, F_PKRU,
	F_DR0, F_DR1, F_DR2, F_DR3, F_DR6, F_DR7,
	F_IDTR, F_IDT, F_SBM_IDT, F_GDTR, F_GDT, F_TR, F_LDTR,
	F_TSS_SP0, F_TSS_SP1, F_TSS_SP2, F_TSS_IST, F_TSS_IO_BITMAP,
	F_MXCSR, F_XMM, F_GUARDS, F_SBM_CANARIES, F_AUDIT, F_QUOTA, F_RESULT,
	F_NR
};

static const char * const fuzz_field_names[F_NR] = {
	"rflags.DF", "rflags.AC", "rflags.TF", "rflags.IF", "rflags.NT",
	"rflags.other", "rbx", "rbp", "r12", "r13", "r14", "r15", "rsp",
	"cs", "ss", "ds", "es", "fs", "gs",
	"fs_base", "gs_base", "kernel_gs_base",
	"efer", "star", "lstar", "cstar", "sfmask",
	"sysenter_cs", "sysenter_esp", "sysenter_eip", "tsc_aux", "pat",
	"cr0", "cr3", "cr4", "xcr0", "pkru",
	"dr0", "dr1", "dr2", "dr3", "dr6", "dr7",
	"idtr", "idt", "sbm_idt", "gdtr", "gdt", "tr", "ldtr",
	"tss.sp0", "tss.sp1", "tss.sp2", "tss.ist", "tss.io_bitmap_base",
	"mxcsr", "xmm", "buffer guards", "sbm canaries", "page-table audit",
	"quota",
	"result",
};

struct fuzz_state {
	u64 v[F_NR];
};

#define SBM_CANARY		0x5bc0ffee5bc0ffeeULL
#define SBM_CANARY_WORDS	4

/* The instance a stream runs in, between words that nothing may write. */
struct fuzz_sbm {
	u64 before[SBM_CANARY_WORDS];
	struct sbm sbm;
	u64 after[SBM_CANARY_WORDS];
};

static bool fuzz_sbm_canaries_intact(const struct fuzz_sbm *g)
{
	unsigned int i;

	for (i = 0; i < SBM_CANARY_WORDS; i++) {
		if (g->before[i] != SBM_CANARY || g->after[i] != SBM_CANARY)
			return false;
	}
	return true;
}

/* Counts of one run, and what it needs. */
struct fuzz_run {
	struct sbm_fuzz_area area;
	u8 *page;			/* the arena's new contents */
	struct sbm_fuzz_stream stream;
	struct fpu *victim;
	struct fxregs_state *fx;
	struct fuzz_state before;
	unsigned long old_fs_base;
	/* what the sbm_abort tracepoint saw in the current stream */
	unsigned int aborts;
	int abort_err;
	enum sbm_abort_kind abort_kind;
	unsigned long completed, aborted, timed_out, findings;
	unsigned long kinds[SBM_ABORT_NR];
	unsigned int reports;
	u64 first_finding;
	bool diff[F_NR];
};

static void fuzz_abort_probe(void *data, const struct sbm *sbm,
			     sbm_func func, const struct sbm_abort *abort)
{
	struct fuzz_run *run = data;

	run->aborts++;
	run->abort_err = abort->err;
	run->abort_kind = abort->kind;
}

static u64 msr_or_zero(u32 msr)
{
	u64 v = 0;

	rdmsrl_safe(msr, &v);
	return v;
}

static u64 hash(const void *p, size_t len)
{
	return jhash(p, len, 0);
}

/*
 * What the kernel relies on, read on this CPU with the task pinned to it,
 * so that a preemption in between changes none of it.
 */
static void fuzz_snapshot(struct fuzz_state *st)
{
	struct x86_hw_tss *tss = &this_cpu_ptr(&cpu_tss_rw)->x86_tss;
	struct desc_ptr idt, gdt;
	unsigned short sel;
	unsigned long dr;

	memset(st, 0, sizeof(*st));
	savesegment(cs, sel);
	st->v[F_CS] = sel;
	savesegment(ss, sel);
	st->v[F_SS] = sel;
	savesegment(ds, sel);
	st->v[F_DS] = sel;
	savesegment(es, sel);
	st->v[F_ES] = sel;
	savesegment(fs, sel);
	st->v[F_FS] = sel;
	savesegment(gs, sel);
	st->v[F_GS] = sel;
	st->v[F_FS_BASE] = msr_or_zero(MSR_FS_BASE);
	st->v[F_GS_BASE] = msr_or_zero(MSR_GS_BASE);
	st->v[F_KERNEL_GS_BASE] = msr_or_zero(MSR_KERNEL_GS_BASE);
	st->v[F_EFER] = msr_or_zero(MSR_EFER);
	st->v[F_STAR] = msr_or_zero(MSR_STAR);
	st->v[F_LSTAR] = msr_or_zero(MSR_LSTAR);
	st->v[F_CSTAR] = msr_or_zero(MSR_CSTAR);
	st->v[F_SFMASK] = msr_or_zero(MSR_SYSCALL_MASK);
	st->v[F_SYSENTER_CS] = msr_or_zero(MSR_IA32_SYSENTER_CS);
	st->v[F_SYSENTER_ESP] = msr_or_zero(MSR_IA32_SYSENTER_ESP);
	st->v[F_SYSENTER_EIP] = msr_or_zero(MSR_IA32_SYSENTER_EIP);
	st->v[F_TSC_AUX] = msr_or_zero(MSR_TSC_AUX);
	st->v[F_PAT] = msr_or_zero(MSR_IA32_CR_PAT);
	st->v[F_CR0] = read_cr0();
	/* The task may have switched to another lazy mm: compare with it. */
	st->v[F_CR3] = (__read_cr3() & CR3_ADDR_MASK) !=
		       __pa(this_cpu_read(cpu_tlbstate.loaded_mm)->pgd);
	st->v[F_CR4] = __read_cr4();
	if (boot_cpu_has(X86_FEATURE_OSXSAVE))
		st->v[F_XCR0] = xgetbv(XCR_XFEATURE_ENABLED_MASK);
	if (cpu_feature_enabled(X86_FEATURE_OSPKE))
		st->v[F_PKRU] = rdpkru();
	get_debugreg(dr, 0);
	st->v[F_DR0] = dr;
	get_debugreg(dr, 1);
	st->v[F_DR1] = dr;
	get_debugreg(dr, 2);
	st->v[F_DR2] = dr;
	get_debugreg(dr, 3);
	st->v[F_DR3] = dr;
	get_debugreg(dr, 6);
	st->v[F_DR6] = dr;
	get_debugreg(dr, 7);
	st->v[F_DR7] = dr;
	store_idt(&idt);
	st->v[F_IDTR] = idt.address ^ ((u64)idt.size << 48);
	st->v[F_IDT] = hash((void *)idt.address, idt.size + 1);
	st->v[F_SBM_IDT] = hash(sbm_idt, sizeof(sbm_idt));
	native_store_gdt(&gdt);
	st->v[F_GDTR] = gdt.address ^ ((u64)gdt.size << 48);
	st->v[F_GDT] = hash((void *)gdt.address, gdt.size + 1);
	asm volatile("str %w0" : "=r" (sel));
	st->v[F_TR] = sel;
	asm volatile("sldt %w0" : "=r" (sel));
	st->v[F_LDTR] = sel;
	st->v[F_TSS_SP0] = tss->sp0;
	st->v[F_TSS_SP1] = tss->sp1;
	st->v[F_TSS_SP2] = tss->sp2;
	st->v[F_TSS_IST] = hash(tss->ist, sizeof(tss->ist));
	st->v[F_TSS_IO_BITMAP] = tss->io_bitmap_base;
}

/*
 * Make the live FPU registers those of a task that is not running, the
 * state a system call's caller leaves behind, with values to recognise.
 * If the sandbox could change them, that task would get them back.
 */
static void fuzz_load_victim(struct fuzz_run *run)
{
	struct fxregs_state *fx = run->fx;
	unsigned int i;

	memset(fx, 0, sizeof(*fx));
	fx->cwd = 0x37f;
	fx->mxcsr = MXCSR_PATTERN;
	for (i = 0; i < ARRAY_SIZE(fx->xmm_space); i++)
		fx->xmm_space[i] = 0xa5000000 + i;
	kernel_fpu_begin();
	asm volatile("fxrstorq %0" : : "m" (*fx));
	this_cpu_write(fpu_fpregs_owner_ctx, run->victim);
	kernel_fpu_end();
}

/*
 * The live registers still belong to the victim only if nothing changed
 * them. Whoever took them over properly (the kernel's own FPU use, another
 * task) recorded that in fpu_fpregs_owner_ctx.
 */
static void fuzz_check_victim(struct fuzz_run *run, struct fuzz_state *after)
{
	struct fxregs_state *fx = run->fx;
	unsigned int i;
	u64 xmm = 0;

	after->v[F_MXCSR] = MXCSR_PATTERN;
	after->v[F_XMM] = 0;
	fpregs_lock();
	if (this_cpu_read(fpu_fpregs_owner_ctx) == run->victim) {
		asm volatile("fxsaveq %0" : "=m" (*fx));
		after->v[F_MXCSR] = fx->mxcsr;
		for (i = 0; i < ARRAY_SIZE(fx->xmm_space); i++)
			xmm |= fx->xmm_space[i] ^ (0xa5000000 + i);
		after->v[F_XMM] = xmm;
	}
	fpregs_unlock();
}

static void fuzz_print_stream(struct fuzz_run *run, u64 index)
{
	const struct sbm_fuzz_stream *s = &run->stream;
	unsigned int off;

	pr_err("stream seed=%lu index=%llu: %u bytes, %u items\n",
	       seed, index, s->len, s->items);
	for (off = 0; off < s->len; off += 32)
		pr_err("stream %llu +%03x: %*phN\n", index, off,
		       min(32U, s->len - off), s->bytes + off);
}

/* Compare, count and report; true if the stream is a finding. */
static bool fuzz_judge(struct fuzz_run *run, u64 index, struct fuzz_sbm *g,
		       int ret, const struct sbm_fuzz_regs *regs,
		       struct fuzz_state *after)
{
	struct sbm *sbm = &g->sbm;
	static const struct { enum fuzz_field field; unsigned long bit; } bits[] = {
		{ F_FLAGS_DF, X86_EFLAGS_DF }, { F_FLAGS_AC, X86_EFLAGS_AC },
		{ F_FLAGS_TF, X86_EFLAGS_TF }, { F_FLAGS_IF, X86_EFLAGS_IF },
		{ F_FLAGS_NT, X86_EFLAGS_NT },
	};
	unsigned long flags = regs->flags & ~FLAGS_ARITH;
	struct fuzz_state *before = &run->before;
	struct sbm_audit audit;
	bool finding = false;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		after->v[bits[i].field] = flags & bits[i].bit;
		flags &= ~bits[i].bit;
	}
	after->v[F_FLAGS_OTHER] = flags;
	after->v[F_BX] = regs->bx;
	after->v[F_BP] = regs->bp_moved;
	after->v[F_R12] = regs->r12;
	after->v[F_R13] = regs->r13;
	after->v[F_R14] = regs->r14;
	after->v[F_R15] = regs->r15;
	after->v[F_SP] = regs->sp_moved;
	after->v[F_GUARDS] = !sbm_fuzz_area_guards_intact(&run->area);
	after->v[F_SBM_CANARIES] = !fuzz_sbm_canaries_intact(g);
	sbm_audit(sbm, &audit);
	after->v[F_AUDIT] = audit.violations;
	after->v[F_QUOTA] = sbm->alloc_bytes > sbm->alloc_limit;

	/*
	 * A documented end: the target's own return value with no abort, or
	 * the abort's error, -EFAULT or -ETIMEDOUT, also as sbm_error().
	 */
	if (!run->aborts) {
		run->completed++;
		after->v[F_RESULT] = sbm_error(sbm) != 0;
	} else {
		if (run->abort_err == -ETIMEDOUT)
			run->timed_out++;
		else
			run->aborted++;
		run->kinds[run->abort_kind]++;
		after->v[F_RESULT] = run->aborts != 1 ||
			ret != run->abort_err || sbm_error(sbm) != ret ||
			(ret != -EFAULT && ret != -ETIMEDOUT) ||
			(ret == -ETIMEDOUT) !=
			(run->abort_kind == SBM_ABORT_TIME_LIMIT);
	}

	for (i = 0; i < F_NR; i++) {
		run->diff[i] = after->v[i] != before->v[i];
		finding |= run->diff[i];
	}
	if (!finding)
		return false;
	if (!run->findings++)
		run->first_finding = index;
	if (run->reports++ >= MAX_REPORTS)
		return true;
	pr_err("finding: seed=%lu stream=%llu ret=%d aborts=%u kind=%d\n",
	       seed, index, ret, run->aborts, run->abort_kind);
	for (i = 0; i < F_NR; i++) {
		if (run->diff[i])
			pr_err("  %s: 0x%llx, was 0x%llx\n", fuzz_field_names[i],
			       after->v[i], before->v[i]);
	}
	if (audit.violations)
		pr_err("  first page the audit refused: 0x%lx\n", audit.bad[0]);
	fuzz_print_stream(run, index);
	return true;
}

/* Run stream @index: 1 if it is a finding, 0 if not, or an error. */
static int fuzz_one(struct fuzz_run *run, u64 index)
{
	struct sbm_fuzz_regs regs;
	struct fuzz_state after;
	struct fuzz_sbm g;
	unsigned int i;
	int ret;

	sbm_fuzz_generate(&run->area.env, seed, index, &run->stream);
	sbm_fuzz_load(&run->stream, run->page);

	for (i = 0; i < SBM_CANARY_WORDS; i++) {
		g.before[i] = SBM_CANARY;
		g.after[i] = SBM_CANARY;
	}
	ret = sbm_init(&g.sbm);
	if (ret)
		goto out;
	ret = -ENOMEM;
	if (!sbm_fuzz_area_map(&run->area, &g.sbm))
		goto out;

	fuzz_load_victim(run);
	run->aborts = 0;
	ret = sbm_fuzz_exec(&g.sbm, (void *)sbm_fuzz_arena,
			    (void *)run->area.env.rw, &regs);
	fuzz_snapshot(&after);
	fuzz_check_victim(run, &after);
	ret = fuzz_judge(run, index, &g, ret, &regs, &after);
out:
	sbm_destroy(&g.sbm);
	return ret;
}

static void fuzz_summary(struct fuzz_run *run, u64 first, u64 count,
			 s64 ns)
{
	pr_info("seed %lu, streams %llu..%llu: %lu completed, %lu aborted, %lu timed out, %lu findings, %lld streams/s\n",
		seed, first, first + count - 1, run->completed, run->aborted,
		run->timed_out, run->findings,
		ns > 0 ? div64_s64(count * NSEC_PER_SEC, ns) : 0);
	pr_info("aborts by kind: page fault %lu, #GP %lu, #UD %lu, breakpoint %lu, divide %lu, syscall %lu, forbidden call %lu, service argument %lu, other %lu\n",
		run->kinds[SBM_ABORT_PAGE_FAULT],
		run->kinds[SBM_ABORT_GENERAL_PROTECTION],
		run->kinds[SBM_ABORT_INVALID_OPCODE],
		run->kinds[SBM_ABORT_BREAKPOINT],
		run->kinds[SBM_ABORT_DIVIDE_ERROR],
		run->kinds[SBM_ABORT_SYSCALL],
		run->kinds[SBM_ABORT_FORBIDDEN_CALL],
		run->kinds[SBM_ABORT_SERVICE_ARGUMENT],
		run->kinds[SBM_ABORT_OTHER]);
}

/* Run streams [@first, @first + @count); stop at the first if @stop. */
static int fuzz_streams(struct fuzz_run *run, u64 first, u64 count, bool stop)
{
	unsigned int limit = sbm_time_limit_ms;
	u64 i, start = ktime_get_ns();
	int ret = 0;

	/* Spins end after 1 ms instead of 1 s. */
	sbm_time_limit_ms = 1;
	for (i = first; i < first + count; i++) {
		ret = fuzz_one(run, i);
		if (ret < 0 || (ret && stop))
			break;
	}
	sbm_time_limit_ms = limit;
	fuzz_summary(run, first, i - first, ktime_get_ns() - start);
	return ret < 0 ? ret : 0;
}

static void fuzz_free(struct fuzz_run *run)
{
	kfree(run->fx);
	kfree(run->victim);
	kfree(run->page);
	sbm_fuzz_area_free(&run->area);
}

static int fuzz_start(struct fuzz_run *run)
{
	int err;

	run->page = kmalloc(PAGE_SIZE, GFP_KERNEL);
	run->victim = kzalloc(sizeof(*run->victim), GFP_KERNEL);
	run->fx = kzalloc(sizeof(*run->fx), GFP_KERNEL);
	if (sbm_fuzz_area_alloc(&run->area) || !run->page || !run->victim ||
	    !run->fx) {
		fuzz_free(run);
		return -ENOMEM;
	}
	err = register_trace_sbm_abort(fuzz_abort_probe, run);
	if (err) {
		fuzz_free(run);
		return err;
	}

	/* Per-CPU state is compared on one CPU; the task may still sleep. */
	migrate_disable();
	/* A recognisable FS base for the task, which a target may change. */
	rdmsrl(MSR_FS_BASE, run->old_fs_base);
	current->thread.fsbase = FS_BASE_PATTERN;
	wrmsrl(MSR_FS_BASE, FS_BASE_PATTERN);
	fuzz_snapshot(&run->before);
	/* The kernel's flags: interrupts on, nothing else. */
	run->before.v[F_FLAGS_IF] = X86_EFLAGS_IF;
	run->before.v[F_FLAGS_OTHER] = X86_EFLAGS_FIXED;
	run->before.v[F_BX] = SBM_FUZZ_BX;
	run->before.v[F_R12] = SBM_FUZZ_R12;
	run->before.v[F_R13] = SBM_FUZZ_R13;
	run->before.v[F_R14] = SBM_FUZZ_R14;
	run->before.v[F_R15] = SBM_FUZZ_R15;
	run->before.v[F_MXCSR] = MXCSR_PATTERN;
	return 0;
}

static void fuzz_stop(struct fuzz_run *run)
{
	/* Nobody may think the victim's registers are still live. */
	kernel_fpu_begin();
	kernel_fpu_end();
	/* A finding may have left them wrong: the rest of the boot needs them. */
	current->thread.fsbase = run->old_fs_base;
	wrmsrl(MSR_FS_BASE, run->old_fs_base);
	if (cpu_feature_enabled(X86_FEATURE_OSPKE))
		wrpkru(run->before.v[F_PKRU]);
	migrate_enable();
	unregister_trace_sbm_abort(fuzz_abort_probe, run);
	tracepoint_synchronize_unregister();
	sbm_fuzz_clear(run->page);
	fuzz_free(run);
}

static const void *chunk_gen_params(const void *prev, char *desc)
{
	unsigned long chunk = prev ? (unsigned long)prev : 0;

	if (chunk * STREAMS_PER_CHUNK >= streams)
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "streams_%lu", chunk * STREAMS_PER_CHUNK);
	/* Parameters are pointers and may not be NULL: chunk n is n + 1. */
	return (void *)(chunk + 1);
}

/*
 * Every stream of the chunk leaves the kernel as it found it: no field of
 * fuzz_state differs, whatever the stream did.
 */
static void boundary_fuzz(struct kunit *test)
{
	u64 first = ((unsigned long)test->param_value - 1) * STREAMS_PER_CHUNK;
	u64 count = min_t(u64, STREAMS_PER_CHUNK, streams - first);
	struct fuzz_run *run;
	int err;

	if (sbm_plant_current() != SBM_PLANT_NONE)
		kunit_skip(test, "a fault is planted (sbm.plant=)");
	run = kunit_kzalloc(test, sizeof(*run), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run);
	KUNIT_ASSERT_EQ(test, fuzz_start(run), 0);
	err = fuzz_streams(run, first, count, false);
	fuzz_stop(run);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ_MSG(test, run->findings, 0,
			    "first at stream %llu", run->first_finding);
	KUNIT_EXPECT_GT(test, run->completed, 0);
	KUNIT_EXPECT_GT(test, run->aborted, 0);
}

static struct kunit_case sbm_fuzz_test_cases[] = {
	KUNIT_CASE_PARAM_ATTR(boundary_fuzz, chunk_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite sbm_fuzz_test_suite = {
	.name = "sandbox_mode_fuzz",
	.test_cases = sbm_fuzz_test_cases,
};

/* Which field each planted fault must show up in. */
static const enum fuzz_field plant_fields[SBM_PLANT_NR] = {
	[SBM_PLANT_DF]	 = F_FLAGS_DF,
	[SBM_PLANT_AC]	 = F_FLAGS_AC,
	[SBM_PLANT_PKRU] = F_PKRU,
	[SBM_PLANT_MSR]	 = F_FS_BASE,
	[SBM_PLANT_FPU]	 = F_XMM,
	[SBM_PLANT_PAGE] = F_AUDIT,
};

/*
 * With a fault planted by sbm.plant=, the fuzzer finds it within the
 * smoke run's budget (sbm_fuzz_test.streams), in the field that the fault
 * breaks.
 */
static void planted_fault_found(struct kunit *test)
{
	int plant = sbm_plant_current();
	enum fuzz_field field;
	struct fuzz_run *run;
	int err;

	if (plant == SBM_PLANT_NONE)
		kunit_skip(test, "no fault planted (sbm.plant=)");
	field = plant_fields[plant];
	run = kunit_kzalloc(test, sizeof(*run), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run);
	KUNIT_ASSERT_EQ(test, fuzz_start(run), 0);
	err = fuzz_streams(run, 0, streams, true);
	fuzz_stop(run);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_GT_MSG(test, run->findings, 0,
			    "planted fault %s not found in %lu streams",
			    sbm_plant_name(), streams);
	KUNIT_EXPECT_TRUE_MSG(test, run->diff[field],
			      "planted fault %s found, but not in %s",
			      sbm_plant_name(), fuzz_field_names[field]);
	kunit_info(test, "planted fault %s found at stream %llu (seed %lu), in %s\n",
		   sbm_plant_name(), run->first_finding, seed,
		   fuzz_field_names[field]);
}

static struct kunit_case sbm_planted_test_cases[] = {
	KUNIT_CASE(planted_fault_found),
	{}
};

static struct kunit_suite sbm_planted_test_suite = {
	.name = "sandbox_mode_planted",
	.test_cases = sbm_planted_test_cases,
};

kunit_test_suites(&sbm_fuzz_test_suite, &sbm_planted_test_suite);
