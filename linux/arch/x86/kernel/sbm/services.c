// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 SandBox Mode: how a target reaches kernel services.
 *
 * Sandboxes see kernel text through the template page tables, which map
 * each page of text on its own. For every page that holds the entry of an
 * allowlisted function, the template maps a private copy instead, with an
 * INT3 planted at that entry and nowhere else. A target that calls the
 * function runs into the INT3, whose #BP is the only exception vector it
 * can raise on purpose; the neighbours on the page run unchanged. The
 * event loop of arch_sbm_exec() then asks the generic code to serve the
 * call and completes it as the function's RET would: result in RAX,
 * return address popped from the target's stack.
 *
 * The copies are taken once, at boot, after the kernel patched its text.
 * Later patching (static keys, say) does not reach them: a target may then
 * run a stale variant of a neighbour, in user mode, which is harmless.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/xarray.h>
#include <asm/ibt.h>
#include <asm/sections.h>
#include <asm/text-patching.h>

#include "sbm.h"

/* The private copies of text pages, by page frame number of the text. */
static DEFINE_XARRAY(sbm_trap_pages);

static int sbm_plant_trap(unsigned long addr)
{
	unsigned long page = addr & PAGE_MASK;
	struct page *copy;
	u8 *text;
	int err;

	copy = xa_load(&sbm_trap_pages, page >> PAGE_SHIFT);
	if (!copy) {
		copy = alloc_page(GFP_KERNEL);
		if (!copy)
			return -ENOMEM;
		copy_page(page_address(copy), (void *)page);
		err = xa_err(xa_store(&sbm_trap_pages, page >> PAGE_SHIFT,
				      copy, GFP_KERNEL));
		if (!err)
			err = sbm_template_set_page(page, page_to_pfn(copy),
						    SBM_USER_EXEC);
		if (err) {
			xa_erase(&sbm_trap_pages, page >> PAGE_SHIFT);
			__free_page(copy);
			return err;
		}
	}
	text = page_address(copy);
	text[offset_in_page(addr)] = INT3_INSN_OPCODE;
	return 0;
}

/* A function's entry, past the ENDBR that indirect calls land on. */
static unsigned long sbm_past_endbr(unsigned long func)
{
	u32 insn;

	if (copy_from_kernel_nofault(&insn, (void *)func, sizeof(insn)))
		return func;
	return is_endbr(insn) ? func + ENDBR_INSN_SIZE : func;
}

/**
 * sbm_services_init() - plant the traps of every allowlisted function
 *
 * Return: 0 or a negative errno.
 */
int sbm_services_init(void)
{
	const struct sbm_service *svc;
	unsigned long func, entry;
	int err;

	for (svc = __start_sbm_services; svc < __stop_sbm_services; svc++) {
		func = (unsigned long)svc->func;
		if (func < (unsigned long)_stext ||
		    func >= (unsigned long)_etext) {
			pr_warn("service %s is not kernel text\n", svc->name);
			continue;
		}
		/* A direct call may skip the ENDBR, or may not. */
		entry = sbm_past_endbr(func);
		err = sbm_plant_trap(func);
		if (!err && entry != func)
			err = sbm_plant_trap(entry);
		if (err)
			return err;
	}
	return 0;
}

/* Which allowlisted function, if any, the INT3 before @ip stands for. */
static unsigned long sbm_service_at(unsigned long ip)
{
	unsigned long addr = ip - INT3_INSN_SIZE;
	u32 insn;

	if (sbm_is_service(addr))
		return addr;
	addr -= ENDBR_INSN_SIZE;
	if (copy_from_kernel_nofault(&insn, (void *)addr, sizeof(insn)) ||
	    !is_endbr(insn) || !sbm_is_service(addr))
		return 0;
	return addr;
}

/**
 * sbm_serve() - complete a target's call of a kernel service
 * @sbm:   the instance
 * @func:  the target
 * @f:     the frame of the #BP that stopped the sandbox
 * @abort: filled in when the call ends the sandbox
 * @buf:   room for the reason
 * @len:   size of @buf
 *
 * Called with interrupts enabled. Once a call is served, the sandbox
 * resumes after it: @f holds the result and the return address.
 *
 * Return: whether @f was a call of a service, and whether it was served.
 */
enum sbm_serve_result sbm_serve(struct sbm *sbm, sbm_func func,
				struct x86_sbm_frame *f,
				struct sbm_abort *abort, char *buf,
				size_t len)
{
	unsigned long service = sbm_service_at(f->ip);
	unsigned long args[6] = { f->di, f->si, f->dx, f->cx, f->r8, f->r9 };
	unsigned long ret, ret_ip;

	if (!service)
		return SBM_NOT_A_SERVICE;
	abort->ip = service;
	/*
	 * Where the call returns to is the target's business, but IRET to
	 * an address that is not canonical in the paging mode in force
	 * raises #GP in the kernel, not in the sandbox. What the CPU could
	 * address (x86_virt_bits) is not what the kernel runs with: an LA57
	 * CPU runs 4-level paging with no5lvl.
	 */
	if (arch_sbm_read(sbm, &ret_ip, f->sp, sizeof(ret_ip)) ||
	    !__is_canonical_address(ret_ip, __VIRTUAL_MASK_SHIFT + 1)) {
		abort->kind = SBM_ABORT_SERVICE_ARGUMENT;
		abort->callee = service;
		snprintf(buf, len, "bad return address of a call of %ps",
			 (void *)service);
		abort->reason = buf;
		return SBM_SERVICE_REFUSED;
	}
	if (sbm_call_service(sbm, func, service, args, &ret, abort, buf, len))
		return SBM_SERVICE_REFUSED;
	f->ax = ret;
	f->ip = ret_ip;
	f->sp += sizeof(ret_ip);
	return SBM_SERVED;
}

/**
 * arch_sbm_read() - read memory as the target sees it
 * @sbm: the instance
 * @dst: kernel buffer
 * @src: address in the sandbox
 * @len: number of bytes
 *
 * Reads the page frames that the sandbox page tables map for user access,
 * not the kernel's: a private stand-in reads as the stand-in.
 *
 * Return: 0, or -EFAULT if the target may not read all of it.
 */
int arch_sbm_read(struct sbm *sbm, void *dst, unsigned long src, size_t len)
{
	struct x86_sbm *s = sbm->private;
	unsigned long pfn, end;
	size_t n;

	if (check_add_overflow(src, len, &end))
		return -EFAULT;
	while (len) {
		n = min_t(size_t, len, PAGE_SIZE - offset_in_page(src));
		if (!sbm_user_lookup(&s->pt, src, 0, &pfn) || !pfn_valid(pfn))
			return -EFAULT;
		memcpy(dst, page_address(pfn_to_page(pfn)) + offset_in_page(src),
		       n);
		dst += n;
		src += n;
		len -= n;
	}
	return 0;
}

/**
 * arch_sbm_map_object() - let the target read and write memory it allocated
 * @sbm:   the instance
 * @start: first address, page-aligned
 * @end:   end address, page-aligned
 *
 * Return: 0 or a negative errno.
 */
int arch_sbm_map_object(struct sbm *sbm, unsigned long start,
			unsigned long end)
{
	struct x86_sbm *s = sbm->private;
	unsigned long addr;
	int err;

	for (addr = start; addr < end; addr += PAGE_SIZE) {
		err = xa_err(xa_store(&s->objects, addr >> PAGE_SHIFT,
				      xa_mk_value(1), GFP_KERNEL));
		if (err)
			goto undo;
	}
	err = sbm_map_kernel_range(&s->pt, start, end, SBM_USER_RW);
	if (!err)
		return 0;
undo:
	arch_sbm_unmap_object(sbm, start, addr);
	return err;
}

/**
 * arch_sbm_unmap_object() - take an allocated object away from the target
 * @sbm:   the instance
 * @start: first address, page-aligned
 * @end:   end address, page-aligned
 */
void arch_sbm_unmap_object(struct sbm *sbm, unsigned long start,
			   unsigned long end)
{
	struct x86_sbm *s = sbm->private;
	unsigned long addr;

	if (!sbm_planted(SBM_PLANT_PAGE))
		sbm_unmap_kernel_range(&s->pt, start, end);
	for (addr = start; addr < end; addr += PAGE_SIZE)
		xa_erase(&s->objects, addr >> PAGE_SHIFT);
}
