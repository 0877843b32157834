// SPDX-License-Identifier: GPL-2.0
/*
 * tr-waitfile - wait until files exist (all of them, or with --any one).
 */
#define _GNU_SOURCE
#include "common.h"

#include <getopt.h>
#include <stdio.h>
#include <unistd.h>

#define DEFAULT_TIMEOUT_MS 60000UL
#define POLL_MS 10

static void usage(void)
{
	printf("Usage: tr-waitfile FILE... [--any] [--timeout-ms MS]\n"
	       "Wait until every FILE exists.\n"
	       "\n"
	       "  --any            until one FILE exists\n"
	       "  --timeout-ms MS  give up after MS ms (default %lu; 0: never)\n"
	       "  --help           this text\n"
	       "Exit: 0 when all (one) exist; 1 on timeout (the missing files\n"
	       "are named); 2 on bad usage.\n", DEFAULT_TIMEOUT_MS);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "timeout-ms", required_argument, NULL, 't' },
		{ "any", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long timeout = DEFAULT_TIMEOUT_MS;
	unsigned long long start;
	int c, i, missing, any = 0;

	tr_prog = "tr-waitfile";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			timeout = tr_parse_num("--timeout-ms", optarg, 0,
					       86400000UL);
			break;
		case 'a':
			any = 1;
			break;
		case 'h':
			usage();
			return 0;
		default:
			tr_usage_error("invalid command line");
		}
	}
	if (optind >= argc)
		tr_usage_error("no FILE given");

	start = tr_now_ms();
	for (;;) {
		missing = 0;
		for (i = optind; i < argc; i++)
			missing += access(argv[i], F_OK) != 0;
		if (!missing || (any && missing < argc - optind))
			return 0;
		if (timeout && tr_now_ms() - start >= timeout)
			break;
		tr_sleep_ms(POLL_MS);
	}
	for (i = optind; i < argc; i++) {
		if (access(argv[i], F_OK))
			tr_msg("timed out after %lu ms waiting for %s",
			       timeout, argv[i]);
	}
	return 1;
}
