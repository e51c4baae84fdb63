// SPDX-License-Identifier: GPL-2.0
/*
 * OpenPGP public key parser: the packet parser, which runs in SandBox Mode.
 *
 * It reads a transferable public key (RFC 4880 section 11.1, RFC 9580
 * section 10.1) and describes it in a struct pgp_key_desc: where each
 * packet lies, the primary key's algorithm and key material, and what the
 * signatures over the primary key and its user IDs say about it. It reads
 * only the blob, writes only the description and calls nothing that
 * touches kernel data, so that it runs unchanged in the sandbox, and it
 * trusts nothing in the blob: every length is checked against what is
 * left before it is used.
 */

#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "pgp_parser.h"

static const u8 pgp_oid_p256[] = {
	0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07
};

static const u8 pgp_oid_p384[] = { 0x2b, 0x81, 0x04, 0x00, 0x22 };
static const u8 pgp_oid_p521[] = { 0x2b, 0x81, 0x04, 0x00, 0x23 };

const struct pgp_curve_info pgp_curves[PGP_CURVE_NR] = {
	[PGP_CURVE_P256] = { pgp_oid_p256, sizeof(pgp_oid_p256), 32,
			     "ecdsa-nist-p256" },
	[PGP_CURVE_P384] = { pgp_oid_p384, sizeof(pgp_oid_p384), 48,
			     "ecdsa-nist-p384" },
	[PGP_CURVE_P521] = { pgp_oid_p521, sizeof(pgp_oid_p521), 66,
			     "ecdsa-nist-p521" },
};

/*
 * A cursor over part of the blob: @pos moves towards @end, and every read
 * first checks that enough is left.
 */
struct pgp_cursor {
	const u8 *data;
	u32 pos;
	u32 end;
};

static bool pgp_left(const struct pgp_cursor *c, u32 n)
{
	return c->end - c->pos >= n;
}

static int pgp_get_u8(struct pgp_cursor *c, u32 *val)
{
	if (!pgp_left(c, 1))
		return -EBADMSG;
	*val = c->data[c->pos++];
	return 0;
}

static int pgp_get_be16(struct pgp_cursor *c, u32 *val)
{
	if (!pgp_left(c, 2))
		return -EBADMSG;
	*val = get_unaligned_be16(c->data + c->pos);
	c->pos += 2;
	return 0;
}

static int pgp_get_be32(struct pgp_cursor *c, u32 *val)
{
	if (!pgp_left(c, 4))
		return -EBADMSG;
	*val = get_unaligned_be32(c->data + c->pos);
	c->pos += 4;
	return 0;
}

static int pgp_get_span(struct pgp_cursor *c, u32 len, struct pgp_span *span)
{
	if (!pgp_left(c, len))
		return -EBADMSG;
	span->offset = c->pos;
	span->len = len;
	c->pos += len;
	return 0;
}

/*
 * A packet header (RFC 9580 section 4.2): the old format with one, two or
 * four length octets, or the new one with one, two or five. Partial and
 * indeterminate lengths are for data packets, never in a key.
 */
static int pgp_read_header(struct pgp_cursor *c, struct pgp_packet_desc *pkt)
{
	u32 ctb, o1, o2, len;
	int ret;

	pkt->header = c->pos;
	ret = pgp_get_u8(c, &ctb);
	if (ret)
		return ret;
	if (!(ctb & 0x80))
		return -EBADMSG;
	if (ctb & 0x40) {
		pkt->tag = ctb & 0x3f;
		ret = pgp_get_u8(c, &o1);
		if (ret)
			return ret;
		if (o1 < 192) {
			len = o1;
		} else if (o1 < 224) {
			ret = pgp_get_u8(c, &o2);
			len = ((o1 - 192) << 8) + o2 + 192;
		} else if (o1 == 255) {
			ret = pgp_get_be32(c, &len);
		} else {
			return -EBADMSG;
		}
	} else {
		pkt->tag = (ctb >> 2) & 0xf;
		switch (ctb & 3) {
		case 0:
			ret = pgp_get_u8(c, &len);
			break;
		case 1:
			ret = pgp_get_be16(c, &len);
			break;
		case 2:
			ret = pgp_get_be32(c, &len);
			break;
		default:
			return -EBADMSG;
		}
	}
	if (ret)
		return ret;
	if (!pkt->tag)
		return -EBADMSG;
	return pgp_get_span(c, len, &pkt->body);
}

/*
 * A multiprecision integer: a bit count, then the value in as few octets
 * as it needs. The count must be exact, so that each value has one
 * encoding and the kernel can check it the same way.
 */
static int pgp_read_mpi(struct pgp_cursor *c, struct pgp_span *value)
{
	u32 bits;
	int ret;

	ret = pgp_get_be16(c, &bits);
	if (ret)
		return ret;
	if (!bits)
		return -EBADMSG;
	ret = pgp_get_span(c, DIV_ROUND_UP(bits, 8), value);
	if (ret)
		return ret;
	if (fls(c->data[value->offset]) != (bits - 1) % 8 + 1)
		return -EBADMSG;
	return 0;
}

static int pgp_read_rsa(struct pgp_cursor *c, struct pgp_key_desc *desc)
{
	int ret;

	ret = pgp_read_mpi(c, &desc->mpi[0]);
	if (ret)
		return ret;
	ret = pgp_read_mpi(c, &desc->mpi[1]);
	if (ret)
		return ret;
	if (desc->mpi[0].len < PGP_RSA_MIN_N ||
	    desc->mpi[0].len > PGP_RSA_MAX_N ||
	    desc->mpi[1].len > PGP_RSA_MAX_E)
		return -EINVAL;
	return 0;
}

static int pgp_read_ecdsa(struct pgp_cursor *c, struct pgp_key_desc *desc)
{
	const struct pgp_curve_info *curve;
	u32 oid_len, i;
	int ret;

	ret = pgp_get_u8(c, &oid_len);
	if (ret)
		return ret;
	if (!oid_len || oid_len == 0xff)
		return -EBADMSG;
	ret = pgp_get_span(c, oid_len, &desc->curve_oid);
	if (ret)
		return ret;
	for (i = PGP_CURVE_P256; i < PGP_CURVE_NR; i++) {
		curve = &pgp_curves[i];
		if (curve->oid_len == oid_len &&
		    !memcmp(c->data + desc->curve_oid.offset, curve->oid,
			    oid_len))
			break;
	}
	if (i == PGP_CURVE_NR)
		return -ENOPKG;
	desc->curve = i;
	ret = pgp_read_mpi(c, &desc->mpi[0]);
	if (ret)
		return ret;
	/* Only the uncompressed form, 0x04 || x || y, is defined. */
	if (desc->mpi[0].len != 1 + 2 * curve->coord_len ||
	    c->data[desc->mpi[0].offset] != 0x04)
		return -EBADMSG;
	return 0;
}

/*
 * The primary key packet (RFC 9580 section 5.5.2): version 4 or 6,
 * creation time, algorithm, then (for version 6) the length of the key
 * material, which must fill the rest of the packet.
 */
static int pgp_read_key(const u8 *data, const struct pgp_span *body,
			struct pgp_key_desc *desc)
{
	struct pgp_cursor c = { data, body->offset, body->offset + body->len };
	u32 material_len;
	int ret;

	ret = pgp_get_u8(&c, &desc->version);
	if (ret)
		return ret;
	if (desc->version == 2 || desc->version == 3 || desc->version == 5)
		return -ENOPKG;
	if (desc->version != 4 && desc->version != 6)
		return -EBADMSG;
	/* A v4 fingerprint hashes a two-octet length. */
	if (desc->version == 4 && body->len > U16_MAX)
		return -EBADMSG;
	ret = pgp_get_be32(&c, &desc->created);
	if (!ret)
		ret = pgp_get_u8(&c, &desc->algo);
	if (ret)
		return ret;
	if (desc->version == 6) {
		ret = pgp_get_be32(&c, &material_len);
		if (ret)
			return ret;
		if (material_len != c.end - c.pos)
			return -EBADMSG;
	}
	desc->material.offset = c.pos;
	desc->material.len = c.end - c.pos;

	switch (desc->algo) {
	case PGP_ALGO_RSA:
	case PGP_ALGO_RSA_SIGN:
		ret = pgp_read_rsa(&c, desc);
		break;
	case PGP_ALGO_ECDSA:
		ret = pgp_read_ecdsa(&c, desc);
		break;
	default:
		/* Encryption-only, DSA, EdDSA and the rest: no verifier. */
		return -ENOPKG;
	}
	if (ret)
		return ret;
	return c.pos == c.end ? 0 : -EBADMSG;
}

/* The length of one signature subpacket, as RFC 9580 section 5.2.3.7. */
static int pgp_read_subpacket_len(struct pgp_cursor *c, u32 *len)
{
	u32 o1, o2;
	int ret;

	ret = pgp_get_u8(c, &o1);
	if (ret)
		return ret;
	if (o1 < 192) {
		*len = o1;
		return 0;
	}
	if (o1 < 255) {
		ret = pgp_get_u8(c, &o2);
		*len = ((o1 - 192) << 8) + o2 + 192;
		return ret;
	}
	return pgp_get_be32(c, len);
}

/* Take what describes the key from one subpacket of @sig. */
static int pgp_note_subpacket(const u8 *val, u32 type, u32 len, bool hashed,
			      struct pgp_sig_desc *sig, bool *unknown_critical)
{
	bool critical = type & 0x80;

	type &= 0x7f;
	if (type == PGP_SUB_ISSUER_KEY_ID) {
		if (len != PGP_KEY_ID_SIZE)
			return -EBADMSG;
		memcpy(sig->issuer_id, val, len);
		sig->has_issuer_id = true;
		return 0;
	}
	if (!hashed)
		return 0;
	switch (type) {
	case PGP_SUB_CREATION_TIME:
		if (len != 4)
			return -EBADMSG;
		sig->created = get_unaligned_be32(val);
		break;
	case PGP_SUB_KEY_EXPIRY:
		if (len != 4)
			return -EBADMSG;
		sig->key_expiry = get_unaligned_be32(val);
		break;
	case PGP_SUB_PRIMARY_USER_ID:
		if (len != 1)
			return -EBADMSG;
		sig->primary_uid = val[0];
		break;
	case PGP_SUB_KEY_FLAGS:
		if (!len)
			return -EBADMSG;
		sig->key_flags = val[0];
		sig->has_key_flags = true;
		break;
	case PGP_SUB_ISSUER_FPR:
		if (len != 1 + PGP_V4_FPR_SIZE && len != 1 + PGP_V6_FPR_SIZE)
			return -EBADMSG;
		sig->issuer_fpr_len = len - 1;
		memcpy(sig->issuer_fpr, val + 1, len - 1);
		break;
	default:
		if (critical)
			*unknown_critical = true;
		break;
	}
	return 0;
}

/* Walk one subpacket area, of @len octets at the cursor. */
static int pgp_read_subpackets(struct pgp_cursor *c, u32 len, bool hashed,
			       struct pgp_sig_desc *sig,
			       bool *unknown_critical)
{
	struct pgp_cursor area = { c->data, c->pos, c->pos };
	struct pgp_span val;
	u32 sub_len, type;
	int ret;

	if (!pgp_left(c, len))
		return -EBADMSG;
	area.end += len;
	c->pos += len;
	while (area.pos < area.end) {
		ret = pgp_read_subpacket_len(&area, &sub_len);
		if (ret)
			return ret;
		/* The length counts the type octet. */
		if (!sub_len)
			return -EBADMSG;
		ret = pgp_get_u8(&area, &type);
		if (!ret)
			ret = pgp_get_span(&area, sub_len - 1, &val);
		if (!ret)
			ret = pgp_note_subpacket(c->data + val.offset, type,
						 val.len, hashed, sig,
						 unknown_critical);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A signature packet (RFC 9580 section 5.2.3), read up to its subpacket
 * areas: that is all that describes the key. Version 3 signatures carry
 * nothing of use here and are only skipped.
 */
static int pgp_read_sig(const u8 *data, const struct pgp_span *body,
			struct pgp_sig_desc *sig, bool *usable)
{
	struct pgp_cursor c = { data, body->offset, body->offset + body->len };
	u32 version, algo, hash, len;
	bool unknown_critical = false;
	int ret;

	*usable = false;
	ret = pgp_get_u8(&c, &version);
	if (ret)
		return ret;
	if (version == 3)
		return 0;
	if (version != 4 && version != 6)
		return -EBADMSG;
	ret = pgp_get_u8(&c, &sig->type);
	if (!ret)
		ret = pgp_get_u8(&c, &algo);
	if (!ret)
		ret = pgp_get_u8(&c, &hash);
	if (ret)
		return ret;
	ret = version == 4 ? pgp_get_be16(&c, &len) : pgp_get_be32(&c, &len);
	if (!ret)
		ret = pgp_read_subpackets(&c, len, true, sig,
					  &unknown_critical);
	if (ret)
		return ret;
	ret = version == 4 ? pgp_get_be16(&c, &len) : pgp_get_be32(&c, &len);
	if (!ret)
		ret = pgp_read_subpackets(&c, len, false, sig,
					  &unknown_critical);
	if (ret)
		return ret;
	/* The left 16 bits of the signed hash, then the signature itself. */
	if (!pgp_left(&c, 2))
		return -EBADMSG;
	/* A critical subpacket not understood voids the signature. */
	*usable = !unknown_critical;
	return 0;
}

/* Fault injection, for the containment tests only. */
static void pgp_inject_fault(struct pgp_key_desc *desc, int fault)
{
	if (!IS_ENABLED(CONFIG_PGP_KEY_PARSER_FAULT_INJECTION))
		return;
	if (fault == PGP_FAULT_OOB_WRITE)
		WRITE_ONCE(((u8 *)desc)[sizeof(*desc) + PAGE_SIZE], 0x5a);
	else if (fault == PGP_FAULT_WILD_POINTER)
		desc->created ^= READ_ONCE(*(const u32 *)PAGE_OFFSET);
}

/*
 * Which packet a signature speaks about: 0 for the key itself, the index
 * of a user ID, or -1 after a user attribute or a subkey, where the
 * signatures say nothing this parser keeps.
 */
static int pgp_note_packet(const u8 *data, struct pgp_key_desc *desc,
			   const struct pgp_packet_desc *pkt, int *target)
{
	struct pgp_sig_desc scratch, *sig;
	bool usable, keep;
	int ret;

	switch (pkt->tag) {
	case PGP_TAG_PUBLIC_KEY:
		return -EBADMSG;
	case PGP_TAG_USER_ID:
		if (desc->nr_subkeys)
			return -EBADMSG;
		desc->nr_user_ids++;
		*target = desc->nr_packets;
		return 0;
	case PGP_TAG_PUBLIC_SUBKEY:
		desc->nr_subkeys++;
		*target = -1;
		return 0;
	case PGP_TAG_USER_ATTRIBUTE:
		if (desc->nr_subkeys)
			return -EBADMSG;
		*target = -1;
		return 0;
	case PGP_TAG_SIGNATURE:
		/* Past PGP_MAX_SIGS, signatures are checked, not kept. */
		keep = *target >= 0 && desc->nr_sigs < PGP_MAX_SIGS;
		sig = keep ? &desc->sigs[desc->nr_sigs] : &scratch;
		memset(sig, 0, sizeof(*sig));
		ret = pgp_read_sig(data, &pkt->body, sig, &usable);
		if (ret || !usable || !keep)
			return ret;
		if (*target && (sig->type < PGP_SIG_CERT_GENERIC ||
				sig->type > PGP_SIG_CERT_POSITIVE))
			return 0;
		if (!*target && sig->type != PGP_SIG_DIRECT_KEY)
			return 0;
		sig->packet = desc->nr_packets;
		sig->user_id = *target;
		desc->nr_sigs++;
		return 0;
	case PGP_TAG_TRUST:
	case PGP_TAG_PADDING:
		return 0;
	default:
		return pkt->tag < PGP_TAG_FIRST_NONCRITICAL ? -EBADMSG : 0;
	}
}

/**
 * pgp_parse_key() - describe a transferable public key
 * @data:  the blob
 * @len:   its length
 * @desc:  the description to fill in
 * @fault: an &enum pgp_fault to inject, for tests
 *
 * The blob must be one transferable public key: a public key packet, then
 * user IDs, user attributes, subkeys and their signatures, in the order
 * RFC 9580 section 10.1 gives, and nothing after it.
 *
 * Return: 0; -EBADMSG for a blob that is not such a key; -ENOPKG for a
 * key version or algorithm the kernel cannot use; -EINVAL for a key it
 * will not use (RSA modulus size, more than %PGP_MAX_PACKETS packets).
 */
int pgp_parse_key(const u8 *data, size_t len, struct pgp_key_desc *desc,
		  int fault)
{
	struct pgp_cursor c = { data, 0, len };
	struct pgp_packet_desc *pkt;
	int target = 0;
	int ret;

	memset(desc, 0, sizeof(*desc));
	if (!len || len > U32_MAX)
		return -EBADMSG;
	while (c.pos < c.end) {
		if (desc->nr_packets == PGP_MAX_PACKETS)
			return -EINVAL;
		pkt = &desc->packets[desc->nr_packets];
		ret = pgp_read_header(&c, pkt);
		if (ret)
			return ret;
		if (!desc->nr_packets) {
			if (pkt->tag != PGP_TAG_PUBLIC_KEY)
				return -EBADMSG;
			ret = pgp_read_key(data, &pkt->body, desc);
			if (!ret)
				pgp_inject_fault(desc, fault);
		} else {
			ret = pgp_note_packet(data, desc, pkt, &target);
		}
		if (ret)
			return ret;
		desc->nr_packets++;
	}
	return 0;
}

SBM_DEFINE_THUNK(pgp_parse_key, const u8 *, data, size_t, len,
		 struct pgp_key_desc *, desc, int, fault);
