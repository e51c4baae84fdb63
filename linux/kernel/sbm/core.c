// SPDX-License-Identifier: GPL-2.0
/*
 * SandBox Mode: the architecture-independent core.
 *
 * Each copied buffer lives in its own vmalloc area: an unmapped guard page,
 * the pages of the copy, and the unmapped guard page that every vmalloc area
 * ends with. The copy starts on a page boundary, so an access just before
 * it or just past its last page faults.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/preempt.h>
#include <linux/sched/clock.h>
#include <linux/spinlock.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "sbm.h"
#include "stats.h"

#define CREATE_TRACE_POINTS
#include <trace/events/sbm.h>

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "sbm."

unsigned int sbm_time_limit_ms = 1000;
module_param_named(time_limit_ms, sbm_time_limit_ms, uint, 0644);
MODULE_PARM_DESC(time_limit_ms, "Time a sandboxed call may run (ms)");
EXPORT_SYMBOL_IF_KUNIT(sbm_time_limit_ms);

/**
 * struct sbm_buf - a private copy of a caller's buffer
 * @list:     link in &sbm->bufs
 * @caller:   the caller's buffer
 * @copy:     the copy, page-aligned, between two guard pages
 * @size:     size of both in bytes
 * @dir:      SBM_BUF_IN, SBM_BUF_OUT or both
 * @area:     the vmalloc area that holds the copy and its guard pages
 * @nr_pages: number of pages of the copy
 * @pages:    those pages
 */
struct sbm_buf {
	struct list_head list;
	void *caller;
	void *copy;
	size_t size;
	unsigned int dir;
	struct vm_struct *area;
	unsigned long nr_pages;
	struct page *pages[] __counted_by(nr_pages);
};

static void *sbm_fail(struct sbm *sbm, int err)
{
	sbm->error = err;
	return NULL;
}

/* Reject a NULL buffer or one that wraps around the address space. */
static int sbm_check_range(const void *buf, size_t size, unsigned long *end,
			   unsigned long caller)
{
	if (!buf) {
		pr_warn_ratelimited("%pS: NULL buffer of %zu bytes\n",
				    (void *)caller, size);
		return -EINVAL;
	}
	if (check_add_overflow((unsigned long)buf, size, end) ||
	    PAGE_ALIGN(*end) < *end) {
		pr_warn_ratelimited("%pS: buffer of %zu bytes wraps around\n",
				    (void *)caller, size);
		return -EOVERFLOW;
	}
	return 0;
}

/**
 * sbm_claim() - take an instance for one operation
 * @sbm: the instance
 *
 * Every operation on an instance holds it from start to end, so that no
 * two of them, from any threads, ever overlap: a call, a buffer
 * registration, an adoption, a limit change and sbm_destroy() each either
 * proceed alone or fail.
 *
 * Return: 0; -EINVAL before sbm_init() or after sbm_destroy(); -EBUSY
 * while another operation holds @sbm.
 */
int sbm_claim(struct sbm *sbm)
{
	int err = 0;

	spin_lock(&sbm->lock);
	if (!sbm->live)
		err = -EINVAL;
	else if (sbm->busy_task)
		err = -EBUSY;
	else
		sbm->busy_task = get_task_struct(current);
	spin_unlock(&sbm->lock);
	return err;
}

/**
 * sbm_release() - end an operation that sbm_claim() started
 * @sbm: the instance
 */
void sbm_release(struct sbm *sbm)
{
	struct task_struct *task;

	spin_lock(&sbm->lock);
	task = sbm->busy_task;
	sbm->busy_task = NULL;
	spin_unlock(&sbm->lock);
	put_task_struct(task);
}

/*
 * Fail an operation that found the instance busy: its caller races a call
 * on another thread, whose result can no longer be trusted either.
 */
static void *sbm_fail_busy(struct sbm *sbm, unsigned long caller)
{
	pr_err_ratelimited("%pS: buffer registered while the instance is in use\n",
			   (void *)caller);
	cmpxchg(&sbm->error, 0, -EBUSY);
	return NULL;
}

/*
 * The checks that every buffer macro starts with, and the claim of the
 * instance. Return: 1 to go on, with @sbm claimed; 0 when the macro
 * yields @*ret without doing anything.
 */
static int sbm_start_buf(struct sbm *sbm, const void *buf, size_t size,
			 unsigned long *end, unsigned long caller, void **ret)
{
	int err;

	*ret = NULL;
	err = sbm_claim(sbm);
	if (err == -EBUSY)
		sbm_fail_busy(sbm, caller);
	if (err)
		return 0;
	if (!sbm->error && !size)
		*ret = ZERO_SIZE_PTR;
	if (!sbm->error && size) {
		err = sbm_check_range(buf, size, end, caller);
		if (!err)
			return 1;
		sbm->error = err;
	}
	sbm_release(sbm);
	return 0;
}

static int sbm_arch_map(struct sbm *sbm, unsigned long start,
			unsigned long end, bool writable)
{
	if (writable)
		return arch_sbm_map_writable(sbm, start, end);
	return arch_sbm_map_readonly(sbm, start, end);
}

static void sbm_free_buf(struct sbm_buf *buf)
{
	unsigned long i;

	if (buf->area)
		free_vm_area(buf->area);
	for (i = 0; i < buf->nr_pages && buf->pages[i]; i++)
		__free_page(buf->pages[i]);
	kvfree(buf);
}

static struct sbm_buf *sbm_alloc_buf(size_t size)
{
	unsigned long nr_pages = size / PAGE_SIZE + !!(size % PAGE_SIZE);
	unsigned long addr, i;
	struct sbm_buf *buf;

	/* Fail early, as vmalloc() does, rather than push the system to OOM. */
	if (nr_pages > totalram_pages())
		return NULL;
	buf = kvzalloc(struct_size(buf, pages, nr_pages),
		       GFP_KERNEL | __GFP_NOWARN);
	if (!buf)
		return NULL;
	buf->nr_pages = nr_pages;

	for (i = 0; i < nr_pages; i++) {
		buf->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO |
					   __GFP_NOWARN);
		if (!buf->pages[i])
			goto fail;
	}

	/* One page for the leading guard; the area adds the trailing one. */
	buf->area = get_vm_area((nr_pages + 1) << PAGE_SHIFT, VM_SPARSE);
	if (!buf->area)
		goto fail;
	addr = (unsigned long)buf->area->addr + PAGE_SIZE;
	if (vm_area_map_pages(buf->area, addr, addr + (nr_pages << PAGE_SHIFT),
			      buf->pages))
		goto fail;
	buf->copy = (void *)addr;
	return buf;

fail:
	sbm_free_buf(buf);
	return NULL;
}

/**
 * sbm_add_copy() - register a buffer to be copied into the sandbox
 * @sbm:  sandbox instance
 * @buf:  the caller's buffer
 * @size: its size in bytes
 * @dir:  SBM_BUF_IN, SBM_BUF_OUT or SBM_BUF_INOUT
 *
 * The back end of SBM_COPY_IN(), SBM_COPY_OUT() and SBM_COPY_INOUT(); use
 * those. A failure sets the sticky error: -EINVAL for a NULL @buf,
 * -EOVERFLOW for a range that wraps around, -ENOMEM when memory runs out.
 *
 * Return: the address of the zero-filled copy; ZERO_SIZE_PTR if @size is 0;
 * NULL on failure, or if the instance had already failed.
 */
void *sbm_add_copy(struct sbm *sbm, const void *buf, size_t size,
		   unsigned int dir)
{
	unsigned long start, end;
	struct sbm_buf *copy;
	void *ret;
	int err;

	if (!sbm_start_buf(sbm, buf, size, &end, _RET_IP_, &ret))
		return ret;

	copy = sbm_alloc_buf(size);
	if (!copy) {
		ret = sbm_fail(sbm, -ENOMEM);
		goto out;
	}
	copy->caller = (void *)buf;
	copy->size = size;
	copy->dir = dir;

	start = (unsigned long)copy->copy;
	end = start + (copy->nr_pages << PAGE_SHIFT);
	err = sbm_arch_map(sbm, start, end, dir & SBM_BUF_OUT);
	if (err) {
		sbm_free_buf(copy);
		ret = sbm_fail(sbm, err);
		goto out;
	}

	list_add_tail(&copy->list, &sbm->bufs);
	ret = copy->copy;
out:
	sbm_release(sbm);
	return ret;
}
EXPORT_SYMBOL_GPL(sbm_add_copy);

/**
 * sbm_add_map() - share caller memory with the sandbox without copying
 * @sbm:      sandbox instance
 * @buf:      the caller's memory
 * @size:     its size in bytes
 * @writable: whether the target may modify it
 *
 * The back end of SBM_MAP_READONLY() and SBM_MAP_WRITABLE(); use those.
 * Errors are as for sbm_add_copy(), plus those of the architecture, and
 * -EINVAL for a writable map that is not whole pages or that lies on the
 * caller's stack.
 *
 * Return: @buf; ZERO_SIZE_PTR if @size is 0; NULL on failure, or if the
 * instance had already failed.
 */
void *sbm_add_map(struct sbm *sbm, const void *buf, size_t size,
		  bool writable)
{
	unsigned long start, end;
	void *ret;
	int err;

	if (!sbm_start_buf(sbm, buf, size, &end, _RET_IP_, &ret))
		return ret;

	/*
	 * The target could write whatever else shares a page with a writable
	 * map: only whole pages, never on the caller's stack.
	 */
	if (writable && (!PAGE_ALIGNED(buf) || !PAGE_ALIGNED(size) ||
			 object_is_on_stack(buf))) {
		pr_warn_ratelimited("%pS: writable map of %zu bytes at %p is not whole pages off the stack\n",
				    (void *)_RET_IP_, size, buf);
		ret = sbm_fail(sbm, -EINVAL);
		goto out;
	}

	start = (unsigned long)buf & PAGE_MASK;
	end = PAGE_ALIGN(end);
	err = sbm_arch_map(sbm, start, end, writable);
	ret = err ? sbm_fail(sbm, err) : (void *)buf;
out:
	sbm_release(sbm);
	return ret;
}
EXPORT_SYMBOL_GPL(sbm_add_map);

/**
 * sbm_init() - set up a sandbox instance
 * @sbm: the instance to set up
 *
 * Zeroes @sbm and prepares the architecture's isolation. Whatever this
 * returns, pair it with sbm_destroy().
 *
 * Return: 0 or a negative errno, which also becomes the sticky error.
 */
int sbm_init(struct sbm *sbm)
{
	memset(sbm, 0, sizeof(*sbm));
	spin_lock_init(&sbm->lock);
	INIT_LIST_HEAD(&sbm->bufs);
	xa_init(&sbm->objects);
	sbm->alloc_limit = SBM_DEFAULT_ALLOC_LIMIT;
	sbm->live = true;
	sbm_stat_add(SBM_STAT_CREATED, 1);
	sbm->error = arch_sbm_init(sbm);
	return sbm->error;
}
EXPORT_SYMBOL_GPL(sbm_init);

/*
 * In weak isolation a target that hits a guard page kills its thread in
 * the middle of the call: that call never ends, and its claim is stale.
 */
static bool sbm_claim_orphaned(struct sbm *sbm)
{
	bool orphaned;

	spin_lock(&sbm->lock);
	orphaned = sbm->live && sbm->busy_task &&
		   (sbm->busy_task->flags & PF_EXITING);
	spin_unlock(&sbm->lock);
	return orphaned;
}

/**
 * sbm_destroy() - free a sandbox instance's resources
 * @sbm: the instance
 *
 * Frees every buffer copy, what the target allocated and the caller did
 * not adopt, and the architecture's state. Safe after a failed
 * sbm_init(), after a failed call, when no call was made and twice; the
 * buffers returned by the SBM_COPY_* macros are invalid afterwards, and
 * every later operation on @sbm fails with -EINVAL until the next
 * sbm_init(). sbm_error() keeps its value. While another operation holds
 * @sbm (a call on another thread, say), it frees nothing, reports the
 * misuse and returns: the instance stays usable and must be destroyed
 * again once that operation is over.
 */
void sbm_destroy(struct sbm *sbm)
{
	struct sbm_buf *buf, *next;
	int err = sbm_claim(sbm);

	if (err == -EBUSY && sbm_claim_orphaned(sbm)) {
		spin_lock(&sbm->lock);
		put_task_struct(sbm->busy_task);
		sbm->busy_task = get_task_struct(current);
		spin_unlock(&sbm->lock);
		err = 0;
	}
	if (err == -EBUSY)
		pr_err_ratelimited("%pS: instance destroyed while in use, not freed\n",
				   (void *)_RET_IP_);
	if (err)
		return;

	list_for_each_entry_safe(buf, next, &sbm->bufs, list)
		sbm_free_buf(buf);
	INIT_LIST_HEAD(&sbm->bufs);
	sbm_free_objects(sbm);
	xa_destroy(&sbm->objects);
	arch_sbm_destroy(sbm);
	sbm_stat_add(SBM_STAT_DESTROYED, 1);
	spin_lock(&sbm->lock);
	sbm->live = false;
	spin_unlock(&sbm->lock);
	sbm_release(sbm);
}
EXPORT_SYMBOL_GPL(sbm_destroy);

/*
 * A call needs a live instance that no other operation is using, from a
 * context that may sleep: the target may run for a long time and is
 * preempted like any kernel code.
 */
static int sbm_claim_for_call(struct sbm *sbm, unsigned long caller)
{
	if (irqs_disabled() || preempt_count()) {
		pr_err_ratelimited("%pS: sbm_exec() called from atomic context\n",
				   (void *)caller);
		return -EINVAL;
	}
	return sbm_claim(sbm);
}

/*
 * Nothing a target wrote survives its call in a copy, for the next call's
 * target to read or for the next caller to receive as output: every page
 * of the output copies, the tail of the last one included, starts zeroed
 * again. Input copies are read-only to the target.
 */
static void sbm_reset_copies(struct sbm *sbm)
{
	struct sbm_buf *buf;

	list_for_each_entry(buf, &sbm->bufs, list) {
		if (buf->dir & SBM_BUF_OUT)
			memset(buf->copy, 0, buf->nr_pages << PAGE_SHIFT);
	}
}

static int __sbm_exec(struct sbm *sbm, sbm_func func, void *data,
		      size_t args_size, unsigned long caller)
{
	size_t bytes = 0;
	struct sbm_buf *buf;
	u64 start, time;
	int ret;

	ret = sbm_claim_for_call(sbm, caller);
	if (ret)
		return ret;
	if (sbm->error) {
		ret = sbm->error;
		goto out;
	}

	sbm->caller = caller;
	sbm->args_size = args_size;
	list_for_each_entry(buf, &sbm->bufs, list) {
		if (buf->dir & SBM_BUF_IN) {
			memcpy(buf->copy, buf->caller, buf->size);
			bytes += buf->size;
		}
	}
	sbm_stat_add(SBM_STAT_CALLS, 1);
	sbm_stat_add(SBM_STAT_BYTES_IN, bytes);

	trace_sbm_enter(sbm, func);
	start = local_clock();
	ret = arch_sbm_exec(sbm, func, data);
	time = local_clock() - start;
	sbm_stat_add(SBM_STAT_TIME_NS, time);
	if (sbm->error)
		ret = sbm->error;
	trace_sbm_exit(sbm, func, ret, time);
	if (sbm->error) {
		/* Nothing of an aborted call can be trusted or adopted. */
		sbm_free_objects(sbm);
		goto out;
	}

	bytes = 0;
	list_for_each_entry(buf, &sbm->bufs, list) {
		if (buf->dir & SBM_BUF_OUT) {
			memcpy(buf->caller, buf->copy, buf->size);
			bytes += buf->size;
		}
	}
	sbm_stat_add(SBM_STAT_BYTES_OUT, bytes);
out:
	sbm_reset_copies(sbm);
	sbm_release(sbm);
	return ret;
}

/**
 * sbm_exec() - run a function in the sandbox
 * @sbm:  sandbox instance
 * @func: the target function
 * @data: its argument, passed as is
 *
 * Fills the input copies from the caller's buffers, runs @func, and if it
 * completes, copies the output copies back to the caller's buffers. With
 * strong isolation the target can use @data only if it points into memory
 * the sandbox sees (a buffer copy or a map); the sbm_call() helpers use
 * sbm_exec_args() instead, which copies their argument block.
 *
 * Call it from a context that may sleep, on an instance between
 * sbm_init() and sbm_destroy(), one call at a time.
 *
 * Return: the sticky error if the instance had failed or the sandbox was
 * aborted (nothing is copied back then); -EINVAL after sbm_destroy() or
 * from atomic context (which also warns once); -EBUSY while another call
 * on @sbm runs; otherwise what @func returned. Neither -EINVAL for atomic
 * context nor -EBUSY becomes the sticky error.
 */
int sbm_exec(struct sbm *sbm, sbm_func func, void *data)
{
	return __sbm_exec(sbm, func, data, 0, _RET_IP_);
}
EXPORT_SYMBOL_GPL(sbm_exec);

/**
 * sbm_exec_args() - run a function in the sandbox on a copy of its arguments
 * @sbm:  sandbox instance
 * @func: the target function
 * @args: its argument block, usually on the caller's stack
 * @size: size of @args in bytes
 *
 * Like sbm_exec(), but with strong isolation the target receives a private
 * copy of the @size bytes at @args, on the sandbox stack, so the caller's
 * stack stays out of its reach; in weak isolation it reads @args in place.
 * The sbm_call() helpers use it.
 *
 * Return: as for sbm_exec(); -E2BIG, which becomes the sticky error, if
 * the architecture cannot fit @size bytes on the sandbox stack.
 */
int sbm_exec_args(struct sbm *sbm, sbm_func func, void *args, size_t size)
{
	return __sbm_exec(sbm, func, args, size, _RET_IP_);
}
EXPORT_SYMBOL_GPL(sbm_exec_args);

#ifndef CONFIG_HAVE_ARCH_SBM
static int __init sbm_announce(void)
{
	pr_info("weak isolation: private guarded buffers, no arch support\n");
	return 0;
}
late_initcall(sbm_announce);

/*
 * Without architecture support the target shares the caller's address
 * space: the hooks have nothing to do.
 */

int arch_sbm_init(struct sbm *sbm)
{
	/* Lets the KUnit suite exercise a failing setup. */
	KUNIT_STATIC_STUB_REDIRECT(arch_sbm_init, sbm);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arch_sbm_init);

void arch_sbm_destroy(struct sbm *sbm)
{
}

int arch_sbm_map_readonly(struct sbm *sbm, unsigned long start,
			  unsigned long end)
{
	return 0;
}

int arch_sbm_map_writable(struct sbm *sbm, unsigned long start,
			  unsigned long end)
{
	return 0;
}

int arch_sbm_exec(struct sbm *sbm, sbm_func func, void *data)
{
	return func(data);
}

/* Targets call the allocator directly: no service ever runs. */

int arch_sbm_read(struct sbm *sbm, void *dst, unsigned long src, size_t len)
{
	return -EFAULT;
}

int arch_sbm_map_object(struct sbm *sbm, unsigned long start,
			unsigned long end)
{
	return 0;
}

void arch_sbm_unmap_object(struct sbm *sbm, unsigned long start,
			   unsigned long end)
{
}
#endif /* CONFIG_HAVE_ARCH_SBM */
