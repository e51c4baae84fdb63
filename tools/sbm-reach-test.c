// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only object for tools/sbm-reach-test.py: sandboxed entry points,
 * named as SBM_DEFINE_THUNK() names them, that reach code the build-time
 * check must accept and code it must report. Built for the host with the
 * kernel's code model, never linked.
 */

#include "sbm-reach-test.h"

/* Services: kfree_like for every target, svc_demo for demo only. */
static const char allow_kfree_like __asm__("__sbm_allow..kfree_like")
	__used = 1;
static const char allow_svc_demo __asm__("__sbm_allow.demo.svc_demo")
	__used = 1;
/* The attack target breaks the rules on purpose. */
static const char expect_attack __asm__("__sbm_expect_fault.attack")
	__used = 1;

int counter;
static const int squares[4] = { 0, 1, 4, 9 };
int pcpu_counter __section(".data..percpu") = 1;

#define PER_CPU(type, var) (*(type __seg_gs *)(unsigned long)&(var))

/* Reads its buffer, read-only data and the canary: may run. */
__noipa int safe_helper(const int *buf, int n)
{
	char copy[16];
	int i, sum = 0;

	if (n < 0)
		__builtin_trap();
	for (i = 0; i < n && i < 16; i++)
		copy[i] = (char)buf[i];
	for (i = 0; i < n && i < 16; i++)
		sum += copy[i] * squares[i & 3];
	return sum;
}

/* The sandbox's stand-in for pcpu_hot: may run. */
__noipa int read_preempt_count(void)
{
	return PER_CPU(struct hot, pcpu_hot).preempt_count;
}

#ifndef ONLY_SAFE
/* The deliberately forbidden call: writes kernel .bss. */
__noipa void forbidden_write(int v)
{
	counter = v;
}

/* Not a leaf in the sandbox, but SBM runs it for demo. */
__noipa int svc_demo(int v)
{
	counter += v;
	return counter;
}

__noipa int privileged(void)
{
	__asm__ volatile("cli" ::: "memory");
	return 0;
}

__noipa int percpu_bump(void)
{
	return ++PER_CPU(int, pcpu_counter);
}

int __sbm_thunk_demo(void *data)
{
	int *buf = data;

	buf[0] = safe_helper(buf, 4);
	buf[1] = svc_demo(buf[0]);
	forbidden_write(buf[1]);
	kfree_like(buf);
	return read_preempt_count();
}

int __sbm_thunk_other(void *data)
{
	return svc_demo(1) + privileged() + percpu_bump();
}

int __sbm_thunk_attack(void *data)
{
	forbidden_write(2);
	return 0;
}

int __sbm_thunk_indirect(void *data)
{
	int (*f)(void) = *(int (**)(void))data;

	return f();
}
#endif

int __sbm_thunk_clean(void *data)
{
	kfree_like(data);
	return safe_helper(data, 8) + read_preempt_count();
}
