// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 SandBox Mode boundary fuzzer: the oracle's kernel half.
 *
 * A user-space program writes "SEED INDEX RW RO" to
 * /sys/kernel/debug/sbm_fuzz/oracle, with the addresses of two buffers
 * laid out as the fuzzer's are. The kernel runs
 * stream INDEX of SEED in a sandbox and answers with how the call ended,
 * the class of the instruction it stopped at, and the same stream made for
 * the process's buffers, which the process then runs itself: the signal it
 * gets must match the sandbox's result. The answer is one line:
 *
 *   ret=RET aborts=N kind=KIND ip=OFF insn=CLASS len=LEN kbytes=HEX
 *   items=START.KIND,... bytes=HEX far=FAR addr=ADDR why=REASON
 *
 * KIND is the abort's (pf, gp, ud, bp, de, syscall, timeout, forbidden,
 * service, other; none if the call completed), OFF the offset in the
 * stream where the sandbox stopped (-1 if outside it or not stopped),
 * CLASS "fpu", "umip", "sce" or "-" (see oracle_insn_class()), the bytes
 * of the stream the sandbox ran, the items
 * the process's stream is made of with their offsets, its bytes, whether
 * it holds a far transfer (see oracle_has_far_transfer()), the address of
 * a page fault and the abort's reason.
 */

#define pr_fmt(fmt) "sbm_fuzz: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/insn.h>
#include <trace/events/sbm.h>

#include "sbm.h"
#include "sbm_fuzz.h"

/* Long enough that a spin, not a slow stream, is what it stops. */
#define ORACLE_TIME_LIMIT_MS	100
#define ORACLE_OUT_SIZE		(4 * SBM_FUZZ_STREAM_MAX)

static DEFINE_MUTEX(oracle_lock);

static const char * const oracle_abort_names[SBM_ABORT_NR] = {
	[SBM_ABORT_PAGE_FAULT]		= "pf",
	[SBM_ABORT_GENERAL_PROTECTION]	= "gp",
	[SBM_ABORT_INVALID_OPCODE]	= "ud",
	[SBM_ABORT_BREAKPOINT]		= "bp",
	[SBM_ABORT_DIVIDE_ERROR]	= "de",
	[SBM_ABORT_SYSCALL]		= "syscall",
	[SBM_ABORT_TIME_LIMIT]		= "timeout",
	[SBM_ABORT_FORBIDDEN_CALL]	= "forbidden",
	[SBM_ABORT_SERVICE_ARGUMENT]	= "service",
	[SBM_ABORT_OTHER]		= "other",
};

static const char * const oracle_item_names[SBM_FUZZ_KINDS] = {
	[SBM_FUZZ_RANDOM]	 = "random",
	[SBM_FUZZ_FLAGS]	 = "flags",
	[SBM_FUZZ_SEGMENTS]	 = "segments",
	[SBM_FUZZ_PRIVILEGED]	 = "privileged",
	[SBM_FUZZ_TRAPS]	 = "traps",
	[SBM_FUZZ_FAR]		 = "far",
	[SBM_FUZZ_PIVOT]	 = "pivot",
	[SBM_FUZZ_PKRU]		 = "pkru",
	[SBM_FUZZ_FPU]		 = "fpu",
	[SBM_FUZZ_INFO]		 = "info",
	[SBM_FUZZ_KERNEL_ACCESS] = "kernel",
	[SBM_FUZZ_BUFFER_WRITE]	 = "buffer",
	[SBM_FUZZ_LOOP]		 = "loop",
	[SBM_FUZZ_SERVICE]	 = "service",
	[SBM_FUZZ_ENDING]	 = "ending",
};

/* One user of the file at a time, under oracle_lock. */
struct oracle {
	struct sbm_fuzz_area area;
	u8 *page;
	struct sbm_fuzz_stream stream;
	char *out;
	size_t out_len;
	unsigned int aborts;
	struct sbm_abort abort;
	char reason[64];
};

static void oracle_abort_probe(void *data, const struct sbm *sbm,
			       sbm_func func, const struct sbm_abort *abort)
{
	struct oracle *o = data;

	if (func != (sbm_func)sbm_fuzz_arena)
		return;
	o->aborts++;
	o->abort = *abort;
	strscpy(o->reason, abort->reason);
}

/* Legacy and REX prefixes. */
static bool oracle_is_prefix(u8 b)
{
	return (b & 0xf0) == 0x40 || b == 0x66 || b == 0x67 || b == 0xf0 ||
	       b == 0xf2 || b == 0xf3 || b == 0x26 || b == 0x2e ||
	       b == 0x36 || b == 0x3e || b == 0x64 || b == 0x65;
}

/*
 * What the sandbox stopped at, where a user process would not stop or
 * would stop differently: an instruction that needs the FPU (the sandbox
 * has CR0.TS and CR0.EM set), a store of a descriptor-table register, the
 * LDTR, the TR or the machine status word, which Linux emulates for user
 * processes under UMIP, or SYSCALL and
 * SYSRET, which raise #UD with EFER.SCE clear.
 */
static const char *oracle_insn_class(const u8 *p, size_t len)
{
	struct insn insn;
	u8 op0, op1, reg, mod;
	size_t i;

	if (insn_decode(&insn, p, len, INSN_MODE_64) < 0) {
		/* The decoder refuses odd VEX and EVEX forms the CPU takes. */
		for (i = 0; i < len && oracle_is_prefix(p[i]); i++)
			;
		if (i < len && (p[i] == 0xc4 || p[i] == 0xc5 || p[i] == 0x62))
			return "fpu";
		return "-";
	}
	if (insn.vex_prefix.nbytes)
		return "fpu";
	op0 = insn.opcode.bytes[0];
	op1 = insn.opcode.bytes[1];
	reg = X86_MODRM_REG(insn.modrm.value);
	mod = X86_MODRM_MOD(insn.modrm.value);
	if (op0 >= 0xd8 && op0 <= 0xdf)
		return "fpu";
	if (op0 != 0x0f)
		return "-";
	if ((op1 == 0x01 && ((reg <= 1 && mod != 3) || reg == 4)) ||
	    (op1 == 0x00 && reg <= 1))
		return "umip";
	if (op1 == 0x05 || op1 == 0x07)
		return "sce";
	if (op1 == 0x0e || op1 == 0x77 || op1 == 0x38 || op1 == 0x3a ||
	    (op1 >= 0x10 && op1 <= 0x17) || (op1 >= 0x28 && op1 <= 0x2f) ||
	    (op1 >= 0x50 && op1 <= 0x7f) || op1 == 0xc2 ||
	    (op1 >= 0xc4 && op1 <= 0xc6) || op1 >= 0xd0)
		return "fpu";
	if (op1 == 0xae && mod != 3 && reg <= 5)
		return "fpu";
	if (op1 == 0xc7 && mod != 3 && reg >= 3 && reg <= 5)
		return "fpu";
	return "-";
}

/*
 * Whether the stream, decoded from its start, holds a far transfer (IRET,
 * far RET, far CALL or JMP through memory). QEMU's TCG pops their frames
 * as supervisor accesses, which in a user process Linux takes for a kernel
 * bug (an oops); the process does not run those streams.
 */
static bool oracle_has_far_transfer(const struct sbm_fuzz_stream *s)
{
	unsigned int off = 0, len;
	struct insn insn;
	u8 op, reg;

	while (off < s->len) {
		if (insn_decode(&insn, s->bytes + off, s->len - off,
				INSN_MODE_64) < 0) {
			off++;
			continue;
		}
		op = insn.opcode.bytes[0];
		reg = X86_MODRM_REG(insn.modrm.value);
		if (op == 0xcf || op == 0xca || op == 0xcb ||
		    (op == 0xff && (reg == 3 || reg == 5)))
			return true;
		len = insn.length;
		off += len ? len : 1;
	}
	return false;
}

static int oracle_run(struct oracle *o, u64 seed, u64 index)
{
	unsigned int limit = sbm_time_limit_ms;
	struct sbm sbm;
	int ret;

	sbm_fuzz_area_aim(&o->area);
	sbm_fuzz_generate(&o->area.env, seed, index, &o->stream);
	sbm_fuzz_load(&o->stream, o->page);

	ret = sbm_init(&sbm);
	if (ret)
		goto out;
	ret = -ENOMEM;
	if (!sbm_fuzz_area_map(&o->area, &sbm))
		goto out;
	o->aborts = 0;
	o->reason[0] = 0;
	sbm_time_limit_ms = ORACLE_TIME_LIMIT_MS;
	ret = sbm_exec(&sbm, (sbm_func)sbm_fuzz_arena, (void *)o->area.env.rw);
	sbm_time_limit_ms = limit;
out:
	sbm_destroy(&sbm);
	return ret;
}

/* The answer: the sandbox's result, then the stream for the process. */
static void oracle_answer(struct oracle *o, int ret, u64 seed, u64 index,
			  unsigned long urw, unsigned long uro)
{
	long off = o->aborts ? sbm_fuzz_offset(o->abort.ip) : -1;
	const char *class = "-";
	size_t n = 0, size = ORACLE_OUT_SIZE;
	unsigned int i;

	if (off >= 0 && off < o->stream.len)
		class = oracle_insn_class(o->stream.bytes + off,
					  o->stream.len - off);
	n += scnprintf(o->out + n, size - n,
		       "ret=%d aborts=%u kind=%s ip=%ld insn=%s len=%u",
		       ret, o->aborts,
		       o->aborts ? oracle_abort_names[o->abort.kind] : "none",
		       off, class, o->stream.len);

	/* The addresses in it differ: where they are tells the process. */
	n += scnprintf(o->out + n, size - n, " kbytes=");
	for (i = 0; i < o->stream.len; i++)
		n += scnprintf(o->out + n, size - n, "%02x",
			       o->stream.bytes[i]);
	n += scnprintf(o->out + n, size - n, " items=");
	o->area.env.rw = urw;
	o->area.env.ro = uro;
	sbm_fuzz_generate(&o->area.env, seed, index, &o->stream);
	for (i = 0; i < o->stream.items; i++)
		n += scnprintf(o->out + n, size - n, "%s%u.%s", i ? "," : "",
			       o->stream.item[i].start,
			       oracle_item_names[o->stream.item[i].kind]);
	n += scnprintf(o->out + n, size - n, " bytes=");
	for (i = 0; i < o->stream.len; i++)
		n += scnprintf(o->out + n, size - n, "%02x",
			       o->stream.bytes[i]);
	n += scnprintf(o->out + n, size - n, " far=%d",
		       oracle_has_far_transfer(&o->stream));
	n += scnprintf(o->out + n, size - n, " addr=%lx why=%s\n",
		       o->aborts && o->abort.has_addr ? o->abort.addr : 0,
		       o->aborts ? o->reason : "-");
	o->out_len = n;
}

static ssize_t oracle_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	struct oracle *o = file->private_data;
	unsigned long urw, uro;
	u64 seed, index;
	char buf[96];
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	if (sscanf(buf, "%llu %llu %lx %lx", &seed, &index, &urw, &uro) != 4)
		return -EINVAL;

	mutex_lock(&oracle_lock);
	ret = oracle_run(o, seed, index);
	oracle_answer(o, ret, seed, index, urw, uro);
	mutex_unlock(&oracle_lock);
	/* The answer is read from its start. */
	*ppos = 0;
	return len;
}

static ssize_t oracle_read(struct file *file, char __user *ubuf, size_t len,
			   loff_t *ppos)
{
	struct oracle *o = file->private_data;

	return simple_read_from_buffer(ubuf, len, ppos, o->out, o->out_len);
}

static int oracle_release(struct inode *inode, struct file *file)
{
	struct oracle *o = file->private_data;

	unregister_trace_sbm_abort(oracle_abort_probe, o);
	tracepoint_synchronize_unregister();
	mutex_lock(&oracle_lock);
	sbm_fuzz_clear(o->page);
	mutex_unlock(&oracle_lock);
	kfree(o->out);
	kfree(o->page);
	sbm_fuzz_area_free(&o->area);
	kfree(o);
	return 0;
}

static int oracle_open(struct inode *inode, struct file *file)
{
	struct oracle *o;
	int err = -ENOMEM;

	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	o->page = kmalloc(PAGE_SIZE, GFP_KERNEL);
	o->out = kzalloc(ORACLE_OUT_SIZE, GFP_KERNEL);
	if (!sbm_fuzz_area_alloc(&o->area) && o->page && o->out)
		err = register_trace_sbm_abort(oracle_abort_probe, o);
	if (err) {
		kfree(o->out);
		kfree(o->page);
		sbm_fuzz_area_free(&o->area);
		kfree(o);
		return err;
	}
	file->private_data = o;
	return nonseekable_open(inode, file);
}

static const struct file_operations oracle_fops = {
	.owner = THIS_MODULE,
	.open = oracle_open,
	.read = oracle_read,
	.write = oracle_write,
	.release = oracle_release,
};

static int __init sbm_fuzz_oracle_init(void)
{
	struct dentry *dir = debugfs_create_dir("sbm_fuzz", NULL);

	debugfs_create_file("oracle", 0600, dir, NULL, &oracle_fops);
	return 0;
}
late_initcall(sbm_fuzz_oracle_init);
