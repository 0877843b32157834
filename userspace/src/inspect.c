// SPDX-License-Identifier: GPL-2.0
/*
 * triagectl: the commands that read what the kernel would do and did:
 * rank, explain, log.  Tables are parsed by their header names, so new
 * or reordered columns do not break them; names and labels arrive
 * escaped (\ooo) and are shown escaped again by tc_table_print().
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "triagectl.h"

/* Read and parse an interface table; prints the error, returns its code. */
static int tc_read_table(struct tc_ctx *ctx, const char *name,
			 struct tc_table *t)
{
	char *text = tc_read_at(ctx, name, NULL);

	memset(t, 0, sizeof(*t));
	if (!text)
		return tc_sfs_fail(ctx, name, errno, false);
	if (tc_table_parse(text, t)) {
		tc_table_free(t);
		return tc_fail(ctx, TC_EXIT_ERROR, "%s/%s: no '#' header line",
			       tc_esc(ctx->root), name);
	}
	return TC_EXIT_OK;
}

static char *tc_why(const struct triage_policy *pol, const char *rule)
{
	char *end;
	unsigned long r;

	if (!strcmp(rule, "-"))
		return tc_strdup("no rule matches");
	if (!strcmp(rule, "miss"))
		return tc_strdup("verdict not resolved in time (label miss)");
	r = strtoul(rule, &end, 10);
	if (*end || !pol || r < 1 || r > pol->nr_rules)
		return tc_strdup("");
	return tc_rule_text(pol, r - 1);
}

/* "1764748800.123456789" or "1764748800": a JSON number, else a string */
static void tc_json_time(FILE *f, const char *s)
{
	size_t d = strspn(s, "0123456789");

	if (d && (!s[d] || (s[d] == '.' && s[d + 1] &&
			    !s[d + 1 + strspn(s + d + 1, "0123456789")])))
		fputs(s, f);
	else
		tc_json_str(f, s);
}

static void tc_json_cell(FILE *f, const char *h, const char *v)
{
	tc_json_str(f, h);
	fputc(':', f);
	if (!v)
		fputs("null", f);
	else if (!strcmp(h, "label") || !strcmp(h, "comm") ||
		 !strcmp(h, "tier") || !strcmp(h, "verdict") ||
		 !strcmp(h, "mode") || !strcmp(h, "scope") ||
		 !strcmp(h, "outcome"))
		tc_json_str(f, v);
	else if (!strcmp(h, "time"))
		tc_json_time(f, v);
	else
		tc_json_value(f, v);
}

/*
 * One row as a JSON object: the keys of @keys always (null when the
 * kernel's table has no such column: an older kernel), then any other
 * column the kernel has.
 */
static void tc_json_row(FILE *f, const struct tc_table *t, size_t r,
			const char *const *keys, const char *extra_key,
			const char *extra, const char *tail)
{
	unsigned int c, k, n = 0;

	fputc('{', f);
	for (k = 0; keys[k]; k++) {
		int col = tc_table_col(t, keys[k]);

		fputs(n++ ? "," : "", f);
		tc_json_cell(f, keys[k], col < 0 ? NULL : t->rows[r][col]);
	}
	for (c = 0; c < t->ncols; c++) {
		for (k = 0; keys[k]; k++)
			if (!strcmp(keys[k], t->head[c]))
				break;
		if (keys[k])
			continue;
		fputs(n++ ? "," : "", f);
		tc_json_cell(f, t->head[c], t->rows[r][c]);
	}
	if (extra_key) {
		fputs(n ? "," : "", f);
		tc_json_str(f, extra_key);
		fputc(':', f);
		tc_json_str(f, extra);
	}
	if (tail)
		fputs(tail, f);
	fputc('}', f);
}

/* the columns of ranking and decisions (docs/securityfs.md) */
static const char *const tc_rank_keys[] = {
	"rank", "pid", "tier", "srank", "points", "verdict", "rule", "label",
	"comm", NULL,
};
static const char *const tc_decision_keys[] = {
	"seq", "time", "mode", "scope", "pid", "points", "verdict", "rule",
	"outcome", "label", "comm", NULL,
};

/* ------------------------------------------------------------ rank */

/*
 * Row @r is a task a protect rule decides that the kernel ranks as an
 * ordinary task: it is beyond its rule's budget (protect outranks every
 * other verdict, so nothing else takes a protection away).  Before tiers
 * the ranking gave protected tasks rank "-".
 */
static bool tc_beyond_budget(const struct tc_table *t, size_t r)
{
	if (strcmp(tc_table_get(t, r, "verdict"), "protect"))
		return false;
	if (tc_table_col(t, "tier") >= 0)
		return strcmp(tc_table_get(t, r, "tier"), "protected") != 0;
	return strcmp(tc_table_get(t, r, "rank"), "-") != 0;
}

/* The budget of the rule numbered @rule ("1") of @pol, in MiB; 0: none */
static unsigned int tc_rule_budget(const struct triage_policy *pol,
				   const char *rule)
{
	char *end;
	unsigned long n = strtoul(rule, &end, 10);

	if (!pol || *end || end == rule || n < 1 || n > pol->nr_rules)
		return 0;
	return pol->rules[n - 1].budget_mib;
}

/* WHY of a row beyond its budget: the rule, and a note that says so */
static char *tc_why_beyond(const struct triage_policy *pol, const char *rule,
			   char *why)
{
	unsigned int mib = tc_rule_budget(pol, rule);
	size_t n = strlen(why) + 64;
	char *s = tc_xmalloc(n), b[32];

	if (mib) {
		tc_budget_text(mib, b, sizeof(b));
		snprintf(s, n, "%s%s(beyond budget %s: ordinary)", why,
			 *why ? " " : "", b);
	} else {
		snprintf(s, n, "%s%s(beyond its budget: ordinary)", why,
			 *why ? " " : "");
	}
	free(why);
	return s;
}

int tc_cmd_rank(struct tc_ctx *ctx, int argc, char **argv)
{
	/* shown when the kernel has them, in this order */
	static const char *const cols[] = {
		"rank", "pid", "tier", "srank", "points", "verdict", "rule",
		"comm", "label",
	};
	static const char *const heads[] = {
		"RANK", "PID", "TIER", "SRANK", "POINTS", "VERDICT", "RULE",
		"COMM", "LABEL",
	};
	const char *head[10], *use[10];
	char nwhy[600];
	struct triage_policy *pol;
	const char ***rows;
	struct tc_table t;
	char *pos[1], **why;
	unsigned int c, nc = 0;
	bool help;
	size_t r;
	int n, e, rc, enforced;

	n = tc_parse_opts(ctx, "rank", argc, argv, NULL, pos, 0, &help);
	if (n < 0)
		return TC_EXIT_USAGE;
	if (help)
		return tc_help(ctx, "rank");
	rc = tc_read_table(ctx, "ranking", &t);
	if (rc)
		return rc;
	pol = tc_active_policy(ctx, &e);
	enforced = tc_enforcement(ctx, ctx->proc, nwhy, sizeof(nwhy));
	why = tc_xmalloc((t.nrows + 1) * sizeof(*why));
	for (r = 0; r < t.nrows; r++)
		why[r] = tc_why(pol, tc_table_get(&t, r, "rule"));
	if (ctx->json) {
		tc_json_begin(ctx);
		fputs(",\"candidates\":[", ctx->out);
		for (r = 0; r < t.nrows; r++) {
			fputs(r ? ",\n" : "", ctx->out);
			tc_json_row(ctx->out, &t, r, tc_rank_keys, "why", why[r],
				    tc_beyond_budget(&t, r) ?
				    ",\"beyond_budget\":true" :
				    ",\"beyond_budget\":false");
		}
		fputc(']', ctx->out);
		tc_enforcement_json(ctx->out, enforced, nwhy);
		tc_json_end(ctx, TC_EXIT_OK, NULL);
	} else {
		tc_enforcement_line(ctx->out, enforced, nwhy);
		for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
			if (tc_table_col(&t, cols[c]) >= 0) {
				use[nc] = cols[c];
				head[nc++] = heads[c];
			}
		head[nc] = "WHY";
		rows = tc_xmalloc((t.nrows + 1) * sizeof(*rows));
		for (r = 0; r < t.nrows; r++) {
			if (tc_beyond_budget(&t, r))
				why[r] = tc_why_beyond(pol,
						       tc_table_get(&t, r, "rule"),
						       why[r]);
			rows[r] = tc_xmalloc((nc + 1) * sizeof(char *));
			for (c = 0; c < nc; c++)
				rows[r][c] = tc_table_get(&t, r, use[c]);
			rows[r][nc] = why[r];
		}
		tc_table_print(ctx->out, head, nc + 1,
			       (const char *const *const *)rows, t.nrows);
		for (r = 0; r < t.nrows; r++)
			free(rows[r]);
		free(rows);
		if (!t.nrows)
			fputs("(no candidates)\n", ctx->out);
	}
	for (r = 0; r < t.nrows; r++)
		free(why[r]);
	free(why);
	triage_policy_free(pol);
	tc_table_free(&t);
	return TC_EXIT_OK;
}

/* ------------------------------------------------------------ explain */

/* /proc/PID/F whole (up to @max bytes), or NULL with errno */
static char *tc_proc_file(struct tc_ctx *ctx, const char *pid, const char *f,
			  size_t max)
{
	char *dir = tc_path(ctx->proc, pid), *path = tc_path(dir, f);
	char *text = NULL;
	int fd, e;

	fd = ctx->open_file ? ctx->open_file(path, O_RDONLY | O_CLOEXEC) :
			      open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		text = tc_read_fd(fd, max, NULL);
	e = errno;

	free(dir);
	free(path);
	errno = e;
	return text;
}

/* the first line of /proc/PID/F */
static char *tc_proc_read(struct tc_ctx *ctx, const char *pid, const char *f)
{
	char *text = tc_proc_file(ctx, pid, f, 4096);

	if (text) {
		/* attr/current may end in NUL and/or newline */
		text[strcspn(text, "\n")] = '\0';
	}
	return text;
}

/*
 * A task's size as the OOM killer counts it (oom_badness() before
 * oom_score_adj, what a protect rule's budget is compared with):
 * resident pages, swap entries and page tables.  /proc/PID/status has
 * all three (VmRSS, VmSwap, VmPTE, in kB, from the same counters); when
 * it cannot be read, statm's resident pages are a lower bound.
 */
enum tc_size_source { TC_SIZE_NONE, TC_SIZE_STATUS, TC_SIZE_STATM };

struct tc_task_size {
	enum tc_size_source src;
	unsigned long long bytes;	/* statm: resident only */
	bool no_mm;			/* status without VmRSS: counted 0 */
	unsigned long long rss_kb, swap_kb, pte_kb;	/* status */
	unsigned long long pages;	/* statm */
	long page_size;
	int status_errno, statm_errno;
};

/* "VmRSS:\t  1234 kB" in @text: its kB, or false */
static bool tc_status_kb(const char *text, const char *key,
			 unsigned long long *kb)
{
	size_t kl = strlen(key);
	const char *p;

	for (p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, key, kl) && p[kl] == ':') {
			*kb = strtoull(p + kl + 1, NULL, 10);
			return true;
		}
	}
	return false;
}

static void tc_task_size(struct tc_ctx *ctx, const char *pid,
			 struct tc_task_size *sz)
{
	char *text = tc_proc_file(ctx, pid, "status", 1 << 16);

	memset(sz, 0, sizeof(*sz));
	if (text) {
		sz->src = TC_SIZE_STATUS;
		if (!tc_status_kb(text, "VmRSS", &sz->rss_kb)) {
			/* no mm: the kernel counts nothing for it */
			sz->no_mm = true;
		} else {
			tc_status_kb(text, "VmSwap", &sz->swap_kb);
			tc_status_kb(text, "VmPTE", &sz->pte_kb);
		}
		sz->bytes = (sz->rss_kb + sz->swap_kb + sz->pte_kb) * 1024;
		free(text);
		return;
	}
	sz->status_errno = errno;
	text = tc_proc_read(ctx, pid, "statm");
	if (!text) {
		sz->statm_errno = errno;
		return;
	}
	/* size resident shared text lib data dt, in pages */
	if (sscanf(text, "%*u %llu", &sz->pages) == 1) {
		sz->src = TC_SIZE_STATM;
		sz->page_size = sysconf(_SC_PAGESIZE);
		sz->bytes = sz->pages * (unsigned long long)sz->page_size;
	} else {
		sz->statm_errno = EINVAL;
	}
	free(text);
}

/*
 * AppArmor shows a task's mode in attr/current ("firefox (complain)");
 * the label the kernel gives triage has it only when AppArmor's
 * display_secid_mode is on.  Strip it the same way.
 */
static void tc_strip_apparmor_mode(struct tc_ctx *ctx, char *label)
{
	static const char *const modes[] = {
		" (enforce)", " (complain)", " (kill)", " (unconfined)",
		" (user)", " (prompt)", NULL,
	};
	char *path = tc_path(ctx->sys, "module/apparmor/parameters/display_secid_mode");
	char *on = tc_read_file(path, 16, NULL);
	size_t l = strlen(label), i;

	free(path);
	if (on && (on[0] == 'Y' || on[0] == 'y' || on[0] == '1')) {
		free(on);
		return;
	}
	free(on);
	for (i = 0; modes[i]; i++) {
		size_t ml = strlen(modes[i]);

		if (l > ml && !strcmp(label + l - ml, modes[i])) {
			label[l - ml] = '\0';
			return;
		}
	}
}

/* The label as the kernel's triage sees it, from /proc; NULL: none. */
static char *tc_task_label(struct tc_ctx *ctx, const char *pid,
			   const char *major, int *err)
{
	char *label = NULL;

	*err = 0;
	/* with LSMs stacked, attr/current is the first one's */
	if (major && (!strcmp(major, "apparmor") || !strcmp(major, "smack"))) {
		char f[32];

		snprintf(f, sizeof(f), "attr/%s/current", major);
		label = tc_proc_read(ctx, pid, f);
	}
	if (!label)
		label = tc_proc_read(ctx, pid, "attr/current");
	if (!label) {
		*err = errno;
		return NULL;
	}
	if (major && !strcmp(major, "apparmor"))
		tc_strip_apparmor_mode(ctx, label);
	return label;
}

/*
 * The task's cgroup v2 path ("/user.slice/..."), from /proc/PID/cgroup's
 * "0::" line; NULL when unknown.
 */
static char *tc_task_cgroup(struct tc_ctx *ctx, const char *pid)
{
	char *dir = tc_path(ctx->proc, pid), *path = tc_path(dir, "cgroup");
	char *text = NULL, *line, *cg = NULL;
	int fd;

	fd = ctx->open_file ? ctx->open_file(path, O_RDONLY | O_CLOEXEC) :
			      open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		text = tc_read_fd(fd, 1 << 16, NULL);
	free(dir);
	free(path);
	for (line = text; line && *line; line = strchr(line, '\n') ?
					     strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, "0::/", 4))
			continue;
		cg = tc_strdup(line + 3);
		cg[strcspn(cg, "\n")] = '\0';
		break;
	}
	free(text);
	return cg;
}

/* The matcher that names this label best, for a suggested rule. */
static char *tc_suggest_matcher(const char *label)
{
	const char *a = strchr(label, ':'), *b = a ? strchr(a + 1, ':') : NULL;
	size_t n = 4 * strlen(label) + 16;
	char *s = tc_xmalloc(n);
	char *o;
	const char *p;

	if (b) {
		const char *t = b + 1, *e = strchr(t, ':');

		snprintf(s, n, "type=%.*s", (int)(e ? e - t : (long)strlen(t)), t);
		return s;
	}
	/* quote, escaping \ " and glob characters */
	o = s;
	o += sprintf(o, "label=\"");
	for (p = label; *p; p++) {
		if (*p == '*' || *p == '?')
			*o++ = '\\', *o++ = '\\';
		else if (*p == '"' || *p == '\\')
			*o++ = '\\', *o++ = '\\', *o++ = '\\';
		*o++ = *p;
	}
	*o++ = '"';
	*o = '\0';
	return s;
}

/*
 * explain's budget and size lines: the standing (@within: 1 within, 0
 * beyond, -1 unknown; @from_kernel: told by the kernel's ranking, not by
 * the size), the size and where it was read, and a note when the
 * kernel's ranking (@kprot: 1 protected, 0 ordinary, -1 not listed)
 * disagrees with the size.
 */
static void tc_explain_budget(struct tc_ctx *ctx, FILE *f, const char *pid,
			      const char *budget, const struct tc_task_size *sz,
			      int within, bool from_kernel, int kprot)
{
	char *dir = tc_path(ctx->proc, pid);
	char *status = tc_path(dir, "status"), *statm = tc_path(dir, "statm");
	char size[48];

	if (within > 0)
		fprintf(f, "budget   %s: within it%s, so protected\n", budget,
			from_kernel ? " (the kernel's ranking)" : "");
	else if (!within)
		fprintf(f, "budget   %s: beyond it%s, so ordinary: ranked by its size like any other task\n",
			budget, from_kernel ? " (the kernel's ranking)" : "");
	else
		fprintf(f, "budget   %s: within it or beyond: unknown (its size cannot be read in full and the kernel's ranking does not list it)\n",
			budget);
	tc_size_text(sz->bytes, size, sizeof(size));
	if (sz->src == TC_SIZE_STATUS && sz->no_mm)
		fprintf(f, "size     0: no VmRSS in %s (no memory of its own: a kernel thread, or a task on its way out)\n",
			tc_esc(status));
	else if (sz->src == TC_SIZE_STATUS)
		fprintf(f, "size     %s, as the OOM killer counts it: VmRSS %llu kB + VmSwap %llu kB + VmPTE %llu kB (%s)\n",
			size, sz->rss_kb, sz->swap_kb, sz->pte_kb,
			tc_esc(status));
	else if (sz->src == TC_SIZE_STATM)
		fprintf(f, "size     at least %s: %llu resident pages of %ld bytes (%s), without swap and page tables: %s: %s\n",
			size, sz->pages, sz->page_size, tc_esc(statm),
			tc_esc(status), strerror(sz->status_errno));
	else
		fprintf(f, "size     unknown: %s: %s; %s: %s\n", tc_esc(status),
			strerror(sz->status_errno), tc_esc(statm),
			strerror(sz->statm_errno));
	if (!from_kernel && within >= 0 && kprot >= 0 && kprot != within)
		fprintf(f, "note     the kernel's ranking lists it as %s: its size crossed the budget between the two reads\n",
			kprot ? "protected (within its budget)" :
			"ordinary (beyond its budget)");
	free(status);
	free(statm);
	free(dir);
}

int tc_cmd_explain(struct tc_ctx *ctx, int argc, char **argv)
{
	struct triage_policy *pol;
	char *pos[1], *label, *comm, *adj, *rtext = NULL, *end, *sugg, *lsms, *dir;
	char *cgroup = NULL;
	bool protected, *early = NULL;
	unsigned int i, nearly;
	const char *verdict = "none", *krank = NULL, *kpoints = NULL;
	const char *kverdict = NULL, *krule = NULL, *ktier = NULL;
	const char *major;
	struct tc_table t = { 0 };
	const struct tc_shared *shared;
	char change[1200], who[600], want[16], *ranking, nwhy[600];
	bool help, have_rank = false;
	int n, e, le, idx = -1, rc, enforced;
	const char *sysproc = ctx->proc;
	struct stat st;
	size_t r;
	const char *procdir = NULL;
	/* a protect rule's budget: the task's size and standing */
	unsigned int budget_mib = 0;
	unsigned long long budget_bytes = 0;
	struct tc_task_size sz = { 0 };
	int within = -1, kprot = -1;
	bool within_kernel = false;
	char btext[32];
	const struct tc_opt opts[] = {
		{ "--proc", true, &procdir, NULL },
		{ NULL, false, NULL, NULL },
	};
	long pid;

	n = tc_parse_opts(ctx, "explain", argc, argv, opts, pos, 1, &help);
	if (n < 0)
		return TC_EXIT_USAGE;
	if (help)
		return tc_help(ctx, "explain");
	if (n != 1)
		return tc_usage_error(ctx, "no PID given");
	if (procdir)
		ctx->proc = procdir;
	errno = 0;
	pid = strtol(pos[0], &end, 10);
	if (*end || end == pos[0] || pid <= 0 || errno || pid > 0x7fffffff) {
		return tc_usage_error(ctx, "'%s' is not a process ID (a positive number)",
				      tc_esc(pos[0]));
	}
	snprintf(want, sizeof(want), "%ld", pid);
	dir = tc_path(ctx->proc, want);
	if (stat(dir, &st)) {
		e = errno;
		free(dir);
		if (e == ENOENT)
			return tc_fail(ctx, TC_EXIT_ERROR, "no such process: %ld",
				       pid);
		return tc_fail(ctx, TC_EXIT_ERROR, "cannot look up process %ld: %s",
			       pid, strerror(e));
	}
	free(dir);

	/* the policy first: without triage nothing else means anything */
	pol = tc_active_policy(ctx, &e);
	if (!pol && e && e != EINVAL)
		return tc_sfs_fail(ctx, "policy", e, false);
	/* vm.oom_policy is the system's, whatever --proc names */
	enforced = tc_enforcement(ctx, sysproc, nwhy, sizeof(nwhy));
	lsms = tc_lsm_list(ctx);
	major = tc_major_lsm(lsms);
	label = tc_task_label(ctx, want, major, &le);
	comm = tc_proc_read(ctx, want, "comm");
	adj = tc_proc_read(ctx, want, "oom_score_adj");
	cgroup = tc_task_cgroup(ctx, want);
	if (!label && le == ENOENT && stat(ctx->proc, &st) == 0) {
		/* gone between the checks */
		rc = tc_fail(ctx, TC_EXIT_ERROR, "no such process: %ld", pid);
		goto out;
	}

	/* the kernel's own view, when this task is a candidate */
	ranking = tc_read_at(ctx, "ranking", NULL);
	e = errno;
	if (ranking && !tc_table_parse(ranking, &t)) {
		have_rank = true;
		for (r = 0; r < t.nrows; r++)
			if (!strcmp(tc_table_get(&t, r, "pid"), want))
				break;
		if (r < t.nrows) {
			krank = tc_table_get(&t, r, "rank");
			kpoints = tc_table_get(&t, r, "points");
			kverdict = tc_table_get(&t, r, "verdict");
			krule = tc_table_get(&t, r, "rule");
			if (tc_table_col(&t, "tier") >= 0)
				ktier = tc_table_get(&t, r, "tier");
			/* the label the kernel matched is the one that counts */
			if (tc_table_col(&t, "label") >= 0) {
				free(label);
				label = tc_strdup(tc_table_get(&t, r, "label"));
			}
		}
	} else if (!ranking && ctx->verbosity >= 0) {
		fprintf(ctx->err, "triagectl: note: the kernel's ranking is not shown: %s\n",
			e == EPERM ? "reading the ranking needs CAP_MAC_ADMIN (run as root)" :
			strerror(e));
	}
	if (!label && (le == EACCES || le == EPERM)) {
		/*
		 * The task has a label that we may not read (on SELinux: no
		 * process getattr on its domain): any verdict would be a guess.
		 */
		rc = tc_fail(ctx, TC_EXIT_ERROR,
			     "cannot read the label of process %ld (%s/%ld/attr/current): %s",
			     pid, ctx->proc, pid, strerror(le));
		goto out;
	}
	if (!label) {
		if (ctx->verbosity >= 0)
			fprintf(ctx->err, "triagectl: note: no label for %ld (%s): no major LSM labels it; only label=* rules match it\n",
				pid, strerror(le));
		label = tc_strdup("");
	}

	if (pol)
		idx = triage_policy_match(pol, label);
	if (idx >= 0) {
		rtext = tc_rule_text(pol, idx);
		verdict = triage_verdict_name(pol->rules[idx].verdict);
	}
	sugg = tc_suggest_matcher(label);
	/* the pressure statements whose early action may take it */
	protected = idx >= 0 && pol->rules[idx].verdict == TRIAGE_VERDICT_PROTECT;
	/*
	 * A protect verdict in the kernel's ranking: protected (1), or
	 * ordinary beyond its budget (0).  Before tiers, rank "-".
	 */
	if (krank && kverdict && !strcmp(kverdict, "protect"))
		kprot = ktier ? !strcmp(ktier, "protected") : !strcmp(krank, "-");
	if (protected)
		budget_mib = pol->rules[idx].budget_mib;
	if (budget_mib) {
		budget_bytes = (unsigned long long)budget_mib << 20;
		tc_budget_text(budget_mib, btext, sizeof(btext));
		tc_task_size(ctx, want, &sz);
		/* as the kernel: beyond is more than the budget */
		if (sz.src == TC_SIZE_STATUS)
			within = sz.bytes <= budget_bytes;
		else if (sz.src == TC_SIZE_STATM && sz.bytes > budget_bytes)
			within = 0;
		if (within < 0 && kprot >= 0) {
			within = kprot;
			within_kernel = true;
		}
	}
	if (pol) {
		/* early action takes sacrificed tasks only */
		bool sacrificed = idx >= 0 &&
			pol->rules[idx].verdict == TRIAGE_VERDICT_SACRIFICE;

		early = tc_xmalloc(pol->nr_pressure + 1);
		for (i = 0; i < pol->nr_pressure; i++)
			early[i] = sacrificed &&
				   tc_pressure_covers(&pol->pressure[i], cgroup);
	}
	/*
	 * A label many processes share (or none at all): no rule can single
	 * this one out, so none is suggested; how to label the service.
	 */
	shared = tc_shared_label(label);
	if (shared) {
		if (*label)
			snprintf(who, sizeof(who), "its label %s cannot tell it apart: %s",
				 label, shared->who);
		else
			snprintf(who, sizeof(who), "it has no label, which cannot tell it apart: %s",
				 shared->who);
	}
	if (shared && (!pol || idx < 0))
		snprintf(change, sizeof(change),
			 "%s, so the kernel's usual badness decides; %s; a rule for that label decides for all of them, so none is suggested: %s",
			 pol ? "no rule matches" : "no policy is loaded", who,
			 shared->advice);
	else if (shared)
		snprintf(change, sizeof(change),
			 "rule %d %s, and with it every process of its label: %s; a rule cannot single it out: %s",
			 idx + 1,
			 pol->rules[idx].verdict == TRIAGE_VERDICT_PROTECT ? "protects it" :
			 pol->rules[idx].verdict == TRIAGE_VERDICT_SACRIFICE ? "sacrifices it" :
			 "adjusts its badness", shared->who, shared->advice);
	else if (!pol)
		snprintf(change, sizeof(change),
			 "no policy is loaded, so the kernel's usual badness decides; load one with `protect %s` to protect it, or `sacrifice %s` to make it die first",
			 sugg, sugg);
	else if (idx < 0)
		snprintf(change, sizeof(change),
			 "no rule matches, so the kernel's usual badness decides; add `protect %s` to protect it, or `sacrifice %s` to make it die first",
			 sugg, sugg);
	else if (budget_mib && !within)
		snprintf(change, sizeof(change),
			 "rule %d protects it only while it holds at most %s, and it holds more: it is ordinary, ranked by its size; to protect it at this size, raise the budget, or remove it to protect it at any size",
			 idx + 1, btext);
	else if (budget_mib)
		snprintf(change, sizeof(change),
			 "rule %d protects it while it holds at most %s; to make it killable, remove that rule or put a rule such as `adjust +0 %s` before it; to make it ordinary at a smaller size, lower the budget",
			 idx + 1, btext, sugg);
	else if (pol->rules[idx].verdict == TRIAGE_VERDICT_PROTECT)
		snprintf(change, sizeof(change),
			 "rule %d protects it; to make it killable, remove that rule or put a rule such as `adjust +0 %s` before it",
			 idx + 1, sugg);
	else if (pol->rules[idx].verdict == TRIAGE_VERDICT_SACRIFICE)
		snprintf(change, sizeof(change),
			 "rule %d sacrifices it; to protect it, put `protect %s` before that rule",
			 idx + 1, sugg);
	else
		snprintf(change, sizeof(change),
			 "rule %d adjusts its badness by %+d; change the value, or put `protect %s` or `sacrifice %s` before that rule",
			 idx + 1, pol->rules[idx].adjust, sugg, sugg);

	if (ctx->json) {
		FILE *f = ctx->out;

		tc_json_begin(ctx);
		fprintf(f, ",\"pid\":%ld,\"comm\":", pid);
		tc_json_str_or_null(f, comm);
		fputs(",\"label\":", f);
		tc_json_str(f, label);
		fprintf(f, ",\"policy_loaded\":%s", pol ? "true" : "false");
		if (idx >= 0) {
			fprintf(f, ",\"rule\":%d,\"rule_text\":", idx + 1);
			tc_json_str(f, rtext);
		} else {
			fputs(",\"rule\":null,\"rule_text\":null", f);
		}
		fputs(",\"verdict\":", f);
		tc_json_str(f, verdict);
		fputs(",\"candidate\":", f);
		fputs(krank ? "true" : have_rank ? "false" : "null", f);
		fputs(",\"rank\":", f);
		tc_json_value(f, krank ? krank : "-");
		fputs(",\"tier\":", f);
		tc_json_str_or_null(f, ktier);
		fputs(",\"points\":", f);
		tc_json_value(f, kpoints ? kpoints : "-");
		fputs(",\"kernel_verdict\":", f);
		tc_json_str_or_null(f, kverdict);
		fputs(",\"kernel_rule\":", f);
		tc_json_value(f, krule ? krule : "-");
		if (budget_mib)
			fprintf(f, ",\"budget_bytes\":%llu", budget_bytes);
		else
			fputs(",\"budget_bytes\":null", f);
		if (budget_mib && sz.src != TC_SIZE_NONE)
			fprintf(f, ",\"size_bytes\":%llu", sz.bytes);
		else
			fputs(",\"size_bytes\":null", f);
		fprintf(f, ",\"within_budget\":%s,\"size_source\":%s",
			!budget_mib || within < 0 ? "null" :
			within ? "true" : "false",
			!budget_mib ? "null" :
			sz.src == TC_SIZE_STATUS ? "\"status\"" :
			sz.src == TC_SIZE_STATM ? "\"statm\"" : "null");
		fputs(",\"change\":", f);
		tc_json_str(f, change);
		fprintf(f, ",\"shared_label\":%s", shared ? "true" : "false");
		tc_enforcement_json(f, enforced, nwhy);
		fputs(",\"cgroup\":", f);
		tc_json_str_or_null(f, cgroup);
		/* the statements whose early action may take it */
		fputs(pol ? ",\"pressure\":[" : ",\"pressure\":null", f);
		for (i = 0, nearly = 0; pol && i < pol->nr_pressure; i++) {
			char *pt;

			if (!early[i])
				continue;
			pt = tc_pressure_text(pol, i);
			fputs(nearly++ ? "," : "", f);
			tc_json_str(f, pt);
			free(pt);
		}
		if (pol)
			fputc(']', f);
		tc_json_end(ctx, TC_EXIT_OK, NULL);
	} else {
		FILE *f = ctx->out;

		tc_enforcement_line(f, enforced, nwhy);
		fprintf(f, "pid      %ld (%s)\n", pid, comm ? tc_esc(comm) : "?");
		fprintf(f, "label    %s\n", *label ? tc_esc(label) : "(none)");
		if (!pol)
			fprintf(f, "rule     no policy loaded\n");
		else if (idx >= 0)
			fprintf(f, "rule     %d: %s\n", idx + 1, rtext);
		else
			fprintf(f, "rule     none matches\n");
		fprintf(f, "verdict  %s\n", verdict);
		if (budget_mib)
			tc_explain_budget(ctx, f, want, btext, &sz, within,
					  within_kernel, kprot);
		if (krank && (!strcmp(krank, "-") ||
			      (ktier && !strcmp(ktier, "protected"))))
			fprintf(f, "ranking  protected: never chosen (listed last, %zu candidates)\n",
				t.nrows);
		else if (krank)
			fprintf(f, "ranking  %s of %zu%s%s%s, %s points\n", krank,
				t.nrows, !strcmp(krank, "1") ? " (dies first)" : "",
				ktier ? ", tier " : "", ktier ? ktier : "",
				kpoints);
		else if (have_rank && adj && !strcmp(adj, "-1000"))
			fprintf(f, "ranking  not a candidate: oom_score_adj -1000 (the OOM killer skips it unless a rule sacrifices it)\n");
		else if (have_rank)
			fprintf(f, "ranking  not a candidate (kernel thread, exiting, or not in the ranking)\n");
		else
			fprintf(f, "ranking  unknown (the kernel's ranking could not be read)\n");
		snprintf(want, sizeof(want), "%d", idx + 1);
		if (krank && strcmp(krule, idx < 0 ? "-" : want))
			fprintf(f, "note     the kernel's ranking says rule %s, verdict %s (the label or policy changed since?)\n",
				tc_esc(krule), tc_esc(kverdict));
		fprintf(f, "change   %s\n", tc_esc_ctl(change));
		for (i = 0, nearly = 0; pol && i < pol->nr_pressure; i++) {
			char *pt;

			if (!early[i])
				continue;
			pt = tc_pressure_text(pol, i);
			fprintf(f, "%s statement %u (%s) may take it early\n",
				nearly++ ? "        " : "pressure", i + 1,
				tc_esc(pt));
			free(pt);
		}
		if (pol && pol->nr_pressure && protected && budget_mib &&
		    !within)
			fputs("pressure ordinary beyond its budget, and early action takes sacrificed tasks only: it never takes it\n",
			      f);
		else if (pol && pol->nr_pressure && protected)
			fputs("pressure protected: early action never takes it\n",
			      f);
		else if (pol && pol->nr_pressure && !nearly &&
			 (idx < 0 ||
			  pol->rules[idx].verdict != TRIAGE_VERDICT_SACRIFICE))
			fputs("pressure not sacrificed: early action takes sacrificed tasks only, it never takes it\n",
			      f);
		else if (pol && pol->nr_pressure && !nearly)
			fprintf(f, "pressure no pressure statement covers its cgroup (%s): early action never takes it\n",
				cgroup ? tc_esc(cgroup) : "unknown");
	}
	free(sugg);
	rc = TC_EXIT_OK;
out:
	free(early);
	free(cgroup);
	free(rtext);
	tc_table_free(&t);
	triage_policy_free(pol);
	free(label);
	free(comm);
	free(adj);
	free(lsms);
	return rc;
}

/* ------------------------------------------------------------ log */

struct tc_follow {
	unsigned long long last;	/* highest seq shown (0: none yet) */
	unsigned long long lost;	/* total reported lost */
	bool known;			/* after the first read: seq 1 is the first since boot */
	bool header;			/* the table's header was printed */
};

/*
 * The decisions not shown yet; the header comes with the first ones
 * (with --follow perhaps only after some empty reads).
 */
static void tc_log_rows(struct tc_ctx *ctx, const struct tc_table *t,
			struct tc_follow *fw)
{
	static const char *const cols[] = {
		"seq", "time", "mode", "scope", "pid", "comm", "points",
		"verdict", "rule", "outcome", "label",
	};
	static const char *const head[] = {
		"SEQ", "TIME", "MODE", "SCOPE", "PID", "COMM", "POINTS",
		"VERDICT", "RULE", "OUTCOME", "LABEL",
	};
	const char ***rows = tc_xmalloc((t->nrows + 1) * sizeof(*rows));
	char (*when)[40] = tc_xmalloc((t->nrows + 1) * sizeof(*when));
	unsigned long long after = fw->last;
	size_t r, n = 0;
	unsigned int c;

	for (r = 0; r < t->nrows; r++) {
		unsigned long long seq = strtoull(tc_table_get(t, r, "seq"),
						  NULL, 10);

		if (fw->known && seq <= after)
			continue;
		/* a gap: decisions overwritten in the kernel's ring unread */
		if (fw->known && seq > fw->last + 1) {
			unsigned long long lost = seq - fw->last - 1;

			fw->lost += lost;
			fprintf(ctx->err, "triagectl: %llu decision%s lost (seq %llu..%llu): more came between two reads than the kernel keeps; the audit log has them (ausearch -m " TC_STR(TC_AUDIT_DECISION) ")\n",
				lost, lost == 1 ? "" : "s", fw->last + 1, seq - 1);
			if (ctx->json) {
				tc_json_begin(ctx);
				fprintf(ctx->out, ",\"lost\":{\"count\":%llu,\"first_seq\":%llu,\"last_seq\":%llu}",
					lost, fw->last + 1, seq - 1);
				tc_json_end(ctx, TC_EXIT_OK, NULL);
			}
		}
		if (seq > fw->last)
			fw->last = seq;
		if (ctx->json) {
			tc_json_begin(ctx);
			fputs(",\"decision\":", ctx->out);
			tc_json_row(ctx->out, t, r, tc_decision_keys, NULL, NULL, NULL);
			tc_json_end(ctx, TC_EXIT_OK, NULL);
			continue;
		}
		tc_time_text(strtoll(tc_table_get(t, r, "time"), NULL, 10),
			     when[n], sizeof(when[n]));
		rows[n] = tc_xmalloc(11 * sizeof(char *));
		for (c = 0; c < 11; c++)
			rows[n][c] = c == 1 ? when[n] : tc_table_get(t, r, cols[c]);
		n++;
	}
	if (!ctx->json && n) {
		tc_table_print(ctx->out, fw->header ? NULL : head, 11,
			       (const char *const *const *)rows, n);
		fw->header = true;
	}
	for (r = 0; r < n; r++)
		free(rows[r]);
	free(rows);
	free(when);
	fflush(ctx->out);
	fflush(ctx->err);
}

/*
 * One round of log --follow: open the decisions file, print what is new in
 * it, then wait on that same open file until the kernel signals (POLLPRI)
 * a decision recorded after the open, or follow_ms pass.  Reading and
 * waiting on one open file leaves no window in which a decision goes
 * unnoticed; the ring's sequence numbers tell which ones it dropped.
 */
static int tc_follow_round(struct tc_ctx *ctx, struct tc_follow *fw)
{
	char *path = tc_path(ctx->root, "decisions"), *text = NULL;
	struct pollfd p = { .fd = -1, .events = POLLPRI };
	struct tc_table t;
	int dupfd, err;

	p.fd = ctx->open_file ? ctx->open_file(path, O_RDONLY | O_CLOEXEC) :
				open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (p.fd >= 0) {
		dupfd = dup(p.fd);	/* tc_read_fd() closes what it reads */
		if (dupfd >= 0)
			text = tc_read_fd(dupfd, 16 << 20, NULL);
	}
	if (!text) {
		err = errno;
		if (p.fd >= 0)
			close(p.fd);
		return tc_sfs_fail(ctx, "decisions", err, false);
	}
	memset(&t, 0, sizeof(t));
	if (tc_table_parse(text, &t)) {
		tc_table_free(&t);
		close(p.fd);
		return tc_fail(ctx, TC_EXIT_ERROR, "%s/decisions: no '#' header line",
			       tc_esc(ctx->root));
	}
	/* only new sequence numbers; a gap is reported */
	tc_log_rows(ctx, &t, fw);
	tc_table_free(&t);
	while (poll(&p, 1, (int)ctx->follow_ms) < 0 && errno == EINTR)
		;
	close(p.fd);
	return TC_EXIT_OK;
}

int tc_cmd_log(struct tc_ctx *ctx, int argc, char **argv)
{
	bool follow = false, help;
	const struct tc_opt opts[] = {
		{ "--follow", false, NULL, &follow },
		{ NULL, false, NULL, NULL },
	};
	struct tc_follow fw = { 0, 0, false, false };
	struct tc_table t;
	unsigned int polls = 0;
	char *pos[1];
	int n, rc;

	n = tc_parse_opts(ctx, "log", argc, argv, opts, pos, 0, &help);
	if (n < 0)
		return TC_EXIT_USAGE;
	if (help)
		return tc_help(ctx, "log");
	rc = tc_read_table(ctx, "decisions", &t);
	if (rc)
		return rc;
	if (ctx->json && !follow) {
		size_t r;

		tc_json_begin(ctx);
		fputs(",\"decisions\":[", ctx->out);
		for (r = 0; r < t.nrows; r++) {
			fputs(r ? ",\n" : "", ctx->out);
			tc_json_row(ctx->out, &t, r, tc_decision_keys, NULL, NULL, NULL);
		}
		fputc(']', ctx->out);
		tc_table_free(&t);
		return tc_json_end(ctx, TC_EXIT_OK, NULL);
	}
	if (!ctx->json && !follow && !t.nrows)
		fputs("(no decisions yet)\n", ctx->out);
	/* with --follow, JSON is one object per line (JSON Lines) */
	tc_log_rows(ctx, &t, &fw);
	tc_table_free(&t);
	fw.known = true;
	while (follow && (!ctx->follow_polls || polls++ < ctx->follow_polls)) {
		rc = tc_follow_round(ctx, &fw);
		if (rc)
			return rc;
	}
	return TC_EXIT_OK;
}
