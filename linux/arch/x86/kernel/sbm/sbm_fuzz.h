/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64 SandBox Mode boundary fuzzer: the generator of instruction
 * streams and the code that runs them.
 */
#ifndef _X86_KERNEL_SBM_FUZZ_H
#define _X86_KERNEL_SBM_FUZZ_H

#include <linux/types.h>

/* Room for a stream in the arena page, which ends in INT3 bytes. */
#define SBM_FUZZ_STREAM_MAX	1024

#define SBM_FUZZ_ITEMS_MAX	25
#define SBM_FUZZ_SERVICES	8
#define SBM_FUZZ_KERNEL_ADDRS	12

/* The kinds of item a stream is made of. */
enum sbm_fuzz_kind {
	SBM_FUZZ_RANDOM, SBM_FUZZ_FLAGS, SBM_FUZZ_SEGMENTS,
	SBM_FUZZ_PRIVILEGED, SBM_FUZZ_TRAPS, SBM_FUZZ_FAR, SBM_FUZZ_PIVOT,
	SBM_FUZZ_PKRU, SBM_FUZZ_FPU, SBM_FUZZ_INFO, SBM_FUZZ_KERNEL_ACCESS,
	SBM_FUZZ_BUFFER_WRITE, SBM_FUZZ_LOOP, SBM_FUZZ_SERVICE,
	SBM_FUZZ_ENDING,
	SBM_FUZZ_KINDS
};

/**
 * struct sbm_fuzz_env - what the generator may aim a stream at
 * @rw:       the writable buffer the target gets in %rdi
 * @rw_size:  its size
 * @ro:       a read-only buffer, also mapped
 * @ro_size:  its size
 * @services: allowlisted services to call, with random arguments
 * @nr_services: how many
 * @kmalloc:  the allocation service, for alloc-and-free sequences
 * @kfree:    the matching free
 * @forbidden: a kernel function that is not a service
 * @kernel:   kernel addresses to load, flush, prefetch and jump to
 * @nr_kernel: how many
 */
struct sbm_fuzz_env {
	unsigned long rw;
	size_t rw_size;
	unsigned long ro;
	size_t ro_size;
	unsigned long services[SBM_FUZZ_SERVICES];
	unsigned int nr_services;
	unsigned long kmalloc;
	unsigned long kfree;
	unsigned long forbidden;
	unsigned long kernel[SBM_FUZZ_KERNEL_ADDRS];
	unsigned int nr_kernel;
};

/**
 * struct sbm_fuzz_item - where an item of a stream starts
 * @start: its offset
 * @kind:  what it is, an &enum sbm_fuzz_kind
 */
struct sbm_fuzz_item {
	u16 start;
	u8 kind;
};

/**
 * struct sbm_fuzz_stream - one generated stream
 * @len:   its length in bytes
 * @items: how many items it was made of, its ending included
 * @item:  the items
 * @bytes: the instructions
 */
struct sbm_fuzz_stream {
	unsigned int len;
	unsigned int items;
	struct sbm_fuzz_item item[SBM_FUZZ_ITEMS_MAX];
	u8 bytes[SBM_FUZZ_STREAM_MAX];
};

/* The caller's buffers: a guard page, rw, a guard page, ro, a guard page. */
#define SBM_FUZZ_RW_PAGES	2
#define SBM_FUZZ_AREA_PAGES	(4 + SBM_FUZZ_RW_PAGES)
#define SBM_FUZZ_GUARD_BYTE	0x6b
#define SBM_FUZZ_RO_BYTE	0x5a

/**
 * struct sbm_fuzz_area - the buffers streams are given, and their guards
 * @pages: %SBM_FUZZ_AREA_PAGES pages laid out as above
 * @env:   streams aimed at them, and at the current task
 */
struct sbm_fuzz_area {
	u8 *pages;
	struct sbm_fuzz_env env;
};

struct sbm;
int sbm_fuzz_area_alloc(struct sbm_fuzz_area *area);
void sbm_fuzz_area_free(struct sbm_fuzz_area *area);
void sbm_fuzz_area_aim(struct sbm_fuzz_area *area);
bool sbm_fuzz_area_map(struct sbm_fuzz_area *area, struct sbm *sbm);
bool sbm_fuzz_area_guards_intact(const struct sbm_fuzz_area *area);
void sbm_fuzz_load(const struct sbm_fuzz_stream *stream, u8 *scratch);
void sbm_fuzz_clear(u8 *scratch);
long sbm_fuzz_offset(unsigned long ip);
void sbm_fuzz_generate(const struct sbm_fuzz_env *env, u64 seed, u64 index,
		       struct sbm_fuzz_stream *stream);

/**
 * struct sbm_fuzz_regs - the caller's registers when sbm_exec() returned
 * @bx: %rbx
 * @bp_moved: how far %rbp moved from its frame (0)
 * @r12: %r12
 * @r13: %r13
 * @r14: %r14
 * @r15: %r15
 * @sp_moved: how far %rsp moved across the call (0)
 * @flags: RFLAGS
 */
struct sbm_fuzz_regs {
	unsigned long bx, bp_moved, r12, r13, r14, r15, sp_moved, flags;
};

/* The values that sbm_fuzz_exec() puts into the callee-saved registers. */
#define SBM_FUZZ_BX	0xb0b0b0b0b0b0b0b0UL
#define SBM_FUZZ_R12	0x1212121212121212UL
#define SBM_FUZZ_R13	0x1313131313131313UL
#define SBM_FUZZ_R14	0x1414141414141414UL
#define SBM_FUZZ_R15	0x1515151515151515UL

int sbm_fuzz_exec(struct sbm *sbm, void *target, void *data,
		  struct sbm_fuzz_regs *regs);
extern const u8 sbm_fuzz_arena[];

#endif /* _X86_KERNEL_SBM_FUZZ_H */
