/* SPDX-License-Identifier: GPL-2.0 */
/* userspace/compat: the kernel's allocators, mapped onto libc. */
#ifndef _TRIAGE_COMPAT_LINUX_SLAB_H
#define _TRIAGE_COMPAT_LINUX_SLAB_H

#include <linux/types.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned int gfp_t;

#define GFP_KERNEL	0U
#define GFP_ATOMIC	0U
#define GFP_NOWAIT	0U
#define __GFP_ZERO	0U

static inline void *kmalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return malloc(size ? size : 1);
}

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(1, size ? size : 1);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	return calloc(n ? n : 1, size ? size : 1);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	return kcalloc(n, size, gfp);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

static inline void *kvmalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp);
}

static inline void *kvzalloc(size_t size, gfp_t gfp)
{
	return kzalloc(size, gfp);
}

static inline void kvfree(const void *p)
{
	free((void *)p);
}

static inline void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kmalloc(len, gfp);

	if (p)
		memcpy(p, src, len);
	return p;
}

static inline char *kstrdup(const char *s, gfp_t gfp)
{
	return s ? kmemdup(s, strlen(s) + 1, gfp) : NULL;
}

#endif
