// SPDX-License-Identifier: GPL-2.0
/*
 * OpenPGP public key parser: the asymmetric key parser.
 *
 * add_key("asymmetric", ...) hands it a binary transferable public key.
 * The packet parser (pgp_packet.c) reads the blob in SandBox Mode and
 * returns a flat description; this file treats that description as
 * hostile. It checks each claim against the blob: the packets must tile
 * it and their headers say what the description says, and the key
 * material the kernel uses must be the material of the key packet that
 * the fingerprint hashes. Only then does it compute the fingerprint and
 * build the key, from the blob, never from pointers the parser made.
 */

#define pr_fmt(fmt) "PGP: " fmt

#include <crypto/hash.h>
#include <crypto/public_key.h>
#include <keys/asymmetric-parser.h>
#include <keys/asymmetric-subtype.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/unaligned.h>

#include "pgp_parser.h"

static bool pgp_sbm = true;
module_param_named(sbm, pgp_sbm, bool, 0600);
MODULE_PARM_DESC(sbm, "Parse OpenPGP keys in SandBox Mode (default: on)");

#ifdef CONFIG_PGP_KEY_PARSER_FAULT_INJECTION
static const char * const pgp_fault_names[] = {
	[PGP_FAULT_NONE] = "none",
	[PGP_FAULT_OOB_WRITE] = "oob_write",
	[PGP_FAULT_WILD_POINTER] = "wild_pointer",
};

static int pgp_fault;

static int pgp_fault_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(pgp_fault_names, val);

	if (i < 0)
		return i;
	WRITE_ONCE(pgp_fault, i);
	return 0;
}

static int pgp_fault_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", pgp_fault_names[READ_ONCE(pgp_fault)]);
}

static const struct kernel_param_ops pgp_fault_ops = {
	.set = pgp_fault_set,
	.get = pgp_fault_get,
};
module_param_cb(inject_fault, &pgp_fault_ops, NULL, 0600);
MODULE_PARM_DESC(inject_fault,
		 "Make the parser fault: none, oob_write or wild_pointer");
#define pgp_fault_mode()	READ_ONCE(pgp_fault)
#else
#define pgp_fault_mode()	PGP_FAULT_NONE
#endif

/**
 * struct pgp_kept_sbm - a sandbox kept for successive parses
 * @lock:     held while a parse uses it
 * @size:     the largest blob it parses
 * @sbm:      the instance
 * @ready:    whether @sbm is set up, with @blob, @in and @out
 * @in:       the sandbox's copy of @blob
 * @out:      the sandbox's copy of @desc
 * @blob_len: how much of @blob the last parse filled
 * @blob:     staging buffer of the blob, of @size octets
 * @desc:     staging buffer of the description
 */
struct pgp_kept_sbm {
	struct mutex lock;	/* serialises the parses that use it */
	size_t size;
	struct sbm sbm;
	bool ready;
	const u8 *in;
	struct pgp_key_desc *out;
	size_t blob_len;
	u8 *blob;
	struct pgp_key_desc desc;
};

/*
 * Each call refills the whole input copy, so a small sandbox serves the
 * usual keys (1-4 KiB) and a large one the rest: 64 KiB is as large as
 * blobs get here, as the X.509 parser, tried first, refuses larger ones.
 */
static struct pgp_kept_sbm pgp_kept[] = {
	{ .lock = __MUTEX_INITIALIZER(pgp_kept[0].lock), .size = SZ_8K },
	{ .lock = __MUTEX_INITIALIZER(pgp_kept[1].lock), .size = SZ_64K },
};

/* Longest part of the primary user ID that goes into the description. */
#define PGP_DESC_USER_ID_LEN	64

/**
 * struct pgp_key_info - what the kernel derived from a checked description
 * @fpr:         the fingerprint
 * @fpr_len:     its length: 20 for a v4 key, 32 for v6
 * @key_id:      the key ID, part of @fpr
 * @user_id:     the primary user ID packet, or NULL
 * @self_sig:    the newest self-signature, or NULL
 */
struct pgp_key_info {
	u8 fpr[PGP_V6_FPR_SIZE];
	u32 fpr_len;
	const u8 *key_id;
	const struct pgp_packet_desc *user_id;
	const struct pgp_sig_desc *self_sig;
};

/*
 * Filter what the parser returned: its return value is as hostile as its
 * output, so only the errors it is documented to return pass through.
 */
static int pgp_parser_result(struct sbm *sbm, int ret)
{
	if (sbm_error(sbm))
		return sbm_error(sbm);
	if (ret && ret != -EBADMSG && ret != -EINVAL && ret != -ENOPKG)
		return -EPROTO;
	return ret;
}

/* Parse in a sandbox made for this blob alone. */
static int pgp_run_fresh(const u8 *data, size_t len, struct pgp_key_desc *desc)
{
	struct pgp_key_desc *out;
	const u8 *in;
	struct sbm sbm;
	int ret;

	sbm_init(&sbm);
	sbm_set_alloc_limit(&sbm, 0);
	in = SBM_COPY_IN(&sbm, data, len);
	out = SBM_COPY_OUT(&sbm, desc, sizeof(*desc));
	ret = sbm_call(&sbm, pgp_parse_key, in, len, out, pgp_fault_mode());
	ret = pgp_parser_result(&sbm, ret);
	sbm_destroy(&sbm);
	return ret;
}

/*
 * Parse in a kept sandbox. Between two parses it holds nothing the first
 * could use against the second or learn from it: the stack is cleared
 * after each call, the allocation limit is 0, and both copies are refilled
 * from the staging buffers, which hold this blob, zeros past it and a
 * zeroed description. An aborted sandbox is not reused.
 */
static int pgp_run_kept(struct pgp_kept_sbm *k, const u8 *data, size_t len,
			struct pgp_key_desc *desc)
{
	int ret;

	if (!k->ready) {
		if (!k->blob)
			k->blob = kvzalloc(k->size, GFP_KERNEL);
		if (!k->blob)
			return pgp_run_fresh(data, len, desc);
		sbm_init(&k->sbm);
		sbm_set_alloc_limit(&k->sbm, 0);
		k->in = SBM_COPY_IN(&k->sbm, k->blob, k->size);
		k->out = SBM_COPY_INOUT(&k->sbm, &k->desc, sizeof(k->desc));
		k->ready = true;
	}
	memcpy(k->blob, data, len);
	if (k->blob_len > len)
		memset(k->blob + len, 0, k->blob_len - len);
	k->blob_len = len;
	memset(&k->desc, 0, sizeof(k->desc));

	ret = sbm_call(&k->sbm, pgp_parse_key, k->in, len, k->out,
		       pgp_fault_mode());
	ret = pgp_parser_result(&k->sbm, ret);
	if (sbm_error(&k->sbm)) {
		sbm_destroy(&k->sbm);
		k->ready = false;
	} else {
		memcpy(desc, &k->desc, sizeof(*desc));
	}
	return ret;
}

/*
 * Run the packet parser, in the sandbox unless pgp_key_parser.sbm is off.
 * Building a sandbox costs several times what parsing a key does, so the
 * smallest kept sandbox that the blob fits parses it; a blob that comes
 * while that one is busy gets a sandbox of its own.
 */
static int pgp_run_parser(const u8 *data, size_t len,
			  struct pgp_key_desc *desc)
{
	struct pgp_kept_sbm *k;
	int ret;

	if (!READ_ONCE(pgp_sbm))
		return pgp_parse_key(data, len, desc, pgp_fault_mode());
	for (k = pgp_kept; k < pgp_kept + ARRAY_SIZE(pgp_kept); k++) {
		if (len > k->size)
			continue;
		if (!mutex_trylock(&k->lock))
			break;
		ret = pgp_run_kept(k, data, len, desc);
		mutex_unlock(&k->lock);
		return ret;
	}
	return pgp_run_fresh(data, len, desc);
}

static bool pgp_span_ok(const struct pgp_span *span, u32 start, u32 end)
{
	return span->offset >= start && span->offset <= end &&
	       span->len <= end - span->offset;
}

/* Does the header at @pkt->header say what @pkt says? */
static bool pgp_header_ok(const u8 *data, const struct pgp_packet_desc *pkt)
{
	u32 hdr = pkt->header, hlen = pkt->body.offset - hdr;
	u32 len = pkt->body.len;
	u8 ctb = data[hdr];

	if (ctb & 0x40) {
		if (ctb != (0xc0 | pkt->tag))
			return false;
		if (hlen == 2)
			return len < 192 && data[hdr + 1] == len;
		if (hlen == 3)
			return len >= 192 && len < 8384 &&
			       data[hdr + 1] == ((len - 192) >> 8) + 192 &&
			       data[hdr + 2] == ((len - 192) & 0xff);
		return hlen == 6 && data[hdr + 1] == 0xff &&
		       get_unaligned_be32(data + hdr + 2) == len;
	}
	if (pkt->tag > 15 || (ctb & 0xbc) != (0x80 | pkt->tag << 2))
		return false;
	if (hlen == 2)
		return (ctb & 3) == 0 && data[hdr + 1] == len;
	if (hlen == 3)
		return (ctb & 3) == 1 && get_unaligned_be16(data + hdr + 1) == len;
	return hlen == 5 && (ctb & 3) == 2 &&
	       get_unaligned_be32(data + hdr + 1) == len;
}

/* The packets must follow each other from the first octet to the last. */
static int pgp_check_packets(const u8 *data, u32 len,
			     const struct pgp_key_desc *desc)
{
	u32 i, next = 0, user_ids = 0, subkeys = 0;
	const struct pgp_packet_desc *pkt;

	if (!desc->nr_packets || desc->nr_packets > PGP_MAX_PACKETS)
		return -EPROTO;
	for (i = 0; i < desc->nr_packets; i++) {
		pkt = &desc->packets[i];
		if (pkt->header != next || pkt->body.offset <= pkt->header ||
		    pkt->body.offset - pkt->header > 6 ||
		    !pgp_span_ok(&pkt->body, pkt->header, len) ||
		    !pgp_header_ok(data, pkt))
			return -EPROTO;
		/* The key packet comes first, and only there. */
		if (i ? pkt->tag == PGP_TAG_PUBLIC_KEY :
			pkt->tag != PGP_TAG_PUBLIC_KEY)
			return -EPROTO;
		user_ids += pkt->tag == PGP_TAG_USER_ID;
		subkeys += pkt->tag == PGP_TAG_PUBLIC_SUBKEY;
		next = pkt->body.offset + pkt->body.len;
	}
	if (next != len || user_ids != desc->nr_user_ids ||
	    subkeys != desc->nr_subkeys)
		return -EPROTO;
	return 0;
}

/* Is @span the MPI at @pos, with its bit count right before it? */
static bool pgp_mpi_ok(const u8 *data, u32 pos, const struct pgp_span *span)
{
	u32 bits;

	if (span->offset != pos + 2 || !span->len)
		return false;
	bits = get_unaligned_be16(data + pos);
	return DIV_ROUND_UP(bits, 8) == span->len && bits &&
	       fls(data[span->offset]) == (bits - 1) % 8 + 1;
}

static u32 pgp_span_end(const struct pgp_span *span)
{
	return span->offset + span->len;
}

/*
 * The key material must be what the key packet holds, so that the key
 * the kernel builds is the key the fingerprint names.
 */
static int pgp_check_key(const u8 *data, const struct pgp_key_desc *desc)
{
	const struct pgp_span *body = &desc->packets[0].body;
	const struct pgp_span *mat = &desc->material;
	const struct pgp_curve_info *curve;
	u32 start = body->offset, end = start + body->len, head;
	const u8 *p = data + start;

	head = desc->version == 6 ? 10 : 6;
	if ((desc->version != 4 && desc->version != 6) || body->len < head ||
	    (desc->version == 4 && body->len > U16_MAX) ||
	    p[0] != desc->version || get_unaligned_be32(p + 1) != desc->created ||
	    p[5] != desc->algo || mat->offset != start + head ||
	    pgp_span_end(mat) != end ||
	    (desc->version == 6 && get_unaligned_be32(p + 6) != mat->len))
		return -EPROTO;
	if (!pgp_span_ok(&desc->mpi[0], mat->offset, end) ||
	    (desc->mpi[1].len &&
	     !pgp_span_ok(&desc->mpi[1], mat->offset, end)))
		return -EPROTO;

	switch (desc->algo) {
	case PGP_ALGO_RSA:
	case PGP_ALGO_RSA_SIGN:
		if (desc->curve != PGP_CURVE_NONE || desc->curve_oid.len ||
		    !pgp_mpi_ok(data, mat->offset, &desc->mpi[0]) ||
		    !pgp_mpi_ok(data, pgp_span_end(&desc->mpi[0]),
				&desc->mpi[1]) ||
		    pgp_span_end(&desc->mpi[1]) != end)
			return -EPROTO;
		if (desc->mpi[0].len < PGP_RSA_MIN_N ||
		    desc->mpi[0].len > PGP_RSA_MAX_N ||
		    desc->mpi[1].len > PGP_RSA_MAX_E || !(data[end - 1] & 1))
			return -EPROTO;
		return 0;
	case PGP_ALGO_ECDSA:
		if (desc->curve == PGP_CURVE_NONE ||
		    desc->curve >= PGP_CURVE_NR)
			return -EPROTO;
		curve = &pgp_curves[desc->curve];
		/* The length first: the key packet may end the blob. */
		if (mat->len < 1 + curve->oid_len + 2 ||
		    data[mat->offset] != curve->oid_len ||
		    desc->curve_oid.offset != mat->offset + 1 ||
		    desc->curve_oid.len != curve->oid_len ||
		    memcmp(data + desc->curve_oid.offset, curve->oid,
			   curve->oid_len) ||
		    !pgp_mpi_ok(data, pgp_span_end(&desc->curve_oid),
				&desc->mpi[0]) ||
		    pgp_span_end(&desc->mpi[0]) != end || desc->mpi[1].len ||
		    desc->mpi[0].len != 1 + 2 * curve->coord_len ||
		    data[desc->mpi[0].offset] != 0x04)
			return -EPROTO;
		return 0;
	default:
		return -EPROTO;
	}
}

/* Each signature must name a signature packet and what it signs. */
static int pgp_check_sigs(const struct pgp_key_desc *desc)
{
	const struct pgp_sig_desc *sig;
	u32 i, target;

	if (desc->nr_sigs > PGP_MAX_SIGS)
		return -EPROTO;
	for (i = 0; i < desc->nr_sigs; i++) {
		sig = &desc->sigs[i];
		if (sig->packet >= desc->nr_packets ||
		    sig->user_id >= sig->packet ||
		    desc->packets[sig->packet].tag != PGP_TAG_SIGNATURE)
			return -EPROTO;
		target = desc->packets[sig->user_id].tag;
		if (target == PGP_TAG_PUBLIC_KEY ?
		    sig->type != PGP_SIG_DIRECT_KEY :
		    target != PGP_TAG_USER_ID ||
		    sig->type < PGP_SIG_CERT_GENERIC ||
		    sig->type > PGP_SIG_CERT_POSITIVE)
			return -EPROTO;
		if (sig->issuer_fpr_len && sig->issuer_fpr_len != PGP_V4_FPR_SIZE &&
		    sig->issuer_fpr_len != PGP_V6_FPR_SIZE)
			return -EPROTO;
	}
	return 0;
}

/*
 * The fingerprint (RFC 9580 section 5.5.4): SHA-1 over 0x99, a two-octet
 * length and the key packet body for v4, whose key ID is its last eight
 * octets; SHA-256 over 0x9b, a four-octet length and the body for v6,
 * whose key ID is its first eight.
 */
static int pgp_fingerprint(const u8 *data, const struct pgp_key_desc *desc,
			   struct pgp_key_info *info)
{
	const struct pgp_span *body = &desc->packets[0].body;
	bool v6 = desc->version == 6;
	struct crypto_shash *tfm;
	u8 prefix[5];
	int ret;

	tfm = crypto_alloc_shash(v6 ? "sha256" : "sha1", 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	if (v6) {
		prefix[0] = 0x9b;
		put_unaligned_be32(body->len, prefix + 1);
	} else {
		prefix[0] = 0x99;
		put_unaligned_be16(body->len, prefix + 1);
	}
	info->fpr_len = v6 ? PGP_V6_FPR_SIZE : PGP_V4_FPR_SIZE;
	info->key_id = v6 ? info->fpr :
		       info->fpr + PGP_V4_FPR_SIZE - PGP_KEY_ID_SIZE;
	{
		SHASH_DESC_ON_STACK(hash, tfm);

		hash->tfm = tfm;
		ret = crypto_shash_init(hash) ?:
		      crypto_shash_update(hash, prefix, v6 ? 5 : 3) ?:
		      crypto_shash_update(hash, data + body->offset,
					  body->len) ?:
		      crypto_shash_final(hash, info->fpr);
		shash_desc_zero(hash);
	}
	crypto_free_shash(tfm);
	return ret;
}

static bool pgp_sig_is_self(const struct pgp_sig_desc *sig,
			    const struct pgp_key_info *info)
{
	if (sig->issuer_fpr_len)
		return sig->issuer_fpr_len == info->fpr_len &&
		       !memcmp(sig->issuer_fpr, info->fpr, info->fpr_len);
	return sig->has_issuer_id &&
	       !memcmp(sig->issuer_id, info->key_id, PGP_KEY_ID_SIZE);
}

/*
 * Pick the primary user ID and the self-signature that describes the key:
 * the newest self-signature, preferring those that mark their user ID as
 * primary. The signatures are not verified (as gpg --import would), so
 * what they say is only as trustworthy as the blob: it names the key, it
 * grants nothing.
 */
static void pgp_pick_self_sig(const struct pgp_key_desc *desc,
			      struct pgp_key_info *info)
{
	const struct pgp_sig_desc *sig, *best = NULL;
	u32 i;

	for (i = 0; i < desc->nr_sigs; i++) {
		sig = &desc->sigs[i];
		if (!pgp_sig_is_self(sig, info))
			continue;
		if (best && (best->primary_uid > sig->primary_uid ||
			     (best->primary_uid == sig->primary_uid &&
			      best->created > sig->created)))
			continue;
		best = sig;
	}
	info->self_sig = best;
	if (best && best->user_id) {
		info->user_id = &desc->packets[best->user_id];
		return;
	}
	for (i = 1; i < desc->nr_packets; i++) {
		if (desc->packets[i].tag == PGP_TAG_USER_ID) {
			info->user_id = &desc->packets[i];
			return;
		}
	}
}

/* Append a DER length and return where the contents go. */
static u8 *pgp_der_len(u8 *p, u32 len)
{
	if (len < 0x80) {
		*p++ = len;
	} else if (len < 0x100) {
		*p++ = 0x81;
		*p++ = len;
	} else {
		*p++ = 0x82;
		put_unaligned_be16(len, p);
		p += 2;
	}
	return p;
}

/* An unsigned value as a DER INTEGER: a zero octet if its top bit is set. */
static u8 *pgp_der_uint(u8 *p, const u8 *val, u32 len)
{
	bool pad = val[0] & 0x80;

	*p++ = 0x02;
	p = pgp_der_len(p, len + pad);
	if (pad)
		*p++ = 0;
	memcpy(p, val, len);
	return p + len;
}

static u32 pgp_der_uint_size(const u8 *val, u32 len)
{
	len += val[0] >> 7;
	return 1 + (len < 0x80 ? 1 : len < 0x100 ? 2 : 3) + len;
}

/* The RSAPublicKey (RFC 8017 A.1.1) that the kernel's RSA takes. */
static int pgp_rsa_key(const u8 *data, const struct pgp_key_desc *desc,
		       struct public_key *pub)
{
	const u8 *n = data + desc->mpi[0].offset, *e = data + desc->mpi[1].offset;
	u32 n_len = desc->mpi[0].len, e_len = desc->mpi[1].len, seq, size;
	u8 *p;

	seq = pgp_der_uint_size(n, n_len) + pgp_der_uint_size(e, e_len);
	size = 1 + 3 + seq;
	pub->key = kmalloc(size, GFP_KERNEL);
	if (!pub->key)
		return -ENOMEM;
	p = pub->key;
	*p++ = 0x30;
	p = pgp_der_len(p, seq);
	p = pgp_der_uint(p, n, n_len);
	p = pgp_der_uint(p, e, e_len);
	pub->keylen = p - (u8 *)pub->key;
	pub->pkey_algo = "rsa";
	pub->algo = OID_rsaEncryption;
	return 0;
}

static int pgp_ecdsa_key(const u8 *data, const struct pgp_key_desc *desc,
			 struct public_key *pub)
{
	pub->key = kmemdup(data + desc->mpi[0].offset, desc->mpi[0].len,
			   GFP_KERNEL);
	if (!pub->key)
		return -ENOMEM;
	pub->keylen = desc->mpi[0].len;
	pub->pkey_algo = pgp_curves[desc->curve].pkey_algo;
	pub->algo = OID_id_ecPublicKey;
	return 0;
}

static struct public_key *pgp_public_key(const u8 *data,
					 const struct pgp_key_desc *desc,
					 const struct pgp_key_info *info)
{
	struct public_key *pub;
	u8 flags = PGP_KEY_FLAG_CERTIFY | PGP_KEY_FLAG_SIGN;
	int ret;

	pub = kzalloc(sizeof(*pub), GFP_KERNEL);
	if (!pub)
		return ERR_PTR(-ENOMEM);
	pub->id_type = "PGP";
	if (desc->algo == PGP_ALGO_ECDSA)
		ret = pgp_ecdsa_key(data, desc, pub);
	else
		ret = pgp_rsa_key(data, desc, pub);
	if (ret) {
		kfree(pub);
		return ERR_PTR(ret);
	}
	if (info->self_sig && info->self_sig->has_key_flags)
		flags = info->self_sig->key_flags;
	if (flags & PGP_KEY_FLAG_SIGN)
		set_bit(KEY_EFLAG_DIGITALSIG, &pub->key_eflags);
	if (flags & PGP_KEY_FLAG_CERTIFY)
		set_bit(KEY_EFLAG_KEYCERTSIGN, &pub->key_eflags);
	return pub;
}

/*
 * "<primary user ID>: <fingerprint>", the user ID cut short and with
 * control characters replaced, or the fingerprint alone.
 */
static char *pgp_description(const u8 *data, const struct pgp_key_info *info)
{
	u32 i, len = 0;
	char *desc;

	if (info->user_id)
		len = min(info->user_id->body.len, PGP_DESC_USER_ID_LEN);
	desc = kmalloc(len + 2 + 2 * info->fpr_len + 1, GFP_KERNEL);
	if (!desc)
		return NULL;
	for (i = 0; i < len; i++) {
		u8 c = data[info->user_id->body.offset + i];

		desc[i] = c < 0x20 || c == 0x7f ? '?' : c;
	}
	if (len)
		sprintf(desc + len, ": %*phN", info->fpr_len, info->fpr);
	else
		sprintf(desc, "%*phN", info->fpr_len, info->fpr);
	return desc;
}

static int pgp_key_ids(const struct pgp_key_info *info,
		       struct asymmetric_key_ids **ids)
{
	struct asymmetric_key_ids *kids;

	kids = kzalloc(sizeof(*kids), GFP_KERNEL);
	if (!kids)
		return -ENOMEM;
	kids->id[0] = asymmetric_key_generate_id(info->fpr, info->fpr_len,
						 NULL, 0);
	kids->id[1] = asymmetric_key_generate_id(info->key_id, PGP_KEY_ID_SIZE,
						 NULL, 0);
	if (IS_ERR(kids->id[0]) || IS_ERR(kids->id[1])) {
		int ret = PTR_ERR(IS_ERR(kids->id[0]) ? kids->id[0] :
				  kids->id[1]);

		if (!IS_ERR(kids->id[0]))
			kfree(kids->id[0]);
		if (!IS_ERR(kids->id[1]))
			kfree(kids->id[1]);
		kfree(kids);
		return ret;
	}
	*ids = kids;
	return 0;
}

/**
 * pgp_check_desc() - check a description against the blob it describes
 * @data: the blob
 * @len:  its length
 * @desc: what the packet parser said of it, in SandBox Mode or not
 *
 * Context: the blob must not change under it.
 * Return: 0, or -EPROTO if @desc does not hold up.
 */
int pgp_check_desc(const u8 *data, u32 len, const struct pgp_key_desc *desc)
{
	return pgp_check_packets(data, len, desc) ?:
	       pgp_check_key(data, desc) ?:
	       pgp_check_sigs(desc);
}

/* Build the key of a checked description. */
static int pgp_instantiate(struct key_preparsed_payload *prep,
			   const struct pgp_key_desc *desc)
{
	struct asymmetric_key_ids *kids;
	struct pgp_key_info info = {};
	struct public_key *pub;
	char *description;
	int ret;

	ret = pgp_fingerprint(prep->data, desc, &info);
	if (ret)
		return ret;
	pgp_pick_self_sig(desc, &info);
	pub = pgp_public_key(prep->data, desc, &info);
	if (IS_ERR(pub))
		return PTR_ERR(pub);
	ret = pgp_key_ids(&info, &kids);
	if (ret)
		goto free_pub;
	description = pgp_description(prep->data, &info);
	if (!description) {
		ret = -ENOMEM;
		goto free_kids;
	}
	__module_get(public_key_subtype.owner);
	prep->payload.data[asym_subtype] = &public_key_subtype;
	prep->payload.data[asym_key_ids] = kids;
	prep->payload.data[asym_crypto] = pub;
	prep->payload.data[asym_auth] = NULL;
	prep->description = description;
	prep->quotalen = 100;
	return 0;

free_kids:
	kfree(kids->id[0]);
	kfree(kids->id[1]);
	kfree(kids);
free_pub:
	public_key_free(pub);
	return ret;
}

static int pgp_key_parse(struct key_preparsed_payload *prep)
{
	struct pgp_key_desc *desc;
	int ret;

	if (!prep->datalen || prep->datalen > U32_MAX)
		return -EBADMSG;
	desc = kzalloc(sizeof(*desc), GFP_KERNEL);
	if (!desc)
		return -ENOMEM;
	ret = pgp_run_parser(prep->data, prep->datalen, desc);
	if (!ret)
		ret = pgp_check_desc(prep->data, prep->datalen, desc);
	if (!ret)
		ret = pgp_instantiate(prep, desc);
	kfree(desc);
	return ret;
}

static struct asymmetric_key_parser pgp_key_parser = {
	.owner = THIS_MODULE,
	.name = "pgp",
	.parse = pgp_key_parse,
};

static int __init pgp_key_init(void)
{
	return register_asymmetric_key_parser(&pgp_key_parser);
}

static void __exit pgp_key_exit(void)
{
	struct pgp_kept_sbm *k;

	unregister_asymmetric_key_parser(&pgp_key_parser);
	for (k = pgp_kept; k < pgp_kept + ARRAY_SIZE(pgp_kept); k++) {
		if (k->ready)
			sbm_destroy(&k->sbm);
		kvfree(k->blob);
	}
}

module_init(pgp_key_init);
module_exit(pgp_key_exit);

MODULE_DESCRIPTION("OpenPGP public key parser, in SandBox Mode");
MODULE_LICENSE("GPL");
