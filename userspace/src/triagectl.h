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

/* exit codes: triagectl(8), EXIT STATUS */
#define TC_EXIT_OK		0	/* success */
#define TC_EXIT_ERROR		1	/* policy errors, failed expectations, other errors */
#define TC_EXIT_USAGE		2	/* command line or scenario syntax */
#define TC_EXIT_UNAVAILABLE	3	/* no triage: securityfs or the LSM missing */
#define TC_EXIT_PERM		4	/* no permission (CAP_MAC_ADMIN) */
#define TC_EXIT_REFUSED		5	/* the kernel refused a write */
#define TC_EXIT_NOPOLICY	6	/* status: triage enabled, no policy loaded */
#define TC_EXIT_NOCHAIN		7	/* status: triage not in vm.oom_policy */

/* "schema_version" of every JSON object triagectl prints (triagectl(8), JSON) */
#define TC_JSON_SCHEMA		1

/*
 * The audit record type of triage's OOM decisions (AUDIT_TRIAGE_DECISION
 * of the kernel series' include/uapi/linux/audit.h), for "ausearch -m N"
 * in messages; tests/unit checks it against the kernel patch.
 */
#define TC_AUDIT_DECISION	1427
#define TC_STR_(x)		#x
#define TC_STR(x)		TC_STR_(x)

/* the version of the triage sources (debian/changelog); -DTC_VERSION= overrides */
#ifndef TC_VERSION
#define TC_VERSION	"0.1.0"
#endif

#define TC_DEFAULT_ROOT	"/sys/kernel/security/triage"
#define TC_SELINUX_POLICY "/sys/fs/selinux/policy"

struct tc_ctx {
	FILE *out;		/* data */
	FILE *err;		/* diagnostics */
	const char *root;	/* securityfs triage directory */
	const char *secfs;	/* securityfs (lsm); NULL: the parent of root */
	const char *proc;	/* /proc (also /proc/sys/vm/oom_policy) */
	const char *cmd;	/* the command running ("check"), for JSON */
	const char *sys;	/* /sys (AppArmor's module parameters) */
	/*
	 * /boot: status lists the installed triage kernels (config-R with
	 * CONFIG_SECURITY_TRIAGE=y); NULL: none looked for
	 */
	const char *boot;
	/*
	 * dpkg-query (/usr/bin/dpkg-query): status names the newest Debian
	 * kernel package installed, as dpkg-query -W lists them; NULL: none
	 * asked (tests give a fake)
	 */
	const char *dpkg_query;
	bool json;
	int verbosity;		/* -q: -1, default 0, -v: 1 */
	/* every open() of an interface file; tests replace it to fake EPERM */
	int (*open_file)(const char *path, int flags);
	/* the one write() of a policy; tests replace it to fake refusals */
	ssize_t (*write_policy)(int fd, const void *buf, size_t len);
	/*
	 * log --follow: the longest wait for the kernel's signal of a new
	 * decision, and (tests) the number of rounds, 0 = forever
	 */
	unsigned int follow_ms;
	unsigned int follow_polls;
};

/* main entry: returns the exit code */
int tc_main(struct tc_ctx *ctx, int argc, char **argv);

/* ------------------------------------------------------------ util.c */
char *tc_read_fd(int fd, size_t max, size_t *len);
char *tc_read_file(const char *path, size_t max, size_t *len);
char *tc_read_at(const struct tc_ctx *ctx, const char *name, size_t *len);
/* a policy or scenario file; "-" is standard input */
char *tc_read_input(const char *path, size_t max, size_t *len);
const char *tc_input_name(const char *path);

/*
 * An error: "triagectl: MSG" on stderr and, with --json, the object
 * {"schema_version":1,"command":CMD,"error":{"exit":CODE,"kind":KIND,
 * "message":MSG}} on stdout.  Returns code.
 */
int tc_fail(struct tc_ctx *ctx, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * A usage error: one line on stderr, "triagectl[ CMD]: REASON; see
 * triagectl[ CMD] --help", and the JSON error with REASON.  Returns
 * TC_EXIT_USAGE.
 */
int tc_usage_error(struct tc_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *tc_exit_kind(int code);
/*
 * Every JSON object starts {"schema_version":1,"command":CMD and ends
 * with ,"error":null} (exit status 0) or ,"error":{"exit":CODE,"kind":
 * KIND,"message":MSG}} and a newline.  tc_json_end() returns @code.
 */
void tc_json_begin(struct tc_ctx *ctx);
int tc_json_end(struct tc_ctx *ctx, int code, const char *msg);
/* the JSON value of a string that may be missing: a string or null */
void tc_json_str_or_null(FILE *f, const char *s);
/*
 * Reading or writing interface file @name failed with @e: say why
 * (securityfs not mounted, triage not in the kernel, no permission) and
 * return the exit code.
 */
int tc_sfs_fail(struct tc_ctx *ctx, const char *name, int e, bool writing);
/* the securityfs directory that holds "lsm" */
char *tc_secfs(const struct tc_ctx *ctx);
/* the active LSMs, "capability,selinux,triage" (NULL if unknown) */
char *tc_lsm_list(const struct tc_ctx *ctx);
/* the major LSM (selinux, smack, apparmor) in @lsms, or NULL */
const char *tc_major_lsm(const char *lsms);

/*
 * Interface files escape comm and label: each byte <= 0x20, >= 0x7f and
 * the backslash as a backslash and three octal digits.  tc_unescape()
 * decodes in place (a "\000" stays as it is); tc_esc() gives the text
 * safe for a terminal: controls, bytes >= 0x7f and the backslash escaped
 * the same way, the blank kept.  The returned buffer is one of a few
 * static ones: valid until a few more calls.  tc_unescape() is in
 * escape.c (it allocates nothing; triage-pressured links it alone).
 */
void tc_unescape(char *s);
const char *tc_esc(const char *s);
char *tc_esc_dup(const char *s);
/* the same, keeping the backslash: for policy text (suggested rules) */
const char *tc_esc_ctl(const char *s);
/* the nearest of @words to @w (NULL-terminated), if near enough */
const char *tc_nearest(const char *w, const char *const *words);
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

/*
 * A protect rule's budget as the canonical form writes it, in its largest
 * whole unit ("4G", "1536M"); a size in bytes for people ("17.6 GiB").
 */
void tc_budget_text(unsigned int mib, char *buf, size_t n);
void tc_size_text(unsigned long long bytes, char *buf, size_t n);

/* canonical text of one rule of a policy (malloc'ed, no newline) */
char *tc_rule_text(const struct triage_policy *p, unsigned int i);
/* the same for pressure statement @i (0-based, in policy order) */
char *tc_pressure_text(const struct triage_policy *p, unsigned int i);
/*
 * Is a task of cgroup v2 path @cgroup ("/batch.slice/job.scope") in the
 * scope of @ps: the whole system, or @ps's cgroup and what is below it?
 * A NULL @cgroup (unknown) is only in the whole system.
 */
bool tc_pressure_covers(const struct triage_pressure *ps, const char *cgroup);
/*
 * All canonical lines of a policy: the three settings, then its pressure
 * statements (nr_pressure lines), then its rules; caller frees.
 */
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
	/*
	 * The policy without the statements that had syntax errors (so that
	 * names are still checked), NULL when nothing parses.
	 */
	struct triage_policy *policy;
	bool syntax_error;
	struct tc_diag *diags;
	size_t ndiags;
	unsigned int errors, warnings;
};

struct tc_check_opts {
	const struct tc_sepol *sepol;	/* names checked against it, or NULL */
	const char *major_lsm;		/* "apparmor", "smack", ... or NULL */
	bool names_are_warnings;	/* load --boot: unknown names are inert */
	/*
	 * The running system's /proc, when the check is against it: pressure
	 * statements are then checked against its PSI; NULL: not checked.
	 */
	const char *proc;
};

void tc_check_text(const char *text, size_t len,
		   const struct tc_check_opts *o, struct tc_check *res);
void tc_check_print(FILE *f, const char *file, const struct tc_check *res,
		    bool quiet);
/* the check's JSON keys, "file":...,"diagnostics":[...], a comma first */
void tc_check_json(FILE *f, const char *file, const char *selinux,
		   const struct tc_check *res, bool comma);
/* a diagnostic at LINE:COLUMN (0:0: none), as check prints them */
void tc_diag(struct tc_check *res, unsigned int line, unsigned int column,
	     enum tc_severity sev, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* a diagnostic without a position (notes about the check itself) */
void tc_check_add(struct tc_check *res, enum tc_severity sev,
		  const char *msg);
void tc_check_free(struct tc_check *res);
/* does the kernel of /proc @proc have PSI (@proc/pressure/memory)? */
bool tc_have_psi(const char *proc);
/* the warning when it has not and a policy has pressure statements */
#define TC_NO_PSI "the kernel has no PSI: pressure statements will never fire"

bool tc_rule_covers(const struct triage_rule *a, const struct triage_rule *b);

/*
 * A label that many unrelated processes share (AppArmor's "unconfined",
 * SELinux's init_t, unconfined_service_t, unconfined_t): a rule naming it
 * decides for all of them at once, and no rule can single out one of
 * them.  tc_shared_label() finds the entry of a task's label, or NULL.
 */
struct tc_shared {
	const char *lsm;	/* "apparmor" or "selinux" */
	const char *name;	/* the profile or the type */
	const char *who;	/* which processes have it */
	const char *advice;	/* how to give one service a label of its own */
	const char *samples[4];	/* labels that have it, for matching rules */
};
const struct tc_shared *tc_shared_label(const char *label);

/* ------------------------------------------------------------ cmds.c */
/* the value of "key value" in @stats, or NULL */
const char *tc_stat(const char *stats, const char *key, char *buf, size_t n);
/* the active policy; NULL and *err = 0 when none is loaded */
struct triage_policy *tc_active_policy(struct tc_ctx *ctx, int *err);
/* a number as a JSON number, "-" as null, anything else as a string */
void tc_json_value(FILE *f, const char *s);
/* vm.oom_policy, or NULL with errno */
char *tc_oom_chain(const struct tc_ctx *ctx);
bool tc_chain_has_triage(const char *chain);
/*
 * Does the next OOM do what the ranking says?  1 enforced, 0 not (why in
 * @why: permissive mode, triage not in vm.oom_policy, no chain), -1 mode
 * unknown.  @proc: the system's /proc.  The JSON keys ("enforced",
 * "not_enforced_reason", a comma first) and the text line before the
 * output (none when enforced).
 */
int tc_enforcement(const struct tc_ctx *ctx, const char *proc, char *why,
		   size_t n);
void tc_enforcement_json(FILE *f, int enforced, const char *why);
void tc_enforcement_line(FILE *f, int enforced, const char *why);
/* seconds since the epoch as 2025-12-03T08:00:00Z */
void tc_time_text(long long sec, char *buf, size_t n);

/* ------------------------------------------------------------ commands */
int tc_cmd_check(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_load(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_status(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_mode(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_rank(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_explain(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_log(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_test(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_diff(struct tc_ctx *ctx, int argc, char **argv);
int tc_cmd_conform(struct tc_ctx *ctx, int argc, char **argv);

/* option parsing shared by the commands (options.c in triagectl.c) */
struct tc_opt {
	const char *name;	/* "--force" */
	bool has_arg;
	const char **value;	/* has_arg: where the value goes */
	bool *flag;		/* !has_arg */
};
/*
 * Returns the positional count (stored in pos), or -1 after a usage error
 * (already reported with tc_usage_error()).
 */
int tc_parse_opts(struct tc_ctx *ctx, const char *cmd, int argc, char **argv,
		  const struct tc_opt *opts, char **pos, int maxpos,
		  bool *help);
/* the help of @cmd (NULL: of triagectl) on stdout; returns 0 */
int tc_help(struct tc_ctx *ctx, const char *cmd);
/* "triagectl --root DIR": DIR is not the kernel's default directory */
bool tc_root_given(const struct tc_ctx *ctx);

#endif /* TRIAGECTL_H */
