// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 SandBox Mode: module code in sandboxes.
 *
 * Modules load into the kernel image's top-level slot, whose page tables
 * all sandboxes share. The text and read-only data of each module join
 * them when the module comes, its init parts leave when it goes live, and
 * everything leaves when it goes; so a target may live in a module and
 * call into others.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <linux/mm.h>
#include <linux/module.h>
#include <linux/notifier.h>

#include "sbm.h"

static const struct {
	enum mod_mem_type type;
	pteval_t prot;
} sbm_module_parts[] = {
	{ MOD_TEXT, SBM_USER_EXEC },
	{ MOD_RODATA, SBM_USER_RO },
	{ MOD_RO_AFTER_INIT, SBM_USER_RO },
	{ MOD_INIT_TEXT, SBM_USER_EXEC },
	{ MOD_INIT_RODATA, SBM_USER_RO },
};

static void sbm_module_range(struct module *mod, enum mod_mem_type type,
			     unsigned long *start, unsigned long *end)
{
	*start = (unsigned long)mod->mem[type].base;
	*end = PAGE_ALIGN(*start + mod->mem[type].size);
}

static void sbm_module_unmap(struct module *mod, bool init_only)
{
	unsigned long start, end;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sbm_module_parts); i++) {
		if (init_only && !mod_mem_type_is_init(sbm_module_parts[i].type))
			continue;
		sbm_module_range(mod, sbm_module_parts[i].type, &start, &end);
		if (start)
			sbm_template_unmap_range(start, end);
	}
}

static void sbm_module_map(struct module *mod)
{
	unsigned long start, end;
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(sbm_module_parts); i++) {
		sbm_module_range(mod, sbm_module_parts[i].type, &start, &end);
		if (!start)
			continue;
		err = sbm_template_map_range(start, end,
					     sbm_module_parts[i].prot);
		if (err) {
			pr_warn("%s: code not available to sandboxes: %pe\n",
				mod->name, ERR_PTR(err));
			sbm_module_unmap(mod, false);
			return;
		}
	}
}

static int sbm_module_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	struct module *mod = data;

	switch (action) {
	case MODULE_STATE_COMING:
		sbm_module_map(mod);
		break;
	case MODULE_STATE_LIVE:
		sbm_module_unmap(mod, true);
		break;
	case MODULE_STATE_GOING:
		sbm_module_unmap(mod, false);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block sbm_module_nb = {
	.notifier_call = sbm_module_notify,
};

/**
 * sbm_modules_init() - follow module loading from now on
 *
 * Return: 0 or a negative errno.
 */
int sbm_modules_init(void)
{
	return register_module_notifier(&sbm_module_nb);
}
