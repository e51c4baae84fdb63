// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite that audits the address space of a live sandbox: every
 * level of its page tables is walked, every mapped page must belong to a
 * region the sandbox may see, with the permissions that region allows.
 */

#define pr_fmt(fmt) "sbm_audit_test: " fmt

#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <asm/ibt.h>
#include <asm/text-patching.h>

#include "sbm.h"

static SBM_DEFINE_FUNC(touch_all, const u8 *, in, u8 *, out, u8 *, inout,
		       const u8 *, ro, u8 *, rw)
{
	out[0] = in[0] + inout[0] + ro[0];
	rw[0] = 1;
	return 0;
}

struct audit_fixture {
	struct sbm sbm;
	u8 in[100], out[5000], inout[8];
	u8 *ro, *rw;
};

/* A sandbox with one buffer or map of each kind, after a call. */
static int audit_init(struct kunit *test)
{
	struct audit_fixture *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->ro = kunit_kzalloc(test, 64, GFP_KERNEL);
	f->rw = vzalloc(2 * PAGE_SIZE);
	if (!f->ro || !f->rw)
		return -ENOMEM;
	if (sbm_init(&f->sbm))
		return -ENODEV;
	test->priv = f;
	return 0;
}

static void audit_exit(struct kunit *test)
{
	struct audit_fixture *f = test->priv;

	if (!f)
		return;
	sbm_destroy(&f->sbm);
	vfree(f->rw);
}

static void audit_report(struct kunit *test, const struct sbm_audit *audit)
{
	unsigned int i;

	for (i = 0; i < SBM_REGION_NR; i++)
		if (audit->bytes[i])
			kunit_info(test, "%-28s %8lu KiB\n", sbm_region_name(i),
				   audit->bytes[i] >> 10);
	for (i = 0; i < min(audit->violations, ARRAY_SIZE(audit->bad)); i++)
		kunit_info(test, "violation at 0x%lx\n", audit->bad[i]);
}

/*
 * Only the allowed regions, with their permissions, in the paging mode
 * this boot uses (the strong configuration boots with 5 and 4 levels).
 */
static void address_space_allowed(struct kunit *test)
{
	struct audit_fixture *f = test->priv;
	struct sbm *sbm = &f->sbm;
	struct sbm_audit audit;

	KUNIT_ASSERT_EQ(test, sbm_call(sbm, touch_all,
				       SBM_COPY_IN(sbm, f->in, sizeof(f->in)),
				       SBM_COPY_OUT(sbm, f->out, sizeof(f->out)),
				       SBM_COPY_INOUT(sbm, f->inout,
						      sizeof(f->inout)),
				       SBM_MAP_READONLY(sbm, f->ro, 64),
				       SBM_MAP_WRITABLE(sbm, f->rw,
							2 * PAGE_SIZE)), 0);
	sbm_audit(sbm, &audit);
	kunit_info(test, "%d-level paging\n", pgtable_l5_enabled() ? 5 : 4);
	audit_report(test, &audit);

	KUNIT_EXPECT_EQ(test, audit.violations, 0);
	KUNIT_EXPECT_EQ(test, audit.bytes[SBM_REGION_UNKNOWN], 0);
	KUNIT_EXPECT_GT(test, audit.bytes[SBM_REGION_TEXT], 0);
	KUNIT_EXPECT_GT(test, audit.bytes[SBM_REGION_RODATA], 0);
	KUNIT_EXPECT_EQ(test, audit.bytes[SBM_REGION_STACK], SBM_STACK_SIZE);
	KUNIT_EXPECT_EQ(test, audit.bytes[SBM_REGION_CONTEXT], PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, audit.bytes[SBM_REGION_IDT], PAGE_SIZE);
	/* in, ro: a page each; out, rw: 2 pages each; inout: a page. */
	KUNIT_EXPECT_EQ(test, audit.bytes[SBM_REGION_BUFFER_RO], 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, audit.bytes[SBM_REGION_BUFFER_RW], 5 * PAGE_SIZE);
	KUNIT_EXPECT_GT(test, audit.bytes[SBM_REGION_SHADOW], 0);
}

/* The audit itself: one page too many, mapped behind the API's back. */
static void audit_catches_extra_page(struct kunit *test)
{
	struct audit_fixture *f = test->priv;
	struct x86_sbm *s = f->sbm.private;
	unsigned long extra = (unsigned long)f->ro & PAGE_MASK;
	struct sbm_audit audit;

	KUNIT_ASSERT_EQ(test, sbm_map_kernel_range(&s->pt, extra,
						   extra + PAGE_SIZE,
						   SBM_USER_RO), 0);
	sbm_audit(&f->sbm, &audit);
	KUNIT_EXPECT_EQ(test, audit.violations, 1);
	KUNIT_EXPECT_EQ(test, audit.bad[0], extra);
	KUNIT_EXPECT_EQ(test, audit.bytes[SBM_REGION_UNKNOWN], PAGE_SIZE);
}

/* And a page of a buffer region with more rights than the region has. */
static void audit_catches_wrong_permissions(struct kunit *test)
{
	struct audit_fixture *f = test->priv;
	struct x86_sbm *s = f->sbm.private;
	struct sbm_audit audit;

	KUNIT_ASSERT_NOT_NULL(test, SBM_COPY_IN(&f->sbm, f->in, sizeof(f->in)));
	sbm_audit(&f->sbm, &audit);
	KUNIT_EXPECT_EQ(test, audit.violations, 0);
	/* The stack, made executable: */
	KUNIT_ASSERT_EQ(test, sbm_map_kernel_range(&s->pt,
						   (unsigned long)s->stack,
						   (unsigned long)s->stack +
						   PAGE_SIZE, SBM_USER_EXEC),
			0);
	sbm_audit(&f->sbm, &audit);
	KUNIT_EXPECT_EQ(test, audit.violations, 1);
	KUNIT_EXPECT_EQ(test, audit.bad[0], (unsigned long)s->stack);
}

static SBM_DEFINE_FUNC(allocate, void **, k, void **, v)
{
	*k = kmalloc(5000, GFP_KERNEL);
	*v = vmalloc(3 * PAGE_SIZE);
	return 0;
}

static SBM_DEFINE_FUNC(release, void *, k, void *, v)
{
	kfree(k);
	vfree(v);
	return 0;
}

/* What a target allocates is its own, writable, and gone once freed. */
static void address_space_objects(struct kunit *test)
{
	struct audit_fixture *f = test->priv;
	struct sbm *sbm = &f->sbm;
	struct sbm_audit audit;
	void *k = NULL, *v = NULL;

	KUNIT_ASSERT_EQ(test, sbm_call(sbm, allocate,
				       SBM_COPY_OUT(sbm, &k, sizeof(k)),
				       SBM_COPY_OUT(sbm, &v, sizeof(v))), 0);
	KUNIT_ASSERT_NOT_NULL(test, k);
	KUNIT_ASSERT_NOT_NULL(test, v);
	sbm_audit(sbm, &audit);
	audit_report(test, &audit);
	KUNIT_EXPECT_EQ(test, audit.violations, 0);
	KUNIT_EXPECT_EQ(test, audit.bytes[SBM_REGION_OBJECT], 5 * PAGE_SIZE);

	KUNIT_ASSERT_EQ(test, sbm_call(sbm, release, k, v), 0);
	sbm_audit(sbm, &audit);
	KUNIT_EXPECT_EQ(test, audit.violations, 0);
	KUNIT_EXPECT_EQ(test, audit.bytes[SBM_REGION_OBJECT], 0);
	KUNIT_EXPECT_EQ(test, audit.bytes[SBM_REGION_UNKNOWN], 0);
}

/*
 * Sandboxes see the page that holds kfree() as the kernel had it at boot,
 * but for an INT3 at the entry of each allowlisted function on it.
 */
static void service_trap_page(struct kunit *test)
{
	struct audit_fixture *f = test->priv;
	unsigned long page = (unsigned long)kfree & PAGE_MASK, addr;
	unsigned int i, traps = 0;
	u8 *seen;

	seen = kunit_kmalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	KUNIT_ASSERT_EQ(test, arch_sbm_read(&f->sbm, seen, page, PAGE_SIZE), 0);
	for (i = 0; i < PAGE_SIZE; i++) {
		addr = page + i;
		/* Static keys flipped since boot differ too, harmlessly. */
		if (seen[i] == *(u8 *)addr || seen[i] != INT3_INSN_OPCODE)
			continue;
		KUNIT_EXPECT_TRUE(test, sbm_is_service(addr) ||
				  sbm_is_service(addr - ENDBR_INSN_SIZE));
		traps++;
	}
	KUNIT_EXPECT_GE(test, traps, 1);
	KUNIT_EXPECT_EQ(test, seen[(unsigned long)kfree - page],
			INT3_INSN_OPCODE);
}

static struct kunit_case sbm_audit_test_cases[] = {
	KUNIT_CASE(address_space_allowed),
	KUNIT_CASE(audit_catches_extra_page),
	KUNIT_CASE(audit_catches_wrong_permissions),
	KUNIT_CASE(address_space_objects),
	KUNIT_CASE(service_trap_page),
	{}
};

static struct kunit_suite sbm_audit_test_suite = {
	.name = "sandbox_mode_address_space",
	.init = audit_init,
	.exit = audit_exit,
	.test_cases = sbm_audit_test_cases,
};

kunit_test_suite(sbm_audit_test_suite);

MODULE_DESCRIPTION("KUnit audit of SandBox Mode address spaces");
MODULE_LICENSE("GPL");
