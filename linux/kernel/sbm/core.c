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
#include <linux/overflow.h>
#include <linux/sched/clock.h>
#include <linux/sbm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "stats.h"

#define CREATE_TRACE_POINTS
#include <trace/events/sbm.h>

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
 * Errors are as for sbm_add_copy(), plus those of the architecture.
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
 * Frees every buffer copy and the architecture's state. Safe after a failed
 * sbm_init(), after a failed call and when no call was made; the buffers
 * returned by the SBM_COPY_* macros are invalid afterwards.
 */
void sbm_destroy(struct sbm *sbm)
{
	struct sbm_buf *buf, *next;

	list_for_each_entry_safe(buf, next, &sbm->bufs, list)
		sbm_free_buf(buf);
	INIT_LIST_HEAD(&sbm->bufs);
	arch_sbm_destroy(sbm);
	if (sbm->live)
		sbm_stat_add(SBM_STAT_DESTROYED, 1);
	sbm->live = false;
}
EXPORT_SYMBOL_GPL(sbm_destroy);

/**
 * sbm_exec() - run a function in the sandbox
 * @sbm:  sandbox instance
 * @func: the target function
 * @data: its argument, usually built by a sbm_call() helper
 *
 * Fills the input copies from the caller's buffers, runs @func, and if it
 * completes, copies the output copies back to the caller's buffers.
 *
 * Return: the sticky error if the instance had failed or the sandbox was
 * aborted (nothing is copied back then); otherwise what @func returned.
 */
int sbm_exec(struct sbm *sbm, sbm_func func, void *data)
{
	size_t bytes = 0;
	struct sbm_buf *buf;
	u64 start, time;
	int ret;

	if (sbm->error)
		return sbm->error;

	sbm->caller = _RET_IP_;
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
	if (sbm->error)
		return ret;

	bytes = 0;
	list_for_each_entry(buf, &sbm->bufs, list) {
		if (buf->dir & SBM_BUF_OUT) {
			memcpy(buf->caller, buf->copy, buf->size);
			bytes += buf->size;
		}
	}
	sbm_stat_add(SBM_STAT_BYTES_OUT, bytes);
	return ret;
}
EXPORT_SYMBOL_GPL(sbm_exec);

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
#endif /* CONFIG_HAVE_ARCH_SBM */
