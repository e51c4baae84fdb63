// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for SandBox Mode kernel services: targets that allocate
 * memory, call allowlisted and forbidden kernel functions, and misuse the
 * allocation services.
 *
 * With weak isolation, targets call the allocator directly: the cases that
 * need mediation by SBM are skipped there, the others run in both.
 */

#define pr_fmt(fmt) "sbm_services_test: " fmt

#include <kunit/test.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/panic.h>
#include <linux/random.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>
#include <trace/events/sbm.h>

#include "stats.h"

#define STRONG		IS_ENABLED(CONFIG_HAVE_ARCH_SBM)

static u32 sbm_test_counter;

static void skip_unless_strong(struct kunit *test)
{
	if (!STRONG)
		kunit_skip(test, "needs strong isolation");
}

/* What the last abort said, through the sbm_abort tracepoint. */
struct abort_record {
	unsigned int count;
	enum sbm_abort_kind kind;
	unsigned long callee;
	char reason[128];
};

static void probe_abort(void *data, const struct sbm *sbm, sbm_func func,
			const struct sbm_abort *abort)
{
	struct abort_record *rec = data;

	rec->count++;
	rec->kind = abort->kind;
	rec->callee = abort->callee;
	strscpy(rec->reason, abort->reason);
}

static int record_aborts(struct kunit *test, struct abort_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	return register_trace_sbm_abort(probe_abort, rec);
}

static void stop_recording(struct abort_record *rec)
{
	unregister_trace_sbm_abort(probe_abort, rec);
	tracepoint_synchronize_unregister();
}

struct test_node {
	struct test_node *next;
	char *name;
	u32 value;
};

/* Builds a list of @count nodes named after the strings in @names. */
static SBM_DEFINE_FUNC(build_list, const char *, names, size_t, count,
		       struct test_node **, head)
{
	struct test_node *node, *first = NULL;
	size_t i;

	for (i = 0; i < count; i++) {
		node = kzalloc(sizeof(*node), GFP_KERNEL);
		if (!node)
			return -ENOMEM;
		node->name = kstrdup(names, GFP_KERNEL);
		if (!node->name)
			return -ENOMEM;
		node->value = i + 1;
		node->next = first;
		first = node;
		names += strlen(names) + 1;
	}
	*head = first;
	return 0;
}

/* A sandbox allocates, links and returns a small object graph. */
static void object_graph(struct kunit *test)
{
	static const char names[] = "one\0two\0three";
	static const char * const expect[] = { "three", "two", "one" };
	u64 allocated = sbm_stat_read(SBM_STAT_OBJECTS_ALLOCATED);
	u64 adopted = sbm_stat_read(SBM_STAT_OBJECTS_ADOPTED);
	struct test_node *head = NULL, *node, *next;
	unsigned int n = 0;
	struct sbm sbm;
	int ret;

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	ret = sbm_call(&sbm, build_list,
		       SBM_COPY_IN(&sbm, names, sizeof(names)), 3,
		       SBM_COPY_OUT(&sbm, &head, sizeof(head)));
	KUNIT_ASSERT_EQ(test, ret, 0);

	/* Adopt each object before following a pointer into it. */
	for (node = head; node; node = node->next, n++) {
		KUNIT_ASSERT_LT(test, n, 3);
		KUNIT_ASSERT_EQ(test, sbm_adopt(&sbm, node), 0);
		KUNIT_ASSERT_EQ(test, sbm_adopt(&sbm, node->name), 0);
		KUNIT_EXPECT_EQ(test, node->value, 3 - n);
		KUNIT_EXPECT_STREQ(test, node->name, expect[n]);
	}
	KUNIT_EXPECT_EQ(test, n, 3);
	if (STRONG) {
		KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_OBJECTS_ALLOCATED) -
				allocated, 6);
		KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_OBJECTS_ADOPTED) -
				adopted, 6);
	}
	sbm_destroy(&sbm);

	/* Adopted objects outlive the instance. */
	for (node = head, n = 0; node; node = next, n++) {
		next = node->next;
		KUNIT_EXPECT_STREQ(test, node->name, expect[n]);
		kfree(node->name);
		kfree(node);
	}
}

/* Uses every allocation service; returns a bit for each that misbehaved. */
static SBM_DEFINE_FUNC(alloc_family, const u8 *, in, size_t, len, u32 *, bad)
{
	u8 *k, *z, *c, *a, *r, *d, *kv, *kvz, *v, *vz;
	char *s, *sn;
	size_t i;

	k = kmalloc(len, GFP_KERNEL);
	z = kzalloc(len, GFP_KERNEL);
	c = kcalloc(len, 2, GFP_KERNEL);
	a = kmalloc_array(len, 3, GFP_KERNEL);
	d = kmemdup(in, len, GFP_KERNEL);
	s = kstrdup("sandbox", GFP_KERNEL);
	sn = kstrndup("sandbox", 4, GFP_KERNEL);
	kv = kvmalloc(len, GFP_KERNEL);
	kvz = kvzalloc(64 * PAGE_SIZE, GFP_KERNEL);
	v = vmalloc(len);
	vz = vzalloc(3 * PAGE_SIZE);
	if (!k || !z || !c || !a || !d || !s || !sn || !kv || !kvz || !v || !vz)
		return -ENOMEM;

	memset(k, 1, len);
	memset(a, 2, len * 3);
	memset(kv, 3, len);
	memset(v, 4, len);
	*bad = 0;
	for (i = 0; i < len; i++) {
		*bad |= (z[i] != 0) << 0;
		*bad |= (c[2 * i] != 0 || c[2 * i + 1] != 0) << 1;
		*bad |= (d[i] != in[i]) << 2;
	}
	*bad |= (vz[3 * PAGE_SIZE - 1] != 0 || kvz[64 * PAGE_SIZE - 1]) << 3;
	*bad |= !!strcmp(s, "sandbox") << 4;
	*bad |= !!strcmp(sn, "sand") << 5;

	/* Growing within its pages and beyond them. */
	r = krealloc(d, 2 * len, GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	*bad |= !!memcmp(r, in, len) << 6;
	d = r;
	r = krealloc(d, len + 2 * PAGE_SIZE, GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	memset(r + len, 5, 2 * PAGE_SIZE);
	*bad |= !!memcmp(r, in, len) << 7;

	kfree(k);
	kfree(z);
	kfree(c);
	kfree(a);
	kfree(r);
	kfree(s);
	kfree(sn);
	kvfree(kv);
	kvfree(kvz);
	vfree(v);
	vfree(vz);
	kfree(NULL);
	vfree(NULL);
	kvfree(NULL);
	return 0;
}

/* Each allocation service does what its kernel function does. */
static void allocation_services(struct kunit *test)
{
	u64 allocated = sbm_stat_read(SBM_STAT_OBJECTS_ALLOCATED);
	u64 freed = sbm_stat_read(SBM_STAT_OBJECTS_FREED);
	u8 in[300];
	u32 bad = ~0;
	struct sbm sbm;
	int ret;

	get_random_bytes(in, sizeof(in));
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	ret = sbm_call(&sbm, alloc_family, SBM_COPY_IN(&sbm, in, sizeof(in)),
		       sizeof(in), SBM_COPY_OUT(&sbm, &bad, sizeof(bad)));
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, sbm_error(&sbm), 0);
	if (STRONG) {
		/* krealloc() to a bigger size moves the object. */
		KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_OBJECTS_ALLOCATED) -
				allocated, 12);
		KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_OBJECTS_FREED) -
				freed, 12);
		KUNIT_EXPECT_EQ(test, sbm.alloc_bytes, 0);
	}
	sbm_destroy(&sbm);
}

static SBM_DEFINE_FUNC(alloc_then_fault, size_t, count, void **, last)
{
	void *p = NULL;
	size_t i;

	for (i = 0; i < count; i++) {
		p = i % 2 ? vmalloc(3 * PAGE_SIZE) : kmalloc(100, GFP_KERNEL);
		if (!p)
			return -ENOMEM;
	}
	*last = p;
	/* Not allowed: the abort must free all of it. */
	WRITE_ONCE(sbm_test_counter, 1);
	return 0;
}

SBM_EXPECT_FAULT(alloc_then_fault);

/* An aborted call leaves nothing allocated behind. */
static void abort_frees_everything(struct kunit *test)
{
	u64 allocated, freed;
	void *last = NULL;
	struct sbm sbm;

	skip_unless_strong(test);
	allocated = sbm_stat_read(SBM_STAT_OBJECTS_ALLOCATED);
	freed = sbm_stat_read(SBM_STAT_OBJECTS_FREED);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, alloc_then_fault, 5,
				       SBM_COPY_OUT(&sbm, &last, sizeof(last))),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_OBJECTS_ALLOCATED) -
			allocated, 5);
	KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_OBJECTS_FREED) - freed, 5);
	KUNIT_EXPECT_EQ(test, sbm.alloc_bytes, 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&sbm.objects));
	KUNIT_EXPECT_EQ(test, sbm_test_counter, 0);
	/* Nothing of a failed instance can be adopted. */
	KUNIT_EXPECT_EQ(test, sbm_adopt(&sbm, last), -EFAULT);
	sbm_destroy(&sbm);
}

static SBM_DEFINE_FUNC(alloc_two, void **, a, void **, b)
{
	*a = kmalloc(10, GFP_KERNEL);
	*b = vmalloc(10);
	return *a && *b ? 0 : -ENOMEM;
}

/* sbm_destroy() frees what the caller did not adopt. */
static void destroy_frees_unadopted(struct kunit *test)
{
	u64 freed;
	void *a, *b;
	struct sbm sbm;

	skip_unless_strong(test);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_ASSERT_EQ(test, sbm_call(&sbm, alloc_two,
				       SBM_COPY_OUT(&sbm, &a, sizeof(a)),
				       SBM_COPY_OUT(&sbm, &b, sizeof(b))), 0);
	KUNIT_EXPECT_EQ(test, sbm_adopt(&sbm, a), 0);
	/* Twice, or a pointer into the middle of an object, fails. */
	KUNIT_EXPECT_EQ(test, sbm_adopt(&sbm, a), -ENOENT);
	KUNIT_EXPECT_EQ(test, sbm_adopt(&sbm, b + 1), -ENOENT);
	KUNIT_EXPECT_EQ(test, sbm_adopt(&sbm, &sbm), -ENOENT);
	freed = sbm_stat_read(SBM_STAT_OBJECTS_FREED);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_OBJECTS_FREED) - freed, 1);
	KUNIT_EXPECT_EQ(test, sbm_adopt(&sbm, b), -EINVAL);
	/* The adopted object is the caller's, and an ordinary kmalloc one. */
	KUNIT_EXPECT_GE(test, ksize(a), 10);
	kfree(a);
}

static noinline __noipa int sbm_test_touch_counter(int val)
{
	WRITE_ONCE(sbm_test_counter, val);
	return val + 1;
}

static SBM_DEFINE_FUNC(call_forbidden, int *, out)
{
	*out = sbm_test_touch_counter(42);
	return 0;
}

SBM_EXPECT_FAULT(call_forbidden);

static SBM_DEFINE_FUNC(call_get_random, u32 *, out)
{
	*out = get_random_u32() | 1;
	return 0;
}

SBM_EXPECT_FAULT(call_get_random);

/* A call of a function that touches kernel state is reported by name. */
static void forbidden_call_named(struct kunit *test)
{
	struct abort_record rec;
	struct sbm sbm;
	u32 out = 0;

	skip_unless_strong(test);
	KUNIT_ASSERT_EQ(test, record_aborts(test, &rec), 0);

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, call_forbidden,
				       SBM_COPY_OUT(&sbm, &out, sizeof(out))),
			-EFAULT);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, rec.count, 1);
	KUNIT_EXPECT_EQ(test, rec.kind, SBM_ABORT_FORBIDDEN_CALL);
	KUNIT_EXPECT_PTR_EQ(test, (void *)rec.callee,
			    (void *)sbm_test_touch_counter);
	KUNIT_EXPECT_NOT_NULL(test, strstr(rec.reason,
					   "sbm_test_touch_counter"));
	KUNIT_EXPECT_EQ(test, sbm_test_counter, 0);

	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, call_get_random,
				       SBM_COPY_OUT(&sbm, &out, sizeof(out))),
			-EFAULT);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, rec.count, 2);
	KUNIT_EXPECT_EQ(test, rec.kind, SBM_ABORT_FORBIDDEN_CALL);
	KUNIT_EXPECT_PTR_EQ(test, (void *)rec.callee, (void *)get_random_u32);
	stop_recording(&rec);
	KUNIT_EXPECT_EQ(test, out, 0);
}

static SBM_DEFINE_FUNC(bad_free, unsigned long, how, void *, foreign)
{
	u8 *p;

	switch (how) {
	case 0:		/* double free */
		p = kmalloc(8, GFP_KERNEL);
		kfree(p);
		kfree(p);
		break;
	case 1:		/* a pointer into an object */
		p = kmalloc(8, GFP_KERNEL);
		kfree(p + 4);
		break;
	case 2:		/* an object of another sandbox, or a kernel pointer */
		kfree(foreign);
		break;
	case 3:		/* the wrong family */
		vfree(kmalloc(8, GFP_KERNEL));
		break;
	case 4:
		kfree(vmalloc(8));
		break;
	case 5:
		p = krealloc(vmalloc(8), 100, GFP_KERNEL);
		break;
	case 6:		/* a source it may not read */
		kmemdup(foreign, 8, GFP_KERNEL);
		break;
	case 7:
		kstrdup(foreign, GFP_KERNEL);
		break;
	}
	return 0;
}

static int run_bad_free(struct kunit *test, unsigned long how, void *foreign,
			struct abort_record *rec)
{
	struct sbm sbm;
	int ret;

	KUNIT_EXPECT_EQ(test, sbm_init(&sbm), 0);
	ret = sbm_call(&sbm, bad_free, how, foreign);
	KUNIT_EXPECT_EQ(test, sbm.alloc_bytes, 0);
	sbm_destroy(&sbm);
	return ret;
}

/* Bad arguments of the allocation services end the sandbox. */
static void bad_service_arguments(struct kunit *test)
{
	static const struct {
		unsigned long how;
		const char *service;
	} cases[] = {
		{ 0, "kfree" }, { 1, "kfree" }, { 3, "vfree" }, { 4, "kfree" },
		{ 5, "krealloc_noprof" },
	};
	struct abort_record rec;
	void *victim, *other;
	struct sbm sbm;
	unsigned int i;

	skip_unless_strong(test);
	victim = kmalloc(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, victim);
	memset(victim, 0x5b, 64);
	KUNIT_ASSERT_EQ(test, record_aborts(test, &rec), 0);

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_EXPECT_EQ(test, run_bad_free(test, cases[i].how, NULL,
						   &rec), -EFAULT);
		KUNIT_EXPECT_EQ(test, rec.kind, SBM_ABORT_SERVICE_ARGUMENT);
		KUNIT_EXPECT_NOT_NULL(test, strstr(rec.reason,
						   cases[i].service));
	}

	/* A kernel object, the kernel's data, another sandbox's object. */
	KUNIT_EXPECT_EQ(test, run_bad_free(test, 2, victim, &rec), -EFAULT);
	KUNIT_EXPECT_EQ(test, rec.kind, SBM_ABORT_SERVICE_ARGUMENT);
	KUNIT_EXPECT_NOT_NULL(test, strstr(rec.reason, "'pointer' of kfree"));
	KUNIT_EXPECT_EQ(test, run_bad_free(test, 2, &sbm_test_counter, &rec),
			-EFAULT);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_ASSERT_EQ(test, sbm_call(&sbm, alloc_two,
				       SBM_COPY_OUT(&sbm, &other, sizeof(other)),
				       SBM_COPY_OUT(&sbm, &other, sizeof(other))),
			0);
	KUNIT_EXPECT_EQ(test, run_bad_free(test, 2, other, &rec), -EFAULT);
	KUNIT_EXPECT_EQ(test, rec.kind, SBM_ABORT_SERVICE_ARGUMENT);
	sbm_destroy(&sbm);

	/* Copies only of what the target could read itself. */
	KUNIT_EXPECT_EQ(test, run_bad_free(test, 6, victim, &rec), -EFAULT);
	KUNIT_EXPECT_NOT_NULL(test, strstr(rec.reason, "'src' of kmemdup"));
	KUNIT_EXPECT_EQ(test, run_bad_free(test, 7, victim, &rec), -EFAULT);
	KUNIT_EXPECT_NOT_NULL(test, strstr(rec.reason, "'s' of kstrdup"));
	stop_recording(&rec);
	KUNIT_EXPECT_EQ(test, ((u8 *)victim)[0], 0x5b);
	kfree(victim);
}

static SBM_DEFINE_FUNC(alloc_sizes, const size_t *, sizes, size_t, n,
		       unsigned long *, got)
{
	size_t i;

	for (i = 0; i < n; i++) {
		got[i] = i % 2 ? (unsigned long)vmalloc(sizes[i]) :
				 (unsigned long)kmalloc(sizes[i], GFP_KERNEL);
	}
	return 0;
}

/* Allocations fail with NULL beyond the instance's quota. */
static void quota_exceeded(struct kunit *test)
{
	static const size_t sizes[] = {
		32 << 10, 64 << 10, 16 << 10, 32 << 10, SIZE_MAX, SIZE_MAX,
	};
	unsigned long got[ARRAY_SIZE(sizes)];
	struct sbm sbm;

	skip_unless_strong(test);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm.alloc_limit, SBM_DEFAULT_ALLOC_LIMIT);
	KUNIT_EXPECT_EQ(test, sbm_set_alloc_limit(&sbm, 64 << 10), 0);
	KUNIT_ASSERT_EQ(test, sbm_call(&sbm, alloc_sizes,
				       SBM_COPY_IN(&sbm, sizes, sizeof(sizes)),
				       ARRAY_SIZE(sizes),
				       SBM_COPY_OUT(&sbm, got, sizeof(got))), 0);
	KUNIT_EXPECT_NE(test, got[0], 0);
	KUNIT_EXPECT_EQ(test, got[1], 0);
	KUNIT_EXPECT_NE(test, got[2], 0);
	KUNIT_EXPECT_EQ(test, got[3], 0);
	KUNIT_EXPECT_EQ(test, got[4], 0);
	KUNIT_EXPECT_EQ(test, got[5], 0);
	KUNIT_EXPECT_EQ(test, sbm.alloc_bytes, 48 << 10);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, sbm_set_alloc_limit(&sbm, 1), -EINVAL);
}

/*
 * Lowering the quota below what the instance holds lets nothing more
 * through: the room left is not computed by a subtraction that wraps.
 */
static void quota_lowered_below_holdings(struct kunit *test)
{
	static const size_t first[] = {
		PAGE_SIZE, PAGE_SIZE, PAGE_SIZE, PAGE_SIZE,
	};
	static const size_t second[] = {
		PAGE_SIZE, PAGE_SIZE, 64 << 10, 64 << 10, 1 << 20, 1 << 20,
	};
	unsigned long got[ARRAY_SIZE(second)];
	struct sbm sbm;
	size_t i;

	skip_unless_strong(test);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_ASSERT_EQ(test, sbm_call(&sbm, alloc_sizes,
				       SBM_COPY_IN(&sbm, first, sizeof(first)),
				       ARRAY_SIZE(first),
				       SBM_COPY_OUT(&sbm, got, sizeof(got))), 0);
	for (i = 0; i < ARRAY_SIZE(first); i++)
		KUNIT_EXPECT_NE(test, got[i], 0);
	KUNIT_EXPECT_EQ(test, sbm.alloc_bytes, 4 * PAGE_SIZE);

	KUNIT_EXPECT_EQ(test, sbm_set_alloc_limit(&sbm, PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, sbm_call(&sbm, alloc_sizes,
				       SBM_COPY_IN(&sbm, second, sizeof(second)),
				       ARRAY_SIZE(second),
				       SBM_COPY_OUT(&sbm, got, sizeof(got))), 0);
	for (i = 0; i < ARRAY_SIZE(second); i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], 0, "allocation %zu", i);
	KUNIT_EXPECT_EQ(test, sbm.alloc_bytes, 4 * PAGE_SIZE);
	sbm_destroy(&sbm);
}

static SBM_DEFINE_FUNC(alloc_huge, const size_t *, sizes, size_t, n,
		       unsigned long *, got)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (i % 4) {
		case 0:
			got[i] = (unsigned long)kmalloc(sizes[i], GFP_KERNEL);
			break;
		case 1:
			got[i] = (unsigned long)vmalloc(sizes[i]);
			break;
		case 2:
			got[i] = (unsigned long)kvmalloc(sizes[i], GFP_KERNEL);
			break;
		default:
			got[i] = (unsigned long)krealloc(NULL, sizes[i],
							 GFP_KERNEL);
			break;
		}
	}
	return 0;
}

/*
 * With no limit (SIZE_MAX), sizes near SIZE_MAX must fail cleanly, not
 * wrap to 0 when rounded to pages and reach the allocator, which warns.
 */
static void huge_sizes_without_limit(struct kunit *test)
{
	static const size_t sizes[] = {
		SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX,
		SIZE_MAX - PAGE_SIZE + 2, SIZE_MAX - PAGE_SIZE + 2,
		SIZE_MAX - PAGE_SIZE + 2, SIZE_MAX - PAGE_SIZE + 2,
		SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 1, SIZE_MAX / 2 + 1,
		SIZE_MAX / 2 + 1,
		KMALLOC_MAX_SIZE + 1, SIZE_MAX - PAGE_SIZE + 1,
		SIZE_MAX - PAGE_SIZE, KMALLOC_MAX_SIZE + 1,
	};
	unsigned long got[ARRAY_SIZE(sizes)];
	struct sbm sbm;
	size_t i;

	skip_unless_strong(test);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_set_alloc_limit(&sbm, SIZE_MAX), 0);
	KUNIT_ASSERT_EQ(test, sbm_call(&sbm, alloc_huge,
				       SBM_COPY_IN(&sbm, sizes, sizeof(sizes)),
				       ARRAY_SIZE(sizes),
				       SBM_COPY_OUT(&sbm, got, sizeof(got))), 0);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], 0, "allocation %zu", i);
	KUNIT_EXPECT_EQ(test, sbm.alloc_bytes, 0);
	sbm_destroy(&sbm);
}

static SBM_DEFINE_FUNC(leave_secret, u32 **, where)
{
	*where = kmalloc(sizeof(u32), GFP_KERNEL);
	if (!*where)
		return -ENOMEM;
	**where = 0x5ec7e7;
	return 0;
}

static SBM_DEFINE_FUNC(steal, u32 *, p, u32 *, out)
{
	*out = READ_ONCE(*p);
	WRITE_ONCE(*p, 0);
	return 0;
}

/* One sandbox cannot reach another's allocations, nor adopted ones. */
static void allocations_private(struct kunit *test)
{
	struct sbm owner, thief;
	u32 *secret, out = 0;

	skip_unless_strong(test);
	KUNIT_ASSERT_EQ(test, sbm_init(&owner), 0);
	KUNIT_ASSERT_EQ(test, sbm_call(&owner, leave_secret,
				       SBM_COPY_OUT(&owner, &secret,
						    sizeof(secret))), 0);
	KUNIT_ASSERT_EQ(test, sbm_init(&thief), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&thief, steal, secret,
				       SBM_COPY_OUT(&thief, &out, sizeof(out))),
			-EFAULT);
	sbm_destroy(&thief);
	KUNIT_EXPECT_EQ(test, *secret, 0x5ec7e7);

	/* Once adopted, not even its own sandbox may touch it. */
	KUNIT_EXPECT_EQ(test, sbm_adopt(&owner, secret), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&owner, steal, secret,
				       SBM_COPY_OUT(&owner, &out,
						    sizeof(out))), -EFAULT);
	sbm_destroy(&owner);
	KUNIT_EXPECT_EQ(test, *secret, 0x5ec7e7);
	KUNIT_EXPECT_EQ(test, out, 0);
	kfree(secret);
}

#ifndef MODULE
static noinline __noipa int sbm_test_service(int val)
{
	WRITE_ONCE(sbm_test_counter, val);
	return val;
}

static unsigned long sbm_test_service_handler(struct sbm_service_call *call)
{
	return (int)call->args[0] * 2;
}

static SBM_DEFINE_FUNC(ask_service, int, val, int *, out)
{
	*out = sbm_test_service(val);
	return 0;
}

static SBM_DEFINE_FUNC(ask_service_too, int, val, int *, out)
{
	*out = sbm_test_service(val);
	return 0;
}

SBM_EXPECT_FAULT(ask_service_too);

SBM_ALLOW_CALL_FROM(ask_service, sbm_test_service, sbm_test_service_handler);

/* An entry for one target serves that target only. */
static void service_per_target(struct kunit *test)
{
	u64 proxied = sbm_stat_read(SBM_STAT_PROXIED_CALLS);
	struct abort_record rec;
	struct sbm sbm;
	int out = 0;

	skip_unless_strong(test);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, ask_service, 21,
				       SBM_COPY_OUT(&sbm, &out, sizeof(out))),
			0);
	sbm_destroy(&sbm);
	KUNIT_EXPECT_EQ(test, out, 42);
	KUNIT_EXPECT_EQ(test, sbm_stat_read(SBM_STAT_PROXIED_CALLS) - proxied,
			1);

	KUNIT_ASSERT_EQ(test, record_aborts(test, &rec), 0);
	KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
	KUNIT_EXPECT_EQ(test, sbm_call(&sbm, ask_service_too, 21,
				       SBM_COPY_OUT(&sbm, &out, sizeof(out))),
			-EFAULT);
	sbm_destroy(&sbm);
	stop_recording(&rec);
	KUNIT_EXPECT_EQ(test, rec.kind, SBM_ABORT_FORBIDDEN_CALL);
	KUNIT_EXPECT_PTR_EQ(test, (void *)rec.callee, (void *)sbm_test_service);
	KUNIT_EXPECT_EQ(test, sbm_test_counter, 0);
}

/*
 * Services with random arguments. A target calls every allowlisted
 * service, with arguments drawn from a seeded generator: sizes at page,
 * order and KMALLOC_MAX_SIZE boundaries and next to SIZE_MAX, its own
 * live and freed objects, another sandbox's object, and kernel, user,
 * non-canonical and guard-page addresses. After each call it calls
 * fuzz_check(), whose handler checks in kernel mode that the quota
 * holds, that the instance's books agree with its objects and with the
 * global counters, and that no taint flag appeared.
 */
#define FUZZ_CALLS		100000
/* Most calls with bad arguments end a run: runs are short, of varied length. */
#define FUZZ_MAX_CALLS_PER_EXEC	8
#define FUZZ_MAX_SERVICES	64
#define FUZZ_LIVE		16
/* Seeds a round apart differ in every bit, not only in the low ones. */
#define FUZZ_SEED_STEP		0x9e3779b97f4a7c15ULL

enum {
	FUZZ_PTR_KERNEL_TEXT,
	FUZZ_PTR_KERNEL_DATA,
	FUZZ_PTR_KERNEL_HEAP,
	FUZZ_PTR_USER,
	FUZZ_PTR_NONCANONICAL,
	FUZZ_PTR_NONCANONICAL_48,
	FUZZ_PTR_GUARD,
	FUZZ_PTR_OTHER_SANDBOX,
	FUZZ_PTR_CALLER_STACK,
	FUZZ_PTR_TOP,
	FUZZ_NR_PTRS
};

struct fuzz_plan {
	u64 seed;
	unsigned int calls;
	unsigned int nr_services;
	unsigned long services[FUZZ_MAX_SERVICES];
	unsigned long ptrs[FUZZ_NR_PTRS];
};

static const size_t fuzz_sizes[] = {
	0, 1, 7, 8, 63, 64, PAGE_SIZE - 1, PAGE_SIZE, PAGE_SIZE + 1,
	2 * PAGE_SIZE, (PAGE_SIZE << PAGE_ALLOC_COSTLY_ORDER) - 1,
	(PAGE_SIZE << PAGE_ALLOC_COSTLY_ORDER) + 1, KMALLOC_MAX_SIZE,
	KMALLOC_MAX_SIZE + 1, 1UL << 31, 1UL << 32, SIZE_MAX / 2,
	SIZE_MAX / 2 + 1, SIZE_MAX - PAGE_SIZE, SIZE_MAX - PAGE_SIZE + 1,
	SIZE_MAX - PAGE_SIZE + 2, SIZE_MAX - 1, SIZE_MAX,
};

/* What the checks found, for the case to report. */
static struct {
	struct sbm *other;
	u64 live_base;
	unsigned long taint;
	size_t held;
	unsigned long checks;
	unsigned long calls;
	const char *failure;
	size_t bytes, limit;
} fuzz;

static u64 fuzz_next(u64 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static unsigned long fuzz_arg(u64 *state, const struct fuzz_plan *plan,
			      const unsigned long *live)
{
	u64 r = fuzz_next(state);

	switch (r % 16) {
	case 0 ... 5:
		return live[(r >> 8) % FUZZ_LIVE];
	case 6 ... 8:
		return (r >> 8) % (3 * PAGE_SIZE);
	case 9 ... 13:
		return fuzz_sizes[(r >> 8) % ARRAY_SIZE(fuzz_sizes)];
	case 14:
		/* Rarely hostile, so that a call often has many before it. */
		if ((r >> 8) % 16)
			return 0;
		return plan->ptrs[(r >> 16) % FUZZ_NR_PTRS];
	default:
		return r >> 4;
	}
}

static noinline __noipa void fuzz_check(void)
{
	barrier();
}

static unsigned long fuzz_objects(struct sbm *sbm)
{
	unsigned long index, n = 0;
	void *entry;

	xa_for_each(&sbm->objects, index, entry)
		n++;
	return n;
}

static u64 fuzz_live_objects(void)
{
	return sbm_stat_read(SBM_STAT_OBJECTS_ALLOCATED) -
	       sbm_stat_read(SBM_STAT_OBJECTS_FREED) -
	       sbm_stat_read(SBM_STAT_OBJECTS_ADOPTED);
}

/* The invariants, between two service calls or after a call. */
static void fuzz_verify(struct sbm *sbm)
{
	unsigned long n = fuzz_objects(sbm);

	fuzz.checks++;
	if (fuzz.failure)
		return;
	fuzz.bytes = sbm->alloc_bytes;
	fuzz.limit = sbm->alloc_limit;
	if (sbm->alloc_bytes > max(sbm->alloc_limit, fuzz.held))
		fuzz.failure = "quota exceeded";
	else if (!PAGE_ALIGNED(sbm->alloc_bytes) ||
		 sbm->alloc_bytes < n * PAGE_SIZE || (!n != !sbm->alloc_bytes))
		fuzz.failure = "allocated bytes disagree with the objects";
	else if (fuzz_live_objects() - fuzz.live_base !=
		 n + fuzz_objects(fuzz.other))
		fuzz.failure = "global counters disagree with the objects";
	else if (get_taint() != fuzz.taint)
		fuzz.failure = "kernel tainted";
	fuzz.held = min(sbm->alloc_bytes, fuzz.held);
}

static unsigned long fuzz_check_handler(struct sbm_service_call *call)
{
	fuzz_verify(call->sbm);
	return 0;
}

typedef unsigned long (*fuzz_service_fn)(unsigned long, unsigned long,
					 unsigned long, unsigned long,
					 unsigned long, unsigned long);

static SBM_DEFINE_FUNC(fuzz_services, const struct fuzz_plan *, plan,
		       unsigned int *, done)
{
	unsigned long live[FUZZ_LIVE] = { }, a[6], ret;
	u64 state = plan->seed | 1;	/* xorshift stays at 0 */
	fuzz_service_fn fn;
	unsigned int i, j;

	for (i = 0; i < plan->calls; i++) {
		fn = (fuzz_service_fn)plan->services[fuzz_next(&state) %
						     plan->nr_services];
		for (j = 0; j < ARRAY_SIZE(a); j++)
			a[j] = fuzz_arg(&state, plan, live);
		ret = fn(a[0], a[1], a[2], a[3], a[4], a[5]);
		if (ret)
			live[fuzz_next(&state) % FUZZ_LIVE] = ret;
		fuzz_check();
		WRITE_ONCE(*done, i + 1);
	}
	return 0;
}

SBM_ALLOW_CALL_FROM(fuzz_services, fuzz_check, fuzz_check_handler);

static SBM_DEFINE_FUNC(alloc_one, unsigned long *, where)
{
	*where = (unsigned long)kmalloc(64, GFP_KERNEL);
	return *where ? 0 : -ENOMEM;
}

static void fuzz_plan_init(struct fuzz_plan *plan, unsigned long other_obj,
			   const void *heap, const void *copy)
{
	const struct sbm_service *svc;
	unsigned long stack = 0;

	plan->nr_services = 0;
	for (svc = __start_sbm_services; svc < __stop_sbm_services; svc++) {
		/* Entries for other targets would only abort the call. */
		if (svc->target || plan->nr_services == FUZZ_MAX_SERVICES)
			continue;
		plan->services[plan->nr_services++] = (unsigned long)svc->func;
	}
	plan->ptrs[FUZZ_PTR_KERNEL_TEXT] = (unsigned long)kfree;
	plan->ptrs[FUZZ_PTR_KERNEL_DATA] = (unsigned long)&sbm_test_counter;
	plan->ptrs[FUZZ_PTR_KERNEL_HEAP] = (unsigned long)heap;
	plan->ptrs[FUZZ_PTR_USER] = 0x10000;
	plan->ptrs[FUZZ_PTR_NONCANONICAL] = 0x8000000000000000UL;
	plan->ptrs[FUZZ_PTR_NONCANONICAL_48] = 0x0000800000000000UL;
	plan->ptrs[FUZZ_PTR_GUARD] = (unsigned long)copy - PAGE_SIZE;
	plan->ptrs[FUZZ_PTR_OTHER_SANDBOX] = other_obj;
	plan->ptrs[FUZZ_PTR_CALLER_STACK] = (unsigned long)&stack;
	plan->ptrs[FUZZ_PTR_TOP] = -PAGE_SIZE;
}

/* The quotas that the calls run under, in turn. */
static const size_t fuzz_limits[] = {
	0, 1, PAGE_SIZE - 1, PAGE_SIZE, 4 * PAGE_SIZE, 64 << 10,
	SBM_DEFAULT_ALLOC_LIMIT, SIZE_MAX - 1, SIZE_MAX,
};

/* One call of the fuzzing target; returns what sbm_call() did. */
static int fuzz_call(struct sbm *sbm, struct fuzz_plan *plan,
		     const struct fuzz_plan *copy, u64 seed, size_t limit,
		     unsigned int *done)
{
	int ret;

	if (sbm_set_alloc_limit(sbm, limit))
		fuzz.failure = "limit refused";
	fuzz.held = sbm->alloc_bytes;
	WRITE_ONCE(*done, 0);
	plan->seed = seed;
	ret = sbm_call(sbm, fuzz_services, copy, done);
	fuzz.calls += READ_ONCE(*done);
	fuzz_verify(sbm);
	/* An aborted call leaves nothing allocated. */
	if (ret && (sbm->alloc_bytes || !xa_empty(&sbm->objects)))
		fuzz.failure = "objects left after an abort";
	return ret;
}

static void service_fuzz(struct kunit *test)
{
	unsigned long other_obj = 0, completed = 0, aborted = 0;
	unsigned int saved_limit = sbm_time_limit_ms, round;
	struct fuzz_plan *plan, *copy;
	unsigned int *done;
	struct sbm sbm, other;
	size_t limit;
	void *heap;
	u64 seed, served;
	int ret;

	skip_unless_strong(test);
	plan = kunit_kzalloc(test, sizeof(*plan), GFP_KERNEL);
	heap = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	done = vzalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, plan);
	KUNIT_ASSERT_NOT_NULL(test, heap);
	KUNIT_ASSERT_NOT_NULL(test, done);
	KUNIT_ASSERT_EQ(test, sbm_init(&other), 0);
	KUNIT_ASSERT_EQ(test, sbm_call(&other, alloc_one,
				       SBM_COPY_OUT(&other, &other_obj,
						    sizeof(other_obj))), 0);
	memset(&fuzz, 0, sizeof(fuzz));
	fuzz.other = &other;
	fuzz.live_base = fuzz_live_objects() - fuzz_objects(&other);
	fuzz.taint = get_taint();
	served = sbm_stat_read(SBM_STAT_PROXIED_CALLS);
	/* However slow this machine, a run must not end at the time limit. */
	sbm_time_limit_ms = 600000;

	for (round = 0; fuzz.calls < FUZZ_CALLS && !fuzz.failure; round++) {
		KUNIT_ASSERT_EQ(test, sbm_init(&sbm), 0);
		copy = SBM_COPY_IN(&sbm, plan, sizeof(*plan));
		KUNIT_ASSERT_NOT_NULL(test, copy);
		KUNIT_ASSERT_NOT_NULL(test, SBM_MAP_WRITABLE(&sbm, done,
							     PAGE_SIZE));
		fuzz_plan_init(plan, other_obj, heap, copy);
		plan->calls = 1 + round % FUZZ_MAX_CALLS_PER_EXEC;
		limit = fuzz_limits[round % ARRAY_SIZE(fuzz_limits)];
		seed = (round + 1ULL) * FUZZ_SEED_STEP;
		ret = fuzz_call(&sbm, plan, copy, seed, limit, done);
		/* Then a second call on what the first left, under another quota. */
		if (!ret) {
			limit = round % 2 ? sbm.alloc_bytes / 2 :
				fuzz_limits[(round + 4) % ARRAY_SIZE(fuzz_limits)];
			ret = fuzz_call(&sbm, plan, copy, ~seed, limit, done);
		}
		KUNIT_EXPECT_TRUE_MSG(test, ret == 0 || ret == -EFAULT,
				      "round %u returned %d", round, ret);
		if (ret)
			aborted++;
		else
			completed++;
		sbm_destroy(&sbm);
		if (fuzz_live_objects() - fuzz.live_base != fuzz_objects(&other))
			fuzz.failure = "objects left after sbm_destroy()";
	}
	sbm_time_limit_ms = saved_limit;
	sbm_destroy(&other);
	vfree(done);
	KUNIT_EXPECT_NULL_MSG(test, fuzz.failure,
			      "%s after %lu calls (round %u): %zu bytes held, limit %zu",
			      fuzz.failure, fuzz.calls, round - 1, fuzz.bytes,
			      fuzz.limit);
	KUNIT_EXPECT_GE(test, fuzz.calls, FUZZ_CALLS);
	/* Each call and its fuzz_check() went through the service layer. */
	served = sbm_stat_read(SBM_STAT_PROXIED_CALLS) - served;
	KUNIT_EXPECT_GE(test, served, 2ULL * fuzz.calls);
	/* The mix holds both runs that end and bad arguments that stop one. */
	KUNIT_EXPECT_GT(test, completed, 0);
	KUNIT_EXPECT_GT(test, aborted, 0);
	kunit_info(test, "%lu service calls (%llu served), %lu checks, %u instances: %lu completed, %lu aborted\n",
		   fuzz.calls, served, fuzz.checks, round, completed,
		   aborted);
}
#else
static void service_per_target(struct kunit *test)
{
	kunit_skip(test, "allowlist entries are declared in built-in code");
}

static void service_fuzz(struct kunit *test)
{
	kunit_skip(test, "allowlist entries are declared in built-in code");
}
#endif

static struct kunit_case sbm_services_test_cases[] = {
	KUNIT_CASE(object_graph),
	KUNIT_CASE(allocation_services),
	KUNIT_CASE(abort_frees_everything),
	KUNIT_CASE(destroy_frees_unadopted),
	KUNIT_CASE(forbidden_call_named),
	KUNIT_CASE(bad_service_arguments),
	KUNIT_CASE(quota_exceeded),
	KUNIT_CASE(quota_lowered_below_holdings),
	KUNIT_CASE(huge_sizes_without_limit),
	KUNIT_CASE(allocations_private),
	KUNIT_CASE(service_per_target),
	KUNIT_CASE_SLOW(service_fuzz),
	{}
};

static struct kunit_suite sbm_services_test_suite = {
	.name = "sandbox_mode_services",
	.test_cases = sbm_services_test_cases,
};

kunit_test_suite(sbm_services_test_suite);

MODULE_DESCRIPTION("KUnit tests for SandBox Mode kernel services");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
