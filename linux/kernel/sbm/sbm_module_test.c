// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for SandBox Mode targets that live in a module: their text
 * runs in the sandbox, their read-only data is readable, their data is
 * not writable with strong isolation, and they call kernel services.
 */

#include <kunit/test.h>
#include <linux/sbm.h>
#include <linux/slab.h>
#include <linux/string.h>

static const char module_rodata[] = "from module rodata";
static int module_data = 1;

static SBM_DEFINE_FUNC(copy_rodata, char *, out, size_t, len)
{
	strscpy(out, module_rodata, len);
	return 7;
}

static SBM_DEFINE_FUNC(write_data, int *, p)
{
	WRITE_ONCE(*p, 2);
	return 0;
}

static void target_in_module(struct kunit *test)
{
	char buf[32] = { };
	struct sbm sbm;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, copy_rodata,
				       SBM_COPY_OUT(&sbm, buf, sizeof(buf)),
				       sizeof(buf)), 7);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), 0);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_STREQ(test, buf, module_rodata);
}

static void module_data_protected(struct kunit *test)
{
	struct sbm sbm;

	if (!IS_ENABLED(CONFIG_HAVE_ARCH_SBM))
		kunit_skip(test, "needs strong isolation");
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, write_data, &module_data),
			-EFAULT);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, READ_ONCE(module_data), 1);
}

static SBM_DEFINE_FUNC(dup_rodata, char **, out)
{
	*out = kstrdup(module_rodata, GFP_KERNEL);
	return *out ? 0 : -ENOMEM;
}

/* Module code calls the allocation services like built-in code. */
static void services_from_module(struct kunit *test)
{
	char *copy = NULL;
	struct sbm sbm;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, dup_rodata,
				       SBM_COPY_OUT(&sbm, &copy, sizeof(copy))),
			0);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	KUNIT_EXPECT_EQ(test, sbm_adopt(&sbm, copy), 0);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_STREQ(test, copy, module_rodata);
	kfree(copy);
}

static struct kunit_case sbm_module_test_cases[] = {
	KUNIT_CASE(target_in_module),
	KUNIT_CASE(module_data_protected),
	KUNIT_CASE(services_from_module),
	{}
};

static struct kunit_suite sbm_module_test_suite = {
	.name = "sandbox_mode_module",
	.test_cases = sbm_module_test_cases,
};

kunit_test_suite(sbm_module_test_suite);

MODULE_DESCRIPTION("KUnit tests for SandBox Mode targets in modules");
MODULE_LICENSE("GPL");
