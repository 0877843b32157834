// SPDX-License-Identifier: GPL-2.0
/* triagectl: check, load and inspect the triage OOM policy. */
#include <unistd.h>

#include "triagectl.h"

int main(int argc, char **argv)
{
	struct tc_ctx ctx = {
		.out = stdout,
		.err = stderr,
		.root = TC_DEFAULT_ROOT,
		.proc = "/proc",
		.sys = "/sys",
		.boot = "/boot",
		.dpkg_query = "/usr/bin/dpkg-query",
		.write_policy = write,
		.follow_ms = 30000,
	};
	int rc = tc_main(&ctx, argc, argv);

	if (fflush(stdout) && rc == TC_EXIT_OK)
		rc = TC_EXIT_ERROR;
	return rc;
}
