// SPDX-License-Identifier: GPL-2.0
/*
 * tr-execbench - the timings of make bench, printed as the median of
 * ROUNDS rounds, in nanoseconds (under QEMU's -icount shift=0, guest
 * instructions):
 *   tr-execbench [--parallel N] ROUNDS COUNT PROG ARGS...
 *	per fork + exec + wait of PROG; with --parallel, N processes each
 *	run COUNT of them at once and a round's time is divided by N * COUNT
 *	(the throughput of N concurrent exec loops)
 *   tr-execbench --write ROUNDS FILE TEXT [TEXT...]
 *	per write of a TEXT to FILE, in one write(2) each, the TEXTs taken
 *	in turn (e.g. 0 then 1 to /sys/fs/selinux/enforce); a TEXT "@PATH"
 *	is the content of PATH (a policy to load)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

#define MAX_ROUNDS	64
#define MAX_TEXTS	8

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

static int parse_rounds(const char *s)
{
	int rounds = atoi(s);

	if (rounds < 1 || rounds > MAX_ROUNDS)
		tr_usage_error("ROUNDS must be 1..%d", MAX_ROUNDS);
	return rounds;
}

/* COUNT fork + exec + wait of argv in a row */
static void exec_loop(int count, char **argv)
{
	int i, status;
	pid_t pid;

	for (i = 0; i < count; i++) {
		pid = fork();
		if (pid < 0)
			tr_die(1, "fork: %s", strerror(errno));
		if (!pid) {
			execvp(argv[0], argv);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) == 127)
			tr_die(1, "%s did not run", argv[0]);
	}
}

static long long exec_round(int loops, int count, char **argv)
{
	long long start = now_ns();
	int i, status, bad = 0;
	pid_t pid;

	if (loops == 1) {
		exec_loop(count, argv);
		return (now_ns() - start) / count;
	}
	for (i = 0; i < loops; i++) {
		pid = fork();
		if (pid < 0)
			tr_die(1, "fork: %s", strerror(errno));
		if (!pid) {
			exec_loop(count, argv);
			_exit(0);
		}
	}
	while (wait(&status) > 0)
		bad |= !WIFEXITED(status) || WEXITSTATUS(status);
	if (bad)
		tr_die(1, "an exec loop failed");
	return (now_ns() - start) / ((long long)loops * count);
}

static char *slurp(const char *path, size_t *len)
{
	struct stat st;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0)
		tr_die(TR_EXIT_SETUP, "%s: %s", path, strerror(errno));
	buf = malloc(st.st_size + 1);
	if (!buf || read(fd, buf, st.st_size) != st.st_size)
		tr_die(TR_EXIT_SETUP, "reading %s", path);
	close(fd);
	*len = st.st_size;
	return buf;
}

static long long write_once(const char *file, const char *text, size_t len)
{
	long long start;
	ssize_t n;
	int fd;

	fd = open(file, O_WRONLY);
	if (fd < 0)
		tr_die(1, "%s: %s", file, strerror(errno));
	start = now_ns();
	n = write(fd, text, len);
	start = now_ns() - start;
	if (n != (ssize_t)len)
		tr_die(1, "write to %s: %s", file,
		       n < 0 ? strerror(errno) : "short write");
	close(fd);
	return start;
}

static int usage(int status)
{
	printf("Usage: tr-execbench [--parallel N] ROUNDS COUNT PROG ARGS...\n"
	       "       tr-execbench --write ROUNDS FILE TEXT [TEXT...]\n"
	       "Print the median ns per fork+exec+wait of PROG (N loops at "
	       "once: per exec of all),\nor per write of a TEXT (@PATH: the "
	       "content of PATH) to FILE, TEXTs in turn.\n");
	return status;
}

int main(int argc, char **argv)
{
	long long per[MAX_ROUNDS];
	int rounds, count, r, loops = 1;

	tr_prog = "tr-execbench";
	if (argc > 1 && !strcmp(argv[1], "--help"))
		return usage(0);
	if (argc > 1 && !strcmp(argv[1], "--write")) {
		size_t len[MAX_TEXTS];
		char *text[MAX_TEXTS];
		int ntexts = argc - 4, i;

		if (ntexts < 1 || ntexts > MAX_TEXTS)
			tr_usage_error("--write needs ROUNDS FILE and 1..%d TEXTs",
				       MAX_TEXTS);
		rounds = parse_rounds(argv[2]);
		for (i = 0; i < ntexts; i++) {
			if (argv[4 + i][0] == '@') {
				text[i] = slurp(argv[4 + i] + 1, &len[i]);
			} else {
				text[i] = argv[4 + i];
				len[i] = strlen(text[i]);
			}
		}
		for (r = 0; r < rounds; r++)
			per[r] = write_once(argv[3], text[r % ntexts],
					    len[r % ntexts]);
	} else {
		if (argc > 2 && !strcmp(argv[1], "--parallel")) {
			loops = atoi(argv[2]);
			if (loops < 1 || loops > 64)
				tr_usage_error("--parallel N: N must be 1..64");
			argv += 2;
			argc -= 2;
		}
		if (argc < 4)
			return usage(TR_EXIT_USAGE);
		rounds = parse_rounds(argv[1]);
		count = atoi(argv[2]);
		if (count < 1)
			tr_usage_error("COUNT must be positive");
		for (r = 0; r < rounds; r++)
			per[r] = exec_round(loops, count, argv + 3);
	}
	qsort(per, rounds, sizeof(per[0]), cmp);
	printf("%lld\n", per[rounds / 2]);
	return 0;
}
