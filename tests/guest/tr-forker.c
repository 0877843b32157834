// SPDX-License-Identifier: GPL-2.0
/*
 * tr-forker - a parent that keeps forking memory-hungry children.
 *
 * Each child makes M MiB resident and holds it (tr-hog's code).  When a
 * child dies the parent logs it and forks a replacement, until it has
 * started N children; then it exits 0.  Used to test a "blame the parent"
 * OOM policy: there the parent itself should be killed before it gets that
 * far.  Children die with the parent (PR_SET_PDEATHSIG), so killing the
 * parent frees all the memory.
 */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int log_fd = STDOUT_FILENO;

static void usage(void)
{
	printf("Usage: tr-forker --children N --child-mib M [--max-alive K]\n"
	       "                 [--interval-ms MS] [--log FILE] [--wait]\n"
	       "                 [--subreaper]\n"
	       "Fork children that each make M MiB resident and hold it; when\n"
	       "one dies, log it and fork another, until N have been started.\n"
	       "\n"
	       "  --children N     children to start in total\n"
	       "  --child-mib M    MiB each child makes resident\n"
	       "  --max-alive K    children alive at once (default 1: one at a\n"
	       "                   time, the next only when the last one died)\n"
	       "  --interval-ms MS pause before each fork after the first\n"
	       "                   (default 0)\n"
	       "  --log FILE       append the log to FILE instead of stdout:\n"
	       "                     child PID started (I/N)\n"
	       "                     child PID killed by signal S (SIGxxx)\n"
	       "                     child PID exited N\n"
	       "                     started N children, exiting\n"
	       "  --wait           after the N-th start, wait for the children\n"
	       "                   still alive to die instead of killing them\n"
	       "  --subreaper      become a child subreaper first\n"
	       "                   (PR_SET_CHILD_SUBREAPER), as service managers are\n"
	       "  --help           this text\n"
	       "Exit: 0 after starting N children; 1 on error; 2 on bad usage.\n"
	       "Children get SIGKILL when the parent dies.\n");
}

/* One line, one write(): lines from several processes never interleave. */
static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(log_fd, buf, (size_t)n) < 0)
		tr_err("write log");
}

static void log_death(pid_t pid, int status)
{
	char human[64], key[32];

	tr_describe_status(status, human, sizeof(human), key, sizeof(key));
	logf_("child %ld %s", (long)pid, human);
}

/* Children alive now; their number is at most --max-alive. */
static pid_t *live;
static unsigned long alive;

static void forget(pid_t pid)
{
	unsigned long i;

	for (i = 0; i < alive; i++) {
		if (live[i] == pid) {
			live[i] = live[--alive];
			return;
		}
	}
}

/* Reap one child (blocking or not), log it; returns 1 if one was reaped. */
static int reap(int block, int quiet)
{
	int status;
	pid_t pid;

	do
		pid = waitpid(-1, &status, block ? 0 : WNOHANG);
	while (pid < 0 && errno == EINTR);
	if (pid <= 0)
		return 0;
	if (!quiet)
		log_death(pid, status);
	forget(pid);
	return 1;
}

static pid_t start_child(unsigned long mib)
{
	struct tr_hog h = { .mib = mib };
	pid_t ppid = getpid();
	int warned = 0;
	pid_t pid;

	for (;;) {
		pid = fork();
		if (pid >= 0)
			break;
		/* Low memory may make fork() fail: keep trying. */
		if (errno != EAGAIN && errno != ENOMEM)
			tr_die(1, "fork");
		if (!warned++)
			tr_err("fork (retrying)");
		tr_sleep_ms(10);
	}
	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL))
			tr_die(1, "prctl(PR_SET_PDEATHSIG)");
		if (getppid() != ppid)	/* the parent died before prctl() */
			_exit(1);
		if (log_fd != STDOUT_FILENO)
			close(log_fd);
		_exit(tr_hog_run(&h));
	}
	return pid;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "children", required_argument, NULL, 'n' },
		{ "child-mib", required_argument, NULL, 'm' },
		{ "max-alive", required_argument, NULL, 'k' },
		{ "interval-ms", required_argument, NULL, 'i' },
		{ "log", required_argument, NULL, 'l' },
		{ "wait", no_argument, NULL, 'w' },
		{ "subreaper", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long children = 0, mib = 0, max_alive = 1, interval = 0;
	unsigned long started = 0, i;
	const char *log = NULL;
	int wait_all = 0, subreaper = 0, c;

	tr_prog = "tr-forker";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			children = tr_parse_num("--children", optarg, 1,
						1000000UL);
			break;
		case 'm':
			mib = tr_parse_num("--child-mib", optarg, 1,
					   1UL << 30);
			break;
		case 'k':
			max_alive = tr_parse_num("--max-alive", optarg, 1,
						 100000UL);
			break;
		case 'i':
			interval = tr_parse_num("--interval-ms", optarg, 0,
						86400000UL);
			break;
		case 'l':
			log = optarg;
			break;
		case 'w':
			wait_all = 1;
			break;
		case 's':
			subreaper = 1;
			break;
		case 'h':
			usage();
			return 0;
		default:
			tr_usage_error("invalid command line");
		}
	}
	if (optind < argc)
		tr_usage_error("unexpected argument '%s'", argv[optind]);
	if (!children || !mib)
		tr_usage_error("--children N and --child-mib M are required");
	if (subreaper && prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		tr_die(1, "prctl(PR_SET_CHILD_SUBREAPER)");
	live = calloc(max_alive, sizeof(*live));
	if (!live)
		tr_die(1, "calloc");
	if (log) {
		log_fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			      0644);
		if (log_fd < 0)
			tr_die(1, "open %s", log);
	}

	while (started < children) {
		pid_t pid;

		while (alive >= max_alive) {
			if (!reap(1, 0))
				tr_die(1, "waitpid");
		}
		if (started && interval)
			tr_sleep_ms(interval);
		while (alive && reap(0, 0))
			;
		pid = start_child(mib);
		live[alive++] = pid;
		started++;
		logf_("child %ld started (%lu/%lu)", (long)pid, started,
		      children);
	}
	logf_("started %lu children, exiting", started);
	if (!wait_all) {
		/* Not OOM deaths: the parent ends them, and does not log it. */
		for (i = 0; i < alive; i++)
			kill(live[i], SIGKILL);
	}
	while (alive && reap(1, !wait_all))
		;
	return 0;
}
