// SPDX-License-Identifier: GPL-2.0
/*
 * tr-storm - cause many real OOMs in a row, one victim at a time.
 *
 * Each round forks a child that joins a memory cgroup, execs itself in one
 * SELinux domain, then execs tr-hog in another domain (so every victim
 * crossed domains by exec just before it died), and allocates until the OOM
 * killer kills it: past memory.max of a small cgroup (a memcg OOM), or,
 * every Kth round, from a cgroup without a limit until the whole machine is
 * out of memory (a global OOM).  The parent waits for each child and
 * records how it ended.  No libselinux: contexts are written to
 * /proc/thread-self/attr/exec directly, to keep a round cheap.
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
#include <time.h>
#include <unistd.h>

#define MAX_CONTEXT	256
/* A round that has not ended in this long counts as a hang. */
#define ROUND_TIMEOUT_S	60

static void usage(void)
{
	printf("Usage: tr-storm --count N --cgroup DIR --mib M --types A,B\n"
	       "                [--global-every K --global-cgroup DIR]\n"
	       "                [--log FILE] [--stop FILE]\n"
	       "Cause N OOM kills in a row.  Round i forks a child that joins\n"
	       "DIR, execs itself in domain A (B on odd rounds), then execs\n"
	       "tr-hog in the other domain, which allocates M MiB (more than\n"
	       "DIR's memory.max) and so is killed by a memcg OOM.  Every Kth\n"
	       "round the child joins the --global-cgroup DIR instead and\n"
	       "allocates without end: a global OOM.\n"
	       "  --log FILE   one line per round: ROUND PID SCOPE FIRST-TYPE\n"
	       "               HOG-TYPE STATUS (killed:9, exited:N, ...)\n"
	       "  --stop FILE  stop early when FILE exists\n"
	       "At the end prints on stdout\n"
	       "  tr-storm: rounds=R killed=K memcg=M global=G other=O ms=T\n"
	       "Exit: 0 if every round's child was SIGKILLed, 1 otherwise,\n"
	       "2 on bad usage.\n");
}

/* Our own context with its type replaced by TYPE (user:role:type[:range]) */
static void context_with_type(char *out, size_t len, const char *type)
{
	char cur[MAX_CONTEXT], *p, *q;
	ssize_t n;
	int fd;

	fd = open("/proc/self/attr/current", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		tr_die(TR_EXIT_SETUP, "open /proc/self/attr/current");
	n = read(fd, cur, sizeof(cur) - 1);
	close(fd);
	if (n <= 0)
		tr_die(TR_EXIT_SETUP, "read /proc/self/attr/current");
	cur[n] = '\0';
	cur[strcspn(cur, "\n")] = '\0';
	p = strchr(cur, ':');
	p = p ? strchr(p + 1, ':') : NULL;
	if (!p) {
		tr_msg("context '%s' has no type field", cur);
		exit(TR_EXIT_SETUP);
	}
	q = strchr(p + 1, ':');
	*p = '\0';
	if (snprintf(out, len, "%s:%s%s", cur, type, q ? q : "") >= (int)len) {
		tr_msg("context too long");
		exit(TR_EXIT_SETUP);
	}
}

static void set_exec_context(const char *ctx)
{
	if (tr_write_existing("/proc/thread-self/attr/exec", ctx))
		_exit(TR_EXIT_SETUP);
}

/* --hop CTX -- PROG ARGS: exec PROG in CTX (the child's second exec) */
static _Noreturn void hop(const char *ctx, char **argv)
{
	set_exec_context(ctx);
	execvp(argv[0], argv);
	tr_err("exec %s", argv[0]);
	_exit(TR_EXIT_SETUP);
}

static _Noreturn void child(const char *self, const char *cgroup,
			    const char *ctx1, const char *ctx2,
			    const char *mib, int global)
{
	char path[PATH_MAX], pid[32];
	char *argv[16];
	int i = 0;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup);
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (tr_write_existing(path, pid))
		_exit(TR_EXIT_SETUP);
	set_exec_context(ctx1);
	argv[i++] = "tr-storm";
	argv[i++] = "--hop";
	argv[i++] = (char *)ctx2;
	argv[i++] = "--";
	argv[i++] = "tr-hog";
	if (global) {
		argv[i++] = "--mib";
		argv[i++] = "0";
		argv[i++] = "--forever";
		argv[i++] = "--step-mib";
		argv[i++] = "4";
	} else {
		argv[i++] = "--mib";
		argv[i++] = (char *)mib;
	}
	argv[i] = NULL;
	execv(self, argv);
	tr_err("exec %s", self);
	_exit(TR_EXIT_SETUP);
}

/* Wait for PID, at most ROUND_TIMEOUT_S; SIGKILL it after that. */
static int wait_round(pid_t pid, int *timed_out)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 2 * 1000 * 1000 };
	unsigned long long start = tr_now_ms();
	int status;
	pid_t r;

	*timed_out = 0;
	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			tr_die(TR_EXIT_SETUP, "waitpid(%ld)", (long)pid);
		if (!*timed_out && tr_now_ms() - start > ROUND_TIMEOUT_S * 1000ULL) {
			tr_msg("round child %ld still alive after %ds: killing it",
			       (long)pid, ROUND_TIMEOUT_S);
			kill(pid, SIGKILL);
			*timed_out = 1;
		}
		nanosleep(&ts, NULL);
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "cgroup", required_argument, NULL, 'g' },
		{ "mib", required_argument, NULL, 'm' },
		{ "types", required_argument, NULL, 't' },
		{ "global-every", required_argument, NULL, 'k' },
		{ "global-cgroup", required_argument, NULL, 'G' },
		{ "log", required_argument, NULL, 'l' },
		{ "stop", required_argument, NULL, 's' },
		{ "hop", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cgroup = NULL, *gcgroup = NULL, *mib = NULL, *types = NULL;
	const char *logpath = NULL, *stop = NULL, *hop_ctx = NULL;
	unsigned long count = 0, every = 0, i;
	unsigned long killed = 0, memcg = 0, global = 0, other = 0;
	char ctx[2][MAX_CONTEXT], type[2][64], self[PATH_MAX];
	unsigned long long start;
	FILE *log = NULL;
	const char *comma;
	ssize_t n;
	int c;

	tr_prog = "tr-storm";
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			count = tr_parse_num("--count", optarg, 1, 10000000);
			break;
		case 'g':
			cgroup = optarg;
			break;
		case 'm':
			tr_parse_num("--mib", optarg, 1, 1 << 20);
			mib = optarg;
			break;
		case 't':
			types = optarg;
			break;
		case 'k':
			every = tr_parse_num("--global-every", optarg, 0, 10000000);
			break;
		case 'G':
			gcgroup = optarg;
			break;
		case 'l':
			logpath = optarg;
			break;
		case 's':
			stop = optarg;
			break;
		case 'H':
			hop_ctx = optarg;
			break;
		case 'h':
			usage();
			return 0;
		default:
			tr_usage_error("invalid command line");
		}
	}
	if (hop_ctx) {
		if (optind >= argc)
			tr_usage_error("--hop: no program");
		hop(hop_ctx, argv + optind);
	}
	if (optind < argc)
		tr_usage_error("unexpected argument '%s'", argv[optind]);
	if (!count || !cgroup || !mib || !types)
		tr_usage_error("--count, --cgroup, --mib and --types are required");
	if (every && !gcgroup)
		tr_usage_error("--global-every needs --global-cgroup");
	comma = strchr(types, ',');
	if (!comma || comma == types || !comma[1] ||
	    (size_t)(comma - types) >= sizeof(type[0]) ||
	    strlen(comma + 1) >= sizeof(type[1]))
		tr_usage_error("--types: expected A,B");
	snprintf(type[0], sizeof(type[0]), "%.*s", (int)(comma - types), types);
	snprintf(type[1], sizeof(type[1]), "%s", comma + 1);
	context_with_type(ctx[0], sizeof(ctx[0]), type[0]);
	context_with_type(ctx[1], sizeof(ctx[1]), type[1]);

	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		tr_die(TR_EXIT_SETUP, "readlink /proc/self/exe");
	self[n] = '\0';
	if (logpath) {
		log = fopen(logpath, "we");
		if (!log)
			tr_die(TR_EXIT_SETUP, "open %s", logpath);
	}

	start = tr_now_ms();
	for (i = 0; i < count; i++) {
		int is_global = every && (i + 1) % every == 0;
		int a = i & 1, status, timed_out;
		char human[64], key[32];
		pid_t pid;

		if (stop && !access(stop, F_OK))
			break;
		fflush(NULL);
		pid = fork();
		if (pid < 0)
			tr_die(TR_EXIT_SETUP, "fork");
		if (pid == 0)
			child(self, is_global ? gcgroup : cgroup, ctx[a],
			      ctx[!a], mib, is_global);
		status = wait_round(pid, &timed_out);
		tr_describe_status(status, human, sizeof(human), key,
				   sizeof(key));
		if (timed_out) {
			snprintf(key, sizeof(key), "hung");
			other++;
		} else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
			killed++;
			if (is_global)
				global++;
			else
				memcg++;
		} else {
			other++;
			tr_msg("round %lu: child %ld %s", i + 1, (long)pid,
			       human);
		}
		if (log)
			fprintf(log, "%lu %ld %s %s %s %s\n", i + 1, (long)pid,
				is_global ? "global" : "memcg", type[a],
				type[!a], key);
	}
	if (log)
		fclose(log);
	printf("tr-storm: rounds=%lu killed=%lu memcg=%lu global=%lu other=%lu ms=%llu\n",
	       i, killed, memcg, global, other, tr_now_ms() - start);
	return other ? 1 : 0;
}
