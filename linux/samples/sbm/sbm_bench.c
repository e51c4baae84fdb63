// SPDX-License-Identifier: GPL-2.0
/*
 * SandBox Mode benchmark: reading /sys/kernel/debug/sbm_bench/results runs
 * each scenario and prints "name nanoseconds-per-operation" lines.
 *
 * Scenarios: an empty call, an empty call with an input and an output
 * buffer of 4 KiB, 64 KiB and 1 MiB (SBM copies both), setting up and
 * tearing down an instance, and a kmalloc() and kfree() pair, which a
 * strong sandbox gets as two service calls; each directly and through
 * SBM. "Directly" with buffers means copying them by hand, the work SBM
 * does for the caller.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sbm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#define BENCH_MAX_SIZE	(1024 * 1024)

static const unsigned int bench_sizes[] = { 4096, 65536, BENCH_MAX_SIZE };

static SBM_DEFINE_FUNC(bench_empty)
{
	return 0;
}

static SBM_DEFINE_FUNC(bench_buffers, const void *, in, void *, out)
{
	return 0;
}

/* @n pairs of kmalloc() and kfree(), in one call. */
static SBM_DEFINE_FUNC(bench_alloc, unsigned int, n)
{
	unsigned int i;
	void *p;

	for (i = 0; i < n; i++) {
		p = kmalloc(64, GFP_KERNEL);
		if (!p)
			return -ENOMEM;
		OPTIMIZER_HIDE_VAR(p);
		kfree(p);
	}
	return 0;
}

static noinline int bench_direct(void)
{
	barrier();
	return 0;
}

/* Iterations that keep each scenario to some million nanoseconds. */
static unsigned int bench_iterations(size_t bytes)
{
	return clamp_t(size_t, (16 * BENCH_MAX_SIZE) / (bytes + 4096), 4, 1000);
}

static void bench_report(struct seq_file *m, const char *name,
			 unsigned int size, ktime_t start, unsigned int n)
{
	u64 ns = ktime_to_ns(ktime_sub(ktime_get(), start));

	seq_printf(m, "%s %u %llu\n", name, size, div_u64(ns, n));
}

static void bench_calls(struct seq_file *m)
{
	unsigned int i, n = 1000;
	struct sbm sbm;
	ktime_t start;

	start = ktime_get();
	for (i = 0; i < n; i++)
		bench_direct();
	bench_report(m, "call_direct", 0, start, n);

	sbm_init(&sbm);
	start = ktime_get();
	for (i = 0; i < n; i++)
		sbm_call(&sbm, bench_empty);
	bench_report(m, "call_sbm", 0, start, n);
	sbm_destroy(&sbm);

	n = 50;
	start = ktime_get();
	for (i = 0; i < n; i++) {
		sbm_init(&sbm);
		sbm_destroy(&sbm);
	}
	bench_report(m, "init_destroy_sbm", 0, start, n);
}

/*
 * A kmalloc() and kfree() pair: directly, and from a target that does
 * many of them in one call, so that the cost of the call itself drops out.
 */
static void bench_allocations(struct seq_file *m)
{
	unsigned int n = 1000;
	struct sbm sbm;
	ktime_t start;

	start = ktime_get();
	bench_alloc(n);
	bench_report(m, "alloc_direct", 0, start, n);

	sbm_init(&sbm);
	start = ktime_get();
	sbm_call(&sbm, bench_alloc, n);
	bench_report(m, "alloc_sbm", 0, start, n);
	sbm_destroy(&sbm);
}

static void bench_copies(struct seq_file *m, void *in, void *out,
			 unsigned int size)
{
	unsigned int i, n = bench_iterations(2 * size);
	struct sbm sbm;
	ktime_t start;

	start = ktime_get();
	for (i = 0; i < n; i++) {
		memcpy(out, in, size);
		memcpy(in, out, size);
		bench_direct();
	}
	bench_report(m, "copies_direct", size, start, n);

	start = ktime_get();
	for (i = 0; i < n; i++)
		memcpy(out, in, size);
	bench_report(m, "memcpy", size, start, n);

	sbm_init(&sbm);
	in = SBM_COPY_IN(&sbm, in, size);
	out = SBM_COPY_OUT(&sbm, out, size);
	start = ktime_get();
	for (i = 0; i < n; i++)
		sbm_call(&sbm, bench_buffers, in, out);
	bench_report(m, "copies_sbm", size, start, n);
	sbm_destroy(&sbm);
}

static int bench_show(struct seq_file *m, void *v)
{
	void *in = vzalloc(BENCH_MAX_SIZE), *out = vzalloc(BENCH_MAX_SIZE);
	unsigned int i;

	if (in && out) {
		bench_calls(m);
		bench_allocations(m);
		for (i = 0; i < ARRAY_SIZE(bench_sizes); i++)
			bench_copies(m, in, out, bench_sizes[i]);
	}
	vfree(out);
	vfree(in);
	return in && out ? 0 : -ENOMEM;
}
DEFINE_SHOW_ATTRIBUTE(bench);

static struct dentry *bench_dir;

static int __init bench_init(void)
{
	bench_dir = debugfs_create_dir("sbm_bench", NULL);
	debugfs_create_file("results", 0400, bench_dir, NULL, &bench_fops);
	return 0;
}
module_init(bench_init);

static void __exit bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
}
module_exit(bench_exit);

MODULE_DESCRIPTION("SandBox Mode benchmark");
MODULE_LICENSE("GPL");
