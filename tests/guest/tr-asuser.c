// SPDX-License-Identifier: GPL-2.0
/*
 * tr-asuser - run a program as an unprivileged uid/gid, without
 * supplementary groups or capabilities, or as root without one capability,
 * to test that the kernel refuses what only an administrator may do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "common.h"

int main(int argc, char **argv)
{
	char *end;
	long id;

	tr_prog = "tr-asuser";
	if (argc < 3 || !strcmp(argv[1], "--help")) {
		printf("Usage: tr-asuser UID PROG ARGS...\n"
		       "       tr-asuser --drop-cap N PROG ARGS...\n"
		       "Run PROG with real, effective and saved uid and gid UID,\n"
		       "or as root with capability N dropped from the bounding set\n"
		       "(so that exec does not give it back).\n");
		return argc < 3 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--drop-cap")) {
		if (argc < 4)
			tr_usage_error("--drop-cap N PROG");
		id = strtol(argv[2], &end, 10);
		if (*end || id < 0 || id > 63)
			tr_usage_error("'%s' is not a capability number", argv[2]);
		if (prctl(PR_CAPBSET_DROP, id, 0, 0, 0))
			tr_die(1, "cannot drop capability %ld: %s", id, strerror(errno));
		execvp(argv[3], argv + 3);
		tr_die(127, "exec %s: %s", argv[3], strerror(errno));
	}
	errno = 0;
	id = strtol(argv[1], &end, 10);
	if (errno || *end || id <= 0)
		tr_usage_error("'%s' is not a positive uid", argv[1]);
	if (setgroups(0, NULL) || setresgid(id, id, id) || setresuid(id, id, id))
		tr_die(1, "cannot become uid %ld: %s", id, strerror(errno));
	execvp(argv[2], argv + 2);
	tr_die(127, "exec %s: %s", argv[2], strerror(errno));
}
