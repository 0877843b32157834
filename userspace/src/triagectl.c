// SPDX-License-Identifier: GPL-2.0
/* triagectl: command dispatch, options and usage texts. */
#define _GNU_SOURCE

#include <string.h>

#include "triagectl.h"

struct tc_command {
	const char *name;
	int (*run)(struct tc_ctx *ctx, int argc, char **argv);
	const char *usage;
	const char *help;
};

static const struct tc_command tc_commands[] = {
	{ "check", tc_cmd_check,
	  "check FILE|- [--selinux-policy BINARY | --no-selinux] [--json]",
	  "Parse FILE (- reads standard input) with the kernel's parser and\n"
	  "report every error, check its SELinux users, roles, types and ranges\n"
	  "against the loaded SELinux policy (or BINARY), and warn about rules\n"
	  "that can never decide anything and policies that are dangerous.\n"
	  "Diagnostics: FILE:LINE:COLUMN: error|warning: REASON.\n" },
	{ "load", tc_cmd_load,
	  "load FILE|- [--dry-run] [--boot | --force] [--selinux-policy BINARY | --no-selinux] [--json]",
	  "Check FILE, then replace the kernel's policy with it in one write.\n"
	  "Prints the rules added and removed and the new policy hash.\n"
	  "--dry-run checks and shows what would change, and loads nothing.\n"
	  "--boot (the boot unit): SELinux names unknown to the loaded SELinux\n"
	  "policy are warnings and their rules stay inert; only what the kernel\n"
	  "would refuse stops the load.  --force loads despite any error about\n"
	  "SELinux names (never despite syntax errors).\n" },
	{ "diff", tc_cmd_diff,
	  "diff FILE|- [--selinux-policy BINARY | --no-selinux] [--json]",
	  "What loading FILE would change: settings, rules added and removed,\n"
	  "and the running candidates whose verdict would change.\n" },
	{ "status", tc_cmd_status, "status [--json]",
	  "Everything that decides an OOM: the vm.oom_policy chain, the LSM\n"
	  "stack, the mode, the policy's hash and age, the last refused load,\n"
	  "the counters and the hits of every rule.\n" },
	{ "mode", tc_cmd_mode, "mode [enforce|permissive] [--json]",
	  "Show the mode, or set it (overrides the policy's mode setting).\n" },
	{ "rank", tc_cmd_rank, "rank [--json]",
	  "The OOM candidates as the kernel ranks them now: rank 1 dies first.\n" },
	{ "explain", tc_cmd_explain, "explain PID [--json] [--proc DIR]",
	  "Why PID would or would not die: its label, the rule that decides it,\n"
	  "its verdict, rank and points, and what would change that.\n" },
	{ "log", tc_cmd_log, "log [--follow] [--json]",
	  "The kernel's recent OOM decisions; --follow waits for new ones and\n"
	  "says how many were lost when more came than the kernel keeps.\n" },
	{ "test", tc_cmd_test, "test SCENARIO|- [--json]",
	  "Check the expectations in SCENARIO against the kernel's current\n"
	  "ranking of live processes, without an OOM.  TAP output.\n" },
};

#define TC_NCOMMANDS (sizeof(tc_commands) / sizeof(tc_commands[0]))

static const char tc_common_help[] =
	"Options of every command:\n"
	"  --root DIR     the triage securityfs directory (default " TC_DEFAULT_ROOT ")\n"
	"  --json         machine-readable output (errors too, on stdout)\n"
	"  -q, --quiet    errors only: no warnings, notes or success lines\n"
	"  -v, --verbose  say which files and SELinux policy are used\n"
	"  -h, --help     this help\n"
	"Exit status: 0 success, 1 errors (policy errors, failed expectations),\n"
	"2 usage or scenario syntax, 3 triage not available, 4 no permission,\n"
	"5 the kernel refused, 6 (status) no policy loaded.\n";

static void tc_overview(FILE *f)
{
	size_t i;

	fputs("usage: triagectl [--root DIR] [--json] [-q|-v] COMMAND [ARGS]\n"
	      "       triagectl --version | version\n"
	      "       triagectl --help | help [COMMAND]\n\ncommands:\n", f);
	for (i = 0; i < TC_NCOMMANDS; i++)
		fprintf(f, "  triagectl %s\n", tc_commands[i].usage);
	fputs("\nSee triagectl COMMAND --help and triagectl(8).\n", f);
}

int tc_usage(struct tc_ctx *ctx, const char *cmd, bool error)
{
	FILE *f = error ? ctx->err : ctx->out;
	size_t i;

	if (error && ctx->json) {
		fprintf(ctx->out, "{\"error\":{\"exit\":%d,\"kind\":\"usage\",\"message\":",
			TC_EXIT_USAGE);
		tc_json_str(ctx->out, "usage error: see triagectl --help");
		fputs("}}\n", ctx->out);
	}

	for (i = 0; cmd && i < TC_NCOMMANDS; i++) {
		if (strcmp(cmd, tc_commands[i].name))
			continue;
		fprintf(f, "usage: triagectl %s\n", tc_commands[i].usage);
		if (!error)
			fprintf(f, "\n%s\n%s", tc_commands[i].help,
				tc_common_help);
		return error ? TC_EXIT_USAGE : TC_EXIT_OK;
	}
	tc_overview(f);
	if (!error)
		fprintf(f, "\n%s", tc_common_help);
	return error ? TC_EXIT_USAGE : TC_EXIT_OK;
}

/*
 * Options may come anywhere after the command; "--" ends them.  --root,
 * --json, -q, -v and --help are understood by every command.
 */
int tc_parse_opts(struct tc_ctx *ctx, const char *cmd, int argc, char **argv,
		  const struct tc_opt *opts, char **pos, int maxpos,
		  bool *help)
{
	bool dashdash = false;
	int i, npos = 0;

	*help = false;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *val = NULL, *eq;
		const struct tc_opt *o;
		size_t nlen;

		if (dashdash || a[0] != '-' || !a[1]) {
			if (npos >= maxpos) {
				fprintf(ctx->err, "triagectl %s: unexpected argument '%s'\n",
					cmd, tc_esc(a));
				return -1;
			}
			pos[npos++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			dashdash = true;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			*help = true;
			continue;
		}
		if (!strcmp(a, "--json")) {
			ctx->json = true;
			continue;
		}
		if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			ctx->verbosity = -1;
			continue;
		}
		if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			ctx->verbosity = 1;
			continue;
		}
		eq = strchr(a, '=');
		nlen = eq ? (size_t)(eq - a) : strlen(a);
		if (!strncmp(a, "--root", nlen) && nlen == 6) {
			val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!val || !*val)
				goto missing;
			ctx->root = val;
			ctx->secfs = NULL;	/* its parent */
			continue;
		}
		for (o = opts; o && o->name; o++)
			if (strlen(o->name) == nlen && !strncmp(a, o->name, nlen))
				break;
		if (!o || !o->name) {
			fprintf(ctx->err, "triagectl %s: unknown option '%s'\n",
				cmd, tc_esc(a));
			return -1;
		}
		if (o->has_arg) {
			val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!val || !*val)
				goto missing;
			*o->value = val;
		} else {
			if (eq) {
				fprintf(ctx->err, "triagectl %s: option '%s' takes no value\n",
					cmd, o->name);
				return -1;
			}
			*o->flag = true;
		}
		continue;
missing:
		fprintf(ctx->err, "triagectl %s: option '%.*s' needs a value\n",
			cmd, (int)nlen, a);
		return -1;
	}
	return npos;
}

int tc_main(struct tc_ctx *ctx, int argc, char **argv)
{
	const char *cmd;
	size_t i;
	int a = 1;

	/* global options before the command */
	while (a < argc && argv[a][0] == '-') {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help"))
			return tc_usage(ctx, NULL, false);
		if (!strcmp(argv[a], "--version")) {
			fprintf(ctx->out, "triagectl %s\n", TC_VERSION);
			return TC_EXIT_OK;
		}
		if (!strcmp(argv[a], "-q") || !strcmp(argv[a], "--quiet")) {
			ctx->verbosity = -1;
			a++;
		} else if (!strcmp(argv[a], "-v") || !strcmp(argv[a], "--verbose")) {
			ctx->verbosity = 1;
			a++;
		} else if (!strcmp(argv[a], "--json")) {
			ctx->json = true;
			a++;
		} else if (!strcmp(argv[a], "--root") ||
			   !strncmp(argv[a], "--root=", 7)) {
			const char *val = argv[a][6] ? argv[a] + 7 :
					  a + 1 < argc ? argv[++a] : NULL;

			if (!val || !*val) {
				fprintf(ctx->err, "triagectl: option '--root' needs a value\n");
				return tc_usage(ctx, NULL, true);
			}
			ctx->root = val;
			ctx->secfs = NULL;
			a++;
		} else {
			fprintf(ctx->err, "triagectl: unknown option '%s'\n",
				tc_esc(argv[a]));
			return tc_usage(ctx, NULL, true);
		}
	}
	if (a >= argc)
		return tc_usage(ctx, NULL, true);
	cmd = argv[a];
	if (!strcmp(cmd, "version") || !strcmp(cmd, "help")) {
		const char *topic = a + 1 < argc ? argv[a + 1] : NULL;

		if (a + 2 < argc || (topic && cmd[0] == 'v')) {
			fprintf(ctx->err, "triagectl %s: unexpected argument '%s'\n",
				cmd, tc_esc(argv[argc - 1]));
			return tc_usage(ctx, NULL, true);
		}
		if (cmd[0] == 'v') {
			fprintf(ctx->out, "triagectl %s\n", TC_VERSION);
			return TC_EXIT_OK;
		}
		if (!topic)
			return tc_usage(ctx, NULL, false);
		cmd = topic;	/* help COMMAND: an unknown one is an error */
		for (i = 0; i < TC_NCOMMANDS; i++)
			if (!strcmp(cmd, tc_commands[i].name))
				return tc_usage(ctx, cmd, false);
	} else {
		for (i = 0; i < TC_NCOMMANDS; i++)
			if (!strcmp(cmd, tc_commands[i].name))
				return tc_commands[i].run(ctx, argc - a - 1,
							  argv + a + 1);
	}
	{
		const char *names[TC_NCOMMANDS + 1], *near;

		for (i = 0; i < TC_NCOMMANDS; i++)
			names[i] = tc_commands[i].name;
		names[i] = NULL;
		near = tc_nearest(cmd, names);
		if (near)
			fprintf(ctx->err, "triagectl: unknown command '%s' (did you mean '%s'?)\n",
				tc_esc(cmd), near);
		else
			fprintf(ctx->err, "triagectl: unknown command '%s'\n",
				tc_esc(cmd));
	}
	return tc_usage(ctx, NULL, true);
}
