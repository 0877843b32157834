/* SPDX-License-Identifier: GPL-2.0 */
/* userspace/compat: BIT() and friends from the kernel's <linux/bits.h>. */
#ifndef _TRIAGE_COMPAT_LINUX_BITS_H
#define _TRIAGE_COMPAT_LINUX_BITS_H

#define BIT(nr)		(1UL << (nr))
#define BIT_ULL(nr)	(1ULL << (nr))

#endif
