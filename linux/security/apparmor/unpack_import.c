// SPDX-License-Identifier: GPL-2.0-only
/*
 * AppArmor security module
 *
 * Running the policy unpacker, in SandBox Mode when it is on, and turning
 * the unpacked image it returns into profiles.
 *
 * A sandboxed unpacker may have been taken over by the blob it parsed, so
 * the image is checked as hostile input before the kernel relies on it:
 *
 * - every pointer into the blob lies in it, and a string there ends in it;
 * - every other pointer is the start of an object that this sandbox
 *   allocated, large enough for what the image says it holds, and a string
 *   there ends in its object;
 * - every dfa has the tables matching needs, of the right types and sizes,
 *   and every default, next and check entry, start state and base index
 *   stays in its table; chains of diff-encoded states end; every accept
 *   index stays in the permission table;
 * - flags, modes, versions and counts take only values the unpacker can
 *   produce.
 *
 * The kernel copies what it keeps into memory of its own; the objects of
 * the sandbox go away with it. verify_profile() then checks the profile as
 * it always did.
 */

#define pr_fmt(fmt) "AppArmor: " fmt

#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/rhashtable.h>
#include <linux/sbm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "include/apparmor.h"
#include "include/lib.h"
#include "include/match.h"
#include "include/policy.h"
#include "include/policy_compat.h"
#include "include/policy_unpack.h"
#include "include/unpack_image.h"

static bool aa_g_unpack_sbm = IS_ENABLED(CONFIG_SECURITY_APPARMOR_SBM);
#ifdef CONFIG_SECURITY_APPARMOR_SBM
module_param_named(sbm, aa_g_unpack_sbm, bool, 0600);
MODULE_PARM_DESC(sbm, "Unpack policy in SandBox Mode");
#endif

/* Flags and modes that aa_unpack_image() produces. */
#define AA_UNPACKED_LABEL_FLAGS	(FLAG_HAT | FLAG_UNCONFINED | FLAG_DEBUG1 | \
				 FLAG_DEBUG2)
#define AA_BASE_FLAGS_KEPT	(MATCH_FLAGS_VALID | MARK_DIFF_ENCODE_VERIFIED)

static bool aa_version_ok(u32 version)
{
	return !VERSION_LT(version, v5) && !VERSION_GT(version, v9);
}

/* Where the transitions of a state start in the next and check tables. */
static u32 aa_base_index(u32 base)
{
	return base & ~MATCH_FLAGS_MASK;
}

/* What the sandbox may allocate per byte of blob, beyond its default. */
#define AA_UNPACK_ALLOC_FACTOR	32

/* Is [@ptr, @ptr + @len) inside the blob as the unpacker saw it? */
static bool aa_in_view(const struct aa_unpack_ctx *ctx, const void *ptr,
		       size_t len)
{
	unsigned long p = (unsigned long)ptr, v = (unsigned long)ctx->view;

	return p >= v && p - v <= ctx->size && len <= ctx->size - (p - v);
}

/* The same bytes in the kernel's blob. */
static char *aa_from_view(const struct aa_unpack_ctx *ctx, const void *ptr)
{
	return ctx->data + ((const char *)ptr - ctx->view);
}

/* A string in the blob, in the kernel's blob; NULL if it is not one. */
static const char *aa_blob_str(const struct aa_unpack_ctx *ctx,
			       const char *str)
{
	const char *s;

	if (!aa_in_view(ctx, str, 1))
		return NULL;
	s = aa_from_view(ctx, str);
	if (!memchr(s, '\0', ctx->data + ctx->size - s))
		return NULL;
	return s;
}

/* Does @ptr lead to at least @size bytes the unpacker allocated? */
static bool aa_object_holds(struct aa_unpack_ctx *ctx, const void *ptr,
			    size_t size)
{
	if (!ptr || ZERO_OR_NULL_PTR(ptr))
		return false;
	return !ctx->sandboxed || sbm_object_size(&ctx->sbm, ptr) >= size;
}

/* A copy of a string the unpacker allocated, or an ERR_PTR. */
static char *aa_object_strdup(struct aa_unpack_ctx *ctx, const char *str)
{
	size_t max = SIZE_MAX;
	char *copy;

	if (!aa_object_holds(ctx, str, 1))
		return ERR_PTR(-EPROTO);
	if (ctx->sandboxed)
		max = sbm_object_size(&ctx->sbm, str);
	if (!memchr(str, '\0', max))
		return ERR_PTR(-EPROTO);
	copy = kstrdup(str, GFP_KERNEL);
	return copy ?: ERR_PTR(-ENOMEM);
}

static bool aa_table_type_ok(int id, u16 td_flags, bool packed_perms)
{
	switch (id) {
	case YYTD_ID_ACCEPT:
		return td_flags == YYTD_DATA32;
	case YYTD_ID_ACCEPT2:
		return packed_perms && td_flags == YYTD_DATA32;
	case YYTD_ID_BASE:
		return td_flags == YYTD_DATA32;
	case YYTD_ID_DEF:
	case YYTD_ID_NXT:
	case YYTD_ID_CHK:
		return td_flags == YYTD_DATA16;
	case YYTD_ID_EC:
		return td_flags == YYTD_DATA8;
	}
	return false;
}

static struct table_header *aa_import_table(struct aa_unpack_ctx *ctx,
					    int id,
					    const struct table_header *src,
					    bool packed_perms)
{
	struct table_header th;
	size_t tsize;

	if (!aa_object_holds(ctx, src, sizeof(th)))
		return ERR_PTR(-EPROTO);
	th = *src;
	if (th.td_id != id || !th.td_lolen ||
	    !aa_table_type_ok(id, th.td_flags, packed_perms))
		return ERR_PTR(-EPROTO);
	tsize = table_size(th.td_lolen, th.td_flags);
	if (!aa_object_holds(ctx, src, tsize))
		return ERR_PTR(-EPROTO);
	return kvmemdup(src, tsize, GFP_KERNEL) ?: ERR_PTR(-ENOMEM);
}

/* Do the chains of diff-encoded states through their defaults all end? */
static int aa_check_diff_chains(struct aa_dfa *dfa, size_t state_count)
{
	enum { UNSEEN, ON_PATH, ENDS };
	size_t i, j;
	u8 *seen;
	int error = 0;

	seen = kvzalloc(state_count, GFP_KERNEL);
	if (!seen)
		return -ENOMEM;
	for (i = 0; i < state_count && !error; i++) {
		for (j = i; (BASE_TABLE(dfa)[j] & MATCH_FLAG_DIFF_ENCODE) &&
		     seen[j] == UNSEEN; j = DEFAULT_TABLE(dfa)[j])
			seen[j] = ON_PATH;
		if ((BASE_TABLE(dfa)[j] & MATCH_FLAG_DIFF_ENCODE) &&
		    seen[j] == ON_PATH)
			error = -EPROTO;
		for (j = i; seen[j] == ON_PATH; j = DEFAULT_TABLE(dfa)[j])
			seen[j] = ENDS;
	}
	kvfree(seen);
	return error;
}

/*
 * Bounds of every table entry that matching follows, checked here rather
 * than by verify_dfa(), whose checks ran in the sandbox and may have been
 * what the blob attacked.
 */
static int aa_check_dfa(struct aa_dfa *dfa, size_t perms_size)
{
	struct table_header **t = dfa->tables;
	size_t i, state_count, trans_count;
	u32 base;

	if (!t[YYTD_ID_BASE] || !t[YYTD_ID_DEF] || !t[YYTD_ID_NXT] ||
	    !t[YYTD_ID_CHK] || !t[YYTD_ID_ACCEPT])
		return -EPROTO;
	state_count = t[YYTD_ID_BASE]->td_lolen;
	trans_count = t[YYTD_ID_NXT]->td_lolen;
	if (t[YYTD_ID_DEF]->td_lolen != state_count ||
	    t[YYTD_ID_ACCEPT]->td_lolen != state_count ||
	    (t[YYTD_ID_ACCEPT2] &&
	     t[YYTD_ID_ACCEPT2]->td_lolen != state_count) ||
	    t[YYTD_ID_CHK]->td_lolen != trans_count ||
	    (t[YYTD_ID_EC] && t[YYTD_ID_EC]->td_lolen != 256))
		return -EPROTO;

	for (i = 0; i < state_count; i++) {
		base = BASE_TABLE(dfa)[i];
		if (DEFAULT_TABLE(dfa)[i] >= state_count ||
		    (base & MATCH_FLAGS_MASK & ~AA_BASE_FLAGS_KEPT) ||
		    ((base & MATCH_FLAG_DIFF_ENCODE) &&
		     !(dfa->flags & YYTH_FLAG_DIFF_ENCODE)) ||
		    ((base & MATCH_FLAG_OOB_TRANSITION) &&
		     (!(dfa->flags & YYTH_FLAG_OOB_TRANS) ||
		      aa_base_index(base) < dfa->max_oob)) ||
		    (size_t)aa_base_index(base) + 255 >= trans_count)
			return -EPROTO;
		if (perms_size && ACCEPT_TABLE(dfa)[i] >= perms_size)
			return -EPROTO;
	}
	for (i = 0; i < trans_count; i++)
		if (NEXT_TABLE(dfa)[i] >= state_count ||
		    CHECK_TABLE(dfa)[i] >= state_count)
			return -EPROTO;
	return aa_check_diff_chains(dfa, state_count);
}

static struct aa_dfa *aa_import_dfa(struct aa_unpack_ctx *ctx,
				    const struct aa_dfa *src,
				    size_t perms_size, bool packed_perms)
{
	struct table_header *table;
	struct aa_dfa *dfa;
	int error = -EPROTO;
	int i;

	if (!aa_object_holds(ctx, src, sizeof(*src)))
		return ERR_PTR(-EPROTO);
	dfa = kzalloc(sizeof(*dfa), GFP_KERNEL);
	if (!dfa)
		return ERR_PTR(-ENOMEM);
	kref_init(&dfa->count);
	dfa->flags = src->flags;
	dfa->max_oob = src->max_oob;
	if ((dfa->flags & ~YYTH_FLAGS) || dfa->max_oob != 1)
		goto fail;
	for (i = 0; i < YYTD_ID_TSIZE; i++) {
		if (!src->tables[i])
			continue;
		table = aa_import_table(ctx, i, src->tables[i], packed_perms);
		if (IS_ERR(table)) {
			error = PTR_ERR(table);
			goto fail;
		}
		dfa->tables[i] = table;
		if (is_vmalloc_addr(table))
			vm_unmap_aliases();
	}
	error = aa_check_dfa(dfa, perms_size);
	if (error)
		goto fail;
	return dfa;

fail:
	aa_put_dfa(dfa);
	return ERR_PTR(error);
}

static int aa_import_trans(struct aa_unpack_ctx *ctx,
			   struct aa_str_table *dst,
			   const struct aa_str_table *src)
{
	char *str;
	int i;

	if (!src->size)
		return 0;
	if (src->size < 0 ||
	    !aa_object_holds(ctx, src->table,
			     array_size(src->size, sizeof(*src->table))))
		return -EPROTO;
	dst->table = kcalloc(src->size, sizeof(*dst->table), GFP_KERNEL);
	if (!dst->table)
		return -ENOMEM;
	dst->size = src->size;
	for (i = 0; i < src->size; i++) {
		str = aa_object_strdup(ctx, src->table[i]);
		if (IS_ERR(str))
			return PTR_ERR(str);
		dst->table[i] = str;
	}
	return 0;
}

static struct aa_policydb *aa_import_pdb(struct aa_unpack_ctx *ctx,
					 const struct aa_policydb *src)
{
	struct aa_policydb *pdb;
	size_t state_count;
	int error = -EPROTO;
	int i;

	if (!aa_object_holds(ctx, src, sizeof(*src)))
		return ERR_PTR(-EPROTO);
	pdb = aa_alloc_pdb(GFP_KERNEL);
	if (!pdb)
		return ERR_PTR(-ENOMEM);
	if (src->perms) {
		error = -EPROTO;
		if (!src->size ||
		    !aa_object_holds(ctx, src->perms,
				     array_size(src->size,
						sizeof(*src->perms))))
			goto fail;
		error = -ENOMEM;
		pdb->perms = kvmemdup(src->perms,
				      array_size(src->size,
						 sizeof(*src->perms)),
				      GFP_KERNEL);
		if (!pdb->perms)
			goto fail;
		pdb->size = src->size;
	}
	error = aa_import_trans(ctx, &pdb->trans, &src->trans);
	if (error)
		goto fail;
	memcpy(pdb->start, src->start, sizeof(pdb->start));
	if (src->dfa) {
		pdb->dfa = aa_import_dfa(ctx, src->dfa, pdb->size, !pdb->perms);
		if (IS_ERR(pdb->dfa)) {
			error = PTR_ERR(pdb->dfa);
			pdb->dfa = NULL;
			goto fail;
		}
		state_count = pdb->dfa->tables[YYTD_ID_BASE]->td_lolen;
		error = -EPROTO;
		for (i = 0; i <= AA_CLASS_LAST; i++)
			if (pdb->start[i] >= state_count)
				goto fail;
	}
	return pdb;

fail:
	aa_put_pdb(pdb);
	return ERR_PTR(error);
}

static int aa_import_xattrs(struct aa_unpack_ctx *ctx,
			    struct aa_attachment *attach,
			    const struct aa_unpacked_profile *up)
{
	char *str;
	u32 i;

	if (!up->xattr_count)
		return 0;
	if (up->xattr_count > U16_MAX ||
	    !aa_object_holds(ctx, up->xattrs,
			     array_size(up->xattr_count, sizeof(*up->xattrs))))
		return -EPROTO;
	attach->xattrs = kcalloc(up->xattr_count, sizeof(char *), GFP_KERNEL);
	if (!attach->xattrs)
		return -ENOMEM;
	attach->xattr_count = up->xattr_count;
	for (i = 0; i < up->xattr_count; i++) {
		str = aa_object_strdup(ctx, up->xattrs[i]);
		if (IS_ERR(str))
			return PTR_ERR(str);
		attach->xattrs[i] = str;
	}
	return 0;
}

static int aa_import_secmark(struct aa_unpack_ctx *ctx,
			     struct aa_ruleset *rules,
			     const struct aa_unpacked_profile *up)
{
	const struct aa_secmark *src;
	char *label;
	u32 i;

	if (!up->secmark_count)
		return 0;
	if (up->secmark_count > U16_MAX ||
	    !aa_object_holds(ctx, up->secmark,
			     array_size(up->secmark_count,
					sizeof(*up->secmark))))
		return -EPROTO;
	rules->secmark = kcalloc(up->secmark_count, sizeof(*rules->secmark),
				 GFP_KERNEL);
	if (!rules->secmark)
		return -ENOMEM;
	rules->secmark_count = up->secmark_count;
	for (i = 0; i < up->secmark_count; i++) {
		src = &up->secmark[i];
		label = aa_object_strdup(ctx, src->label);
		if (IS_ERR(label))
			return PTR_ERR(label);
		rules->secmark[i].label = label;
		rules->secmark[i].audit = src->audit;
		rules->secmark[i].deny = src->deny;
	}
	return 0;
}

static u32 aa_data_hash(const void *data, u32 len, u32 seed)
{
	const char * const *key = data;

	return jhash(*key, strlen(*key), seed);
}

static int aa_data_cmp(struct rhashtable_compare_arg *arg, const void *obj)
{
	const struct aa_data *data = obj;
	const char * const *key = arg->key;

	return strcmp(data->key, *key);
}

static const struct rhashtable_params aa_data_params = {
	.nelem_hint = 3,
	.key_len = sizeof(void *),
	.key_offset = offsetof(struct aa_data, key),
	.head_offset = offsetof(struct aa_data, head),
	.hashfn = aa_data_hash,
	.obj_cmpfn = aa_data_cmp,
};

static int aa_import_data(struct aa_unpack_ctx *ctx,
			  struct aa_profile *profile,
			  const struct aa_unpacked_profile *up,
			  const char **info)
{
	const struct aa_unpacked_data *src;
	struct aa_data *data;
	u32 i;

	if (!up->has_data)
		return 0;
	if (up->data_count &&
	    !aa_object_holds(ctx, up->data,
			     array_size(up->data_count, sizeof(*up->data))))
		return -EPROTO;
	profile->data = kzalloc(sizeof(*profile->data), GFP_KERNEL);
	if (!profile->data)
		return -ENOMEM;
	if (rhashtable_init(profile->data, &aa_data_params)) {
		kfree(profile->data);
		profile->data = NULL;
		*info = "failed to init key, value hash table";
		return -EPROTO;
	}
	for (i = 0; i < up->data_count; i++) {
		src = &up->data[i];
		data = kzalloc(sizeof(*data), GFP_KERNEL);
		if (!data)
			return -ENOMEM;
		data->key = aa_object_strdup(ctx, src->key);
		if (IS_ERR(data->key)) {
			int error = PTR_ERR(data->key);

			kfree(data);
			return error;
		}
		data->size = src->size;
		if (data->size &&
		    !aa_object_holds(ctx, src->value, data->size)) {
			kfree_sensitive(data->key);
			kfree(data);
			return -EPROTO;
		}
		data->data = kvmemdup(src->value, data->size, GFP_KERNEL);
		if (data->size && !data->data) {
			kfree_sensitive(data->key);
			kfree(data);
			return -ENOMEM;
		}
		if (rhashtable_insert_fast(profile->data, &data->head,
					   profile->data->p)) {
			kvfree_sensitive(data->data, data->size);
			kfree_sensitive(data->key);
			kfree_sensitive(data);
			*info = "failed to insert data to table";
			return -EPROTO;
		}
	}
	return 0;
}

static int aa_import_rules(struct aa_unpack_ctx *ctx,
			   struct aa_ruleset *rules,
			   const struct aa_unpacked_profile *up)
{
	int error;

	rules->caps.allow = up->caps.allow;
	rules->caps.audit = up->caps.audit;
	rules->caps.quiet = up->caps.quiet;
	rules->caps.extended = up->caps.extended;
	rules->rlimits = up->rlimits;

	error = aa_import_secmark(ctx, rules, up);
	if (error)
		return error;

	if (up->policy) {
		rules->policy = aa_import_pdb(ctx, up->policy);
		if (IS_ERR(rules->policy)) {
			error = PTR_ERR(rules->policy);
			rules->policy = NULL;
			return error;
		}
	} else {
		rules->policy = aa_get_pdb(nullpdb);
	}

	if (up->file && up->file == up->policy) {
		rules->file = aa_get_pdb(rules->policy);
	} else if (up->file) {
		rules->file = aa_import_pdb(ctx, up->file);
		if (IS_ERR(rules->file)) {
			error = PTR_ERR(rules->file);
			rules->file = NULL;
			return error;
		}
	} else {
		rules->file = aa_get_pdb(nullpdb);
	}
	return 0;
}

/* Copy what the image says of a profile, checking it on the way. */
static int aa_import_fields(struct aa_unpack_ctx *ctx,
			    struct aa_profile *profile,
			    const struct aa_unpacked_profile *up,
			    const char **info)
{
	struct aa_ruleset *rules;
	const char *str;
	int error;
	bool unconfined = up->mode == APPARMOR_UNCONFINED;

	if ((up->label_flags & ~AA_UNPACKED_LABEL_FLAGS) ||
	    up->mode > APPARMOR_USER ||
	    !(up->label_flags & FLAG_UNCONFINED) == unconfined ||
	    (up->audit != AUDIT_NORMAL && up->audit != AUDIT_ALL))
		return -EPROTO;
	profile->label.flags |= up->label_flags;
	profile->mode = up->mode;
	profile->audit = up->audit;
	profile->path_flags = up->path_flags;

	if (up->rename) {
		str = aa_blob_str(ctx, up->rename);
		if (!str)
			return -EPROTO;
		profile->rename = kstrdup(str, GFP_KERNEL);
		if (!profile->rename)
			return -ENOMEM;
	}
	if (up->attach) {
		/* like the name, it stays in the blob that the profile keeps */
		profile->attach.xmatch_str = aa_blob_str(ctx, up->attach);
		if (!profile->attach.xmatch_str)
			return -EPROTO;
	}
	if (up->disconnected) {
		profile->disconnected = aa_object_strdup(ctx, up->disconnected);
		if (IS_ERR(profile->disconnected)) {
			error = PTR_ERR(profile->disconnected);
			profile->disconnected = NULL;
			return error;
		}
	}

	if (!up->xmatch)
		return -EPROTO;
	profile->attach.xmatch = aa_import_pdb(ctx, up->xmatch);
	if (IS_ERR(profile->attach.xmatch)) {
		error = PTR_ERR(profile->attach.xmatch);
		profile->attach.xmatch = NULL;
		return error;
	}
	profile->attach.xmatch_len = up->xmatch_len;
	error = aa_import_xattrs(ctx, &profile->attach, up);
	if (error)
		return error;

	rules = list_first_entry(&profile->rules, typeof(*rules), list);
	error = aa_import_rules(ctx, rules, up);
	if (error)
		return error;
	return aa_import_data(ctx, profile, up, info);
}

/**
 * aa_unpack_import - build a profile from its unpacked image, checking it
 * @ctx: the blob and the unpacker that read it (NOT NULL)
 * @src: the image of the profile, which aa_unpack_run() located
 * @ns_name: Returns - the profile's namespace, or NULL (NOT NULL)
 * @info: Returns - why it failed (NOT NULL)
 *
 * Also records in @ctx where the profile lies in the blob.
 *
 * Returns: the profile, or an ERR_PTR: -EPROTO for an image that breaks
 * the rules this file begins with
 */
struct aa_profile *aa_unpack_import(struct aa_unpack_ctx *ctx,
				    const struct aa_unpacked_profile *src,
				    char **ns_name, const char **info)
{
	struct aa_unpacked_profile up = *src;
	struct aa_profile *profile;
	const char *name;
	int error;

	*ns_name = NULL;
	*info = "unpacked profile refused";
	name = aa_blob_str(ctx, up.name);
	if (!name || !*name || !aa_in_view(ctx, up.start, 0) ||
	    !aa_in_view(ctx, up.end, 0) || up.end <= up.start ||
	    !aa_version_ok(up.version))
		return ERR_PTR(-EPROTO);
	ctx->start = aa_from_view(ctx, up.start);
	ctx->len = (const char *)up.end - (const char *)up.start;
	ctx->version = up.version;

	if (up.ns_name) {
		if (!up.ns_len || !aa_in_view(ctx, up.ns_name, up.ns_len))
			return ERR_PTR(-EPROTO);
		*ns_name = kstrndup(aa_from_view(ctx, up.ns_name), up.ns_len,
				    GFP_KERNEL);
		if (!*ns_name)
			return ERR_PTR(-ENOMEM);
	}

	profile = aa_alloc_profile(name, NULL, GFP_KERNEL);
	if (!profile) {
		error = -ENOMEM;
		goto fail;
	}
	error = aa_import_fields(ctx, profile, &up, info);
	if (error)
		goto fail;
	return profile;

fail:
	if (error == -ENOMEM)
		*info = "out of memory";
	aa_free_profile(profile);
	kfree(*ns_name);
	*ns_name = NULL;
	return ERR_PTR(error);
}

/* Locate the top of an image from the sandbox, or refuse it. */
static int aa_unpack_check_image(struct aa_unpack_ctx *ctx,
				 struct aa_unpacked *image)
{
	image->info[AA_UNPACK_INFO_LEN - 1] = '\0';
	if (image->error > 0 || image->error < -MAX_ERRNO ||
	    image->parsed > image->count ||
	    (!image->error && image->parsed && !aa_version_ok(image->version)) ||
	    (image->pos && !aa_in_view(ctx, image->pos, 0)))
		return -EPROTO;
	if (image->parsed &&
	    !aa_object_holds(ctx, image->profiles,
			     array_size(image->parsed,
					sizeof(*image->profiles))))
		return -EPROTO;
	if (image->pos)
		image->pos = aa_from_view(ctx, image->pos);
	if (image->ns) {
		image->ns = aa_blob_str(ctx, image->ns);
		if (!image->ns)
			return -EPROTO;
	}
	if (image->name) {
		image->name = aa_blob_str(ctx, image->name);
		if (!image->name)
			return -EPROTO;
	}
	return 0;
}

static int aa_unpack_in_sbm(struct aa_unpack_ctx *ctx,
			    struct aa_unpacked *image, bool paranoid)
{
	struct aa_unpacked *out;
	const void *blob;
	int error;

	ctx->sandboxed = true;
	error = sbm_init(&ctx->sbm);
	if (error)
		return error;
	/* room for the dfas and the permission tables computed from them */
	sbm_set_alloc_limit(&ctx->sbm, SBM_DEFAULT_ALLOC_LIMIT +
			    array_size(ctx->size, AA_UNPACK_ALLOC_FACTOR));
	blob = SBM_COPY_IN(&ctx->sbm, ctx->data, ctx->size);
	out = SBM_COPY_OUT(&ctx->sbm, image, sizeof(*image));
	sbm_call(&ctx->sbm, aa_unpack_image, blob, ctx->size, paranoid, out);
	error = sbm_error(&ctx->sbm);
	if (error) {
		memset(image, 0, sizeof(*image));
		return error;
	}
	ctx->view = blob;
	return aa_unpack_check_image(ctx, image);
}

/**
 * aa_unpack_run - unpack a blob into its image
 * @ctx: the blob, set up by the caller (NOT NULL)
 * @image: the zeroed image to fill in (NOT NULL)
 *
 * With CONFIG_SECURITY_APPARMOR_SBM and apparmor.sbm on, the unpacker runs
 * in SandBox Mode and @image only locates what it returned: the profiles
 * are checked as aa_unpack_import() builds them. Release @image with
 * aa_unpack_done() whatever this returns.
 *
 * Returns: 0, with the unpacker's own verdict in @image; the error of an
 * unpacker that was stopped (a fault, a forbidden call, a time limit);
 * -EPROTO for an image that does not hold together
 */
int aa_unpack_run(struct aa_unpack_ctx *ctx, struct aa_unpacked *image)
{
	bool paranoid = aa_g_paranoid_load;

	if (IS_ENABLED(CONFIG_SECURITY_APPARMOR_SBM) && aa_g_unpack_sbm)
		return aa_unpack_in_sbm(ctx, image, paranoid);

	ctx->view = ctx->data;
	aa_unpack_image(ctx->data, ctx->size, paranoid, image);
	return 0;
}

/**
 * aa_unpack_done - release an image and what the unpacker allocated
 * @ctx: as given to aa_unpack_run() (NOT NULL)
 * @image: the image it filled in (NOT NULL)
 */
void aa_unpack_done(struct aa_unpack_ctx *ctx, struct aa_unpacked *image)
{
	if (ctx->sandboxed)
		sbm_destroy(&ctx->sbm);
	else
		aa_unpacked_free(image);
	memset(image, 0, sizeof(*image));
}

#ifdef CONFIG_SECURITY_APPARMOR_SBM_KUNIT_TEST
#include "unpack_import_test.c"
#endif
