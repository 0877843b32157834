// SPDX-License-Identifier: GPL-2.0
/*
 * tr-hog - make N MiB of anonymous memory resident, then hold it.
 *
 * Prints nothing except errors: it may be OOM-killed at any moment.
 */
#define _GNU_SOURCE
#include "common.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_MIB (1UL << 30)

static void usage(void)
{
	printf("Usage: tr-hog --mib N [--ready FILE] [--hold | --exit]\n"
	       "              [--step-mib K --step-ms MS] [--forever]\n"
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
	       "  --forever      after N MiB keep allocating (K MiB, default 1,\n"
	       "                 every MS ms) until killed; mmap failures are\n"
	       "                 retried instead of fatal\n"
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tr_hog h = { 0 };
	int have_mib = 0, hold = 0, c;

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
	if (h.forever && h.exit_when_ready)
		tr_usage_error("--forever and --exit exclude each other");
	if (h.mib == 0 && !h.forever)
		tr_usage_error("--mib must be at least 1 without --forever");
	return tr_hog_run(&h);
}
