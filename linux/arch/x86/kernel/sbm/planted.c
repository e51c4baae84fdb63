// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 SandBox Mode: faults planted on purpose in the boundary, so that
 * a test can show that the boundary fuzzer finds each kind of mistake the
 * switch code could make. "sbm.plant=NAME" on the command line picks
 * one; the hooks test a
 * static key, so a kernel booted without the parameter runs the switch
 * code as it is.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <linux/jump_label.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <asm/processor-flags.h>

#include "sbm.h"

static const char * const sbm_plant_names[SBM_PLANT_NR] = {
	[SBM_PLANT_NONE] = "none",
	[SBM_PLANT_DF]	 = "df",
	[SBM_PLANT_AC]	 = "ac",
	[SBM_PLANT_PKRU] = "pkru",
	[SBM_PLANT_MSR]	 = "msr",
	[SBM_PLANT_FPU]	 = "fpu",
	[SBM_PLANT_PAGE] = "page",
};

DEFINE_STATIC_KEY_FALSE(sbm_plant_key);
/* Read by entry.S too, with the kernel's page tables loaded. */
int sbm_plant = SBM_PLANT_NONE;

static int sbm_plant_set(const char *val, const struct kernel_param *kp)
{
	int i;

	if (sbm_plant != SBM_PLANT_NONE)
		return -EBUSY;
	for (i = SBM_PLANT_NONE + 1; i < SBM_PLANT_NR; i++) {
		if (sysfs_streq(val, sbm_plant_names[i])) {
			sbm_plant = i;
			static_branch_enable(&sbm_plant_key);
			pr_warn("planted fault \"%s\": the sandbox boundary is broken on purpose\n",
				sbm_plant_names[i]);
			return 0;
		}
	}
	return -EINVAL;
}

static int sbm_plant_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", sbm_plant_names[sbm_plant]);
}

static const struct kernel_param_ops sbm_plant_ops = {
	.set = sbm_plant_set,
	.get = sbm_plant_get,
};

/* Only at boot: a fault planted later would meet sandboxes in flight. */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "sbm."
module_param_cb(plant, &sbm_plant_ops, NULL, 0444);
MODULE_PARM_DESC(plant, "break the boundary on purpose: df, ac, pkru, msr, fpu or page");

/**
 * sbm_plant_name() - the name of the planted fault in force
 *
 * Return: "none" when no fault is planted.
 */
const char *sbm_plant_name(void)
{
	return sbm_plant_names[sbm_plant];
}

/**
 * sbm_plant_flags() - leave the target's DF or AC set, as an entry path
 * that forgot to clear them would
 * @flags: the target's RFLAGS when it last stopped
 *
 * Called as the last thing arch_sbm_exec() does: a real leak would reach
 * string instructions in the switch code first and corrupt memory, while
 * the planted one is to be found by its caller.
 */
void sbm_plant_flags(unsigned long flags)
{
	unsigned long leak = 0;

	if (sbm_planted(SBM_PLANT_DF))
		leak = flags & X86_EFLAGS_DF;
	else if (sbm_planted(SBM_PLANT_AC))
		leak = flags & X86_EFLAGS_AC;
	/* Through POPF, which objtool does not take for a flag change. */
	if (leak)
		asm volatile("pushfq; orq %0, (%%rsp); popfq"
			     : : "r" (leak) : "memory", "cc");
}
