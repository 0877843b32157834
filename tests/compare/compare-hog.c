// SPDX-License-Identifier: GPL-2.0
/*
 * compare-hog - the workloads of make compare (tests/compare/driver):
 * installed in the guest as /usr/local/lib/compare/postgres (the
 * database: holds its memory and touches it, as a buffer pool is used)
 * and /usr/local/lib/compare/batchjob (the leaker and the thrashing job).
 *
 *   compare-hog --mib N [--touch-ms MS]        hold N MiB, touch it every MS ms
 *   compare-hog --leak [--rate R] [--mib N]    N MiB, then R MiB/s more, forever
 *                                              (R 0: as fast as it can)
 *   compare-hog --thrash --mib N               touch N MiB in turn, forever
 * and, before any of them:
 *   --comm NAME           prctl(PR_SET_NAME) and argv[0] NAME: the name
 *                         earlyoom's --avoid and nohang's name rules see
 *   --oom-score-adj N     write N to /proc/self/oom_score_adj (lowering it
 *                         needs CAP_SYS_RESOURCE: root in a system unit has it)
 *   --ready FILE          write "PID START_NS ADJ" to FILE (atomically) when
 *                         the work starts: START_NS is CLOCK_MONOTONIC in ns,
 *                         which the driver shares; ADJ the oom_score_adj read
 *                         back after --oom-score-adj (or the inherited one)
 *   --resident FILE       write "PID NS" to FILE once N MiB are resident
 *
 * Pages are filled with pseudo-random words on first touch, so that
 * neither zram's same-filled pages nor KSM make them free; a touch later
 * writes one word per page.  Memory is reserved with MAP_NORESERVE and
 * made resident page by page, so a leak never fails an allocation: it
 * grows until something kills it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define MIB (1024UL * 1024UL)
#define PAGE 4096UL
#define RESERVE_MIB (64UL * 1024UL)	/* address space, not memory */

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void sleep_ns(unsigned long long ns)
{
	struct timespec ts = { ns / 1000000000ULL, ns % 1000000000ULL };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static _Noreturn void die(const char *what)
{
	fprintf(stderr, "compare-hog: %s: %s\n", what, strerror(errno));
	exit(1);
}

static unsigned long num(const char *opt, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "compare-hog: %s: bad number '%s'\n", opt, s);
		exit(2);
	}
	return (unsigned long)v;
}

/* PATH.tmp then rename: a reader never sees half of it */
static void write_file(const char *path, const char *text)
{
	char tmp[4096];
	int fd;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    close(fd) || rename(tmp, path))
		die(path);
}

static uint64_t rnd = 0x9e3779b97f4a7c15ULL;

/* make page I resident with pseudo-random contents */
static void fill(char *base, unsigned long i)
{
	uint64_t *w = (uint64_t *)(base + i * PAGE);
	unsigned long k;

	for (k = 0; k < PAGE / sizeof(*w); k++) {
		rnd ^= rnd << 13;
		rnd ^= rnd >> 7;
		rnd ^= rnd << 17;
		w[k] = rnd;
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mib", required_argument, NULL, 'm' },
		{ "touch-ms", required_argument, NULL, 't' },
		{ "leak", no_argument, NULL, 'l' },
		{ "rate", required_argument, NULL, 'r' },
		{ "thrash", no_argument, NULL, 'T' },
		{ "comm", required_argument, NULL, 'c' },
		{ "oom-score-adj", required_argument, NULL, 'a' },
		{ "ready", required_argument, NULL, 'R' },
		{ "resident", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long mib = 0, touch_ms = 0, rate = 0, pages, i;
	const char *comm = NULL, *adj = NULL, *ready = NULL, *resident = NULL;
	int leak = 0, thrash = 0, c, fd;
	char text[256], adjnow[32] = "?";
	unsigned long long start;
	char *base;
	ssize_t n;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'm': mib = num("--mib", optarg, 0, RESERVE_MIB); break;
		case 't': touch_ms = num("--touch-ms", optarg, 1, 3600000); break;
		case 'l': leak = 1; break;
		case 'r': rate = num("--rate", optarg, 0, 100000); break;
		case 'T': thrash = 1; break;
		case 'c': comm = optarg; break;
		case 'a': adj = optarg; num("--oom-score-adj", optarg, -1000, 1000); break;
		case 'R': ready = optarg; break;
		case 'S': resident = optarg; break;
		default: exit(2);
		}
	}
	if (optind < argc || (leak && thrash) || (!leak && !mib)) {
		fprintf(stderr, "compare-hog: see the comment at the top of tests/compare/compare-hog.c\n");
		exit(2);
	}
	if (comm) {
		size_t len = strlen(argv[0]);

		/* what ps, /proc/PID/cmdline and nohang's cmdline rules see */
		memset(argv[0], 0, len);
		strncpy(argv[0], comm, len);
		if (prctl(PR_SET_NAME, comm, 0, 0, 0))
			die("prctl(PR_SET_NAME)");
	}
	if (adj) {
		fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
		/* a refusal (no CAP_SYS_RESOURCE) is not fatal: ADJ says it */
		if (fd < 0 || write(fd, adj, strlen(adj)) < 0)
			fprintf(stderr, "compare-hog: oom_score_adj %s: %s\n", adj, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	fd = open("/proc/self/oom_score_adj", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, adjnow, sizeof(adjnow) - 1);
		adjnow[n > 0 ? n : 0] = '\0';
		adjnow[strcspn(adjnow, "\n")] = '\0';
		close(fd);
	}
	base = mmap(NULL, RESERVE_MIB * MIB, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		die("mmap");
	start = now_ns();
	if (ready) {
		snprintf(text, sizeof(text), "%ld %llu %s\n", (long)getpid(), start, adjnow);
		write_file(ready, text);
	}
	pages = mib * (MIB / PAGE);
	for (i = 0; i < pages; i++)
		fill(base, i);
	if (resident) {
		snprintf(text, sizeof(text), "%ld %llu\n", (long)getpid(), now_ns());
		write_file(resident, text);
	}
	if (leak) {
		/* R MiB a second, in steps of 1/10 s; R 0: no pause */
		unsigned long per_step = rate ? (rate * (MIB / PAGE) + 9) / 10 : 256;
		unsigned long long next = now_ns();

		for (;;) {
			unsigned long end = pages + per_step;

			if (end > RESERVE_MIB * (MIB / PAGE))
				for (;;)
					pause();
			for (; pages < end; pages++)
				fill(base, pages);
			if (rate) {
				next += 100000000ULL;
				if (next > now_ns())
					sleep_ns(next - now_ns());
			}
		}
	}
	for (;;) {
		unsigned long long t0 = now_ns();

		for (i = 0; i < pages; i++)
			((volatile uint64_t *)(base + i * PAGE))[i % (PAGE / 8)]++;
		if (!thrash) {
			unsigned long long spent = now_ns() - t0;

			if (!touch_ms)
				for (;;)
					pause();
			if (spent < touch_ms * 1000000ULL)
				sleep_ns(touch_ms * 1000000ULL - spent);
		}
	}
}
