// SPDX-License-Identifier: GPL-2.0
/*
 * triagectl test: policy conformance without an OOM.  A scenario file
 * states expectations about the kernel's current ranking of live
 * processes; each becomes one TAP test.  Selectors are triage matchers
 * (type=batch_t, label=/usr/bin/foo, ...) parsed by the kernel's parser
 * and matched with the kernel's matcher.  Format: triage-policy(5),
 * section SCENARIOS.
 *
 *	never SELECTOR			matching processes are all protected
 *	killable SELECTOR		matching processes can all be chosen
 *	dies-first SELECTOR		the rank-1 candidate matches
 *	before SELECTOR < SELECTOR	every match of the first dies before
 *					every match of the second
 *	verdict VERDICT SELECTOR	matching processes all have VERDICT
 */
#define _GNU_SOURCE

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "triagectl.h"

/* the largest scenario read */
#define TC_SCENARIO_MAX	(1 << 20)

enum tc_expect { TC_NEVER, TC_KILLABLE, TC_DIES_FIRST, TC_BEFORE, TC_VERDICT };

struct tc_expectation {
	enum tc_expect kind;
	unsigned int line;
	char *text;			/* the line, trimmed, for the TAP name */
	struct triage_policy *sel[2];	/* each: one protect rule */
	char *verdict;
};

struct tc_row {
	const char *pid, *comm, *label, *verdict, *rank;
	unsigned long order;		/* rank, ULONG_MAX when protected */
};

/* Split on blanks outside "..."; a '#' outside quotes ends the line. */
static int tc_words(char *line, char **w, int max)
{
	int n = 0;
	char *p = line;

	for (;;) {
		bool q = false;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			return n;
		if (n == max)
			return -1;
		w[n++] = p;
		for (; *p && (q || (*p != ' ' && *p != '\t' && *p != '#')); p++) {
			if (*p == '\\' && q && p[1])
				p++;
			else if (*p == '"')
				q = !q;
		}
		if (*p == '#') {
			*p = '\0';
			return n;
		}
		if (*p)
			*p++ = '\0';
	}
}

static struct triage_policy *tc_selector(char **w, int n, char *why,
					 size_t whylen)
{
	struct triage_parse_error err;
	struct triage_policy *p = NULL;
	size_t len = 16;
	char *text;
	int i;

	if (n < 1) {
		snprintf(why, whylen, "missing selector");
		return NULL;
	}
	for (i = 0; i < n; i++)
		len += strlen(w[i]) + 1;
	text = tc_xmalloc(len);
	strcpy(text, "protect");
	for (i = 0; i < n; i++) {
		strcat(text, " ");
		strcat(text, w[i]);
	}
	strcat(text, "\n");
	if (triage_policy_parse(text, strlen(text), &p, &err)) {
		snprintf(why, whylen, "bad selector: %s", err.reason);
		p = NULL;
	}
	free(text);
	return p;
}

static void tc_expect_free(struct tc_expectation *e, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		triage_policy_free(e[i].sel[0]);
		triage_policy_free(e[i].sel[1]);
		free(e[i].text);
		free(e[i].verdict);
	}
	free(e);
}

/* Parse the scenario; prints FILE:LINE: error: ... and returns NULL. */
static struct tc_expectation *tc_scenario_parse(struct tc_ctx *ctx,
						const char *file, char *text,
						size_t *count,
						unsigned int *nerrors)
{
	struct tc_expectation *ex = NULL;
	char *line, *next, *w[64], why[160];
	unsigned int lineno = 0, errors = 0;
	size_t n = 0;

	for (line = text; line; line = next) {
		struct tc_expectation e = { 0 };
		char *trim;
		int nw, lt = -1, i;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		trim = line + strspn(line, " \t");
		e.text = tc_strdup(trim);
		if (strchr(e.text, '#'))
			*strchr(e.text, '#') = '\0';
		for (i = strlen(e.text); i > 0 && (e.text[i - 1] == ' ' ||
						   e.text[i - 1] == '\t'); i--)
			e.text[i - 1] = '\0';
		e.line = lineno;
		nw = tc_words(line, w, 64);
		why[0] = '\0';
		if (nw == 0) {
			free(e.text);
			continue;
		}
		if (nw < 0) {
			snprintf(why, sizeof(why), "too many words");
		} else if (!strcmp(w[0], "never")) {
			e.kind = TC_NEVER;
			e.sel[0] = tc_selector(w + 1, nw - 1, why, sizeof(why));
		} else if (!strcmp(w[0], "killable")) {
			e.kind = TC_KILLABLE;
			e.sel[0] = tc_selector(w + 1, nw - 1, why, sizeof(why));
		} else if (!strcmp(w[0], "dies-first")) {
			e.kind = TC_DIES_FIRST;
			e.sel[0] = tc_selector(w + 1, nw - 1, why, sizeof(why));
		} else if (!strcmp(w[0], "verdict")) {
			e.kind = TC_VERDICT;
			if (nw < 2 || (strcmp(w[1], "protect") &&
				       strcmp(w[1], "sacrifice") &&
				       strcmp(w[1], "adjust") &&
				       strcmp(w[1], "none"))) {
				snprintf(why, sizeof(why),
					 "verdict must be protect, sacrifice, adjust or none");
			} else {
				e.verdict = tc_strdup(w[1]);
				e.sel[0] = tc_selector(w + 2, nw - 2, why,
						       sizeof(why));
			}
		} else if (!strcmp(w[0], "before")) {
			char **a = NULL, **b = NULL;
			int na = 0, nb = 0;

			e.kind = TC_BEFORE;
			for (i = 1; i < nw && lt < 0; i++)
				if (!strcmp(w[i], "<"))
					lt = i;
			if (lt > 0) {
				a = w + 1;
				na = lt - 1;
				b = w + lt + 1;
				nb = nw - lt - 1;
			} else if (nw == 3) {
				a = w + 1;
				na = 1;
				b = w + 2;
				nb = 1;
			}
			if (!a) {
				snprintf(why, sizeof(why),
					 "before needs two selectors: before A < B");
			} else {
				e.sel[0] = tc_selector(a, na, why, sizeof(why));
				if (e.sel[0])
					e.sel[1] = tc_selector(b, nb, why,
							       sizeof(why));
			}
		} else {
			snprintf(why, sizeof(why),
				 "unknown expectation '%s' (never, killable, dies-first, before, verdict)",
				 w[0]);
		}
		if (why[0]) {
			fprintf(ctx->err, "%s:%u: error: %s\n", tc_esc(file),
				lineno, tc_esc(why));
			errors++;
			triage_policy_free(e.sel[0]);
			triage_policy_free(e.sel[1]);
			free(e.text);
			free(e.verdict);
			continue;
		}
		ex = realloc(ex, (n + 1) * sizeof(*ex));
		if (!ex)
			exit(TC_EXIT_ERROR);
		ex[n++] = e;
	}
	*nerrors = errors;
	if (errors) {
		tc_expect_free(ex, n);
		*count = 0;
		return NULL;
	}
	*count = n;
	return ex;
}

static bool tc_sel_match(const struct triage_policy *sel, const char *label)
{
	return triage_rule_match(&sel->rules[0], label);
}

static void tc_note(char **buf, size_t *len, const char *line)
{
	size_t n = strlen(line);

	*buf = realloc(*buf, *len + n + 1);
	if (!*buf)
		exit(TC_EXIT_ERROR);
	memcpy(*buf + *len, line, n + 1);
	*len += n;
}

/* "pid PID (COMM, LABEL) WHAT" */
static void tc_detail(char **buf, size_t *len, const struct tc_row *r,
		      const char *what)
{
	char line[768];

	snprintf(line, sizeof(line), "pid %s (%s, %s) %s\n", tc_esc(r->pid),
		 tc_esc(r->comm), tc_esc(r->label), what);
	tc_note(buf, len, line);
}

/* Evaluate one expectation; returns ok; *detail explains a failure. */
static bool tc_eval(const struct tc_expectation *e, const struct tc_row *rows,
		    size_t nrows, char **detail)
{
	size_t i, j, na = 0, nb = 0, dl = 0;
	bool ok = true;

	*detail = NULL;
	for (i = 0; i < nrows; i++)
		na += tc_sel_match(e->sel[0], rows[i].label);
	if (e->kind == TC_BEFORE)
		for (i = 0; i < nrows; i++)
			nb += tc_sel_match(e->sel[1], rows[i].label);
	if (!na || (e->kind == TC_BEFORE && !nb)) {
		tc_note(detail, &dl,
			"no live candidate matches the selector: start processes in that domain first\n");
		return false;
	}
	switch (e->kind) {
	case TC_NEVER:
	case TC_KILLABLE:
		for (i = 0; i < nrows; i++) {
			bool prot = rows[i].order == ULONG_MAX;
			char what[64];

			if (!tc_sel_match(e->sel[0], rows[i].label) ||
			    prot == (e->kind == TC_NEVER))
				continue;
			ok = false;
			if (prot)
				snprintf(what, sizeof(what), "is protected (verdict %s)",
					 tc_esc(rows[i].verdict));
			else
				snprintf(what, sizeof(what), "can be chosen: rank %s, verdict %s",
					 tc_esc(rows[i].rank), tc_esc(rows[i].verdict));
			tc_detail(detail, &dl, &rows[i], what);
		}
		break;
	case TC_DIES_FIRST:
		for (i = 0; i < nrows && rows[i].order != 1; i++)
			;
		if (i == nrows) {
			ok = false;
			tc_note(detail, &dl, "no candidate can be chosen\n");
		} else if (!tc_sel_match(e->sel[0], rows[i].label)) {
			ok = false;
			tc_detail(detail, &dl, &rows[i], "dies first instead");
		}
		break;
	case TC_VERDICT:
		for (i = 0; i < nrows; i++) {
			char what[64];

			if (!tc_sel_match(e->sel[0], rows[i].label) ||
			    !strcmp(rows[i].verdict, e->verdict))
				continue;
			ok = false;
			snprintf(what, sizeof(what), "has verdict %s",
				 tc_esc(rows[i].verdict));
			tc_detail(detail, &dl, &rows[i], what);
		}
		break;
	case TC_BEFORE:
		for (i = 0; i < nrows; i++) {
			if (!tc_sel_match(e->sel[0], rows[i].label))
				continue;
			for (j = 0; j < nrows; j++) {
				char what[600];

				if (i == j || !tc_sel_match(e->sel[1], rows[j].label) ||
				    rows[i].order < rows[j].order)
					continue;
				ok = false;
				snprintf(what, sizeof(what),
					 "rank %s does not die before pid %s (%s, %s) rank %s",
					 tc_esc(rows[i].rank), tc_esc(rows[j].pid),
					 tc_esc(rows[j].comm), tc_esc(rows[j].label),
					 tc_esc(rows[j].rank));
				tc_detail(detail, &dl, &rows[i], what);
			}
		}
		break;
	}
	return ok;
}

int tc_cmd_test(struct tc_ctx *ctx, int argc, char **argv)
{
	struct tc_expectation *ex;
	struct tc_table t;
	struct tc_row *rows;
	char *pos[1], *text, *rtext;
	const char *name;
	size_t nex = 0, i, failed = 0, len;
	unsigned int nerr = 0;
	bool help;
	int n;

	n = tc_parse_opts(ctx, "test", argc, argv, NULL, pos, 1, &help);
	if (n < 0)
		return TC_EXIT_USAGE;
	if (help)
		return tc_help(ctx, "test");
	if (n != 1)
		return tc_usage_error(ctx, "no SCENARIO file given (- reads standard input)");
	name = tc_input_name(pos[0]);
	text = tc_read_input(pos[0], TC_SCENARIO_MAX, &len);
	if (!text)
		return tc_fail(ctx, TC_EXIT_ERROR, "cannot read %s: %s",
			       tc_esc(name), strerror(errno));
	if (len > TC_SCENARIO_MAX) {
		/* not cut silently: the rest would go untested */
		free(text);
		return tc_fail(ctx, TC_EXIT_ERROR, "%s: larger than %d KiB; nothing tested",
			       tc_esc(name), TC_SCENARIO_MAX / 1024);
	}
	ex = tc_scenario_parse(ctx, name, text, &nex, &nerr);
	free(text);
	if (nerr)
		return tc_fail(ctx, TC_EXIT_USAGE, "%s: %u error%s in the scenario; nothing tested",
			       tc_esc(name), nerr, nerr == 1 ? "" : "s");
	if (!nex)
		return tc_fail(ctx, TC_EXIT_USAGE, "%s: no expectations",
			       tc_esc(name));
	rtext = tc_read_at(ctx, "ranking", NULL);
	if (!rtext) {
		tc_expect_free(ex, nex);
		return tc_sfs_fail(ctx, "ranking", errno, false);
	}
	if (tc_table_parse(rtext, &t)) {
		tc_table_free(&t);
		tc_expect_free(ex, nex);
		return tc_fail(ctx, TC_EXIT_ERROR, "%s/ranking: no '#' header line",
			       tc_esc(ctx->root));
	}
	rows = tc_xmalloc((t.nrows + 1) * sizeof(*rows));
	for (i = 0; i < t.nrows; i++) {
		char *end;

		rows[i].pid = tc_table_get(&t, i, "pid");
		rows[i].comm = tc_table_get(&t, i, "comm");
		rows[i].label = tc_table_get(&t, i, "label");
		rows[i].verdict = tc_table_get(&t, i, "verdict");
		rows[i].rank = tc_table_get(&t, i, "rank");
		rows[i].order = strtoul(rows[i].rank, &end, 10);
		if (*end || !*rows[i].rank ||
		    !strcmp(tc_table_get(&t, i, "tier"), "protected"))
			rows[i].order = ULONG_MAX;
	}

	if (ctx->json) {
		tc_json_begin(ctx);
		fputs(",\"results\":[", ctx->out);
	}
	else
		fprintf(ctx->out, "TAP version 13\n1..%zu\n", nex);
	for (i = 0; i < nex; i++) {
		char *detail, *p, *nl;
		bool ok = tc_eval(&ex[i], rows, t.nrows, &detail);

		failed += !ok;
		if (ctx->json) {
			fprintf(ctx->out, "%s{\"line\":%u,\"expectation\":",
				i ? "," : "", ex[i].line);
			tc_json_str(ctx->out, ex[i].text);
			fprintf(ctx->out, ",\"ok\":%s,\"detail\":",
				ok ? "true" : "false");
			tc_json_str(ctx->out, detail ? detail : "");
			fputc('}', ctx->out);
		} else {
			fprintf(ctx->out, "%sok %zu - %s:%u: %s\n",
				ok ? "" : "not ", i + 1, tc_esc(name),
				ex[i].line, tc_esc(ex[i].text));
			for (p = detail; p && *p; p = nl) {
				nl = strchr(p, '\n');
				fprintf(ctx->out, "# %.*s\n",
					(int)(nl ? nl - p : (long)strlen(p)), p);
				if (nl)
					nl++;
			}
		}
		free(detail);
	}
	if (ctx->json) {
		char msg[100];

		snprintf(msg, sizeof(msg), "%zu of %zu expectations failed",
			 failed, nex);
		fprintf(ctx->out, "],\"tests\":%zu,\"passed\":%zu,\"failed\":%zu",
			nex, nex - failed, failed);
		tc_json_end(ctx, failed ? TC_EXIT_ERROR : TC_EXIT_OK, msg);
	} else
		fprintf(ctx->out, "# %zu passed, %zu failed\n", nex - failed,
			failed);
	free(rows);
	tc_table_free(&t);
	tc_expect_free(ex, nex);
	return failed ? TC_EXIT_ERROR : TC_EXIT_OK;
}
