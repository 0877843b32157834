// SPDX-License-Identifier: GPL-2.0
/*
 * triage-pressured: early action on memory pressure for the triage LSM.
 *
 * Arms one PSI trigger per "pressure" statement of the policy in force
 * (as /sys/kernel/security/triage/pressure lists them) and, when one
 * fires, asks the kernel with "fire G N" for an early kill in that
 * statement's scope: the kernel chooses the victim by the labels.
 * triage-pressured(8) has the file formats, the answers and the exit
 * codes.
 *
 * It runs when memory is short: its memory is locked (mlockall), its
 * oom_score_adj is -1000, and after start-up it allocates nothing (fixed
 * arrays of TRIAGE_PRESSURE_MAX statements, static buffers) and writes
 * its log lines with one write(2) each, without stdio, dropping (and
 * later counting) a line rather than blocking on a full journal socket.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "pressfile.h"
#include "triagectl.h"	/* TC_VERSION, TC_EXIT_*, TC_DEFAULT_ROOT */

#define PD_NAME		"triage-pressured"
#define PD_TICK_MS	2000		/* generation check, re-arming */
#define PD_STACK	(256 * 1024)	/* stack faulted in (and locked) at start */
#define PD_GEN_READ	64		/* bytes read for the generation alone */
/* a directory given: room for what is appended to it in a PATH_MAX path */
#define PD_DIR_MAX	(PATH_MAX - TP_ESC_MAX - 64)

static struct {
	char dir[PD_DIR_MAX];		/* --securityfs: the triage directory */
	char file[PATH_MAX];		/* DIR/pressure */
	char proc[PD_DIR_MAX];		/* --proc */
	char cgroot[PD_DIR_MAX];	/* --cgroup-root, or found */
	bool cgroot_given;
	bool once_armed;
	bool verbose;
	bool no_mlock;
} o;

/* the statements in force and the next ones read (swapped on a reload) */
static struct tp_file files[2];
static struct tp_file *cur = &files[0], *nxt = &files[1];
static char rbuf[TP_READ_MAX + 1];
static int trig_fd[TRIAGE_PRESSURE_MAX];
/* the last failure to arm each trigger (logged once), or 0 */
static int trig_err[TRIAGE_PRESSURE_MAX];
static int fire_fd = -1;
static bool idle_said;
static int tick_err;			/* the last failure of the generation check */
static unsigned long dropped;		/* log lines the journal had no room for */
static volatile sig_atomic_t sig_term, sig_hup;

/* ------------------------------------------------------------ output */

static void pd_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t r = write(fd, buf, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return;
		buf += r;
		len -= r;
	}
}

/*
 * One line on stderr with one call.  A socket (the journal) is written
 * with MSG_DONTWAIT: under memory pressure journald may be the one
 * stalled, and a full socket must not stall the daemon.
 */
static void pd_emit(const char *line, size_t len)
{
	ssize_t r;

	do {
		r = send(STDERR_FILENO, line, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (r < 0 && errno == EINTR);
	if (r < 0 && errno == ENOTSOCK) {
		pd_write_all(STDERR_FILENO, line, len);
		return;
	}
	if (r < 0 && (errno == EAGAIN || errno == ENOBUFS))
		dropped++;
}

static void pd_vlog(const char *fmt, va_list ap)
{
	static char line[2048];
	struct timespec ts;
	size_t n, i;
	int r;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	r = snprintf(line, sizeof(line), PD_NAME ": [%lld.%03ld] ",
		     (long long)ts.tv_sec, ts.tv_nsec / 1000000);
	vsnprintf(line + r, sizeof(line) - r - 1, fmt, ap);
	n = strlen(line);
	for (i = 0; i < n; i++)
		if (line[i] == '\n')
			line[i] = ' ';
	line[n++] = '\n';
	pd_emit(line, n);
}

static void pd_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void pd_log(const char *fmt, ...)
{
	unsigned long lost = dropped;
	va_list ap;

	va_start(ap, fmt);
	pd_vlog(fmt, ap);
	va_end(ap);
	if (lost && dropped == lost) {
		dropped = 0;
		pd_log("%lu log lines were dropped before this one (stderr full)",
		       lost);
	}
}

/* stdout, for --once-armed, --help, --version */
static void pd_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void pd_out(const char *fmt, ...)
{
	static char line[2048];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	pd_write_all(STDOUT_FILENO, line, n);
}

static const char *pd_errname(int e)
{
	const char *n = tp_errno_name(e);

	return n ? n : strerror(e);
}

/* ------------------------------------------------------------ options */

static const char pd_usage_text[] =
	"usage: " PD_NAME " [--securityfs DIR] [--cgroup-root DIR] [--proc DIR]\n"
	"                        [--once-armed] [--no-mlock] [--verbose]\n"
	"       " PD_NAME " --help | --version\n"
	"\n"
	"Arms a PSI trigger for each pressure statement of the triage policy in\n"
	"force and, when one fires, asks the kernel for an early kill in its scope.\n"
	"\n"
	"  --securityfs DIR   the triage directory in securityfs, which holds the\n"
	"                     pressure file (default " TC_DEFAULT_ROOT ")\n"
	"  --cgroup-root DIR  the cgroup2 mount (default: found in\n"
	"                     PROC/self/mountinfo, else /sys/fs/cgroup)\n"
	"  --proc DIR         procfs (default /proc): pressure/memory,\n"
	"                     self/oom_score_adj, self/mountinfo\n"
	"  --once-armed       exit after arming every trigger, printing them\n"
	"  --no-mlock         run without locking its memory (tests)\n"
	"  --verbose          log paths, generation checks and each request\n"
	"\n"
	"Exit status: 0 stopped by SIGTERM or SIGINT (or --once-armed, all armed),\n"
	"1 error, 2 usage, 3 no triage pressure file, 4 no permission.\n"
	"See triage-pressured(8).\n";

static int pd_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int pd_usage(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), PD_NAME ": ");
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	n = strlen(line);
	snprintf(line + n, sizeof(line) - n, "; see " PD_NAME " --help\n");
	pd_write_all(STDERR_FILENO, line, strlen(line));
	return TC_EXIT_USAGE;
}

static int pd_set_dir(char *dst, const char *opt, const char *v)
{
	size_t n;

	if (!*v)
		return pd_usage("%s: empty directory", opt);
	n = strlen(v);
	if (n >= PD_DIR_MAX)
		return pd_usage("%s: directory name too long", opt);
	memcpy(dst, v, n + 1);
	return -1;
}

/* returns -1 to run, or the exit code */
static int pd_options(int argc, char **argv)
{
	static const char *const dirs[] = { "--securityfs", "--cgroup-root",
					    "--proc" };
	char *dst[] = { o.dir, o.cgroot, o.proc };
	int a, rc;

	snprintf(o.dir, sizeof(o.dir), "%s", TC_DEFAULT_ROOT);
	snprintf(o.proc, sizeof(o.proc), "/proc");
	for (a = 1; a < argc; a++) {
		const char *arg = argv[a], *v = NULL;
		size_t i;

		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			pd_out("%s", pd_usage_text);
			return TC_EXIT_OK;
		}
		if (!strcmp(arg, "--version")) {
			pd_out(PD_NAME " %s\n", TC_VERSION);
			return TC_EXIT_OK;
		}
		if (!strcmp(arg, "--once-armed")) {
			o.once_armed = true;
			continue;
		}
		if (!strcmp(arg, "--no-mlock")) {
			o.no_mlock = true;
			continue;
		}
		if (!strcmp(arg, "--verbose") || !strcmp(arg, "-v")) {
			o.verbose = true;
			continue;
		}
		for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
			size_t l = strlen(dirs[i]);

			if (!strncmp(arg, dirs[i], l) &&
			    (arg[l] == '\0' || arg[l] == '='))
				break;
		}
		if (i == sizeof(dirs) / sizeof(dirs[0])) {
			if (arg[0] == '-')
				return pd_usage("unknown option %s", arg);
			return pd_usage("unexpected argument %s", arg);
		}
		v = strchr(arg, '=');
		if (v) {
			v++;
		} else if (a + 1 < argc) {
			v = argv[++a];
		} else {
			return pd_usage("%s needs a directory", dirs[i]);
		}
		rc = pd_set_dir(dst[i], dirs[i], v);
		if (rc >= 0)
			return rc;
		if (i == 1)
			o.cgroot_given = true;
	}
	snprintf(o.file, sizeof(o.file), "%s/pressure", o.dir);
	return -1;
}

/* ------------------------------------------------------------ the file */

/* at most @max bytes of the pressure file into rbuf; 0 or the errno */
static int pd_read(size_t max, size_t *len)
{
	size_t n = 0;
	int fd, e = 0;

	fd = open(o.file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	while (n < max) {
		ssize_t r = read(fd, rbuf + n, max - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			break;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	rbuf[n] = '\0';
	*len = n;
	return e;
}

static const char *pd_desc(const struct tp_stmt *s)
{
	static char d[TP_ESC_MAX + 96];

	return tp_describe(s, d, sizeof(d));
}

/* -------------------------------------------------------- the triggers */

static void pd_disarm_all(void)
{
	unsigned int i;

	for (i = 0; i < TRIAGE_PRESSURE_MAX; i++) {
		if (trig_fd[i] >= 0)
			close(trig_fd[i]);
		trig_fd[i] = -1;
		trig_err[i] = 0;
	}
}

static const char *pd_arm_hint(const struct tp_stmt *s, int e)
{
	if (e == EOPNOTSUPP)
		return " (PSI is off: a kernel booted with psi=0?)";
	if (e == ENOENT && s->system)
		return " (no PSI in this kernel, or another --proc?)";
	if (e == ENOENT)
		return " (no such cgroup now)";
	return "";
}

/*
 * Arm statement @i's trigger: open its pressure file and write "KIND
 * STALL WINDOW" with the trailing NUL, as PSI's documentation does.  A
 * failure is logged when it differs from the last one of this trigger.
 * Returns 0 or the errno.
 */
static int pd_arm(unsigned int i, char *path, size_t pathlen)
{
	const struct tp_stmt *s = &cur->st[i];
	char text[TP_TRIGGER_MAX];
	int fd, e = 0;
	size_t len;

	if (trig_fd[i] >= 0)
		return 0;
	if (tp_trigger_path(s, o.proc, o.cgroot, path, pathlen) ||
	    tp_trigger_text(s, text, sizeof(text))) {
		e = ENAMETOOLONG;
		goto fail;
	}
	len = strlen(text) + 1;
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		goto fail;
	}
	if (write(fd, text, len) != (ssize_t)len) {
		e = errno ? errno : EIO;
		close(fd);
		goto fail;
	}
	trig_fd[i] = fd;
	pd_log("%s: armed: %s on %s", pd_desc(s), text, path);
	trig_err[i] = 0;
	return 0;
fail:
	if (e != trig_err[i])
		pd_log("%s: not armed: %s: %s%s; trying again every %d s",
		       pd_desc(s), path, strerror(e), pd_arm_hint(s, e),
		       PD_TICK_MS / 1000);
	trig_err[i] = e;
	return e;
}

static unsigned int pd_arm_all(void)
{
	char path[PATH_MAX];
	unsigned int i, armed = 0;

	for (i = 0; i < cur->count; i++)
		if (!pd_arm(i, path, sizeof(path)))
			armed++;
	return armed;
}

/*
 * Read the whole file and arm its statements' triggers.  Returns 0, the
 * errno of the read, or -1 when it is malformed (the statements in force
 * stay armed then).
 */
static int pd_reload(void)
{
	char why[TP_WHY_MAX];
	struct tp_file *t;
	size_t len;
	int e;

	e = pd_read(TP_READ_MAX, &len);
	if (e) {
		pd_log("cannot read %s: %s", o.file, strerror(e));
		return e;
	}
	if (len == TP_READ_MAX) {
		pd_log("malformed %s: longer than %d bytes; keeping generation %llu",
		       o.file, TP_READ_MAX, cur->generation);
		return -1;
	}
	if (tp_parse(rbuf, len, nxt, why, sizeof(why))) {
		pd_log("malformed %s: %s; keeping generation %llu", o.file,
		       why, cur->generation);
		return -1;
	}
	pd_disarm_all();
	t = cur;
	cur = nxt;
	nxt = t;
	tick_err = 0;
	if (!cur->count) {
		if (!idle_said)
			pd_log("generation %llu: the policy in force has no pressure statement (or there is no policy): early action is off; idling",
			       cur->generation);
		idle_said = true;
		return 0;
	}
	idle_said = false;
	pd_log("generation %llu: %u pressure statement%s", cur->generation,
	       cur->count, cur->count == 1 ? "" : "s");
	pd_arm_all();
	return 0;
}

/* --------------------------------------------------------- the events */

static void pd_fire(unsigned int i)
{
	const struct tp_stmt *s = &cur->st[i];
	char text[160];
	int e;

	if (o.verbose)
		pd_log("%s: pressure: fire %llu %u", pd_desc(s),
		       cur->generation, s->nr);
	e = tp_fire(fire_fd, pwrite, cur->generation, s->nr);
	pd_log("%s: %s", pd_desc(s), tp_fire_text(e, text, sizeof(text)));
	if (tp_fire_action(e) == TP_REREAD)
		pd_reload();
}

/* POLLERR: the trigger's cgroup was removed (or PSI dropped it) */
static void pd_lost(unsigned int i, short revents)
{
	const struct tp_stmt *s = &cur->st[i];

	pd_log("%s: trigger lost (%s%s): its cgroup removed?; re-arming every %d s",
	       pd_desc(s), revents & POLLNVAL ? "POLLNVAL" : "POLLERR",
	       revents & POLLHUP ? "|POLLHUP" : "", PD_TICK_MS / 1000);
	close(trig_fd[i]);
	trig_fd[i] = -1;
	trig_err[i] = -1;	/* the next failure to arm is logged */
}

/* every PD_TICK_MS: a new generation? triggers to arm again? */
static void pd_tick(void)
{
	char path[PATH_MAX];
	unsigned long long g;
	unsigned int i;
	size_t len;
	int e;

	e = pd_read(PD_GEN_READ, &len);
	if (!e && tp_parse_generation(rbuf, len, &g))
		e = EBADMSG;
	if (e) {
		if (e != tick_err)
			pd_log("cannot read the generation from %s: %s; the statements of generation %llu stay armed",
			       o.file, e == EBADMSG ? "malformed" : strerror(e),
			       cur->generation);
		tick_err = e;
		return;
	}
	if (tick_err)
		pd_log("%s readable again", o.file);
	tick_err = 0;
	if (g != cur->generation) {
		pd_log("generation %llu -> %llu: a policy was loaded; re-reading",
		       cur->generation, g);
		pd_reload();
		return;
	}
	for (i = 0; i < cur->count; i++)
		pd_arm(i, path, sizeof(path));
}

static long long pd_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void pd_on_signal(int sig)
{
	if (sig == SIGHUP)
		sig_hup = 1;
	else
		sig_term = sig;
}

static int pd_loop(const sigset_t *unblocked)
{
	struct pollfd pfd[TRIAGE_PRESSURE_MAX];
	unsigned int which[TRIAGE_PRESSURE_MAX];
	long long next_tick = pd_now_ms() + PD_TICK_MS;

	for (;;) {
		unsigned int i, n = 0;
		long long wait;
		struct timespec ts;
		int r;

		for (i = 0; i < cur->count; i++) {
			if (trig_fd[i] < 0)
				continue;
			pfd[n].fd = trig_fd[i];
			pfd[n].events = POLLPRI;
			pfd[n].revents = 0;
			which[n++] = i;
		}
		wait = next_tick - pd_now_ms();
		if (wait < 0)
			wait = 0;
		ts.tv_sec = wait / 1000;
		ts.tv_nsec = (wait % 1000) * 1000000;
		r = ppoll(pfd, n, &ts, unblocked);
		if (r < 0 && errno != EINTR) {
			pd_log("poll: %s", strerror(errno));
			r = 0;
		}
		if (sig_term) {
			pd_log("stopping (%s)", sig_term == SIGINT ? "SIGINT" : "SIGTERM");
			pd_disarm_all();
			return TC_EXIT_OK;
		}
		if (sig_hup) {
			sig_hup = 0;
			pd_log("SIGHUP: re-reading %s", o.file);
			pd_reload();
			continue;	/* the fds of pfd may be closed */
		}
		for (i = 0; r > 0 && i < n; i++) {
			if (pfd[i].revents & (POLLERR | POLLHUP | POLLNVAL)) {
				pd_lost(which[i], pfd[i].revents);
			} else if (pfd[i].revents & POLLPRI) {
				struct tp_file *before = cur;

				pd_fire(which[i]);
				if (cur != before)
					break;	/* reloaded: pfd is stale */
			}
		}
		if (pd_now_ms() >= next_tick) {
			pd_tick();
			next_tick = pd_now_ms() + PD_TICK_MS;
		}
	}
}

/* ------------------------------------------------------------ start-up */

/* the cgroup2 mount, from PROC/self/mountinfo (start-up: stdio is fine) */
static void pd_find_cgroot(void)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(o.cgroot, sizeof(o.cgroot), "/sys/fs/cgroup");
	snprintf(path, sizeof(path), "%s/self/mountinfo", o.proc);
	f = fopen(path, "re");
	if (!f) {
		pd_log("cannot read %s (%s): cgroup2 assumed at %s", path,
		       strerror(errno), o.cgroot);
		return;
	}
	while (getline(&line, &cap, f) > 0) {
		if (tp_mountinfo_cgroup2(line, o.cgroot, sizeof(o.cgroot)))
			break;
	}
	free(line);
	fclose(f);
	if (o.verbose)
		pd_log("cgroup2 at %s", o.cgroot);
}

static void pd_oom_score_adj(void)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/self/oom_score_adj", o.proc);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "-1000", 5) != 5)
		pd_log("warning: cannot write -1000 to %s (%s): the OOM killer may choose this daemon",
		       path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* the stack it may need, faulted in now (and locked by mlockall) */
static void pd_prefault_stack(void)
{
	volatile char buf[PD_STACK];
	size_t i;

	for (i = 0; i < sizeof(buf); i += 4096)
		buf[i] = 0;
	buf[sizeof(buf) - 1] = 0;
}

/* the start-up failure of the pressure file: message and exit code */
static int pd_file_fail(const char *what, int e)
{
	if (e == EACCES || e == EPERM) {
		pd_log("cannot %s %s: %s (%s): it needs CAP_MAC_ADMIN (run it as root), and leave from the LSM policy to read and write that file",
		       what, o.file, strerror(e), pd_errname(e));
		return TC_EXIT_PERM;
	}
	if (e == ENOENT || e == ENOTDIR) {
		pd_log("cannot %s %s: %s: no triage early action here (securityfs not mounted, triage not active, or a kernel without pressure statements)",
		       what, o.file, strerror(e));
		return TC_EXIT_UNAVAILABLE;
	}
	pd_log("cannot %s %s: %s", what, o.file, strerror(e));
	return TC_EXIT_ERROR;
}

static int pd_once_armed(void)
{
	char path[PATH_MAX], text[TP_TRIGGER_MAX];
	unsigned int i, armed = 0;

	if (!cur->count) {
		pd_out("generation %llu: no pressure statement: nothing to arm\n",
		       cur->generation);
		return TC_EXIT_OK;
	}
	for (i = 0; i < cur->count; i++) {
		const struct tp_stmt *s = &cur->st[i];

		if (tp_trigger_path(s, o.proc, o.cgroot, path, sizeof(path)))
			snprintf(path, sizeof(path), "?");
		tp_trigger_text(s, text, sizeof(text));
		if (trig_fd[i] >= 0) {
			armed++;
			pd_out("%s: armed: %s on %s\n", pd_desc(s), text, path);
		} else {
			pd_out("%s: not armed: %s: %s\n", pd_desc(s), path,
			       strerror(trig_err[i] > 0 ? trig_err[i] : EIO));
		}
	}
	pd_disarm_all();
	return armed == cur->count ? TC_EXIT_OK : TC_EXIT_ERROR;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	sigset_t block, unblocked;
	unsigned int i;
	size_t len;
	int rc, e;

	rc = pd_options(argc, argv);
	if (rc >= 0)
		return rc;
	for (i = 0; i < TRIAGE_PRESSURE_MAX; i++)
		trig_fd[i] = -1;

	/* signals: blocked but while waiting in ppoll() */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = pd_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &unblocked);
	sigdelset(&unblocked, SIGTERM);
	sigdelset(&unblocked, SIGINT);
	sigdelset(&unblocked, SIGHUP);

	/* the kernel's file first: no permission or no triage says so at once */
	e = pd_read(TP_READ_MAX, &len);
	if (e)
		return pd_file_fail("read", e);
	fire_fd = open(o.file, O_WRONLY | O_CLOEXEC);
	if (fire_fd < 0)
		return pd_file_fail("open for writing", errno);

	if (!o.no_mlock && mlockall(MCL_CURRENT | MCL_FUTURE)) {
		pd_log("cannot lock its memory (mlockall: %s): it must not be paged out under the memory pressure it watches; run it as root or with LimitMEMLOCK=infinity (--no-mlock runs it unlocked)",
		       strerror(errno));
		return TC_EXIT_ERROR;
	}
	pd_oom_score_adj();
	pd_prefault_stack();
	if (!o.cgroot_given)
		pd_find_cgroot();
	if (o.verbose)
		pd_log("%s %s: %s, procfs %s, cgroup2 %s%s", PD_NAME, TC_VERSION,
		       o.file, o.proc, o.cgroot,
		       o.no_mlock ? ", memory not locked" : "");

	e = pd_reload();
	if (e)
		return e < 0 ? TC_EXIT_ERROR : pd_file_fail("read", e);
	if (o.once_armed)
		return pd_once_armed();
	return pd_loop(&unblocked);
}
