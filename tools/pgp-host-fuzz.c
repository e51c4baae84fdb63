// SPDX-License-Identifier: GPL-2.0
/*
 * Host fuzzing of the OpenPGP packet parser: the kernel's pgp_packet.c,
 * compiled for user space with AddressSanitizer and UBSan by
 * tools/pgp-host-fuzz.sh, which also supplies the few kernel helpers it
 * uses (pgp-host-fuzz.h).
 *
 *   pgp-host-fuzz files FILE...     parse each file
 *   pgp-host-fuzz mutate SEED N FILE...
 *                                   parse N seeded mutations of the files
 *
 * Each parse must return 0, -EBADMSG, -EINVAL or -ENOPKG, and a
 * description that stays inside the blob; a sanitizer report ends the
 * process. Prints "parsed N", then "result ERRNO COUNT" lines; exits 1
 * if a result broke the rules.
 */

#include <stdio.h>
#include <stdlib.h>

#include "pgp_parser.h"

#define MAX_BLOB	(1024 * 1024)

static struct pgp_key_desc desc;
static unsigned long counts[4], parsed, broken;

static int result_index(int ret)
{
	switch (ret) {
	case 0:
		return 0;
	case -EBADMSG:
		return 1;
	case -EINVAL:
		return 2;
	case -ENOPKG:
		return 3;
	}
	return -1;
}

static int span_inside(const struct pgp_span *span, size_t len)
{
	return span->offset <= len && span->len <= len - span->offset;
}

/* What a successful parse promises about its description. */
static int desc_sane(size_t len)
{
	unsigned int i;

	if (!desc.nr_packets || desc.nr_packets > PGP_MAX_PACKETS ||
	    desc.nr_sigs > PGP_MAX_SIGS)
		return 0;
	for (i = 0; i < desc.nr_packets; i++)
		if (!span_inside(&desc.packets[i].body, len))
			return 0;
	for (i = 0; i < desc.nr_sigs; i++)
		if (desc.sigs[i].packet >= desc.nr_packets ||
		    desc.sigs[i].issuer_fpr_len > PGP_V6_FPR_SIZE)
			return 0;
	return span_inside(&desc.material, len) &&
	       span_inside(&desc.mpi[0], len) &&
	       span_inside(&desc.mpi[1], len) &&
	       desc.curve < PGP_CURVE_NR;
}

static void parse(const char *what, const unsigned char *blob, size_t len)
{
	/* An exact-size copy, so that ASan sees any read past its end. */
	unsigned char *copy = malloc(len ? len : 1);
	int ret, i;

	memcpy(copy, blob, len);
	ret = pgp_parse_key(copy, len, &desc, PGP_FAULT_NONE);
	i = result_index(ret);
	parsed++;
	if (i < 0 || (!ret && !desc_sane(len))) {
		printf("broken %s: %d\n", what, ret);
		broken++;
	} else {
		counts[i]++;
	}
	free(copy);
}

static unsigned char *load(const char *path, size_t *len)
{
	unsigned char *buf = malloc(MAX_BLOB);
	FILE *f = fopen(path, "rb");

	if (!buf || !f) {
		perror(path);
		exit(2);
	}
	*len = fread(buf, 1, MAX_BLOB, f);
	fclose(f);
	return buf;
}

static unsigned long long rng;

static unsigned int next(unsigned int bound)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return bound ? rng % bound : 0;
}

/* Octets where length encodings change meaning. */
static const unsigned char boundary[] = {
	0, 0x7f, 0x80, 0xbf, 0xc0, 0xdf, 0xe0, 0xff
};

/* One mutation of @src into @dst, which has room for MAX_BLOB octets. */
static size_t mutate(unsigned char *dst, const unsigned char *src, size_t len)
{
	size_t n = len, i, at, chunk;

	memcpy(dst, src, len);
	switch (next(6)) {
	case 0:		/* truncate */
		return next(len + 1);
	case 1:		/* flip bits */
		for (i = 1 + next(4); i; i--)
			dst[next(len)] ^= 1 << next(8);
		return n;
	case 2:		/* set bytes to a boundary value */
		for (i = 1 + next(3); i; i--)
			dst[next(len)] = boundary[next(sizeof(boundary))];
		return n;
	case 3:		/* repeat a chunk */
		at = next(len);
		chunk = 1 + next(len - at);
		for (i = 1 + next(200); i && n + chunk <= MAX_BLOB; i--) {
			memmove(dst + at + chunk, dst + at, n - at);
			n += chunk;
		}
		return n;
	case 4:		/* drop a chunk */
		at = next(len);
		chunk = next(len - at + 1);
		memmove(dst + at, dst + at + chunk, n - at - chunk);
		return n - chunk;
	default:	/* random tail */
		at = next(len);
		for (i = at; i < len; i++)
			dst[i] = next(256);
		return n;
	}
}

int main(int argc, char **argv)
{
	static const char * const names[] = {
		"ok", "EBADMSG", "EINVAL", "ENOPKG"
	};
	unsigned char **blobs, *out;
	unsigned long i, rounds;
	size_t *lens, len;
	char what[64];
	int first, nr, k;

	if (argc >= 3 && !strcmp(argv[1], "files")) {
		first = 2;
	} else if (argc >= 5 && !strcmp(argv[1], "mutate")) {
		rng = strtoull(argv[2], NULL, 0) * 2654435761ULL + 1;
		rounds = strtoul(argv[3], NULL, 0);
		first = 4;
	} else {
		fprintf(stderr, "usage: %s files FILE... | mutate SEED N FILE...\n",
			argv[0]);
		return 2;
	}
	nr = argc - first;
	blobs = calloc(nr, sizeof(*blobs));
	lens = calloc(nr, sizeof(*lens));
	for (k = 0; k < nr; k++)
		blobs[k] = load(argv[first + k], &lens[k]);

	if (first == 2) {
		for (k = 0; k < nr; k++)
			parse(argv[first + k], blobs[k], lens[k]);
	} else {
		out = malloc(MAX_BLOB);
		for (i = 0; i < rounds; i++) {
			k = next(nr);
			if (!lens[k])
				continue;
			len = mutate(out, blobs[k], lens[k]);
			snprintf(what, sizeof(what), "mutation %lu of %d", i, k);
			parse(what, out, len);
		}
		free(out);
	}
	for (k = 0; k < nr; k++)
		free(blobs[k]);
	free(blobs);
	free(lens);
	printf("parsed %lu\n", parsed);
	for (k = 0; k < 4; k++)
		printf("result %s %lu\n", names[k], counts[k]);
	return broken ? 1 : 0;
}
