/* SPDX-License-Identifier: GPL-2.0 */
/*
 * userspace/compat: the parts of the kernel's <linux/kernel.h> the triage
 * policy sources use (ARRAY_SIZE, snprintf and friends, min/max).
 */
#ifndef _TRIAGE_COMPAT_LINUX_KERNEL_H
#define _TRIAGE_COMPAT_LINUX_KERNEL_H

#include <linux/limits.h>
#include <linux/types.h>
#include <stdarg.h>
#include <stdio.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#endif
