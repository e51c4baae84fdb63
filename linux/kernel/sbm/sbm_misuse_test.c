// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for misuse of the SandBox Mode API: each mistake a caller
 * can make with an instance ends in a clear error, never a crash, at
 * every isolation level.
 */

#define pr_fmt(fmt) "sbm_misuse_test: " fmt

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

/* A writable map that would expose more than its range is refused. */
static void partial_page_writable_map_refused(struct kunit *test)
{
	unsigned long local = 0;
	struct sbm sbm;
	u32 *obj, *page;

	obj = kunit_kzalloc(test, 16, GFP_KERNEL);
	page = vzalloc(2 * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	KUNIT_ASSERT_NOT_NULL(test, page);

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_NULL(test, SBM_MAP_WRITABLE(&sbm, &local, sizeof(local)));
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -EINVAL);
	sbm_destroy(&sbm);

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_NULL(test, SBM_MAP_WRITABLE(&sbm, obj, 16));
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -EINVAL);
	sbm_destroy(&sbm);

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_NULL(test, SBM_MAP_WRITABLE(&sbm, page + 1, PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -EINVAL);
	sbm_destroy(&sbm);

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_NULL(test, SBM_MAP_WRITABLE(&sbm, page, PAGE_SIZE + 4));
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -EINVAL);
	sbm_destroy(&sbm);

	/* Whole pages are fine. */
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_PTR_EQ(test, SBM_MAP_WRITABLE(&sbm, page, PAGE_SIZE),
			    page);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), 0);
	sbm_destroy(&sbm);
	vfree(page);
}

/* Words of a page shared by a spinning target and the test. */
enum { SPIN_RUNNING, SPIN_RELEASE };

static SBM_DEFINE_FUNC(spin_until_released, unsigned long *, shared)
{
	WRITE_ONCE(shared[SPIN_RUNNING], 1);
	while (!READ_ONCE(shared[SPIN_RELEASE]))
		cpu_relax();
	return 0;
}

struct spinner {
	struct sbm sbm;
	unsigned long *shared;
	unsigned int saved_limit;
	int ret;
	struct completion done;
};

static int spinner_fn(void *data)
{
	struct spinner *s = data;

	s->ret = sbm_call(&s->sbm, spin_until_released, s->shared);
	complete(&s->done);
	return 0;
}

/*
 * Start a call on another CPU that spins until released, and stay on this
 * CPU. Return: 0, or a negative errno with nothing left to undo.
 */
static int spinner_start(struct spinner *s)
{
	struct task_struct *task;
	int err = -ENOMEM;

	s->shared = vzalloc(PAGE_SIZE);
	if (!s->shared)
		return err;
	err = sbm_init(&s->sbm);
	if (!err && !SBM_MAP_WRITABLE(&s->sbm, s->shared, PAGE_SIZE))
		err = sbm_error(&s->sbm);
	task = err ? ERR_PTR(err) : kthread_create(spinner_fn, s, "sbm_busy");
	if (IS_ERR(task)) {
		sbm_destroy(&s->sbm);
		vfree(s->shared);
		return PTR_ERR(task);
	}
	init_completion(&s->done);
	/* However slow this machine, the spinner must not time out. */
	s->saved_limit = sbm_time_limit_ms;
	sbm_time_limit_ms = 600000;
	migrate_disable();
	kthread_bind(task, cpumask_any_but(cpu_online_mask,
					   raw_smp_processor_id()));
	wake_up_process(task);
	while (!READ_ONCE(s->shared[SPIN_RUNNING]))
		cond_resched();
	return 0;
}

/* Let the spinner's call finish; then it is an ordinary instance. */
static void spinner_release(struct spinner *s)
{
	WRITE_ONCE(s->shared[SPIN_RELEASE], 1);
	migrate_enable();
	wait_for_completion(&s->done);
	sbm_time_limit_ms = s->saved_limit;
}

/*
 * A second sbm_exec() on an instance that is running on another CPU is
 * refused; the running call is not disturbed.
 */
static void concurrent_exec_busy(struct kunit *test)
{
	struct spinner s = { };

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	KUNIT_ASSERT_EQ(test, spinner_start(&s), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&s.sbm, spin_until_released, s.shared),
			-EBUSY);
	spinner_release(&s);
	KUNIT_EXPECT_EQ(test, s.ret, 0);
	KUNIT_EXPECT_EQ(test, sbm_error(&s.sbm), 0);
	sbm_destroy(&s.sbm);
	vfree(s.shared);
}

/*
 * sbm_destroy() while a call runs frees nothing, so the running call
 * finishes on intact memory; destroying it afterwards works.
 */
static void destroy_while_running(struct kunit *test)
{
	struct spinner s = { };

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	KUNIT_ASSERT_EQ(test, spinner_start(&s), 0);
	sbm_destroy(&s.sbm);
	spinner_release(&s);
	KUNIT_EXPECT_EQ(test, s.ret, 0);
	KUNIT_EXPECT_EQ(test, sbm_error(&s.sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&s.sbm, spin_until_released, s.shared),
			0);
	sbm_destroy(&s.sbm);
	KUNIT_EXPECT_EQ(test, sbm_error(&s.sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&s.sbm, spin_until_released, s.shared),
			-EINVAL);
	vfree(s.shared);
}

/*
 * While a call runs on another CPU, no other operation on the instance
 * proceeds: a buffer registration fails the instance (the running call
 * cannot be trusted any more), adoption and limit changes are refused.
 */
static void operations_while_running(struct kunit *test)
{
	struct spinner s = { };
	u32 val = 0;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	KUNIT_ASSERT_EQ(test, spinner_start(&s), 0);
	KUNIT_EXPECT_EQ(test, sbm_set_alloc_limit(&s.sbm, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, sbm_adopt(&s.sbm, s.shared),
			IS_ENABLED(CONFIG_HAVE_ARCH_SBM) ? -EBUSY : 0);
	KUNIT_EXPECT_EQ(test, sbm_object_size(&s.sbm, s.shared), 0);
	KUNIT_EXPECT_NULL(test, SBM_COPY_IN(&s.sbm, &val, sizeof(val)));
	KUNIT_EXPECT_EQ(test, sbm_error(&s.sbm), -EBUSY);
	spinner_release(&s);
	KUNIT_EXPECT_EQ(test, s.ret, -EBUSY);
	sbm_destroy(&s.sbm);
	KUNIT_EXPECT_EQ(test, sbm_error(&s.sbm), -EBUSY);
	vfree(s.shared);
}

#define DESTROY_RACE_ROUNDS	200

struct racer {
	struct sbm sbm;
	atomic_t started;
	int ret;
	struct completion done;
};

static SBM_DEFINE_FUNC(return_zero)
{
	return 0;
}

/* Call until the instance is gone. */
static int racer_fn(void *data)
{
	struct racer *r = data;

	atomic_set(&r->started, 1);
	do {
		r->ret = sbm_call(&r->sbm, return_zero);
	} while (r->ret == 0 || r->ret == -EBUSY);
	complete(&r->done);
	return 0;
}

/*
 * sbm_destroy() racing calls on another CPU, at whatever point of a call
 * it lands: it either frees the instance, after which every call fails
 * with -EINVAL, or is refused while a call holds it. Never a crash.
 */
static void destroy_races_exec(struct kunit *test)
{
	/* Static: the last racer may still be in complete() when we return. */
	static struct racer racer;
	struct racer *r = &racer;
	struct task_struct *task;
	unsigned int i;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	for (i = 0; i < DESTROY_RACE_ROUNDS; i++) {
		KUNIT_ASSERT_EQ(test, sbm_init(&r->sbm), 0);
		atomic_set(&r->started, 0);
		init_completion(&r->done);
		task = kthread_create(racer_fn, r, "sbm_racer");
		KUNIT_ASSERT_FALSE(test, IS_ERR(task));
		migrate_disable();
		kthread_bind(task, cpumask_any_but(cpu_online_mask,
						   raw_smp_processor_id()));
		wake_up_process(task);
		while (!atomic_read(&r->started))
			cond_resched();
		/* Refused while a call holds the instance: try again. */
		do {
			sbm_destroy(&r->sbm);
		} while (!try_wait_for_completion(&r->done));
		migrate_enable();
		KUNIT_EXPECT_EQ(test, r->ret, -EINVAL);
		KUNIT_EXPECT_EQ(test, sbm_error(&r->sbm), 0);
		sbm_destroy(&r->sbm);
	}
}

static SBM_DEFINE_FUNC(return_one)
{
	return 1;
}

/*
 * Every operation after sbm_destroy() fails with -EINVAL, and sbm_error()
 * still tells what happened while the instance lived.
 */
static void use_after_destroy(struct kunit *test)
{
	struct sbm sbm;
	u32 val = 0;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, return_one), 1);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, return_one), -EINVAL);
	KUNIT_EXPECT_NULL(test, SBM_COPY_IN(&sbm, &val, sizeof(val)));
	KUNIT_EXPECT_EQ(test, sbm_set_alloc_limit(&sbm, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbm_adopt(&sbm, &val),
			IS_ENABLED(CONFIG_HAVE_ARCH_SBM) ? -EINVAL : 0);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), 0);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), 0);

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_NULL(test, SBM_COPY_IN(&sbm, (u32 *)NULL, sizeof(val)));
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -EINVAL);
}

/*
 * sbm_exec() from atomic context is refused with an error message, not a
 * warning (a warning is a panic under panic_on_warn), and leaves the
 * interrupt state and preemption count as they were.
 */
static void atomic_context_refused(struct kunit *test)
{
	bool still_disabled;
	struct sbm sbm;
	int ret;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	local_irq_disable();
	ret = sbm_call(&sbm, return_one);
	still_disabled = irqs_disabled();
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	KUNIT_EXPECT_TRUE(test, still_disabled);

	preempt_disable();
	ret = sbm_call(&sbm, return_one);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);

	/* Not sticky: the instance works from a sleepable context. */
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, return_one), 1);
	sbm_destroy(&sbm);
}

static struct kunit_case sbm_misuse_test_cases[] = {
	KUNIT_CASE(partial_page_writable_map_refused),
	KUNIT_CASE(concurrent_exec_busy),
	KUNIT_CASE(destroy_while_running),
	KUNIT_CASE(operations_while_running),
	KUNIT_CASE(destroy_races_exec),
	KUNIT_CASE(use_after_destroy),
	KUNIT_CASE(atomic_context_refused),
	{}
};

static struct kunit_suite sbm_misuse_test_suite = {
	.name = "sandbox_mode_misuse",
	.test_cases = sbm_misuse_test_cases,
};

kunit_test_suite(sbm_misuse_test_suite);

MODULE_DESCRIPTION("KUnit tests for misuse of the SandBox Mode API");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
