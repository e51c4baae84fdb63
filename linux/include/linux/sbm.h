/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SandBox Mode (SBM): run one function in an isolated environment that
 * sees only the buffers its caller hands it.
 *
 * See Documentation/security/sandbox-mode.rst.
 */
#ifndef _LINUX_SBM_H
#define _LINUX_SBM_H

#include <linux/args.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/spinlock_types.h>
#include <linux/types.h>
#include <linux/xarray.h>

/**
 * typedef sbm_func - a function that runs in the sandbox
 * @data: the argument given to sbm_exec()
 *
 * Return: any value; sbm_exec() passes it back to its caller.
 */
typedef int (*sbm_func)(void *data);

/**
 * struct sbm - one sandbox instance
 * @error:   sticky error; see sbm_error()
 * @private: architecture-private state
 * @bufs:    private copies of the caller's buffers
 * @caller:  where the running call was made from, for reports
 * @lock:    guards @live and @busy_task
 * @live:    between sbm_init() and sbm_destroy()
 * @busy_task: the task whose operation (a call, a buffer registration,
 *           an adoption, a limit change or sbm_destroy()) holds the
 *           instance; NULL when none does
 * @args_size: size of the argument block of the running call, which the
 *           architecture copies into the sandbox; 0 to pass @data as is
 * @objects: what the target allocated through the allocation services and
 *           has not freed, indexed by page frame of the first page
 * @alloc_bytes: memory that @objects hold, in whole pages
 * @alloc_limit: the most that @alloc_bytes may reach
 *
 * The instance usually lives on the caller's stack, between sbm_init()
 * and sbm_destroy(). Its fields are private to the SBM code.
 */
struct sbm {
#ifdef CONFIG_SANDBOX_MODE
	int error;
	void *private;
	struct list_head bufs;
	unsigned long caller;
	spinlock_t lock;		/* guards live and busy_task */
	bool live;
	struct task_struct *busy_task;
	size_t args_size;
	struct xarray objects;
	size_t alloc_bytes;
	size_t alloc_limit;
#endif
};

/* How much a target may allocate, unless the caller says otherwise. */
#define SBM_DEFAULT_ALLOC_LIMIT		(16UL << 20)

/* Directions of a buffer copy, for sbm_add_copy(). */
#define SBM_BUF_IN	0x1
#define SBM_BUF_OUT	0x2
#define SBM_BUF_INOUT	(SBM_BUF_IN | SBM_BUF_OUT)

/**
 * struct sbm_service_call - a target's call of a kernel service
 * @sbm:     the instance whose target called
 * @args:    the six argument registers of the call, as the target set
 *           them: hostile, like everything the target controls
 * @bad_arg: set by sbm_service_reject() to the name of an argument that
 *           ends the sandbox
 */
struct sbm_service_call {
	struct sbm *sbm;
	unsigned long args[6];
	const char *bad_arg;
};

/**
 * typedef sbm_service_fn - what runs in kernel mode for a service
 * @call: the call, with the target's arguments
 *
 * Runs in task context and may sleep. It checks every argument as hostile
 * and, for an argument that no correct target passes, calls
 * sbm_service_reject() to end the sandbox.
 *
 * Return: the value that the target's call returns; never a kernel
 * pointer that the target does not already have.
 */
typedef unsigned long (*sbm_service_fn)(struct sbm_service_call *call);

/**
 * struct sbm_service - a kernel function that targets may call
 * @func:    the function, at the address that compiled code calls
 * @name:    its name, for reports
 * @handler: what SBM runs in kernel mode when a target calls @func
 * @target:  the only target that may call it (the thunk of an
 *           SBM_DEFINE_FUNC() function); NULL for every target
 *
 * Entries are made with SBM_ALLOW_CALL() or SBM_ALLOW_CALL_FROM().
 */
struct sbm_service {
	const void *func;
	const char *name;
	sbm_service_fn handler;
	sbm_func target;
};

/*
 * The symbol name, __sbm_allow.<target>.<function>, is how the build-time
 * check (scripts/sbm/sbm_reach.py) reads the allowlist.
 */
#define __SBM_ALLOW(ident, tname, tfunc, fn, fn_handler)		\
	static const struct sbm_service ident				\
	__asm__("__sbm_allow." tname "." #fn)				\
	__used __section(".sbm_services") __aligned(8) = {		\
		.func = fn,						\
		.name = #fn,						\
		.handler = fn_handler,					\
		.target = tfunc,					\
	}

#ifndef MODULE
/**
 * SBM_ALLOW_CALL() - let every target call a kernel function
 * @func:    the function, by the name that compiled code calls
 * @handler: an &sbm_service_fn that does its work on the target's behalf
 *
 * Put it next to the code that sandboxed targets call @func from. When a
 * target calls @func, SBM runs @handler in kernel mode instead and hands
 * its result back; @func itself and the code around it stay unchanged.
 * Only in built-in code.
 */
#define SBM_ALLOW_CALL(func, handler)					\
	__SBM_ALLOW(__sbm_allow__##func, "", NULL, func, handler)

/**
 * SBM_ALLOW_CALL_FROM() - let one target call a kernel function
 * @f:       the target, as named in SBM_DEFINE_FUNC() or SBM_DEFINE_THUNK()
 * @func:    the function, by the name that compiled code calls
 * @handler: an &sbm_service_fn that does its work on the target's behalf
 *
 * As SBM_ALLOW_CALL(), for calls from @f and what it calls only.
 */
#define SBM_ALLOW_CALL_FROM(f, func, handler)				\
	__SBM_ALLOW(__sbm_allow_##f##__##func, #f, __sbm_thunk_##f,	\
		    func, handler)
#else
/* The allowlist is read at boot: entries are made in built-in code. */
#define SBM_ALLOW_CALL(func, handler)					\
	static_assert(0, "SBM_ALLOW_CALL(" #func ", " #handler ") in a module")
#define SBM_ALLOW_CALL_FROM(f, func, handler)				\
	static_assert(0, "SBM_ALLOW_CALL_FROM(" #f ", " #func ", " #handler \
		      ") in a module")
#endif /* MODULE */

/**
 * SBM_EXPECT_FAULT() - tell the build-time check that a target faults
 * @f: the target, as named in SBM_DEFINE_FUNC() or SBM_DEFINE_THUNK()
 *
 * For the tests and demonstrations of SandBox Mode itself, whose targets
 * break the rules on purpose: scripts/sbm/sbm_reach.py still lists what
 * @f reaches, marked as expected, without a warning.
 */
#define SBM_EXPECT_FAULT(f)						\
	static const char __sbm_expect_fault_##f[]			\
	__asm__("__sbm_expect_fault." #f) __used = #f

#ifdef CONFIG_SANDBOX_MODE

int sbm_init(struct sbm *sbm);
void sbm_destroy(struct sbm *sbm);
int sbm_exec(struct sbm *sbm, sbm_func func, void *data);
int sbm_exec_args(struct sbm *sbm, sbm_func func, void *args, size_t size);
void *sbm_add_copy(struct sbm *sbm, const void *buf, size_t size,
		   unsigned int dir);
void *sbm_add_map(struct sbm *sbm, const void *buf, size_t size,
		  bool writable);

/**
 * sbm_error() - the sticky error of a sandbox instance
 * @sbm: the instance
 *
 * Tells "the sandbox failed" apart from "the target function returned an
 * error": once any SBM operation on @sbm fails (setup, allocation, mapping,
 * abort of the target), every later operation fails with the same code
 * without doing anything. sbm_destroy() leaves it as it was, so it still
 * tells what happened while the instance lived.
 *
 * Return: 0, or the first failure as a negative errno.
 */
static inline int sbm_error(const struct sbm *sbm)
{
	return sbm->error;
}

/*
 * Architecture hooks. An architecture that implements them selects
 * CONFIG_HAVE_ARCH_SBM; otherwise kernel/sbm/core.c supplies no-ops and
 * the sandbox gives weak isolation.
 */
int arch_sbm_init(struct sbm *sbm);
void arch_sbm_destroy(struct sbm *sbm);
int arch_sbm_map_readonly(struct sbm *sbm, unsigned long start,
			  unsigned long end);
int arch_sbm_map_writable(struct sbm *sbm, unsigned long start,
			  unsigned long end);
int arch_sbm_exec(struct sbm *sbm, sbm_func func, void *data);

unsigned long sbm_service_reject(struct sbm_service_call *call,
				 const char *arg);
int sbm_service_read(struct sbm_service_call *call, void *dst,
		     unsigned long src, size_t len, const char *arg);

int sbm_adopt(struct sbm *sbm, const void *ptr);
size_t sbm_object_size(struct sbm *sbm, const void *ptr);
int sbm_set_alloc_limit(struct sbm *sbm, size_t bytes);

#define __SBM_COPY(sbm, buf, size, dir)					\
	((typeof((buf) + 0))sbm_add_copy(sbm, buf, size, dir))
#define __SBM_MAP(sbm, buf, size, writable)				\
	((typeof((buf) + 0))sbm_add_map(sbm, buf, size, writable))

#else /* !CONFIG_SANDBOX_MODE */

static inline int sbm_init(struct sbm *sbm)
{
	return 0;
}

static inline void sbm_destroy(struct sbm *sbm)
{
}

static inline int sbm_error(const struct sbm *sbm)
{
	return 0;
}

static inline int sbm_exec(struct sbm *sbm, sbm_func func, void *data)
{
	return func(data);
}

static inline int sbm_exec_args(struct sbm *sbm, sbm_func func, void *args,
				size_t size)
{
	return func(args);
}

static inline int sbm_adopt(struct sbm *sbm, const void *ptr)
{
	return 0;
}

static inline size_t sbm_object_size(struct sbm *sbm, const void *ptr)
{
	return 0;
}

static inline int sbm_set_alloc_limit(struct sbm *sbm, size_t bytes)
{
	return 0;
}

static inline unsigned long sbm_service_reject(struct sbm_service_call *call,
					       const char *arg)
{
	return 0;
}

static inline int sbm_service_read(struct sbm_service_call *call, void *dst,
				   unsigned long src, size_t len,
				   const char *arg)
{
	return -EFAULT;
}

#define __SBM_COPY(sbm, buf, size, dir)					\
	((void)(sbm), (void)(size), (void)(dir), (buf))
#define __SBM_MAP(sbm, buf, size, writable)				\
	((void)(sbm), (void)(size), (void)(writable), (buf))

#endif /* CONFIG_SANDBOX_MODE */

/**
 * SBM_COPY_IN() - give the sandbox a private copy of an input buffer
 * @sbm:  sandbox instance
 * @buf:  the caller's buffer
 * @size: its size in bytes
 *
 * The copy is read-only for the target function. It is filled from @buf
 * each time sbm_exec() runs, so @buf must stay valid until the last call.
 *
 * Return: the address of the copy, of the type of @buf (an array decays to
 * a pointer to its first element); ZERO_SIZE_PTR if @size is 0; NULL if
 * the instance has failed, in which case sbm_error() says why. Without
 * CONFIG_SANDBOX_MODE, @buf itself.
 */
#define SBM_COPY_IN(sbm, buf, size)	__SBM_COPY(sbm, buf, size, SBM_BUF_IN)

/**
 * SBM_COPY_OUT() - give the sandbox a private output buffer
 * @sbm:  sandbox instance
 * @buf:  the caller's buffer
 * @size: its size in bytes
 *
 * The copy starts zero-filled. Its first @size bytes are copied back to
 * @buf after each call that the sandbox completes; an aborted call leaves
 * @buf untouched.
 *
 * Return: as for SBM_COPY_IN().
 */
#define SBM_COPY_OUT(sbm, buf, size)	__SBM_COPY(sbm, buf, size, SBM_BUF_OUT)

/**
 * SBM_COPY_INOUT() - give the sandbox a private copy to update
 * @sbm:  sandbox instance
 * @buf:  the caller's buffer
 * @size: its size in bytes
 *
 * Combines SBM_COPY_IN() and SBM_COPY_OUT(): filled from @buf before the
 * call, copied back after a completed call.
 *
 * Return: as for SBM_COPY_IN().
 */
#define SBM_COPY_INOUT(sbm, buf, size)					\
	__SBM_COPY(sbm, buf, size, SBM_BUF_INOUT)

/**
 * SBM_MAP_READONLY() - let the sandbox read caller memory in place
 * @sbm:  sandbox instance
 * @buf:  the caller's memory
 * @size: its size in bytes
 *
 * Nothing is copied and there are no guard pages: every page that
 * [@buf, @buf + @size) touches becomes readable at its own address. Use it
 * for large data that the target only reads, knowing that the rest of
 * those pages is exposed too.
 *
 * Return: @buf, of its own type; ZERO_SIZE_PTR if @size is 0; NULL if the
 * instance has failed.
 */
#define SBM_MAP_READONLY(sbm, buf, size)	__SBM_MAP(sbm, buf, size, false)

/**
 * SBM_MAP_WRITABLE() - let the sandbox modify caller memory in place
 * @sbm:  sandbox instance
 * @buf:  the caller's memory
 * @size: its size in bytes
 *
 * Like SBM_MAP_READONLY(), but the pages are writable, and a target that
 * is aborted may leave them half-written.
 *
 * Return: as for SBM_MAP_READONLY().
 */
#define SBM_MAP_WRITABLE(sbm, buf, size)	__SBM_MAP(sbm, buf, size, true)

/*
 * Helpers for the call macros, which take their parameters as "type, name"
 * pairs, zero to six of them. __SBM_JOIN() and __SBM_EACH() apply
 * __SBM_<kind>(type, name) to every pair, with or without commas between
 * the results; __SBM_ID() only groups tokens.
 */
#define __SBM_ID(...)			__VA_ARGS__
#define __SBM_NPAIRS(...)		CONCATENATE(__SBM_HALF_, COUNT_ARGS(__VA_ARGS__))
#define __SBM_HALF_0			0
#define __SBM_HALF_2			1
#define __SBM_HALF_4			2
#define __SBM_HALF_6			3
#define __SBM_HALF_8			4
#define __SBM_HALF_10			5
#define __SBM_HALF_12			6

#define __SBM_JOIN0(...)
#define __SBM_JOIN1(kind, t, a)		__SBM_##kind(t, a)
#define __SBM_JOIN2(kind, t, a, ...)	__SBM_ID(__SBM_##kind(t, a), __SBM_JOIN1(kind, __VA_ARGS__))
#define __SBM_JOIN3(kind, t, a, ...)	__SBM_ID(__SBM_##kind(t, a), __SBM_JOIN2(kind, __VA_ARGS__))
#define __SBM_JOIN4(kind, t, a, ...)	__SBM_ID(__SBM_##kind(t, a), __SBM_JOIN3(kind, __VA_ARGS__))
#define __SBM_JOIN5(kind, t, a, ...)	__SBM_ID(__SBM_##kind(t, a), __SBM_JOIN4(kind, __VA_ARGS__))
#define __SBM_JOIN6(kind, t, a, ...)	__SBM_ID(__SBM_##kind(t, a), __SBM_JOIN5(kind, __VA_ARGS__))
#define __SBM_JOIN(kind, ...)						\
	CONCATENATE(__SBM_JOIN, __SBM_NPAIRS(__VA_ARGS__))(kind, __VA_ARGS__)

#define __SBM_EACH0(...)
#define __SBM_EACH1(kind, t, a)		__SBM_##kind(t, a)
#define __SBM_EACH2(kind, t, a, ...)	__SBM_ID(__SBM_##kind(t, a) __SBM_EACH1(kind, __VA_ARGS__))
#define __SBM_EACH3(kind, t, a, ...)	__SBM_ID(__SBM_##kind(t, a) __SBM_EACH2(kind, __VA_ARGS__))
#define __SBM_EACH4(kind, t, a, ...)	__SBM_ID(__SBM_##kind(t, a) __SBM_EACH3(kind, __VA_ARGS__))
#define __SBM_EACH5(kind, t, a, ...)	__SBM_ID(__SBM_##kind(t, a) __SBM_EACH4(kind, __VA_ARGS__))
#define __SBM_EACH6(kind, t, a, ...)	__SBM_ID(__SBM_##kind(t, a) __SBM_EACH5(kind, __VA_ARGS__))
#define __SBM_EACH(kind, ...)						\
	CONCATENATE(__SBM_EACH, __SBM_NPAIRS(__VA_ARGS__))(kind, __VA_ARGS__)

/* What each kind makes of a "type, name" pair. */
#define __SBM_DECL(type, name)		__SBM_ID(type name)
#define __SBM_FIELD(type, name)		__SBM_ID(type name;)
#define __SBM_PARAM(type, name)		__SBM_ID(, type name)
#define __SBM_STORE(type, name)		__SBM_ID((type)name)
#define __SBM_LOAD(type, name)		__SBM_ID((type)__sbm_args.name)

/* A parameter list: "void" when there are no parameters. */
#define __SBM_VOID_0			void
#define __SBM_VOID_1
#define __SBM_VOID_2
#define __SBM_VOID_3
#define __SBM_VOID_4
#define __SBM_VOID_5
#define __SBM_VOID_6
#define __SBM_PARAMS(...)						\
	__SBM_ID(__SBM_JOIN(DECL, __VA_ARGS__)				\
		 CONCATENATE(__SBM_VOID_, __SBM_NPAIRS(__VA_ARGS__)))

#define __SBM_DEFINE_HELPER(f, ...)					\
	struct __sbm_args_##f {						\
		__SBM_EACH(FIELD, __VA_ARGS__)		\
	};								\
	static __always_inline int __sbm_call_##f(struct sbm *__sbm	\
		__SBM_EACH(PARAM, __VA_ARGS__))		\
	{								\
		struct __sbm_args_##f __sbm_args = {			\
			__SBM_JOIN(STORE, __VA_ARGS__)			\
		};							\
		return sbm_exec_args(__sbm, __sbm_thunk_##f, &__sbm_args, \
				     sizeof(__sbm_args));		\
	}

/**
 * SBM_DEFINE_CALL() - declare the sandbox call helper of a function
 * @f:   the function, which returns int
 * @...: its parameters as type, name pairs (at most six), each of a scalar
 *       or pointer type
 *
 * Declares the thunk of @f and the structure that carries its arguments,
 * and defines an inline helper that stores the arguments in that structure
 * on the caller's stack and runs the thunk with sbm_exec_args(), which
 * hands the target a private copy of the structure. Usable in a
 * header; pair it with SBM_DEFINE_THUNK() in one source file. A storage
 * class written before the macro (``static``) applies to the thunk.
 */
#define SBM_DEFINE_CALL(f, ...)						\
	int __sbm_thunk_##f(void *__sbm_data);				\
	__SBM_DEFINE_HELPER(f, __VA_ARGS__)

/**
 * SBM_DEFINE_THUNK() - define the sandbox entry point of a function
 * @f:   the function, which returns int
 * @...: its parameters as type, name pairs, as given to SBM_DEFINE_CALL()
 *
 * Defines the thunk that unpacks the argument structure and calls @f. A
 * storage class written before the macro applies to the thunk.
 */
#define SBM_DEFINE_THUNK(f, ...)					\
	int __sbm_thunk_##f(void *__sbm_data)				\
	{								\
		struct __sbm_args_##f __sbm_args __maybe_unused =	\
			*(struct __sbm_args_##f *)__sbm_data;		\
									\
		return f(__SBM_JOIN(LOAD, __VA_ARGS__));		\
	}

/**
 * SBM_DEFINE_FUNC() - define a function together with its sandbox helpers
 * @f:   the function to define; it returns int
 * @...: its parameters as type, name pairs (at most six)
 *
 * Declares @f, defines its call helper and thunk, and ends with the head of
 * @f, so that the body of @f follows the macro (or a semicolon, to declare
 * only). A storage class written before the macro applies to @f and to its
 * thunk::
 *
 *	static SBM_DEFINE_FUNC(parse, const u8 *, in, size_t, len, u32 *, out)
 *	{
 *		...
 *	}
 */
#define SBM_DEFINE_FUNC(f, ...)						\
	int __sbm_thunk_##f(void *__sbm_data), f(__SBM_PARAMS(__VA_ARGS__)); \
	__SBM_DEFINE_HELPER(f, __VA_ARGS__)				\
	SBM_DEFINE_THUNK(f, __VA_ARGS__)				\
	int f(__SBM_PARAMS(__VA_ARGS__))

/**
 * sbm_call() - call a function in the sandbox
 * @sbm: sandbox instance
 * @f:   a function with a helper from SBM_DEFINE_CALL() or SBM_DEFINE_FUNC()
 * @...: its arguments
 *
 * Return: what sbm_exec() returns.
 */
#define sbm_call(sbm, f, ...)	__sbm_call_##f(sbm, ##__VA_ARGS__)

#endif /* _LINUX_SBM_H */
