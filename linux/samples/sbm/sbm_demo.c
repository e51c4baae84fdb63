// SPDX-License-Identifier: GPL-2.0
/*
 * SandBox Mode demonstration: parse "key=value" pairs in a sandbox.
 *
 *   echo "width=640 height=480" > /sys/kernel/debug/sbm_demo/parse
 *   cat /sys/kernel/debug/sbm_demo/parse
 *
 * Writing a fault name to .../fault makes the next parse misbehave: write
 * past its output buffer ("overrun"), write a kernel variable ("wild"),
 * read through a NULL pointer ("null"), jump into its output buffer
 * ("exec"), and on x86 execute a privileged instruction ("privileged"),
 * ask for a system call ("syscall"), divide by zero ("divide") or never
 * finish ("loop"), call a kernel function that is not a service for it
 * ("printk"), or free memory twice ("doublefree"). With strong isolation
 * the sandbox is aborted and the kernel carries on; in weak mode the
 * writing task may oops.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/processor.h>
#include <linux/sbm.h>
#include <linux/slab.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define DEMO_MAX_INPUT	4096
#define DEMO_MAX_PAIRS	8
#define DEMO_KEY_LEN	16
#define DEMO_REPORT_LEN	1024

enum demo_fault {
	DEMO_FAULT_NONE,
	DEMO_FAULT_OVERRUN,
	DEMO_FAULT_WILD,
	DEMO_FAULT_NULL,
	DEMO_FAULT_EXEC,
	DEMO_FAULT_PRIVILEGED,
	DEMO_FAULT_SYSCALL,
	DEMO_FAULT_DIVIDE,
	DEMO_FAULT_LOOP,
	DEMO_FAULT_PRINTK,
	DEMO_FAULT_DOUBLE_FREE,
};

static const char * const demo_fault_names[] = {
	[DEMO_FAULT_NONE] = "none",
	[DEMO_FAULT_OVERRUN] = "overrun",
	[DEMO_FAULT_WILD] = "wild",
	[DEMO_FAULT_NULL] = "null",
	[DEMO_FAULT_EXEC] = "exec",
	[DEMO_FAULT_PRIVILEGED] = "privileged",
	[DEMO_FAULT_SYSCALL] = "syscall",
	[DEMO_FAULT_DIVIDE] = "divide",
	[DEMO_FAULT_LOOP] = "loop",
	[DEMO_FAULT_PRINTK] = "printk",
	[DEMO_FAULT_DOUBLE_FREE] = "doublefree",
};

struct demo_pair {
	char key[DEMO_KEY_LEN];
	s64 value;
};

struct demo_result {
	unsigned int count;
	s64 sum;
	struct demo_pair pairs[DEMO_MAX_PAIRS];
};

static DEFINE_MUTEX(demo_lock);
static enum demo_fault demo_fault;
static char demo_report[DEMO_REPORT_LEN];
static unsigned long demo_victim = 0x5afe;

static int demo_parse_token(const char *tok, size_t len, struct demo_pair *pair)
{
	const char *eq = memchr(tok, '=', len);
	char value[24];
	size_t klen;

	if (!eq)
		return -EINVAL;
	klen = eq - tok;
	if (!klen || klen >= DEMO_KEY_LEN || len - klen - 1 >= sizeof(value))
		return -EINVAL;
	memcpy(pair->key, tok, klen);
	pair->key[klen] = '\0';
	memcpy(value, eq + 1, len - klen - 1);
	value[len - klen - 1] = '\0';
	return kstrtos64(value, 0, &pair->value);
}

/* The bugs that the fault switch plants in the parser. */
static int demo_misbehave(int fault, struct demo_result *res)
{
	void *scratch;
	int zero = 0;

	OPTIMIZER_HIDE_VAR(zero);
	switch (fault) {
	case DEMO_FAULT_OVERRUN:
		memset(res, 0xff, sizeof(*res) + PAGE_SIZE);
		break;
	case DEMO_FAULT_WILD:
		WRITE_ONCE(demo_victim, 0xbad);
		break;
	case DEMO_FAULT_NULL:
		return READ_ONCE(*(int *)NULL);
	case DEMO_FAULT_EXEC:
		return ((int (*)(void))res)();
	case DEMO_FAULT_DIVIDE:
		return (int)(unsigned long)res / zero;
	case DEMO_FAULT_LOOP:
		for (;;)
			cpu_relax();
	case DEMO_FAULT_PRINTK:
		pr_info("parsing %u pairs\n", res->count);
		break;
	case DEMO_FAULT_DOUBLE_FREE:
		scratch = kmalloc(64, GFP_KERNEL);
		kfree(scratch);
		kfree(scratch);
		break;
#ifdef CONFIG_X86
	case DEMO_FAULT_PRIVILEGED:
		asm volatile("cli");
		break;
	case DEMO_FAULT_SYSCALL:
		asm volatile("int $0x80" : : "a" (39) : "memory");
		break;
#endif
	}
	return 0;
}

/* The parser that runs in the sandbox: it sees only @text and @res. */
static SBM_DEFINE_FUNC(demo_parse, const char *, text, size_t, len,
		       struct demo_result *, res, int, fault)
{
	size_t pos = 0, start;
	int err;

	if (fault) {
		err = demo_misbehave(fault, res);
		if (err)
			return err;
	}

	while (pos < len) {
		while (pos < len && isspace(text[pos]))
			pos++;
		start = pos;
		while (pos < len && !isspace(text[pos]))
			pos++;
		if (pos == start)
			break;
		if (res->count == DEMO_MAX_PAIRS)
			return -E2BIG;
		err = demo_parse_token(text + start, pos - start,
				       &res->pairs[res->count]);
		if (err)
			return err;
		res->sum += res->pairs[res->count++].value;
	}
	return 0;
}

/* Some of its inputs make it misbehave, on purpose. */
SBM_EXPECT_FAULT(demo_parse);

static void demo_run(const char *text, size_t len)
{
	struct demo_result result = { };
	struct demo_result *res;
	const char *in;
	struct sbm sbm;
	int ret, err, n;
	unsigned int i;

	sbm_init(&sbm);
	in = SBM_COPY_IN(&sbm, text, len);
	res = SBM_COPY_OUT(&sbm, &result, sizeof(result));
	ret = sbm_call(&sbm, demo_parse, in, len, res, demo_fault);
	err = sbm_error(&sbm);
	sbm_destroy(&sbm);
	demo_fault = DEMO_FAULT_NONE;

	if (err) {
		scnprintf(demo_report, sizeof(demo_report),
			  "sandbox failed: %pe, output discarded\n",
			  ERR_PTR(err));
		return;
	}
	if (ret) {
		scnprintf(demo_report, sizeof(demo_report),
			  "parser rejected the input: %pe\n", ERR_PTR(ret));
		return;
	}
	n = scnprintf(demo_report, sizeof(demo_report),
		      "parsed %u pairs, sum %lld\n", result.count, result.sum);
	for (i = 0; i < result.count && i < DEMO_MAX_PAIRS; i++)
		n += scnprintf(demo_report + n, sizeof(demo_report) - n,
			       "  %.*s = %lld\n", DEMO_KEY_LEN,
			       result.pairs[i].key, result.pairs[i].value);
}

static ssize_t demo_parse_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char *text;

	if (count > DEMO_MAX_INPUT)
		return -E2BIG;
	text = memdup_user(ubuf, count);
	if (IS_ERR(text))
		return PTR_ERR(text);
	mutex_lock(&demo_lock);
	demo_run(text, count);
	mutex_unlock(&demo_lock);
	kfree(text);
	return count;
}

static ssize_t demo_parse_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&demo_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, demo_report,
				      strlen(demo_report));
	mutex_unlock(&demo_lock);
	return ret;
}

static const struct file_operations demo_parse_fops = {
	.owner = THIS_MODULE,
	.read = demo_parse_read,
	.write = demo_parse_write,
	.llseek = default_llseek,
};

static ssize_t demo_fault_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char name[16];
	int i;

	if (count >= sizeof(name))
		return -EINVAL;
	if (copy_from_user(name, ubuf, count))
		return -EFAULT;
	name[count] = '\0';
	i = sysfs_match_string(demo_fault_names, strim(name));
	if (i < 0)
		return i;
	mutex_lock(&demo_lock);
	demo_fault = i;
	mutex_unlock(&demo_lock);
	return count;
}

static const struct file_operations demo_fault_fops = {
	.owner = THIS_MODULE,
	.write = demo_fault_write,
	.llseek = noop_llseek,
};

static struct dentry *demo_dir;

static int __init demo_init(void)
{
	demo_dir = debugfs_create_dir("sbm_demo", NULL);
	debugfs_create_file("parse", 0600, demo_dir, NULL, &demo_parse_fops);
	debugfs_create_file("fault", 0200, demo_dir, NULL, &demo_fault_fops);
	return 0;
}
module_init(demo_init);

static void __exit demo_exit(void)
{
	debugfs_remove_recursive(demo_dir);
}
module_exit(demo_exit);

MODULE_DESCRIPTION("SandBox Mode demonstration");
MODULE_LICENSE("GPL");
