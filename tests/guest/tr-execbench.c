// SPDX-License-Identifier: GPL-2.0
/*
 * tr-execbench - time fork + exec + wait of a program, for the exec cost
 * of an LSM: prints the median nanoseconds per exec over ROUNDS rounds of
 * COUNT execs each.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	long long per[64], start;
	int rounds, count, r, i, status;
	pid_t pid;

	tr_prog = "tr-execbench";
	if (argc < 4 || !strcmp(argv[1], "--help")) {
		printf("Usage: tr-execbench ROUNDS COUNT PROG ARGS...\n"
		       "Print the median ns per fork+exec+wait of PROG.\n");
		return argc < 4 ? 2 : 0;
	}
	rounds = atoi(argv[1]);
	count = atoi(argv[2]);
	if (rounds < 1 || rounds > 64 || count < 1)
		tr_usage_error("ROUNDS must be 1..64 and COUNT positive");
	for (r = 0; r < rounds; r++) {
		start = now_ns();
		for (i = 0; i < count; i++) {
			pid = fork();
			if (pid < 0)
				tr_die(1, "fork: %s", strerror(errno));
			if (!pid) {
				execvp(argv[3], argv + 3);
				_exit(127);
			}
			if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
			    WEXITSTATUS(status) == 127)
				tr_die(1, "%s did not run", argv[3]);
		}
		per[r] = (now_ns() - start) / count;
	}
	qsort(per, rounds, sizeof(per[0]), cmp);
	printf("%lld\n", per[rounds / 2]);
	return 0;
}
