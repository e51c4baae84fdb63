// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the SandBox Mode API in a kernel without SandBox Mode:
 * the API still compiles, targets are called directly and the buffer
 * macros hand back the caller's own pointers.
 */

#include <kunit/test.h>
#include <linux/sbm.h>

struct direct_call {
	int *local;
	void *data;
};

static SBM_DEFINE_FUNC(record_call, struct direct_call *, call, int, val)
{
	call->data = call;
	*call->local = val;
	return val + 1;
}

static int record_data(void *data)
{
	struct direct_call *call = data;

	call->data = data;
	return 0;
}

/* The target runs on the caller's stack and writes its memory directly. */
static void target_called_directly(struct kunit *test)
{
	struct direct_call call = { };
	struct sbm sbm;
	int local = 0;

	KUNIT_EXPECT_EQ(test, sbm_init(&sbm), 0);
	call.local = &local;
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, record_call, &call, 41), 42);
	KUNIT_EXPECT_EQ(test, local, 41);
	KUNIT_EXPECT_PTR_EQ(test, call.data, (void *)&call);

	KUNIT_EXPECT_EQ(test, sbm_exec(&sbm, record_data, &call), 0);
	KUNIT_EXPECT_PTR_EQ(test, call.data, (void *)&call);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), 0);
	sbm_destroy(&sbm);
}

/* Every buffer macro yields its buffer argument, evaluated once. */
static void macros_return_caller_pointers(struct kunit *test)
{
	u32 words[5], *cursor = words;
	static const char text[] = "abc";
	struct sbm sbm;

	KUNIT_EXPECT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_PTR_EQ(test, SBM_COPY_IN(&sbm, cursor++, 4), &words[0]);
	KUNIT_EXPECT_PTR_EQ(test, SBM_COPY_OUT(&sbm, cursor++, 4), &words[1]);
	KUNIT_EXPECT_PTR_EQ(test, SBM_COPY_INOUT(&sbm, cursor++, 4),
			    &words[2]);
	KUNIT_EXPECT_PTR_EQ(test, SBM_MAP_READONLY(&sbm, cursor++, 4),
			    &words[3]);
	KUNIT_EXPECT_PTR_EQ(test, SBM_MAP_WRITABLE(&sbm, cursor++, 4),
			    &words[4]);
	KUNIT_EXPECT_PTR_EQ(test, cursor, &words[5]);
	KUNIT_EXPECT_PTR_EQ(test, SBM_COPY_IN(&sbm, text, sizeof(text)),
			    &text[0]);
	BUILD_BUG_ON(!__same_type(SBM_COPY_IN(&sbm, text, 1), const char *));
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), 0);
	sbm_destroy(&sbm);
}

static struct kunit_case sbm_off_test_cases[] = {
	KUNIT_CASE(target_called_directly),
	KUNIT_CASE(macros_return_caller_pointers),
	{}
};

static struct kunit_suite sbm_off_test_suite = {
	.name = "sandbox_mode_off",
	.test_cases = sbm_off_test_cases,
};

kunit_test_suite(sbm_off_test_suite);

MODULE_DESCRIPTION("KUnit tests for the SandBox Mode API without SandBox Mode");
MODULE_LICENSE("GPL");
