/* SPDX-License-Identifier: GPL-2.0 */
/*
 * common.h - code shared by the triage guest helpers (tr-run, tr-hog,
 * tr-forker, tr-waitfile): error reporting, option parsing, small file
 * writes and the memory hog used by tr-hog and tr-forker's children.
 */
#ifndef TR_COMMON_H
#define TR_COMMON_H

#include <stddef.h>
#include <sys/types.h>

/* Exit statuses shared by all helpers. */
#define TR_EXIT_USAGE	2	/* bad command line */
#define TR_EXIT_SETUP	127	/* could not start what was asked */

/* Name of the running helper, for messages ("tr-run", ...). */
extern const char *tr_prog;

/* "PROG: MSG\n" on stderr. */
void tr_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PROG: MSG failed: strerror(errno)\n" on stderr; errno is preserved. */
void tr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* tr_err() then exit(status). */
_Noreturn void tr_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "PROG: MSG\nTry 'PROG --help'.\n" on stderr, exit(TR_EXIT_USAGE). */
_Noreturn void tr_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * Parse a decimal unsigned number for option OPT; dies with a usage error
 * unless S is entirely a number in [min, max].
 */
unsigned long tr_parse_num(const char *opt, const char *s,
			   unsigned long min, unsigned long max);

/* Sleep MS milliseconds (restarting after signals). */
void tr_sleep_ms(unsigned long ms);
/* Monotonic clock in milliseconds. */
unsigned long long tr_now_ms(void);

/*
 * Write TEXT to PATH atomically (PATH.tmp then rename), so that a reader
 * waiting for PATH never sees it half written. Returns 0, or -1 with errno
 * set and a message printed.
 */
int tr_write_file(const char *path, const char *text);
/* Write TEXT to an existing file (e.g. cgroup.procs) in one write(). */
int tr_write_existing(const char *path, const char *text);
/* mkdir -p PATH (mode 0755). Returns 0 or -1 with errno set. */
int tr_mkdir_p(const char *path);

/* "SIGKILL" for 9; "SIG?" for unknown numbers. Static storage. */
const char *tr_signame(int sig);
/*
 * Describe a wait status: "exited 0" / "killed by signal 9 (SIGKILL)" into
 * HUMAN and "exited:0" / "killed:9" into KEY. Returns the shell-style exit
 * status (N, or 128+SIG).
 */
int tr_describe_status(int status, char *human, size_t hlen,
		       char *key, size_t klen);

/* What tr-hog (and each tr-forker child) does. */
struct tr_hog {
	unsigned long mib;	/* MiB to touch before becoming "ready" */
	const char *ready;	/* file created when mib MiB are resident */
	int exit_when_ready;	/* exit(0) when ready instead of holding */
	unsigned long step_mib;	/* 0: all at once; else MiB per step */
	unsigned long step_ms;	/* pause after each step */
	int forever;		/* keep allocating after ready, until killed */
	int thrash;		/* after ready, touch every page in turn, forever:
				 * with swap, a working set larger than memory
				 * thrashes (pages half random, so that zram
				 * halves them and swap does not run out) */
};

/*
 * Allocate and touch memory as H says. Returns only with --exit semantics
 * (status 0) or on error (non-zero, message printed); otherwise it holds
 * the memory (or keeps allocating) until the process is killed.
 */
int tr_hog_run(const struct tr_hog *h);

#endif /* TR_COMMON_H */
