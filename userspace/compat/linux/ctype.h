/* SPDX-License-Identifier: GPL-2.0 */
/* userspace/compat: the kernel's <linux/ctype.h> is libc's <ctype.h>. */
#ifndef _TRIAGE_COMPAT_LINUX_CTYPE_H
#define _TRIAGE_COMPAT_LINUX_CTYPE_H

#include <ctype.h>

#endif
