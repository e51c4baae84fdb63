/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the OpenPGP packet parser (pgp_packet.c) takes from the kernel,
 * for building it in user space (tools/pgp-host-fuzz.sh). The kernel
 * headers it includes are empty files there.
 */

#ifndef PGP_HOST_FUZZ_H
#define PGP_HOST_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#define EINVAL		22
#define EBADMSG		74
#define ENOPKG		65

#define U16_MAX		0xffffU
#define U32_MAX		0xffffffffU
#define PAGE_SIZE	4096
#define PAGE_OFFSET	0UL
#define IS_ENABLED(option)	(sizeof(#option) == 0)
#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, val)	((x) = (val))

/* The parser's sandbox glue is the kernel's business. */
#define SBM_DEFINE_CALL(...)
#define SBM_DEFINE_THUNK(...)

static inline u32 DIV_ROUND_UP(u32 n, u32 d)
{
	return (n + d - 1) / d;
}

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = p;

	return b[0] << 8 | b[1];
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
}

#endif /* PGP_HOST_FUZZ_H */
