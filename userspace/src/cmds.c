// SPDX-License-Identifier: GPL-2.0
/* triagectl: the commands that talk to /sys/kernel/security/triage. */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <selinux/selinux.h>

#include "triagectl.h"

#define TC_SECURITYFS_MAGIC 0x73636673

/* ------------------------------------------------------------ helpers */

static void tc_sfs_error(struct tc_ctx *ctx, const char *name)
{
	int e = errno;

	fprintf(ctx->err, "triagectl: cannot read %s/%s: %s%s\n", ctx->root,
		name, strerror(e),
		e == ENOENT ? " (is the triage LSM enabled? lsm= must list triage)" :
		e == EACCES || e == EPERM ? " (run as root)" : "");
}

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

	fd = open(path, O_WRONLY | O_CLOEXEC);
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
static const char *tc_stat(char *stats, const char *key, char *buf, size_t n)
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

/* The active policy, parsed by the kernel's parser; NULL if unreadable. */
static struct triage_policy *tc_active_policy(struct tc_ctx *ctx, int *err)
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
	if (triage_policy_parse(text, len, &p, &perr)) {
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

static void tc_json_value(FILE *f, const char *s)
{
	if (tc_is_number(s) && *s != '+')
		fputs(s, f);
	else if (!strcmp(s, "-"))
		fputs("null", f);
	else
		tc_json_str(f, s);
}

/* ------------------------------------------------------------ check */

/*
 * Open the SELinux policy to check against: @given, else the loaded
 * one when SELinux is enabled.  *s stays NULL, with a note, when there
 * is nothing to check against.  Returns false after an error.
 */
static bool tc_open_selinux(struct tc_ctx *ctx, const char *file,
			    const char *given, bool none,
			    struct tc_sepol **s, const char **used)
{
	char why[128];
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
		    access(TC_SELINUX_POLICY, R_OK) != 0) {
			if (!ctx->json)
				fprintf(ctx->err,
					"%s: note: SELinux is not enabled and no --selinux-policy was given; SELinux names are not checked\n",
					file);
			return true;
		}
		path = selinux_current_policy_path();
		if (!path)
			path = TC_SELINUX_POLICY;
	}
	*s = tc_sepol_open(path, why, sizeof(why));
	if (!*s) {
		fprintf(ctx->err, "triagectl: cannot read SELinux policy %s: %s\n",
			path, why);
		return false;
	}
	*used = path;
	return true;
}

/*
 * Read, parse and check a policy file.  Prints the diagnostics; returns
 * the text (NULL after an error that stops everything: unreadable file,
 * unreadable SELinux policy).
 */
static char *tc_check_file(struct tc_ctx *ctx, const char *file,
			   const char *selpath, bool nosel, bool print_json,
			   size_t *len, struct tc_check *res)
{
	struct tc_sepol *s;
	const char *used;
	char *text;

	memset(res, 0, sizeof(*res));
	text = tc_read_file(file, TRIAGE_POLICY_MAX_SIZE, len);
	if (!text) {
		fprintf(ctx->err, "triagectl: cannot read %s: %s\n", file,
			strerror(errno));
		return NULL;
	}
	if (!tc_open_selinux(ctx, file, selpath, nosel, &s, &used)) {
		free(text);
		return NULL;
	}
	tc_check_text(text, *len, s, res);
	tc_check_print(ctx->err, file, res);
	if (print_json)
		tc_check_json(ctx->out, file, used, res);
	tc_sepol_close(s);
	return text;
}

int tc_cmd_check(struct tc_ctx *ctx, int argc, char **argv)
{
	const char *selpath = NULL;
	bool nosel = false, help;
	const struct tc_opt opts[] = {
		{ "--selinux-policy", true, &selpath, NULL },
		{ "--no-selinux", false, NULL, &nosel },
		{ NULL, false, NULL, NULL },
	};
	struct tc_check res;
	char *pos[1], *text;
	size_t len;
	int n;

	n = tc_parse_opts(ctx, "check", argc, argv, opts, pos, 1, &help);
	if (n < 0)
		return tc_usage(ctx, "check", true);
	if (help)
		return tc_usage(ctx, "check", false);
	if (n != 1 || (selpath && nosel))
		return tc_usage(ctx, "check", true);
	text = tc_check_file(ctx, pos[0], selpath, nosel, ctx->json, &len,
			     &res);
	if (!text)
		return TC_EXIT_ERROR;
	free(text);
	n = res.errors ? TC_EXIT_ERROR : TC_EXIT_OK;
	if (!ctx->json) {
		if (res.errors)
			fprintf(ctx->err, "%s: %u error%s, %u warning%s\n",
				pos[0], res.errors, res.errors == 1 ? "" : "s",
				res.warnings, res.warnings == 1 ? "" : "s");
		else
			fprintf(ctx->out, "%s: ok, %u rule%s, %u warning%s\n",
				pos[0], res.policy->nr_rules,
				res.policy->nr_rules == 1 ? "" : "s",
				res.warnings, res.warnings == 1 ? "" : "s");
	}
	tc_check_free(&res);
	return n;
}

/* ------------------------------------------------------------ load */

struct tc_diff {
	char **added, **removed;
	size_t nadded, nremoved;
	const char *setting[3][2];	/* name -> old, new (changed only) */
	bool reordered;
};

/* Rules added and removed, by canonical text (a multiset difference). */
static void tc_diff(char **old, size_t nold, char **new, size_t nnew,
		    struct tc_diff *d)
{
	bool *used = calloc(nnew + 1, 1);
	size_t i, j, k = 0;

	memset(d, 0, sizeof(*d));
	d->added = tc_xmalloc((nnew + 1) * sizeof(char *));
	d->removed = tc_xmalloc((nold + 1) * sizeof(char *));
	for (i = 0; i < 3 && i < nold && i < nnew; i++)
		if (strcmp(old[i], new[i])) {
			d->setting[i][0] = old[i];
			d->setting[i][1] = new[i];
		}
	for (i = 3; i < nold; i++) {
		for (j = 3; j < nnew; j++)
			if (!used[j] && !strcmp(old[i], new[j]))
				break;
		if (j < nnew)
			used[j] = true;
		else
			d->removed[d->nremoved++] = old[i];
	}
	for (j = 3; j < nnew; j++)
		if (!used[j])
			d->added[d->nadded++] = new[j];
	if (!d->nadded && !d->nremoved)
		for (i = 3; i < nold && i < nnew; i++)
			if (strcmp(old[i], new[i]))
				k++;
	d->reordered = k > 0;
	free(used);
}

static void tc_load_refused(struct tc_ctx *ctx, const char *file, int e)
{
	char *why;
	unsigned int line, col;
	int off = 0;

	if (e == EINVAL) {
		why = tc_read_at(ctx, "load_error", NULL);
		if (why) {
			tc_chomp(why);
			if (sscanf(why, "%u:%u: %n", &line, &col, &off) == 2 &&
			    off > 0)
				fprintf(ctx->err, "%s:%u:%u: error: %s (refused by the kernel)\n",
					file, line, col, why + off);
			else if (*why)
				fprintf(ctx->err, "%s: error: %s (refused by the kernel)\n",
					file, why);
			else
				fprintf(ctx->err, "%s: error: the kernel refused the policy (no reason in load_error)\n",
					file);
			free(why);
			return;
		}
	}
	fprintf(ctx->err, "%s: error: the kernel refused the policy: %s%s\n",
		file, strerror(e),
		e == EPERM || e == EACCES ? " (loading needs CAP_MAC_ADMIN)" :
		e == E2BIG ? " (larger than 64 KiB)" :
		e == ENOENT ? " (is the triage LSM enabled?)" : "");
}

int tc_cmd_load(struct tc_ctx *ctx, int argc, char **argv)
{
	const char *selpath = NULL;
	bool nosel = false, force = false, help;
	const struct tc_opt opts[] = {
		{ "--selinux-policy", true, &selpath, NULL },
		{ "--no-selinux", false, NULL, &nosel },
		{ "--force", false, NULL, &force },
		{ NULL, false, NULL, NULL },
	};
	struct triage_policy *old;
	char **oldl = NULL, **newl, *pos[1], *text, *stats, hash[40], gen[24];
	size_t len, nold = 0, nnew, i;
	struct tc_check res;
	struct tc_diff d;
	int n, e, rc = TC_EXIT_ERROR;
	ssize_t w;

	n = tc_parse_opts(ctx, "load", argc, argv, opts, pos, 1, &help);
	if (n < 0)
		return tc_usage(ctx, "load", true);
	if (help)
		return tc_usage(ctx, "load", false);
	if (n != 1 || (selpath && nosel))
		return tc_usage(ctx, "load", true);
	text = tc_check_file(ctx, pos[0], selpath, nosel, false, &len, &res);
	if (!text)
		return TC_EXIT_ERROR;
	if (res.syntax_error || (res.errors && !force)) {
		fprintf(ctx->err, "%s: not loaded: %u error%s%s\n", pos[0],
			res.errors, res.errors == 1 ? "" : "s",
			res.syntax_error ? "" :
			" (--force loads despite SELinux name errors)");
		goto out;
	}

	old = tc_active_policy(ctx, &e);
	if (old) {
		oldl = tc_canonical_lines(old, &nold);
		triage_policy_free(old);
	} else if (e != ENOENT) {
		fprintf(ctx->err, "triagectl: note: cannot read the previous policy (%s); changes not shown\n",
			strerror(e));
	}

	w = tc_write_at(ctx, "policy", text, len, ctx->write_policy);
	e = errno;
	if (w < 0) {
		tc_load_refused(ctx, pos[0], e);
		goto out_old;
	}
	if ((size_t)w != len) {
		fprintf(ctx->err, "%s: error: short write (%zd of %zu bytes); the kernel kept the old policy\n",
			pos[0], w, len);
		goto out_old;
	}

	newl = tc_canonical_lines(res.policy, &nnew);
	if (oldl)
		tc_diff(oldl, nold, newl, nnew, &d);
	else
		tc_diff(newl, 3, newl, nnew, &d);
	stats = tc_read_at(ctx, "stats", NULL);
	if (!stats || !tc_stat(stats, "policy_hash", hash, sizeof(hash)))
		strcpy(hash, "unknown");
	if (!stats || !tc_stat(stats, "policy_generation", gen, sizeof(gen)))
		strcpy(gen, "?");
	free(stats);

	if (ctx->json) {
		FILE *f = ctx->out;

		fputs("{\"loaded\":true,\"file\":", f);
		tc_json_str(f, pos[0]);
		fprintf(f, ",\"rules\":%u,\"hash\":", res.policy->nr_rules);
		tc_json_str(f, hash);
		fputs(",\"generation\":", f);
		tc_json_value(f, gen);
		fprintf(f, ",\"warnings\":%u,\"errors\":%u,\"settings\":{",
			res.warnings, res.errors);
		for (n = 0, i = 0; i < 3; i++) {
			if (!d.setting[i][0])
				continue;
			fprintf(f, "%s", n++ ? "," : "");
			tc_json_str(f, d.setting[i][1]);
			fputs(":", f);
			tc_json_str(f, d.setting[i][0]);
		}
		fputs("},\"added\":[", f);
		for (i = 0; i < d.nadded; i++) {
			fputs(i ? "," : "", f);
			tc_json_str(f, d.added[i]);
		}
		fputs("],\"removed\":[", f);
		for (i = 0; i < d.nremoved; i++) {
			fputs(i ? "," : "", f);
			tc_json_str(f, d.removed[i]);
		}
		fprintf(f, "],\"reordered\":%s}\n",
			d.reordered ? "true" : "false");
	} else {
		FILE *f = ctx->out;

		fprintf(f, "loaded %s: %u rule%s, hash %s, generation %s\n",
			pos[0], res.policy->nr_rules,
			res.policy->nr_rules == 1 ? "" : "s", hash, gen);
		for (i = 0; i < 3; i++)
			if (d.setting[i][0])
				fprintf(f, "  ~ %s (was: %s)\n", d.setting[i][1],
					d.setting[i][0]);
		for (i = 0; i < d.nremoved; i++)
			fprintf(f, "  - %s\n", d.removed[i]);
		for (i = 0; i < d.nadded; i++)
			fprintf(f, "  + %s\n", d.added[i]);
		if (d.reordered)
			fputs("  rules reordered (first match wins: this can change verdicts)\n",
			      f);
		if (!d.nadded && !d.nremoved && !d.reordered &&
		    !d.setting[0][0] && !d.setting[1][0] && !d.setting[2][0])
			fputs("  no change\n", f);
	}
	free(d.added);
	free(d.removed);
	tc_free_lines(newl, nnew);
	rc = TC_EXIT_OK;
out_old:
	if (oldl)
		tc_free_lines(oldl, nold);
out:
	free(text);
	tc_check_free(&res);
	return rc;
}

/* ------------------------------------------------------------ status */

static const struct {
	const char *key, *title;
} tc_stat_titles[] = {
	{ "mode", "mode" },
	{ "policy_generation", "policy generation" },
	{ "policy_hash", "policy hash" },
	{ "policy_load_time", "policy loaded" },
	{ "policy_rules", "policy rules" },
	{ "oom_events", "OOM events" },
	{ "victims", "victims" },
	{ "protected_skipped", "protected skipped" },
	{ "sacrificed", "sacrificed" },
	{ "adjusted", "adjusted" },
	{ "label_misses", "label misses" },
	{ "fallbacks", "fallbacks" },
	{ "selection_ns_last", "last selection (ns)" },
	{ "selection_ns_max", "max selection (ns)" },
};

int tc_cmd_status(struct tc_ctx *ctx, int argc, char **argv)
{
	struct triage_policy *pol;
	char *stats, *line, *save = NULL, *pos[1];
	bool help, first = true;
	size_t i;
	int n, e;

	n = tc_parse_opts(ctx, "status", argc, argv, NULL, pos, 0, &help);
	if (n < 0)
		return tc_usage(ctx, "status", true);
	if (help)
		return tc_usage(ctx, "status", false);
	stats = tc_read_at(ctx, "stats", NULL);
	if (!stats) {
		tc_sfs_error(ctx, "stats");
		return TC_EXIT_ERROR;
	}
	pol = tc_active_policy(ctx, &e);

	if (ctx->json)
		fputs("{", ctx->out);
	for (line = strtok_r(stats, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *v = strchr(line, ' ');
		unsigned int rule;
		long hits;

		if (!v)
			continue;
		*v++ = '\0';
		if (!strcmp(line, "rule")) {
			if (sscanf(v, "%u hits %ld", &rule, &hits) != 2)
				continue;
			if (ctx->json) {
				fprintf(ctx->out, "%s\"rule_%u_hits\":%ld",
					first ? "" : ",", rule, hits);
				first = false;
				continue;
			}
			if (rule == 1)
				fputs("rule hits:\n", ctx->out);
			if (pol && rule >= 1 && rule <= pol->nr_rules) {
				char *t = tc_rule_text(pol, rule - 1);

				fprintf(ctx->out, "  %4u  %8ld  %s\n", rule, hits,
					t);
				free(t);
			} else {
				fprintf(ctx->out, "  %4u  %8ld\n", rule, hits);
			}
			continue;
		}
		if (ctx->json) {
			fputs(first ? "" : ",", ctx->out);
			tc_json_str(ctx->out, line);
			fputc(':', ctx->out);
			if (!strcmp(line, "policy_hash"))
				tc_json_str(ctx->out, v);
			else
				tc_json_value(ctx->out, v);
			first = false;
			continue;
		}
		for (i = 0; i < sizeof(tc_stat_titles) / sizeof(tc_stat_titles[0]); i++)
			if (!strcmp(line, tc_stat_titles[i].key))
				break;
		fprintf(ctx->out, "%-20s ",
			i < sizeof(tc_stat_titles) / sizeof(tc_stat_titles[0]) ?
			tc_stat_titles[i].title : line);
		if (!strcmp(line, "policy_load_time")) {
			time_t t = strtoll(v, NULL, 10);
			char when[64];
			struct tm tm;

			if (!t || !gmtime_r(&t, &tm) ||
			    !strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm))
				fprintf(ctx->out, "%s\n", t ? v : "never");
			else
				fprintf(ctx->out, "%s (%s)\n", when, v);
		} else {
			fprintf(ctx->out, "%s\n", v);
		}
	}
	if (ctx->json)
		fputs("}\n", ctx->out);
	triage_policy_free(pol);
	free(stats);
	return TC_EXIT_OK;
}

/* ------------------------------------------------------------ mode */

int tc_cmd_mode(struct tc_ctx *ctx, int argc, char **argv)
{
	char *pos[1], *cur;
	bool help;
	ssize_t w;
	int n, e;

	n = tc_parse_opts(ctx, "mode", argc, argv, NULL, pos, 1, &help);
	if (n < 0)
		return tc_usage(ctx, "mode", true);
	if (help)
		return tc_usage(ctx, "mode", false);
	if (n == 1 && strcmp(pos[0], "enforce") && strcmp(pos[0], "permissive")) {
		fprintf(ctx->err, "triagectl mode: '%s' is not enforce or permissive\n",
			pos[0]);
		return TC_EXIT_USAGE;
	}
	cur = tc_read_at(ctx, "mode", NULL);
	if (!cur) {
		tc_sfs_error(ctx, "mode");
		return TC_EXIT_ERROR;
	}
	tc_chomp(cur);
	if (n == 1) {
		w = tc_write_at(ctx, "mode", pos[0], strlen(pos[0]), write);
		e = errno;
		if (w != (ssize_t)strlen(pos[0])) {
			fprintf(ctx->err, "triagectl mode: cannot set %s: %s%s\n",
				pos[0], strerror(e),
				e == EPERM || e == EACCES ?
				" (needs CAP_MAC_ADMIN)" : "");
			free(cur);
			return TC_EXIT_ERROR;
		}
	}
	if (ctx->json) {
		fputs("{\"mode\":", ctx->out);
		tc_json_str(ctx->out, n ? pos[0] : cur);
		if (n) {
			fputs(",\"previous\":", ctx->out);
			tc_json_str(ctx->out, cur);
		}
		fputs("}\n", ctx->out);
	} else if (n) {
		fprintf(ctx->out, "mode %s (was %s)\n", pos[0], cur);
	} else {
		fprintf(ctx->out, "%s\n", cur);
	}
	free(cur);
	return TC_EXIT_OK;
}

/* ------------------------------------------------------------ rank */

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

static void tc_json_row(FILE *f, const struct tc_table *t, size_t r,
			const char *extra_key, const char *extra)
{
	unsigned int c;

	fputc('{', f);
	for (c = 0; c < t->ncols; c++) {
		fputs(c ? "," : "", f);
		tc_json_str(f, t->head[c]);
		fputc(':', f);
		if (!strcmp(t->head[c], "label") || !strcmp(t->head[c], "comm") ||
		    !strcmp(t->head[c], "time"))
			tc_json_str(f, t->rows[r][c]);
		else
			tc_json_value(f, t->rows[r][c]);
	}
	if (extra_key) {
		fputc(',', f);
		tc_json_str(f, extra_key);
		fputc(':', f);
		tc_json_str(f, extra);
	}
	fputc('}', f);
}

int tc_cmd_rank(struct tc_ctx *ctx, int argc, char **argv)
{
	static const char *const cols[] = {
		"rank", "pid", "points", "verdict", "rule", "comm", "label",
	};
	static const char *const head[] = {
		"RANK", "PID", "POINTS", "VERDICT", "RULE", "COMM", "LABEL", "WHY",
	};
	struct triage_policy *pol;
	const char ***rows;
	struct tc_table t;
	char *text, *pos[1], **why;
	bool help;
	size_t r;
	int n, e;
	unsigned int c;

	n = tc_parse_opts(ctx, "rank", argc, argv, NULL, pos, 0, &help);
	if (n < 0)
		return tc_usage(ctx, "rank", true);
	if (help)
		return tc_usage(ctx, "rank", false);
	text = tc_read_at(ctx, "ranking", NULL);
	if (!text) {
		tc_sfs_error(ctx, "ranking");
		return TC_EXIT_ERROR;
	}
	if (tc_table_parse(text, &t)) {
		fprintf(ctx->err, "triagectl: %s/ranking: no '#' header line\n",
			ctx->root);
		tc_table_free(&t);
		return TC_EXIT_ERROR;
	}
	pol = tc_active_policy(ctx, &e);
	why = tc_xmalloc((t.nrows + 1) * sizeof(*why));
	for (r = 0; r < t.nrows; r++)
		why[r] = tc_why(pol, tc_table_get(&t, r, "rule"));
	if (ctx->json) {
		fputc('[', ctx->out);
		for (r = 0; r < t.nrows; r++) {
			fputs(r ? ",\n" : "", ctx->out);
			tc_json_row(ctx->out, &t, r, "why", why[r]);
		}
		fputs("]\n", ctx->out);
	} else {
		rows = tc_xmalloc((t.nrows + 1) * sizeof(*rows));
		for (r = 0; r < t.nrows; r++) {
			rows[r] = tc_xmalloc(8 * sizeof(char *));
			for (c = 0; c < 7; c++)
				rows[r][c] = tc_table_get(&t, r, cols[c]);
			rows[r][7] = why[r];
		}
		tc_table_print(ctx->out, head, 8,
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

static char *tc_proc_read(struct tc_ctx *ctx, const char *pid, const char *f)
{
	char *dir = tc_path(ctx->proc, pid), *path = tc_path(dir, f);
	char *text = tc_read_file(path, 4096, NULL);
	int e = errno;

	free(dir);
	free(path);
	if (text) {
		/* attr/current may end in NUL and/or newline */
		text[strcspn(text, "\n")] = '\0';
	}
	errno = e;
	return text;
}

/* The matcher that names this label best, for a suggested rule. */
static char *tc_suggest_matcher(const char *label)
{
	const char *a = strchr(label, ':'), *b = a ? strchr(a + 1, ':') : NULL;
	size_t n = strlen(label) + 16;
	char *s = tc_xmalloc(n + strlen(label));

	if (b) {
		const char *t = b + 1, *e = strchr(t, ':');

		snprintf(s, n, "type=%.*s", (int)(e ? e - t : (long)strlen(t)), t);
		return s;
	}
	/* quote, escaping \ " and glob characters */
	{
		char *o = s;
		const char *p;

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
	}
	return s;
}

int tc_cmd_explain(struct tc_ctx *ctx, int argc, char **argv)
{
	struct triage_policy *pol;
	char *pos[1], *label, *comm, *rtext = NULL, *end, *text, *sugg;
	const char *verdict = "none", *krank = NULL, *kpoints = NULL;
	const char *kverdict = NULL, *krule = NULL;
	struct tc_table t = { 0 };
	char change[600], want[16];
	bool help;
	int n, e, idx = -1;
	size_t r;
	long pid;

	n = tc_parse_opts(ctx, "explain", argc, argv, NULL, pos, 1, &help);
	if (n < 0)
		return tc_usage(ctx, "explain", true);
	if (help)
		return tc_usage(ctx, "explain", false);
	if (n != 1)
		return tc_usage(ctx, "explain", true);
	pid = strtol(pos[0], &end, 10);
	if (*end || pid <= 0) {
		fprintf(ctx->err, "triagectl explain: '%s' is not a PID\n", pos[0]);
		return TC_EXIT_USAGE;
	}
	label = tc_proc_read(ctx, pos[0], "attr/current");
	if (!label) {
		fprintf(ctx->err, "triagectl explain: cannot read the label of %s: %s\n",
			pos[0], strerror(errno));
		return TC_EXIT_ERROR;
	}
	comm = tc_proc_read(ctx, pos[0], "comm");
	pol = tc_active_policy(ctx, &e);
	if (!pol) {
		fprintf(ctx->err, "triagectl explain: cannot read the active policy: %s\n",
			strerror(e));
		free(label);
		free(comm);
		return TC_EXIT_ERROR;
	}
	idx = triage_policy_match(pol, label);
	if (idx >= 0) {
		rtext = tc_rule_text(pol, idx);
		verdict = triage_verdict_name(pol->rules[idx].verdict);
	}
	text = tc_read_at(ctx, "ranking", NULL);
	if (text && !tc_table_parse(text, &t)) {
		for (r = 0; r < t.nrows; r++)
			if (!strcmp(tc_table_get(&t, r, "pid"), pos[0]))
				break;
		if (r < t.nrows) {
			krank = tc_table_get(&t, r, "rank");
			kpoints = tc_table_get(&t, r, "points");
			kverdict = tc_table_get(&t, r, "verdict");
			krule = tc_table_get(&t, r, "rule");
		}
	}

	sugg = tc_suggest_matcher(label);
	if (idx < 0)
		snprintf(change, sizeof(change),
			 "no rule matches, so the kernel's usual badness decides; add `protect %s` to protect it, or `sacrifice %s` to make it die first",
			 sugg, sugg);
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

		fprintf(f, "{\"pid\":%ld,\"comm\":", pid);
		tc_json_str(f, comm ? comm : "");
		fputs(",\"label\":", f);
		tc_json_str(f, label);
		if (idx >= 0) {
			fprintf(f, ",\"rule\":%d,\"rule_text\":", idx + 1);
			tc_json_str(f, rtext);
		} else {
			fputs(",\"rule\":null,\"rule_text\":null", f);
		}
		fputs(",\"verdict\":", f);
		tc_json_str(f, verdict);
		fputs(",\"candidate\":", f);
		fputs(krank ? "true" : "false", f);
		if (krank) {
			fputs(",\"rank\":", f);
			tc_json_value(f, krank);
			fputs(",\"points\":", f);
			tc_json_value(f, kpoints);
			fputs(",\"kernel_verdict\":", f);
			tc_json_str(f, kverdict);
			fputs(",\"kernel_rule\":", f);
			tc_json_value(f, krule);
		}
		fputs(",\"change\":", f);
		tc_json_str(f, change);
		fputs("}\n", f);
	} else {
		FILE *f = ctx->out;

		fprintf(f, "pid      %ld (%s)\n", pid, comm ? comm : "?");
		fprintf(f, "label    %s\n", label);
		if (idx >= 0)
			fprintf(f, "rule     %d: %s\n", idx + 1, rtext);
		else
			fprintf(f, "rule     none matches\n");
		fprintf(f, "verdict  %s\n", verdict);
		if (krank && !strcmp(krank, "-"))
			fprintf(f, "ranking  protected: never chosen (listed last, %zu candidates)\n",
				t.nrows);
		else if (krank)
			fprintf(f, "ranking  %s of %zu%s, %s points\n", krank,
				t.nrows, !strcmp(krank, "1") ? " (dies first)" : "",
				kpoints);
		else
			fprintf(f, "ranking  not a candidate (kernel thread, exiting, or not in the ranking)\n");
		snprintf(want, sizeof(want), "%d", idx + 1);
		if (krank && strcmp(krule, idx < 0 ? "-" : want))
			fprintf(f, "note     the kernel's ranking says rule %s, verdict %s (the label or policy changed since?)\n",
				krule, kverdict);
		fprintf(f, "change   %s\n", change);
	}
	free(sugg);
	free(rtext);
	tc_table_free(&t);
	triage_policy_free(pol);
	free(label);
	free(comm);
	return TC_EXIT_OK;
}

/* ------------------------------------------------------------ log */

static void tc_log_rows(struct tc_ctx *ctx, const struct tc_table *t,
			unsigned long long after, bool header,
			unsigned long long *last)
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
	size_t r, n = 0;
	unsigned int c;

	for (r = 0; r < t->nrows; r++) {
		unsigned long long seq = strtoull(tc_table_get(t, r, "seq"),
						  NULL, 10);
		time_t sec;
		struct tm tm;

		if (seq <= after && after)
			continue;
		if (seq > *last)
			*last = seq;
		if (ctx->json) {
			tc_json_row(ctx->out, t, r, NULL, NULL);
			fputc('\n', ctx->out);
			continue;
		}
		sec = strtoll(tc_table_get(t, r, "time"), NULL, 10);
		if (!gmtime_r(&sec, &tm) ||
		    !strftime(when[n], sizeof(when[n]), "%Y-%m-%dT%H:%M:%SZ", &tm))
			snprintf(when[n], sizeof(when[n]), "%s",
				 tc_table_get(t, r, "time"));
		rows[n] = tc_xmalloc(11 * sizeof(char *));
		for (c = 0; c < 11; c++)
			rows[n][c] = c == 1 ? when[n] : tc_table_get(t, r, cols[c]);
		n++;
	}
	if (!ctx->json && (n || header))
		tc_table_print(ctx->out, header ? head : NULL, 11,
			       (const char *const *const *)rows, n);
	for (r = 0; r < n; r++)
		free(rows[r]);
	free(rows);
	free(when);
	fflush(ctx->out);
}

static int tc_read_decisions(struct tc_ctx *ctx, struct tc_table *t)
{
	char *text = tc_read_at(ctx, "decisions", NULL);

	if (!text) {
		tc_sfs_error(ctx, "decisions");
		return -1;
	}
	if (tc_table_parse(text, t)) {
		fprintf(ctx->err, "triagectl: %s/decisions: no '#' header line\n",
			ctx->root);
		tc_table_free(t);
		return -1;
	}
	return 0;
}

int tc_cmd_log(struct tc_ctx *ctx, int argc, char **argv)
{
	bool follow = false, help;
	const struct tc_opt opts[] = {
		{ "--follow", false, NULL, &follow },
		{ NULL, false, NULL, NULL },
	};
	unsigned long long last = 0;
	struct tc_table t;
	unsigned int polls = 0;
	char *pos[1];
	int n;

	n = tc_parse_opts(ctx, "log", argc, argv, opts, pos, 0, &help);
	if (n < 0)
		return tc_usage(ctx, "log", true);
	if (help)
		return tc_usage(ctx, "log", false);
	if (tc_read_decisions(ctx, &t))
		return TC_EXIT_ERROR;
	if (ctx->json && !follow) {
		size_t r;

		fputc('[', ctx->out);
		for (r = 0; r < t.nrows; r++) {
			fputs(r ? ",\n" : "", ctx->out);
			tc_json_row(ctx->out, &t, r, NULL, NULL);
		}
		fputs("]\n", ctx->out);
		tc_table_free(&t);
		return TC_EXIT_OK;
	}
	if (!ctx->json && !follow && !t.nrows)
		fputs("(no decisions yet)\n", ctx->out);
	/* with --follow, JSON is one object per line (JSON Lines) */
	tc_log_rows(ctx, &t, 0, t.nrows > 0, &last);
	tc_table_free(&t);
	while (follow && (!ctx->follow_polls || polls++ < ctx->follow_polls)) {
		struct timespec ts = {
			ctx->follow_ms / 1000,
			(long)(ctx->follow_ms % 1000) * 1000000L,
		};

		nanosleep(&ts, NULL);
		if (tc_read_decisions(ctx, &t))
			return TC_EXIT_ERROR;
		/* new sequence numbers only; after a reboot seq restarts */
		tc_log_rows(ctx, &t, last, false, &last);
		tc_table_free(&t);
	}
	return TC_EXIT_OK;
}
