// SPDX-License-Identifier: GPL-2.0
/*
 * tr-asuser - run a program as an unprivileged uid/gid, without
 * supplementary groups or capabilities, to test that the kernel refuses
 * what only an administrator may do.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

int main(int argc, char **argv)
{
	char *end;
	long id;

	tr_prog = "tr-asuser";
	if (argc < 3 || !strcmp(argv[1], "--help")) {
		printf("Usage: tr-asuser UID PROG ARGS...\n"
		       "Run PROG with real, effective and saved uid and gid UID.\n");
		return argc < 3 ? 2 : 0;
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
