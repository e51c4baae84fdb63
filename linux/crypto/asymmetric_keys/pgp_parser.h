/* SPDX-License-Identifier: GPL-2.0 */
/*
 * OpenPGP public key parser: the flat description of a transferable public
 * key that the packet parser produces, in SandBox Mode, and that the kernel
 * checks against the blob before it builds a key from it.
 *
 * The description holds no pointers: every location is an offset and a
 * length into the blob the parser was given.
 */

#ifndef _PGP_PARSER_H
#define _PGP_PARSER_H

#include <linux/sbm.h>
#include <linux/types.h>

/* Packet tags (RFC 9580 section 5). */
#define PGP_TAG_SIGNATURE	2
#define PGP_TAG_PUBLIC_KEY	6
#define PGP_TAG_TRUST		12
#define PGP_TAG_USER_ID		13
#define PGP_TAG_PUBLIC_SUBKEY	14
#define PGP_TAG_USER_ATTRIBUTE	17
#define PGP_TAG_PADDING		21
/* Tags from here on may be skipped when not understood. */
#define PGP_TAG_FIRST_NONCRITICAL 40

/* Public-key algorithms (RFC 9580 section 9.1). */
#define PGP_ALGO_RSA		1
#define PGP_ALGO_RSA_ENCRYPT	2
#define PGP_ALGO_RSA_SIGN	3
#define PGP_ALGO_ELGAMAL	16
#define PGP_ALGO_DSA		17
#define PGP_ALGO_ECDH		18
#define PGP_ALGO_ECDSA		19
#define PGP_ALGO_EDDSA_LEGACY	22
#define PGP_ALGO_X25519		25
#define PGP_ALGO_X448		26
#define PGP_ALGO_ED25519	27
#define PGP_ALGO_ED448		28

/* Signature types that speak about the primary key (RFC 9580 5.2.1). */
#define PGP_SIG_CERT_GENERIC	0x10
#define PGP_SIG_CERT_POSITIVE	0x13
#define PGP_SIG_DIRECT_KEY	0x1f

/* Signature subpackets used to describe the key (RFC 9580 5.2.3.7). */
#define PGP_SUB_CREATION_TIME	2
#define PGP_SUB_KEY_EXPIRY	9
#define PGP_SUB_ISSUER_KEY_ID	16
#define PGP_SUB_PRIMARY_USER_ID	25
#define PGP_SUB_KEY_FLAGS	27
#define PGP_SUB_ISSUER_FPR	33

/* Key flags, first octet. */
#define PGP_KEY_FLAG_CERTIFY	0x01
#define PGP_KEY_FLAG_SIGN	0x02

#define PGP_V4_FPR_SIZE		20
#define PGP_V6_FPR_SIZE		32
#define PGP_KEY_ID_SIZE		8

/* Limits of a key the parser describes. */
#define PGP_MAX_PACKETS		128
#define PGP_MAX_SIGS		16
/* RSA moduli the kernel takes, in octets: 1024 to 8192 bits. */
#define PGP_RSA_MIN_N		128
#define PGP_RSA_MAX_N		1024
#define PGP_RSA_MAX_E		8

/**
 * enum pgp_curve - the elliptic curves of the ECDSA keys the kernel uses
 * @PGP_CURVE_NONE: not an ECDSA key
 * @PGP_CURVE_P256: NIST P-256
 * @PGP_CURVE_P384: NIST P-384
 * @PGP_CURVE_P521: NIST P-521
 * @PGP_CURVE_NR:   number of values
 */
enum pgp_curve {
	PGP_CURVE_NONE,
	PGP_CURVE_P256,
	PGP_CURVE_P384,
	PGP_CURVE_P521,
	PGP_CURVE_NR,
};

/**
 * enum pgp_fault - what the debug fault injection makes the parser do
 * @PGP_FAULT_NONE:         nothing
 * @PGP_FAULT_OOB_WRITE:    write a page past the end of the description
 * @PGP_FAULT_WILD_POINTER: read through a pointer to kernel memory
 *
 * Only kernels built with CONFIG_PGP_KEY_PARSER_FAULT_INJECTION ever ask
 * for a fault; it happens once the primary key packet has been parsed.
 */
enum pgp_fault {
	PGP_FAULT_NONE,
	PGP_FAULT_OOB_WRITE,
	PGP_FAULT_WILD_POINTER,
};

/**
 * struct pgp_span - a location in the blob
 * @offset: where it starts
 * @len:    how many octets
 */
struct pgp_span {
	u32 offset;
	u32 len;
};

/**
 * struct pgp_packet_desc - one packet of the blob
 * @tag:    its packet tag
 * @header: offset of its header (the tag octet)
 * @body:   its body, which follows the header
 */
struct pgp_packet_desc {
	u32 tag;
	u32 header;
	struct pgp_span body;
};

/**
 * struct pgp_sig_desc - a signature over the primary key or a user ID
 * @packet:         index of its packet in &pgp_key_desc.packets
 * @user_id:        index in &pgp_key_desc.packets of the user ID packet it
 *                  certifies; 0 (the key packet) for a direct-key signature
 * @type:           the signature type
 * @created:        signature creation time, 0 if none was given
 * @key_expiry:     key expiration time, seconds after key creation, or 0
 * @key_flags:      first octet of the key flags subpacket
 * @has_key_flags:  whether the key flags subpacket was there
 * @primary_uid:    whether it marks @user_id as the primary user ID
 * @issuer_fpr_len: length of @issuer_fpr, 0 if not given
 * @issuer_fpr:     the issuer fingerprint subpacket's fingerprint
 * @has_issuer_id:  whether the issuer key ID subpacket was there
 * @issuer_id:      the issuer key ID
 *
 * Only hashed subpackets count: anyone can change the unhashed ones.
 */
struct pgp_sig_desc {
	u32 packet;
	u32 user_id;
	u32 type;
	u32 created;
	u32 key_expiry;
	u8 key_flags;
	bool has_key_flags;
	bool primary_uid;
	u8 issuer_fpr_len;
	u8 issuer_fpr[PGP_V6_FPR_SIZE];
	bool has_issuer_id;
	u8 issuer_id[PGP_KEY_ID_SIZE];
};

/**
 * struct pgp_key_desc - a transferable public key, as the parser read it
 * @version:       key version, 4 or 6
 * @algo:          public-key algorithm of the primary key
 * @curve:         for ECDSA, the curve
 * @created:       key creation time
 * @material:      the key material in the key packet: for v6 keys what
 *                 the key material length covers
 * @mpi:           the values of the key's MPIs, without their bit counts:
 *                 RSA n and e; ECDSA the point and an empty span
 * @curve_oid:     for ECDSA, the curve OID in the key material
 * @nr_packets:    number of entries of @packets; the first is the key
 * @nr_user_ids:   number of user ID packets
 * @nr_subkeys:    number of public subkey packets
 * @nr_sigs:       number of entries of @sigs
 * @packets:       every packet of the blob, in order
 * @sigs:          the first signatures over the primary key or its user IDs
 */
struct pgp_key_desc {
	u32 version;
	u32 algo;
	u32 curve;
	u32 created;
	struct pgp_span material;
	struct pgp_span mpi[2];
	struct pgp_span curve_oid;
	u32 nr_packets;
	u32 nr_user_ids;
	u32 nr_subkeys;
	u32 nr_sigs;
	struct pgp_packet_desc packets[PGP_MAX_PACKETS];
	struct pgp_sig_desc sigs[PGP_MAX_SIGS];
};

SBM_DEFINE_CALL(pgp_parse_key, const u8 *, data, size_t, len,
		struct pgp_key_desc *, desc, int, fault);

int pgp_parse_key(const u8 *data, size_t len, struct pgp_key_desc *desc,
		  int fault);

/**
 * struct pgp_curve_info - what the kernel knows of a curve
 * @oid:       its OID, as OpenPGP writes it (no tag, no length)
 * @oid_len:   length of @oid
 * @coord_len: octets of one coordinate
 * @pkey_algo: the kernel's name of the algorithm on this curve
 */
struct pgp_curve_info {
	const u8 *oid;
	u32 oid_len;
	u32 coord_len;
	const char *pkey_algo;
};

extern const struct pgp_curve_info pgp_curves[PGP_CURVE_NR];

int pgp_check_desc(const u8 *data, u32 len, const struct pgp_key_desc *desc);

#endif /* _PGP_PARSER_H */
