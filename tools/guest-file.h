/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest tools (apparmor-load.c, pgp-load.c) share: reading a
 * whole file.
 */

#ifndef GUEST_FILE_H
#define GUEST_FILE_H

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* The contents of a file, in a buffer of its own (at least one octet). */
static char *slurp(const char *path, size_t *size)
{
	struct stat st;
	size_t done = 0;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return NULL;
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	while (buf && done < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + done, st.st_size - done);

		if (n <= 0) {
			free(buf);
			buf = NULL;
			break;
		}
		done += n;
	}
	close(fd);
	*size = done;
	return buf;
}

#endif /* GUEST_FILE_H */
