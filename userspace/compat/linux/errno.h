/* SPDX-License-Identifier: GPL-2.0 */
/* userspace/compat: the kernel's <linux/errno.h> is libc's errno values. */
#ifndef _TRIAGE_COMPAT_LINUX_ERRNO_H
#define _TRIAGE_COMPAT_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif
