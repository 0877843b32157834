/* SPDX-License-Identifier: GPL-2.0 */
/* userspace/compat: the kernel's <linux/string.h> is mostly libc's. */
#ifndef _TRIAGE_COMPAT_LINUX_STRING_H
#define _TRIAGE_COMPAT_LINUX_STRING_H

#include <linux/types.h>
#include <string.h>

#endif
