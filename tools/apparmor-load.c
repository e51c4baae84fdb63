// SPDX-License-Identifier: GPL-2.0
/*
 * Load binary AppArmor policies, each with exactly one write(), as the
 * kernel wants them (apparmorfs takes every write as a whole policy; a
 * shell's cat may split a file into several), and say how each went.
 *
 *   apparmor-load TAG TARGET FILE...
 *
 * For each FILE, writes "TAG NAME RESULT" on standard output, NAME being
 * the file's base name without ".bin" and RESULT "ok", the errno name of
 * a failed write (EPROTO, EINVAL, ...) or "short-N" if the kernel took
 * only N bytes. TARGET is .load or .replace of apparmorfs.
 *
 * After each write it reads what the kernel logged meanwhile from
 * /dev/kmsg and writes each line that tells of kernel trouble (an oops,
 * BUG, WARNING, a report of SandBox Mode, ...) as "trouble TAG NAME
 * LINE", so that trouble is tied to the policy that caused it; and
 * "trouble TAG NAME kmsg-lost" if messages were lost before it could
 * read them. Exits 1 if a file cannot be read, 0 otherwise.
 *
 * With APPARMOR_LOAD_TIME set in the environment it ends with "time TAG
 * NS", the nanoseconds that the writes took together, for benchmarks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <sys/stat.h>

#include "guest-file.h"

/* What tools/ktap.py calls trouble, and the reports of SandBox Mode. */
static const char *const trouble[] = {
	"BUG:", "Oops", "WARNING:", "Kernel panic", "kernel BUG at",
	"general protection", "Call Trace:", "soft lockup", "hard LOCKUP",
	"rcu: INFO", "UBSAN:", "KASAN:", "KFENCE:", "refcount_t:",
	"list_add corruption", "list_del corruption", "stack-protector",
	"sbm: ", NULL,
};

static void name_of(const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".bin"))
		n -= 4;
	if (n >= len)
		n = len - 1;
	memcpy(name, base, n);
	name[n] = 0;
}

/* Report the trouble among the kernel's messages since the last call. */
static void scan_kmsg(int kmsg, const char *tag, const char *name)
{
	char rec[8192];

	if (kmsg < 0)
		return;
	for (;;) {
		ssize_t n = read(kmsg, rec, sizeof(rec) - 1);
		char *msg, *end;
		int i;

		if (n < 0 && errno == EPIPE) {
			/* Overwritten before we read it; go on with the next. */
			printf("trouble %s %s kmsg-lost\n", tag, name);
			continue;
		}
		if (n <= 0)
			return;
		rec[n] = 0;
		/* "prio,seq,time,flags;message\n" then " KEY=value" lines. */
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		end = strchr(msg, '\n');
		if (end)
			*end = 0;
		for (i = 0; trouble[i]; i++) {
			if (strstr(msg, trouble[i])) {
				printf("trouble %s %s %s\n", tag, name, msg);
				break;
			}
		}
	}
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int i, kmsg, status = 0;
	long long write_ns = 0, t0;

	if (argc < 3) {
		fprintf(stderr, "usage: apparmor-load TAG TARGET FILE...\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
	for (i = 3; i < argc; i++) {
		char name[256];
		size_t size;
		ssize_t ret;
		char *buf = slurp(argv[i], &size);
		int fd;

		name_of(argv[i], name, sizeof(name));
		if (!buf) {
			fprintf(stderr, "apparmor-load: %s: %s\n", argv[i],
				strerror(errno));
			status = 1;
			continue;
		}
		fd = open(argv[2], O_WRONLY);
		if (fd < 0) {
			printf("%s %s open-%s\n", argv[1], name,
			       strerrorname_np(errno) ?: "E?");
			free(buf);
			continue;
		}
		t0 = now_ns();
		ret = write(fd, buf, size);
		write_ns += now_ns() - t0;
		if (ret < 0) {
			const char *e = strerrorname_np(errno);

			if (e)
				printf("%s %s %s\n", argv[1], name, e);
			else
				printf("%s %s E%d\n", argv[1], name, errno);
		} else if ((size_t)ret != size) {
			printf("%s %s short-%zd\n", argv[1], name, ret);
		} else {
			printf("%s %s ok\n", argv[1], name);
		}
		close(fd);
		free(buf);
		scan_kmsg(kmsg, argv[1], name);
	}
	if (getenv("APPARMOR_LOAD_TIME"))
		printf("time %s %lld\n", argv[1], write_ns);
	return status;
}
