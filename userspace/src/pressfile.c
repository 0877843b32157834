// SPDX-License-Identifier: GPL-2.0
/*
 * triage-pressured: the pressure file of the triage LSM (parsing), the
 * PSI trigger of each statement and the answers to "fire G N".  No
 * allocation: the daemon calls these when memory is short.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pressfile.h"
#include "triagectl.h"	/* tc_unescape(), in escape.c */

static void tp_why(char *why, size_t n, unsigned int line, const char *msg)
{
	if (!why || !n)
		return;
	if (line)
		snprintf(why, n, "line %u: %s", line, msg);
	else
		snprintf(why, n, "%s", msg);
}

/* a decimal number without sign or leading zero (but "0"), at most @max */
static int tp_number(const char *s, size_t len, unsigned long long max,
		     unsigned long long *v)
{
	unsigned long long n = 0;
	size_t i;

	if (!len || len > 20 || (len > 1 && s[0] == '0'))
		return -1;
	for (i = 0; i < len; i++) {
		unsigned int d;

		if (s[i] < '0' || s[i] > '9')
			return -1;
		d = s[i] - '0';
		if (n > (max - d) / 10)
			return -1;
		n = n * 10 + d;
	}
	*v = n;
	return 0;
}

/* the first line: "generation G"; returns the length with its newline */
static int tp_generation_line(const char *buf, size_t len,
			      unsigned long long *g)
{
	static const char kw[] = "generation ";
	const char *nl = memchr(buf, '\n', len);

	if (!nl || (size_t)(nl - buf) < sizeof(kw) ||
	    memcmp(buf, kw, sizeof(kw) - 1))
		return -1;
	if (tp_number(buf + sizeof(kw) - 1, nl - buf - (sizeof(kw) - 1),
		      ~0ULL, g))
		return -1;
	return nl - buf + 1;
}

int tp_parse_generation(const char *buf, size_t len, unsigned long long *g)
{
	return tp_generation_line(buf, len, g) < 0 ? -1 : 0;
}

static int tp_odigit(char c)
{
	return c >= '0' && c <= '7' ? c - '0' : -1;
}

/*
 * A cgroup as the file writes it: printable bytes but the blank, each
 * backslash the start of "\ooo" (not "\000"), and decoded an absolute
 * path like the policy's own (security/triage/policy.c): not "/", no
 * empty, "." or ".." component, no final slash.
 */
static const char *tp_cgroup(const char *s, size_t len, struct tp_stmt *st)
{
	char tmp[TP_ESC_MAX];
	size_t i, plen, start;

	if (len >= TP_ESC_MAX)
		return "cgroup path too long";
	for (i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c <= 0x20 || c >= 0x7f)
			return "unescaped byte in cgroup path";
		if (c != '\\')
			continue;
		if (i + 3 >= len)
			return "cut escape in cgroup path";
		if (tp_odigit(s[i + 1]) < 0 || tp_odigit(s[i + 1]) > 3 ||
		    tp_odigit(s[i + 2]) < 0 || tp_odigit(s[i + 3]) < 0)
			return "bad escape in cgroup path";
		if (s[i + 1] == '0' && s[i + 2] == '0' && s[i + 3] == '0')
			return "NUL in cgroup path";
		i += 3;
	}
	memcpy(st->shown, s, len);
	st->shown[len] = '\0';
	/* decoded in place in a copy: the escaped text is the longer */
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	tc_unescape(tmp);
	plen = strlen(tmp);
	if (plen >= TP_PATH_MAX)
		return "cgroup path too long";
	memcpy(st->path, tmp, plen + 1);
	if (plen < 2 || st->path[0] != '/' || st->path[plen - 1] == '/')
		return "cgroup path not absolute, or \"/\", or ending in '/'";
	for (i = 0; i < plen;) {
		size_t n;

		start = ++i;
		while (i < plen && st->path[i] != '/')
			i++;
		n = i - start;
		if (!n || (n == 1 && st->path[start] == '.') ||
		    (n == 2 && st->path[start] == '.' && st->path[start + 1] == '.'))
			return "empty, \".\" or \"..\" component in cgroup path";
	}
	return NULL;
}

/* "N KIND STALL WINDOW SCOPE KILLS" (@len bytes, no newline) */
static const char *tp_stmt_line(const char *s, size_t len, unsigned int nr,
				struct tp_stmt *st)
{
	const char *f[6];
	size_t fl[6];
	unsigned long long v;
	unsigned int n = 0;
	size_t i = 0;
	const char *e;

	while (i < len) {
		size_t b = i;

		if (n == 6)
			return "more than 6 fields";
		while (i < len && s[i] != ' ')
			i++;
		if (i == b)
			return "empty field (two blanks, or one at either end)";
		f[n] = s + b;
		fl[n++] = i - b;
		if (i < len && ++i == len)
			return "empty field (two blanks, or one at either end)";
	}
	if (n < 6)
		return "fewer than 6 fields";
	memset(st, 0, sizeof(*st));
	if (tp_number(f[0], fl[0], ~0U, &v))
		return "bad statement number";
	if (v != nr)
		return "statement numbers out of order";
	st->nr = nr;
	if (fl[1] == 4 && !memcmp(f[1], "full", 4))
		st->full = true;
	else if (!(fl[1] == 4 && !memcmp(f[1], "some", 4)))
		return "kind neither some nor full";
	if (tp_number(f[2], fl[2], TP_US_MAX, &st->stall_us) || !st->stall_us)
		return "bad stall threshold";
	if (tp_number(f[3], fl[3], TP_US_MAX, &st->window_us) || !st->window_us)
		return "bad window";
	if (st->stall_us > st->window_us)
		return "stall threshold longer than the window";
	if (fl[4] == 1 && f[4][0] == '-') {
		st->system = true;
	} else {
		e = tp_cgroup(f[4], fl[4], st);
		if (e)
			return e;
	}
	if (tp_number(f[5], fl[5], ~0ULL, &st->kills))
		return "bad kill count";
	return NULL;
}

int tp_parse(const char *buf, size_t len, struct tp_file *f,
	     char *why, size_t whylen)
{
	unsigned int line = 1;
	size_t off;
	int n;

	memset(f, 0, sizeof(*f));
	if (why && whylen)
		why[0] = '\0';
	if (memchr(buf, '\0', len)) {
		tp_why(why, whylen, 0, "NUL byte in the file");
		return -1;
	}
	n = tp_generation_line(buf, len, &f->generation);
	if (n < 0) {
		tp_why(why, whylen, 1, "not \"generation G\" and a newline");
		return -1;
	}
	for (off = n; off < len; off += n) {
		const char *nl = memchr(buf + off, '\n', len - off);
		const char *e;

		line++;
		if (!nl) {
			tp_why(why, whylen, line, "no newline at the end");
			return -1;
		}
		if (f->count == TRIAGE_PRESSURE_MAX) {
			tp_why(why, whylen, line, "more statements than the kernel's maximum");
			return -1;
		}
		n = nl - (buf + off) + 1;
		e = tp_stmt_line(buf + off, n - 1, f->count + 1,
				 &f->st[f->count]);
		if (e) {
			tp_why(why, whylen, line, e);
			return -1;
		}
		f->count++;
	}
	return 0;
}

/* microseconds as "2s", "1.5s", "500ms" or "750us" */
static void tp_duration(unsigned long long us, char *buf, size_t n)
{
	if (us % 1000000 == 0) {
		snprintf(buf, n, "%llus", us / 1000000);
	} else if (us % 1000 == 0 && us > 1000000) {
		unsigned int ms = (us / 1000) % 1000, digits = 3;

		while (ms % 10 == 0) {
			ms /= 10;
			digits--;
		}
		snprintf(buf, n, "%llu.%0*us", us / 1000000, (int)digits, ms);
	} else if (us % 1000 == 0) {
		snprintf(buf, n, "%llums", us / 1000);
	} else {
		snprintf(buf, n, "%lluus", us);
	}
}

const char *tp_describe(const struct tp_stmt *s, char *buf, size_t n)
{
	char share[32], window[32];

	/* stall <= window <= TP_US_MAX: no overflow */
	if (s->stall_us * 100 % s->window_us == 0) {
		snprintf(share, sizeof(share), "%llu%%",
			 s->stall_us * 100 / s->window_us);
	} else {
		unsigned long long t = (s->stall_us * 1000 + s->window_us / 2) /
				       s->window_us;

		snprintf(share, sizeof(share), "%llu.%llu%%", t / 10, t % 10);
	}
	tp_duration(s->window_us, window, sizeof(window));
	snprintf(buf, n, "statement %u (%s %s of %s, %s%s)", s->nr,
		 s->full ? "full" : "some", share, window,
		 s->system ? "system" : "cgroup ", s->system ? "" : s->shown);
	return buf;
}

int tp_trigger_text(const struct tp_stmt *s, char *buf, size_t n)
{
	int r = snprintf(buf, n, "%s %llu %llu", s->full ? "full" : "some",
			 s->stall_us, s->window_us);

	return r < 0 || (size_t)r >= n ? -1 : 0;
}

int tp_trigger_path(const struct tp_stmt *s, const char *proc,
		    const char *cgroot, char *buf, size_t n)
{
	size_t rl;
	int r;

	if (s->system) {
		r = snprintf(buf, n, "%s/pressure/memory", proc);
	} else {
		/* "/sys/fs/cgroup/" and "/batch.slice": one slash between */
		rl = strlen(cgroot);
		while (rl > 1 && cgroot[rl - 1] == '/')
			rl--;
		if (rl == 1 && cgroot[0] == '/')
			rl = 0;
		r = snprintf(buf, n, "%.*s%s/memory.pressure", (int)rl, cgroot,
			     s->path);
	}
	return r < 0 || (size_t)r >= n ? -1 : 0;
}

/*
 * "36 25 0:30 / /sys/fs/cgroup rw,nosuid,... shared:9 - cgroup2 cgroup2 rw":
 * the mount point is the fifth field, the type the first after " - ".
 */
bool tp_mountinfo_cgroup2(char *line, char *out, size_t n)
{
	char *sep = strstr(line, " - "), *p = line, *mp = NULL, *end;
	unsigned int field;

	if (!sep || strncmp(sep + 3, "cgroup2 ", 8))
		return false;
	for (field = 1; field < 5 && p < sep; field++) {
		p = strchr(p, ' ');
		if (!p || p >= sep)
			return false;
		p++;
	}
	mp = p;
	end = strchr(mp, ' ');
	if (!end || end > sep || end == mp)
		return false;
	*end = '\0';
	tc_unescape(mp);
	if (strlen(mp) >= n)
		return false;
	strcpy(out, mp);
	return true;
}

int tp_fire(int fd, tp_pwrite_fn w, unsigned long long generation,
	    unsigned int nr)
{
	char buf[TP_FIRE_MAX];
	int len = snprintf(buf, sizeof(buf), "fire %llu %u\n", generation, nr);
	ssize_t r;

	do {
		r = w(fd, buf, len, 0);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return errno ? errno : EIO;
	return r == len ? 0 : EIO;
}

/* the EAGAIN text below states the hold-off */
_Static_assert(TRIAGE_PRESSURE_HOLDOFF_MS == 10000, "the EAGAIN text says 10 s");

static const struct {
	int err;
	const char *name;
	enum tp_action action;
	const char *meaning;
} tp_answers[] = {
	{ ESTALE, "ESTALE", TP_REREAD,
	  "a policy was loaded since; re-reading it" },
	{ EINVAL, "EINVAL", TP_REREAD,
	  "the kernel does not know this statement; re-reading the policy" },
	{ ENOENT, "ENOENT", TP_NOT_KILLED, "its cgroup does not exist" },
	{ EOPNOTSUPP, "EOPNOTSUPP", TP_NOT_KILLED,
	  "its cgroup has no memory controller of its own" },
	{ EAGAIN, "EAGAIN", TP_NOT_KILLED,
	  "an OOM or early kill came less than the hold-off (10 s) ago" },
	{ ENODATA, "ENODATA", TP_NOT_KILLED,
	  "the system is not short of memory: the pressure is a memory cgroup's own" },
	{ EBUSY, "EBUSY", TP_NOT_KILLED,
	  "an earlier victim is still exiting" },
	{ ESRCH, "ESRCH", TP_NOT_KILLED,
	  "nothing in its scope may be taken (no sacrificed task)" },
	{ ECANCELED, "ECANCELED", TP_NOT_KILLED,
	  "the policy is in permissive mode (a would-kill is recorded)" },
	{ EPERM, "EPERM", TP_FAILED, "no permission (CAP_MAC_ADMIN)" },
	{ EACCES, "EACCES", TP_FAILED,
	  "no permission (an LSM denied the write)" },
	{ EINTR, "EINTR", TP_NOT_KILLED, "interrupted" },
};

#define TP_NANSWERS (sizeof(tp_answers) / sizeof(tp_answers[0]))

enum tp_action tp_fire_action(int err)
{
	size_t i;

	if (!err)
		return TP_KILLED;
	for (i = 0; i < TP_NANSWERS; i++)
		if (tp_answers[i].err == err)
			return tp_answers[i].action;
	return TP_FAILED;
}

const char *tp_errno_name(int err)
{
	size_t i;

	for (i = 0; i < TP_NANSWERS; i++)
		if (tp_answers[i].err == err)
			return tp_answers[i].name;
	return NULL;
}

const char *tp_fire_text(int err, char *buf, size_t n)
{
	size_t i;

	if (!err) {
		snprintf(buf, n, "killed");
		return buf;
	}
	for (i = 0; i < TP_NANSWERS; i++)
		if (tp_answers[i].err == err) {
			snprintf(buf, n, "not killed: %s (%s)",
				 tp_answers[i].meaning, tp_answers[i].name);
			return buf;
		}
	snprintf(buf, n, "not killed: %s (errno %d)", strerror(err), err);
	return buf;
}
