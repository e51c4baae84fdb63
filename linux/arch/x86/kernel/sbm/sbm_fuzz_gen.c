// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 SandBox Mode boundary fuzzer: seeded random instruction streams.
 *
 * A stream is a sequence of items. Most are instructions that matter
 * where CPL 3 meets the kernel: flag writes, segment and descriptor-table
 * loads, privileged and system-call instructions, crafted far transfers
 * and IRET frames, stack pivots, protection keys, FPU and vector state,
 * loads of kernel addresses, writes to the target's buffers and stack,
 * loops and calls of kernel services with random arguments. The rest are
 * random bytes. The same seed and index give the same stream on the same
 * kernel and the same buffers.
 */

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/prandom.h>
#include <linux/string.h>
#include <asm/processor-flags.h>
#include <asm/msr-index.h>
#include <asm/segment.h>

#include "sbm_fuzz.h"

/* Room kept free at the end of a stream for its ending. */
#define SBM_FUZZ_TAIL	8

struct sbm_fuzz_gen {
	const struct sbm_fuzz_env *env;
	struct rnd_state rnd;
	struct sbm_fuzz_stream *s;
	bool full;
	bool ending;
};

static u32 gen_u32(struct sbm_fuzz_gen *g)
{
	return prandom_u32_state(&g->rnd);
}

static u64 gen_u64(struct sbm_fuzz_gen *g)
{
	return (u64)gen_u32(g) << 32 | gen_u32(g);
}

static u32 gen_below(struct sbm_fuzz_gen *g, u32 n)
{
	return gen_u32(g) % n;
}

static u64 gen_pick(struct sbm_fuzz_gen *g, const u64 *values, size_t n)
{
	return values[gen_below(g, n)];
}

/*
 * Append @n bytes; a stream that is full takes no more. Only the ending
 * may use the tail.
 */
static void emit(struct sbm_fuzz_gen *g, const void *bytes, size_t n)
{
	struct sbm_fuzz_stream *s = g->s;
	size_t room = SBM_FUZZ_STREAM_MAX - (g->ending ? 0 : SBM_FUZZ_TAIL);

	if (g->full || s->len + n > room) {
		g->full = true;
		return;
	}
	memcpy(s->bytes + s->len, bytes, n);
	s->len += n;
}

#define EMIT(g, ...)							\
	do {								\
		static const u8 __b[] = { __VA_ARGS__ };		\
		emit(g, __b, sizeof(__b));				\
	} while (0)

static void emit_u32(struct sbm_fuzz_gen *g, u32 v)
{
	emit(g, &v, sizeof(v));
}

static void emit_u64(struct sbm_fuzz_gen *g, u64 v)
{
	emit(g, &v, sizeof(v));
}

/* mov $v, %reg (reg 0-7: rax rcx rdx rbx rsp rbp rsi rdi) */
static void emit_mov64(struct sbm_fuzz_gen *g, unsigned int reg, u64 v)
{
	u8 op[2] = { 0x48, 0xb8 + reg };

	emit(g, op, sizeof(op));
	emit_u64(g, v);
}

/* mov $v, %e<reg> */
static void emit_mov32(struct sbm_fuzz_gen *g, unsigned int reg, u32 v)
{
	u8 op = 0xb8 + reg;

	emit(g, &op, 1);
	emit_u32(g, v);
}

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI };

/* Selectors worth loading: null, the user and kernel ones, the TSS. */
static const u64 selectors[] = {
	0, 3, __USER_DS, __USER_CS, __USER32_CS, __KERNEL_CS, __KERNEL_DS,
	__KERNEL32_CS, GDT_ENTRY_TSS * 8, (GDT_ENTRY_TSS * 8) | 3,
	GDT_ENTRY_CPUNODE * 8 + 3, 0x7, 0xfff8, 0xffff,
};

/* Addresses a hostile target likes: the kernel's, not canonical, zero. */
static u64 gen_address(struct sbm_fuzz_gen *g)
{
	const struct sbm_fuzz_env *env = g->env;
	static const u64 odd[] = {
		0, 0x1000, 0x7ffffffff000UL, 0x800000000000UL,
		0x8000000000000000UL, 0xffff800000000000UL,
		0xfffffe0000000000UL, 0xffffffffff600000UL,
		0xfffffffffffff000UL, 0x00ff000000000000UL,
	};

	switch (gen_below(g, 4)) {
	case 0:
		return gen_pick(g, odd, ARRAY_SIZE(odd));
	case 1:
		return env->kernel[gen_below(g, env->nr_kernel)] +
		       gen_below(g, 8192);
	case 2:
		return env->rw + gen_below(g, env->rw_size + 64);
	default:
		return gen_u64(g);
	}
}

static void item_random(struct sbm_fuzz_gen *g)
{
	unsigned int n = 1 + gen_below(g, 8);
	u8 b[8];

	while (n--) {
		b[n] = gen_u32(g);
		emit(g, &b[n], 1);
	}
}

/* STD, STAC, POPF of any bits: what the entry code must clear. */
static void item_flags(struct sbm_fuzz_gen *g)
{
	static const u64 bits[] = {
		X86_EFLAGS_CF, X86_EFLAGS_PF, X86_EFLAGS_AF, X86_EFLAGS_ZF,
		X86_EFLAGS_SF, X86_EFLAGS_TF, X86_EFLAGS_IF, X86_EFLAGS_DF,
		X86_EFLAGS_OF, X86_EFLAGS_IOPL, X86_EFLAGS_NT, X86_EFLAGS_RF,
		X86_EFLAGS_VM, X86_EFLAGS_AC, X86_EFLAGS_VIF, X86_EFLAGS_VIP,
		X86_EFLAGS_ID, BIT(1), BIT(3), BIT(5), BIT(15), BIT(22),
	};
	u32 v;

	switch (gen_below(g, 8)) {
	case 0:
		EMIT(g, 0xfd);				/* std */
		break;
	case 1:
		EMIT(g, 0x0f, 0x01, 0xcb);		/* stac */
		break;
	case 2:
		EMIT(g, 0xfc, 0x0f, 0x01, 0xca);	/* cld; clac */
		break;
	case 3:
		EMIT(g, 0x9c, 0x9d);			/* pushfq; popfq */
		break;
	case 4:
		if (gen_below(g, 2))
			EMIT(g, 0xfa);			/* cli */
		else
			EMIT(g, 0xfb);			/* sti */
		break;
	case 5:
		v = gen_pick(g, bits, ARRAY_SIZE(bits)) | X86_EFLAGS_FIXED;
		EMIT(g, 0x68);				/* push $v; popfq */
		emit_u32(g, v);
		EMIT(g, 0x9d);
		break;
	case 6:
		EMIT(g, 0x68);
		emit_u32(g, gen_u32(g));
		EMIT(g, 0x9d);
		break;
	default:
		EMIT(g, 0x68);				/* every bit */
		emit_u32(g, 0xffffffff);
		EMIT(g, 0x9d);
		break;
	}
}

/* Segment registers, their bases and the descriptor tables. */
static void item_segments(struct sbm_fuzz_gen *g)
{
	/* mov %eax, %ds/%es/%fs/%gs/%ss */
	static const u8 mov_sreg[] = { 0xd8, 0xc0, 0xe0, 0xe8, 0xd0 };
	u8 op[2] = { 0x8e };

	switch (gen_below(g, 8)) {
	case 0:
	case 1:
		emit_mov32(g, RAX, gen_pick(g, selectors, ARRAY_SIZE(selectors)));
		op[1] = mov_sreg[gen_below(g, ARRAY_SIZE(mov_sreg))];
		emit(g, op, sizeof(op));
		break;
	case 2:
		emit_mov64(g, RAX, gen_address(g));
		if (gen_below(g, 2))
			EMIT(g, 0xf3, 0x48, 0x0f, 0xae, 0xd0);	/* wrfsbase */
		else
			EMIT(g, 0xf3, 0x48, 0x0f, 0xae, 0xd8);	/* wrgsbase */
		break;
	case 3:
		emit_mov64(g, RAX, gen_address(g));
		switch (gen_below(g, 4)) {
		case 0:
			EMIT(g, 0x0f, 0x01, 0x10);	/* lgdt (%rax) */
			break;
		case 1:
			EMIT(g, 0x0f, 0x01, 0x18);	/* lidt (%rax) */
			break;
		case 2:
			EMIT(g, 0x0f, 0x00, 0xd0);	/* lldt %ax */
			break;
		default:
			EMIT(g, 0x0f, 0x00, 0xd8);	/* ltr %ax */
			break;
		}
		break;
	case 4:
		switch (gen_below(g, 5)) {
		case 0:
			EMIT(g, 0x0f, 0x01, 0x07);	/* sgdt (%rdi) */
			break;
		case 1:
			EMIT(g, 0x0f, 0x01, 0x0f);	/* sidt (%rdi) */
			break;
		case 2:
			EMIT(g, 0x0f, 0x00, 0xc0);	/* sldt %eax */
			break;
		case 3:
			EMIT(g, 0x0f, 0x00, 0xc8);	/* str %eax */
			break;
		default:
			EMIT(g, 0x0f, 0x01, 0xe0);	/* smsw %eax */
			break;
		}
		break;
	case 5:
		EMIT(g, 0x0f, 0x01, 0xf8);		/* swapgs */
		break;
	case 6:
		/* lsl, lar, verr, verw of a selector */
		emit_mov32(g, RAX, gen_pick(g, selectors, ARRAY_SIZE(selectors)));
		switch (gen_below(g, 4)) {
		case 0:
			EMIT(g, 0x0f, 0x03, 0xc0);
			break;
		case 1:
			EMIT(g, 0x0f, 0x02, 0xc0);
			break;
		case 2:
			EMIT(g, 0x0f, 0x00, 0xe0);
			break;
		default:
			EMIT(g, 0x0f, 0x00, 0xe8);
			break;
		}
		break;
	default:
		/* a user segment with an override prefix */
		emit_mov32(g, RAX, __USER_DS);
		EMIT(g, 0x8e, 0xe8, 0x65, 0x48, 0x8b, 0x04, 0x25);
		emit_u32(g, gen_u32(g));	/* mov %gs:disp32, %rax */
		break;
	}
}

/* MSRs, control and debug registers, I/O: all privileged. */
static void item_privileged(struct sbm_fuzz_gen *g)
{
	static const u64 msrs[] = {
		MSR_EFER, MSR_STAR, MSR_LSTAR, MSR_CSTAR, MSR_SYSCALL_MASK,
		MSR_FS_BASE, MSR_GS_BASE, MSR_KERNEL_GS_BASE, MSR_TSC_AUX,
		MSR_IA32_SYSENTER_CS, MSR_IA32_SYSENTER_ESP,
		MSR_IA32_SYSENTER_EIP, MSR_IA32_U_CET, MSR_IA32_S_CET,
		MSR_IA32_XFD, MSR_IA32_DEBUGCTLMSR, MSR_IA32_CR_PAT,
	};
	static const u8 crs[] = { 0, 2, 3, 4 };
	u8 op[3] = { 0x0f };

	switch (gen_below(g, 6)) {
	case 0:
		emit_mov32(g, RCX, gen_pick(g, msrs, ARRAY_SIZE(msrs)));
		emit_mov32(g, RAX, gen_u32(g));
		emit_mov32(g, RDX, gen_u32(g));
		if (gen_below(g, 2))
			EMIT(g, 0x0f, 0x30);		/* wrmsr */
		else
			EMIT(g, 0x0f, 0x32);		/* rdmsr */
		break;
	case 1:
		/* mov %cr<n>, %rax or back; n in 0, 2, 3, 4, 8 */
		op[1] = gen_below(g, 2) ? 0x20 : 0x22;
		op[2] = 0xc0 | crs[gen_below(g, ARRAY_SIZE(crs))] << 3;
		if (gen_below(g, 5) == 0)
			EMIT(g, 0x44);			/* REX.R: %cr8 */
		emit(g, op, sizeof(op));
		break;
	case 2:
		/* mov %dr<n>, %rax or back */
		op[1] = gen_below(g, 2) ? 0x21 : 0x23;
		op[2] = 0xc0 | gen_below(g, 8) << 3;
		emit_mov64(g, RAX, gen_address(g));
		emit(g, op, sizeof(op));
		break;
	case 3:
		switch (gen_below(g, 8)) {
		case 0:
			EMIT(g, 0x0f, 0x01, 0x38);	/* invlpg (%rax) */
			break;
		case 1:
			EMIT(g, 0x0f, 0x09);		/* wbinvd */
			break;
		case 2:
			EMIT(g, 0x0f, 0x06);		/* clts */
			break;
		case 3:
			EMIT(g, 0xf4);			/* hlt */
			break;
		case 4:
			EMIT(g, 0xec);			/* in %dx, %al */
			break;
		case 5:
			EMIT(g, 0xe6, 0x80);		/* out %al, $0x80 */
			break;
		case 6:
			EMIT(g, 0x48, 0x0f, 0x07);	/* sysretq */
			break;
		default:
			EMIT(g, 0x0f, 0x01, 0xc1);	/* vmcall */
			break;
		}
		break;
	case 4:
		/* xsetbv of random or near-valid feature bits */
		emit_mov32(g, RCX, gen_below(g, 3));
		emit_mov32(g, RAX, gen_below(g, 2) ? gen_u32(g) : 0x7);
		emit_mov32(g, RDX, 0);
		EMIT(g, 0x0f, 0x01, 0xd1);
		break;
	default:
		emit_mov32(g, RCX, gen_below(g, 2) ? gen_u32(g) : 0);
		EMIT(g, 0x0f, 0x33);			/* rdpmc */
		break;
	}
}

/* Every way into the kernel that CPL 3 has, and the faulting ones. */
static void item_traps(struct sbm_fuzz_gen *g)
{
	u8 op[2] = { 0xcd };

	switch (gen_below(g, 10)) {
	case 0:
		EMIT(g, 0x0f, 0x05);			/* syscall */
		break;
	case 1:
		EMIT(g, 0x0f, 0x34);			/* sysenter */
		break;
	case 2:
		op[1] = gen_u32(g);			/* int $n */
		emit(g, op, sizeof(op));
		break;
	case 3:
		EMIT(g, 0xcd, 0x80);			/* int $0x80 */
		break;
	case 4:
		EMIT(g, 0xcc);				/* int3 */
		break;
	case 5:
		EMIT(g, 0xce);				/* into */
		break;
	case 6:
		EMIT(g, 0x0f, 0x0b);			/* ud2 */
		break;
	case 7:
		EMIT(g, 0xf1);				/* icebp */
		break;
	case 8:
		EMIT(g, 0x31, 0xc9, 0xf7, 0xf1);	/* div by zero */
		break;
	default:
		/* single-step a few instructions */
		EMIT(g, 0x68);
		emit_u32(g, X86_EFLAGS_TF | X86_EFLAGS_FIXED);
		EMIT(g, 0x9d, 0x90, 0x90);
		break;
	}
}

/* IRETQ, LRETQ, far calls and jumps through frames it built itself. */
static void item_far(struct sbm_fuzz_gen *g)
{
	u64 ip = gen_below(g, 2) ? gen_address(g) : g->env->rw;
	u64 cs = gen_pick(g, selectors, ARRAY_SIZE(selectors));

	switch (gen_below(g, 4)) {
	case 0:
		/* iretq: ss, rsp, rflags, cs, rip */
		emit_mov64(g, RAX, gen_pick(g, selectors, ARRAY_SIZE(selectors)));
		EMIT(g, 0x50);
		emit_mov64(g, RAX, gen_address(g));
		EMIT(g, 0x50);
		emit_mov64(g, RAX, gen_below(g, 2) ? gen_u64(g) :
			   X86_EFLAGS_IOPL | X86_EFLAGS_FIXED);
		EMIT(g, 0x50);
		emit_mov64(g, RAX, cs);
		EMIT(g, 0x50);
		emit_mov64(g, RAX, ip);
		EMIT(g, 0x50, 0x48, 0xcf);
		break;
	case 1:
		/* lretq: cs, rip */
		emit_mov64(g, RAX, cs);
		EMIT(g, 0x50);
		emit_mov64(g, RAX, ip);
		EMIT(g, 0x50, 0x48, 0xcb);
		break;
	default:
		/* lcallq or ljmpq *(%rsp): m16:64 */
		emit_mov64(g, RAX, cs);
		EMIT(g, 0x50);
		emit_mov64(g, RAX, ip);
		EMIT(g, 0x50);
		if (gen_below(g, 2))
			EMIT(g, 0x48, 0xff, 0x1c, 0x24);
		else
			EMIT(g, 0x48, 0xff, 0x2c, 0x24);
		break;
	}
}

/* Move the stack somewhere it should not be, then use it. */
static void item_pivot(struct sbm_fuzz_gen *g)
{
	emit_mov64(g, RSP, gen_address(g));
	switch (gen_below(g, 4)) {
	case 0:
		EMIT(g, 0x50);				/* push %rax */
		break;
	case 1:
		EMIT(g, 0x58);				/* pop %rax */
		break;
	case 2:
		EMIT(g, 0xcc);				/* int3: a service? */
		break;
	default:
		EMIT(g, 0xe8, 0, 0, 0, 0);		/* call next */
		break;
	}
}

/* Protection keys: the caller's PKRU must come back. */
static void item_pkru(struct sbm_fuzz_gen *g)
{
	static const u64 pkrus[] = { 0, 0x55555554, 0xfffffffc, 0xffffffff };

	emit_mov32(g, RCX, 0);
	emit_mov32(g, RDX, 0);
	emit_mov32(g, RAX, gen_below(g, 2) ? gen_pick(g, pkrus, ARRAY_SIZE(pkrus)) : gen_u32(g));
	if (gen_below(g, 4))
		EMIT(g, 0x0f, 0x01, 0xef);		/* wrpkru */
	else
		EMIT(g, 0x0f, 0x01, 0xee);		/* rdpkru */
}

/* FPU, SSE and AVX state, which belongs to the caller. */
static void item_fpu(struct sbm_fuzz_gen *g)
{
	u8 vex[5];

	switch (gen_below(g, 10)) {
	case 0:
		EMIT(g, 0x68);				/* ldmxcsr (%rsp) */
		emit_u32(g, gen_below(g, 2) ? gen_u32(g) : 0x3f80);
		EMIT(g, 0x0f, 0xae, 0x14, 0x24, 0x58);
		break;
	case 1:
		EMIT(g, 0x68);				/* fldcw (%rsp) */
		emit_u32(g, gen_u32(g));
		EMIT(g, 0xd9, 0x2c, 0x24, 0x58);
		break;
	case 2:
		EMIT(g, 0x0f, 0x77);			/* emms */
		break;
	case 3:
		EMIT(g, 0xdb, 0xe3);			/* fninit */
		break;
	case 4:
		/* fxrstor64 from the buffer the target filled */
		EMIT(g, 0x48, 0x0f, 0xae, 0x0f);
		break;
	case 5:
		/* xrstor with a crafted header at 512(%rdi) */
		emit_mov64(g, RAX, gen_below(g, 2) ? 0x7 : gen_u64(g));
		EMIT(g, 0x48, 0x89, 0x87, 0x00, 0x02, 0x00, 0x00);
		emit_mov64(g, RAX, gen_below(g, 2) ? 0 : gen_u64(g));
		EMIT(g, 0x48, 0x89, 0x87, 0x08, 0x02, 0x00, 0x00);
		emit_mov32(g, RAX, 0xffffffff);
		emit_mov32(g, RDX, 0xffffffff);
		EMIT(g, 0x48, 0x0f, 0xae, 0x2f);	/* xrstor64 (%rdi) */
		break;
	case 6:
		emit_mov32(g, RAX, 0xffffffff);
		emit_mov32(g, RDX, 0xffffffff);
		EMIT(g, 0x48, 0x0f, 0xae, 0x27);	/* xsave64 (%rdi) */
		break;
	case 7:
		EMIT(g, 0x66, 0x48, 0x0f, 0x6e, 0xc7);	/* movq %rdi, %xmm0 */
		break;
	case 8:
		EMIT(g, 0xc5, 0xfc, 0x77);		/* vzeroall */
		break;
	default:
		/* VEX with odd fields: two- or three-byte form, reg-reg */
		vex[0] = gen_below(g, 2) ? 0xc5 : 0xc4;
		vex[1] = gen_u32(g);
		vex[2] = gen_u32(g);
		vex[3] = gen_u32(g);
		vex[4] = 0xc0 | (gen_u32(g) & 0x3f);
		emit(g, vex, vex[0] == 0xc5 ? 4 : 5);
		break;
	}
}

/* What CPL 3 may ask of the CPU, and reveals kernel state if it leaks. */
static void item_info(struct sbm_fuzz_gen *g)
{
	switch (gen_below(g, 6)) {
	case 0:
		EMIT(g, 0x0f, 0x31);			/* rdtsc */
		break;
	case 1:
		EMIT(g, 0x0f, 0x01, 0xf9);		/* rdtscp */
		break;
	case 2:
		EMIT(g, 0xf3, 0x0f, 0xc7, 0xf8);	/* rdpid %rax */
		break;
	case 3:
		emit_mov32(g, RAX, gen_below(g, 2) ? gen_below(g, 0x20) :
			   0x80000000 + gen_below(g, 0x20));
		EMIT(g, 0x0f, 0xa2);			/* cpuid */
		break;
	case 4:
		EMIT(g, 0x48, 0x0f, 0xc7, 0xf0);	/* rdrand %rax */
		break;
	default:
		EMIT(g, 0x0f, 0xae, 0xe8);		/* lfence */
		break;
	}
}

/* Loads, flushes and prefetches of addresses it was not given. */
static void item_kernel_access(struct sbm_fuzz_gen *g)
{
	emit_mov64(g, RAX, gen_address(g));
	switch (gen_below(g, 6)) {
	case 0:
		EMIT(g, 0x48, 0x8b, 0x18);		/* mov (%rax), %rbx */
		break;
	case 1:
		EMIT(g, 0x48, 0x89, 0x18);		/* mov %rbx, (%rax) */
		break;
	case 2:
		EMIT(g, 0x0f, 0xae, 0x38);		/* clflush (%rax) */
		break;
	case 3:
		EMIT(g, 0x0f, 0x18, 0x08);		/* prefetcht0 (%rax) */
		break;
	case 4:
		EMIT(g, 0x0f, 0x0d, 0x08);		/* prefetchw (%rax) */
		break;
	default:
		EMIT(g, 0xff, 0xe0);			/* jmp *%rax */
		break;
	}
}

/* Writes to what the target was given, inside and just past it. */
static void item_buffer_write(struct sbm_fuzz_gen *g)
{
	const struct sbm_fuzz_env *env = g->env;
	u32 off = gen_below(g, env->rw_size + 32) - 16;

	switch (gen_below(g, 5)) {
	case 0:
		EMIT(g, 0x48, 0xc7, 0x87);		/* movq $imm, off(%rdi) */
		emit_u32(g, off);
		emit_u32(g, gen_u32(g));
		break;
	case 1:
		/* rep stosb over the buffer: push %rdi; ...; pop %rdi */
		EMIT(g, 0x57);
		emit_mov32(g, RCX, gen_below(g, env->rw_size + 64));
		EMIT(g, 0xf3, 0xaa, 0x5f);
		break;
	case 2:
		/* the read-only buffer */
		emit_mov64(g, RAX, env->ro + gen_below(g, env->ro_size));
		EMIT(g, 0x48, 0x89, 0x38);		/* mov %rdi, (%rax) */
		break;
	case 3:
		/* its own stack, below and above the return address */
		EMIT(g, 0x48, 0x89, 0xbc, 0x24);	/* mov %rdi, off(%rsp) */
		emit_u32(g, (s32)gen_below(g, 512) - 256);
		break;
	default:
		EMIT(g, 0x48, 0x89, 0x3c, 0x24);	/* the return address */
		break;
	}
}

/* Spins that run into the time limit, or nearly. */
static void item_loop(struct sbm_fuzz_gen *g)
{
	if (gen_below(g, 4) == 0) {
		EMIT(g, 0xeb, 0xfe);			/* jmp . */
	} else {
		emit_mov32(g, RCX, gen_below(g, 1 << 16));
		EMIT(g, 0xe2, 0xfe);			/* loop . */
	}
}

static const u64 service_sizes[] = {
	0, 1, 8, 64, 4095, 4096, 4097, 1 << 20, (16 << 20) + 1, 1UL << 31,
	1UL << 40, ~0UL, ~0UL - 4095,
};

/* Save %rdi, call @func with the arguments already loaded, restore it. */
static void emit_call(struct sbm_fuzz_gen *g, unsigned long func)
{
	emit_mov64(g, RAX, func);
	EMIT(g, 0xff, 0xd0, 0x5f);		/* call *%rax; pop %rdi */
}

/* Kernel services with random arguments, and a call that is not one. */
static void item_service(struct sbm_fuzz_gen *g)
{
	const struct sbm_fuzz_env *env = g->env;

	EMIT(g, 0x57);					/* push %rdi */
	switch (gen_below(g, 4)) {
	case 0:
		/* kmalloc(size, GFP_KERNEL), written to, maybe freed */
		emit_mov64(g, RDI, gen_pick(g, service_sizes, ARRAY_SIZE(service_sizes)));
		emit_mov32(g, RSI, gen_below(g, 2) ? 0xcc0 : gen_u32(g));
		emit_mov64(g, RAX, env->kmalloc);
		EMIT(g, 0xff, 0xd0);			/* call *%rax */
		EMIT(g, 0x48, 0x85, 0xc0, 0x74, 0x03);	/* test; jz */
		EMIT(g, 0x48, 0x89, 0x00);		/* mov %rax, (%rax) */
		if (gen_below(g, 2)) {
			EMIT(g, 0x48, 0x89, 0xc7);	/* mov %rax, %rdi */
			emit_mov64(g, RAX, env->kfree);
			EMIT(g, 0xff, 0xd0);
		}
		EMIT(g, 0x5f);
		break;
	case 1:
		emit_mov64(g, RDI, gen_below(g, 2) ? gen_address(g) :
			   gen_pick(g, service_sizes, ARRAY_SIZE(service_sizes)));
		emit_mov64(g, RSI, gen_below(g, 2) ? gen_address(g) :
			   gen_pick(g, service_sizes, ARRAY_SIZE(service_sizes)));
		emit_mov64(g, RDX, gen_below(g, 2) ? gen_address(g) : 0xcc0);
		emit_call(g, env->services[gen_below(g, env->nr_services)]);
		break;
	case 2:
		/* a service's entry, reached by a jump instead of a call */
		emit_mov64(g, RDI, gen_pick(g, service_sizes, ARRAY_SIZE(service_sizes)));
		emit_mov64(g, RAX, env->services[gen_below(g, env->nr_services)]);
		EMIT(g, 0xff, 0xe0);			/* jmp *%rax */
		break;
	default:
		emit_mov64(g, RDI, gen_address(g));
		emit_call(g, env->forbidden);
		break;
	}
}

struct sbm_fuzz_maker {
	void (*emit)(struct sbm_fuzz_gen *g);
	unsigned int weight;
};

static const struct sbm_fuzz_maker items[] = {
	[SBM_FUZZ_RANDOM]	 = { item_random, 10 },
	[SBM_FUZZ_FLAGS]	 = { item_flags, 12 },
	[SBM_FUZZ_SEGMENTS]	 = { item_segments, 8 },
	[SBM_FUZZ_PRIVILEGED]	 = { item_privileged, 5 },
	[SBM_FUZZ_TRAPS]	 = { item_traps, 3 },
	[SBM_FUZZ_FAR]		 = { item_far, 4 },
	[SBM_FUZZ_PIVOT]	 = { item_pivot, 2 },
	[SBM_FUZZ_PKRU]		 = { item_pkru, 8 },
	[SBM_FUZZ_FPU]		 = { item_fpu, 8 },
	[SBM_FUZZ_INFO]		 = { item_info, 6 },
	[SBM_FUZZ_KERNEL_ACCESS] = { item_kernel_access, 4 },
	[SBM_FUZZ_BUFFER_WRITE]	 = { item_buffer_write, 10 },
	[SBM_FUZZ_LOOP]		 = { item_loop, 1 },
	[SBM_FUZZ_SERVICE]	 = { item_service, 6 },
};

static void gen_mark(struct sbm_fuzz_gen *g, unsigned int start,
		     unsigned int kind)
{
	struct sbm_fuzz_stream *s = g->s;

	s->item[s->items].start = start;
	s->item[s->items].kind = kind;
	s->items++;
}

/* Add one item whole, or nothing if it does not fit. */
static void gen_item(struct sbm_fuzz_gen *g)
{
	unsigned int total = 0, pick, i, len = g->s->len;

	for (i = 0; i < ARRAY_SIZE(items); i++)
		total += items[i].weight;
	pick = gen_below(g, total);
	for (i = 0; pick >= items[i].weight; i++)
		pick -= items[i].weight;
	items[i].emit(g);
	if (g->full)
		g->s->len = len;
	else
		gen_mark(g, len, i);
}

/**
 * sbm_fuzz_generate() - make one instruction stream
 * @env:    the addresses that the stream may use
 * @seed:   the run's seed
 * @index:  the stream's number in the run
 * @stream: where to put it
 *
 * Up to 24 items, most of them harmless enough that the stream gets to
 * the next one. One stream in a hundred ends in a spin that runs into the
 * time limit; of the others, half return 0 and half run into the INT3
 * that follows them in the arena.
 */
void sbm_fuzz_generate(const struct sbm_fuzz_env *env, u64 seed, u64 index,
		       struct sbm_fuzz_stream *stream)
{
	struct sbm_fuzz_gen g = { .env = env, .s = stream };
	unsigned int n, end;

	prandom_seed_state(&g.rnd, seed ^ (index * 0x9e3779b97f4a7c15ULL));
	stream->len = 0;
	stream->items = 0;
	for (n = 1 + gen_below(&g, SBM_FUZZ_ITEMS_MAX - 1); n && !g.full; n--)
		gen_item(&g);
	g.full = false;
	g.ending = true;
	gen_mark(&g, stream->len, SBM_FUZZ_ENDING);
	end = gen_below(&g, 100);
	if (end == 0)
		EMIT(&g, 0xeb, 0xfe);			/* jmp . */
	else if (end <= 50)
		EMIT(&g, 0x31, 0xc0, 0xc3);		/* xor %eax, %eax; ret */
}
