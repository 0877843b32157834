// SPDX-License-Identifier: GPL-2.0
/*
 * tr-hog - make N MiB of anonymous memory resident, then hold it.
 *
 * With --mm-sharer LABEL it first clones a process that shares its mm
 * (clone(CLONE_VM) without CLONE_THREAD: another process, the same
 * memory) and relabels itself to LABEL without exec, which Smack allows a
 * privileged task: the OOM killer's mm-sharer path then meets two labels
 * on one mm.
 *
 * Prints nothing except errors: it may be OOM-killed at any moment.
 */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_MIB (1UL << 30)
#define SHARER_STACK (64 * 1024)

/* Written by the mm-sharer, read by its parent: they share this memory */
struct sharer {
	const char *attr;
	const char *label;
	volatile int state;	/* 0 starting, 1 relabelled, -errno failed */
};

/* Runs on its own stack in the parent's mm: system calls only */
static int sharer_main(void *arg)
{
	struct sharer *s = arg;
	size_t len = strlen(s->label);
	int fd;

	fd = open(s->attr, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		s->state = -EACCES;
	} else {
		s->state = write(fd, s->label, len) == (ssize_t)len ? 1 : -EPERM;
		close(fd);
	}
	for (;;)
		pause();
	return 0;
}

/* Clone the mm-sharer, wait until it carries LABEL; returns its pid */
static pid_t start_sharer(struct sharer *s)
{
	char *stack = malloc(SHARER_STACK);
	unsigned long waited = 0;
	pid_t pid;

	if (!stack)
		tr_die(1, "out of memory");
	s->attr = access("/proc/self/attr/smack/current", F_OK) ?
		  "/proc/self/attr/current" : "/proc/self/attr/smack/current";
	pid = clone(sharer_main, stack + SHARER_STACK, CLONE_VM | SIGCHLD, s);
	if (pid < 0)
		tr_die(1, "clone(CLONE_VM): %s", strerror(errno));
	while (!s->state && waited++ < 10000)
		tr_sleep_ms(1);
	if (s->state != 1) {
		kill(pid, SIGKILL);
		tr_die(1, "the mm-sharer could not take the label %s in %s: %s",
		       s->label, s->attr,
		       s->state ? strerror(-s->state) : "timed out");
	}
	return pid;
}

/*
 * Relabel ourselves without exec, the major LSM's own way: SELinux setcon
 * (attr/current), Smack (attr/smack/current), AppArmor change_profile
 * ("changeprofile NAME" to attr/apparmor/current).  The label is in force
 * when the write returns.
 */
static void relabel(const char *label)
{
	char lsm[256] = "", text[300];
	const char *attr;
	ssize_t n;
	int fd;

	fd = open("/sys/kernel/security/lsm", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, lsm, sizeof(lsm) - 1);
		lsm[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	if (strstr(lsm, "apparmor")) {
		attr = "/proc/self/attr/apparmor/current";
		snprintf(text, sizeof(text), "changeprofile %s", label);
	} else {
		attr = strstr(lsm, "smack") ? "/proc/self/attr/smack/current" :
					      "/proc/self/attr/current";
		snprintf(text, sizeof(text), "%s", label);
	}
	fd = open(attr, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		tr_die(1, "cannot relabel to %s through %s: %s", label, attr,
		       strerror(errno));
	close(fd);
}

static void usage(void)
{
	printf("Usage: tr-hog --mib N [--ready FILE] [--hold | --exit]\n"
	       "              [--step-mib K --step-ms MS] [--forever | --thrash]\n"
	       "Map anonymous memory and write to every page so that it is\n"
	       "really resident, then hold it until killed.\n"
	       "\n"
	       "  --mib N        MiB to make resident (may be 0 with --forever)\n"
	       "  --ready FILE   create FILE (containing our pid) once N MiB\n"
	       "                 are resident\n"
	       "  --hold         then pause until killed (default)\n"
	       "  --exit         then exit 0\n"
	       "  --step-mib K   allocate K MiB at a time ...\n"
	       "  --step-ms MS   ... sleeping MS ms between steps\n"
	       "  --thrash       then touch every page in turn, forever (pages\n"
	       "                 half random: with swap, a working set larger\n"
	       "                 than memory thrashes)\n"
	       "  --forever      after N MiB keep allocating (K MiB, default 1,\n"
	       "                 every MS ms) until killed; mmap failures are\n"
	       "                 retried instead of fatal\n"
	       "  --mm-sharer LABEL  first clone a process sharing our memory\n"
	       "                 (CLONE_VM) that relabels itself to LABEL\n"
	       "  --sharer-pid FILE  write that process's pid to FILE\n"
	       "  --relabel LABEL  first change our own label to LABEL without\n"
	       "                 exec (SELinux setcon, Smack attr/current,\n"
	       "                 AppArmor change_profile)\n"
	       "  --help         this text\n"
	       "Exit: 0 with --exit, 1 on error, 2 on bad usage.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mib", required_argument, NULL, 'm' },
		{ "ready", required_argument, NULL, 'r' },
		{ "hold", no_argument, NULL, 'H' },
		{ "exit", no_argument, NULL, 'x' },
		{ "step-mib", required_argument, NULL, 'k' },
		{ "step-ms", required_argument, NULL, 's' },
		{ "forever", no_argument, NULL, 'f' },
		{ "thrash", no_argument, NULL, 'T' },
		{ "mm-sharer", required_argument, NULL, 'S' },
		{ "sharer-pid", required_argument, NULL, 'P' },
		{ "relabel", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tr_hog h = { 0 };
	struct sharer sharer = { 0 };
	const char *sharer_pidfile = NULL, *relabel_to = NULL;
	int have_mib = 0, hold = 0, c;
	char text[32];

	tr_prog = "tr-hog";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			h.mib = tr_parse_num("--mib", optarg, 0, MAX_MIB);
			have_mib = 1;
			break;
		case 'r':
			h.ready = optarg;
			break;
		case 'H':
			hold = 1;
			break;
		case 'x':
			h.exit_when_ready = 1;
			break;
		case 'k':
			h.step_mib = tr_parse_num("--step-mib", optarg, 1,
						  MAX_MIB);
			break;
		case 's':
			h.step_ms = tr_parse_num("--step-ms", optarg, 0,
						 86400000UL);
			break;
		case 'f':
			h.forever = 1;
			break;
		case 'T':
			h.thrash = 1;
			break;
		case 'S':
			sharer.label = optarg;
			break;
		case 'P':
			sharer_pidfile = optarg;
			break;
		case 'L':
			relabel_to = optarg;
			break;
		case 'h':
			usage();
			return 0;
		default:
			tr_usage_error("bad option");
		}
	}
	if (optind < argc)
		tr_usage_error("unexpected argument '%s'", argv[optind]);
	if (!have_mib && !h.forever)
		tr_usage_error("--mib N is required");
	if (hold && h.exit_when_ready)
		tr_usage_error("--hold and --exit exclude each other");
	if (h.thrash && (h.forever || h.exit_when_ready))
		tr_usage_error("--thrash excludes --forever and --exit");
	if (h.forever && h.exit_when_ready)
		tr_usage_error("--forever and --exit exclude each other");
	if (h.mib == 0 && !h.forever)
		tr_usage_error("--mib must be at least 1 without --forever");
	if (sharer_pidfile && !sharer.label)
		tr_usage_error("--sharer-pid needs --mm-sharer");
	if (relabel_to)
		relabel(relabel_to);
	if (sharer.label) {
		snprintf(text, sizeof(text), "%d\n", (int)start_sharer(&sharer));
		if (sharer_pidfile && tr_write_file(sharer_pidfile, text))
			return 1;
	}
	return tr_hog_run(&h);
}
