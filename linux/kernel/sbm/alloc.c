// SPDX-License-Identifier: GPL-2.0
/*
 * SandBox Mode: memory allocation for targets.
 *
 * Every target may call the kmalloc, vmalloc and kvmalloc families. Each
 * object gets whole zeroed pages of its own, mapped writable in the
 * sandbox of the instance that allocated it and in no other, so it never
 * shares a page with memory the target may not use. An object of the
 * kmalloc family is a kmalloc() object of a power-of-two number of pages,
 * which kmalloc() aligns to its size, so that kfree() and ksize() work on
 * it once a caller adopts it.
 *
 * The instance keeps every live object in sbm->objects; an abort or
 * sbm_destroy() frees what is left, unless the caller adopted it.
 */

#define pr_fmt(fmt) "sbm: " fmt

#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>

#include "sbm.h"
#include "stats.h"

/* Whatever the target asks, an object is zeroed and never warns. */
#define SBM_OBJECT_GFP	(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN)

/* Above this size, kvmalloc() takes virtually contiguous memory. */
#define SBM_KVMALLOC_MAX_PAGES	(PAGE_SIZE << PAGE_ALLOC_COSTLY_ORDER)

/**
 * struct sbm_object - memory a target allocated
 * @ptr:     its address, page-aligned
 * @size:    the size the target asked for
 * @mapped:  how much of it the sandbox sees: the pages that @size covers
 *           when it was allocated
 * @bytes:   what it holds against the quota: whole pages
 * @vmalloc: whether it is virtually contiguous memory
 */
struct sbm_object {
	void *ptr;
	size_t size;
	size_t mapped;
	size_t bytes;
	bool vmalloc;
};

static unsigned long sbm_object_index(const void *ptr)
{
	return (unsigned long)ptr >> PAGE_SHIFT;
}

/*
 * What an object of @size holds against the quota, or 0 if it can never
 * be allocated: a kmalloc() object is a power-of-two number of pages of
 * at most KMALLOC_MAX_SIZE, a vmalloc() one whole pages of at most the
 * memory there is. Either bound comes before any rounding, which would
 * wrap for sizes near SIZE_MAX.
 */
static size_t sbm_object_bytes(size_t size, bool vmalloc)
{
	if (!vmalloc)
		return size > KMALLOC_MAX_SIZE ? 0 : PAGE_SIZE << get_order(size);
	if (size > totalram_pages() << PAGE_SHIFT)
		return 0;
	return PAGE_ALIGN(size);
}

/*
 * The quota holds whatever order the caller sets limits and the target
 * allocates in: a limit lowered below what the instance holds lets no
 * allocation through until enough is freed.
 */
static bool sbm_quota_allows(const struct sbm *sbm, size_t bytes)
{
	size_t total;

	return !check_add_overflow(sbm->alloc_bytes, bytes, &total) &&
	       total <= sbm->alloc_limit;
}

static void *sbm_object_alloc(struct sbm *sbm, size_t size, bool vmalloc)
{
	struct sbm_object *obj;
	size_t bytes;

	if (!size)
		return ZERO_SIZE_PTR;
	bytes = sbm_object_bytes(size, vmalloc);
	if (!bytes || !sbm_quota_allows(sbm, bytes))
		return NULL;

	obj = kmalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj)
		return NULL;
	obj->size = size;
	obj->mapped = PAGE_ALIGN(size);
	obj->bytes = bytes;
	obj->vmalloc = vmalloc;
	if (vmalloc)
		obj->ptr = __vmalloc(bytes, SBM_OBJECT_GFP);
	else
		obj->ptr = kmalloc(bytes, SBM_OBJECT_GFP);
	if (!obj->ptr)
		goto free_obj;
	if (WARN_ON_ONCE(!PAGE_ALIGNED(obj->ptr)))
		goto free_ptr;
	if (xa_insert(&sbm->objects, sbm_object_index(obj->ptr), obj,
		      GFP_KERNEL))
		goto free_ptr;
	if (arch_sbm_map_object(sbm, (unsigned long)obj->ptr,
				(unsigned long)obj->ptr + obj->mapped)) {
		xa_erase(&sbm->objects, sbm_object_index(obj->ptr));
		goto free_ptr;
	}
	sbm->alloc_bytes += bytes;
	sbm_stat_add(SBM_STAT_OBJECTS_ALLOCATED, 1);
	return obj->ptr;

free_ptr:
	kvfree(obj->ptr);
free_obj:
	kfree(obj);
	return NULL;
}

/* Take an object out of the sandbox and of the instance's books. */
static void sbm_object_forget(struct sbm *sbm, struct sbm_object *obj)
{
	arch_sbm_unmap_object(sbm, (unsigned long)obj->ptr,
			      (unsigned long)obj->ptr + obj->mapped);
	xa_erase(&sbm->objects, sbm_object_index(obj->ptr));
	sbm->alloc_bytes -= obj->bytes;
	kfree(obj);
}

static void sbm_object_free(struct sbm *sbm, struct sbm_object *obj)
{
	void *ptr = obj->ptr;

	sbm_object_forget(sbm, obj);
	kvfree(ptr);
	sbm_stat_add(SBM_STAT_OBJECTS_FREED, 1);
}

/* The live object that starts at @ptr, or NULL. */
static struct sbm_object *sbm_object_find(struct sbm *sbm, unsigned long ptr)
{
	struct sbm_object *obj;

	if (!PAGE_ALIGNED(ptr))
		return NULL;
	obj = xa_load(&sbm->objects, ptr >> PAGE_SHIFT);
	if (!obj || (unsigned long)obj->ptr != ptr)
		return NULL;
	return obj;
}

/**
 * sbm_free_objects() - free everything a target allocated and still holds
 * @sbm: the instance
 */
void sbm_free_objects(struct sbm *sbm)
{
	struct sbm_object *obj;
	unsigned long index;

	xa_for_each(&sbm->objects, index, obj)
		sbm_object_free(sbm, obj);
}

/**
 * sbm_adopt() - keep an object that a target allocated
 * @sbm: the instance, after a successful call
 * @ptr: what the target's allocation returned
 *
 * Takes the object away from the sandbox: later calls on @sbm can no
 * longer reach it, and sbm_destroy() leaves it alone. The caller then owns
 * it and frees it with kvfree() (kfree() or vfree() by the family the
 * target used). Its contents are whatever the target left there: validate
 * them as untrusted input, and adopt every object that a pointer in it
 * leads to before following that pointer. sbm_adopt() itself checks such
 * a pointer: it fails for anything but an object of this instance.
 *
 * With weak isolation targets call the allocator directly: nothing is
 * tracked, every pointer is accepted and sbm_destroy() frees nothing that
 * the target allocated.
 *
 * Return: 0; -ENOENT if @ptr is not a live object of @sbm; -EBUSY while
 * another operation on @sbm runs, such as a call; the sticky error of a
 * failed instance, whose objects are gone; -EINVAL after sbm_destroy().
 */
int sbm_adopt(struct sbm *sbm, const void *ptr)
{
	struct sbm_object *obj;
	int err;

	if (!IS_ENABLED(CONFIG_HAVE_ARCH_SBM))
		return 0;
	err = sbm_claim(sbm);
	if (err)
		return err;
	err = sbm->error;
	obj = err ? NULL : sbm_object_find(sbm, (unsigned long)ptr);
	if (obj) {
		sbm_object_forget(sbm, obj);
		sbm_stat_add(SBM_STAT_OBJECTS_ADOPTED, 1);
	} else if (!err) {
		err = -ENOENT;
	}
	sbm_release(sbm);
	return err;
}
EXPORT_SYMBOL_GPL(sbm_adopt);

/**
 * sbm_object_size() - how large a live object of a target is
 * @sbm: the instance, between calls
 * @ptr: a pointer found in what the target returned
 *
 * Lets a caller check a pointer from a target, and the size that the
 * target claims for what it points to, before reading through it: the
 * object stays where it is and sbm_destroy() frees it. Only strong
 * isolation tracks objects.
 *
 * Return: the size that the target asked for; 0 if @ptr is not the start
 * of a live object of @sbm, while a call runs, after an abort, or without
 * strong isolation.
 */
size_t sbm_object_size(struct sbm *sbm, const void *ptr)
{
	struct sbm_object *obj;
	size_t size = 0;

	if (!IS_ENABLED(CONFIG_HAVE_ARCH_SBM) || sbm_claim(sbm))
		return 0;
	obj = sbm->error ? NULL : sbm_object_find(sbm, (unsigned long)ptr);
	if (obj)
		size = obj->size;
	sbm_release(sbm);
	return size;
}
EXPORT_SYMBOL_GPL(sbm_object_size);

/**
 * sbm_set_alloc_limit() - change how much a target may allocate
 * @sbm:   the instance, between calls
 * @bytes: the most that its live objects may hold, counted in whole pages
 *
 * An allocation beyond the limit fails with NULL, as allocations do when
 * memory runs out. The default is %SBM_DEFAULT_ALLOC_LIMIT; %SIZE_MAX
 * means no limit but the memory there is. A limit below what the live
 * objects already hold frees nothing: no allocation succeeds until they
 * hold less than @bytes plus its size.
 *
 * Return: 0; -EBUSY while another operation on @sbm runs, such as a call;
 * -EINVAL after sbm_destroy().
 */
int sbm_set_alloc_limit(struct sbm *sbm, size_t bytes)
{
	int err = sbm_claim(sbm);

	if (err)
		return err;
	sbm->alloc_limit = bytes;
	sbm_release(sbm);
	return 0;
}
EXPORT_SYMBOL_GPL(sbm_set_alloc_limit);

/* Services of the kmalloc family, whose first argument is the size. */
static unsigned long sbm_svc_kmalloc(struct sbm_service_call *call)
{
	return (unsigned long)sbm_object_alloc(call->sbm, call->args[0], false);
}

/* __kmalloc_cache_noprof(cache, flags, size): the cache is ignored. */
static unsigned long sbm_svc_kmalloc_cache(struct sbm_service_call *call)
{
	return (unsigned long)sbm_object_alloc(call->sbm, call->args[2], false);
}

/* __kmalloc_cache_node_noprof(cache, flags, node, size) */
static unsigned long sbm_svc_kmalloc_cache_node(struct sbm_service_call *call)
{
	return (unsigned long)sbm_object_alloc(call->sbm, call->args[3], false);
}

static unsigned long sbm_svc_vmalloc(struct sbm_service_call *call)
{
	return (unsigned long)sbm_object_alloc(call->sbm, call->args[0], true);
}

static unsigned long sbm_svc_kvmalloc(struct sbm_service_call *call)
{
	size_t size = call->args[0];

	return (unsigned long)sbm_object_alloc(call->sbm, size,
					       size > SBM_KVMALLOC_MAX_PAGES);
}

static bool sbm_is_null(unsigned long ptr)
{
	return ZERO_OR_NULL_PTR((void *)ptr);
}

/*
 * Free the object at args[0], which must be a live object of the target's
 * of the family the service frees, or NULL.
 */
static unsigned long sbm_free(struct sbm_service_call *call, bool kmalloc,
			      bool vmalloc, bool sensitive)
{
	struct sbm_object *obj;

	if (sbm_is_null(call->args[0]))
		return 0;
	obj = sbm_object_find(call->sbm, call->args[0]);
	if (!obj || (obj->vmalloc ? !vmalloc : !kmalloc))
		return sbm_service_reject(call, "pointer");
	if (sensitive)
		memzero_explicit(obj->ptr, obj->mapped);
	sbm_object_free(call->sbm, obj);
	return 0;
}

static unsigned long sbm_svc_kfree(struct sbm_service_call *call)
{
	return sbm_free(call, true, false, false);
}

static unsigned long sbm_svc_kfree_sensitive(struct sbm_service_call *call)
{
	return sbm_free(call, true, false, true);
}

static unsigned long sbm_svc_vfree(struct sbm_service_call *call)
{
	return sbm_free(call, false, true, false);
}

static unsigned long sbm_svc_kvfree(struct sbm_service_call *call)
{
	return sbm_free(call, true, true, false);
}

/* kvfree_sensitive(addr, len): the whole object is cleared. */
static unsigned long sbm_svc_kvfree_sensitive(struct sbm_service_call *call)
{
	return sbm_free(call, true, true, true);
}

/* krealloc_noprof(p, new_size, flags) */
static unsigned long sbm_svc_krealloc(struct sbm_service_call *call)
{
	size_t new_size = call->args[1];
	struct sbm_object *obj;
	void *new;

	if (sbm_is_null(call->args[0]))
		return (unsigned long)sbm_object_alloc(call->sbm, new_size,
						       false);
	obj = sbm_object_find(call->sbm, call->args[0]);
	if (!obj || obj->vmalloc)
		return sbm_service_reject(call, "p");
	if (!new_size) {
		sbm_object_free(call->sbm, obj);
		return (unsigned long)ZERO_SIZE_PTR;
	}
	/* A shrunk object stays mapped whole, to be unmapped whole. */
	if (new_size <= obj->mapped) {
		obj->size = new_size;
		return (unsigned long)obj->ptr;
	}
	new = sbm_object_alloc(call->sbm, new_size, false);
	if (!new)
		return 0;
	memcpy(new, obj->ptr, obj->size);
	sbm_object_free(call->sbm, obj);
	return (unsigned long)new;
}

/*
 * A copy of @len bytes at @src as the target sees them, with a NUL after
 * them if @nul.
 */
static void *sbm_dup(struct sbm_service_call *call, unsigned long src,
		     size_t len, bool nul, const char *arg)
{
	size_t size = len + nul;
	void *copy;

	if (size < len)
		return NULL;
	copy = sbm_object_alloc(call->sbm, size, false);
	if (ZERO_OR_NULL_PTR(copy))
		return copy;
	if (sbm_service_read(call, copy, src, len, arg)) {
		sbm_object_free(call->sbm,
				sbm_object_find(call->sbm, (unsigned long)copy));
		return NULL;
	}
	return copy;
}

/* kmemdup_noprof(src, len, gfp) */
static unsigned long sbm_svc_kmemdup(struct sbm_service_call *call)
{
	return (unsigned long)sbm_dup(call, call->args[0], call->args[1],
				      false, "src");
}

/* kmemdup_nul(s, len, gfp) */
static unsigned long sbm_svc_kmemdup_nul(struct sbm_service_call *call)
{
	if (!call->args[0])
		return 0;
	return (unsigned long)sbm_dup(call, call->args[0], call->args[1],
				      true, "s");
}

/*
 * The length of the string at @src as the target sees it, looking at no
 * more than @max bytes. A string that runs into memory the target may not
 * read rejects the call.
 */
static int sbm_strnlen(struct sbm_service_call *call, unsigned long src,
		       size_t max, size_t *len)
{
	char chunk[64];
	size_t n, i;

	for (*len = 0; *len < max; *len += n) {
		n = min3(sizeof(chunk), max - *len,
			 PAGE_SIZE - offset_in_page(src + *len));
		if (sbm_service_read(call, chunk, src + *len, n, "s"))
			return -EFAULT;
		for (i = 0; i < n; i++) {
			if (!chunk[i]) {
				*len += i;
				return 0;
			}
		}
	}
	return 0;
}

static unsigned long sbm_strdup(struct sbm_service_call *call, size_t max)
{
	unsigned long src = call->args[0];
	size_t len;

	if (!src)
		return 0;
	/* No string longer than the quota can be copied anyway. */
	max = min(max, call->sbm->alloc_limit);
	if (sbm_strnlen(call, src, max, &len))
		return 0;
	return (unsigned long)sbm_dup(call, src, len, true, "s");
}

/* kstrdup(s, gfp) */
static unsigned long sbm_svc_kstrdup(struct sbm_service_call *call)
{
	return sbm_strdup(call, SIZE_MAX);
}

/* kstrndup(s, max, gfp) */
static unsigned long sbm_svc_kstrndup(struct sbm_service_call *call)
{
	return sbm_strdup(call, call->args[1]);
}

SBM_ALLOW_CALL(__kmalloc_noprof, sbm_svc_kmalloc);
SBM_ALLOW_CALL(__kmalloc_node_noprof, sbm_svc_kmalloc);
SBM_ALLOW_CALL(__kmalloc_node_track_caller_noprof, sbm_svc_kmalloc);
SBM_ALLOW_CALL(__kmalloc_large_noprof, sbm_svc_kmalloc);
SBM_ALLOW_CALL(__kmalloc_large_node_noprof, sbm_svc_kmalloc);
SBM_ALLOW_CALL(__kmalloc_cache_noprof, sbm_svc_kmalloc_cache);
SBM_ALLOW_CALL(__kmalloc_cache_node_noprof, sbm_svc_kmalloc_cache_node);
SBM_ALLOW_CALL(krealloc_noprof, sbm_svc_krealloc);
SBM_ALLOW_CALL(kfree, sbm_svc_kfree);
SBM_ALLOW_CALL(kfree_sensitive, sbm_svc_kfree_sensitive);
SBM_ALLOW_CALL(kmemdup_noprof, sbm_svc_kmemdup);
SBM_ALLOW_CALL(kmemdup_nul, sbm_svc_kmemdup_nul);
SBM_ALLOW_CALL(kstrdup, sbm_svc_kstrdup);
SBM_ALLOW_CALL(kstrndup, sbm_svc_kstrndup);
SBM_ALLOW_CALL(vmalloc_noprof, sbm_svc_vmalloc);
SBM_ALLOW_CALL(vzalloc_noprof, sbm_svc_vmalloc);
SBM_ALLOW_CALL(__vmalloc_noprof, sbm_svc_vmalloc);
SBM_ALLOW_CALL(vfree, sbm_svc_vfree);
SBM_ALLOW_CALL(__kvmalloc_node_noprof, sbm_svc_kvmalloc);
SBM_ALLOW_CALL(kvfree, sbm_svc_kvfree);
SBM_ALLOW_CALL(kvfree_sensitive, sbm_svc_kvfree_sensitive);
