// SPDX-License-Identifier: GPL-2.0
/*
 * The escapes of the interface files, decoded: each byte <= 0x20, >= 0x7f
 * and the backslash written as a backslash and three octal digits.  Alone
 * in its file so that triage-pressured, which links nothing else of
 * triagectl, decodes paths exactly as triagectl decodes labels.
 */
#include "triagectl.h"

static int tc_odigit(char c)
{
	return c >= '0' && c <= '7' ? c - '0' : -1;
}

void tc_unescape(char *s)
{
	char *o = s;

	while (*s) {
		if (s[0] == '\\' && tc_odigit(s[1]) >= 0 && tc_odigit(s[1]) <= 3 &&
		    tc_odigit(s[2]) >= 0 && tc_odigit(s[3]) >= 0) {
			int v = tc_odigit(s[1]) * 64 + tc_odigit(s[2]) * 8 +
				tc_odigit(s[3]);

			if (v) {
				*o++ = (char)v;
				s += 4;
				continue;
			}
		}
		*o++ = *s++;
	}
	*o = '\0';
}
