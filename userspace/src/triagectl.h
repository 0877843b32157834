/* SPDX-License-Identifier: GPL-2.0 */
/*
 * triagectl: check, load and inspect triage OOM policies.
 *
 * The policy parser and matcher are the kernel's own
 * (security/triage/policy.c, match.c); nothing here parses the policy
 * language.  Everything writes through struct tc_ctx so that the unit
 * tests can run whole commands against a fake securityfs directory and
 * capture their output.
 */
#ifndef TRIAGECTL_H
#define TRIAGECTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "policy.h"

#define TC_EXIT_OK	0
#define TC_EXIT_ERROR	1
#define TC_EXIT_USAGE	2

#define TC_DEFAULT_ROOT	"/sys/kernel/security/triage"
#define TC_SELINUX_POLICY "/sys/fs/selinux/policy"

struct tc_ctx {
	FILE *out;		/* data */
	FILE *err;		/* diagnostics */
	const char *root;	/* securityfs triage directory */
	const char *proc;	/* /proc */
	bool json;
	/* the one write() of a policy; tests replace it to fake refusals */
	ssize_t (*write_policy)(int fd, const void *buf, size_t len);
	/* log --follow: poll interval and (tests) number of polls, 0 = forever */
	unsigned int follow_ms;
	unsigned int follow_polls;
};

/* main entry: returns the exit code */
int tc_main(struct tc_ctx *ctx, int argc, char **argv);

/* ------------------------------------------------------------ util.c */
char *tc_read_file(const char *path, size_t max, size_t *len);
char *tc_read_at(const struct tc_ctx *ctx, const char *name, size_t *len);
char *tc_path(const char *dir, const char *name);
void tc_json_str(FILE *f, const char *s);
unsigned int tc_edit_distance(const char *a, const char *b);
char *tc_strdup(const char *s);
void *tc_xmalloc(size_t n);
void tc_chomp(char *s);

/* a tab-separated table with a "# a\tb\tc" header, as in securityfs */
struct tc_table {
	char *buf;
	unsigned int ncols;
	char **head;
	size_t nrows;
	char ***rows;		/* rows[i][col], always ncols entries */
};
int tc_table_parse(char *text, struct tc_table *t);	/* takes text */
int tc_table_col(const struct tc_table *t, const char *name);
const char *tc_table_get(const struct tc_table *t, size_t row,
			 const char *name);
void tc_table_free(struct tc_table *t);
void tc_table_print(FILE *f, const char *const *head, unsigned int ncols,
		    const char *const *const *rows, size_t nrows);

/* canonical text of one rule of a policy (malloc'ed, no newline) */
char *tc_rule_text(const struct triage_policy *p, unsigned int i);
/* all canonical lines of a policy; settings first; caller frees */
char **tc_canonical_lines(const struct triage_policy *p, size_t *n);
void tc_free_lines(char **lines, size_t n);

/* ------------------------------------------------------------ selpol.c */
struct tc_sepol;

enum tc_name_kind {
	TC_NAME_OK,
	TC_NAME_UNKNOWN,
	TC_NAME_ATTRIBUTE,	/* a type attribute: never a process's type */
	TC_NAME_ALIAS,		/* an alias: labels show the primary name */
};

struct tc_sepol *tc_sepol_open(const char *path, char *why, size_t n);
void tc_sepol_close(struct tc_sepol *s);
bool tc_sepol_mls(const struct tc_sepol *s);
enum tc_name_kind tc_sepol_lookup(const struct tc_sepol *s,
				  enum triage_field f, const char *name,
				  const char **primary);
const char *tc_sepol_suggest(const struct tc_sepol *s, enum triage_field f,
			     const char *name);
bool tc_sepol_range_valid(const struct tc_sepol *s, const char *range);
/* NULL arguments mean "any"; true when some context could have them */
bool tc_sepol_compatible(const struct tc_sepol *s, const char *user,
			 const char *role, const char *type);

/* ------------------------------------------------------------ check.c */
enum tc_severity { TC_NOTE, TC_WARNING, TC_ERROR };

struct tc_diag {
	unsigned int line, column;
	enum tc_severity severity;
	char msg[400];
};

struct tc_check {
	struct triage_policy *policy;	/* NULL on a syntax error */
	bool syntax_error;
	struct tc_diag *diags;
	size_t ndiags;
	unsigned int errors, warnings;
};

void tc_check_text(const char *text, size_t len, const struct tc_sepol *s,
		   struct tc_check *res);
void tc_check_print(FILE *f, const char *file, const struct tc_check *res);
void tc_check_json(FILE *f, const char *file, const char *selinux,
		   const struct tc_check *res);
void tc_check_free(struct tc_check *res);
bool tc_rule_covers(const struct triage_rule *a, const struct triage_rule *b);

/* ------------------------------------------------------------ commands */
int tc_cmd_check(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_load(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_status(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_mode(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_rank(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_explain(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_log(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_test(struct tc_ctx *ctx, int argc, char **argv);

/* option parsing shared by the commands (options.c in triagectl.c) */
struct tc_opt {
	const char *name;	/* "--force" */
	bool has_arg;
	const char **value;	/* has_arg: where the value goes */
	bool *flag;		/* !has_arg */
};
/* returns positional count (stored in pos), or -1 after a usage error */
int tc_parse_opts(struct tc_ctx *ctx, const char *cmd, int argc, char **argv,
		  const struct tc_opt *opts, char **pos, int maxpos,
		  bool *help);
int tc_usage(struct tc_ctx *ctx, const char *cmd, bool error);

#endif /* TRIAGECTL_H */
