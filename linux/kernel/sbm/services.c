// SPDX-License-Identifier: GPL-2.0
/*
 * SandBox Mode: kernel services that a target may call.
 *
 * A target calls an allowlisted kernel function by its usual name. The
 * architecture stops the sandbox at the function's entry and asks
 * sbm_call_service() to serve the call: the handler of the allowlist entry
 * runs in kernel mode, in the caller's task, and its result becomes the
 * return value of the target's call. The allowlist is spread over the
 * kernel: each entry sits next to the code that needs it, in the
 * .sbm_services section.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <linux/export.h>
#include <linux/kallsyms.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/string.h>

#include "stats.h"

/**
 * sbm_is_service() - is a function on the allowlist of any target?
 * @func: the address of the function
 *
 * Return: true if an allowlist entry names @func.
 */
bool sbm_is_service(unsigned long func)
{
	const struct sbm_service *svc;

	for (svc = __start_sbm_services; svc < __stop_sbm_services; svc++)
		if ((unsigned long)svc->func == func)
			return true;
	return false;
}

/* The entry for @func that @target may use, or NULL. */
static const struct sbm_service *sbm_find_service(unsigned long func,
						  sbm_func target)
{
	const struct sbm_service *svc;

	for (svc = __start_sbm_services; svc < __stop_sbm_services; svc++)
		if ((unsigned long)svc->func == func &&
		    (!svc->target || svc->target == target))
			return svc;
	return NULL;
}

/**
 * sbm_service_reject() - end the sandbox over a bad argument
 * @call: the service call
 * @arg:  the name of the argument, for the report
 *
 * For service handlers: the sandbox stops once the handler returns, with
 * a report that names the service and @arg.
 *
 * Return: 0, for the handler to return.
 */
unsigned long sbm_service_reject(struct sbm_service_call *call,
				 const char *arg)
{
	if (!call->bad_arg)
		call->bad_arg = arg;
	return 0;
}
EXPORT_SYMBOL_GPL(sbm_service_reject);

/**
 * sbm_service_read() - read memory as the target sees it
 * @call: the service call
 * @dst:  kernel buffer
 * @src:  address in the sandbox
 * @len:  number of bytes
 * @arg:  the name of the argument that gave @src, for the report
 *
 * Reads through the sandbox's own view of memory, so a service never
 * reads for a target what the target could not read itself. Memory it
 * may not read rejects the call.
 *
 * Return: 0, or -EFAULT after rejecting the call.
 */
int sbm_service_read(struct sbm_service_call *call, void *dst,
		     unsigned long src, size_t len, const char *arg)
{
	if (arch_sbm_read(call->sbm, dst, src, len)) {
		sbm_service_reject(call, arg);
		return -EFAULT;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(sbm_service_read);

/**
 * sbm_call_service() - serve a target's call of a kernel function
 * @sbm:    the instance
 * @target: the running target
 * @func:   the address the target called
 * @args:   the six argument registers of the call
 * @ret:    where to store the return value of the call
 * @abort:  filled in when the call ends the sandbox
 * @buf:    room for the reason of the abort
 * @len:    size of @buf
 *
 * Called by the architecture in task context, interrupts enabled.
 *
 * Return: 0 when the call was served; -EPERM when @target may not call
 * @func and -EINVAL when it passed a bad argument, with @abort filled in.
 */
int sbm_call_service(struct sbm *sbm, sbm_func target, unsigned long func,
		     const unsigned long *args, unsigned long *ret,
		     struct sbm_abort *abort, char *buf, size_t len)
{
	const struct sbm_service *svc = sbm_find_service(func, target);
	struct sbm_service_call call = { .sbm = sbm };

	if (!svc) {
		abort->callee = func;
		abort->kind = SBM_ABORT_FORBIDDEN_CALL;
		snprintf(buf, len, "call of %ps, not allowed for this target",
			 (void *)func);
		abort->reason = buf;
		return -EPERM;
	}
	memcpy(call.args, args, sizeof(call.args));
	*ret = svc->handler(&call);
	sbm_stat_add(SBM_STAT_PROXIED_CALLS, 1);
	if (call.bad_arg) {
		abort->callee = func;
		abort->kind = SBM_ABORT_SERVICE_ARGUMENT;
		snprintf(buf, len, "bad argument '%s' of %s", call.bad_arg,
			 svc->name);
		abort->reason = buf;
		return -EINVAL;
	}
	return 0;
}
