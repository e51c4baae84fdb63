// SPDX-License-Identifier: GPL-2.0
/*
 * Add OpenPGP keys to the kernel as asymmetric keys and use them, with the
 * raw system calls (no libkeyutils), for the scenes of the OpenPGP key
 * parser. Every line it prints is one result, its first word the
 * subcommand:
 *
 *   pgp-load add FILE
 *	add_key("asymmetric", NULL, FILE's contents) to the user keyring (the
 *	parser picks the description): "add FILE ok SERIAL DESCRIPTION" or
 *	"add FILE ERRNO" (EBADMSG, ENOPKG, ...).
 *   pgp-load verify SERIAL DIGEST KSIG PARAMSFILE
 *	keyctl pkey_verify of the signature in file KSIG over the digest in
 *	file DIGEST, with the info string in PARAMSFILE ("enc=pkcs1
 *	hash=sha256"): "verify ok" or "verify ERRNO".
 *   pgp-load unlink SERIAL
 *	unlink the key from the user keyring, so that it is garbage
 *	collected: "unlink SERIAL ok" or "unlink SERIAL ERRNO".
 *   pgp-load fuzz DIR
 *	add each file of DIR whose name ends in ".bin", in name order,
 *	unlinking at once each that was added: "fuzz NAME ok" or "fuzz NAME
 *	ERRNO" per file, then "fuzz-total N" and "fuzz-count RESULT COUNT"
 *	per result.
 *   pgp-load bench FILE ROUNDS
 *	add and unlink FILE ROUNDS times: "bench FILE ROUNDS NS", NS the mean
 *	nanoseconds of one add_key() call (the unlinks are not timed).
 *
 * ERRNO is the errno's name, or "E" and its number for one not named here.
 * Exits 1 on a usage error or a file it cannot read, 0 otherwise.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/keyctl.h>

#include "guest-file.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#ifndef KEYCTL_PKEY_VERIFY
#define KEYCTL_PKEY_VERIFY	28
struct keyctl_pkey_params {
	int key_id;
	unsigned int in_len;
	union {
		unsigned int out_len;
		unsigned int in2_len;
	};
	unsigned int __spare[7];
};
#endif

static const struct {
	int err;
	const char *name;
} errnames[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EIO, "EIO" },
	{ E2BIG, "E2BIG" }, { EBADF, "EBADF" }, { EAGAIN, "EAGAIN" },
	{ ENOMEM, "ENOMEM" }, { EACCES, "EACCES" }, { EFAULT, "EFAULT" },
	{ EBUSY, "EBUSY" }, { EEXIST, "EEXIST" }, { ENODEV, "ENODEV" },
	{ EINVAL, "EINVAL" }, { ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" },
	{ EDEADLK, "EDEADLK" }, { ENOSYS, "ENOSYS" }, { ENODATA, "ENODATA" },
	{ ETIME, "ETIME" }, { ENOPKG, "ENOPKG" }, { EPROTO, "EPROTO" },
	{ EBADMSG, "EBADMSG" }, { EOVERFLOW, "EOVERFLOW" },
	{ EILSEQ, "EILSEQ" }, { EMSGSIZE, "EMSGSIZE" },
	{ EOPNOTSUPP, "EOPNOTSUPP" }, { ETIMEDOUT, "ETIMEDOUT" },
	{ ECANCELED, "ECANCELED" }, { ENOKEY, "ENOKEY" },
	{ EKEYEXPIRED, "EKEYEXPIRED" }, { EKEYREVOKED, "EKEYREVOKED" },
	{ EKEYREJECTED, "EKEYREJECTED" }, { EDQUOT, "EDQUOT" },
};

static const char *errname(int err)
{
	static char buf[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnames); i++)
		if (errnames[i].err == err)
			return errnames[i].name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static long add_key(const char *type, const char *desc, const void *payload,
		    size_t plen, int keyring)
{
	return syscall(SYS_add_key, type, desc, payload, plen, keyring);
}

static long keyctl(int op, unsigned long a2, unsigned long a3,
		   unsigned long a4, unsigned long a5)
{
	return syscall(SYS_keyctl, op, a2, a3, a4, a5);
}

static char *slurp_or_die(const char *path, size_t *size)
{
	char *buf = slurp(path, size);

	if (!buf) {
		fprintf(stderr, "pgp-load: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return buf;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmd_add(const char *path)
{
	char desc[4096], *p;
	size_t size;
	char *buf = slurp_or_die(path, &size);
	long serial, n;
	int i;

	serial = add_key("asymmetric", NULL, buf, size,
			 KEY_SPEC_USER_KEYRING);
	free(buf);
	if (serial < 0) {
		printf("add %s %s\n", path, errname(errno));
		return 0;
	}
	/* "type;uid;gid;perm;description": the description is the rest. */
	n = keyctl(KEYCTL_DESCRIBE, serial, (unsigned long)desc,
		   sizeof(desc), 0);
	if (n < 0 || n > (long)sizeof(desc)) {
		printf("add %s ok %ld describe-%s\n", path, serial,
		       n < 0 ? errname(errno) : "too-long");
		return 0;
	}
	desc[n ? n - 1 : 0] = 0;
	p = desc;
	for (i = 0; i < 4 && p; i++) {
		p = strchr(p, ';');
		if (p)
			p++;
	}
	printf("add %s ok %ld %s\n", path, serial, p ? p : "");
	return 0;
}

static int cmd_verify(const char *serial, const char *digest_path,
		      const char *sig_path, const char *params_path)
{
	struct keyctl_pkey_params params;
	size_t digest_len, sig_len, info_len;
	char *digest = slurp_or_die(digest_path, &digest_len);
	char *sig = slurp_or_die(sig_path, &sig_len);
	char *info = slurp_or_die(params_path, &info_len);
	char *info_z = calloc(1, info_len + 1);
	long ret;

	if (!info_z) {
		perror("pgp-load");
		return 1;
	}
	/* The first line of PARAMSFILE, without its newline. */
	memcpy(info_z, info, info_len);
	info_z[strcspn(info_z, "\n")] = 0;
	memset(&params, 0, sizeof(params));
	params.key_id = strtol(serial, NULL, 0);
	params.in_len = digest_len;
	params.in2_len = sig_len;
	ret = keyctl(KEYCTL_PKEY_VERIFY, (unsigned long)&params,
		     (unsigned long)info_z, (unsigned long)digest,
		     (unsigned long)sig);
	if (ret < 0)
		printf("verify %s\n", errname(errno));
	else
		printf("verify ok\n");
	free(info_z);
	free(info);
	free(sig);
	free(digest);
	return 0;
}

static int cmd_unlink(const char *serial)
{
	long ret = keyctl(KEYCTL_UNLINK, strtol(serial, NULL, 0),
			  KEY_SPEC_USER_KEYRING, 0, 0);

	printf("unlink %s %s\n", serial, ret < 0 ? errname(errno) : "ok");
	return 0;
}

static int is_bin(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && !strcmp(d->d_name + n - 4, ".bin");
}

static int cmd_fuzz(const char *dir)
{
	struct {
		const char *name;
		int count;
	} counts[64];
	int nr_counts = 0, total = 0, status = 0, i, j, n;
	struct dirent **list;

	n = scandir(dir, &list, is_bin, alphasort);
	if (n < 0) {
		fprintf(stderr, "pgp-load: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		char path[4096];
		const char *result;
		size_t size;
		char *buf;
		long serial;

		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		buf = slurp(path, &size);
		if (!buf) {
			fprintf(stderr, "pgp-load: %s: %s\n", path,
				strerror(errno));
			status = 1;
			free(list[i]);
			continue;
		}
		serial = add_key("asymmetric", NULL, buf, size,
				 KEY_SPEC_USER_KEYRING);
		free(buf);
		if (serial >= 0) {
			result = "ok";
			keyctl(KEYCTL_UNLINK, serial, KEY_SPEC_USER_KEYRING,
			       0, 0);
		} else {
			result = errname(errno);
		}
		printf("fuzz %s %s\n", list[i]->d_name, result);
		total++;
		for (j = 0; j < nr_counts; j++)
			if (!strcmp(counts[j].name, result))
				break;
		if (j == nr_counts && nr_counts < 64) {
			counts[j].name = strdup(result);
			counts[j].count = 0;
			nr_counts++;
		}
		if (j < nr_counts)
			counts[j].count++;
		free(list[i]);
	}
	free(list);
	printf("fuzz-total %d\n", total);
	for (j = 0; j < nr_counts; j++)
		printf("fuzz-count %s %d\n", counts[j].name, counts[j].count);
	return status;
}

static int cmd_bench(const char *path, const char *rounds_arg)
{
	long rounds = strtol(rounds_arg, NULL, 0), i;
	long long ns = 0, t0;
	size_t size;
	char *buf = slurp_or_die(path, &size);
	long serial;

	if (rounds <= 0) {
		fprintf(stderr, "pgp-load: bench: bad ROUNDS %s\n", rounds_arg);
		return 1;
	}
	for (i = 0; i < rounds; i++) {
		t0 = now_ns();
		serial = add_key("asymmetric", NULL, buf, size,
				 KEY_SPEC_USER_KEYRING);
		ns += now_ns() - t0;
		if (serial < 0) {
			printf("bench %s %ld %s\n", path, rounds,
			       errname(errno));
			free(buf);
			return 0;
		}
		keyctl(KEYCTL_UNLINK, serial, KEY_SPEC_USER_KEYRING, 0, 0);
	}
	printf("bench %s %ld %lld\n", path, rounds, ns / rounds);
	free(buf);
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: pgp-load add FILE\n"
		"       pgp-load verify SERIAL DIGEST KSIG PARAMSFILE\n"
		"       pgp-load unlink SERIAL\n"
		"       pgp-load fuzz DIR\n"
		"       pgp-load bench FILE ROUNDS\n");
	return 1;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "add"))
		return cmd_add(argv[2]);
	if (argc == 6 && !strcmp(argv[1], "verify"))
		return cmd_verify(argv[2], argv[3], argv[4], argv[5]);
	if (argc == 3 && !strcmp(argv[1], "unlink"))
		return cmd_unlink(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "fuzz"))
		return cmd_fuzz(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "bench"))
		return cmd_bench(argv[2], argv[3]);
	return usage();
}
