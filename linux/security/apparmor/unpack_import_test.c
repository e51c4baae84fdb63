// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the checks on what a sandboxed policy unpacker returns.
 *
 * A forger runs in SandBox Mode in place of aa_unpack_image(). It builds a
 * valid image of one profile, with a small dfa, out of objects it
 * allocates, then breaks one rule of those at the top of unpack_import.c,
 * the way an unpacker taken over by its blob could. Each broken image must
 * be refused with -EPROTO, and the valid one turned into a profile.
 *
 * Included by unpack_import.c, to reach its static functions.
 */

#include <kunit/test.h>

enum aa_forgery {
	AA_FORGE_NOTHING,
	AA_FORGE_NAME_OUTSIDE_BLOB,
	AA_FORGE_NAME_UNTERMINATED,
	AA_FORGE_PROFILES_SHORT,
	AA_FORGE_PDB_IN_BLOB,
	AA_FORGE_PDB_INSIDE_OBJECT,
	AA_FORGE_PERMS_SHORT,
	AA_FORGE_TABLE_SHORT,
	AA_FORGE_TABLE_WRONG_ID,
	AA_FORGE_DEFAULT_STATE,
	AA_FORGE_NEXT_STATE,
	AA_FORGE_BASE_INDEX,
	AA_FORGE_DIFF_ENCODE_LOOP,
	AA_FORGE_START_STATE,
	AA_FORGE_ACCEPT_INDEX,
	AA_FORGE_TRANS_UNTERMINATED,
	AA_FORGE_MODE_FLAGS,
	AA_FORGE_ERROR_POSITIVE,
	AA_FORGE_VERSION,
};

static const char * const aa_forgery_names[] = {
	[AA_FORGE_NOTHING] = "nothing",
	[AA_FORGE_NAME_OUTSIDE_BLOB] = "name_outside_blob",
	[AA_FORGE_NAME_UNTERMINATED] = "name_unterminated",
	[AA_FORGE_PROFILES_SHORT] = "profiles_short",
	[AA_FORGE_PDB_IN_BLOB] = "pdb_in_blob",
	[AA_FORGE_PDB_INSIDE_OBJECT] = "pdb_inside_object",
	[AA_FORGE_PERMS_SHORT] = "perms_short",
	[AA_FORGE_TABLE_SHORT] = "table_short",
	[AA_FORGE_TABLE_WRONG_ID] = "table_wrong_id",
	[AA_FORGE_DEFAULT_STATE] = "default_state",
	[AA_FORGE_NEXT_STATE] = "next_state",
	[AA_FORGE_BASE_INDEX] = "base_index",
	[AA_FORGE_DIFF_ENCODE_LOOP] = "diff_encode_loop",
	[AA_FORGE_START_STATE] = "start_state",
	[AA_FORGE_ACCEPT_INDEX] = "accept_index",
	[AA_FORGE_TRANS_UNTERMINATED] = "trans_unterminated",
	[AA_FORGE_MODE_FLAGS] = "mode_flags",
	[AA_FORGE_ERROR_POSITIVE] = "error_positive",
	[AA_FORGE_VERSION] = "version",
};

/* The blob the forger points into: a profile name, and bytes that end it. */
static char aa_forge_blob[] = { 'f', 'o', 'r', 'g', 'e', 'd', '\0', 'e', 'n', 'd' };
#define AA_FORGE_UNTERMINATED	7
#define AA_FORGE_STATES		2
#define AA_FORGE_TRANS		256

static struct table_header *aa_forge_table(u16 id, u16 td_flags, u32 lolen)
{
	struct table_header *t;

	t = kvzalloc(table_size(lolen, td_flags), GFP_KERNEL);
	if (t) {
		t->td_id = id;
		t->td_flags = td_flags;
		t->td_lolen = lolen;
	}
	return t;
}

/* Two states, every transition to state 0, both accepting perms 0 and 1. */
static struct aa_dfa *aa_forge_dfa(void)
{
	struct aa_dfa *dfa = kzalloc(sizeof(*dfa), GFP_KERNEL);

	if (!dfa)
		return NULL;
	dfa->max_oob = 1;
	dfa->tables[YYTD_ID_BASE] = aa_forge_table(YYTD_ID_BASE, YYTD_DATA32,
						   AA_FORGE_STATES);
	dfa->tables[YYTD_ID_DEF] = aa_forge_table(YYTD_ID_DEF, YYTD_DATA16,
						  AA_FORGE_STATES);
	dfa->tables[YYTD_ID_ACCEPT] = aa_forge_table(YYTD_ID_ACCEPT,
						     YYTD_DATA32,
						     AA_FORGE_STATES);
	dfa->tables[YYTD_ID_NXT] = aa_forge_table(YYTD_ID_NXT, YYTD_DATA16,
						  AA_FORGE_TRANS);
	dfa->tables[YYTD_ID_CHK] = aa_forge_table(YYTD_ID_CHK, YYTD_DATA16,
						  AA_FORGE_TRANS);
	if (!dfa->tables[YYTD_ID_BASE] || !dfa->tables[YYTD_ID_DEF] ||
	    !dfa->tables[YYTD_ID_ACCEPT] || !dfa->tables[YYTD_ID_NXT] ||
	    !dfa->tables[YYTD_ID_CHK])
		return NULL;
	ACCEPT_TABLE(dfa)[1] = 1;
	return dfa;
}

static struct aa_policydb *aa_forge_pdb(void)
{
	struct aa_policydb *pdb = kzalloc(sizeof(*pdb), GFP_KERNEL);

	if (!pdb)
		return NULL;
	pdb->dfa = aa_forge_dfa();
	pdb->perms = kcalloc(AA_FORGE_STATES, sizeof(*pdb->perms), GFP_KERNEL);
	pdb->size = AA_FORGE_STATES;
	pdb->trans.table = kcalloc(1, sizeof(char *), GFP_KERNEL);
	if (!pdb->dfa || !pdb->perms || !pdb->trans.table)
		return NULL;
	pdb->trans.table[0] = kstrdup("/bin/true", GFP_KERNEL);
	pdb->trans.size = 1;
	return pdb->trans.table[0] ? pdb : NULL;
}

static void aa_forge_break(int forgery, struct aa_unpacked *out,
			   struct aa_unpacked_profile *up, const char *blob)
{
	struct aa_policydb *pdb = up->xmatch;
	struct aa_dfa *dfa = pdb->dfa;
	char *str;

	switch (forgery) {
	case AA_FORGE_NAME_OUTSIDE_BLOB:
		up->name = "outside";
		break;
	case AA_FORGE_NAME_UNTERMINATED:
		up->name = blob + AA_FORGE_UNTERMINATED;
		break;
	case AA_FORGE_PROFILES_SHORT:
		out->parsed = PAGE_SIZE / sizeof(*up) + 1;
		out->count = out->parsed;
		break;
	case AA_FORGE_PDB_IN_BLOB:
		up->xmatch = (struct aa_policydb *)blob;
		break;
	case AA_FORGE_PDB_INSIDE_OBJECT:
		up->xmatch = (struct aa_policydb *)((char *)pdb + 8);
		break;
	case AA_FORGE_PERMS_SHORT:
		pdb->size = PAGE_SIZE;
		break;
	case AA_FORGE_TABLE_SHORT:
		dfa->tables[YYTD_ID_NXT]->td_lolen = PAGE_SIZE;
		dfa->tables[YYTD_ID_CHK]->td_lolen = PAGE_SIZE;
		break;
	case AA_FORGE_TABLE_WRONG_ID:
		dfa->tables[YYTD_ID_DEF]->td_id = YYTD_ID_NXT;
		break;
	case AA_FORGE_DEFAULT_STATE:
		DEFAULT_TABLE(dfa)[1] = 0xffff;
		break;
	case AA_FORGE_NEXT_STATE:
		NEXT_TABLE(dfa)[AA_FORGE_TRANS - 1] = AA_FORGE_STATES;
		break;
	case AA_FORGE_BASE_INDEX:
		BASE_TABLE(dfa)[1] = 1;
		break;
	case AA_FORGE_DIFF_ENCODE_LOOP:
		dfa->flags = YYTH_FLAG_DIFF_ENCODE;
		BASE_TABLE(dfa)[0] = MATCH_FLAG_DIFF_ENCODE;
		BASE_TABLE(dfa)[1] = MATCH_FLAG_DIFF_ENCODE;
		DEFAULT_TABLE(dfa)[0] = 1;
		break;
	case AA_FORGE_START_STATE:
		pdb->start[AA_CLASS_FILE] = AA_FORGE_STATES;
		break;
	case AA_FORGE_ACCEPT_INDEX:
		ACCEPT_TABLE(dfa)[1] = AA_FORGE_STATES;
		break;
	case AA_FORGE_TRANS_UNTERMINATED:
		str = pdb->trans.table[0];
		memset(str, 'x', PAGE_SIZE);
		break;
	case AA_FORGE_MODE_FLAGS:
		up->mode = APPARMOR_UNCONFINED;
		break;
	case AA_FORGE_ERROR_POSITIVE:
		out->error = 1;
		break;
	case AA_FORGE_VERSION:
		up->version = v9 + 1;
		break;
	}
}

static SBM_DEFINE_FUNC(aa_forge_image, int, forgery, const char *, blob,
		       struct aa_unpacked *, out)
{
	struct aa_unpacked_profile *up;

	up = kzalloc(sizeof(*up), GFP_KERNEL);
	if (!up)
		return -ENOMEM;
	out->profiles = up;
	out->count = 1;
	out->parsed = 1;
	up->start = blob;
	up->version = v9;
	out->version = v9;
	up->end = blob + sizeof(aa_forge_blob);
	up->name = blob;
	up->mode = APPARMOR_ENFORCE;
	up->xmatch = aa_forge_pdb();
	if (!up->xmatch)
		return -ENOMEM;
	up->policy = aa_forge_pdb();
	if (!up->policy)
		return -ENOMEM;
	up->file = up->policy;
	aa_forge_break(forgery, out, up, blob);
	return 0;
}

/* Run the forger as aa_unpack() runs the unpacker; 0 if it was believed. */
static int aa_forge_run(struct kunit *test, int forgery,
			struct aa_profile **profile)
{
	struct aa_unpack_ctx ctx = {
		.data = aa_forge_blob,
		.size = sizeof(aa_forge_blob),
		.sandboxed = true,
	};
	struct aa_unpacked image = { };
	struct aa_unpacked *out;
	const char *blob, *info;
	char *ns_name;
	int error;

	KUNIT_ASSERT_EQ(test, sbm_init(&ctx.sbm), 0);
	blob = SBM_COPY_IN(&ctx.sbm, ctx.data, ctx.size);
	out = SBM_COPY_OUT(&ctx.sbm, &image, sizeof(image));
	KUNIT_ASSERT_EQ(test, sbm_call(&ctx.sbm, aa_forge_image, forgery,
				       blob, out), 0);
	ctx.view = blob;
	error = aa_unpack_check_image(&ctx, &image);
	if (!error && image.parsed) {
		*profile = aa_unpack_import(&ctx, &image.profiles[0], &ns_name,
					    &info);
		if (IS_ERR(*profile)) {
			error = PTR_ERR(*profile);
			*profile = NULL;
		}
		KUNIT_EXPECT_NULL(test, ns_name);
	}
	aa_unpack_done(&ctx, &image);
	return error;
}

static void aa_forgery_desc(const int *forgery, char *desc)
{
	strscpy(desc, aa_forgery_names[*forgery], KUNIT_PARAM_DESC_SIZE);
}

static const int aa_forgeries[] = {
	AA_FORGE_NAME_OUTSIDE_BLOB, AA_FORGE_NAME_UNTERMINATED,
	AA_FORGE_PROFILES_SHORT, AA_FORGE_PDB_IN_BLOB,
	AA_FORGE_PDB_INSIDE_OBJECT, AA_FORGE_PERMS_SHORT,
	AA_FORGE_TABLE_SHORT, AA_FORGE_TABLE_WRONG_ID,
	AA_FORGE_DEFAULT_STATE, AA_FORGE_NEXT_STATE, AA_FORGE_BASE_INDEX,
	AA_FORGE_DIFF_ENCODE_LOOP, AA_FORGE_START_STATE,
	AA_FORGE_ACCEPT_INDEX, AA_FORGE_TRANS_UNTERMINATED,
	AA_FORGE_MODE_FLAGS, AA_FORGE_ERROR_POSITIVE, AA_FORGE_VERSION,
};

KUNIT_ARRAY_PARAM(aa_forgery, aa_forgeries, aa_forgery_desc);

static void aa_forged_image_refused(struct kunit *test)
{
	const int *forgery = test->param_value;
	struct aa_profile *profile = NULL;

	KUNIT_EXPECT_EQ(test, aa_forge_run(test, *forgery, &profile), -EPROTO);
	KUNIT_EXPECT_NULL(test, profile);
}

static void aa_valid_image_imported(struct kunit *test)
{
	struct aa_profile *profile = NULL;
	struct aa_ruleset *rules;

	KUNIT_ASSERT_EQ(test, aa_forge_run(test, AA_FORGE_NOTHING, &profile),
			0);
	KUNIT_ASSERT_NOT_NULL(test, profile);
	KUNIT_EXPECT_STREQ(test, profile->base.hname, "forged");
	KUNIT_EXPECT_EQ(test, profile->mode, APPARMOR_ENFORCE);
	rules = list_first_entry(&profile->rules, typeof(*rules), list);
	KUNIT_EXPECT_PTR_EQ(test, rules->file, rules->policy);
	KUNIT_EXPECT_EQ(test, rules->policy->size, AA_FORGE_STATES);
	KUNIT_EXPECT_STREQ(test, rules->policy->trans.table[0], "/bin/true");
	KUNIT_EXPECT_EQ(test, ACCEPT_TABLE(rules->policy->dfa)[1], 1);
	aa_free_profile(profile);
}

static struct kunit_case aa_unpack_import_cases[] = {
	KUNIT_CASE(aa_valid_image_imported),
	KUNIT_CASE_PARAM(aa_forged_image_refused, aa_forgery_gen_params),
	{}
};

static struct kunit_suite aa_unpack_import_suite = {
	.name = "apparmor_unpack_import",
	.test_cases = aa_unpack_import_cases,
};

kunit_test_suite(aa_unpack_import_suite);
