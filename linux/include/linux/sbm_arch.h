/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SandBox Mode: the interface between the generic core and an
 * architecture's strong isolation (how the architecture reports an abort,
 * hands a kernel-service call to the core and maps allocated objects), also
 * read by the test suites through the sbm_abort tracepoint. Callers of
 * SandBox Mode need only <linux/sbm.h>.
 */
#ifndef _LINUX_SBM_ARCH_H
#define _LINUX_SBM_ARCH_H

#include <linux/sbm.h>

/* How long a call may run in a strong sandbox: sbm.time_limit_ms. */
extern unsigned int sbm_time_limit_ms;

/* Where the architecture puts its debugfs files. */
struct dentry;
struct dentry *sbm_debugfs_dir(void);

/**
 * enum sbm_abort_kind - classes of sandbox aborts, for statistics
 * @SBM_ABORT_PAGE_FAULT:         access to memory the sandbox may not use
 * @SBM_ABORT_GENERAL_PROTECTION: privileged instruction, bad address
 * @SBM_ABORT_INVALID_OPCODE:     undefined instruction
 * @SBM_ABORT_BREAKPOINT:         breakpoint or debug trap
 * @SBM_ABORT_DIVIDE_ERROR:       division by zero or overflow
 * @SBM_ABORT_SYSCALL:            the target asked for a system call
 * @SBM_ABORT_TIME_LIMIT:         the target ran for too long
 * @SBM_ABORT_FORBIDDEN_CALL:     the target called a kernel function it may
 *                                not use
 * @SBM_ABORT_SERVICE_ARGUMENT:   the target passed a bad argument to a
 *                                service
 * @SBM_ABORT_OTHER:              anything else
 * @SBM_ABORT_NR:                 number of classes
 */
enum sbm_abort_kind {
	SBM_ABORT_PAGE_FAULT,
	SBM_ABORT_GENERAL_PROTECTION,
	SBM_ABORT_INVALID_OPCODE,
	SBM_ABORT_BREAKPOINT,
	SBM_ABORT_DIVIDE_ERROR,
	SBM_ABORT_SYSCALL,
	SBM_ABORT_TIME_LIMIT,
	SBM_ABORT_FORBIDDEN_CALL,
	SBM_ABORT_SERVICE_ARGUMENT,
	SBM_ABORT_OTHER,
	SBM_ABORT_NR
};

/* How many calls of a forbidden call chain a report names. */
#define SBM_ABORT_CHAIN		6

/**
 * struct sbm_abort - why and where the architecture stopped a sandbox
 * @err:      the error that the call fails with, such as -EFAULT
 * @kind:     the class of the abort
 * @reason:   what happened, in a few words
 * @ip:       the instruction pointer of the target
 * @addr:     the address involved, if @has_addr
 * @has_addr: whether @addr means anything
 * @callee:   for %SBM_ABORT_FORBIDDEN_CALL and %SBM_ABORT_SERVICE_ARGUMENT,
 *            the kernel function that the target called
 * @chain:    for %SBM_ABORT_FORBIDDEN_CALL, the functions called on the way
 *            from the target to @ip, innermost first, as far as the
 *            architecture could tell
 * @chain_len: number of entries in @chain
 */
struct sbm_abort {
	int err;
	enum sbm_abort_kind kind;
	const char *reason;
	unsigned long ip;
	unsigned long addr;
	bool has_addr;
	unsigned long callee;
	unsigned long chain[SBM_ABORT_CHAIN];
	unsigned int chain_len;
};

void sbm_abort(struct sbm *sbm, sbm_func func, const struct sbm_abort *abort);

/* The allowlist, for the architecture. */
extern const struct sbm_service __start_sbm_services[];
extern const struct sbm_service __stop_sbm_services[];

int sbm_call_service(struct sbm *sbm, sbm_func target, unsigned long func,
		     const unsigned long *args, unsigned long *ret,
		     struct sbm_abort *abort, char *buf, size_t len);
bool sbm_is_service(unsigned long func);

/*
 * Arch hooks of the allocation services: what the target sees at an
 * address, and objects that only one sandbox may read and write.
 */
int arch_sbm_read(struct sbm *sbm, void *dst, unsigned long src,
		  size_t len);
int arch_sbm_map_object(struct sbm *sbm, unsigned long start,
			unsigned long end);
void arch_sbm_unmap_object(struct sbm *sbm, unsigned long start,
			   unsigned long end);

#endif /* _LINUX_SBM_ARCH_H */
