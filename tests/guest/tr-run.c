// SPDX-License-Identifier: GPL-2.0
/*
 * tr-run - start a program in a given security label and memory cgroup,
 * report its pid, label and how it ended.
 *
 * The child moves itself into the cgroup, sets the label it will exec in
 * through the major LSM's own interface (SELinux: setexeccon(); Smack: its
 * current label, kept across exec; AppArmor: "exec PROFILE") and execs
 * the program; a close-on-exec pipe tells the parent whether any of that
 * failed.  The parent writes RESULTS/NAME.pid at once,
 * and RESULTS/NAME (pid=, context=, status=) when the child has ended.
 */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <selinux/context.h>
#include <selinux/selinux.h>

#define DEFAULT_RESULTS "/run/results"
/* How long to wait for the exec'd child's new context to become visible. */
#define CONTEXT_WAIT_MS 5000

/* What the child reports through the pipe when it cannot exec. */
enum stage { STAGE_CGROUP = 1, STAGE_LABEL, STAGE_EXEC };

/* The LSM that labels tasks in this boot, for --label */
enum major_lsm { MAJOR_SELINUX, MAJOR_SMACK, MAJOR_APPARMOR };

static const char *const major_lsm_name[] = {
	[MAJOR_SELINUX] = "selinux",
	[MAJOR_SMACK] = "smack",
	[MAJOR_APPARMOR] = "apparmor",
};

struct report {
	int stage;
	int err;
};

static void usage(void)
{
	printf("Usage: tr-run [--type TYPE | --context CTX | --label LABEL]\n"
	       "              [--cgroup DIR] [--name NAME] [--results DIR]\n"
	       "              -- PROG ARGS...\n"
	       "Start PROG in a security label and cgroup, print\n"
	       "  tr-run: NAME pid=PID context=LABEL\n"
	       "once it runs, wait for it, then print\n"
	       "  tr-run: NAME pid=PID exited N | killed by signal S (SIGxxx)\n"
	       "\n"
	       "  --type TYPE    exec with our own context, type replaced by TYPE\n"
	       "                 (user, role and MLS range are kept)\n"
	       "  --context CTX  exec with the full context CTX\n"
	       "  --label LABEL  exec in LABEL of the major LSM of this boot\n"
	       "                 (the first of selinux, smack, apparmor in\n"
	       "                 /sys/kernel/security/lsm): an SELinux context,\n"
	       "                 a Smack label or an AppArmor profile\n"
	       "  --cgroup DIR   the child joins cgroup DIR (DIR/cgroup.procs)\n"
	       "  --name NAME    name in messages and result files\n"
	       "                 (default: basename of PROG)\n"
	       "  --results DIR  where to write NAME.pid (at start) and NAME\n"
	       "                 (pid=, context=, status=exited:N|killed:S, and\n"
	       "                 error= if PROG could not be started)\n"
	       "                 (default: " DEFAULT_RESULTS ")\n"
	       "  --help         this text\n"
	       "Exit: the child's status (128+S if killed by signal S); 127 if\n"
	       "it could not be started; 2 on bad usage.\n");
}

/* In the child, before exec: make the exec'd program run in @label */
static int set_exec_label(enum major_lsm lsm, const char *label)
{
	char cmd[PATH_MAX];

	switch (lsm) {
	case MAJOR_SMACK:
		/* Smack keeps a task's label across exec */
		return tr_write_existing("/proc/self/attr/smack/current", label);
	case MAJOR_APPARMOR:
		if (snprintf(cmd, sizeof(cmd), "exec %s", label) >=
		    (int)sizeof(cmd)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		return tr_write_existing("/proc/self/attr/apparmor/exec", cmd);
	default:
		return setexeccon_raw(label);
	}
}

/* The major LSM of this boot: the first that labels tasks in the list */
static enum major_lsm major_lsm(void)
{
	char list[256], *tok, *save = NULL;
	ssize_t n;
	int fd, i;

	fd = open("/sys/kernel/security/lsm", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		tr_die(TR_EXIT_SETUP, "open /sys/kernel/security/lsm");
	n = read(fd, list, sizeof(list) - 1);
	close(fd);
	if (n < 0)
		tr_die(TR_EXIT_SETUP, "read /sys/kernel/security/lsm");
	list[n] = '\0';
	for (tok = strtok_r(list, ",\n", &save); tok;
	     tok = strtok_r(NULL, ",\n", &save))
		for (i = 0; i < (int)(sizeof(major_lsm_name) /
				      sizeof(major_lsm_name[0])); i++)
			if (!strcmp(tok, major_lsm_name[i]))
				return (enum major_lsm)i;
	tr_die(TR_EXIT_SETUP, "--label: no LSM of this boot labels tasks");
}

/*
 * Whether the label read back is the one asked for; AppArmor adds the
 * profile's mode, e.g. "batch_job (complain)".
 */
static int label_is(const char *con, const char *want)
{
	size_t len = strlen(want);

	return !strcmp(con, want) ||
	       (!strncmp(con, want, len) && !strncmp(con + len, " (", 2));
}

static _Noreturn void child(int fd, const char *cgroup, enum major_lsm lsm,
			    const char *ctx, char **argv)
{
	struct report r = { 0, 0 };
	char path[PATH_MAX], pid[32];

	if (cgroup) {
		snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
		if (snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup) >=
		    (int)sizeof(path)) {
			errno = ENAMETOOLONG;
			r.stage = STAGE_CGROUP;
		} else if (tr_write_existing(path, pid)) {
			r.stage = STAGE_CGROUP;
		}
	}
	if (!r.stage && ctx && set_exec_label(lsm, ctx))
		r.stage = STAGE_LABEL;
	if (!r.stage) {
		execvp(argv[0], argv);
		r.stage = STAGE_EXEC;
	}
	r.err = errno;
	/* The parent reads sizeof(r) or EOF; a pipe write this small is atomic. */
	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(TR_EXIT_SETUP);
	_exit(TR_EXIT_SETUP);
}

/* The exec context for --type: our own context with the type replaced. */
static char *context_with_type(const char *type)
{
	char *cur, *out;
	context_t c;

	if (getcon_raw(&cur))
		tr_die(TR_EXIT_SETUP, "getcon");
	c = context_new(cur);
	if (!c)
		tr_die(TR_EXIT_SETUP, "context_new(%s)", cur);
	if (context_type_set(c, type))
		tr_die(TR_EXIT_SETUP, "context_type_set(%s, %s)", cur, type);
	out = strdup(context_str(c));
	if (!out)
		tr_die(TR_EXIT_SETUP, "strdup");
	context_free(c);
	freecon(cur);
	return out;
}

static int child_is_dead(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return 1;
	return si.si_pid == pid;
}

/*
 * The child's context after a successful exec.  The close-on-exec pipe
 * closes in execve() before the new credentials are committed, so when a
 * context was requested, poll until it is visible (or the child is dead,
 * when its context is final).  The child is not reaped here.
 */
static char *read_child_context(pid_t pid, const char *want)
{
	unsigned long long start = tr_now_ms();
	char *con;

	for (;;) {
		int dead = child_is_dead(pid);

		if (getpidcon_raw(pid, &con)) {
			if (errno == ENOENT || errno == EINVAL ||
			    errno == ENOPROTOOPT)
				return strdup("-");	/* no SELinux */
			tr_err("getpidcon(%ld)", (long)pid);
			return strdup("?");
		}
		if (!want || label_is(con, want) || dead)
			return con;
		if (tr_now_ms() - start > CONTEXT_WAIT_MS) {
			tr_msg("pid %ld still has context %s, not %s",
			       (long)pid, con, want);
			return con;
		}
		freecon(con);
		tr_sleep_ms(1);
	}
}

static void write_results(const char *dir, const char *name, pid_t pid,
			  const char *con, const char *status,
			  const char *error)
{
	char path[PATH_MAX], text[PATH_MAX + 512];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path)) {
		tr_msg("results path %s/%s is too long", dir, name);
		return;
	}
	snprintf(text, sizeof(text), "pid=%ld\ncontext=%s\nstatus=%s\n%s%s%s",
		 (long)pid, con, status, error ? "error=" : "",
		 error ? error : "", error ? "\n" : "");
	tr_write_file(path, text);
}

static int wait_child(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			tr_die(TR_EXIT_SETUP, "waitpid(%ld)", (long)pid);
	}
	return status;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "type", required_argument, NULL, 't' },
		{ "context", required_argument, NULL, 'c' },
		{ "label", required_argument, NULL, 'l' },
		{ "cgroup", required_argument, NULL, 'g' },
		{ "name", required_argument, NULL, 'n' },
		{ "results", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *type = NULL, *ctx_arg = NULL, *label = NULL, *cgroup = NULL;
	enum major_lsm lsm = MAJOR_SELINUX;
	const char *name = NULL, *results = DEFAULT_RESULTS;
	char *ctx = NULL, *want = NULL, *con;
	char path[PATH_MAX], text[64], human[64], key[32], error[PATH_MAX + 64];
	struct report r;
	int fds[2], c, status, rc;
	ssize_t n;
	pid_t pid;

	tr_prog = "tr-run";
	/* '+': options end at PROG, so PROG's own options are left alone. */
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			type = optarg;
			break;
		case 'c':
			ctx_arg = optarg;
			break;
		case 'l':
			label = optarg;
			break;
		case 'g':
			cgroup = optarg;
			break;
		case 'n':
			name = optarg;
			break;
		case 'r':
			results = optarg;
			break;
		case 'h':
			usage();
			return 0;
		default:
			tr_usage_error("invalid command line");
		}
	}
	if (optind >= argc)
		tr_usage_error("no program given (tr-run [OPTIONS] -- PROG ARGS...)");
	if (!!type + !!ctx_arg + !!label > 1)
		tr_usage_error("--type, --context and --label exclude each other");
	if (type && !*type)
		tr_usage_error("--type: empty type");
	if (ctx_arg && !*ctx_arg)
		tr_usage_error("--context: empty context");
	if (label && !*label)
		tr_usage_error("--label: empty label");
	if (!name) {
		name = strrchr(argv[optind], '/');
		name = name ? name + 1 : argv[optind];
	}
	if (!*name || strchr(name, '/') || name[0] == '.')
		tr_usage_error("--name: '%s' is not a plain file name", name);

	if (tr_mkdir_p(results))
		tr_die(TR_EXIT_SETUP, "mkdir %s", results);
	if (type)
		ctx = context_with_type(type);
	else if (ctx_arg && !(ctx = strdup(ctx_arg)))
		tr_die(TR_EXIT_SETUP, "strdup");
	if (label) {
		lsm = major_lsm();
		if (!(ctx = strdup(label)))
			tr_die(TR_EXIT_SETUP, "strdup");
	}
	/* The kernel's spelling of ctx (e.g. c0,c1,c2 -> c0.c2), to compare. */
	if (ctx && (lsm != MAJOR_SELINUX ||
		    security_canonicalize_context_raw(ctx, &want)))
		want = strdup(ctx);

	if (pipe2(fds, O_CLOEXEC))
		tr_die(TR_EXIT_SETUP, "pipe2");
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		tr_die(TR_EXIT_SETUP, "fork");
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], cgroup, lsm, ctx, argv + optind);
	}
	close(fds[1]);

	snprintf(path, sizeof(path), "%s/%s.pid", results, name);
	snprintf(text, sizeof(text), "%ld\n", (long)pid);
	tr_write_file(path, text);

	do
		n = read(fds[0], &r, sizeof(r));
	while (n < 0 && errno == EINTR);
	close(fds[0]);

	if (n != 0) {
		/* The child could not exec: say where and why. */
		if (n != (ssize_t)sizeof(r)) {
			snprintf(error, sizeof(error),
				 "lost the child's report");
		} else if (r.stage == STAGE_CGROUP) {
			snprintf(error, sizeof(error),
				 "write %s/cgroup.procs: %s", cgroup,
				 strerror(r.err));
		} else if (r.stage == STAGE_LABEL) {
			snprintf(error, sizeof(error), "%s exec label %s: %s",
				 major_lsm_name[lsm], ctx, strerror(r.err));
		} else {
			snprintf(error, sizeof(error), "exec %s%s%s: %s",
				 argv[optind], ctx ? " as " : "",
				 ctx ? ctx : "", strerror(r.err));
		}
		fprintf(stderr, "tr-run: %s: %s\n", name, error);
		status = wait_child(pid);
		tr_describe_status(status, human, sizeof(human), key,
				   sizeof(key));
		write_results(results, name, pid, "-", key, error);
		return TR_EXIT_SETUP;
	}

	con = read_child_context(pid, want);
	printf("tr-run: %s pid=%ld context=%s\n", name, (long)pid,
	       con ? con : "?");
	fflush(stdout);

	status = wait_child(pid);
	rc = tr_describe_status(status, human, sizeof(human), key,
				sizeof(key));
	write_results(results, name, pid, con ? con : "?", key, NULL);
	printf("tr-run: %s pid=%ld %s\n", name, (long)pid, human);
	fflush(stdout);
	return rc;
}
