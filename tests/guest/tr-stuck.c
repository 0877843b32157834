// SPDX-License-Identifier: GPL-2.0
/*
 * tr-stuck - a process that cannot die at once: an OOM victim that stays
 * "still exiting" for as long as a test needs.
 *
 * A SIGKILLed task dies at its next return to user space, except while it
 * sleeps uninterruptibly in the kernel.  Two roles make that sleep:
 *
 *   tr-stuck hold FILE --ready R   writes to FILE from a page registered
 *                                  with userfaultfd that nobody fills: the
 *                                  write sleeps in the fault with FILE's
 *                                  inode lock held (until it is killed)
 *   tr-stuck wait FILE --mib N --ready R
 *                                  touches N MiB, then writes to FILE:
 *                                  the write sleeps uninterruptibly on the
 *                                  inode lock, and SIGKILL cannot end it
 *                                  until the holder is gone
 *
 * The waiter, killed by the OOM killer, is a victim whose memory stays
 * until the holder dies or the OOM reaper takes it.
 */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define READY_TIMEOUT_MS 10000UL
#define POLL_MS 10

static void usage(void)
{
	printf("Usage: tr-stuck hold FILE --ready R\n"
	       "       tr-stuck wait FILE --mib N --ready R\n"
	       "Sleep uninterruptibly in write(2) to FILE, for a victim that\n"
	       "cannot exit at once.\n"
	       "\n"
	       "  hold            write FILE from a userfaultfd page nobody fills:\n"
	       "                  FILE's inode lock stays held until this dies\n"
	       "  wait            touch --mib MiB, then write FILE: the write\n"
	       "                  waits for the inode lock, unkillable\n"
	       "  --mib N         MiB the waiter touches first (default 0)\n"
	       "  --ready R       created once the write is about to sleep\n"
	       "                  (hold: once it sleeps in the fault)\n"
	       "  --help          this text\n"
	       "Exit: does not return while stuck; 1 on error; 2 on bad usage.\n");
}

/* The state letter of /proc/self/task/TID/stat, or 0. */
static char task_state(pid_t tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* the comm may hold spaces and parentheses: the state follows the last ')' */
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

struct holder {
	pid_t writer;		/* the thread that sleeps in the fault */
	const char *ready;
};

/*
 * Tell the scenario once the writer sleeps: a sleeping writer has passed
 * the inode lock and waits in the userfault (S, or D when the fault is
 * not interruptible).
 */
static void *announce(void *arg)
{
	const struct holder *h = arg;
	unsigned long long start = tr_now_ms();

	while (task_state(h->writer) != 'S' && task_state(h->writer) != 'D') {
		if (tr_now_ms() - start > READY_TIMEOUT_MS) {
			tr_msg("the writer never slept in its fault");
			exit(1);
		}
		tr_sleep_ms(POLL_MS);
	}
	if (tr_write_file(h->ready, "holding\n"))
		exit(1);
	return NULL;
}

static int hold(int fd, const char *ready)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	long page = sysconf(_SC_PAGESIZE);
	struct holder h = { .ready = ready };
	pthread_t thread;
	void *region;
	int uffd;

	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api)) {
		tr_err("userfaultfd");
		return 1;
	}
	region = mmap(NULL, page, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED) {
		tr_err("mmap");
		return 1;
	}
	reg.range.start = (unsigned long)region;
	reg.range.len = page;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		tr_err("UFFDIO_REGISTER");
		return 1;
	}
	h.writer = (pid_t)syscall(SYS_gettid);
	errno = pthread_create(&thread, NULL, announce, &h);
	if (errno) {
		tr_err("pthread_create");
		return 1;
	}
	/* sleeps in the fault on region, FILE's inode lock held */
	if (write(fd, region, page) < 0)
		tr_err("write");
	else
		tr_msg("the write returned: the fault was filled");
	return 1;
}

static int wait_for_lock(int fd, unsigned long mib, const char *ready)
{
	size_t len = (size_t)mib << 20;
	char *mem = NULL;

	if (len) {
		mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED) {
			tr_err("mmap %lu MiB", mib);
			return 1;
		}
		/* random-ish bytes are not needed: no swap here */
		memset(mem, 0x5a, len);
	}
	if (tr_write_file(ready, "waiting\n"))
		return 1;
	/* sleeps uninterruptibly until the holder is gone */
	if (write(fd, "x", 1) < 0)
		tr_err("write");
	return 1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mib", required_argument, NULL, 'm' },
		{ "ready", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *role, *file, *ready = NULL;
	unsigned long mib = 0;
	int c, fd;

	tr_prog = "tr-stuck";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			mib = tr_parse_num("--mib", optarg, 0, 65536);
			break;
		case 'r':
			ready = optarg;
			break;
		case 'h':
			usage();
			return 0;
		default:
			tr_usage_error("invalid command line");
		}
	}
	if (argc - optind != 2)
		tr_usage_error("expected a role (hold or wait) and a FILE");
	role = argv[optind];
	file = argv[optind + 1];
	if (!ready)
		tr_usage_error("--ready is required");
	if (strcmp(role, "hold") && strcmp(role, "wait"))
		tr_usage_error("unknown role '%s'", role);
	if (!strcmp(role, "hold") && mib)
		tr_usage_error("--mib is for the waiter");

	fd = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		tr_die(TR_EXIT_SETUP, "open %s", file);
	return !strcmp(role, "hold") ? hold(fd, ready) : wait_for_lock(fd, mib, ready);
}
