// SPDX-License-Identifier: GPL-2.0-only
/*
 * SandBox Mode benchmark: reading /sys/kernel/debug/sbm_bench/results runs
 * each scenario and prints its cost per operation in nanoseconds.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sbm.h>
#include <linux/seq_file.h>

#define BENCH_ITERATIONS	2000

static SBM_DEFINE_FUNC(bench_empty)
{
	return 0;
}

static noinline int bench_direct(void)
{
	barrier();
	return 0;
}

static u64 bench_ns(ktime_t start, unsigned int n)
{
	return div_u64(ktime_to_ns(ktime_sub(ktime_get(), start)), n);
}

static int bench_show(struct seq_file *m, void *v)
{
	unsigned int i, n = BENCH_ITERATIONS;
	struct sbm sbm;
	ktime_t start;
	int ret = 0;

	start = ktime_get();
	for (i = 0; i < n; i++)
		ret |= bench_direct();
	seq_printf(m, "direct_call %llu\n", bench_ns(start, n));

	sbm_init(&sbm);
	start = ktime_get();
	for (i = 0; i < n; i++)
		ret |= sbm_call(&sbm, bench_empty);
	seq_printf(m, "empty_sbm_call %llu\n", bench_ns(start, n));
	sbm_destroy(&sbm);

	start = ktime_get();
	for (i = 0; i < n / 10; i++) {
		ret |= sbm_init(&sbm);
		sbm_destroy(&sbm);
	}
	seq_printf(m, "sbm_init_destroy %llu\n", bench_ns(start, n / 10));
	return ret;
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
