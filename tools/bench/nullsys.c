// SPDX-License-Identifier: GPL-2.0
/* Cost of a null system call round trip from user space, in ns. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#define ITERATIONS 20000

int main(void)
{
	struct timespec a, b;
	long i;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < ITERATIONS; i++)
		syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("null_syscall 0 %lld\n",
	       ((b.tv_sec - a.tv_sec) * 1000000000LL + b.tv_nsec - a.tv_nsec) /
	       ITERATIONS);
	return 0;
}
