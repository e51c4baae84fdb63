// SPDX-License-Identifier: GPL-2.0
/*
 * The user-process half of the SandBox Mode boundary fuzzer's oracle, for
 * the fuzz-oracle scene:
 *
 *   sbm-fuzz-oracle SEED FIRST COUNT
 *
 * For each stream, asks the kernel (/sys/kernel/debug/sbm_fuzz/oracle) to
 * run it in a sandbox and to make it for this process's buffers, then
 * runs it in a child with the same start: the same buffer layout (guard,
 * two writable pages, guard, a read-only page, guard), a 16 KiB stack
 * with the sandbox's return address at its top (where an exit(0) is
 * mapped), every register zero but %rdi (the writable buffer) and %rsp,
 * an FS base of zero, RFLAGS 0x202. The parent traces the child: a system
 * call of the stream counts as SIGSYS and ends it, as does any signal;
 * SIGVTALRM after 200 ms of CPU time stands for the time limit.
 *
 * The signal (none, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS) and
 * where it came must match the sandbox's result. A difference that a
 * documented property of the sandbox explains is counted by its reason:
 * no FPU, UMIP emulated for processes only, no SYSCALL, kernel services,
 * kernel text mapped around the stream and readable, address bytes that
 * differ between the two streams. Streams with far transfers are not run
 * (see oracle_has_far_transfer() in the kernel). Any other difference is
 * a mismatch, printed with the stream. Writes a KTAP suite,
 * sandbox_mode_oracle, to /dev/kmsg.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE		4096
#define STREAM_MAX	1024
#define ITEMS_MAX	32
#define STACK_SIZE	(4 * PAGE)

struct answer {
	int ret;
	unsigned int aborts;
	char kind[16];
	long ip;
	char insn[8];
	unsigned int len;
	unsigned int items;
	unsigned int start[ITEMS_MAX];
	char item[ITEMS_MAX][16];
	unsigned char bytes[STREAM_MAX];
	unsigned char kbytes[STREAM_MAX];	/* as the sandbox ran it */
	int far;
	unsigned long addr;
	char why[96];
};

/* What the child saw, in memory it shares with the parent. */
struct outcome {
	int sig;		/* 0: returned; SIGVTALRM: ran out of time */
	long ip;		/* offset in the stream, -1 outside */
	long caller;		/* offset of the return address on the stack */
	unsigned long addr;	/* the address of a SIGSEGV, if it has one */
};

static unsigned char *code, *area, *stack_base;

/*
 * The sandbox's return address, which no sandbox maps. The process maps
 * an exit(0) there, so that the return address a stream finds on its
 * stack is the same in both.
 */
#define RETURN_ADDR	0x5b3d0000UL
/* Every kernel address is at least this, with 4- or 5-level paging. */
#define KERNEL_HALF	0xff00000000000000UL
static const unsigned char exit_stub[] = {
	0xb8, 0x3c, 0, 0, 0,	/* mov $60, %eax */
	0x31, 0xff,		/* xor %edi, %edi */
	0x0f, 0x05,		/* syscall */
};

/* Start the stream as the sandbox does, returning to RETURN_ADDR. */
void enter_stream(void *code, void *rw, void *sp);
asm(".text\n"
    ".globl enter_stream\n"
    "enter_stream:\n"
    "	movq %rdi, %r11\n"
    "	movq %rsi, %rdi\n"
    "	movq %rdx, %rsp\n"
    "	movq $0x5b3d0000, (%rsp)\n"
    "	pushq %r11\n"
    "	xorl %eax, %eax\n"
    "	xorl %ebx, %ebx\n"
    "	xorl %ecx, %ecx\n"
    "	xorl %edx, %edx\n"
    "	xorl %esi, %esi\n"
    "	xorl %ebp, %ebp\n"
    "	xorl %r8d, %r8d\n"
    "	xorl %r9d, %r9d\n"
    "	xorl %r10d, %r10d\n"
    "	xorl %r11d, %r11d\n"
    "	xorl %r12d, %r12d\n"
    "	xorl %r13d, %r13d\n"
    "	xorl %r14d, %r14d\n"
    "	xorl %r15d, %r15d\n"
    "	wrfsbase %rax\n"		/* the sandbox's FS base is 0 */
    "	pushq $0x202\n"
    "	popfq\n"
    "	ret\n");

/*
 * The child: stop for the parent to trace it, then run the stream. The
 * parent sees each signal before it is delivered, and each system call.
 */
static void child(const struct answer *a)
{
	struct itimerval limit = { .it_value = { 0, 200000 } };
	long nr = SYS_kill;
	pid_t pid;

	memset(area + PAGE, 0, 2 * PAGE);
	memset(code, 0xcc, PAGE);
	memcpy(code, a->bytes, a->len);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(101);
	setitimer(ITIMER_VIRTUAL, &limit, NULL);
	/* No system call between this stop and the stream. */
	pid = getpid();
	asm volatile("syscall" : "+a" (nr) : "D" (pid), "S" (SIGSTOP)
		     : "rcx", "r11", "memory");
	enter_stream(code, area + PAGE, stack_base + PAGE + STACK_SIZE - 8);
}

static long code_offset(unsigned long ip)
{
	return ip >= (unsigned long)code && ip < (unsigned long)code + PAGE ?
	       (long)(ip - (unsigned long)code) : -1;
}

/*
 * How the child ended: returned (sig 0), ran out of time (SIGVTALRM), a
 * signal at an offset of the stream or outside it, or a system call of
 * the stream (SIGSYS). A call to an address outside the stream leaves its
 * return address on top of the stack, which tells the item that made it.
 */
static int trace(pid_t pid, struct outcome *o)
{
	struct user_regs_struct regs;
	siginfo_t info;
	int status, sig = 0;
	long ret;

	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status) ||
	    ptrace(PTRACE_SETOPTIONS, pid, NULL,
		   PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL))
		return -1;
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, (void *)(long)sig) ||
		    waitpid(pid, &status, 0) != pid) {
			perror("sbm-fuzz-oracle: PTRACE_SYSCALL");
			return -1;
		}
		sig = 0;
		/* A kill with no stop before it (SIGKILL) leaves no address. */
		if (WIFSIGNALED(status)) {
			o->sig = WTERMSIG(status);
			o->ip = o->caller = -2;
			return 0;
		}
		if (WIFEXITED(status)) {
			fprintf(stderr, "sbm-fuzz-oracle: child exited (%d)\n",
				WEXITSTATUS(status));
			return -1;
		}
		if (ptrace(PTRACE_GETREGS, pid, NULL, &regs)) {
			perror("sbm-fuzz-oracle: PTRACE_GETREGS");
			return -1;
		}
		if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
			o->sig = regs.rip == RETURN_ADDR + sizeof(exit_stub) ? 0 : SIGSYS;
			o->ip = code_offset(regs.rip - 2);
			break;
		}
		o->sig = WSTOPSIG(status);
		o->ip = code_offset(regs.rip);
		o->addr = 0;
		if (o->sig == SIGSEGV &&
		    !ptrace(PTRACE_GETSIGINFO, pid, NULL, &info))
			o->addr = (unsigned long)info.si_addr;
		break;
	}
	o->caller = -1;
	errno = 0;
	ret = ptrace(PTRACE_PEEKDATA, pid, (void *)regs.rsp, NULL);
	if (!errno)
		o->caller = code_offset(ret - 1);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return 0;
}

static int parse(char *line, struct answer *a)
{
	char *kbytes, *items, *bytes, *far, *addr, *why, *tok, *save;
	unsigned int i;

	memset(a, 0, sizeof(*a));
	if (sscanf(line, "ret=%d aborts=%u kind=%15s ip=%ld insn=%7s len=%u",
		   &a->ret, &a->aborts, a->kind, &a->ip, a->insn, &a->len) != 6 ||
	    a->len > STREAM_MAX)
		return -1;
	kbytes = strstr(line, " kbytes=");
	items = strstr(line, " items=");
	bytes = strstr(line, " bytes=");
	far = strstr(line, " far=");
	addr = strstr(line, " addr=");
	why = strstr(line, " why=");
	if (!kbytes || !items || !bytes || !far || !addr || !why ||
	    sscanf(far, " far=%d addr=%lx", &a->far, &a->addr) != 2)
		return -1;
	*bytes = 0;
	*far = 0;
	*addr = 0;
	snprintf(a->why, sizeof(a->why), "%s", why + 5);
	a->why[strcspn(a->why, "\n")] = 0;
	for (tok = strtok_r(items + 7, ",", &save); tok && a->items < ITEMS_MAX;
	     tok = strtok_r(NULL, ",", &save)) {
		if (sscanf(tok, "%u.%15s", &a->start[a->items], a->item[a->items]) != 2)
			return -1;
		a->items++;
	}
	for (i = 0; i < a->len; i++)
		if (sscanf(bytes + 7 + 2 * i, "%2hhx", &a->bytes[i]) != 1 ||
		    sscanf(kbytes + 8 + 2 * i, "%2hhx", &a->kbytes[i]) != 1)
			return -1;
	return 0;
}

/* The item that the byte at @off belongs to. */
static const char *item_at(const struct answer *a, long off)
{
	const char *kind = "none";
	unsigned int i;

	for (i = 0; i < a->items && off >= 0; i++)
		if (a->start[i] <= off)
			kind = a->item[i];
	return kind;
}

/* The signals a process gets where the sandbox aborted for @a's reason. */
static int expected(const struct answer *a, int sig)
{
	const char *k = a->kind;

	if (!strcmp(k, "pf") || !strcmp(k, "gp"))
		return sig == SIGSEGV || sig == SIGBUS;
	if (!strcmp(k, "ud"))
		return sig == SIGILL;
	if (!strcmp(k, "bp"))
		return sig == SIGTRAP;
	if (!strcmp(k, "de"))
		return sig == SIGFPE;
	if (!strcmp(k, "syscall"))
		return sig == SIGSYS || sig == SIGSEGV || sig == SIGILL;
	if (!strcmp(k, "forbidden") || !strcmp(k, "service"))
		return sig == SIGSEGV;
	if (!strcmp(k, "timeout"))
		return sig == SIGVTALRM;
	if (!strcmp(k, "none"))
		return sig == 0;
	/* other */
	if (strstr(a->why, "floating-point error"))
		return sig == SIGFPE;
	if (strstr(a->why, "alignment") || strstr(a->why, "stack segment"))
		return sig == SIGBUS;
	return sig == SIGSEGV || sig == SIGBUS;
}

enum verdict {
	MATCH, FPU, UMIP, SCE, SERVICE, TEXT, ADDRESS, FAR, MISMATCH, NR_VERDICTS
};
static const char *const verdict_names[] = {
	"match", "fpu", "umip", "sce", "service", "text", "address", "far",
	"mismatch",
};

/* Whether the 16 bytes up to @off hold one that differs between the two. */
static int near_address(const struct answer *a, long off)
{
	long i;

	if (off < 0 || off >= (long)a->len)
		return 0;
	for (i = off > 15 ? off - 15 : 0; i <= off; i++)
		if (a->bytes[i] != a->kbytes[i])
			return 1;
	return 0;
}

/*
 * Where the two stop: an offset in the stream, -1 outside it, LONG_MAX if
 * they ran to the end (returned or timed out).
 */
static enum verdict judge(const struct answer *a, const struct outcome *o)
{
	long s = a->aborts && strcmp(a->kind, "timeout") ? a->ip : 0x7fffffff;
	long u = o->sig && o->sig != SIGVTALRM ? o->ip : 0x7fffffff;

	if (s == u && expected(a, o->sig))
		return MATCH;
	/* The sandbox stopped first, at what only a process may run. */
	if (s >= 0 && s < 0x7fffffff && (u > s || u < 0)) {
		if (!strcmp(a->insn, "fpu") || !strcmp(a->why, "FPU or SIMD instruction"))
			return FPU;
		if (!strcmp(a->insn, "umip"))
			return UMIP;
		if (!strcmp(a->insn, "sce"))
			return SCE;
	}
	if (s == u && !strcmp(a->insn, "sce"))
		return SCE;
	/* x87 opcodes raise #NM before #UD: no FPU in the sandbox. */
	if (s == u && o->sig == SIGILL && !strcmp(a->why, "FPU or SIMD instruction"))
		return FPU;
	/*
	 * The process jumped out of the stream, where it has nothing and the
	 * sandbox has kernel text, which it may run and come back from.
	 */
	if (u == -1 && o->sig == SIGSEGV && o->caller < 0)
		return TEXT;
	/*
	 * The sandbox may read kernel text and read-only data, which the
	 * process faults on, whether an item aimed at them or random bytes
	 * hit them. (sandbox_mode_fuzz audits that nothing else is mapped.)
	 */
	if (u >= 0 && o->sig == SIGSEGV && (s > u || s == -1) &&
	    (!strcmp(item_at(a, u), "kernel") || o->addr >= KERNEL_HALF))
		return TEXT;
	/* The process stopped first, calling a service it does not have. */
	if (o->sig == SIGSEGV && u == -1 && o->caller >= 0 &&
	    (s > o->caller || s == -1) && !strcmp(item_at(a, o->caller), "service"))
		return SERVICE;
	/*
	 * Near the bytes of an address, which differ between the two, a
	 * jump into the middle of an instruction can make them run apart.
	 */
	if (near_address(a, s) || near_address(a, u))
		return ADDRESS;
	return MISMATCH;
}

static void kmsg(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void kmsg(int fd, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (write(fd, line, n) < 0)
		perror("kmsg");
}

int main(int argc, char **argv)
{
	unsigned long seed, first, count, i, counts[NR_VERDICTS] = { 0 };
	static char line[8192], copy[8192];
	struct outcome o;
	struct answer a;
	int fd, kfd;

	if (argc != 4)
		return fprintf(stderr, "usage: sbm-fuzz-oracle SEED FIRST COUNT\n"), 1;
	seed = strtoul(argv[1], NULL, 0);
	first = strtoul(argv[2], NULL, 0);
	count = strtoul(argv[3], NULL, 0);
	fd = open("/sys/kernel/debug/sbm_fuzz/oracle", O_RDWR);
	kfd = open("/dev/kmsg", O_WRONLY);
	code = mmap(NULL, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	area = mmap(NULL, 6 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack_base = mmap(NULL, STACK_SIZE + 2 * PAGE, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fd < 0 || kfd < 0 || code == MAP_FAILED ||
	    area == MAP_FAILED || stack_base == MAP_FAILED ||
	    mprotect(area + PAGE, 2 * PAGE, PROT_READ | PROT_WRITE) ||
	    mprotect(area + 4 * PAGE, PAGE, PROT_READ | PROT_WRITE) ||
	    mprotect(stack_base + PAGE, STACK_SIZE, PROT_READ | PROT_WRITE))
		return perror("sbm-fuzz-oracle: setup"), 1;
	if (mmap((void *)RETURN_ADDR, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) !=
	    (void *)RETURN_ADDR)
		return perror("sbm-fuzz-oracle: return address"), 1;
	memcpy((void *)RETURN_ADDR, exit_stub, sizeof(exit_stub));
	memset(area + 4 * PAGE, 0x5a, PAGE);
	mprotect(area + 4 * PAGE, PAGE, PROT_READ);

	for (i = first; i < first + count; i++) {
		enum verdict v;
		ssize_t n;
		pid_t pid;

		dprintf(fd, "%lu %lu %lx %lx\n", seed, i,
			(unsigned long)(area + PAGE), (unsigned long)(area + 4 * PAGE));
		n = read(fd, line, sizeof(line) - 1);
		if (n <= 0)
			return perror("sbm-fuzz-oracle: read"), 1;
		line[n] = 0;
		memcpy(copy, line, n + 1);
		if (parse(line, &a))
			return fprintf(stderr, "sbm-fuzz-oracle: bad answer: %s", line), 1;
		/* Not run: under QEMU's TCG they oops the kernel (see far=). */
		if (a.far) {
			counts[FAR]++;
			continue;
		}
		pid = fork();
		if (pid == 0)
			child(&a);
		if (pid < 0 || trace(pid, &o))
			return fprintf(stderr, "sbm-fuzz-oracle: stream %lu: cannot trace the child\n%s",
				       i, copy), 1;
		v = judge(&a, &o);
		counts[v]++;
		if (v == MISMATCH && counts[v] <= 16) {
			printf("mismatch: seed %lu stream %lu: sandbox %s at %ld (%s, insn %s), process signal %d at %ld (caller %ld)\n",
			       seed, i, a.kind, a.ip, a.why, a.insn, o.sig, o.ip,
			       o.caller);
			fputs(copy, stdout);
		}
	}
	printf("oracle: seed %lu, streams %lu..%lu:", seed, first, first + count - 1);
	for (i = 0; i < NR_VERDICTS; i++)
		printf(" %s %lu", verdict_names[i], counts[i]);
	printf("\n");

	kmsg(kfd, "    1..1\n");
	kmsg(kfd, "    # result_class: seed %lu, %lu streams: %lu match, explained: %lu no FPU, %lu UMIP, %lu no SYSCALL, %lu services, %lu kernel text, %lu addresses; %lu not run (far transfers); %lu mismatches\n",
	     seed, count, counts[MATCH], counts[FPU], counts[UMIP], counts[SCE],
	     counts[SERVICE], counts[TEXT], counts[ADDRESS], counts[FAR],
	     counts[MISMATCH]);
	kmsg(kfd, "    %s 1 result_class\n", counts[MISMATCH] ? "not ok" : "ok");
	kmsg(kfd, "%s 1 sandbox_mode_oracle\n", counts[MISMATCH] ? "not ok" : "ok");
	return 0;
}
