// SPDX-License-Identifier: GPL-2.0
/*
 * triagectl conform SPEC: live conformance (docs/conform.md).  For each
 * expectation: a fresh memory cgroup, probes started in the named labels
 * the major LSM's own way, a grower that brings the cgroup's OOM, and the
 * kernel's evidence (decisions, kill lines, memory.events, exit
 * statuses).  It only ever signals the processes it started, and removes
 * its cgroups also on SIGINT/SIGTERM/SIGHUP and timeouts.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <selinux/context.h>
#include <selinux/selinux.h>

#include "conform.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

/* exit codes, as setools' sechecker */
#define CF_EXIT_PASS	0
#define CF_EXIT_FAIL	1
#define CF_EXIT_SPEC	2
#define CF_EXIT_NORUN	3

#define CF_SPEC_MAX	(1 << 20)
#define CF_MAXPROCS	(TC_CF_GROUP_MAX + 3)
#define CF_SETTLE_MS	1500	/* after the grower is stopped */

static volatile sig_atomic_t cf_signal;

static void cf_on_signal(int sig)
{
	cf_signal = sig;
}

/* ------------------------------------------------------------ the probe */

/*
 * triagectl --conform-probe hold|grow MIB PPID ADJ: hold MIB MiB (grow:
 * 1 MiB more every 10 ms up to MIB), and exit when PPID is no longer the
 * parent (the runner is gone).
 */
int tc_cf_probe_main(int argc, char **argv)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	size_t mib, done = 0, i;
	pid_t ppid;
	bool grow;
	char *mem;
	int adj;

	if (argc != 6)
		return 2;
	prctl(PR_SET_NAME, "triage-probe", 0, 0, 0);
	grow = !strcmp(argv[2], "grow");
	mib = strtoul(argv[3], NULL, 10);
	ppid = strtol(argv[4], NULL, 10);
	adj = strtol(argv[5], NULL, 10);
	if (adj) {
		FILE *f = fopen("/proc/self/oom_score_adj", "w");

		if (f) {
			fprintf(f, "%d\n", adj);
			fclose(f);
		}
	}
	mem = mmap(NULL, mib << 20, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	for (;;) {
		size_t upto = grow ? done + 1 : mib;

		for (; done < upto && done < mib; done++)
			for (i = 0; i < (1 << 20); i += 4096)
				mem[(done << 20) + i] = 1;
		if (getppid() != ppid)
			return 0;
		nanosleep(&ts, NULL);
	}
}

/* ------------------------------------------------------------ helpers */

struct cf_buf {
	char *s;
	size_t len;
};

static __attribute__((format(printf, 2, 3)))
void cf_add(struct cf_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *t;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&t, fmt, ap);
	va_end(ap);
	if (n < 0)
		exit(TC_EXIT_ERROR);
	b->s = realloc(b->s, b->len + n + 1);
	if (!b->s)
		exit(TC_EXIT_ERROR);
	memcpy(b->s + b->len, t, n + 1);
	b->len += n;
	free(t);
}

/* snprintf, cut silently: messages only */
static __attribute__((format(printf, 3, 4)))
void cf_fmt(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
}

static __attribute__((format(printf, 1, 2)))
char *cf_str(const char *fmt, ...)
{
	va_list ap;
	char *t;

	va_start(ap, fmt);
	if (vasprintf(&t, fmt, ap) < 0)
		exit(TC_EXIT_ERROR);
	va_end(ap);
	return t;
}

static long long cf_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void cf_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);	/* a signal cuts it short: fine */
}

static int cf_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), e;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static char *cf_join(const char *dir, const char *name)
{
	return tc_path(dir, name);
}

static bool cf_has_word(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = list; p && (p = strstr(p, w)); p += n)
		if ((p == list || p[-1] == ' ' || p[-1] == '\n') &&
		    (!p[n] || p[n] == ' ' || p[n] == '\n'))
			return true;
	return false;
}

static void cf_put_file(const char *dir, const char *name, const char *text)
{
	char *path;
	FILE *f;

	if (!dir)
		return;
	path = cf_join(dir, name);
	f = fopen(path, "we");
	if (f) {
		fputs(text ? text : "", f);
		fclose(f);
	}
	free(path);
}

/* ------------------------------------------------------------ the runner */

enum cf_verdict { CF_PASS, CF_FAIL, CF_SKIP };

struct cf_result {
	enum cf_verdict v;
	char *reason;		/* skip reason, or the failure's summary */
	struct cf_buf detail;	/* evidence lines */
};

struct cf_proc {
	pid_t pid;
	int probe;		/* 0, 1, or -1: the grower */
	bool reaped;
	int status;
	char *label;		/* the exec label asked for, NULL: own */
	char *seen;		/* the label it ran in */
	unsigned int mib;
};

struct cf_env {
	struct tc_ctx *ctx;
	const char *name;	/* the spec's name in messages */
	struct tc_cf_spec *spec;
	enum tc_cf_lsm lsm;	/* the major LSM */
	bool have_lsm;
	const char *major;
	char *self_con;		/* SELinux: the runner's context */
	char *exe_con;		/* SELinux: the runner's executable's context */
	char parent[PATH_MAX];
	int kmsg;		/* -1: not readable */
	unsigned long long dec_base;
	bool dec_ok;
	char *evdir;
	unsigned int seq;	/* cgroup names */
};

static enum cf_verdict cf_skip_lsm(const struct cf_env *env,
				   const struct tc_cf_expect *e, char *why,
				   size_t n)
{
	if (!env->have_lsm) {
		cf_fmt(why, n, "no major LSM labels tasks in this boot (%s)",
			 env->major ? env->major : "none");
		return CF_SKIP;
	}
	if (e->probe[0].label.lsm != env->lsm) {
		cf_fmt(why, n, "%s labels; the major LSM of this boot is %s",
			 tc_cf_lsm_name(e->probe[0].label.lsm),
			 tc_cf_lsm_name(env->lsm));
		return CF_SKIP;
	}
	return CF_PASS;
}

/* The label a probe execs in (malloc'ed); NULL label: the runner's own. */
static char *cf_exec_label(const struct cf_env *env, const struct tc_cf_label *l)
{
	context_t c;
	char *out;

	if (!l || !l->name)
		return NULL;
	if (l->lsm != TC_CF_SELINUX || l->context || !env->self_con)
		return tc_strdup(l->name);
	c = context_new(env->self_con);
	if (!c)
		return tc_strdup(l->name);
	if (context_type_set(c, l->name)) {
		context_free(c);
		return tc_strdup(l->name);
	}
	out = tc_strdup(context_str(c));
	context_free(c);
	return out;
}

static bool cf_selinux_allows(const char *scon, const char *tcon,
			      const char *cls, const char *perm)
{
	security_class_t tclass = string_to_security_class(cls);
	access_vector_t av;
	struct av_decision avd;

	if (!tclass)
		return true;	/* unknown class: the kernel allows it */
	av = string_to_av_perm(tclass, perm);
	if (!av)
		return true;
	if (security_compute_av_raw(scon, tcon, tclass, av, &avd))
		return false;
	return (avd.allowed & av) == av;
}

/* AppArmor's loaded profiles: "NAME (MODE)" lines */
static bool cf_aa_profile_loaded(const char *profiles, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = profiles; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ' ' || p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* One label's static checks; errors and warnings go to @d. */
static void cf_check_label(struct cf_env *env, const struct tc_cf_label *l,
			   const char *profiles, struct tc_check *d)
{
	char *con;

	if (l->lsm == TC_CF_APPARMOR) {
		if (!profiles)
			tc_diag(d, l->line, l->column, TC_ERROR,
				"cannot tell whether AppArmor profile '%s' is loaded: /sys/kernel/security/apparmor/profiles unreadable",
				tc_esc(l->name));
		else if (!cf_aa_profile_loaded(profiles, l->name))
			tc_diag(d, l->line, l->column, TC_ERROR,
				"AppArmor profile '%s' is not loaded", tc_esc(l->name));
		return;
	}
	if (l->lsm != TC_CF_SELINUX)
		return;		/* Smack: any valid label */
	con = cf_exec_label(env, l);
	if (security_check_context_raw(con)) {
		if (l->context)
			tc_diag(d, l->line, l->column, TC_ERROR,
				"SELinux context '%s' is not valid in the loaded policy",
				tc_esc(con));
		else
			tc_diag(d, l->line, l->column, TC_ERROR,
				"SELinux type '%s' is not in the loaded policy (no valid context %s)",
				tc_esc(l->name), tc_esc(con));
	} else if (!cf_selinux_allows(env->self_con, con, "process", "transition")) {
		tc_diag(d, l->line, l->column, TC_ERROR,
			"probes cannot be labelled %s: the loaded SELinux policy denies process transition from %s",
			tc_esc(con), tc_esc(env->self_con));
	} else if (env->exe_con &&
		   !cf_selinux_allows(con, env->exe_con, "file", "entrypoint")) {
		tc_diag(d, l->line, l->column, TC_ERROR,
			"probes cannot be labelled %s: the loaded SELinux policy denies it file entrypoint on the runner's executable (%s)",
			tc_esc(con), tc_esc(env->exe_con));
	}
	free(con);
}

/* a sacrificed domain that may exec into a protected one */
static void cf_check_escape(struct cf_env *env, const struct tc_cf_label *from,
			    const struct tc_cf_label *to, struct tc_check *d)
{
	char *a, *b;

	if (from->lsm != TC_CF_SELINUX || !env->self_con ||
	    !strcmp(from->name, to->name))
		return;
	a = cf_exec_label(env, from);
	b = cf_exec_label(env, to);
	if (!security_check_context_raw(a) && !security_check_context_raw(b) &&
	    cf_selinux_allows(a, b, "process", "transition"))
		tc_diag(d, from->line, from->column, TC_WARNING,
			"'%s' may transition into '%s' (the loaded SELinux policy allows process transition): a process that is to die first could exec into the one that is to survive",
			tc_esc(from->text), tc_esc(to->text));
	free(a);
	free(b);
}

/* The cgroup parent: cgroup v2, memory delegated to its children. */
static int cf_check_cgroup(struct cf_env *env, const char *given, char *why,
			   size_t n)
{
	char *own, *p, *ctl, *sub, *path;
	struct statfs sf;

	if (given) {
		snprintf(env->parent, sizeof(env->parent), "%s", given);
	} else {
		own = tc_read_file("/proc/self/cgroup", 65536, NULL);
		p = own ? strstr(own, "0::") : NULL;
		if (!p || (p != own && p[-1] != '\n')) {
			cf_fmt(why, n, "this process is in no cgroup v2 hierarchy (/proc/self/cgroup has no 0:: line); name a parent with --cgroup-parent");
			free(own);
			return -1;
		}
		p += 3;
		p[strcspn(p, "\n")] = '\0';
		snprintf(env->parent, sizeof(env->parent), "/sys/fs/cgroup%s",
			 strcmp(p, "/") ? p : "");
		free(own);
	}
	if (statfs(env->parent, &sf)) {
		cf_fmt(why, n, "cgroup parent %s: %s", env->parent, strerror(errno));
		return -1;
	}
	if (sf.f_type != CGROUP2_SUPER_MAGIC) {
		cf_fmt(why, n, "%s is not a cgroup v2 directory (cgroup2 is mounted on /sys/fs/cgroup on a unified system)",
			 env->parent);
		return -1;
	}
	path = cf_join(env->parent, "cgroup.controllers");
	ctl = tc_read_file(path, 4096, NULL);
	free(path);
	path = cf_join(env->parent, "cgroup.subtree_control");
	sub = tc_read_file(path, 4096, NULL);
	free(path);
	if (!ctl || !cf_has_word(ctl, "memory")) {
		cf_fmt(why, n, "the memory controller is not available in %s (cgroup.controllers: %s): the OOM could not be contained",
			 env->parent, ctl ? tc_esc(ctl) : "unreadable");
	} else if (!sub || !cf_has_word(sub, "memory")) {
		cf_fmt(why, n, "the memory controller is not delegated to the children of %s (cgroup.subtree_control lacks memory): the OOM could not be contained; echo +memory > %s/cgroup.subtree_control, or name a delegated parent with --cgroup-parent",
			 env->parent, env->parent);
	} else if (access(env->parent, W_OK)) {
		cf_fmt(why, n, "cannot create cgroups in %s: %s", env->parent,
			 strerror(errno));
	} else {
		free(ctl);
		free(sub);
		return 0;
	}
	free(ctl);
	free(sub);
	return -1;
}

/* ------------------------------------------------------------ one run */

struct cf_run {
	struct cf_proc p[CF_MAXPROCS];
	int n;
	char cg[PATH_MAX];
	bool cg_made;
};

/* the child: join the cgroup, label the exec, exec the probe */
static _Noreturn void cf_child(const struct cf_env *env, int fd, const char *cg,
			       const char *label, const char *mode,
			       unsigned int mib, pid_t ppid, int adj)
{
	char path[PATH_MAX + 32], a_mib[16], a_ppid[16], a_adj[16], why[256];
	char *argv[] = { "triagectl", TC_CF_PROBE_ARG, (char *)mode, a_mib,
			 a_ppid, a_adj, NULL };
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigset_t none;
	int r = 0;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	snprintf(a_mib, sizeof(a_mib), "%u", mib);
	snprintf(a_ppid, sizeof(a_ppid), "%ld", (long)ppid);
	snprintf(a_adj, sizeof(a_adj), "%d", adj);
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	if (cf_write(path, "0\n")) {
		cf_fmt(why, sizeof(why), "joining %s: %s", cg, strerror(errno));
		r = -1;
	} else if (label && env->lsm == TC_CF_SELINUX) {
		if (setexeccon_raw(label)) {
			cf_fmt(why, sizeof(why), "setexeccon(%s): %s", label,
				 strerror(errno));
			r = -1;
		}
	} else if (label && env->lsm == TC_CF_APPARMOR) {
		char cmd[TC_CF_LABEL_MAX + 16];

		snprintf(cmd, sizeof(cmd), "exec %s", label);
		if (cf_write("/proc/self/attr/apparmor/exec", cmd) &&
		    cf_write("/proc/self/attr/exec", cmd)) {
			cf_fmt(why, sizeof(why), "writing '%s' to /proc/self/attr/apparmor/exec: %s",
				 cmd, strerror(errno));
			r = -1;
		}
	} else if (label && env->lsm == TC_CF_SMACK) {
		if (cf_write("/proc/self/attr/smack/current", label) &&
		    cf_write("/proc/self/attr/current", label)) {
			cf_fmt(why, sizeof(why), "writing '%s' to /proc/self/attr/smack/current: %s",
				 label, strerror(errno));
			r = -1;
		}
	}
	if (!r) {
		/*
		 * A probe runs in another domain, which may not use the
		 * runner's standard descriptors (its caller's terminal or
		 * pipe): it gets /dev/null, opened here, in their place (a
		 * domain entered from the runner's may use the runner's own
		 * descriptors).  Every other descriptor is close-on-exec.
		 */
		int null = open("/dev/null", O_RDWR);

		for (int i = 0; i <= 2; i++) {
			if (i == fd)
				continue;
			if (null < 0)
				close(i);
			else if (null != i)
				dup2(null, i);
		}
		if (null > 2)
			close(null);
		execv("/proc/self/exe", argv);
		cf_fmt(why, sizeof(why), "execve of /proc/self/exe%s%s: %s",
			 label ? " into " : "", label ? label : "", strerror(errno));
	}
	if (write(fd, why, strlen(why)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * Start a probe and wait, until DEADLINE, for its exec (the pipe closes)
 * or its reason not to (written to the pipe).  A probe can be stuck before
 * its exec (its cgroup frozen, a signal): the runner never waits for it
 * past the deadline or a signal of its own, and cleans up as after any
 * failure.
 */
static int cf_spawn(const struct cf_env *env, struct cf_run *run, int probe,
		    const char *label, const char *mode, unsigned int mib,
		    int adj, long long deadline, char *why, size_t n)
{
	struct pollfd pfd;
	struct cf_proc *pr = &run->p[run->n];
	int pipefd[2];
	ssize_t r;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC)) {
		cf_fmt(why, n, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		cf_fmt(why, n, "fork: %s", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (!pid) {
		close(pipefd[0]);
		cf_child(env, pipefd[1], run->cg, label, mode, mib, getppid(), adj);
	}
	close(pipefd[1]);
	memset(pr, 0, sizeof(*pr));
	pr->pid = pid;
	pr->probe = probe;
	pr->label = label ? tc_strdup(label) : NULL;
	pr->mib = mib;
	run->n++;
	pfd.fd = pipefd[0];
	pfd.events = POLLIN;
	for (;;) {
		long long left = deadline - cf_now_ms();

		if (cf_signal) {
			close(pipefd[0]);
			cf_fmt(why, n, "interrupted by signal %d", (int)cf_signal);
			return -1;
		}
		if (left <= 0) {
			close(pipefd[0]);
			cf_fmt(why, n, "timed out: probe pid %ld did not start (stuck before its exec)",
			       (long)pid);
			return -1;
		}
		if (poll(&pfd, 1, left > 100 ? 100 : (int)left) > 0)
			break;
	}
	do
		r = read(pipefd[0], why, n - 1);
	while (r < 0 && errno == EINTR);
	close(pipefd[0]);
	if (r > 0) {
		why[r] = '\0';
		return -1;
	}
	return 0;
}

static void cf_reap(struct cf_run *run, bool block)
{
	int i;

	for (i = 0; i < run->n; i++) {
		struct cf_proc *p = &run->p[i];

		if (!p->reaped && waitpid(p->pid, &p->status, block ? 0 : WNOHANG) == p->pid)
			p->reaped = true;
	}
}

static long cf_rss_kib(pid_t pid)
{
	char path[64], *s, *v;
	long kib = -1;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	s = tc_read_file(path, 65536, NULL);
	v = s ? strstr(s, "\nVmRSS:") : NULL;
	if (v)
		kib = strtol(v + 7, NULL, 10);
	free(s);
	return kib;
}

static char *cf_label_of(const struct cf_env *env, pid_t pid)
{
	static const char *const files[] = {
		[TC_CF_SELINUX] = "attr/current",
		[TC_CF_APPARMOR] = "attr/apparmor/current",
		[TC_CF_SMACK] = "attr/smack/current",
	};
	char path[96], *s;

	snprintf(path, sizeof(path), "/proc/%ld/%s", (long)pid, files[env->lsm]);
	s = tc_read_file(path, 4096, NULL);
	if (!s && env->lsm != TC_CF_SELINUX) {
		snprintf(path, sizeof(path), "/proc/%ld/attr/current", (long)pid);
		s = tc_read_file(path, 4096, NULL);
	}
	if (s) {
		s[strcspn(s, "\n")] = '\0';
		s[strlen(s)] = '\0';
	}
	return s;
}

static bool cf_label_is(const char *seen, const char *want)
{
	size_t n = strlen(want);

	return !strcmp(seen, want) ||
	       (!strncmp(seen, want, n) && !strncmp(seen + n, " (", 2));
}

static unsigned long cf_oom_kills(const struct cf_run *run, char **text)
{
	char *path = cf_join(run->cg, "memory.events"), *s, *v;
	unsigned long n = 0;

	s = tc_read_file(path, 4096, NULL);
	free(path);
	v = s ? strstr(s, "oom_kill ") : NULL;
	if (v && (v == s || v[-1] == '\n'))
		n = strtoul(v + 9, NULL, 10);
	if (text)
		*text = s;
	else
		free(s);
	return n;
}

/* kill what this run started and remove its cgroup */
static void cf_cleanup(struct cf_run *run)
{
	long long until;
	char *path;
	int i;

	if (run->cg_made) {
		path = cf_join(run->cg, "cgroup.kill");
		cf_write(path, "1");	/* only our probes are in it */
		free(path);
	}
	for (i = 0; i < run->n; i++)
		if (!run->p[i].reaped)
			kill(run->p[i].pid, SIGKILL);
	until = cf_now_ms() + 10000;
	for (;;) {
		bool all = true;

		cf_reap(run, false);
		for (i = 0; i < run->n; i++)
			all &= run->p[i].reaped;
		if (all || cf_now_ms() > until)
			break;
		cf_sleep_ms(10);
	}
	while (run->cg_made && rmdir(run->cg) && errno == EBUSY &&
	       cf_now_ms() < until)
		cf_sleep_ms(20);
	if (run->cg_made && !access(run->cg, F_OK))
		fprintf(stderr, "triagectl: could not remove cgroup %s: %s\n",
			run->cg, strerror(errno));
	run->cg_made = false;
	for (i = 0; i < run->n; i++) {
		free(run->p[i].label);
		free(run->p[i].seen);
	}
	run->n = 0;
}

/* new kernel log lines; the kill order in @order (pids) */
static void cf_kmsg(struct cf_env *env, const struct cf_run *run,
		    struct cf_buf *lines, pid_t *order, int *norder)
{
	char rec[8192], *msg, key[48];
	ssize_t r;
	int i;

	if (env->kmsg < 0)
		return;
	for (;;) {
		r = read(env->kmsg, rec, sizeof(rec) - 1);
		if (r < 0 && errno == EPIPE)
			continue;
		if (r <= 0)
			break;
		rec[r] = '\0';
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		msg[strcspn(msg, "\n")] = '\0';
		for (i = 0; i < run->n; i++) {
			const char *k;

			snprintf(key, sizeof(key), "Killed process %ld ",
				 (long)run->p[i].pid);
			k = strstr(msg, key);
			if (k) {
				if (*norder < CF_MAXPROCS * 4)
					order[(*norder)++] = run->p[i].pid;
				break;
			}
			snprintf(key, sizeof(key), "pid=%ld,", (long)run->p[i].pid);
			if (strstr(msg, key))
				break;
		}
		if (i < run->n || strstr(msg, strrchr(run->cg, '/') + 1))
			cf_add(lines, "%s\n", tc_esc(msg));
	}
}

static int cf_find(const struct cf_run *run, pid_t pid)
{
	int i;

	for (i = 0; i < run->n; i++)
		if (run->p[i].pid == pid)
			return i;
	return -1;
}

static const char *cf_who(const struct cf_run *run, const struct tc_cf_expect *e,
			  int i)
{
	static char buf[4][300];
	static int k;
	const struct cf_proc *p = &run->p[i];
	char *b = buf[k++ % 4];

	if (p->probe < 0)
		snprintf(b, 300, "pid %ld (the grower)", (long)p->pid);
	else
		snprintf(b, 300, "pid %ld (%s %uM)", (long)p->pid,
			 tc_esc(e->probe[p->probe].label.text), p->mib);
	return b;
}

struct cf_dec {
	pid_t pid;
	unsigned int group;	/* killed with it, as its group rule's */
	char verdict[16], outcome[32], scope[16], rule[16];
};

static void cf_judge(const struct cf_run *run, const struct tc_cf_expect *e,
		     const pid_t *killed, int nkilled, int first_oom,
		     const struct cf_dec *dec, int ndec, const char *ranking,
		     unsigned long oomk, bool timed_out, struct cf_result *res)
{
	int i, a = -1, b = -1, nw = 0, wdead = 0;
	bool adjusted = false;

	/* index in the kill order of the first probe of each side */
	for (i = 0; i < nkilled; i++) {
		int k = cf_find(run, killed[i]);

		if (k < 0)
			continue;
		if (run->p[k].probe == 0 && a < 0)
			a = i;
		if (run->p[k].probe == 1 && b < 0)
			b = i;
	}
	if (timed_out && !nkilled) {
		res->v = CF_FAIL;
		res->reason = tc_strdup("timed out: no OOM kill in the cgroup within the timeout (a probe stuck, or no candidate the OOM killer may kill)");
		return;
	}
	if (!oomk && !nkilled) {
		res->v = CF_FAIL;
		res->reason = tc_strdup("no OOM happened in the cgroup (memory.events oom_kill 0)");
		return;
	}
	for (i = 0; i < ndec; i++)
		if (strcmp(dec[i].scope, "memcg")) {
			res->v = CF_FAIL;
			res->reason = cf_str("the OOM was not contained: decision for pid %ld has scope %s",
				 (long)dec[i].pid, dec[i].scope);
			return;
		}
	switch (e->kind) {
	case TC_CF_ADJUST:
	case TC_CF_BEFORE:
		if (a < 0) {
			res->v = CF_FAIL;
			res->reason = cf_str("%s was not killed%s",
				 e->probe[0].label.text,
				 nkilled ? "" : " (no probe was)");
			return;
		}
		if (b >= 0 && b < a) {
			res->v = CF_FAIL;
			res->reason = cf_str("%s was killed before %s",
				 e->probe[1].label.text, e->probe[0].label.text);
			return;
		}
		if (e->kind == TC_CF_BEFORE)
			break;
		for (i = 0; i < ndec; i++)
			adjusted |= !strcmp(dec[i].verdict, "adjust");
		for (i = 0; ranking && i < run->n; i++) {
			char key[32];
			const char *l;

			snprintf(key, sizeof(key), "\t%ld\t", (long)run->p[i].pid);
			for (l = ranking; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
				const char *k = strstr(l, key), *nl = strchr(l, '\n');

				if (k && (!nl || k < nl) && strstr(k, "\tadjust\t") &&
				    (!nl || strstr(k, "\tadjust\t") < nl))
					adjusted = true;
			}
		}
		if (!adjusted) {
			res->v = CF_FAIL;
			res->reason = cf_str("the order held, but no adjust verdict decided %s or %s (badness alone did)",
				 e->probe[0].label.text, e->probe[1].label.text);
			return;
		}
		break;
	case TC_CF_NEVER:
		if (a >= 0) {
			res->v = CF_FAIL;
			res->reason = cf_str("%s was killed", e->probe[0].label.text);
			return;
		}
		break;
	case TC_CF_GROUP:
		for (i = 0; i < run->n; i++) {
			int j;

			if (run->p[i].probe != 0)
				continue;
			nw++;
			for (j = 0; j < first_oom && j < nkilled; j++)
				if (killed[j] == run->p[i].pid)
					wdead++;
		}
		if (wdead != nw) {
			res->v = CF_FAIL;
			res->reason = cf_str("the first OOM killed %d of the %d %s probes",
				 wdead, nw, e->probe[0].label.text);
			return;
		}
		break;
	}
	res->v = CF_PASS;
}

/* the decisions' new rows about this run's probes */
static int cf_decisions(struct cf_env *env, const struct cf_run *run,
			struct cf_dec *dec, int max, struct cf_buf *lines)
{
	struct tc_table t;
	char *text = tc_read_at(env->ctx, "decisions", NULL);
	unsigned long long top = env->dec_base;
	size_t r;
	int n = 0;

	if (!text)
		return 0;
	if (tc_table_parse(text, &t)) {
		tc_table_free(&t);
		return 0;
	}
	for (r = 0; r < t.nrows; r++) {
		unsigned long long seq = strtoull(tc_table_get(&t, r, "seq"), NULL, 10);
		const char *pid = tc_table_get(&t, r, "pid");
		int k;

		if (seq > top)
			top = seq;
		if (seq <= env->dec_base)
			continue;
		k = cf_find(run, strtol(pid, NULL, 10));
		if (k < 0 || !strcmp(pid, "-"))
			continue;
		if (lines) {
			unsigned int c;

			for (c = 0; c < t.ncols; c++)
				cf_add(lines, "%s%s", c ? "\t" : "", t.rows[r][c]);
			cf_add(lines, "\n");
		}
		if (n < max) {
			dec[n].pid = run->p[k].pid;
			snprintf(dec[n].verdict, sizeof(dec[n].verdict), "%s",
				 tc_table_get(&t, r, "verdict"));
			snprintf(dec[n].outcome, sizeof(dec[n].outcome), "%s",
				 tc_table_get(&t, r, "outcome"));
			snprintf(dec[n].scope, sizeof(dec[n].scope), "%s",
				 tc_table_get(&t, r, "scope"));
			snprintf(dec[n].rule, sizeof(dec[n].rule), "%s",
				 tc_table_get(&t, r, "rule"));
			dec[n].group = strtoul(tc_table_get(&t, r, "group"),
					       NULL, 10);
			n++;
		}
	}
	env->dec_base = top;
	tc_table_free(&t);
	return n;
}

/* Run expectation @e (number @num); returns -1 when it could not run. */
static int cf_run_one(struct cf_env *env, const struct tc_cf_expect *e,
		      unsigned int num, struct cf_result *res, char *why,
		      size_t whylen)
{
	const struct tc_cf_spec *s = env->spec;
	struct cf_run run = { .n = 0 };
	struct cf_dec dec[CF_MAXPROCS * 2];
	struct cf_buf declines = { 0 }, klines = { 0 }, probes = { 0 };
	pid_t killed[CF_MAXPROCS * 4];
	char buf[64], *path, *events = NULL, *ranking = NULL, *glabel;
	long long deadline, stopped = 0;
	int nkilled = 0, ndec, first_oom = 0, i, grower, rc = -1;
	bool timed_out = false;
	unsigned long oomk;
	unsigned int k, c;

	deadline = cf_now_ms() + s->timeout_s * 1000LL;
	cf_fmt(run.cg, sizeof(run.cg), "%s/triage-conform.%ld.%u",
		 env->parent, (long)getpid(), ++env->seq);
	if (mkdir(run.cg, 0755)) {
		cf_fmt(why, whylen, "creating cgroup %s: %s", run.cg, strerror(errno));
		return -1;
	}
	run.cg_made = true;
	path = cf_join(run.cg, "memory.max");
	snprintf(buf, sizeof(buf), "%uM", s->memory_mib);
	if (cf_write(path, buf)) {
		cf_fmt(why, whylen, "writing %s to %s: %s", buf, path, strerror(errno));
		free(path);
		goto out;
	}
	free(path);
	path = cf_join(run.cg, "memory.swap.max");
	cf_write(path, "0");	/* no swap: the OOM comes at memory.max */
	free(path);

	for (k = 0; k < e->nprobes; k++) {
		char *label = cf_exec_label(env, &e->probe[k].label);

		for (c = 0; c < e->probe[k].count; c++)
			if (cf_spawn(env, &run, k, label, "hold", e->probe[k].mib,
				     0, deadline, why, whylen)) {
				free(label);
				goto out;
			}
		free(label);
	}
	/* resident and labelled */
	for (i = 0; i < run.n; i++) {
		while (cf_rss_kib(run.p[i].pid) < (long)(run.p[i].mib - 1) * 1024) {
			cf_reap(&run, false);
			if (run.p[i].reaped) {
				cf_fmt(why, whylen, "probe %s ended before it held its memory (status 0x%x)",
					 cf_who(&run, e, i), run.p[i].status);
				goto out;
			}
			if (cf_signal)
				goto out;
			if (cf_now_ms() > deadline) {
				cf_fmt(why, whylen, "probe %s did not hold its %u MiB within the timeout",
					 cf_who(&run, e, i), run.p[i].mib);
				goto out;
			}
			cf_sleep_ms(10);
		}
		run.p[i].seen = cf_label_of(env, run.p[i].pid);
		if (run.p[i].label && (!run.p[i].seen ||
				       !cf_label_is(run.p[i].seen, run.p[i].label))) {
			cf_fmt(why, whylen, "probe %s runs in '%s', not in '%s'",
				 cf_who(&run, e, i),
				 run.p[i].seen ? tc_esc(run.p[i].seen) : "?",
				 tc_esc(run.p[i].label));
			goto out;
		}
	}
	if (e->kind == TC_CF_ADJUST)
		ranking = tc_read_at(env->ctx, "ranking", NULL);
	/* the grower */
	glabel = cf_exec_label(env, &s->grower[env->lsm]);
	grower = run.n;
	if (cf_spawn(env, &run, -1, glabel, "grow", s->memory_mib + 64,
		     e->kind == TC_CF_NEVER ? 0 : -1000, deadline, why, whylen)) {
		free(glabel);
		goto out;
	}
	free(glabel);
	for (;;) {
		if (cf_signal)
			goto out;
		cf_reap(&run, false);
		if (!run.p[grower].reaped && (!run.p[grower].seen ||
		    (run.p[grower].label &&
		     !cf_label_is(run.p[grower].seen, run.p[grower].label)))) {
			/* its label, once its exec has committed */
			free(run.p[grower].seen);
			run.p[grower].seen = cf_label_of(env, run.p[grower].pid);
		}
		oomk = cf_oom_kills(&run, NULL);
		if (!stopped && (oomk || run.p[grower].reaped)) {
			if (!run.p[grower].reaped)
				kill(run.p[grower].pid, SIGSTOP);
			stopped = cf_now_ms();
		}
		if (stopped && cf_now_ms() - stopped > CF_SETTLE_MS)
			break;
		if (cf_now_ms() > deadline) {
			timed_out = true;
			break;
		}
		cf_sleep_ms(5);
	}
	/* the evidence, before anything is killed by us */
	cf_reap(&run, false);
	oomk = cf_oom_kills(&run, &events);
	ndec = cf_decisions(env, &run, dec, CF_MAXPROCS * 2, &declines);
	cf_kmsg(env, &run, &klines, killed, &nkilled);
	if (ndec) {
		/*
		 * The decisions' order; the first OOM: a victim and its group,
		 * whose members' kill lines follow the victim's in the log
		 */
		pid_t lines[CF_MAXPROCS * 4];
		int nlines = nkilled, nk = 0, j;

		memcpy(lines, killed, sizeof(lines[0]) * nlines);
		for (i = 0; i < ndec; i++) {
			unsigned int g = dec[i].group;

			if (!strcmp(dec[i].outcome, "would-kill"))
				continue;
			if (nk && !first_oom)
				first_oom = nk;
			killed[nk++] = dec[i].pid;
			for (j = 0; j < nlines && lines[j] != dec[i].pid; j++)
				;
			for (j++; g && j < nlines && nk < CF_MAXPROCS * 4; j++, g--)
				killed[nk++] = lines[j];
		}
		if (nk) {
			nkilled = nk;
			if (!first_oom)
				first_oom = nk;
		}
	}
	if (!ndec || !nkilled) {
		if (!nkilled) {	/* no kill lines either: the exit statuses */
			for (i = 0; i < run.n; i++)
				if (run.p[i].reaped && WIFSIGNALED(run.p[i].status) &&
				    WTERMSIG(run.p[i].status) == SIGKILL)
					killed[nkilled++] = run.p[i].pid;
			if (nkilled)
				cf_add(&res->detail, "(no decisions or kill lines readable: the order is not known, the exit statuses say who was killed)\n");
		}
		first_oom = nkilled;
	}
	cf_judge(&run, e, killed, nkilled, first_oom, dec, ndec, ranking, oomk,
		 timed_out, res);

	/* the evidence for the test point */
	for (i = 0; i < run.n; i++) {
		const struct cf_proc *p = &run.p[i];
		const char *fate = "alive";
		int j;

		for (j = 0; j < nkilled; j++)
			if (killed[j] == p->pid)
				break;
		if (j < nkilled)
			snprintf(buf, sizeof(buf), "killed (%d%s)", j + 1,
				 j == 0 ? "st" : j == 1 ? "nd" : j == 2 ? "rd" : "th");
		fate = j < nkilled ? buf : p->reaped ? "ended" : "alive";
		cf_add(&probes, "%s in %s: %s\n", cf_who(&run, e, i),
		       p->seen ? tc_esc(p->seen) : "?", fate);
	}
	cf_add(&res->detail, "%smemory.events oom_kill %lu; decisions: %d new for these probes; kernel log: %s\n",
	       probes.s, oomk, ndec, env->kmsg < 0 ? "not readable" :
	       klines.len ? "kill lines below" : "no kill lines");
	if (declines.len)
		cf_add(&res->detail, "%s", declines.s);
	if (klines.len)
		cf_add(&res->detail, "%s", klines.s);
	if (env->evdir) {
		char dir[PATH_MAX + 16];

		snprintf(dir, sizeof(dir), "%s/%u", env->evdir, num);
		if (!mkdir(dir, 0750)) {
			cf_put_file(dir, "decisions", declines.s);
			cf_put_file(dir, "kmsg", klines.s);
			cf_put_file(dir, "memory.events", events);
			cf_put_file(dir, "probes", probes.s);
			cf_put_file(dir, "expectation", e->text);
		}
	}
	rc = 0;
out:
	if (cf_signal && rc)
		cf_fmt(why, whylen, "interrupted by signal %d", (int)cf_signal);
	cf_cleanup(&run);
	free(events);
	free(ranking);
	free(declines.s);
	free(klines.s);
	free(probes.s);
	return rc;
}

/* ------------------------------------------------------------ output */

static void cf_xml(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				fprintf(f, "\\%03o", (unsigned char)*s);
			else
				fputc(*s, f);
		}
	}
}

static int cf_junit(const char *path, const char *name,
		    const struct tc_cf_spec *s, const struct cf_result *r,
		    size_t nrun)
{
	size_t i, fails = 0, skips = 0;
	FILE *f = fopen(path, "we");

	if (!f)
		return -1;
	for (i = 0; i < nrun; i++) {
		bool todo = s->ex[i].todo;

		if (r[i].v == CF_SKIP || (todo && r[i].v == CF_FAIL))
			skips++;
		else if (r[i].v == CF_FAIL)
			fails++;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n", f);
	fprintf(f, "<testsuite name=\"triagectl conform ");
	cf_xml(f, name);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n",
		nrun, fails, skips);
	for (i = 0; i < nrun; i++) {
		const struct tc_cf_expect *e = &s->ex[i];

		fputs("  <testcase classname=\"", f);
		cf_xml(f, name);
		fprintf(f, "\" name=\"%u: ", e->line);
		cf_xml(f, e->text);
		fputs("\">\n", f);
		if (r[i].v == CF_SKIP) {
			fputs("    <skipped message=\"", f);
			cf_xml(f, r[i].reason);
			fputs("\"/>\n", f);
		} else if (r[i].v == CF_FAIL && e->todo) {
			fputs("    <skipped message=\"expected failure (todo): ", f);
			cf_xml(f, r[i].reason);
			fputs("\"/>\n", f);
		} else if (r[i].v == CF_FAIL) {
			fputs("    <failure message=\"", f);
			cf_xml(f, r[i].reason);
			fputs("\">", f);
			cf_xml(f, r[i].detail.s);
			fputs("</failure>\n", f);
		}
		if (r[i].detail.s) {
			fputs("    <system-out>", f);
			cf_xml(f, r[i].detail.s);
			fputs("</system-out>\n", f);
		}
		fputs("  </testcase>\n", f);
	}
	fputs("</testsuite>\n</testsuites>\n", f);
	return fclose(f) ? -1 : 0;
}

/* the GNU build id in /sys/kernel/notes, as hex */
static void cf_build_id(char *out, size_t n)
{
	size_t len, off = 0;
	char *s = tc_read_file("/sys/kernel/notes", 65536, &len);

	snprintf(out, n, "unknown (/sys/kernel/notes %s)", s ? "has no GNU build id" : strerror(errno));
	while (s && off + 12 <= len) {
		uint32_t nsz, dsz, type;

		memcpy(&nsz, s + off, 4);
		memcpy(&dsz, s + off + 4, 4);
		memcpy(&type, s + off + 8, 4);
		off += 12;
		if (off + ((nsz + 3) & ~3u) + dsz > len)
			break;
		if (type == 3 && nsz == 4 && !memcmp(s + off, "GNU", 4)) {
			size_t i, o = 0;

			off += 4;
			for (i = 0; i < dsz && o + 3 < n; i++)
				o += snprintf(out + o, n - o, "%02x",
					      (unsigned char)s[off + i]);
			break;
		}
		off += ((nsz + 3) & ~3u) + ((dsz + 3) & ~3u);
	}
	free(s);
}

static void cf_evidence_start(struct cf_env *env, const char *spec_text,
			      const char *lsms)
{
	char *policy = tc_read_at(env->ctx, "policy", NULL), *stats, *chain, *mode;
	struct cf_buf sys = { 0 };
	char bid[160], hash[64] = "";
	struct utsname u;

	if (!policy)
		policy = cf_str("(not readable: %s)\n", strerror(errno));
	stats = tc_read_at(env->ctx, "stats", NULL);
	chain = tc_oom_chain(env->ctx);
	mode = tc_read_at(env->ctx, "mode", NULL);
	uname(&u);
	cf_build_id(bid, sizeof(bid));
	cf_add(&sys, "kernel_release %s\nkernel_version %s\nbuild_id %s\nlsm %s\n"
	       "oom_policy %s\ntriage_mode %s", u.release, u.version, bid,
	       lsms ? lsms : "?", chain ? chain : "?",
	       mode ? mode : "?\n");
	if (stats && tc_stat(stats, "policy_hash", hash, sizeof(hash)))
		cf_add(&sys, "policy_hash %s\n", hash);
	cf_add(&sys, "runner_label %s\ncgroup_parent %s\nspec %s\n",
	       env->self_con ? env->self_con : "-", env->parent, env->name);
	cf_put_file(env->evdir, "spec", spec_text);
	cf_put_file(env->evdir, "policy", policy);
	cf_put_file(env->evdir, "stats", stats);
	cf_put_file(env->evdir, "system", sys.s);
	free(policy);
	free(stats);
	free(chain);
	free(mode);
	free(sys.s);
}

/* ------------------------------------------------------------ command */

static const struct tc_cf_label *cf_survivor(const struct tc_cf_expect *e)
{
	return e->kind == TC_CF_NEVER ? &e->probe[0].label :
	       e->nprobes == 2 ? &e->probe[1].label : NULL;
}

int tc_cmd_conform(struct tc_ctx *ctx, int argc, char **argv)
{
	const char *parent = NULL, *junit = NULL, *evdir = NULL;
	const struct tc_opt opts[] = {
		{ "--cgroup-parent", true, &parent, NULL },
		{ "--junit", true, &junit, NULL },
		{ "--evidence", true, &evdir, NULL },
		{ NULL, false, NULL, NULL },
	};
	struct cf_env env = { .ctx = ctx, .kmsg = -1 };
	struct tc_check diags = { 0 };
	struct tc_cf_spec spec;
	struct cf_result *res = NULL;
	struct sigaction sa = { .sa_handler = cf_on_signal }, old[3];
	struct cf_buf tap = { 0 };
	char *pos[1], *text, *lsms = NULL, *stats, *profiles = NULL;
	char why[600];
	size_t len, i, nrun = 0, failed = 0, ran = 0, todo_failed = 0;
	bool help;
	int n, rc;

	n = tc_parse_opts(ctx, "conform", argc, argv, opts, pos, 1, &help);
	if (n < 0)
		return TC_EXIT_USAGE;
	if (help)
		return tc_help(ctx, "conform");
	if (n != 1)
		return tc_usage_error(ctx, "no SPEC file given (- reads standard input)");
	env.name = tc_input_name(pos[0]);
	text = tc_read_input(pos[0], CF_SPEC_MAX, &len);
	if (!text)
		return tc_fail(ctx, CF_EXIT_NORUN, "cannot read %s: %s",
			       tc_esc(env.name), strerror(errno));
	if (len > CF_SPEC_MAX) {
		free(text);
		return tc_fail(ctx, CF_EXIT_SPEC, "%s: larger than %d KiB; nothing run",
			       tc_esc(env.name), CF_SPEC_MAX / 1024);
	}
	if (tc_cf_parse(text, len, &spec, &diags)) {
		tc_check_print(ctx->err, env.name, &diags, false);
		tc_check_free(&diags);
		tc_cf_free(&spec);
		free(text);
		return tc_fail(ctx, CF_EXIT_SPEC, "%s: errors in the spec; nothing run",
			       tc_esc(env.name));
	}
	env.spec = &spec;

	/* the kernel: triage, the major LSM */
	rc = CF_EXIT_NORUN;
	stats = tc_read_at(ctx, "stats", NULL);
	if (!stats) {
		int e = errno;

		tc_sfs_fail(ctx, "stats", e, false);
		goto out_free;
	}
	lsms = tc_lsm_list(ctx);
	env.major = tc_major_lsm(lsms);
	if (env.major) {
		env.have_lsm = true;
		env.lsm = !strcmp(env.major, "selinux") ? TC_CF_SELINUX :
			  !strcmp(env.major, "apparmor") ? TC_CF_APPARMOR : TC_CF_SMACK;
	}
	if (env.have_lsm && env.lsm == TC_CF_SELINUX) {
		if (getcon_raw(&env.self_con)) {
			tc_fail(ctx, CF_EXIT_NORUN, "cannot read this process's SELinux context: %s",
				strerror(errno));
			goto out_free;
		}
		if (getfilecon_raw("/proc/self/exe", &env.exe_con) < 0)
			env.exe_con = NULL;
	}
	if (env.have_lsm && env.lsm == TC_CF_APPARMOR)
		profiles = tc_read_file("/sys/kernel/security/apparmor/profiles",
					16 << 20, NULL);

	/* static checks of what will run */
	res = calloc(spec.nex, sizeof(*res));
	if (!res)
		exit(TC_EXIT_ERROR);
	for (i = 0; i < spec.nex; i++) {
		const struct tc_cf_expect *e = &spec.ex[i];
		const struct tc_cf_label *sv = cf_survivor(e);
		char skip[200];
		unsigned int k;

		if (cf_skip_lsm(&env, e, skip, sizeof(skip)) == CF_SKIP) {
			res[i].v = CF_SKIP;
			res[i].reason = tc_strdup(skip);
			continue;
		}
		ran++;
		for (k = 0; k < e->nprobes; k++)
			cf_check_label(&env, &e->probe[k].label, profiles, &diags);
		if (sv && e->kind != TC_CF_NEVER)
			cf_check_escape(&env, &e->probe[0].label, sv, &diags);
		if (e->kind == TC_CF_NEVER && spec.grower[env.lsm].name)
			cf_check_escape(&env, &spec.grower[env.lsm], sv, &diags);
	}
	if (env.have_lsm && spec.grower[env.lsm].name)
		cf_check_label(&env, &spec.grower[env.lsm], profiles, &diags);
	if (!ran) {
		tc_fail(ctx, CF_EXIT_NORUN, "%s: no expectation is for the major LSM of this boot (%s); nothing run",
			tc_esc(env.name), env.major ? env.major : "none");
		goto out_free;
	}
	if (cf_check_cgroup(&env, parent, why, sizeof(why)))
		tc_diag(&diags, 0, 0, TC_ERROR, "%s", why);
	if (diags.ndiags)
		tc_check_print(ctx->err, env.name, &diags, ctx->verbosity < 0);
	if (diags.errors) {
		tc_fail(ctx, CF_EXIT_NORUN, "%s: %u error%s in the static checks; nothing run",
			tc_esc(env.name), diags.errors, diags.errors == 1 ? "" : "s");
		goto out_free;
	}
	if (evdir) {
		if (mkdir(evdir, 0750) && errno != EEXIST) {
			tc_fail(ctx, CF_EXIT_NORUN, "--evidence %s: %s", tc_esc(evdir),
				strerror(errno));
			goto out_free;
		}
		env.evdir = (char *)evdir;
		cf_evidence_start(&env, text, lsms);
	}
	{
		char *chain = tc_oom_chain(ctx);

		if (chain && !tc_chain_has_triage(chain) && ctx->verbosity >= 0)
			fprintf(ctx->err, "triagectl: warning: triage is not in vm.oom_policy (%s): the classic OOM killer decides the runs\n",
				tc_esc(chain));
		free(chain);
	}

	/* the evidence baselines */
	env.kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (env.kmsg >= 0)
		lseek(env.kmsg, 0, SEEK_END);
	env.dec_base = 0;
	{
		struct cf_run none = { .n = 0 };

		cf_decisions(&env, &none, NULL, 0, NULL);
	}

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
	sigaction(SIGHUP, &sa, &old[2]);
	cf_signal = 0;

	cf_add(&tap, "TAP version 13\n1..%zu\n", spec.nex);
	fputs(tap.s, ctx->out);
	fflush(ctx->out);
	rc = CF_EXIT_PASS;
	for (i = 0; i < spec.nex; i++) {
		const struct tc_cf_expect *e = &spec.ex[i];
		struct cf_buf line = { 0 };
		const char *p, *nl;

		if (res[i].v != CF_SKIP &&
		    cf_run_one(&env, e, i + 1, &res[i], why, sizeof(why))) {
			cf_add(&line, "Bail out! %s:%u: %s\n", tc_esc(env.name),
			       e->line, tc_esc(why));
			fputs(line.s, ctx->out);
			cf_add(&tap, "%s", line.s);
			free(line.s);
			fprintf(ctx->err, "triagectl: %s:%u: could not run: %s\n",
				tc_esc(env.name), e->line, tc_esc(why));
			rc = CF_EXIT_NORUN;
			nrun = i;
			break;
		}
		nrun = i + 1;
		if (res[i].v == CF_FAIL && !e->todo)
			failed++;
		if (res[i].v == CF_FAIL && e->todo)
			todo_failed++;
		cf_add(&line, "%sok %zu - %s:%u: %s", res[i].v == CF_FAIL ? "not " : "",
		       i + 1, tc_esc(env.name), e->line, tc_esc(e->text));
		if (res[i].v == CF_SKIP)
			cf_add(&line, " # SKIP %s", res[i].reason);
		else if (e->todo)
			cf_add(&line, " # TODO expected to fail");
		cf_add(&line, "\n");
		if (res[i].v == CF_FAIL)
			cf_add(&line, "# %s\n", tc_esc(res[i].reason));
		for (p = res[i].detail.s; p && *p; p = nl) {
			nl = strchr(p, '\n');
			cf_add(&line, "# %.*s\n", (int)(nl ? nl - p : (long)strlen(p)), p);
			if (nl)
				nl++;
		}
		fputs(line.s, ctx->out);
		fflush(ctx->out);
		cf_add(&tap, "%s", line.s);
		free(line.s);
	}
	if (rc == CF_EXIT_PASS) {
		char sum[160];

		snprintf(sum, sizeof(sum), "# %zu passed, %zu failed, %zu expected failures, %zu skipped\n",
			 nrun - failed - todo_failed - (spec.nex - ran), failed,
			 todo_failed, spec.nex - ran);
		fputs(sum, ctx->out);
		cf_add(&tap, "%s", sum);
		rc = failed ? CF_EXIT_FAIL : CF_EXIT_PASS;
	}
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
	sigaction(SIGHUP, &old[2], NULL);
	if (env.evdir)
		cf_put_file(env.evdir, "tap", tap.s);
	if (junit && cf_junit(junit, env.name, &spec, res, nrun)) {
		fprintf(ctx->err, "triagectl: --junit %s: %s\n", tc_esc(junit),
			strerror(errno));
		if (rc == CF_EXIT_PASS)
			rc = CF_EXIT_NORUN;
	}
out_free:
	if (env.kmsg >= 0)
		close(env.kmsg);
	for (i = 0; res && i < spec.nex; i++) {
		free(res[i].reason);
		free(res[i].detail.s);
	}
	free(res);
	free(tap.s);
	free(stats);
	free(lsms);
	free(profiles);
	if (env.self_con)
		freecon(env.self_con);
	if (env.exe_con)
		freecon(env.exe_con);
	tc_check_free(&diags);
	tc_cf_free(&spec);
	free(text);
	return rc;
}
