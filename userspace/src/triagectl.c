// SPDX-License-Identifier: GPL-2.0
/* triagectl: command dispatch, options and usage texts. */
#define _GNU_SOURCE

#include <string.h>

#include "conform.h"
#include "triagectl.h"

struct tc_command {
	const char *name;
	int (*run)(struct tc_ctx *ctx, int argc, char **argv);
	const char *usage;
	const char *help;
};

static int tc_cmd_help(struct tc_ctx *ctx, int argc, char **argv);
static int tc_cmd_version(struct tc_ctx *ctx, int argc, char **argv);

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
	  "The OOM candidates as the kernel ranks them now: rank 1 dies first.\n"
	  "A task a protect rule decides that is beyond the rule's budget is\n"
	  "ordinary, and marked so.\n" },
	{ "explain", tc_cmd_explain, "explain PID [--json] [--proc DIR]",
	  "Why PID would or would not die: its label, the rule that decides it,\n"
	  "its verdict, rank and points, and what would change that; under a\n"
	  "protect rule with a budget, its size as the OOM killer counts it and\n"
	  "whether it is within the budget.\n" },
	{ "log", tc_cmd_log, "log [--follow] [--json]",
	  "The kernel's recent OOM decisions; --follow waits for new ones and\n"
	  "says how many were lost when more came than the kernel keeps.\n" },
	{ "test", tc_cmd_test, "test SCENARIO|- [--json]",
	  "Check the expectations in SCENARIO against the kernel's current\n"
	  "ranking of live processes, without an OOM.  TAP output.\n" },
	{ "conform", tc_cmd_conform,
	  "conform SPEC|- [--cgroup-parent DIR] [--junit FILE] [--evidence DIR]",
	  "Live conformance: for each expectation of SPEC (docs/conform.md),\n"
	  "start probes in the named labels in a fresh memory cgroup, make an\n"
	  "OOM there and judge the kernel's evidence.  TAP output; --junit FILE\n"
	  "writes JUnit XML, --evidence DIR keeps the spec, the policy, the\n"
	  "kernel and each run's decisions and kill lines.  Exit status (as\n"
	  "sechecker): 0 all passed, 1 some failed, 2 bad spec, 3 could not run.\n" },
	{ "help", tc_cmd_help, "help [COMMAND]",
	  "The list of commands, or the help of one (as triagectl COMMAND --help).\n" },
	{ "version", tc_cmd_version, "version [--json]",
	  "The version of triagectl (as triagectl --version).\n" },
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
	"5 the kernel refused, 6 (status) no policy loaded, 7 (status) triage\n"
	"not in vm.oom_policy.\n";

static const struct tc_command *tc_find(const char *name)
{
	size_t i;

	for (i = 0; i < TC_NCOMMANDS; i++)
		if (!strcmp(name, tc_commands[i].name))
			return &tc_commands[i];
	return NULL;
}

int tc_help(struct tc_ctx *ctx, const char *cmd)
{
	const struct tc_command *c = cmd ? tc_find(cmd) : NULL;
	FILE *f = ctx->out;
	size_t i;

	if (c) {
		fprintf(f, "usage: triagectl %s\n\n%s\n%s", c->usage, c->help,
			tc_common_help);
		return TC_EXIT_OK;
	}
	fputs("usage: triagectl [--root DIR] [--json] [-q|-v] COMMAND [ARGS]\n"
	      "       triagectl --version | --help [COMMAND]\n\ncommands:\n", f);
	for (i = 0; i < TC_NCOMMANDS; i++)
		fprintf(f, "  triagectl %s\n", tc_commands[i].usage);
	fprintf(f, "\nSee triagectl COMMAND --help and triagectl(8).\n\n%s",
		tc_common_help);
	return TC_EXIT_OK;
}

bool tc_root_given(const struct tc_ctx *ctx)
{
	size_t n = strlen(ctx->root), d = strlen(TC_DEFAULT_ROOT);

	while (n > 1 && ctx->root[n - 1] == '/')
		n--;
	return n != d || strncmp(ctx->root, TC_DEFAULT_ROOT, d);
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

	(void)cmd;
	*help = false;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *val = NULL, *eq;
		const struct tc_opt *o;
		size_t nlen;

		if (dashdash || a[0] != '-' || !a[1]) {
			if (npos >= maxpos) {
				tc_usage_error(ctx, "unexpected argument '%s'",
					       tc_esc(a));
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
			tc_usage_error(ctx, "unknown option '%s'", tc_esc(a));
			return -1;
		}
		if (o->has_arg) {
			val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
			if (!val || !*val)
				goto missing;
			*o->value = val;
		} else {
			if (eq) {
				tc_usage_error(ctx, "option '%s' takes no value",
					       o->name);
				return -1;
			}
			*o->flag = true;
		}
		continue;
missing:
		tc_usage_error(ctx, "option '%.*s' needs a value", (int)nlen, a);
		return -1;
	}
	return npos;
}

/* An unknown command: say so, with the nearest one. */
static int tc_unknown_command(struct tc_ctx *ctx, const char *cmd)
{
	const char *names[TC_NCOMMANDS + 1], *near;
	size_t i;

	for (i = 0; i < TC_NCOMMANDS; i++)
		names[i] = tc_commands[i].name;
	names[i] = NULL;
	near = tc_nearest(cmd, names);
	if (near)
		return tc_usage_error(ctx, "unknown command '%s' (did you mean '%s'?)",
				      tc_esc(cmd), near);
	return tc_usage_error(ctx, "unknown command '%s'", tc_esc(cmd));
}

static int tc_cmd_help(struct tc_ctx *ctx, int argc, char **argv)
{
	char *pos[1];
	bool help;
	int n;

	n = tc_parse_opts(ctx, "help", argc, argv, NULL, pos, 1, &help);
	if (n < 0)
		return TC_EXIT_USAGE;
	if (help)
		return tc_help(ctx, "help");
	if (n && !tc_find(pos[0]))
		return tc_unknown_command(ctx, pos[0]);
	return tc_help(ctx, n ? pos[0] : NULL);
}

static int tc_cmd_version(struct tc_ctx *ctx, int argc, char **argv)
{
	char *pos[1];
	bool help;
	int n;

	n = tc_parse_opts(ctx, "version", argc, argv, NULL, pos, 0, &help);
	if (n < 0)
		return TC_EXIT_USAGE;
	if (help)
		return tc_help(ctx, "version");
	if (!ctx->json) {
		fprintf(ctx->out, "triagectl %s\n", TC_VERSION);
		return TC_EXIT_OK;
	}
	tc_json_begin(ctx);
	fputs(",\"version\":", ctx->out);
	tc_json_str(ctx->out, TC_VERSION);
	return tc_json_end(ctx, TC_EXIT_OK, NULL);
}

int tc_main(struct tc_ctx *ctx, int argc, char **argv)
{
	const struct tc_command *c;
	int a = 1, i;

	/*
	 * --json anywhere before "--": an error found before the parser
	 * reaches it (a bad option first) is JSON too.
	 */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--json"))
			ctx->json = true;
	}
	ctx->cmd = NULL;
	/* the probe processes of conform: triagectl re-executed */
	if (argc > 1 && !strcmp(argv[1], TC_CF_PROBE_ARG))
		return tc_cf_probe_main(argc, argv);
	/* options before the command */
	while (a < argc && argv[a][0] == '-') {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help") ||
		    !strcmp(argv[a], "--version")) {
			/* the same as the command help or version */
			c = tc_find(argv[a][2] == 'v' ? "version" : "help");
			ctx->cmd = c->name;
			return c->run(ctx, argc - a - 1, argv + a + 1);
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

			if (!val || !*val)
				return tc_usage_error(ctx, "option '--root' needs a value");
			ctx->root = val;
			ctx->secfs = NULL;
			a++;
		} else {
			return tc_usage_error(ctx, "unknown option '%s'",
					      tc_esc(argv[a]));
		}
	}
	if (a >= argc)
		return tc_usage_error(ctx, "no command given");
	c = tc_find(argv[a]);
	if (!c)
		return tc_unknown_command(ctx, argv[a]);
	ctx->cmd = c->name;
	return c->run(ctx, argc - a - 1, argv + a + 1);
}
