// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for SandBox Mode: one case per required behaviour, named
 * after its row in Documentation/security/sandbox-mode.rst, plus the
 * corner cases of the API.
 *
 * Cases marked "guard" make the target touch a guard page. With strong
 * isolation the sandbox contains that; in weak mode it oopses, so those
 * cases run the sandbox in a kernel thread of their own and count its
 * death by a signal as -EFAULT. The log markers around such a thread let
 * the test harness tell that expected oops from a real one.
 */

#define pr_fmt(fmt) "sbm_test: " fmt

#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <trace/events/sbm.h>

#include "stats.h"

#define STRONG		IS_ENABLED(CONFIG_HAVE_ARCH_SBM)
#define POISON		0xaa
#define MARK		0x55
#define PLANTED		0x5bd1e995cafef00dUL

static u32 sbm_test_data = 0x600dda7a;
static u32 sbm_test_bss;

static void skip_unless_strong(struct kunit *test)
{
	if (!STRONG)
		kunit_skip(test, "needs strong isolation");
}

/* Targets. Each returns 0 when it gets to its end. */

static SBM_DEFINE_FUNC(write_u32, u32 *, p, u32, val)
{
	WRITE_ONCE(*p, val);
	return 0;
}

static SBM_DEFINE_FUNC(read_u32, const u32 *, p, u32 *, out)
{
	*out = READ_ONCE(*p);
	return 0;
}

/* Marks the buffer, then writes the byte at @offset from its start. */
static SBM_DEFINE_FUNC(poke, u8 *, buf, size_t, len, long, offset)
{
	memset(buf, MARK, len);
	WRITE_ONCE(buf[offset], MARK);
	return 0;
}

/* Reads the byte at @offset from the start of @buf. */
static SBM_DEFINE_FUNC(peek, const u8 *, buf, long, offset, u8 *, out)
{
	*out = READ_ONCE(buf[offset]);
	return 0;
}

/* Counts the non-zero bytes in [from, to) of @buf. */
static SBM_DEFINE_FUNC(count_nonzero, const u8 *, buf, size_t, from,
		       size_t, to, size_t *, out)
{
	size_t i, n = 0;

	for (i = from; i < to; i++)
		n += READ_ONCE(buf[i]) != 0;
	*out = n;
	return 0;
}

static SBM_DEFINE_FUNC(increment_all, u32 *, vals, size_t, n)
{
	size_t i;

	for (i = 0; i < n; i++)
		vals[i]++;
	return 0;
}

static SBM_DEFINE_FUNC(read_stack_end, unsigned long *, out)
{
	*out = READ_ONCE(*end_of_stack(current));
	return 0;
}

static SBM_DEFINE_FUNC(return_value, int, val)
{
	return val;
}

static SBM_DEFINE_FUNC(no_args)
{
	return 1234;
}

static SBM_DEFINE_FUNC(set_flag, bool *, ran)
{
	*ran = true;
	return 0;
}

/* Row 9 declares its helper with explicit CALL and THUNK macros. */
static int sum_bytes(const u8 *in, size_t len, u32 *sum);
static SBM_DEFINE_CALL(sum_bytes, const u8 *, in, size_t, len, u32 *, sum);
static SBM_DEFINE_THUNK(sum_bytes, const u8 *, in, size_t, len, u32 *, sum);

static int sum_bytes(const u8 *in, size_t len, u32 *sum)
{
	size_t i;

	*sum = 0;
	for (i = 0; i < len; i++)
		*sum += in[i];
	return len ? 0 : -EINVAL;
}

/* Row 18: a static helper of this file, run in the sandbox. */
static u32 fold_bytes(const char *s, size_t len)
{
	u32 h = 0;

	while (len--)
		h = h * 31 + (u8)*s++;
	return h;
}

struct kernel_calls_out {
	char copy[32];
	char formatted[32];
	size_t len;
	u32 fold;
};

static SBM_DEFINE_FUNC(kernel_calls, const char *, in,
		       struct kernel_calls_out *, out)
{
	out->len = strlen(in);
	memcpy(out->copy, in, out->len + 1);
	snprintf(out->formatted, sizeof(out->formatted), "%s:%zu", in,
		 out->len);
	out->fold = fold_bytes(out->copy, out->len);
	return 0;
}

/* Row 19: six parameters of mixed types. */
struct six_pair {
	u16 a;
	u64 b;
};

struct six_out {
	u8 first_in;
	s8 small;
	u64 wide;
	u16 pair_a;
	u64 pair_b;
	bool flag;
	void *self;
};

static SBM_DEFINE_FUNC(six_args, const u8 *, in, struct six_out *, out,
		       s8, small, u64, wide, const struct six_pair *, pair,
		       bool, flag)
{
	out->first_in = in[0];
	out->small = small;
	out->wide = wide;
	out->pair_a = pair->a;
	out->pair_b = pair->b;
	out->flag = flag;
	out->self = out;
	return 0;
}

/* Row 20: @out[i] = @in[i] ^ @key[i % @keylen], @io[i] = ~@io[i]. */
static SBM_DEFINE_FUNC(xor_copy, const u8 *, in, u8 *, out, size_t, len,
		       const u8 *, key, size_t, keylen, u8 *, io)
{
	size_t i;

	for (i = 0; i < len; i++) {
		out[i] = in[i] ^ key[i % keylen];
		io[i] = ~io[i];
	}
	return 0;
}

/* A caller buffer between two guard areas of its own, to spot overruns. */
struct fenced {
	u8 before[64];
	u8 buf[64];
	u8 after[64];
};

static void fence(struct fenced *f)
{
	memset(f, POISON, sizeof(*f));
}

static bool all_bytes(const u8 *p, size_t len, u8 val)
{
	return !memchr_inv(p, val, len);
}

/*
 * Runs a target that touches a guard page. With strong isolation @run
 * returns the sandbox's verdict. In weak mode the access oopses, so @run
 * goes to a kernel thread of its own, whose death by a signal stands for
 * -EFAULT.
 */
struct guarded {
	struct sbm *sbm;
	int (*run)(struct guarded *g);
	void *buf;
	size_t len;
	long offset;
	u8 *out;
	int ret;
	bool returned;
	struct completion started;
};

static int guard_thread(void *data)
{
	struct guarded *g = data;

	complete(&g->started);
	g->ret = g->run(g);
	g->returned = true;
	return 0;
}

static int run_guarded(struct kunit *test, struct guarded *g)
{
	struct task_struct *task;
	int exit_code;

	if (STRONG)
		return g->run(g);

	init_completion(&g->started);
	task = kthread_create(guard_thread, g, "sbm_guard");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	get_task_struct(task);
	pr_info("%s: expected oops begin\n", test->name);
	wake_up_process(task);
	/* kthread_stop() before the thread starts would skip its function. */
	wait_for_completion(&g->started);
	kthread_stop(task);
	exit_code = task->exit_code;
	put_task_struct(task);
	pr_info("%s: expected oops end\n", test->name);

	if (g->returned)
		return g->ret;
	KUNIT_EXPECT_NE_MSG(test, exit_code & 0x7f, 0,
			    "guard thread died without a signal");
	return -EFAULT;
}

static int run_poke(struct guarded *g)
{
	return sbm_call(g->sbm, poke, g->buf, g->len, g->offset);
}

static int run_peek(struct guarded *g)
{
	return sbm_call(g->sbm, peek, g->buf, g->offset, g->out);
}

/* Expect the instance to have failed with -EFAULT, where it can tell. */
static void expect_sticky_fault(struct kunit *test, struct sbm *sbm)
{
	/* In weak mode the thread died before SBM could record anything. */
	if (STRONG)
		KUNIT_EXPECT_EQ(test, sbm_error(sbm), -EFAULT);
}

/* Row 1 */
static void out_written(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	u32 val = 0, *out;

	out = SBM_COPY_OUT(sbm, &val, sizeof(val));
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_PTR_NE(test, out, &val);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, write_u32, out, 0x5b3d0001), 0);
	KUNIT_EXPECT_EQ(test, val, 0x5b3d0001);
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), 0);
}

/* Row 2 */
static void out_overrun_same_page(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	struct fenced f;
	u8 *out;

	fence(&f);
	out = SBM_COPY_OUT(sbm, f.buf, sizeof(f.buf));
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, poke, out, sizeof(f.buf),
				       PAGE_SIZE - 1), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(f.buf, sizeof(f.buf), MARK));
	KUNIT_EXPECT_TRUE(test, all_bytes(f.before, sizeof(f.before), POISON));
	KUNIT_EXPECT_TRUE(test, all_bytes(f.after, sizeof(f.after), POISON));
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), 0);
}

static void out_guard(struct kunit *test, long offset)
{
	struct sbm *sbm = test->priv;
	struct guarded g = { .sbm = sbm, .run = run_poke };
	struct fenced f;

	fence(&f);
	g.buf = SBM_COPY_OUT(sbm, f.buf, sizeof(f.buf));
	KUNIT_ASSERT_NOT_NULL(test, g.buf);
	g.len = sizeof(f.buf);
	g.offset = offset;
	KUNIT_EXPECT_EQ(test, run_guarded(test, &g), -EFAULT);
	expect_sticky_fault(test, sbm);
	KUNIT_EXPECT_TRUE(test, all_bytes((u8 *)&f, sizeof(f), POISON));
}

/* Row 3 (guard) */
static void out_guard_after(struct kunit *test)
{
	out_guard(test, PAGE_SIZE);
}

/* Row 4 (guard) */
static void out_guard_before(struct kunit *test)
{
	out_guard(test, -1);
}

static void write_faults(struct kunit *test, u32 *victim)
{
	struct sbm *sbm = test->priv;
	u32 old = READ_ONCE(*victim);

	KUNIT_EXPECT_EQ(test, sbm_call(sbm, write_u32, victim, ~old), -EFAULT);
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), -EFAULT);
	KUNIT_EXPECT_EQ(test, READ_ONCE(*victim), old);
}

/* Row 5 (strong only) */
static void write_data(struct kunit *test)
{
	skip_unless_strong(test);
	write_faults(test, &sbm_test_data);
}

/* Row 6 (strong only) */
static void write_bss(struct kunit *test)
{
	skip_unless_strong(test);
	write_faults(test, &sbm_test_bss);
}

/* Row 7 (strong only) */
static void write_kmalloc(struct kunit *test)
{
	u32 *obj;

	skip_unless_strong(test);
	obj = kunit_kzalloc(test, sizeof(*obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	write_faults(test, obj);
}

/* Row 8 (strong only) */
static void write_caller_stack(struct kunit *test)
{
	u32 local = 0x1234;

	skip_unless_strong(test);
	write_faults(test, &local);
}

/* Row 9 */
static void in_to_out_call_thunk(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	u8 data[] = { 1, 2, 3, 250 };
	u32 sum = 0, *out;
	const u8 *in;

	in = SBM_COPY_IN(sbm, data, sizeof(data));
	out = SBM_COPY_OUT(sbm, &sum, sizeof(sum));
	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, sum_bytes, in, sizeof(data), out),
			0);
	KUNIT_EXPECT_EQ(test, sum, 256);
	/* The target's own error is passed on, and is not a sandbox error. */
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, sum_bytes, in, 0, out), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), 0);
}

/* Row 10 */
static void in_overread_same_page(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	size_t head = 0, tail = 0, *out_head, *out_tail;
	struct fenced f;
	const u8 *in;

	fence(&f);
	in = SBM_COPY_IN(sbm, f.buf, sizeof(f.buf));
	out_head = SBM_COPY_OUT(sbm, &head, sizeof(head));
	out_tail = SBM_COPY_OUT(sbm, &tail, sizeof(tail));
	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out_tail);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, count_nonzero, in, 0,
				       sizeof(f.buf), out_head), 0);
	/* Checked now: the next call copies back the cleared out_head. */
	KUNIT_EXPECT_EQ(test, head, sizeof(f.buf));
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, count_nonzero, in, sizeof(f.buf),
				       PAGE_SIZE, out_tail), 0);
	KUNIT_EXPECT_EQ(test, tail, 0);
}

static void in_guard(struct kunit *test, long offset)
{
	struct sbm *sbm = test->priv;
	struct guarded g = { .sbm = sbm, .run = run_peek, .offset = offset };
	u8 data[16], res = POISON;

	memset(data, MARK, sizeof(data));
	g.buf = SBM_COPY_IN(sbm, data, sizeof(data));
	g.out = SBM_COPY_OUT(sbm, &res, sizeof(res));
	KUNIT_ASSERT_NOT_NULL(test, g.buf);
	KUNIT_ASSERT_NOT_NULL(test, g.out);
	KUNIT_EXPECT_EQ(test, run_guarded(test, &g), -EFAULT);
	expect_sticky_fault(test, sbm);
	KUNIT_EXPECT_EQ(test, res, POISON);
}

/* Row 11 (guard) */
static void in_guard_after(struct kunit *test)
{
	in_guard(test, PAGE_SIZE);
}

/* Row 12 (guard) */
static void in_guard_before(struct kunit *test)
{
	in_guard(test, -1);
}

/* Row 13 (strong only) */
static void read_kmalloc(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	u32 *obj, val = 0, *out;

	skip_unless_strong(test);
	obj = kunit_kzalloc(test, sizeof(*obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	*obj = 0x5ec2e7;
	out = SBM_COPY_OUT(sbm, &val, sizeof(val));
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, read_u32, obj, out), -EFAULT);
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), -EFAULT);
	KUNIT_EXPECT_EQ(test, val, 0);
}

/* Row 14 */
static void inout_updated(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	u32 vals[] = { 0, 41, 0xfffffffe }, *io;

	io = SBM_COPY_INOUT(sbm, vals, sizeof(vals));
	KUNIT_ASSERT_NOT_NULL(test, io);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, increment_all, io,
				       ARRAY_SIZE(vals)), 0);
	KUNIT_EXPECT_EQ(test, vals[0], 1);
	KUNIT_EXPECT_EQ(test, vals[1], 42);
	KUNIT_EXPECT_EQ(test, vals[2], 0xffffffff);
	/* Each call starts from the caller's current contents. */
	vals[1] = 99;
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, increment_all, io,
				       ARRAY_SIZE(vals)), 0);
	KUNIT_EXPECT_EQ(test, vals[1], 100);
}

#define LEFTOVER	0x5b

/*
 * Counts the bytes that are not zero in the page of @copy, then, if
 * @leave, fills that page, the tail past the buffer included.
 */
static SBM_DEFINE_FUNC(look_then_leave, u8 *, copy, bool, leave)
{
	int seen = 0;
	size_t i;

	for (i = 0; i < PAGE_SIZE; i++)
		seen += copy[i] != 0;
	if (leave)
		memset(copy, LEFTOVER, PAGE_SIZE);
	return seen;
}

/*
 * Nothing of a call stays in the copies for the next one: the next
 * target finds the output copy zeroed, tail included, and a call that
 * writes nothing hands the caller zeros, not the last call's output. An
 * in/out copy holds the caller's contents and nothing else.
 */
static void copies_cleared_between_calls(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	u8 out[16], io[16], *copy;

	copy = SBM_COPY_OUT(sbm, out, sizeof(out));
	KUNIT_ASSERT_NOT_NULL(test, copy);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, look_then_leave, copy, true), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(out, sizeof(out), LEFTOVER));
	memset(out, 0, sizeof(out));
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, look_then_leave, copy, false), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(out, sizeof(out), 0));

	memset(io, 'A', sizeof(io));
	copy = SBM_COPY_INOUT(sbm, io, sizeof(io));
	KUNIT_ASSERT_NOT_NULL(test, copy);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, look_then_leave, copy, true),
			sizeof(io));
	memset(io, 'A', sizeof(io));
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, look_then_leave, copy, false),
			sizeof(io));
	KUNIT_EXPECT_TRUE(test, all_bytes(io, sizeof(io), 'A'));
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), 0);
}

/* Row 15 */
static void reads_current_stack_end(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	unsigned long *end = end_of_stack(current);
	unsigned long saved = *end, seen = 0, *out;
	int ret;

	out = SBM_COPY_OUT(sbm, &seen, sizeof(seen));
	KUNIT_ASSERT_NOT_NULL(test, out);
	*end = PLANTED;
	ret = sbm_call(sbm, read_stack_end, out);
	*end = saved;
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, seen, PLANTED);
}

/* Row 18 */
static void calls_kernel_functions(struct kunit *test)
{
	static const char word[] = "sandbox";
	struct sbm *sbm = test->priv;
	struct kernel_calls_out res = { }, *out;
	const char *in;

	in = SBM_COPY_IN(sbm, word, sizeof(word));
	out = SBM_COPY_OUT(sbm, &res, sizeof(res));
	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, kernel_calls, in, out), 0);
	KUNIT_EXPECT_EQ(test, res.len, strlen(word));
	KUNIT_EXPECT_STREQ(test, res.copy, word);
	KUNIT_EXPECT_STREQ(test, res.formatted, "sandbox:7");
	KUNIT_EXPECT_EQ(test, res.fold, fold_bytes(word, strlen(word)));
}

/* Row 19 */
static void six_mixed_args(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	struct six_pair pair = { .a = 0xbeef, .b = 0x0123456789abcdefULL };
	const struct six_pair *pair_in;
	struct six_out res = { }, *out;
	u8 byte = 0x7f;
	const u8 *in;

	in = SBM_COPY_IN(sbm, &byte, sizeof(byte));
	out = SBM_COPY_OUT(sbm, &res, sizeof(res));
	pair_in = SBM_COPY_IN(sbm, &pair, sizeof(pair));
	KUNIT_ASSERT_EQ(test, sbm_error(sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, six_args, in, out, -128,
				       0xfedcba9876543210ULL, pair_in, true),
			0);
	KUNIT_EXPECT_EQ(test, res.first_in, 0x7f);
	KUNIT_EXPECT_EQ(test, res.small, -128);
	KUNIT_EXPECT_EQ(test, res.wide, 0xfedcba9876543210ULL);
	KUNIT_EXPECT_EQ(test, res.pair_a, 0xbeef);
	KUNIT_EXPECT_EQ(test, res.pair_b, 0x0123456789abcdefULL);
	KUNIT_EXPECT_TRUE(test, res.flag);
	KUNIT_EXPECT_PTR_EQ(test, res.self, out);
}

/* The copy is page-aligned, mapped, and has an unmapped page each side. */
static void expect_guarded_copy(struct kunit *test, const void *copy,
				size_t size)
{
	unsigned long addr = (unsigned long)copy;

	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(copy));
	KUNIT_EXPECT_EQ(test, offset_in_page(addr), 0);
	KUNIT_EXPECT_NOT_NULL(test, vmalloc_to_page(copy));
	KUNIT_EXPECT_NOT_NULL(test, vmalloc_to_page(copy + size - 1));
	KUNIT_EXPECT_NULL(test, vmalloc_to_page((void *)addr - PAGE_SIZE));
	KUNIT_EXPECT_NULL(test,
			  vmalloc_to_page((void *)PAGE_ALIGN(addr + size)));
}

/* Row 20 */
static void multi_page_buffers(struct kunit *test)
{
	const size_t len = 3 * PAGE_SIZE + 100, keylen = 7;
	struct sbm *sbm = test->priv;
	u8 *src, *dst, *io, *io_orig, key[7];
	u8 *in_copy, *out_copy, *io_copy;
	const u8 *key_copy;
	size_t i;

	src = kunit_kmalloc(test, len, GFP_KERNEL);
	dst = kunit_kzalloc(test, len, GFP_KERNEL);
	io = kunit_kmalloc(test, len, GFP_KERNEL);
	io_orig = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	KUNIT_ASSERT_NOT_NULL(test, io);
	KUNIT_ASSERT_NOT_NULL(test, io_orig);
	for (i = 0; i < len; i++) {
		src[i] = i * 7 + (i >> 8);
		io[i] = i ^ (i >> 9);
	}
	memcpy(io_orig, io, len);
	for (i = 0; i < keylen; i++)
		key[i] = 0x11 * (i + 1);

	in_copy = SBM_COPY_IN(sbm, src, len);
	out_copy = SBM_COPY_OUT(sbm, dst, len);
	key_copy = SBM_COPY_IN(sbm, key, keylen);
	io_copy = SBM_COPY_INOUT(sbm, io, len);
	KUNIT_ASSERT_EQ(test, sbm_error(sbm), 0);
	expect_guarded_copy(test, in_copy, len);
	expect_guarded_copy(test, out_copy, len);
	expect_guarded_copy(test, key_copy, keylen);
	expect_guarded_copy(test, io_copy, len);

	KUNIT_EXPECT_EQ(test, sbm_call(sbm, xor_copy, in_copy, out_copy, len,
				       key_copy, keylen, io_copy), 0);
	for (i = 0; i < len; i++) {
		if (dst[i] != (src[i] ^ key[i % keylen]) ||
		    io[i] != (u8)~io_orig[i]) {
			KUNIT_FAIL(test, "byte %zu copied back wrong", i);
			break;
		}
	}
}

/* A failed instance refuses a second call and does not run the target. */
static void sticky_error_skips_target(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	bool ran = false, *flag;
	u8 byte = 0;

	flag = SBM_COPY_OUT(sbm, &ran, sizeof(ran));
	KUNIT_ASSERT_NOT_NULL(test, flag);
	KUNIT_EXPECT_NULL(test, SBM_COPY_IN(sbm, (u8 *)NULL, 1));
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, set_flag, flag), -EINVAL);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, set_flag, flag), -EINVAL);
	KUNIT_EXPECT_FALSE(test, ran);
	/* Later errors do not replace the first one. */
	KUNIT_EXPECT_NULL(test, SBM_COPY_IN(sbm, &byte, SIZE_MAX));
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), -EINVAL);
}

/* After an abort the instance stays failed; a new instance works. */
static void sticky_after_abort(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	struct sbm fresh;
	bool ran = false, *flag;

	skip_unless_strong(test);
	flag = SBM_COPY_OUT(sbm, &ran, sizeof(ran));
	KUNIT_ASSERT_NOT_NULL(test, flag);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, write_u32, &sbm_test_bss, 1),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, set_flag, flag), -EFAULT);
	KUNIT_EXPECT_FALSE(test, ran);

	KUNIT_ASSERT_EQ(test, sbm_init(&fresh), 0);
	flag = SBM_COPY_OUT(&fresh, &ran, sizeof(ran));
	KUNIT_EXPECT_EQ(test, sbm_call(&fresh, set_flag, flag), 0);
	sbm_destroy(&fresh);
	KUNIT_EXPECT_TRUE(test, ran);
}

static int failing_arch_init(struct sbm *sbm)
{
	return -ENODEV;
}

/* A failed sbm_init() leaves a failed instance that sbm_destroy() frees. */
static void destroy_after_failed_init(struct kunit *test)
{
	struct sbm sbm;
	bool ran = false;
	u32 val = 0;

	kunit_activate_static_stub(test, arch_sbm_init, failing_arch_init);
	KUNIT_EXPECT_EQ(test, sbm_init(&sbm), -ENODEV);
	kunit_deactivate_static_stub(test, arch_sbm_init);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), -ENODEV);
	KUNIT_EXPECT_NULL(test, SBM_COPY_OUT(&sbm, &val, sizeof(val)));
	KUNIT_EXPECT_NULL(test, SBM_MAP_WRITABLE(&sbm, &val, sizeof(val)));
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, set_flag, &ran), -ENODEV);
	KUNIT_EXPECT_FALSE(test, ran);
	sbm_destroy(&sbm);
	sbm_destroy(&sbm);
}

/* Buffers registered for a call that never happens are freed unused. */
static void destroy_without_call(struct kunit *test)
{
	struct fenced f;
	struct sbm sbm;
	u8 *out;

	fence(&f);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	out = SBM_COPY_OUT(&sbm, f.buf, sizeof(f.buf));
	KUNIT_EXPECT_NOT_NULL(test, out);
	KUNIT_EXPECT_NOT_NULL(test,
			      SBM_COPY_IN(&sbm, f.after, sizeof(f.after)));
	KUNIT_EXPECT_NOT_NULL(test, SBM_MAP_READONLY(&sbm, f.before,
						     sizeof(f.before)));
	KUNIT_EXPECT_TRUE(test, all_bytes(out, sizeof(f.buf), 0));
	sbm_destroy(&sbm);
	KUNIT_EXPECT_TRUE(test, all_bytes((u8 *)&f, sizeof(f), POISON));
}

/* Running out of memory fails the instance with -ENOMEM, for good. */
static void alloc_failure_is_sticky(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	bool ran = false;
	u8 byte = 0;

	/* More than any test machine has: the allocation must fail. */
	KUNIT_EXPECT_NULL(test, SBM_COPY_IN(sbm, &byte, 1UL << 40));
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), -ENOMEM);
	KUNIT_EXPECT_NULL(test, SBM_COPY_IN(sbm, &byte, 1));
	KUNIT_EXPECT_NULL(test, SBM_COPY_OUT(sbm, &byte, 1));
	KUNIT_EXPECT_NULL(test, SBM_COPY_INOUT(sbm, &byte, 1));
	KUNIT_EXPECT_NULL(test, SBM_MAP_READONLY(sbm, &byte, 1));
	KUNIT_EXPECT_NULL(test, SBM_MAP_WRITABLE(sbm, &byte, 1));
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, set_flag, &ran), -ENOMEM);
	KUNIT_EXPECT_FALSE(test, ran);
}

/* A range that wraps around the address space is refused. */
static void size_overflow(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	u8 byte;

	KUNIT_EXPECT_NULL(test, SBM_COPY_OUT(sbm, &byte, SIZE_MAX));
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), -EOVERFLOW);
}

static void map_size_overflow(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	u8 byte;

	KUNIT_EXPECT_NULL(test, SBM_MAP_READONLY(sbm, &byte, -(size_t)&byte));
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), -EOVERFLOW);
}

static void null_buffer(struct kunit *test)
{
	struct sbm *sbm = test->priv;

	KUNIT_EXPECT_NULL(test, SBM_COPY_OUT(sbm, (u32 *)NULL, 4));
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), -EINVAL);
}

static void map_null_buffer(struct kunit *test)
{
	struct sbm *sbm = test->priv;

	KUNIT_EXPECT_NULL(test, SBM_MAP_WRITABLE(sbm, (u32 *)NULL, 4));
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), -EINVAL);
}

static SBM_DEFINE_FUNC(report_ptrs, const void *, a, void *, b, void *, c,
		       const void *, d, void *, e, uintptr_t *, out)
{
	out[0] = (uintptr_t)a;
	out[1] = (uintptr_t)b;
	out[2] = (uintptr_t)c;
	out[3] = (uintptr_t)d;
	out[4] = (uintptr_t)e;
	return 0;
}

/*
 * A zero-size buffer registers nothing and yields ZERO_SIZE_PTR, as
 * kmalloc(0) does: the target may pass it around, not dereference it.
 */
static void zero_size_buffers(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	uintptr_t ptrs[5] = { }, *out;
	u8 byte = POISON;
	void *p[5];
	int i;

	p[0] = SBM_COPY_IN(sbm, &byte, 0);
	p[1] = SBM_COPY_OUT(sbm, &byte, 0);
	p[2] = SBM_COPY_INOUT(sbm, (u8 *)NULL, 0);
	p[3] = SBM_MAP_READONLY(sbm, &byte, 0);
	p[4] = SBM_MAP_WRITABLE(sbm, (u8 *)NULL, 0);
	for (i = 0; i < ARRAY_SIZE(p); i++)
		KUNIT_EXPECT_PTR_EQ(test, p[i], ZERO_SIZE_PTR);
	KUNIT_EXPECT_EQ(test, sbm_error(sbm), 0);

	out = SBM_COPY_OUT(sbm, ptrs, sizeof(ptrs));
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, report_ptrs, p[0], p[1], p[2],
				       p[3], p[4], out), 0);
	for (i = 0; i < ARRAY_SIZE(ptrs); i++)
		KUNIT_EXPECT_EQ(test, ptrs[i], (uintptr_t)ZERO_SIZE_PTR);
	KUNIT_EXPECT_EQ(test, byte, POISON);
}

/* Input is taken when the call runs, not when the buffer is registered. */
static void input_taken_at_call(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	u32 src = 1, dst = 0, *in, *out;

	in = SBM_COPY_IN(sbm, &src, sizeof(src));
	out = SBM_COPY_OUT(sbm, &dst, sizeof(dst));
	KUNIT_ASSERT_EQ(test, sbm_error(sbm), 0);
	src = 2;
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, read_u32, in, out), 0);
	KUNIT_EXPECT_EQ(test, dst, 2);
	src = 3;
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, read_u32, in, out), 0);
	KUNIT_EXPECT_EQ(test, dst, 3);
}

/* The macros evaluate their buffer argument once and keep its type. */
static void macro_arguments(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	u32 words[4] = { }, *cursor = words, *page, **pages;
	static const char text[] = "abc";

	BUILD_BUG_ON(!__same_type(SBM_COPY_IN(sbm, text, 1), const char *));
	BUILD_BUG_ON(!__same_type(SBM_COPY_OUT(sbm, words, 1), u32 *));
	BUILD_BUG_ON(!__same_type(SBM_MAP_READONLY(sbm, text, 1),
				  const char *));

	KUNIT_EXPECT_NOT_NULL(test, SBM_COPY_OUT(sbm, cursor++, 4));
	KUNIT_EXPECT_NOT_NULL(test, SBM_COPY_IN(sbm, cursor++, 4));
	KUNIT_EXPECT_PTR_EQ(test, cursor, &words[2]);
	/* A writable map takes whole pages. */
	page = vzalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, page);
	pages = &page;
	KUNIT_EXPECT_PTR_EQ(test, SBM_MAP_WRITABLE(sbm, *pages++, PAGE_SIZE),
			    page);
	KUNIT_EXPECT_PTR_EQ(test, pages, &page + 1);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, return_value, -EBADMSG), -EBADMSG);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, return_value, 7), 7);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, no_args), 1234);
	vfree(page);
}

/* Mapped memory is shared in place, at the caller's address. */
static void map_shares_in_place(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	u32 *shared, *val;
	const u32 *ro;
	u32 src = 77;

	/* Writable maps take whole pages; read-only ones any range. */
	val = vzalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, val);
	shared = SBM_MAP_WRITABLE(sbm, val, PAGE_SIZE);
	ro = SBM_MAP_READONLY(sbm, &src, sizeof(src));
	KUNIT_EXPECT_PTR_EQ(test, shared, val);
	KUNIT_EXPECT_PTR_EQ(test, ro, (const u32 *)&src);
	KUNIT_EXPECT_EQ(test, sbm_call(sbm, read_u32, ro, shared), 0);
	KUNIT_EXPECT_EQ(test, *val, 77);
	vfree(val);
}

/* The statistics count instances, calls and copied bytes, once each. */
static void statistics_counted(struct kunit *test)
{
	u64 created = sbm_stat_read(SBM_STAT_CREATED);
	u64 destroyed = sbm_stat_read(SBM_STAT_DESTROYED);
	u64 calls = sbm_stat_read(SBM_STAT_CALLS);
	u64 in = sbm_stat_read(SBM_STAT_BYTES_IN);
	u64 out = sbm_stat_read(SBM_STAT_BYTES_OUT);
	u32 src = 5, dst = 0, *src_copy, *dst_copy;
	struct sbm sbm;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	src_copy = SBM_COPY_IN(&sbm, &src, sizeof(src));
	dst_copy = SBM_COPY_OUT(&sbm, &dst, sizeof(dst));
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, read_u32, src_copy, dst_copy), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, read_u32, src_copy, dst_copy), 0);
	sbm_destroy(&sbm);
	sbm_destroy(&sbm);

	KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_CREATED) - created, 1);
	KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_DESTROYED) - destroyed, 1);
	KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_CALLS) - calls, 2);
	KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_BYTES_IN) - in,
			2 * sizeof(src));
	KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_BYTES_OUT) - out,
			2 * sizeof(dst));
}

struct trace_counts {
	int enter, exit, abort;
	int ret;
	enum sbm_abort_kind kind;
};

static void probe_enter(void *data, const struct sbm *sbm, sbm_func func)
{
	((struct trace_counts *)data)->enter++;
}

static void probe_exit(void *data, const struct sbm *sbm, sbm_func func,
		       int ret, u64 duration)
{
	struct trace_counts *counts = data;

	counts->exit++;
	counts->ret = ret;
}

static void probe_abort(void *data, const struct sbm *sbm, sbm_func func,
			const struct sbm_abort *abort)
{
	struct trace_counts *counts = data;

	counts->abort++;
	counts->kind = abort->kind;
}

/* The tracepoints fire on entry, exit and, with strong isolation, abort. */
static void tracepoints_fire(struct kunit *test)
{
	struct sbm *sbm = test->priv;
	struct trace_counts counts = { };

	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		kunit_skip(test, "needs CONFIG_TRACEPOINTS");
	KUNIT_ASSERT_EQ(test, register_trace_sbm_enter(probe_enter, &counts), 0);
	KUNIT_ASSERT_EQ(test, register_trace_sbm_exit(probe_exit, &counts), 0);
	KUNIT_ASSERT_EQ(test, register_trace_sbm_abort(probe_abort, &counts), 0);

	KUNIT_EXPECT_EQ(test, sbm_call(sbm, return_value, 42), 42);
	if (STRONG)
		KUNIT_EXPECT_EQ(test, sbm_call(sbm, write_u32, &sbm_test_bss, 1),
				-EFAULT);

	unregister_trace_sbm_abort(probe_abort, &counts);
	unregister_trace_sbm_exit(probe_exit, &counts);
	unregister_trace_sbm_enter(probe_enter, &counts);
	tracepoint_synchronize_unregister();

	KUNIT_EXPECT_EQ(test, counts.enter, STRONG ? 2 : 1);
	KUNIT_EXPECT_EQ(test, counts.exit, STRONG ? 2 : 1);
	if (STRONG) {
		KUNIT_EXPECT_EQ(test, counts.abort, 1);
		KUNIT_EXPECT_EQ(test, counts.kind, SBM_ABORT_PAGE_FAULT);
		KUNIT_EXPECT_EQ(test, counts.ret, -EFAULT);
	} else {
		KUNIT_EXPECT_EQ(test, counts.abort, 0);
		KUNIT_EXPECT_EQ(test, counts.ret, 42);
	}
}

static int sbm_test_init(struct kunit *test)
{
	struct sbm *sbm = kunit_kzalloc(test, sizeof(*sbm), GFP_KERNEL);

	if (!sbm)
		return -ENOMEM;
	test->priv = sbm;
	return sbm_init(sbm);
}

static void sbm_test_exit(struct kunit *test)
{
	if (test->priv)
		sbm_destroy(test->priv);
}

static struct kunit_case sbm_test_cases[] = {
	KUNIT_CASE(out_written),
	KUNIT_CASE(out_overrun_same_page),
	KUNIT_CASE(out_guard_after),
	KUNIT_CASE(out_guard_before),
	KUNIT_CASE(write_data),
	KUNIT_CASE(write_bss),
	KUNIT_CASE(write_kmalloc),
	KUNIT_CASE(write_caller_stack),
	KUNIT_CASE(in_to_out_call_thunk),
	KUNIT_CASE(in_overread_same_page),
	KUNIT_CASE(in_guard_after),
	KUNIT_CASE(in_guard_before),
	KUNIT_CASE(read_kmalloc),
	KUNIT_CASE(inout_updated),
	KUNIT_CASE(copies_cleared_between_calls),
	KUNIT_CASE(reads_current_stack_end),
	KUNIT_CASE(calls_kernel_functions),
	KUNIT_CASE(six_mixed_args),
	KUNIT_CASE(multi_page_buffers),
	KUNIT_CASE(sticky_error_skips_target),
	KUNIT_CASE(sticky_after_abort),
	KUNIT_CASE(destroy_after_failed_init),
	KUNIT_CASE(destroy_without_call),
	KUNIT_CASE(alloc_failure_is_sticky),
	KUNIT_CASE(size_overflow),
	KUNIT_CASE(map_size_overflow),
	KUNIT_CASE(null_buffer),
	KUNIT_CASE(map_null_buffer),
	KUNIT_CASE(zero_size_buffers),
	KUNIT_CASE(input_taken_at_call),
	KUNIT_CASE(macro_arguments),
	KUNIT_CASE(map_shares_in_place),
	KUNIT_CASE(statistics_counted),
	KUNIT_CASE(tracepoints_fire),
	{}
};

static struct kunit_suite sbm_test_suite = {
	.name = "sandbox_mode",
	.init = sbm_test_init,
	.exit = sbm_test_exit,
	.test_cases = sbm_test_cases,
};

kunit_test_suite(sbm_test_suite);

MODULE_DESCRIPTION("KUnit tests for SandBox Mode");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
