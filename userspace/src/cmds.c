// SPDX-License-Identifier: GPL-2.0
/*
 * triagectl: the commands that change or summarise the kernel's state:
 * check, load, diff, status, mode.  rank, explain and log are in
 * inspect.c.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <spawn.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <selinux/selinux.h>

#include "triagectl.h"

#define TC_SECURITYFS_MAGIC 0x73636673

/* ------------------------------------------------------------ helpers */

/*
 * The one write() of a securityfs file.  A fake directory (tests, --root
 * on an ordinary file system) is cut to what was written afterwards, so
 * that it holds exactly that, as securityfs would, and keeps its old
 * content when the write fails.
 */
static ssize_t tc_write_at(struct tc_ctx *ctx, const char *name,
			   const void *buf, size_t len,
			   ssize_t (*wr)(int, const void *, size_t))
{
	char *path = tc_path(ctx->root, name);
	struct statfs sfs;
	ssize_t w;
	int fd, e;

	fd = ctx->open_file ? ctx->open_file(path, O_WRONLY | O_CLOEXEC) :
			      open(path, O_WRONLY | O_CLOEXEC);
	e = errno;
	free(path);
	if (fd < 0) {
		errno = e;
		return -1;
	}
	w = wr(fd, buf, len);
	e = errno;
	if (w >= 0 && !fstatfs(fd, &sfs) && sfs.f_type != TC_SECURITYFS_MAGIC &&
	    ftruncate(fd, w) < 0) {
		e = errno;
		w = -1;
	}
	close(fd);
	errno = e;
	return w;
}

/* "key value" lines; returns the value of key or NULL */
const char *tc_stat(const char *stats, const char *key, char *buf, size_t n)
{
	size_t kl = strlen(key);
	const char *p = stats;

	while (p && *p) {
		if (!strncmp(p, key, kl) && p[kl] == ' ') {
			const char *v = p + kl + 1, *e = strchr(v, '\n');
			size_t len = e ? (size_t)(e - v) : strlen(v);

			if (len >= n)
				len = n - 1;
			memcpy(buf, v, len);
			buf[len] = '\0';
			return buf;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/*
 * The active policy, parsed by the kernel's parser.  NULL with *err = 0
 * when none is loaded (the file is empty), else NULL with *err = errno.
 */
struct triage_policy *tc_active_policy(struct tc_ctx *ctx, int *err)
{
	struct triage_parse_error perr;
	struct triage_policy *p = NULL;
	size_t len;
	char *text = tc_read_at(ctx, "policy", &len);

	if (!text) {
		*err = errno;
		return NULL;
	}
	*err = 0;
	if (len && triage_policy_parse(text, len, &p, &perr)) {
		*err = EINVAL;
		p = NULL;
	}
	free(text);
	return p;
}

static bool tc_is_number(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

void tc_json_value(FILE *f, const char *s)
{
	if (tc_is_number(s) && *s != '+')
		fputs(s, f);
	else if (!strcmp(s, "-"))
		fputs("null", f);
	else
		tc_json_str(f, s);
}

/* The chain in force (vm.oom_policy), or NULL with errno. */
char *tc_oom_chain(const struct tc_ctx *ctx)
{
	char *path = tc_path(ctx->proc, "sys/vm/oom_policy");
	char *text = tc_read_file(path, 4096, NULL);
	int e = errno;

	free(path);
	if (text)
		tc_chomp(text);
	errno = e;
	return text;
}

bool tc_chain_has_triage(const char *chain)
{
	const char *p = chain;

	while (p && (p = strstr(p, "triage"))) {
		if ((p == chain || p[-1] == ' ' || p[-1] == '\t' ||
		     p[-1] == '[') &&
		    (!p[6] || p[6] == ' ' || p[6] == '\t' || p[6] == ']'))
			return true;
		p += 6;
	}
	return false;
}

/*
 * Warn when triage is not in the chain.  The classic selection still asks
 * the LSMs, so an enforced policy's protect, sacrifice and adjust still
 * decide; what is lost is triage's own OOM policy: its fallback, group
 * kills, the rule in the kill line and permissive mode's trial.
 */
static void tc_chain_warning(struct tc_ctx *ctx, const char *chain,
			     const char *mode)
{
	if (ctx->verbosity < 0)
		return;
	if (!chain)
		fprintf(ctx->err,
			"triagectl: warning: cannot read %s/sys/vm/oom_policy (%s): this kernel may not have the OOM policy chain, and then triage decides nothing\n",
			ctx->proc, strerror(errno));
	else if (!tc_chain_has_triage(chain))
		fprintf(ctx->err,
			"triagectl: warning: triage is not in vm.oom_policy (%s): %s; put it first: echo 'triage %s' > /proc/sys/vm/oom_policy\n",
			tc_esc(chain),
			mode && !strcmp(mode, "permissive") ?
			"permissive mode tries nothing (no would-kill is recorded, only the victim the chain chose)" :
			"the classic selection still takes the rules' protect, sacrifice and adjust, but triage's own OOM policy is not asked (no fallback, no group kill, no rule named in the kill line)",
			tc_esc(chain));
}

/*
 * Is what rank and explain show what the next OOM does?  Not in
 * permissive mode (the oom_select hook decides nothing, the chain kills
 * its own victim, triage's is logged as would-kill), nor when triage is
 * not in vm.oom_policy (or the kernel has no chain): 0 with the reason
 * in @why.  1 when enforced, -1 when the mode cannot be read.  @proc is
 * the system's /proc (vm.oom_policy).
 */
int tc_enforcement(const struct tc_ctx *ctx, const char *proc, char *why,
		   size_t n)
{
	struct tc_ctx c = *ctx;
	char mode[24], *m, *stats, *chain;
	bool permissive, in_chain;
	int e;

	c.proc = proc;
	*why = '\0';
	m = tc_read_at(ctx, "mode", NULL);
	if (m) {
		snprintf(mode, sizeof(mode), "%s", m);
		tc_chomp(mode);
		free(m);
	} else {
		stats = tc_read_at(ctx, "stats", NULL);
		if (!stats || !tc_stat(stats, "mode", mode, sizeof(mode)))
			*mode = '\0';
		free(stats);
	}
	chain = tc_oom_chain(&c);
	e = errno;
	permissive = !strcmp(mode, "permissive");
	in_chain = chain && tc_chain_has_triage(chain);
	if (!chain)
		snprintf(why, n, "vm.oom_policy cannot be read (%s/sys/vm/oom_policy: %s): this kernel may have no OOM policy chain, and then triage decides nothing",
			 tc_esc(proc), strerror(e));
	else if (permissive)
		snprintf(why, n, "permissive mode: at an OOM the kernel kills the victim the rest of vm.oom_policy chooses (classic: the highest badness) and logs this ranking's first as would-kill%s; triagectl mode enforce enforces it",
			 in_chain ? "" : " (not even that: triage is not in vm.oom_policy)");
	else if (!in_chain)
		snprintf(why, n, "triage is not in vm.oom_policy (%s): the chain's policies choose the victim; the classic selection still takes the rules' protect, sacrifice and adjust, but not triage's fallback or group kills; put it first: echo 'triage %s' > /proc/sys/vm/oom_policy",
			 tc_esc(chain), tc_esc(chain));
	free(chain);
	if (*why)
		return 0;
	return strcmp(mode, "enforce") ? -1 : 1;
}

/* the JSON keys of tc_enforcement(), a comma first */
void tc_enforcement_json(FILE *f, int enforced, const char *why)
{
	fprintf(f, ",\"enforced\":%s,\"not_enforced_reason\":",
		enforced > 0 ? "true" : enforced ? "null" : "false");
	tc_json_str_or_null(f, enforced ? NULL : why);
}

/* the first line of rank's and explain's text, when not enforced */
void tc_enforcement_line(FILE *f, int enforced, const char *why)
{
	if (!enforced)
		fprintf(f, "NOT ENFORCED: %s\n", why);
	else if (enforced < 0)
		fputs("ENFORCED?: the mode cannot be read: this is what triage does when enforcing\n", f);
}

/* ", 2 pressure statements" (none: ""), for the one-line summaries */
static const char *tc_pressure_count(const struct triage_policy *p)
{
	static char buf[48];

	if (!p || !p->nr_pressure)
		return "";
	snprintf(buf, sizeof(buf), ", %u pressure statement%s",
		 p->nr_pressure, p->nr_pressure == 1 ? "" : "s");
	return buf;
}

/* ", 2 protect rules with a budget" (none: ""), for check's summary */
static const char *tc_budget_count(const struct triage_policy *p)
{
	static char buf[48];
	unsigned int i, n = 0;

	for (i = 0; p && i < p->nr_rules; i++)
		n += p->rules[i].budget_mib != 0;
	if (!n)
		return "";
	snprintf(buf, sizeof(buf), ", %u protect rule%s with a budget", n,
		 n == 1 ? "" : "s");
	return buf;
}

/* ------------------------------------------------------------ check */

/* Two options given that exclude each other: say so (a usage error). */
static bool tc_exclusive(struct tc_ctx *ctx, bool both, const char *a,
			 const char *b)
{
	if (both)
		tc_usage_error(ctx, "%s and %s exclude each other", a, b);
	return both;
}

/*
 * Open the SELinux policy to check against: @given, else the loaded
 * one when SELinux is enabled.  *s stays NULL, with a note in @res, when
 * there is nothing to check against or the loaded policy is unreadable.
 * Returns false after an error (an unreadable --selinux-policy).
 */
static bool tc_open_selinux(struct tc_ctx *ctx, const char *given, bool none,
			    struct tc_sepol **s, const char **used,
			    struct tc_check *res)
{
	char why[128], msg[400];
	const char *path = given;

	*s = NULL;
	*used = NULL;
	if (none)
		return true;
	if (!path) {
		/*
		 * A static triagectl may find no selinuxfs through libselinux
		 * (its constructor is not always linked in): the kernel's own
		 * policy file is the evidence that counts.
		 */
		if (is_selinux_enabled() <= 0 &&
		    access(TC_SELINUX_POLICY, F_OK) != 0) {
			tc_check_add(res, TC_NOTE,
				     "SELinux is not enabled and no --selinux-policy was given; SELinux names are not checked");
			return true;
		}
		path = selinux_current_policy_path();
		if (!path)
			path = TC_SELINUX_POLICY;
	}
	*s = tc_sepol_open(path, why, sizeof(why));
	if (!*s && !given) {
		snprintf(msg, sizeof(msg),
			 "cannot read the loaded SELinux policy %s (%s): SELinux names are not checked; run as root or give --selinux-policy /etc/selinux/default/policy/policy.33",
			 path, why);
		tc_check_add(res, TC_WARNING, msg);
		return true;
	}
	if (!*s) {
		tc_fail(ctx, TC_EXIT_ERROR, "cannot read SELinux policy %s: %s",
			tc_esc(path), why);
		return false;
	}
	if (ctx->verbosity > 0)
		fprintf(ctx->err, "triagectl: checking SELinux names against %s\n",
			tc_esc(path));
	*used = path;
	return true;
}

/*
 * Read, parse and check a policy file ("-": standard input).  Prints the
 * diagnostics; returns the text, or NULL with *rc set after an error that
 * stops everything (unreadable file or --selinux-policy).
 */
static char *tc_check_file(struct tc_ctx *ctx, const char *file,
			   const char *selpath, bool nosel, bool boot,
			   size_t *len, struct tc_check *res, const char **used,
			   int *rc)
{
	struct tc_check_opts o = { .names_are_warnings = boot };
	struct tc_check pre = { 0 };
	struct tc_sepol *s;
	char *text, *lsms = NULL;
	size_t i;

	memset(res, 0, sizeof(*res));
	text = tc_read_input(file, TRIAGE_POLICY_MAX_SIZE, len);
	if (!text) {
		*rc = tc_fail(ctx, TC_EXIT_ERROR, "cannot read %s: %s",
			      tc_esc(tc_input_name(file)), strerror(errno));
		return NULL;
	}
	if (!tc_open_selinux(ctx, selpath, nosel, &s, used, &pre)) {
		free(text);
		tc_check_free(&pre);
		*rc = TC_EXIT_ERROR;
		return NULL;
	}
	/*
	 * The LSM that labels processes and the kernel's PSI, unless told
	 * which SELinux policy: then the check is not against this system.
	 */
	if (!selpath) {
		o.proc = ctx->proc;
		lsms = tc_lsm_list(ctx);
		o.major_lsm = tc_major_lsm(lsms);
		if (ctx->verbosity > 0 && lsms)
			fprintf(ctx->err, "triagectl: active LSMs %s, major %s\n",
				tc_esc(lsms), o.major_lsm ? o.major_lsm : "none");
	}
	o.sepol = s;
	tc_check_text(text, *len, &o, res);
	for (i = 0; i < pre.ndiags; i++)
		tc_check_add(res, pre.diags[i].severity, pre.diags[i].msg);
	tc_check_free(&pre);
	tc_check_print(ctx->err, tc_input_name(file), res, ctx->verbosity < 0);
	tc_sepol_close(s);
	free(lsms);
	return text;
}

int tc_cmd_check(struct tc_ctx *ctx, int argc, char **argv)
{
	const char *selpath = NULL, *used, *name;
	bool nosel = false, help;
	const struct tc_opt opts[] = {
		{ "--selinux-policy", true, &selpath, NULL },
		{ "--no-selinux", false, NULL, &nosel },
		{ NULL, false, NULL, NULL },
	};
	struct tc_check res;
	char *pos[1], *text;
	size_t len;
	int n, rc;

	n = tc_parse_opts(ctx, "check", argc, argv, opts, pos, 1, &help);
	if (n < 0)
		return TC_EXIT_USAGE;
	if (help)
		return tc_help(ctx, "check");
	if (n != 1)
		return tc_usage_error(ctx, "no policy FILE given (- reads standard input)");
	if (tc_exclusive(ctx, selpath && nosel, "--selinux-policy",
			 "--no-selinux"))
		return TC_EXIT_USAGE;
	name = tc_input_name(pos[0]);
	text = tc_check_file(ctx, pos[0], selpath, nosel, false, &len, &res,
			     &used, &rc);
	if (!text)
		return rc;
	free(text);
	rc = res.errors ? TC_EXIT_ERROR : TC_EXIT_OK;
	if (ctx->json) {
		char msg[300];

		snprintf(msg, sizeof(msg), "%s: %u error%s, %u warning%s",
			 name, res.errors, res.errors == 1 ? "" : "s",
			 res.warnings, res.warnings == 1 ? "" : "s");
		tc_json_begin(ctx);
		tc_check_json(ctx->out, name, used, &res, true);
		tc_json_end(ctx, rc, msg);
	}
	if (!ctx->json) {
		if (res.errors)
			fprintf(ctx->err, "%s: %u error%s, %u warning%s\n",
				tc_esc(name), res.errors,
				res.errors == 1 ? "" : "s", res.warnings,
				res.warnings == 1 ? "" : "s");
		else if (ctx->verbosity >= 0)
			fprintf(ctx->out, "%s: ok, %u rule%s%s%s, %u warning%s\n",
				tc_esc(name), res.policy->nr_rules,
				res.policy->nr_rules == 1 ? "" : "s",
				tc_budget_count(res.policy),
				tc_pressure_count(res.policy), res.warnings,
				res.warnings == 1 ? "" : "s");
	}
	tc_check_free(&res);
	return rc;
}

/* ------------------------------------------------------------ diff */

struct tc_diff {
	char **added, **removed;	/* rules */
	size_t nadded, nremoved;
	char **padded, **premoved;	/* pressure statements */
	size_t npadded, npremoved;
	const char *setting[3][2];	/* name -> old, new (changed only) */
	const char *from[3], *to[3];	/* every setting's lines; from may be NULL */
	bool reordered;
	/*
	 * The mode in force differs from the mode line of the policy in force
	 * (policy_mode): `triagectl mode` set it at run time.
	 */
	bool mode_override;
	const char *policy_mode;
};

/*
 * The lines of old[ob..oe) not in new[nb..ne) (a multiset difference),
 * into *out; used[] marks the lines of new that were matched.
 */
static size_t tc_diff_lines(char **old, size_t ob, size_t oe, char **new,
			    size_t nb, size_t ne, bool *used, char **out)
{
	size_t i, j, n = 0;

	for (i = ob; i < oe; i++) {
		for (j = nb; j < ne; j++)
			if (!used[j] && !strcmp(old[i], new[j]))
				break;
		if (j < ne)
			used[j] = true;
		else
			out[n++] = old[i];
	}
	return n;
}

/*
 * Settings changed, pressure statements and rules added and removed, by
 * canonical text; @opress and @npress: the pressure statements' lines
 * after the three settings of @old and @new.  Their order does not
 * matter (one per scope); the rules' does.
 */
static void tc_diff(char **old, size_t nold, size_t opress, char **new,
		    size_t nnew, size_t npress, struct tc_diff *d)
{
	bool *used = calloc(nnew + 1, 1);
	size_t orules = 3 + opress, nrules = 3 + npress, i, j, k = 0;

	if (!used)
		exit(TC_EXIT_ERROR);
	memset(d, 0, sizeof(*d));
	if (orules > nold)
		orules = nold;
	if (nrules > nnew)
		nrules = nnew;
	d->added = tc_xmalloc((nnew + 1) * sizeof(char *));
	d->removed = tc_xmalloc((nold + 1) * sizeof(char *));
	d->padded = tc_xmalloc((nnew + 1) * sizeof(char *));
	d->premoved = tc_xmalloc((nold + 1) * sizeof(char *));
	for (i = 0; i < 3 && i < nnew; i++) {
		d->from[i] = i < nold ? old[i] : NULL;
		d->to[i] = new[i];
	}
	for (i = 0; i < 3 && i < nold && i < nnew; i++)
		if (strcmp(old[i], new[i])) {
			d->setting[i][0] = old[i];
			d->setting[i][1] = new[i];
		}
	d->npremoved = tc_diff_lines(old, 3, orules, new, 3, nrules, used,
				     d->premoved);
	for (j = 3; j < nrules; j++)
		if (!used[j])
			d->padded[d->npadded++] = new[j];
	d->nremoved = tc_diff_lines(old, orules, nold, new, nrules, nnew, used,
				    d->removed);
	for (j = nrules; j < nnew; j++)
		if (!used[j])
			d->added[d->nadded++] = new[j];
	if (!d->nadded && !d->nremoved)
		for (i = orules, j = nrules; i < nold && j < nnew; i++, j++)
			if (strcmp(old[i], new[j]))
				k++;
	d->reordered = k > 0;
	free(used);
}

/* What a policy decides for @label: "protect", "sacrifice rank=9", ... */
static void tc_verdict_of(const struct triage_policy *p, const char *label,
			  char *buf, size_t n, int *rule)
{
	const struct triage_rule *r;
	int i = p ? triage_policy_match(p, label) : -1;

	*rule = i + 1;
	if (i < 0) {
		snprintf(buf, n, "none");
		return;
	}
	r = &p->rules[i];
	if (r->verdict == TRIAGE_VERDICT_SACRIFICE)
		snprintf(buf, n, "sacrifice rank=%u%s", r->rank,
			 r->group ? " group" : "");
	else if (r->verdict == TRIAGE_VERDICT_ADJUST)
		snprintf(buf, n, "adjust %+d", r->adjust);
	else if (r->budget_mib) {
		char b[32];

		tc_budget_text(r->budget_mib, b, sizeof(b));
		snprintf(buf, n, "%s budget=%s",
			 triage_verdict_name(r->verdict), b);
	} else {
		snprintf(buf, n, "%s", triage_verdict_name(r->verdict));
	}
}

/*
 * The running candidates (the kernel's ranking) whose verdict changes
 * from policy @old to @new, printed; returns false with a note when the
 * ranking cannot be read.
 */
static void tc_verdict_changes(struct tc_ctx *ctx,
			       const struct triage_policy *old,
			       const struct triage_policy *new)
{
	struct tc_table t;
	char *text = tc_read_at(ctx, "ranking", NULL);
	size_t r, nchanged = 0;
	int e = errno;

	if (ctx->json)
		fputs(",\"verdict_changes\":", ctx->out);
	if (!text || tc_table_parse(text, &t)) {
		if (text)
			tc_table_free(&t);
		if (ctx->json)
			fputs("null", ctx->out);
		if (ctx->verbosity >= 0)
			fprintf(ctx->err, "triagectl: note: running tasks not compared: %s\n",
				!text && e == EPERM ?
				"reading the ranking needs CAP_MAC_ADMIN (run as root)" :
				!text ? strerror(e) : "the ranking has no header");
		return;
	}
	if (ctx->json)
		fputc('[', ctx->out);
	for (r = 0; r < t.nrows; r++) {
		const char *label = tc_table_get(&t, r, "label");
		const char *pid = tc_table_get(&t, r, "pid");
		const char *comm = tc_table_get(&t, r, "comm");
		char vo[64], vn[64];
		int ro, rn;

		tc_verdict_of(old, label, vo, sizeof(vo), &ro);
		tc_verdict_of(new, label, vn, sizeof(vn), &rn);
		if (!strcmp(vo, vn))
			continue;
		if (ctx->json) {
			fprintf(ctx->out, "%s{\"pid\":", nchanged ? "," : "");
			tc_json_value(ctx->out, pid);
			fputs(",\"comm\":", ctx->out);
			tc_json_str(ctx->out, comm);
			fputs(",\"label\":", ctx->out);
			tc_json_str(ctx->out, label);
			fputs(",\"from\":", ctx->out);
			tc_json_str(ctx->out, vo);
			fputs(",\"to\":", ctx->out);
			tc_json_str(ctx->out, vn);
			fputc('}', ctx->out);
		} else {
			if (!nchanged)
				fputs("running tasks whose verdict changes:\n",
				      ctx->out);
			fprintf(ctx->out, "  pid %s (%s, %s): %s -> %s\n",
				pid, tc_esc(comm), tc_esc(label), vo, vn);
		}
		nchanged++;
	}
	if (ctx->json)
		fputc(']', ctx->out);
	else if (!nchanged)
		fprintf(ctx->out, "running tasks whose verdict changes: none (of %zu candidates)\n",
			t.nrows);
	tc_table_free(&t);
}

/* "panic" of "fallback panic"; NULL stays NULL */
static const char *tc_setting_value(const char *line)
{
	const char *sp = line ? strchr(line, ' ') : NULL;

	return sp ? sp + 1 : line;
}

static void tc_diff_print(struct tc_ctx *ctx, const struct tc_diff *d)
{
	static const char *const names[3] = { "mode", "fallback", "oom-score-adj" };
	FILE *f = ctx->out;
	size_t i;

	if (ctx->json) {
		fputs(",\"settings\":{", f);
		for (i = 0; i < 3; i++) {
			fprintf(f, "%s\"%s\":{\"from\":", i ? "," : "", names[i]);
			tc_json_str_or_null(f, tc_setting_value(d->from[i]));
			fputs(",\"to\":", f);
			tc_json_str_or_null(f, tc_setting_value(d->to[i]));
			fprintf(f, ",\"changed\":%s}",
				d->setting[i][0] ? "true" : "false");
		}
		fprintf(f, "},\"mode_set_at_run_time\":%s,\"added\":[",
			d->mode_override ? "true" : "false");
		for (i = 0; i < d->nadded; i++) {
			fputs(i ? "," : "", f);
			tc_json_str(f, d->added[i]);
		}
		fputs("],\"removed\":[", f);
		for (i = 0; i < d->nremoved; i++) {
			fputs(i ? "," : "", f);
			tc_json_str(f, d->removed[i]);
		}
		fprintf(f, "],\"reordered\":%s,\"pressure_added\":[",
			d->reordered ? "true" : "false");
		for (i = 0; i < d->npadded; i++) {
			fputs(i ? "," : "", f);
			tc_json_str(f, d->padded[i]);
		}
		fputs("],\"pressure_removed\":[", f);
		for (i = 0; i < d->npremoved; i++) {
			fputs(i ? "," : "", f);
			tc_json_str(f, d->premoved[i]);
		}
		fputc(']', f);
		return;
	}
	for (i = 0; i < 3; i++) {
		if (!d->setting[i][0])
			continue;
		if (!i && d->mode_override)
			fprintf(f, "  ~ %s (was: %s, set at run time by triagectl mode; the policy in force says %s)\n",
				d->setting[i][1], d->setting[i][0],
				d->policy_mode);
		else
			fprintf(f, "  ~ %s (was: %s)\n", d->setting[i][1],
				d->setting[i][0]);
	}
	for (i = 0; i < d->npremoved; i++)
		fprintf(f, "  - %s\n", d->premoved[i]);
	for (i = 0; i < d->npadded; i++)
		fprintf(f, "  + %s\n", d->padded[i]);
	for (i = 0; i < d->nremoved; i++)
		fprintf(f, "  - %s\n", d->removed[i]);
	for (i = 0; i < d->nadded; i++)
		fprintf(f, "  + %s\n", d->added[i]);
	if (d->reordered)
		fputs("  rules reordered (first match wins: this can change verdicts)\n",
		      f);
	if (!d->nadded && !d->nremoved && !d->reordered && !d->npadded &&
	    !d->npremoved && !d->setting[0][0] && !d->setting[1][0] &&
	    !d->setting[2][0])
		fputs("  no change\n", f);
}

/* ------------------------------------------------------------ load */

static int tc_load_refused(struct tc_ctx *ctx, const char *file, int e)
{
	unsigned int line, col;
	char *why;
	int off = 0;

	file = tc_esc(file);
	if (e == EPERM)
		return tc_fail(ctx, TC_EXIT_PERM,
			       "loading a policy needs CAP_MAC_ADMIN (run as root)");
	if (e == EACCES || e == ENOENT || e == ENOTDIR)
		return tc_sfs_fail(ctx, "policy", e, true);
	if (e == EINVAL) {
		why = tc_read_at(ctx, "load_error", NULL);
		if (why) {
			int rc;

			tc_chomp(why);
			if (sscanf(why, "%u:%u: %n", &line, &col, &off) == 2 &&
			    off > 0)
				rc = tc_fail(ctx, TC_EXIT_REFUSED,
					     "%s:%u:%u: error: %s (refused by the kernel; the old policy stays in force)",
					     file, line, col, tc_esc(why + off));
			else if (*why)
				rc = tc_fail(ctx, TC_EXIT_REFUSED,
					     "%s: error: %s (refused by the kernel; the old policy stays in force)",
					     file, tc_esc(why));
			else
				rc = tc_fail(ctx, TC_EXIT_REFUSED,
					     "%s: error: the kernel refused the policy (no reason in load_error); the old policy stays in force",
					     file);
			free(why);
			return rc;
		}
	}
	if (e == E2BIG)
		return tc_fail(ctx, TC_EXIT_REFUSED,
			       "%s: error: the kernel refused the policy: %s (larger than %d KiB, too many rules or too many pressure statements); the old policy stays in force",
			       file, strerror(e), TRIAGE_POLICY_MAX_SIZE / 1024);
	return tc_fail(ctx, TC_EXIT_REFUSED,
		       "%s: error: the kernel refused the policy: %s%s; the old policy stays in force",
		       file, strerror(e), e == ENOMEM ? " (out of memory)" : "");
}

enum tc_load_kind { TC_LOAD, TC_DRY_RUN, TC_DIFF };

static int tc_load(struct tc_ctx *ctx, int argc, char **argv,
		   const char *cmd, enum tc_load_kind kind)
{
	const char *selpath = NULL, *used, *name;
	bool nosel = false, force = false, boot = false, dry = false, help;
	const struct tc_opt load_opts[] = {
		{ "--selinux-policy", true, &selpath, NULL },
		{ "--no-selinux", false, NULL, &nosel },
		{ "--force", false, NULL, &force },
		{ "--boot", false, NULL, &boot },
		{ "--dry-run", false, NULL, &dry },
		{ NULL, false, NULL, NULL },
	};
	const struct tc_opt diff_opts[] = {
		{ "--selinux-policy", true, &selpath, NULL },
		{ "--no-selinux", false, NULL, &nosel },
		{ NULL, false, NULL, NULL },
	};
	struct triage_policy *old;
	char **oldl = NULL, **newl, *pos[1], *text, *stats, hash[40], gen[24];
	char *runmode = NULL, runline[40];
	size_t len, nold = 0, nnew;
	struct tc_check res;
	struct tc_diff d;
	int n, e, rc;
	ssize_t w;

	n = tc_parse_opts(ctx, cmd, argc, argv,
			  kind == TC_DIFF ? diff_opts : load_opts, pos, 1,
			  &help);
	if (n < 0)
		return TC_EXIT_USAGE;
	if (help)
		return tc_help(ctx, cmd);
	if (n != 1)
		return tc_usage_error(ctx, "no policy FILE given (- reads standard input)");
	if (tc_exclusive(ctx, selpath && nosel, "--selinux-policy",
			 "--no-selinux") ||
	    tc_exclusive(ctx, boot && force, "--boot", "--force"))
		return TC_EXIT_USAGE;
	if (dry)
		kind = TC_DRY_RUN;
	name = tc_input_name(pos[0]);
	text = tc_check_file(ctx, pos[0], selpath, nosel, boot, &len, &res,
			     &used, &rc);
	if (!text)
		return rc;
	if (res.syntax_error || (res.errors && !force)) {
		char msg[200];

		snprintf(msg, sizeof(msg), "%s: %s: %u error%s%s", tc_esc(name),
			 kind == TC_LOAD ? "not loaded" : "cannot compare",
			 res.errors, res.errors == 1 ? "" : "s",
			 res.syntax_error || kind != TC_LOAD ? "" :
			 " (--force loads despite SELinux name errors; --boot loads them inert)");
		fprintf(ctx->err, "%s\n", msg);
		rc = TC_EXIT_ERROR;
		if (ctx->json) {
			tc_json_begin(ctx);
			fprintf(ctx->out, ",\"loaded\":false,\"dry_run\":%s,\"file\":",
				kind == TC_LOAD ? "false" : "true");
			tc_json_str(ctx->out, name);
			fputs(",\"check\":{", ctx->out);
			tc_check_json(ctx->out, name, used, &res, false);
			fputc('}', ctx->out);
			tc_json_end(ctx, rc, msg);
		}
		goto out;
	}

	old = tc_active_policy(ctx, &e);
	if (!old && e && e != EINVAL) {
		/* no triage at all, or no permission to read the policy */
		if (e == ENOENT || e == ENOTDIR || kind != TC_LOAD) {
			rc = tc_sfs_fail(ctx, "policy", e, false);
			goto out;
		}
		if (ctx->verbosity >= 0)
			fprintf(ctx->err, "triagectl: note: cannot read the previous policy (%s); changes not shown\n",
				strerror(e));
	}
	if (old)
		oldl = tc_canonical_lines(old, &nold);
	/* the mode in force before the load: `triagectl mode` may have set it */
	runmode = tc_read_at(ctx, "mode", NULL);
	if (runmode)
		tc_chomp(runmode);

	if (kind == TC_LOAD) {
		w = tc_write_at(ctx, "policy", text, len, ctx->write_policy);
		e = errno;
		if (w < 0) {
			rc = tc_load_refused(ctx, name, e);
			goto out_old;
		}
		if ((size_t)w != len) {
			rc = tc_fail(ctx, TC_EXIT_REFUSED,
				     "%s: error: short write (%zd of %zu bytes); the kernel kept the old policy",
				     tc_esc(name), w, len);
			goto out_old;
		}
	}

	newl = tc_canonical_lines(res.policy, &nnew);
	if (oldl) {
		tc_diff(oldl, nold, old->nr_pressure, newl, nnew,
			res.policy->nr_pressure, &d);
	} else {
		tc_diff(newl, 3, 0, newl, nnew, res.policy->nr_pressure, &d);
		d.from[0] = d.from[1] = d.from[2] = NULL;
	}
	/*
	 * The kernel sets the mode from the mode line of every policy it
	 * loads: compare with the mode in force, not the old policy's.
	 */
	if (runmode && *runmode) {
		snprintf(runline, sizeof(runline), "mode %s", runmode);
		d.policy_mode = oldl ? oldl[0] : NULL;
		d.mode_override = oldl && strcmp(oldl[0], runline);
		d.from[0] = runline;
		if (strcmp(runline, newl[0])) {
			d.setting[0][0] = runline;
			d.setting[0][1] = newl[0];
		} else {
			d.setting[0][0] = d.setting[0][1] = NULL;
		}
		if (kind == TC_LOAD && d.mode_override && d.setting[0][0] &&
		    ctx->verbosity >= 0)
			fprintf(ctx->err, "triagectl: warning: the mode was %s, set at run time (triagectl mode); this load sets the file's %s: the kernel takes the mode of every policy it loads\n",
				tc_esc(runmode), newl[0]);
	}
	strcpy(hash, "unknown");
	strcpy(gen, "?");
	if (kind == TC_LOAD) {
		stats = tc_read_at(ctx, "stats", NULL);
		if (stats) {
			if (!tc_stat(stats, "policy_hash", hash, sizeof(hash)))
				strcpy(hash, "unknown");
			if (!tc_stat(stats, "policy_generation", gen, sizeof(gen)))
				strcpy(gen, "?");
		}
		free(stats);
	}

	if (ctx->json) {
		FILE *f = ctx->out;

		tc_json_begin(ctx);
		fprintf(f, ",\"loaded\":%s,\"dry_run\":%s,\"file\":",
			kind == TC_LOAD ? "true" : "false",
			kind == TC_LOAD ? "false" : "true");
		tc_json_str(f, name);
		fprintf(f, ",\"rules\":%u,\"pressure_statements\":%u",
			res.policy->nr_rules, res.policy->nr_pressure);
		fputs(",\"hash\":", f);
		tc_json_str_or_null(f, kind == TC_LOAD ? hash : NULL);
		fputs(",\"generation\":", f);
		if (kind == TC_LOAD)
			tc_json_value(f, gen);
		else
			fputs("null", f);
		fprintf(f, ",\"warnings\":%u,\"errors\":%u", res.warnings,
			res.errors);
		fprintf(f, ",\"previous\":%s", old ? "true" : "false");
		tc_diff_print(ctx, &d);
		if (kind != TC_LOAD)
			tc_verdict_changes(ctx, old, res.policy);
		else
			fputs(",\"verdict_changes\":null", f);
		fputs(",\"check\":{", f);
		tc_check_json(f, name, used, &res, false);
		fputc('}', f);
		tc_json_end(ctx, TC_EXIT_OK, NULL);
	} else {
		FILE *f = ctx->out;

		if (kind == TC_LOAD && ctx->verbosity >= 0)
			fprintf(f, "loaded %s: %u rule%s%s, hash %s, generation %s\n",
				tc_esc(name), res.policy->nr_rules,
				res.policy->nr_rules == 1 ? "" : "s",
				tc_pressure_count(res.policy), hash, gen);
		else if (kind != TC_LOAD)
			fprintf(f, "%s %s: %u rule%s%s, against the %s:\n",
				kind == TC_DRY_RUN ? "would load (dry run, nothing loaded)" :
				"diff", tc_esc(name), res.policy->nr_rules,
				res.policy->nr_rules == 1 ? "" : "s",
				tc_pressure_count(res.policy),
				old ? "policy in force" : "kernel without a policy");
		if (kind != TC_LOAD || ctx->verbosity >= 0)
			tc_diff_print(ctx, &d);
		if (kind != TC_LOAD)
			tc_verdict_changes(ctx, old, res.policy);
	}
	if (kind == TC_LOAD && res.errors && ctx->verbosity >= 0)
		fprintf(ctx->err, "%s: loaded despite %u error%s (--force)\n",
			tc_esc(name), res.errors, res.errors == 1 ? "" : "s");
	free(d.added);
	free(d.removed);
	free(d.padded);
	free(d.premoved);
	tc_free_lines(newl, nnew);
	rc = TC_EXIT_OK;
out_old:
	free(runmode);
	if (oldl)
		tc_free_lines(oldl, nold);
	triage_policy_free(old);
out:
	free(text);
	tc_check_free(&res);
	return rc;
}

int tc_cmd_load(struct tc_ctx *ctx, int argc, char **argv)
{
	return tc_load(ctx, argc, argv, "load", TC_LOAD);
}

int tc_cmd_diff(struct tc_ctx *ctx, int argc, char **argv)
{
	return tc_load(ctx, argc, argv, "diff", TC_DIFF);
}

/* ------------------------------------------------------------ status */

static const struct {
	const char *key, *title;
} tc_counters[] = {
	{ "oom_events", "OOM events" },
	{ "protected_skipped", "protected skipped" },
	{ "sacrificed", "sacrificed victims" },
	{ "adjusted", "adjusted victims" },
	{ "fallbacks", "fallbacks" },
	{ "group_kills", "group kills" },
	{ "label_misses", "label misses" },
	{ "resolved_tasks", "tasks with verdicts" },
	{ "unlabelled_tasks", "unlabelled tasks" },
	{ "audit_drops", "audit records dropped" },
	{ "selection_ns_last", "last selection (ns)" },
	{ "selection_ns_max", "slowest selection (ns)" },
};

#define TC_NCOUNTERS (sizeof(tc_counters) / sizeof(tc_counters[0]))

/* keys of stats shown elsewhere in status */
static bool tc_policy_key(const char *k)
{
	return !strcmp(k, "policy_generation") || !strcmp(k, "policy_hash") ||
	       !strcmp(k, "policy_load_time") || !strcmp(k, "policy_rules") ||
	       !strcmp(k, "mode") || !strcmp(k, "rule") ||
	       !strcmp(k, "oom_select_hook");
}

void tc_time_text(long long sec, char *buf, size_t n)
{
	time_t t = sec;
	struct tm tm;

	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, n, "%lld", sec);
}

static void tc_age(long long sec, char *buf, size_t n)
{
	long long d = (long long)time(NULL) - sec;

	if (d < 0)
		snprintf(buf, n, "in the future: check the clock");
	else if (d < 120)
		snprintf(buf, n, "%lld s ago", d);
	else if (d < 7200)
		snprintf(buf, n, "%lld min ago", d / 60);
	else if (d < 172800)
		snprintf(buf, n, "%lld h %lld min ago", d / 3600, d / 60 % 60);
	else
		snprintf(buf, n, "%lld days ago", d / 86400);
}

/*
 * Rules of the active policy that name SELinux users, roles, types or
 * ranges the loaded SELinux policy does not have (loaded inert, e.g. by
 * load --boot after a policy upgrade).  Quiet when SELinux is not there.
 */
static size_t tc_inert_rules(struct tc_ctx *ctx, const struct triage_policy *p,
			     char ***out)
{
	struct tc_check_opts o = { .names_are_warnings = true };
	struct tc_sepol *s;
	struct tc_check res;
	char why[128], **v = NULL;
	const char *path;
	size_t i, n = 0;
	int len;
	char *text;

	*out = NULL;
	if (!p || !p->nr_rules)
		return 0;
	if (is_selinux_enabled() <= 0 && access(TC_SELINUX_POLICY, F_OK))
		return 0;
	path = selinux_current_policy_path();
	s = tc_sepol_open(path ? path : TC_SELINUX_POLICY, why, sizeof(why));
	if (!s) {
		if (ctx->verbosity > 0)
			fprintf(ctx->err, "triagectl: note: SELinux names of the policy not checked: %s\n",
				why);
		return 0;
	}
	len = triage_policy_print(p, NULL, 0);
	text = tc_xmalloc(len + 1);
	triage_policy_print(p, text, len + 1);
	o.sepol = s;
	tc_check_text(text, len, &o, &res);
	v = tc_xmalloc((res.ndiags + 1) * sizeof(*v));
	for (i = 0; i < res.ndiags; i++) {
		char line[600];

		/* the canonical text: settings, pressure statements, rules */
		if (!strstr(res.diags[i].msg, "loaded inert") ||
		    res.diags[i].line < 4 + p->nr_pressure)
			continue;
		snprintf(line, sizeof(line), "rule %u: %s",
			 res.diags[i].line - 3 - p->nr_pressure,
			 res.diags[i].msg);
		v[n++] = tc_strdup(line);
	}
	tc_check_free(&res);
	tc_sepol_close(s);
	free(text);
	*out = v;
	return n;
}

/*
 * The running kernel and the triage kernels installed in /boot: those
 * whose /boot/config-RELEASE has CONFIG_SECURITY_TRIAGE=y (the kernel
 * .deb of make kernel-deb, whatever its LOCALVERSION), oldest first.
 */
struct tc_kernels {
	char *running;		/* proc/sys/kernel/osrelease, or NULL */
	int running_triage;	/* its config has triage: 1, 0, -1 unknown */
	char **triage;
	size_t n;
	const char *newer;	/* the newest, when newer than a running triage kernel */
	/*
	 * Debian's newest kernel installed (/boot's vmlinuz-*-amd64 and the
	 * like, dpkg's linux-image packages), its upstream version, and
	 * whether that is newer than the running triage kernel's (1, 0; -1
	 * not known or not a triage kernel)
	 */
	char *debian;
	char debian_version[32];
	int debian_newer;
};

/*
 * The upstream version a kernel release or a Debian package version
 * starts with ("6.12.43" of "6.12.43+deb13-amd64", of "6.12.43-1" and of
 * "1:6.12.43-1"); false when it does not start with one.
 */
static bool tc_upstream_version(const char *s, char *buf, size_t n)
{
	size_t d = strspn(s, "0123456789"), l;

	if (d && s[d] == ':')
		s += d + 1;		/* an epoch */
	l = strspn(s, "0123456789.");
	while (l && s[l - 1] == '.')
		l--;
	if (!l || l >= n || !memchr(s, '.', l) || *s == '.')
		return false;
	memcpy(buf, s, l);
	buf[l] = '\0';
	return true;
}

/* Debian's kernel flavours: the release of a Debian kernel ends in one */
static bool tc_debian_flavour(const char *release)
{
	static const char *const flavours[] = {
		"-amd64", "-arm64", "-686", "-686-pae", "-armmp", "-armmp-lpae",
		"-powerpc64le", "-s390x", "-riscv64", "-loong64", NULL,
	};
	size_t l = strlen(release), i;

	for (i = 0; flavours[i]; i++) {
		size_t f = strlen(flavours[i]);

		if (l > f && !strcmp(release + l - f, flavours[i]))
			return true;
	}
	return false;
}

/* Take @name (@version) as Debian's newest kernel when it is newer. */
static void tc_debian_candidate(struct tc_kernels *k, const char *name,
				const char *version)
{
	char v[32];

	if (!tc_upstream_version(version, v, sizeof(v)))
		return;
	if (k->debian && strverscmp(v, k->debian_version) <= 0)
		return;
	free(k->debian);
	k->debian = tc_strdup(name);
	snprintf(k->debian_version, sizeof(k->debian_version), "%s", v);
}

/*
 * What dpkg-query (@prog) says of the linux-image packages, in the shape
 * of dpkg's status file: a paragraph of Package, Status and Version a
 * package.  dpkg's database is dpkg's own; dpkg-query is its interface.
 * NULL when it cannot run; its exit status (1: no package matches) and
 * its standard error are not ours.
 */
static char *tc_dpkg_query(const char *prog)
{
	static const char fmt[] = "--showformat=Package: ${Package}\\n"
		"Status: ${Status}\\nVersion: ${Version}\\n\\n";
	char *argv[] = { (char *)prog, "-W", (char *)fmt, "linux-image-*", NULL };
	posix_spawn_file_actions_t fa;
	char *text = NULL;
	int fds[2], status;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return NULL;
	if (posix_spawn_file_actions_init(&fa)) {
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (!posix_spawn_file_actions_adddup2(&fa, fds[1], 1) &&
	    !posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0) &&
	    !posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0) &&
	    !posix_spawn(&pid, prog, &fa, NULL, argv, environ)) {
		close(fds[1]);
		fds[1] = -1;
		text = tc_read_fd(fds[0], 256 << 20, NULL);
		fds[0] = -1;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	posix_spawn_file_actions_destroy(&fa);
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	return text;
}

/*
 * dpkg's installed linux-image packages (not triage's own, not debug
 * symbols): "linux-image-6.1.0-18-amd64 6.1.76-1", whose ABI name does
 * not say the version.
 */
static void tc_debian_packages(const struct tc_ctx *ctx, struct tc_kernels *k)
{
	char *text, *para, *next;

	if (!ctx->dpkg_query)
		return;
	text = tc_dpkg_query(ctx->dpkg_query);
	for (para = text; para && *para; para = next) {
		char pkg[200] = "", status[100] = "", version[100] = "";
		char *line, *end;

		next = strstr(para, "\n\n");
		if (next) {
			*next = '\0';
			next += 2;
		}
		for (line = para; line && *line; line = end) {
			end = strchr(line, '\n');
			if (end)
				*end++ = '\0';
			if (!strncmp(line, "Package: ", 9))
				snprintf(pkg, sizeof(pkg), "%s", line + 9);
			else if (!strncmp(line, "Status: ", 8))
				snprintf(status, sizeof(status), "%s", line + 8);
			else if (!strncmp(line, "Version: ", 9))
				snprintf(version, sizeof(version), "%s", line + 9);
		}
		if (strncmp(pkg, "linux-image-", 12) || strstr(pkg, "triage") ||
		    strstr(version, "triage") || strstr(pkg, "-dbg") ||
		    strlen(status) < 10 ||
		    strcmp(status + strlen(status) - 10, " installed")) {
			continue;
		}
		{
			char name[310];

			snprintf(name, sizeof(name), "%s %s", pkg, version);
			tc_debian_candidate(k, name, version);
		}
	}
	free(text);
}

/* 1: /boot/config-@release has @option=y, 0: not, -1: no config (or no /boot) */
static int tc_config_has(const char *boot, const char *release,
			 const char *option)
{
	char name[300], want[64], *path, *text;
	const char *p;
	size_t n;
	int r = 0;

	if (!boot || !release)
		return -1;
	snprintf(name, sizeof(name), "config-%s", release);
	n = (size_t)snprintf(want, sizeof(want), "%s=y", option);
	path = tc_path(boot, name);
	text = tc_read_file(path, 4 << 20, NULL);
	free(path);
	if (!text)
		return -1;
	for (p = text; (p = strstr(p, want)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			r = 1;
	free(text);
	return r;
}

static int tc_config_has_triage(const char *boot, const char *release)
{
	return tc_config_has(boot, release, "CONFIG_SECURITY_TRIAGE");
}

static int tc_vercmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

static void tc_kernels_get(const struct tc_ctx *ctx, struct tc_kernels *k)
{
	char *path = tc_path(ctx->proc, "sys/kernel/osrelease"), *vmlinuz;
	struct dirent *de;
	size_t cap = 0;
	DIR *d;

	memset(k, 0, sizeof(*k));
	k->running_triage = -1;
	k->running = tc_read_file(path, 256, NULL);
	free(path);
	if (k->running) {
		tc_chomp(k->running);
		if (!*k->running || strchr(k->running, '/')) {
			free(k->running);
			k->running = NULL;
		}
	}
	if (!ctx->boot)
		return;
	if (k->running)
		k->running_triage = tc_config_has_triage(ctx->boot, k->running);
	d = opendir(ctx->boot);
	while (d && (de = readdir(d))) {
		const char *r = de->d_name + 7;
		char name[300];
		struct stat st;
		bool image;

		/* Debian's own kernels: vmlinuz-6.12.43+deb13-amd64 */
		if (!strncmp(de->d_name, "vmlinuz-", 8) &&
		    tc_debian_flavour(de->d_name + 8) &&
		    !strstr(de->d_name, "triage") &&
		    tc_config_has_triage(ctx->boot, de->d_name + 8) != 1)
			tc_debian_candidate(k, de->d_name + 8, de->d_name + 8);
		if (strncmp(de->d_name, "config-", 7) || !*r ||
		    tc_config_has_triage(ctx->boot, r) != 1)
			continue;
		snprintf(name, sizeof(name), "vmlinuz-%s", r);
		vmlinuz = tc_path(ctx->boot, name);
		image = !stat(vmlinuz, &st);
		free(vmlinuz);
		if (!image)	/* a removed package's leftover */
			continue;
		if (k->n == cap) {
			cap = cap ? 2 * cap : 4;
			k->triage = realloc(k->triage, cap * sizeof(*k->triage));
			if (!k->triage)
				abort();
		}
		k->triage[k->n++] = tc_strdup(r);
	}
	if (d)
		closedir(d);
	if (k->n)
		qsort(k->triage, k->n, sizeof(*k->triage), tc_vercmp);
	if (k->n && k->running && k->running_triage == 1 &&
	    strverscmp(k->triage[k->n - 1], k->running) > 0)
		k->newer = k->triage[k->n - 1];
	tc_debian_packages(ctx, k);
}

/*
 * Is Debian's newest kernel newer than the base of the running kernel,
 * a triage kernel (@triage: known to be one)?  Sets k->debian_newer.
 */
static void tc_kernels_debian_newer(struct tc_kernels *k, bool triage,
				    char *base, size_t n)
{
	k->debian_newer = -1;
	*base = '\0';
	if (!k->debian || !k->running || !(triage || k->running_triage == 1) ||
	    !tc_upstream_version(k->running, base, n))
		return;
	k->debian_newer = strverscmp(k->debian_version, base) > 0;
}

static void tc_kernels_free(struct tc_kernels *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->triage[i]);
	free(k->triage);
	free(k->running);
	free(k->debian);
}

/* the status keys of the kernels, a comma first */
static void tc_kernels_json(FILE *f, const struct tc_kernels *k)
{
	size_t i;

	fputs(",\"running_kernel\":", f);
	tc_json_str_or_null(f, k->running);
	fprintf(f, ",\"running_kernel_triage\":%s,\"triage_kernels\":[",
		k->running_triage < 0 ? "null" : k->running_triage ? "true" : "false");
	for (i = 0; i < k->n; i++) {
		fputs(i ? "," : "", f);
		tc_json_str(f, k->triage[k->n - 1 - i]);
	}
	fputs("],\"newer_triage_kernel\":", f);
	tc_json_str_or_null(f, k->newer);
	fputs(",\"debian_kernel\":", f);
	tc_json_str_or_null(f, k->debian);
	fputs(",\"debian_kernel_version\":", f);
	tc_json_str_or_null(f, k->debian ? k->debian_version : NULL);
	fprintf(f, ",\"debian_kernel_newer\":%s",
		k->debian_newer < 0 ? "null" : k->debian_newer ? "true" : "false");
}

static bool tc_lsm_named(const char *lsms, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = lsms; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/*
 * Smack and the policy: is Smack active, built into the running kernel
 * (1, 0, -1 unknown), and which label= rules name labels that no active
 * LSM gives, so that they can only be meant for Smack.  Debian's kernels
 * do not build Smack: a site whose policy names Smack labels on such a
 * kernel has a policy that decides nothing.
 */
struct tc_smack {
	bool active;
	int built;
	unsigned int *rules;	/* 1-based */
	size_t n;
};

/* a glob that matches everything: only '*' */
static bool tc_glob_any(const char *g)
{
	while (*g == '*')
		g++;
	return !*g;
}

/* the names of AppArmor's loaded profiles ("name (mode)" lines), or NULL */
static char **tc_apparmor_profiles(const struct tc_ctx *ctx, size_t *n)
{
	char *dir = tc_secfs(ctx), *path = tc_path(dir, "apparmor/profiles");
	char *text = tc_read_file(path, 16 << 20, NULL), *line, *save = NULL;
	char **v = NULL;
	size_t cap = 0;

	free(dir);
	free(path);
	*n = 0;
	if (!text)
		return NULL;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *mode = strrchr(line, '(');

		if (mode && mode > line && mode[-1] == ' ')
			mode[-1] = '\0';
		if (*n + 1 >= cap) {
			cap = cap ? 2 * cap : 32;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				abort();
		}
		v[(*n)++] = tc_strdup(line);
	}
	free(text);
	if (!v)
		v = tc_xmalloc(sizeof(*v));
	return v;
}

static void tc_smack_get(struct tc_ctx *ctx, const struct triage_policy *p,
			 const char *lsms, const char *release,
			 struct tc_smack *sm)
{
	const char *major = tc_major_lsm(lsms);
	char **prof = NULL, *ranking;
	struct tc_table t = { 0 };
	bool have_rank = false;
	size_t nprof = 0, i, r;
	unsigned int k;
	int f;

	memset(sm, 0, sizeof(*sm));
	sm->active = tc_lsm_named(lsms, "smack");
	sm->built = sm->active ? 1 : tc_config_has(ctx->boot, release,
						   "CONFIG_SECURITY_SMACK");
	if (sm->active || !p || !p->nr_rules)
		return;
	if (major && !strcmp(major, "apparmor"))
		prof = tc_apparmor_profiles(ctx, &nprof);
	/* the labels of the running candidates are labels some LSM gives */
	ranking = tc_read_at(ctx, "ranking", NULL);
	if (ranking)
		have_rank = !tc_table_parse(ranking, &t);	/* t owns it */
	sm->rules = tc_xmalloc(p->nr_rules * sizeof(*sm->rules));
	for (k = 0; k < p->nr_rules; k++) {
		const struct triage_rule *rule = &p->rules[k];
		const char *g = rule->match[TRIAGE_FIELD_LABEL];
		bool known = false;

		for (f = 0; f < TRIAGE_FIELD_LABEL; f++)
			if (rule->match[f])
				break;
		/*
		 * Not a Smack label: an SELinux matcher or context, an
		 * AppArmor path, a catch-all.  On SELinux a glob with a '*'
		 * may match a context.
		 */
		if (f < TRIAGE_FIELD_LABEL || !g || tc_glob_any(g) ||
		    strchr(g, ':') || *g == '/' ||
		    (major && !strcmp(major, "selinux") && strchr(g, '*')))
			continue;
		if (major && !strcmp(major, "apparmor"))
			known = triage_rule_match(rule, "unconfined");
		for (i = 0; !known && i < nprof; i++)
			known = triage_rule_match(rule, prof[i]);
		for (r = 0; !known && have_rank && r < t.nrows; r++)
			known = triage_rule_match(rule, tc_table_get(&t, r, "label"));
		if (!known)
			sm->rules[sm->n++] = k + 1;
	}
	tc_table_free(&t);	/* and the text it was parsed from */
	for (i = 0; i < nprof; i++)
		free(prof[i]);
	free(prof);
}

/* "rules 3, 4" */
static void tc_smack_rule_list(const struct tc_smack *sm, char *buf, size_t n)
{
	size_t i, o;

	o = (size_t)snprintf(buf, n, "rule%s ", sm->n == 1 ? "" : "s");
	for (i = 0; i < sm->n && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%u", i ? ", " : "",
				      sm->rules[i]);
}

/* the warning: what those rules need */
static void tc_smack_warning(struct tc_ctx *ctx, const struct tc_smack *sm,
			     const struct triage_policy *p, const char *lsms)
{
	const char *major = tc_major_lsm(lsms);
	char list[200], texts[600], place[40];
	size_t i, o = 0;

	if (sm->active || !sm->n || ctx->verbosity < 0)
		return;
	tc_smack_rule_list(sm, list, sizeof(list));
	texts[0] = '\0';
	for (i = 0; i < sm->n && i < 5 && o < sizeof(texts); i++) {
		char *t = tc_rule_text(p, sm->rules[i] - 1);

		o += (size_t)snprintf(texts + o, sizeof(texts) - o, "%s%s",
				      i ? ", " : "", t);
		free(t);
	}
	if (sm->n > 5 && o < sizeof(texts))
		snprintf(texts + o, sizeof(texts) - o, ", ...");
	snprintf(place, sizeof(place), "%s%s", major ? " in place of " : "",
		 major ? major : "");
	fprintf(ctx->err,
		"triagectl: warning: %s (%s) name%s labels that no active LSM gives (%s): if they are Smack labels, ",
		list, tc_esc(texts), sm->n == 1 ? "s" : "",
		!major ? "no major LSM labels a task" :
		!strcmp(major, "apparmor") ? "no loaded AppArmor profile has them" :
		"no SELinux context has them");
	if (sm->built == 1)
		fprintf(ctx->err,
			"this kernel has Smack built in but not enabled: name it in lsm=%s (one of SELinux, Smack and AppArmor is active)\n",
			place);
	else
		fprintf(ctx->err,
			"this kernel has no Smack (Debian's kernels do not build it) and a Smack site needs a kernel of its own configuration: CONFIG_SECURITY_SMACK=y and smack in CONFIG_LSM%s (kernel/configs/debian.config before make kernel-deb)\n",
			place);
}

/*
 * status when the running kernel has no triage (the LSM list readable,
 * triage not in it): what runs, which triage kernels are installed, and
 * what to do; exit 3.  Keys of the JSON object as when it is enabled,
 * null for what no kernel without triage can tell.
 */
static int tc_status_no_triage(struct tc_ctx *ctx, const char *lsms)
{
	char advice[700], msg[1024], rel[300], base[32];
	const char *major = tc_major_lsm(lsms);
	struct tc_kernels k;
	char *chain, *cmdline, *path;
	size_t i;

	tc_kernels_get(ctx, &k);
	tc_kernels_debian_newer(&k, false, base, sizeof(base));
	chain = tc_oom_chain(ctx);
	snprintf(rel, sizeof(rel), "the running kernel%s%s", k.running ? " " : "",
		 k.running ? tc_esc(k.running) : "");
	if (k.running_triage == 1) {
		path = tc_path(ctx->proc, "cmdline");
		cmdline = tc_read_file(path, 65536, NULL);
		free(path);
		if (cmdline && (!strncmp(cmdline, "lsm=", 4) || strstr(cmdline, " lsm=")))
			snprintf(advice, sizeof(advice),
				 "%s has triage built in, but the kernel command line's lsm= leaves it out (lsm= replaces CONFIG_LSM): append ,triage to that list (GRUB_CMDLINE_LINUX in /etc/default/grub), run update-grub and reboot",
				 rel);
		else
			snprintf(advice, sizeof(advice),
				 "%s has triage built in but not enabled: name it in CONFIG_LSM, or in lsm= on the kernel command line",
				 rel);
		free(cmdline);
	} else if (k.n) {
		snprintf(advice, sizeof(advice),
			 "%s %s; the triage kernel %s is installed: boot it (GRUB's \"Advanced options\", or grub-reboot), and keep it GRUB's default (GRUB_DEFAULT=saved, grub-set-default: triagectl(8), KERNELS)",
			 rel, k.running_triage ? "runs without triage" : "is not a triage kernel",
			 tc_esc(k.triage[k.n - 1]));
	} else {
		snprintf(advice, sizeof(advice),
			 "%s %s and no triage kernel is installed in %s: install a linux-image-*-triage package (make kernel-deb) and boot it",
			 rel, k.running_triage ? "runs without triage" : "is not a triage kernel",
			 ctx->boot ? ctx->boot : "/boot");
	}
	snprintf(msg, sizeof(msg),
		 "the triage LSM is not active in this kernel (active LSMs: %s): %s",
		 tc_esc(lsms), advice);
	if (ctx->json) {
		FILE *f = ctx->out;

		tc_json_begin(ctx);
		fputs(",\"enabled\":false", f);
		tc_kernels_json(f, &k);
		fputs(",\"lsm\":", f);
		tc_json_str(f, lsms);
		fputs(",\"major_lsm\":", f);
		tc_json_str_or_null(f, major);
		fputs(",\"smack\":null,\"oom_policy\":", f);
		tc_json_str_or_null(f, chain);
		fputs(",\"triage_in_chain\":false,\"mode\":null,\"oom_select_hook\":null,"
		      "\"policy_loaded\":null,\"policy_hash\":null,\"policy_generation\":null,"
		      "\"policy_load_time\":null,\"policy_rules\":null,\"load_error\":null,"
		      "\"counters\":null,\"rule_hits\":null,\"inert_rules\":null,\"pressure\":null", f);
		tc_json_end(ctx, TC_EXIT_UNAVAILABLE, msg);
	} else {
		FILE *f = ctx->out;

		fprintf(f, "%-22s not active in the running kernel\n", "triage");
		fprintf(f, "%-22s %s%s\n", "kernel", k.running ? tc_esc(k.running) : "unknown",
			k.running_triage == 1 ? " (triage built in, not enabled)" :
			k.running_triage == 0 ? " (no triage built in)" : "");
		fprintf(f, "%-22s %s (major: %s)\n", "LSM stack", tc_esc(lsms),
			major ? major : "none");
		if (!k.n)
			fprintf(f, "%-22s none installed in %s\n", "triage kernels",
				ctx->boot ? ctx->boot : "/boot");
		for (i = 0; i < k.n; i++)
			fprintf(f, "%-22s %s\n", i ? "" : "triage kernels",
				tc_esc(k.triage[k.n - 1 - i]));
	}
	fprintf(ctx->err, "triagectl: %s\n", msg);
	free(chain);
	tc_kernels_free(&k);
	return TC_EXIT_UNAVAILABLE;
}

int tc_cmd_status(struct tc_ctx *ctx, int argc, char **argv)
{
	struct triage_policy *pol;
	char *stats, *pos[1], *lsms, *chain, *lerr, **inert;
	char v[64], hash[40], gen[24], when[40], age[64], mode[24];
	const char *major;
	bool help, loaded, in_chain;
	struct tc_kernels kern;
	struct tc_smack smack;
	char base[32];
	size_t i, ninert;
	long long ltime = 0;
	int n, e, chain_errno, lerr_errno, rc;
	const char *p;

	n = tc_parse_opts(ctx, "status", argc, argv, NULL, pos, 0, &help);
	if (n < 0)
		return TC_EXIT_USAGE;
	if (help)
		return tc_help(ctx, "status");
	stats = tc_read_at(ctx, "stats", NULL);
	if (!stats) {
		e = errno;
		lsms = (e == ENOENT || e == ENOTDIR) ? tc_lsm_list(ctx) : NULL;
		if (lsms && !tc_lsm_named(lsms, "triage")) {
			rc = tc_status_no_triage(ctx, lsms);
			free(lsms);
			return rc;
		}
		free(lsms);
		return tc_sfs_fail(ctx, "stats", e, false);
	}
	tc_kernels_get(ctx, &kern);
	pol = tc_active_policy(ctx, &e);
	lsms = tc_lsm_list(ctx);
	major = tc_major_lsm(lsms);
	chain = tc_oom_chain(ctx);
	chain_errno = errno;
	in_chain = chain && tc_chain_has_triage(chain);
	lerr = tc_read_at(ctx, "load_error", NULL);
	lerr_errno = lerr ? 0 : errno;
	if (lerr)
		tc_chomp(lerr);
	if (!tc_stat(stats, "mode", mode, sizeof(mode))) {
		char *m = tc_read_at(ctx, "mode", NULL);

		snprintf(mode, sizeof(mode), "%s", m ? m : "unknown");
		tc_chomp(mode);
		free(m);
	}
	if (!tc_stat(stats, "policy_hash", hash, sizeof(hash)))
		strcpy(hash, "unknown");
	if (!tc_stat(stats, "policy_generation", gen, sizeof(gen)))
		strcpy(gen, "0");
	if (tc_stat(stats, "policy_load_time", v, sizeof(v)))
		ltime = strtoll(v, NULL, 10);
	/* no policy: the policy file is empty (older kernels: no load time) */
	loaded = pol || (e && e != ENOENT && ltime);
	tc_time_text(ltime, when, sizeof(when));
	tc_age(ltime, age, sizeof(age));
	ninert = tc_inert_rules(ctx, pol, &inert);
	tc_kernels_debian_newer(&kern, true, base, sizeof(base));
	tc_smack_get(ctx, pol, lsms, kern.running, &smack);
	/* as aa-status: not 0 when the policy cannot do all it says */
	rc = !loaded ? TC_EXIT_NOPOLICY : !in_chain ? TC_EXIT_NOCHAIN : TC_EXIT_OK;

	if (ctx->json) {
		FILE *f = ctx->out;
		bool first = true;

		tc_json_begin(ctx);
		fputs(",\"enabled\":true", f);
		tc_kernels_json(f, &kern);
		fputs(",\"lsm\":", f);
		tc_json_str_or_null(f, lsms);
		fputs(",\"major_lsm\":", f);
		tc_json_str_or_null(f, major);
		fprintf(f, ",\"smack\":{\"active\":%s,\"built\":%s,\"rules\":",
			smack.active ? "true" : "false",
			smack.built < 0 ? "null" : smack.built ? "true" : "false");
		if (pol || !loaded) {
			fputc('[', f);
			for (i = 0; i < smack.n; i++)
				fprintf(f, "%s%u", i ? "," : "", smack.rules[i]);
			fputs("]}", f);
		} else {
			fputs("null}", f);
		}
		fputs(",\"oom_policy\":", f);
		tc_json_str_or_null(f, chain);
		fprintf(f, ",\"triage_in_chain\":%s,\"mode\":",
			in_chain ? "true" : "false");
		tc_json_str(f, mode);
		fputs(",\"oom_select_hook\":", f);
		if (tc_stat(stats, "oom_select_hook", v, sizeof(v)))
			fputs(strcmp(v, "on") ? "false" : "true", f);
		else
			fputs("null", f);
		fprintf(f, ",\"policy_loaded\":%s", loaded ? "true" : "false");
		fputs(",\"policy_hash\":", f);
		tc_json_str_or_null(f, loaded ? hash : NULL);
		fprintf(f, ",\"policy_generation\":%s,\"policy_load_time\":",
			loaded && tc_is_number(gen) ? gen : "null");
		if (loaded && ltime)
			fprintf(f, "%lld", ltime);
		else
			fputs("null", f);
		fprintf(f, ",\"policy_rules\":%s",
			loaded && tc_stat(stats, "policy_rules", v, sizeof(v)) &&
			tc_is_number(v) ? v : "null");
		fputs(",\"load_error\":", f);
		if (lerr && *lerr)
			tc_json_str(f, lerr);
		else
			fputs("null", f);
		fputs(",\"counters\":{", f);
		for (p = stats; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			char key[64];
			const char *sp = strchr(p, ' '), *nl = strchr(p, '\n');

			if (!sp || (nl && sp > nl) || (size_t)(sp - p) >= sizeof(key))
				continue;
			memcpy(key, p, sp - p);
			key[sp - p] = '\0';
			if (tc_policy_key(key) ||
			    !tc_stat(stats, key, v, sizeof(v)))
				continue;
			fputs(first ? "" : ",", f);
			first = false;
			tc_json_str(f, key);
			fputc(':', f);
			tc_json_value(f, v);
		}
		fputs("},\"rule_hits\":[", f);
		for (i = 0, p = stats; (p = strstr(p, "rule ")); p++) {
			unsigned int rule;
			long hits;

			if ((p != stats && p[-1] != '\n') ||
			    sscanf(p, "rule %u hits %ld", &rule, &hits) != 2)
				continue;
			fprintf(f, "%s%ld", i++ ? "," : "", hits);
		}
		fputs("],\"inert_rules\":[", f);
		for (i = 0; i < ninert; i++) {
			fputs(i ? "," : "", f);
			tc_json_str(f, inert[i]);
		}
		/* the policy's pressure statements; null when it is unreadable */
		fputs(pol || !loaded ? "],\"pressure\":[" : "],\"pressure\":null", f);
		for (i = 0; pol && i < pol->nr_pressure; i++) {
			char *t = tc_pressure_text(pol, i);

			fputs(i ? "," : "", f);
			tc_json_str(f, t);
			free(t);
		}
		if (pol || !loaded)
			fputc(']', f);
		tc_json_end(ctx, rc, rc == TC_EXIT_NOPOLICY ? "no policy loaded" :
			    rc == TC_EXIT_NOCHAIN ? "triage is not in vm.oom_policy" : NULL);
	} else {
		FILE *f = ctx->out;

		fprintf(f, "%-22s enabled (%s)\n", "triage", tc_esc(ctx->root));
		if (kern.running)
			fprintf(f, "%-22s %s%s%s%s\n", "kernel", tc_esc(kern.running),
				kern.newer ? " (" : "", kern.newer ? tc_esc(kern.newer) : "",
				kern.newer ? " is installed: reboot to run it)" : "");
		if (kern.debian && kern.debian_newer >= 0)
			fprintf(f, "%-22s %s (%s): %s than %s, the running triage kernel's base\n",
				"Debian's kernel", tc_esc(kern.debian), kern.debian_version,
				kern.debian_newer ? "newer" : "not newer", base);
		fprintf(f, "%-22s %s", "LSM stack", lsms ? tc_esc(lsms) : "unknown");
		fprintf(f, " (major: %s)\n", major ? major : "none: every task is unlabelled");
		if (!smack.active && smack.n) {
			char list[200];

			tc_smack_rule_list(&smack, list, sizeof(list));
			fprintf(f, "%-22s not in the running kernel (%s); %s name%s labels no active LSM gives\n",
				"Smack", smack.built == 1 ? "built in, not enabled" :
				smack.built == 0 ? "not built in" : "no kernel config to tell if built in",
				list, smack.n == 1 ? "s" : "");
		}
		if (chain)
			fprintf(f, "%-22s %s%s\n", "OOM chain", tc_esc(chain),
				in_chain ? "" : "  (triage not in it: its OOM policy is not asked)");
		else
			fprintf(f, "%-22s unknown (%s)\n", "OOM chain",
				strerror(chain_errno));
		fprintf(f, "%-22s %s\n", "mode", mode);
		if (tc_stat(stats, "oom_select_hook", v, sizeof(v)))
			fprintf(f, "%-22s %s\n", "oom_select hook",
				strcmp(v, "on") ? "off: no LSM has a verdict to give, OOMs run the stock code" :
				"on: the OOM killer asks the LSMs about every candidate");
		if (loaded) {
			if (tc_stat(stats, "policy_rules", v, sizeof(v)))
				fprintf(f, "%-22s %s, %s rule%s, generation %s\n",
					"policy", hash, v, strcmp(v, "1") ? "s" : "", gen);
			else
				fprintf(f, "%-22s %s, generation %s\n", "policy", hash, gen);
			if (ltime)
				fprintf(f, "%-22s %s (%s)\n", "policy loaded", when, age);
		} else {
			fprintf(f, "%-22s none loaded: every OOM is decided as without triage (triagectl load /etc/triage/policy)\n",
				"policy");
		}
		if (lerr && *lerr)
			fprintf(f, "%-22s %s\n", "last refused load", tc_esc(lerr));
		for (i = 0; i < ninert; i++)
			fprintf(f, "%-22s %s\n", i ? "" : "inert rules", inert[i]);
		for (i = 0; pol && i < pol->nr_pressure; i++) {
			char *t = tc_pressure_text(pol, i);

			fprintf(f, "%-22s %zu: %s\n", i ? "" : "early action",
				i + 1, t);
			free(t);
		}
		fputs("counters:\n", f);
		for (p = stats; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
			char key[64];
			const char *sp = strchr(p, ' '), *nl = strchr(p, '\n');
			size_t k;

			if (!sp || (nl && sp > nl) || (size_t)(sp - p) >= sizeof(key))
				continue;
			memcpy(key, p, sp - p);
			key[sp - p] = '\0';
			if (tc_policy_key(key) || !tc_stat(stats, key, v, sizeof(v)))
				continue;
			for (k = 0; k < TC_NCOUNTERS; k++)
				if (!strcmp(key, tc_counters[k].key))
					break;
			if (k < TC_NCOUNTERS) {
				fprintf(f, "  %-22s %s\n", tc_counters[k].title, tc_esc(v));
			} else {
				for (k = 0; key[k]; k++)
					if (key[k] == '_')
						key[k] = ' ';
				fprintf(f, "  %-22s %s\n", tc_esc(key), tc_esc(v));
			}
		}
		for (i = 0, p = stats; (p = strstr(p, "rule ")); p++) {
			unsigned int rule;
			long hits;

			if ((p != stats && p[-1] != '\n') ||
			    sscanf(p, "rule %u hits %ld", &rule, &hits) != 2)
				continue;
			if (!i++)
				fputs("rule hits:\n", f);
			if (pol && rule >= 1 && rule <= pol->nr_rules) {
				char *t = tc_rule_text(pol, rule - 1);

				fprintf(f, "  %4u  %8ld  %s\n", rule, hits, t);
				free(t);
			} else {
				fprintf(f, "  %4u  %8ld\n", rule, hits);
			}
		}
	}
	errno = chain_errno;
	tc_chain_warning(ctx, chain, mode);
	if (kern.debian_newer == 1 && ctx->verbosity >= 0)
		fprintf(ctx->err,
			"triagectl: warning: Debian's kernel %s (%s) is newer than %s, the base of the running triage kernel %s: Debian's fixes since are not in the running kernel; rebuild the triage kernel from Debian's newer source (triage-kernel-update on the build machine, or make kernel-deb), install it and reboot\n",
			tc_esc(kern.debian), kern.debian_version, base,
			tc_esc(kern.running));
	tc_smack_warning(ctx, &smack, pol, lsms);
	if (pol && pol->nr_pressure && !tc_have_psi(ctx->proc) &&
	    ctx->verbosity >= 0)
		fputs("triagectl: warning: " TC_NO_PSI "\n", ctx->err);
	/* stats and mode are for anybody; the policy and load_error are not */
	if (!pol && e && e != ENOENT && ctx->verbosity >= 0)
		fprintf(ctx->err, "triagectl: note: %s: the rules' texts and inert rules are not shown\n",
			e == EPERM || e == EACCES ?
			"reading the policy needs CAP_MAC_ADMIN (run as root)" :
			e == EINVAL ? "the policy in force does not parse with this triagectl's parser (an older triagectl?)" :
			strerror(e));
	if (!lerr && lerr_errno != ENOENT && ctx->verbosity >= 0)
		fprintf(ctx->err, "triagectl: note: %s: the reason of the last refused load is not shown\n",
			lerr_errno == EPERM || lerr_errno == EACCES ?
			"reading load_error needs CAP_MAC_ADMIN (run as root)" :
			strerror(lerr_errno));
	if (ctx->verbosity >= 0 && tc_stat(stats, "audit_drops", v, sizeof(v)) &&
	    strtoll(v, NULL, 10) > 0)
		fprintf(ctx->err, "triagectl: warning: %s decision audit records were dropped (audit backlog full?): the audit log misses them\n",
			v);
	for (i = 0; i < ninert; i++)
		free(inert[i]);
	free(inert);
	free(lerr);
	free(chain);
	free(lsms);
	tc_kernels_free(&kern);
	free(smack.rules);
	triage_policy_free(pol);
	free(stats);
	return rc;
}

/* ------------------------------------------------------------ mode */

int tc_cmd_mode(struct tc_ctx *ctx, int argc, char **argv)
{
	char *pos[1], *cur, *chain;
	bool help;
	ssize_t w;
	int n, e;

	n = tc_parse_opts(ctx, "mode", argc, argv, NULL, pos, 1, &help);
	if (n < 0)
		return TC_EXIT_USAGE;
	if (help)
		return tc_help(ctx, "mode");
	if (n == 1 && strcmp(pos[0], "enforce") && strcmp(pos[0], "permissive"))
		return tc_usage_error(ctx, "'%s' is not enforce or permissive",
				      tc_esc(pos[0]));
	cur = tc_read_at(ctx, "mode", NULL);
	if (!cur)
		return tc_sfs_fail(ctx, "mode", errno, false);
	tc_chomp(cur);
	if (n == 1) {
		w = tc_write_at(ctx, "mode", pos[0], strlen(pos[0]), write);
		e = errno;
		if (w != (ssize_t)strlen(pos[0])) {
			free(cur);
			if (e == EPERM)
				return tc_fail(ctx, TC_EXIT_PERM,
					       "setting the mode needs CAP_MAC_ADMIN (run as root)");
			if (e == EACCES || e == ENOENT)
				return tc_sfs_fail(ctx, "mode", e, true);
			return tc_fail(ctx, TC_EXIT_REFUSED,
				       "the kernel refused mode %s: %s",
				       pos[0], w < 0 ? strerror(e) : "short write");
		}
	}
	if (ctx->json) {
		tc_json_begin(ctx);
		fputs(",\"mode\":", ctx->out);
		tc_json_str(ctx->out, n ? pos[0] : cur);
		fputs(",\"previous\":", ctx->out);
		tc_json_str_or_null(ctx->out, n ? cur : NULL);
		tc_json_end(ctx, TC_EXIT_OK, NULL);
	} else if (n) {
		fprintf(ctx->out, "mode %s (was %s)\n", pos[0], tc_esc(cur));
	} else {
		fprintf(ctx->out, "%s\n", tc_esc(cur));
	}
	chain = tc_oom_chain(ctx);
	tc_chain_warning(ctx, chain, n ? pos[0] : cur);
	free(chain);
	free(cur);
	return TC_EXIT_OK;
}
