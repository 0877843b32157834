/* SPDX-License-Identifier: GPL-2.0 */
/*
 * triage-pressured: the kernel's pressure file and what it answers, as
 * data (triage-pressured(8), THE PRESSURE FILE).  Nothing here allocates
 * or does I/O but through the write function it is given: the daemon's
 * event loop runs when memory is short, and the unit tests
 * (tests/unit/test_pressured.c) run all of it.
 */
#ifndef PRESSFILE_H
#define PRESSFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "policy.h"

/* the kernel's limits (security/triage/policy.h) */
#ifndef TRIAGE_PRESSURE_MAX
#define TRIAGE_PRESSURE_MAX	16
#endif

/* a statement's cgroup path, decoded, and its NUL */
#define TP_PATH_MAX	(TRIAGE_VALUE_MAX_LEN + 1)
/* the same path as the file writes it: each byte at most 4 */
#define TP_ESC_MAX	(4 * TRIAGE_VALUE_MAX_LEN + 1)
/* the whole file: the generation line and every statement's line */
#define TP_LINE_MAX	(TP_ESC_MAX + 128)
#define TP_READ_MAX	(64 + TRIAGE_PRESSURE_MAX * TP_LINE_MAX)
/* numbers of microseconds above this are malformed (PSI's own limit is 10 s) */
#define TP_US_MAX	1000000000000000ULL
/* "fire G N\n" */
#define TP_FIRE_MAX	48
/* "full STALL WINDOW" */
#define TP_TRIGGER_MAX	64
/* the reason of a malformed file */
#define TP_WHY_MAX	160

struct tp_stmt {
	unsigned int nr;		/* 1-based, in policy order */
	bool full;			/* "full", else "some" */
	unsigned long long stall_us;	/* PSI trigger threshold */
	unsigned long long window_us;	/* PSI trigger window */
	bool system;			/* scope "-": /proc/pressure/memory */
	char path[TP_PATH_MAX];		/* else the cgroup, decoded ("/batch.slice") */
	char shown[TP_ESC_MAX];		/* the cgroup as the file writes it (for logs) */
	unsigned long long kills;	/* early kills it caused so far */
};

struct tp_file {
	unsigned long long generation;
	unsigned int count;
	struct tp_stmt st[TRIAGE_PRESSURE_MAX];
};

/*
 * The whole file (@len bytes, not NUL-terminated) into @f.  Returns 0, or
 * -1 with the reason in @why ("line 2: ...") when anything is malformed:
 * then @f holds nothing usable.
 */
int tp_parse(const char *buf, size_t len, struct tp_file *f,
	     char *why, size_t whylen);

/*
 * Only the generation, from the start of the file (the rest of @buf may
 * be cut anywhere, the first line must be whole).  Returns 0 or -1.
 */
int tp_parse_generation(const char *buf, size_t len, unsigned long long *g);

/*
 * "statement 1 (full 10% of 2s, system)", "statement 2 (some 20% of 1.5s,
 * cgroup /batch.slice)": how the logs name a statement.  Returns @buf.
 */
const char *tp_describe(const struct tp_stmt *s, char *buf, size_t n);

/* what to write to the trigger file ("full 200000 2000000"), without its NUL */
int tp_trigger_text(const struct tp_stmt *s, char *buf, size_t n);

/*
 * The trigger file: PROC/pressure/memory for the system, CGROOT/PATH/
 * memory.pressure for a cgroup.  Returns 0, -1 when it does not fit.
 */
int tp_trigger_path(const struct tp_stmt *s, const char *proc,
		    const char *cgroot, char *buf, size_t n);

/*
 * One line of /proc/self/mountinfo (modified): if it is a cgroup2 mount,
 * its mount point, decoded, into @out and true.
 */
bool tp_mountinfo_cgroup2(char *line, char *out, size_t n);

/* what the daemon does after a fire request's answer */
enum tp_action {
	TP_KILLED,	/* a victim was killed */
	TP_NOT_KILLED,	/* a refusal that needs nothing (EAGAIN, EBUSY, ESRCH, ...) */
	TP_REREAD,	/* ESTALE, EINVAL: re-read the file, re-arm the triggers */
	TP_FAILED,	/* anything else: logged as an error */
};

/* the write of "fire G N" with one call; pwrite(2) or a test's own */
typedef ssize_t (*tp_pwrite_fn)(int fd, const void *buf, size_t len, off_t off);

/*
 * Ask the kernel for statement @nr's early kill: "fire G N\n", one write
 * at offset 0.  Returns 0 (killed) or the errno of the refusal (EIO for
 * a short write).
 */
int tp_fire(int fd, tp_pwrite_fn w, unsigned long long generation,
	    unsigned int nr);
enum tp_action tp_fire_action(int err);
/* "EBUSY", ..., or NULL for an errno the file is not documented to give */
const char *tp_errno_name(int err);
/*
 * What the answer means, for the log: "killed", "not killed: an earlier
 * victim is still exiting (EBUSY)", ...  Returns @buf.
 */
const char *tp_fire_text(int err, char *buf, size_t n);

#endif /* PRESSFILE_H */
