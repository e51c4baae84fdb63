/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sbm

#if !defined(_TRACE_SBM_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SBM_H

#include <linux/sbm.h>
#include <linux/sbm_arch.h>
#include <linux/tracepoint.h>

TRACE_EVENT(sbm_enter,
	    TP_PROTO(const struct sbm *sbm, sbm_func func),
	    TP_ARGS(sbm, func),
	    TP_STRUCT__entry(__field(const void *, sbm)
			     __field(void *, func)),
	    TP_fast_assign(__entry->sbm = sbm;
			   __entry->func = func;),
	    TP_printk("sbm=%p func=%ps", __entry->sbm, __entry->func)
);

TRACE_EVENT(sbm_exit,
	    TP_PROTO(const struct sbm *sbm, sbm_func func, int ret,
		     u64 duration),
	    TP_ARGS(sbm, func, ret, duration),
	    TP_STRUCT__entry(__field(const void *, sbm)
			     __field(void *, func)
			     __field(int, ret)
			     __field(u64, duration)),
	    TP_fast_assign(__entry->sbm = sbm;
			   __entry->func = func;
			   __entry->ret = ret;
			   __entry->duration = duration;),
	    TP_printk("sbm=%p func=%ps ret=%d duration_ns=%llu", __entry->sbm,
		      __entry->func, __entry->ret, __entry->duration)
);

TRACE_EVENT(sbm_abort,
	    TP_PROTO(const struct sbm *sbm, sbm_func func,
		     const struct sbm_abort *abort),
	    TP_ARGS(sbm, func, abort),
	    TP_STRUCT__entry(__field(const void *, sbm)
			     __field(void *, func)
			     __field(int, err)
			     __field(unsigned int, kind)
			     __string(reason, abort->reason)
			     __field(unsigned long, addr)
			     __field(unsigned long, ip)),
	    TP_fast_assign(__entry->sbm = sbm;
			   __entry->func = func;
			   __entry->err = abort->err;
			   __entry->kind = abort->kind;
			   __assign_str(reason);
			   __entry->addr = abort->addr;
			   __entry->ip = abort->ip;),
	    TP_printk("sbm=%p func=%ps err=%d reason=\"%s\" addr=0x%lx ip=%pS",
		      __entry->sbm, __entry->func, __entry->err,
		      __get_str(reason), __entry->addr, (void *)__entry->ip)
);

#endif /* _TRACE_SBM_H */

#include <trace/define_trace.h>
