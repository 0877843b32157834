/* SPDX-License-Identifier: GPL-2.0 */
/*
 * userspace/compat: just enough of the kernel's <linux/types.h> for the
 * triage policy sources to build unchanged in userspace.  The system's
 * uapi <linux/types.h> is included too, since libc headers rely on it.
 */
#ifndef _TRIAGE_COMPAT_LINUX_TYPES_H
#define _TRIAGE_COMPAT_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

/* compiler attributes the kernel gets from <linux/compiler_attributes.h> */
#ifndef __printf
#define __printf(a, b)	__attribute__((__format__(printf, a, b)))
#endif
#ifndef __always_unused
#define __always_unused	__attribute__((__unused__))
#endif
#ifndef __maybe_unused
#define __maybe_unused	__attribute__((__unused__))
#endif

#endif
