// SPDX-License-Identifier: GPL-2.0
/*
 * tr-audit - set the audit subsystem's failure mode and backlog limit, as
 * auditctl -f and -b would, for scenarios that run without auditd.
 */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void usage(void)
{
	printf("Usage: tr-audit [--failure 0|1|2] [--backlog N]\n"
	       "Set audit's failure mode (2: panic when records are lost) and\n"
	       "its backlog limit, then print the status the kernel reports.\n"
	       "Exit: 0 when the kernel took the settings, 1 otherwise.\n");
}

/* One AUDIT_SET or AUDIT_GET request; the kernel's answer in @st */
static int audit_request(int fd, int type, const struct audit_status *in,
			 struct audit_status *st)
{
	struct {
		struct nlmsghdr nh;
		struct audit_status s;
	} req;
	char buf[8192];
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	ssize_t r;

	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.s));
	req.nh.nlmsg_type = type;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.nh.nlmsg_seq = type;
	if (in)
		req.s = *in;
	if (sendto(fd, &req, req.nh.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	for (;;) {
		struct nlmsghdr *nh = (struct nlmsghdr *)buf;

		r = recv(fd, buf, sizeof(buf), 0);
		if (r < 0)
			return -errno;
		for (; NLMSG_OK(nh, (size_t)r); nh = NLMSG_NEXT(nh, r)) {
			if (nh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(nh);

				if (e->error || type == AUDIT_SET)
					return e->error;
			} else if (nh->nlmsg_type == AUDIT_GET && st) {
				memcpy(st, NLMSG_DATA(nh), sizeof(*st));
				return 0;
			}
		}
	}
}

int main(int argc, char **argv)
{
	struct audit_status set = { 0 }, st = { 0 };
	int fd, i, rc;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--failure") && i + 1 < argc) {
			set.mask |= AUDIT_STATUS_FAILURE;
			set.failure = strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--backlog") && i + 1 < argc) {
			set.mask |= AUDIT_STATUS_BACKLOG_LIMIT;
			set.backlog_limit = strtoul(argv[++i], NULL, 10);
		} else {
			usage();
			return strcmp(argv[i], "--help") ? 2 : 0;
		}
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (fd < 0) {
		perror("tr-audit: socket");
		return 1;
	}
	if (set.mask) {
		rc = audit_request(fd, AUDIT_SET, &set, NULL);
		if (rc) {
			fprintf(stderr, "tr-audit: AUDIT_SET: %s\n", strerror(-rc));
			return 1;
		}
	}
	rc = audit_request(fd, AUDIT_GET, NULL, &st);
	if (rc) {
		fprintf(stderr, "tr-audit: AUDIT_GET: %s\n", strerror(-rc));
		return 1;
	}
	printf("enabled %u failure %u backlog_limit %u lost %u\n", st.enabled,
	       st.failure, st.backlog_limit, st.lost);
	close(fd);
	return (set.mask & AUDIT_STATUS_FAILURE) && st.failure != set.failure;
}
