// SPDX-License-Identifier: GPL-2.0
/*
 * common.c - code shared by the triage guest helpers; see common.h.
 */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *tr_prog = "tr";

static void vmsg(const char *fmt, va_list ap, int with_errno, int err)
{
	char buf[1024];
	int n;

	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < 0)
		buf[0] = '\0';
	if (with_errno)
		fprintf(stderr, "%s: %s failed: %s\n", tr_prog, buf,
			strerror(err));
	else
		fprintf(stderr, "%s: %s\n", tr_prog, buf);
	fflush(stderr);
}

void tr_msg(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 0, 0);
	va_end(ap);
	errno = err;
}

void tr_err(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 1, err);
	va_end(ap);
	errno = err;
}

void tr_die(int status, const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 1, err);
	va_end(ap);
	exit(status);
}

void tr_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap, 0, 0);
	va_end(ap);
	fprintf(stderr, "Try '%s --help'.\n", tr_prog);
	exit(TR_EXIT_USAGE);
}

unsigned long tr_parse_num(const char *opt, const char *s,
			   unsigned long min, unsigned long max)
{
	unsigned long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		tr_usage_error("%s: '%s' is not a number", opt, s ? s : "");
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end)
		tr_usage_error("%s: '%s' is not a number", opt, s);
	if (v < min || v > max)
		tr_usage_error("%s: %lu is out of range [%lu, %lu]", opt, v,
			       min, max);
	return v;
}

void tr_sleep_ms(unsigned long ms)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ms / 1000),
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

unsigned long long tr_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000ULL +
	       (unsigned long long)ts.tv_nsec / 1000000ULL;
}

static int write_all(int fd, const char *text, size_t len)
{
	while (len) {
		ssize_t n = write(fd, text, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		text += n;
		len -= (size_t)n;
	}
	return 0;
}

int tr_write_file(const char *path, const char *text)
{
	char tmp[PATH_MAX];
	int fd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		tr_err("write %s", path);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		tr_err("open %s", tmp);
		return -1;
	}
	if (write_all(fd, text, strlen(text))) {
		err = errno;
		close(fd);
		unlink(tmp);
		errno = err;
		tr_err("write %s", tmp);
		return -1;
	}
	if (close(fd)) {
		err = errno;
		unlink(tmp);
		errno = err;
		tr_err("close %s", tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		err = errno;
		unlink(tmp);
		errno = err;
		tr_err("rename %s to %s", tmp, path);
		return -1;
	}
	return 0;
}

int tr_write_existing(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, err;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do
		n = write(fd, text, len);
	while (n < 0 && errno == EINTR);
	err = errno;
	close(fd);
	if (n < 0) {
		errno = err;
		return -1;
	}
	if ((size_t)n != len) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int tr_mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);
	char *p;

	if (len == 0 || len >= sizeof(buf)) {
		errno = len ? ENAMETOOLONG : ENOENT;
		return -1;
	}
	memcpy(buf, path, len + 1);
	for (p = buf + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = c;
		if (!c)
			break;
	}
	return 0;
}

const char *tr_signame(int sig)
{
	static char buf[32];
	const char *abbrev = sigabbrev_np(sig);

	if (!abbrev)
		return "SIG?";
	snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	return buf;
}

int tr_describe_status(int status, char *human, size_t hlen,
		       char *key, size_t klen)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		snprintf(human, hlen, "killed by signal %d (%s)", sig,
			 tr_signame(sig));
		snprintf(key, klen, "killed:%d", sig);
		return 128 + sig;
	}
	snprintf(human, hlen, "exited %d", WEXITSTATUS(status));
	snprintf(key, klen, "exited:%d", WEXITSTATUS(status));
	return WEXITSTATUS(status);
}

/*
 * Map and dirty one MiB. Mapping in 1 MiB pieces keeps every mmap() small,
 * so a large hog is stopped by the OOM killer, not refused by the overcommit
 * heuristic; adjacent anonymous mappings merge into one VMA anyway.
 */
/* The MiBs a thrashing hog revisits (--thrash) */
#define HOG_THRASH_MAX_MIB 4096
static volatile unsigned char *hog_mibs[HOG_THRASH_MAX_MIB];

static long hog_page_size(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 0 ? page : 4096;
}

/* Half a page of pseudo-random bytes: zram stores such a page in about half */
static void hog_fill_half(volatile unsigned char *page, size_t size,
			  unsigned long *seed)
{
	size_t i;

	for (i = 0; i < size / 2; i += sizeof(unsigned long)) {
		*seed ^= *seed << 13;
		*seed ^= *seed >> 7;
		*seed ^= *seed << 17;
		*(volatile unsigned long *)(page + i) = *seed;
	}
}

static int hog_one_mib(unsigned long nth, int thrash)
{
	const size_t mib = 1UL << 20;
	size_t page = (size_t)hog_page_size();
	unsigned long seed = 0x9e3779b97f4a7c15UL ^ nth;
	volatile unsigned char *p;
	size_t off;

	p = mmap(NULL, mib, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	/* A write fault per page: really resident, never the zero page. */
	for (off = 0; off < mib; off += page) {
		if (thrash)
			hog_fill_half(p + off, page, &seed);
		p[off + page - 1] = (unsigned char)(nth + off / page + 1);
	}
	if (thrash && nth < HOG_THRASH_MAX_MIB)
		hog_mibs[nth] = p;
	return 0;
}

/* Touch every page of the first N MiB in turn, forever */
static void hog_thrash(unsigned long n)
{
	size_t page = (size_t)hog_page_size(), off;
	unsigned long i;

	if (n > HOG_THRASH_MAX_MIB)
		n = HOG_THRASH_MAX_MIB;
	for (;;)
		for (i = 0; i < n; i++)
			for (off = 0; off < (1UL << 20); off += page)
				hog_mibs[i][off + page - 1]++;
}

static int hog_mib(unsigned long *done, unsigned long n, int retry,
		   int thrash)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		while (hog_one_mib(*done, thrash)) {
			if (!retry) {
				tr_err("mmap of 1 MiB (after %lu MiB)", *done);
				return -1;
			}
			/* --forever: wait for the OOM killer to act. */
			tr_sleep_ms(10);
		}
		(*done)++;
	}
	return 0;
}

int tr_hog_run(const struct tr_hog *h)
{
	unsigned long done = 0;
	unsigned long step = h->step_mib ? h->step_mib : h->mib;

	while (done < h->mib) {
		unsigned long n = h->mib - done < step ? h->mib - done : step;

		if (hog_mib(&done, n, h->forever, h->thrash))
			return 1;
		if (h->step_mib && h->step_ms && done < h->mib)
			tr_sleep_ms(h->step_ms);
	}
	if (h->ready) {
		char text[32];

		snprintf(text, sizeof(text), "%ld\n", (long)getpid());
		if (tr_write_file(h->ready, text))
			return 1;
	}
	if (h->forever) {
		step = h->step_mib ? h->step_mib : 1;
		for (;;) {
			if (h->step_ms)
				tr_sleep_ms(h->step_ms);
			if (hog_mib(&done, step, 1, 0))
				return 1;
		}
	}
	if (h->exit_when_ready)
		return 0;
	if (h->thrash)
		hog_thrash(done);
	for (;;)
		pause();
}
