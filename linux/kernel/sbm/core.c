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
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/preempt.h>
#include <linux/sched/clock.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/sbm.h>
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
EXPORT_SYMBOL_GPL(sbm_time_limit_ms);

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

/*
 * The checks that every buffer macro starts with. Return: 1 to go on; 0
 * when the macro yields @*ret without doing anything.
 */
static int sbm_start_buf(struct sbm *sbm, const void *buf, size_t size,
			 unsigned long *end, unsigned long caller, void **ret)
{
	int err;

	*ret = NULL;
	if (!sbm->live && !sbm->error)
		sbm->error = -EINVAL;
	if (sbm->error)
		return 0;
	if (!size) {
		*ret = ZERO_SIZE_PTR;
		return 0;
	}
	err = sbm_check_range(buf, size, end, caller);
	if (err) {
		sbm->error = err;
		return 0;
	}
	return 1;
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
	if (!copy)
		return sbm_fail(sbm, -ENOMEM);
	copy->caller = (void *)buf;
	copy->size = size;
	copy->dir = dir;

	start = (unsigned long)copy->copy;
	end = start + (copy->nr_pages << PAGE_SHIFT);
	err = sbm_arch_map(sbm, start, end, dir & SBM_BUF_OUT);
	if (err) {
		sbm_free_buf(copy);
		return sbm_fail(sbm, err);
	}

	list_add_tail(&copy->list, &sbm->bufs);
	return copy->copy;
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
		return sbm_fail(sbm, -EINVAL);
	}

	start = (unsigned long)buf & PAGE_MASK;
	end = PAGE_ALIGN(end);
	err = sbm_arch_map(sbm, start, end, writable);
	if (err)
		return sbm_fail(sbm, err);
	return (void *)buf;
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
	INIT_LIST_HEAD(&sbm->bufs);
	xa_init(&sbm->objects);
	sbm->alloc_limit = SBM_DEFAULT_ALLOC_LIMIT;
	sbm->live = true;
	sbm_stat_add(SBM_STAT_CREATED, 1);
	sbm->error = arch_sbm_init(sbm);
	return sbm->error;
}
EXPORT_SYMBOL_GPL(sbm_init);

/**
 * sbm_destroy() - free a sandbox instance's resources
 * @sbm: the instance
 *
 * Frees every buffer copy, what the target allocated and the caller did
 * not adopt, and the architecture's state. Safe after a failed
 * sbm_init(), after a failed call, when no call was made and twice; the
 * buffers returned by the SBM_COPY_* macros are invalid afterwards, and
 * every later operation on @sbm fails with -EINVAL (or the sticky error it
 * had) until the next sbm_init().
 */
void sbm_destroy(struct sbm *sbm)
{
	struct sbm_buf *buf, *next;

	if (test_bit(0, &sbm->busy)) {
		/*
		 * Freeing what a running call uses would be worse than a leak,
		 * unless the call can never finish: in weak isolation a target
		 * that hits a guard page kills its thread.
		 */
		if (WARN_ONCE(!(sbm->busy_task->flags & PF_EXITING),
			      "sbm: instance destroyed while a call runs\n"))
			return;
		put_task_struct(sbm->busy_task);
		clear_bit_unlock(0, &sbm->busy);
	}
	list_for_each_entry_safe(buf, next, &sbm->bufs, list)
		sbm_free_buf(buf);
	INIT_LIST_HEAD(&sbm->bufs);
	sbm_free_objects(sbm);
	xa_destroy(&sbm->objects);
	arch_sbm_destroy(sbm);
	if (sbm->live)
		sbm_stat_add(SBM_STAT_DESTROYED, 1);
	sbm->live = false;
	if (!sbm->error)
		sbm->error = -EINVAL;
}
EXPORT_SYMBOL_GPL(sbm_destroy);

/*
 * A call needs a live instance that no other call is using, from a
 * context that may sleep: the target may run for a long time and is
 * preempted like any kernel code.
 */
static int sbm_claim(struct sbm *sbm)
{
	if (!sbm->live)
		return -EINVAL;
	if (WARN_ONCE(irqs_disabled() || preempt_count(),
		      "sbm: sbm_exec() called from atomic context\n"))
		return -EINVAL;
	if (test_and_set_bit_lock(0, &sbm->busy))
		return -EBUSY;
	sbm->busy_task = get_task_struct(current);
	return 0;
}

static void sbm_release(struct sbm *sbm)
{
	put_task_struct(sbm->busy_task);
	clear_bit_unlock(0, &sbm->busy);
}

static int __sbm_exec(struct sbm *sbm, sbm_func func, void *data,
		      size_t args_size, unsigned long caller)
{
	size_t bytes = 0;
	struct sbm_buf *buf;
	u64 start, time;
	int ret;

	ret = sbm_claim(sbm);
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
EXPORT_SYMBOL_GPL(arch_sbm_init);

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
