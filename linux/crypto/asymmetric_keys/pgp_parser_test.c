// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the OpenPGP public key parser.
 *
 * pgp_key_parser_vectors: keys that gpg made (pgp_parser_test_vectors.h,
 * from gen_pgp_test_vectors.py) parse the same in SandBox Mode and not, load
 * as asymmetric keys named by the fingerprint gpg printed, and verify the
 * signatures gpg made with them; a tampered digest fails.
 * pgp_key_parser_input: every truncation of a key is refused unless it
 * ends between packets, and the fault injection is contained.
 * pgp_key_parser_forged: descriptions that a parser taken over by an
 * attacker could return, each refused by the kernel's check.
 */

#include <crypto/public_key.h>
#include <keys/asymmetric-type.h>
#include <kunit/test.h>
#include <linux/cred.h>
#include <linux/ctype.h>
#include <linux/key.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "pgp_parser.h"
#include "pgp_parser_test_vectors.h"

#define STRONG	IS_ENABLED(CONFIG_HAVE_ARCH_SBM)

/* Parse @data in a sandbox of its own, as the key parser does. */
static int pgp_test_parse_in_sbm(const u8 *data, size_t len,
				 struct pgp_key_desc *desc, int fault)
{
	struct pgp_key_desc *out;
	const u8 *in;
	struct sbm sbm;
	int ret;

	sbm_init(&sbm);
	in = SBM_COPY_IN(&sbm, data, len);
	out = SBM_COPY_OUT(&sbm, desc, sizeof(*desc));
	ret = sbm_call(&sbm, pgp_parse_key, in, len, out, fault);
	sbm_destroy(&sbm);
	return ret;
}

static void pgp_test_vector_desc(const struct pgp_test_vector *vec,
				 char *desc)
{
	strscpy(desc, vec->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pgp_test_vector, pgp_test_vectors, pgp_test_vector_desc);

static struct key *pgp_test_keyring(struct kunit *test)
{
	struct key *keyring;

	keyring = keyring_alloc(".pgp_test", GLOBAL_ROOT_UID, GLOBAL_ROOT_GID,
				current_cred(),
				(KEY_POS_ALL & ~KEY_POS_SETATTR) | KEY_USR_VIEW |
				KEY_USR_READ | KEY_USR_SEARCH,
				KEY_ALLOC_NOT_IN_QUOTA, NULL, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(keyring));
	return keyring;
}

static key_ref_t pgp_test_add(struct key *keyring, const u8 *data,
			      size_t len)
{
	return key_create_or_update(make_key_ref(keyring, true), "asymmetric",
				    NULL, data, len,
				    (KEY_POS_ALL & ~KEY_POS_SETATTR) |
				    KEY_USR_VIEW, KEY_ALLOC_NOT_IN_QUOTA);
}

/* What the description must be: the user ID, then the fingerprint. */
static char *pgp_test_expected_desc(struct kunit *test,
				    const struct pgp_test_vector *vec)
{
	size_t i, len;
	char *want;

	len = strlen(vec->user_id) + 2 + strlen(vec->fingerprint) + 1;
	want = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	snprintf(want, len, "%s: %s", vec->user_id, vec->fingerprint);
	for (i = strlen(vec->user_id); want[i]; i++)
		want[i] = tolower(want[i]);
	return want;
}

/*
 * The key's IDs: the fingerprint gpg printed, and the key ID, its last
 * eight octets for a v4 key and its first eight for v6.
 */
static void pgp_test_ids(struct kunit *test, const struct pgp_test_vector *vec,
			 struct key *key)
{
	const struct asymmetric_key_ids *ids = asymmetric_key_ids(key);
	const struct asymmetric_key_id *fpr = ids->id[0], *key_id = ids->id[1];
	size_t len = strlen(vec->fingerprint) / 2;
	u8 *want;

	want = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_EQ(test, hex2bin(want, vec->fingerprint, len), 0);
	KUNIT_ASSERT_EQ(test, fpr->len, len);
	KUNIT_EXPECT_MEMEQ(test, fpr->data, want, len);
	KUNIT_ASSERT_EQ(test, key_id->len, PGP_KEY_ID_SIZE);
	if (len == PGP_V6_FPR_SIZE)
		KUNIT_EXPECT_MEMEQ(test, key_id->data, want, PGP_KEY_ID_SIZE);
	else
		KUNIT_EXPECT_MEMEQ(test, key_id->data,
				   want + len - PGP_KEY_ID_SIZE,
				   PGP_KEY_ID_SIZE);
	KUNIT_EXPECT_NULL(test, ids->id[2]);
}

static void pgp_test_verify(struct kunit *test,
			    const struct pgp_test_vector *vec, struct key *key)
{
	struct public_key_signature sig = {
		.s = (u8 *)vec->sig,
		.s_size = vec->sig_len,
		.digest_size = vec->digest_len,
		.pkey_algo = strcmp(vec->encoding, "x962") ? "rsa" : "ecdsa",
		.hash_algo = vec->hash_algo,
		.encoding = vec->encoding,
	};
	u8 *digest;

	digest = kunit_kmalloc(test, vec->digest_len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, digest);
	memcpy(digest, vec->digest, vec->digest_len);
	sig.digest = digest;
	KUNIT_EXPECT_EQ(test, verify_signature(key, &sig), 0);
	digest[vec->digest_len / 2] ^= 0x10;
	KUNIT_EXPECT_EQ(test, verify_signature(key, &sig), -EKEYREJECTED);
}

/*
 * Parse in the sandbox and directly: the same result and description;
 * then load the key and check its name and what it verifies.
 */
static void pgp_test_vector_loads(struct kunit *test)
{
	const struct pgp_test_vector *vec = test->param_value;
	struct pgp_key_desc *direct, *sandboxed;
	struct key *keyring, *key;
	key_ref_t ref;

	direct = kunit_kzalloc(test, sizeof(*direct), GFP_KERNEL);
	sandboxed = kunit_kzalloc(test, sizeof(*sandboxed), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, direct);
	KUNIT_ASSERT_NOT_NULL(test, sandboxed);

	KUNIT_EXPECT_EQ(test, pgp_parse_key(vec->key, vec->key_len, direct,
					    PGP_FAULT_NONE), vec->expect);
	KUNIT_EXPECT_EQ(test, pgp_test_parse_in_sbm(vec->key, vec->key_len,
						    sandboxed, PGP_FAULT_NONE),
			vec->expect);
	if (!vec->expect)
		KUNIT_EXPECT_EQ(test, memcmp(direct, sandboxed,
					     sizeof(*direct)), 0);

	keyring = pgp_test_keyring(test);
	ref = pgp_test_add(keyring, vec->key, vec->key_len);
	if (vec->expect) {
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(ref), vec->expect);
		goto out;
	}
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ref), "add_key: %ld",
			       PTR_ERR(ref));
	key = key_ref_to_ptr(ref);
	KUNIT_EXPECT_STREQ(test, key->description,
			   pgp_test_expected_desc(test, vec));
	pgp_test_ids(test, vec, key);
	if (vec->sig)
		pgp_test_verify(test, vec, key);
	key_put(key);
out:
	key_put(keyring);
}

static struct kunit_case pgp_key_parser_vector_cases[] = {
	KUNIT_CASE_PARAM(pgp_test_vector_loads, pgp_test_vector_gen_params),
	{}
};

static struct kunit_suite pgp_key_parser_vector_suite = {
	.name = "pgp_key_parser_vectors",
	.test_cases = pgp_key_parser_vector_cases,
};

static const struct pgp_test_vector *pgp_test_find(struct kunit *test,
						   const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pgp_test_vectors); i++)
		if (!strcmp(pgp_test_vectors[i].name, name))
			return &pgp_test_vectors[i];
	KUNIT_FAIL_AND_ABORT(test, "no test vector %s", name);
	return NULL;
}

/*
 * Every prefix of a key is refused with -EBADMSG, unless it ends where a
 * packet ends: then it is a shorter key, and it parses.
 */
static void pgp_test_truncated(struct kunit *test)
{
	const struct pgp_test_vector *vec = pgp_test_find(test, "rsa2048");
	struct pgp_key_desc *full, *desc;
	u32 len, i, refused = 0;
	bool boundary;
	int ret;

	full = kunit_kzalloc(test, sizeof(*full), GFP_KERNEL);
	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, full);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	KUNIT_ASSERT_EQ(test, pgp_parse_key(vec->key, vec->key_len, full, 0),
			0);
	KUNIT_ASSERT_GE(test, full->nr_packets, 3);

	for (len = 0; len < vec->key_len; len++) {
		boundary = false;
		for (i = 0; i < full->nr_packets; i++)
			boundary |= len == full->packets[i].body.offset +
					   full->packets[i].body.len;
		ret = pgp_parse_key(vec->key, len, desc, 0);
		KUNIT_EXPECT_EQ_MSG(test, ret, boundary ? 0 : -EBADMSG,
				    "prefix of %u octets", len);
		if (!ret)
			KUNIT_EXPECT_EQ(test, pgp_check_desc(vec->key, len,
							     desc), 0);
		refused += ret != 0;
	}
	/* The last packet ends at the full length, which is not a prefix. */
	KUNIT_EXPECT_EQ(test, refused, vec->key_len - full->nr_packets + 1);
}

/*
 * More signatures than the description keeps: the first PGP_MAX_SIGS are
 * kept, the rest only checked. A fuzzed key found an out-of-bounds
 * write here, which the sandbox contained; this runs the parser in the
 * sandbox too.
 */
static void pgp_test_many_sigs(struct kunit *test)
{
	const struct pgp_test_vector *vec = pgp_test_find(test, "rsa2048");
	const u32 copies = PGP_MAX_SIGS + 8;
	struct pgp_key_desc *desc;
	u32 head, sig_start, sig_len, i;
	u8 *blob;

	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	KUNIT_ASSERT_EQ(test, pgp_parse_key(vec->key, vec->key_len, desc, 0),
			0);
	KUNIT_ASSERT_EQ(test, desc->packets[2].tag, PGP_TAG_SIGNATURE);
	/* The key and user ID packets, then the self-signature, many times. */
	sig_start = desc->packets[2].header;
	sig_len = desc->packets[2].body.offset + desc->packets[2].body.len -
		  sig_start;
	head = sig_start;
	blob = kunit_kmalloc(test, head + copies * sig_len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blob);
	memcpy(blob, vec->key, head);
	for (i = 0; i < copies; i++)
		memcpy(blob + head + i * sig_len, vec->key + sig_start, sig_len);

	KUNIT_EXPECT_EQ(test, pgp_test_parse_in_sbm(blob, head + copies * sig_len,
						    desc, 0), 0);
	KUNIT_EXPECT_EQ(test, desc->nr_packets, 2 + copies);
	KUNIT_EXPECT_EQ(test, desc->nr_sigs, PGP_MAX_SIGS);
	KUNIT_EXPECT_EQ(test, pgp_check_desc(blob, head + copies * sig_len,
					     desc), 0);
}

/*
 * Each injected fault stops the sandbox, which reports it, and the
 * caller's description stays as it was.
 */
static void pgp_test_fault_contained(struct kunit *test)
{
	const struct pgp_test_vector *vec = pgp_test_find(test, "rsa2048");
	static const int faults[] = {
		PGP_FAULT_OOB_WRITE, PGP_FAULT_WILD_POINTER
	};
	struct pgp_key_desc *desc;
	size_t i;

	if (!IS_ENABLED(CONFIG_PGP_KEY_PARSER_FAULT_INJECTION))
		kunit_skip(test, "needs CONFIG_PGP_KEY_PARSER_FAULT_INJECTION");
	if (!STRONG)
		kunit_skip(test, "needs strong isolation");
	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	for (i = 0; i < ARRAY_SIZE(faults); i++) {
		memset(desc, 0xa5, sizeof(*desc));
		KUNIT_EXPECT_EQ(test, pgp_test_parse_in_sbm(vec->key,
							    vec->key_len, desc,
							    faults[i]),
				-EFAULT);
		KUNIT_EXPECT_EQ(test, desc->nr_packets, 0xa5a5a5a5);
	}
}

static struct kunit_case pgp_key_parser_input_cases[] = {
	KUNIT_CASE(pgp_test_truncated),
	KUNIT_CASE(pgp_test_many_sigs),
	KUNIT_CASE(pgp_test_fault_contained),
	{}
};

static struct kunit_suite pgp_key_parser_input_suite = {
	.name = "pgp_key_parser_input",
	.test_cases = pgp_key_parser_input_cases,
};

/**
 * struct pgp_forgery - a lie a hostile parser could tell
 * @name:   what it is
 * @vector: the test vector whose true description it starts from
 * @forge:  changes that description
 */
struct pgp_forgery {
	const char *name;
	const char *vector;
	void (*forge)(struct pgp_key_desc *desc);
};

static u32 pgp_test_find_tag(const struct pgp_key_desc *desc, u32 tag)
{
	u32 i;

	for (i = 0; i < desc->nr_packets; i++)
		if (desc->packets[i].tag == tag)
			return i;
	return 0;
}

/* The RSA modulus taken from the user ID: another key, same fingerprint. */
static void forge_n_in_user_id(struct pgp_key_desc *desc)
{
	u32 uid = pgp_test_find_tag(desc, PGP_TAG_USER_ID);

	desc->mpi[0].offset = desc->packets[uid].body.offset;
	desc->mpi[0].len = desc->packets[uid].body.len;
}

static void forge_n_shorter(struct pgp_key_desc *desc)
{
	desc->mpi[0].offset++;
	desc->mpi[0].len--;
}

static void forge_e_longer(struct pgp_key_desc *desc)
{
	desc->mpi[1].len++;
}

static void forge_version(struct pgp_key_desc *desc)
{
	desc->version = desc->version == 6 ? 4 : 6;
}

static void forge_created(struct pgp_key_desc *desc)
{
	desc->created++;
}

static void forge_algo(struct pgp_key_desc *desc)
{
	desc->algo = desc->algo == PGP_ALGO_ECDSA ? PGP_ALGO_RSA :
		     PGP_ALGO_ECDSA;
}

static void forge_material(struct pgp_key_desc *desc)
{
	desc->material.offset += 2;
	desc->material.len -= 2;
}

static void forge_curve(struct pgp_key_desc *desc)
{
	desc->curve = PGP_CURVE_P384;
}

static void forge_curve_out_of_range(struct pgp_key_desc *desc)
{
	desc->curve = 1000;
}

static void forge_point_second_mpi(struct pgp_key_desc *desc)
{
	desc->mpi[1] = desc->mpi[0];
}

static void forge_header_shifted(struct pgp_key_desc *desc)
{
	desc->packets[1].header++;
}

static void forge_body_past_end(struct pgp_key_desc *desc)
{
	desc->packets[desc->nr_packets - 1].body.len += 1000;
}

static void forge_body_wraps(struct pgp_key_desc *desc)
{
	desc->packets[1].body.len = U32_MAX - 2;
}

static void forge_tag(struct pgp_key_desc *desc)
{
	u32 sig = pgp_test_find_tag(desc, PGP_TAG_SIGNATURE);

	desc->packets[sig].tag = PGP_TAG_USER_ID;
	desc->nr_user_ids++;
}

static void forge_packet_dropped(struct pgp_key_desc *desc)
{
	desc->nr_packets--;
}

static void forge_no_packets(struct pgp_key_desc *desc)
{
	desc->nr_packets = 0;
}

static void forge_too_many_packets(struct pgp_key_desc *desc)
{
	desc->nr_packets = PGP_MAX_PACKETS + 1;
}

static void forge_user_id_count(struct pgp_key_desc *desc)
{
	desc->nr_user_ids++;
}

static void forge_subkey_count(struct pgp_key_desc *desc)
{
	desc->nr_subkeys += 5;
}

static void forge_sig_packet(struct pgp_key_desc *desc)
{
	desc->sigs[0].packet = desc->nr_packets;
}

static void forge_sig_target(struct pgp_key_desc *desc)
{
	desc->sigs[0].user_id = desc->sigs[0].packet;
}

static void forge_sig_count(struct pgp_key_desc *desc)
{
	desc->nr_sigs = PGP_MAX_SIGS + 1;
}

static void forge_issuer_fpr_len(struct pgp_key_desc *desc)
{
	desc->sigs[0].issuer_fpr_len = 7;
}

static const struct pgp_forgery pgp_forgeries[] = {
	{ "n_in_user_id", "rsa2048", forge_n_in_user_id },
	{ "n_shorter", "rsa2048", forge_n_shorter },
	{ "e_longer", "rsa2048", forge_e_longer },
	{ "version", "rsa2048", forge_version },
	{ "created", "rsa2048", forge_created },
	{ "algo_rsa", "rsa2048", forge_algo },
	{ "algo_ecdsa", "nistp256", forge_algo },
	{ "material", "rsa2048", forge_material },
	{ "curve", "nistp256", forge_curve },
	{ "curve_out_of_range", "nistp256", forge_curve_out_of_range },
	{ "point_second_mpi", "nistp256", forge_point_second_mpi },
	{ "header_shifted", "rsa2048", forge_header_shifted },
	{ "body_past_end", "rsa2048", forge_body_past_end },
	{ "body_wraps", "rsa2048", forge_body_wraps },
	{ "tag", "rsa2048", forge_tag },
	{ "packet_dropped", "rsa2048", forge_packet_dropped },
	{ "no_packets", "rsa2048", forge_no_packets },
	{ "too_many_packets", "rsa2048", forge_too_many_packets },
	{ "user_id_count", "rsa2048", forge_user_id_count },
	{ "subkey_count", "nistp256", forge_subkey_count },
	{ "sig_packet", "rsa2048", forge_sig_packet },
	{ "sig_target", "rsa2048", forge_sig_target },
	{ "sig_count", "rsa2048", forge_sig_count },
	{ "issuer_fpr_len", "rsa2048", forge_issuer_fpr_len },
	{ "v6_version", "v6-rsa2048", forge_version },
	{ "v6_material", "v6-rsa2048", forge_material },
};

static void pgp_forgery_desc(const struct pgp_forgery *forgery, char *desc)
{
	strscpy(desc, forgery->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pgp_forgery, pgp_forgeries, pgp_forgery_desc);

/*
 * The true description passes the check; with one lie in it, the check
 * refuses it.
 */
static void pgp_test_forged(struct kunit *test)
{
	const struct pgp_forgery *forgery = test->param_value;
	const struct pgp_test_vector *vec = pgp_test_find(test,
							   forgery->vector);
	struct pgp_key_desc *desc;

	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	KUNIT_ASSERT_EQ(test, pgp_test_parse_in_sbm(vec->key, vec->key_len,
						    desc, 0), 0);
	KUNIT_ASSERT_EQ(test, pgp_check_desc(vec->key, vec->key_len, desc), 0);
	forgery->forge(desc);
	KUNIT_EXPECT_EQ(test, pgp_check_desc(vec->key, vec->key_len, desc),
			-EPROTO);
}

/*
 * A blob that is only an ECDSA key packet with no key material, at the
 * very end of a vmalloc() area, and a description that calls it a P-256
 * key: the check must refuse it without reading past the blob (the guard
 * page after the area would fault).
 */
static void pgp_test_forged_at_end(struct kunit *test)
{
	static const u8 key[] = { 0xc6, 0x06, 0x04, 0, 0, 0, 1, 0x13 };
	struct pgp_key_desc *desc;
	u8 *area, *blob;

	desc = kunit_kzalloc(test, sizeof(*desc), GFP_KERNEL);
	area = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, desc);
	KUNIT_ASSERT_NOT_NULL(test, area);
	blob = area + PAGE_SIZE - sizeof(key);
	memcpy(blob, key, sizeof(key));
	KUNIT_EXPECT_EQ(test, pgp_parse_key(blob, sizeof(key), desc, 0),
			-EBADMSG);

	memset(desc, 0, sizeof(*desc));
	desc->version = 4;
	desc->created = 1;
	desc->algo = PGP_ALGO_ECDSA;
	desc->curve = PGP_CURVE_P256;
	desc->material.offset = sizeof(key);
	desc->nr_packets = 1;
	desc->packets[0].tag = PGP_TAG_PUBLIC_KEY;
	desc->packets[0].body.offset = 2;
	desc->packets[0].body.len = 6;
	desc->mpi[0].offset = sizeof(key);
	KUNIT_EXPECT_EQ(test, pgp_check_desc(blob, sizeof(key), desc), -EPROTO);
	vfree(area);
}

static struct kunit_case pgp_key_parser_forged_cases[] = {
	KUNIT_CASE_PARAM(pgp_test_forged, pgp_forgery_gen_params),
	KUNIT_CASE(pgp_test_forged_at_end),
	{}
};

static struct kunit_suite pgp_key_parser_forged_suite = {
	.name = "pgp_key_parser_forged",
	.test_cases = pgp_key_parser_forged_cases,
};

kunit_test_suites(&pgp_key_parser_vector_suite, &pgp_key_parser_input_suite,
		  &pgp_key_parser_forged_suite);
