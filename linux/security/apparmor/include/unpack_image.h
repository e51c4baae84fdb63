/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * AppArmor security module
 *
 * The unpacked image of a policy blob: what the unpacker produces, in
 * SandBox Mode or not, and what the kernel checks and turns into profiles.
 */

#ifndef __AA_UNPACK_IMAGE_H
#define __AA_UNPACK_IMAGE_H

#include <linux/sbm.h>
#include <linux/types.h>

#include "capability.h"
#include "policy.h"
#include "resource.h"

/* Longest reason for a failure that the unpacker can report. */
#define AA_UNPACK_INFO_LEN	64

/**
 * struct aa_unpacked_data - one key, value pair of a profile's data table
 * @key:   the key, a string the unpacker allocated
 * @value: the value, memory the unpacker allocated
 * @size:  the size of @value
 */
struct aa_unpacked_data {
	char *key;
	char *value;
	u32 size;
};

/**
 * struct aa_unpacked_profile - one profile, as the unpacker read it
 * @start:         where the profile starts in the blob, for its hash
 * @end:           where it ends
 * @version:       the interface version its header declared
 * @name:          the profile name, in the blob, after its namespace
 * @ns_name:       the namespace part of the name, in the blob, or %NULL
 * @ns_len:        the length of @ns_name, which is not terminated
 * @rename:        the profile to rename, in the blob, or %NULL
 * @attach:        the attachment string, in the blob, or %NULL
 * @disconnected:  the disconnected path prefix, allocated, or %NULL
 * @xmatch:        the attachment policy, allocated, or %NULL
 * @xmatch_len:    length of the attachment's plain prefix
 * @label_flags:   FLAG_HAT, FLAG_DEBUG1, FLAG_DEBUG2, FLAG_UNCONFINED
 * @mode:          enum profile_mode
 * @audit:         enum audit_mode
 * @path_flags:    the profile's path flags
 * @caps:          capability rules
 * @rlimits:       rlimit rules
 * @xattr_count:   number of entries of @xattrs
 * @xattrs:        allocated xattr names
 * @secmark_count: number of entries of @secmark
 * @secmark:       allocated secmark rules, with allocated labels
 * @policy:        the policy database, allocated, or %NULL for none
 * @file:          the file database, allocated, @policy when it shares
 *                 that one, or %NULL for none
 * @has_data:      whether the profile has a data table, even empty
 * @data_count:    number of entries of @data
 * @data:          the data table
 *
 * Each pointer leads to the blob, to memory that the unpacker allocated, or
 * is %NULL; an unpacker in SandBox Mode may have set any of them to anything.
 */
struct aa_unpacked_profile {
	const void *start;
	const void *end;
	u32 version;
	const char *name;
	const char *ns_name;
	size_t ns_len;
	const char *rename;
	const char *attach;
	char *disconnected;
	struct aa_policydb *xmatch;
	u32 xmatch_len;
	u32 label_flags;
	u32 mode;
	u32 audit;
	u32 path_flags;
	struct aa_caps caps;
	struct aa_rlimit rlimits;
	u32 xattr_count;
	char **xattrs;
	u32 secmark_count;
	struct aa_secmark *secmark;
	struct aa_policydb *policy;
	struct aa_policydb *file;
	bool has_data;
	u32 data_count;
	struct aa_unpacked_data *data;
};

/**
 * struct aa_unpacked - the unpacked image of a whole blob
 * @error:    0, or why unpacking failed
 * @info:     for the audit record of a failure
 * @pos:      where in the blob it failed
 * @name:     the name of the profile that failed, in the blob, or %NULL
 * @version:  the interface version the blob declares
 * @ns:       the namespace the header names, in the blob, or %NULL
 * @count:    how many entries of @profiles the unpacker allocated
 * @parsed:   how many of them it unpacked completely
 * @profiles: the profiles, in the order of the blob
 */
struct aa_unpacked {
	int error;
	char info[AA_UNPACK_INFO_LEN];
	const void *pos;
	const char *name;
	u32 version;
	const char *ns;
	u32 count;
	u32 parsed;
	struct aa_unpacked_profile *profiles;
};

SBM_DEFINE_CALL(aa_unpack_image, const void *, blob, size_t, size,
		bool, paranoid, struct aa_unpacked *, out);
int aa_unpack_image(const void *blob, size_t size, bool paranoid,
		    struct aa_unpacked *out);
void aa_unpacked_free(struct aa_unpacked *image);

/**
 * struct aa_unpack_ctx - where an image came from, and how far to trust it
 * @data:      the blob
 * @size:      its size
 * @view:      where the unpacker saw the blob: its copy in the sandbox, or
 *             @data
 * @sandboxed: whether @sbm unpacked it, rather than the kernel
 * @sbm:       the sandbox
 * @start:     where the profile that aa_unpack_import() built last lies in
 *             @data, for its hash
 * @len:       its length
 * @version:   the interface version of its header
 */
struct aa_unpack_ctx {
	char *data;
	size_t size;
	const char *view;
	bool sandboxed;
	struct sbm sbm;
	char *start;
	size_t len;
	u32 version;
};

int aa_unpack_run(struct aa_unpack_ctx *ctx, struct aa_unpacked *image);
void aa_unpack_done(struct aa_unpack_ctx *ctx, struct aa_unpacked *image);
struct aa_profile *aa_unpack_import(struct aa_unpack_ctx *ctx,
				    const struct aa_unpacked_profile *up,
				    char **ns_name, const char **info);

#endif /* __AA_UNPACK_IMAGE_H */
