// SPDX-License-Identifier: GPL-2.0
/*
 * triagectl check: the kernel's parser, then what only userspace can
 * know: are the users, roles, types and ranges real names of the SELinux
 * policy, and can every rule ever decide anything (shadowed rules, rules
 * whose matchers contradict each other or the SELinux policy)?
 */
#define _GNU_SOURCE

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "triagectl.h"

static const char *const tc_field_word[] = {
	"user", "role", "type", "range", "label",
};

static __attribute__((format(printf, 5, 6)))
void tc_diag(struct tc_check *res, unsigned int line, unsigned int column,
	     enum tc_severity sev, const char *fmt, ...)
{
	struct tc_diag *d;
	va_list ap;

	res->diags = realloc(res->diags, (res->ndiags + 1) * sizeof(*d));
	if (!res->diags) {
		fputs("triagectl: out of memory\n", stderr);
		exit(TC_EXIT_ERROR);
	}
	d = &res->diags[res->ndiags++];
	d->line = line;
	d->column = column;
	d->severity = sev;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	if (sev == TC_ERROR)
		res->errors++;
	else if (sev == TC_WARNING)
		res->warnings++;
}

/* Start of physical line @line (1-based), or len. */
static size_t tc_line_start(const char *text, size_t len, unsigned int line)
{
	unsigned int l = 1;
	size_t i = 0;

	while (i < len && l < line)
		if (text[i++] == '\n')
			l++;
	return i;
}

/* Column of the rule's keyword: the first non-blank byte of its line. */
static unsigned int tc_keyword_column(const char *text, size_t len,
				      unsigned int line)
{
	size_t i = tc_line_start(text, len, line), c = 1;

	while (i < len && (text[i] == ' ' || text[i] == '\t')) {
		i++;
		c++;
	}
	return c;
}

/*
 * Where the value of matcher @word ("type") of the rule on @line starts.
 * This is a locator over text the parser has accepted, not a second
 * parser: it only skips strings, comments and continuations to find the
 * item "word=" at the start of a token.  Falls back to the keyword.
 */
static void tc_locate(const char *text, size_t len, unsigned int line,
		      const char *word, unsigned int *oline,
		      unsigned int *ocol)
{
	size_t i = tc_line_start(text, len, line), wl = strlen(word);
	unsigned int l = line, col = 1;
	bool in_str = false, tok_start = true;

	*oline = line;
	*ocol = tc_keyword_column(text, len, line);
	for (; i < len; i++, col++) {
		char c = text[i];

		if (c == '\\' && i + 1 < len && text[i + 1] == '\n') {
			i++;
			l++;
			col = 0;
			continue;
		}
		if (c == '\n')
			return;
		if (in_str) {
			if (c == '\\' && i + 1 < len) {
				i++;
				col++;
			} else if (c == '"') {
				in_str = false;
			}
			continue;
		}
		if (c == '#')
			return;
		if (c == '"') {
			in_str = true;
			tok_start = false;
			continue;
		}
		if (c == ' ' || c == '\t') {
			tok_start = true;
			continue;
		}
		if (tok_start && i + wl < len && !strncmp(text + i, word, wl) &&
		    text[i + wl] == '=') {
			*oline = l;
			*ocol = col + wl + 1;
			return;
		}
		tok_start = false;
	}
}

/* A label glob without '*' or '?' matches exactly one label: return it. */
static char *tc_glob_literal(const char *glob)
{
	char *lit = tc_xmalloc(strlen(glob) + 1), *o = lit;
	const char *p;

	for (p = glob; *p; p++) {
		if (*p == '*' || *p == '?') {
			free(lit);
			return NULL;
		}
		if (*p == '\\' && p[1])
			p++;
		*o++ = *p;
	}
	*o = '\0';
	return lit;
}

static bool tc_glob_is_any(const char *glob)
{
	while (*glob == '*')
		glob++;
	return !*glob;
}

/**
 * tc_rule_covers - does rule @a match every label that rule @b matches?
 *
 * True when @a's matchers are a subset of @b's with the same values (a
 * label glob of only '*' matches everything), or when @b can only ever
 * match one literal label and @a matches that label.
 */
bool tc_rule_covers(const struct triage_rule *a, const struct triage_rule *b)
{
	const char *bl = b->match[TRIAGE_FIELD_LABEL];
	const char *al = a->match[TRIAGE_FIELD_LABEL];
	int f;

	if (bl) {
		char *lit = tc_glob_literal(bl);

		if (lit) {
			bool ok = triage_rule_match(b, lit) &&
				  triage_rule_match(a, lit);

			free(lit);
			return ok;
		}
	}
	for (f = 0; f < TRIAGE_FIELD_LABEL; f++)
		if (a->match[f] &&
		    (!b->match[f] || strcmp(a->match[f], b->match[f])))
			return false;
	if (al && !tc_glob_is_any(al) && (!bl || strcmp(al, bl)))
		return false;
	return true;
}

static const char *const tc_kind_word[] = {
	[TRIAGE_FIELD_USER] = "user",
	[TRIAGE_FIELD_ROLE] = "role",
	[TRIAGE_FIELD_TYPE] = "type",
};

/* user=, role=, type=, range= against the SELinux policy. */
static bool tc_check_selinux(const char *text, size_t len,
			     const struct tc_sepol *s,
			     const struct triage_rule *r, struct tc_check *res)
{
	bool ok = true;
	int f;

	for (f = 0; f < TRIAGE_FIELD_RANGE; f++) {
		const char *v = r->match[f], *primary = NULL, *near;
		unsigned int l, c;

		if (!v)
			continue;
		tc_locate(text, len, r->line, tc_field_word[f], &l, &c);
		switch (tc_sepol_lookup(s, f, v, &primary)) {
		case TC_NAME_OK:
			break;
		case TC_NAME_UNKNOWN:
			ok = false;
			near = tc_sepol_suggest(s, f, v);
			if (near)
				tc_diag(res, l, c, TC_ERROR,
					"unknown SELinux %s '%s' (did you mean '%s'?)",
					tc_kind_word[f], v, near);
			else
				tc_diag(res, l, c, TC_ERROR,
					"unknown SELinux %s '%s'",
					tc_kind_word[f], v);
			break;
		case TC_NAME_ATTRIBUTE:
			ok = false;
			tc_diag(res, l, c, TC_ERROR,
				"'%s' is an SELinux %s attribute, not a %s: a label never shows it",
				v, tc_kind_word[f], tc_kind_word[f]);
			break;
		case TC_NAME_ALIAS:
			ok = false;
			tc_diag(res, l, c, TC_WARNING,
				"rule never matches: '%s' is an alias of '%s', and labels show '%s'",
				v, primary, primary);
			break;
		}
	}
	if (r->match[TRIAGE_FIELD_RANGE]) {
		const char *v = r->match[TRIAGE_FIELD_RANGE];
		const char *dash = strchr(v, '-');
		unsigned int l, c;

		tc_locate(text, len, r->line, "range", &l, &c);
		if (!tc_sepol_mls(s)) {
			ok = false;
			tc_diag(res, l, c, TC_WARNING,
				"rule never matches: the SELinux policy has no MLS/MCS, so labels have no range");
		} else if (!tc_sepol_range_valid(s, v)) {
			ok = false;
			tc_diag(res, l, c, TC_ERROR,
				"invalid SELinux range '%s'", v);
		} else if (dash && (size_t)(dash - v) == strlen(dash + 1) &&
			   !strncmp(v, dash + 1, dash - v)) {
			ok = false;
			tc_diag(res, l, c, TC_WARNING,
				"rule never matches: labels show the range '%s' as '%.*s'",
				v, (int)(dash - v), v);
		}
	}
	return ok;
}

static void tc_check_compatible(const char *text, size_t len,
				const struct tc_sepol *s,
				const struct triage_rule *r,
				struct tc_check *res)
{
	const char *u = r->match[TRIAGE_FIELD_USER];
	const char *ro = r->match[TRIAGE_FIELD_ROLE];
	const char *t = r->match[TRIAGE_FIELD_TYPE];
	unsigned int col = tc_keyword_column(text, len, r->line);

	if (u && ro && !tc_sepol_compatible(s, u, ro, NULL))
		tc_diag(res, r->line, col, TC_WARNING,
			"rule never matches: SELinux user '%s' may not have role '%s'",
			u, ro);
	else if (ro && t && !tc_sepol_compatible(s, NULL, ro, t))
		tc_diag(res, r->line, col, TC_WARNING,
			"rule never matches: SELinux role '%s' may not have type '%s'",
			ro, t);
	else if (t && !ro && !tc_sepol_compatible(s, NULL, NULL, t))
		tc_diag(res, r->line, col, TC_WARNING,
			"rule never matches: no SELinux role may have type '%s'",
			t);
	else if (t && u && !ro && !tc_sepol_compatible(s, u, NULL, t))
		tc_diag(res, r->line, col, TC_WARNING,
			"rule never matches: no role of SELinux user '%s' may have type '%s'",
			u, t);
}

static int tc_diag_cmp(const void *a, const void *b)
{
	const struct tc_diag *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->column != y->column)
		return x->column < y->column ? -1 : 1;
	return x < y ? -1 : x > y;
}

/**
 * tc_check_text - check a policy text
 * @text: the policy (need not be NUL-terminated)
 * @len: its length
 * @s: the SELinux policy to check names against, or NULL
 * @res: filled in; release with tc_check_free()
 */
void tc_check_text(const char *text, size_t len, const struct tc_sepol *s,
		   struct tc_check *res)
{
	struct triage_parse_error err;
	struct triage_policy *p = NULL;
	unsigned int i, j;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = triage_policy_parse(text, len, &p, &err);
	if (ret) {
		res->syntax_error = true;
		tc_diag(res, err.line, err.column, TC_ERROR, "%s", err.reason);
		return;
	}
	res->policy = p;
	for (i = 0; i < p->nr_rules; i++) {
		const struct triage_rule *r = &p->rules[i];
		const char *lab = r->match[TRIAGE_FIELD_LABEL];
		unsigned int col = tc_keyword_column(text, len, r->line);
		bool names_ok = true;
		char *lit;

		if (s)
			names_ok = tc_check_selinux(text, len, s, r, res);
		if (s && names_ok)
			tc_check_compatible(text, len, s, r, res);

		lit = lab ? tc_glob_literal(lab) : NULL;
		if (lit && !triage_rule_match(r, lit)) {
			tc_diag(res, r->line, col, TC_WARNING,
				"rule never matches: label=%s is not a context with the rule's user, role, type and range",
				lab);
			free(lit);
			continue;
		}
		free(lit);

		for (j = 0; j < i; j++) {
			if (tc_rule_covers(&p->rules[j], r)) {
				char *txt = tc_rule_text(p, j);

				tc_diag(res, r->line, col, TC_WARNING,
					"rule never decides: the rule on line %u ('%s') matches every label it matches",
					p->rules[j].line, txt);
				free(txt);
				break;
			}
		}
	}
	if (res->ndiags > 1)
		qsort(res->diags, res->ndiags, sizeof(*res->diags),
		      tc_diag_cmp);
}

static const char *const tc_sev_word[] = { "note", "warning", "error" };

void tc_check_print(FILE *f, const char *file, const struct tc_check *res)
{
	size_t i;

	for (i = 0; i < res->ndiags; i++) {
		const struct tc_diag *d = &res->diags[i];

		if (d->line)
			fprintf(f, "%s:%u:%u: %s: %s\n", file, d->line,
				d->column, tc_sev_word[d->severity], d->msg);
		else
			fprintf(f, "%s: %s: %s\n", file,
				tc_sev_word[d->severity], d->msg);
	}
}

void tc_check_json(FILE *f, const char *file, const char *selinux,
		   const struct tc_check *res)
{
	size_t i;

	fputs("{\"file\":", f);
	tc_json_str(f, file);
	fputs(",\"selinux_policy\":", f);
	if (selinux)
		tc_json_str(f, selinux);
	else
		fputs("null", f);
	fprintf(f, ",\"ok\":%s,\"rules\":%u,\"errors\":%u,\"warnings\":%u,\"diagnostics\":[",
		res->errors ? "false" : "true",
		res->policy ? res->policy->nr_rules : 0, res->errors,
		res->warnings);
	for (i = 0; i < res->ndiags; i++) {
		const struct tc_diag *d = &res->diags[i];

		fprintf(f, "%s{\"line\":%u,\"column\":%u,\"severity\":\"%s\",\"message\":",
			i ? "," : "", d->line, d->column,
			tc_sev_word[d->severity]);
		tc_json_str(f, d->msg);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

void tc_check_free(struct tc_check *res)
{
	triage_policy_free(res->policy);
	free(res->diags);
	memset(res, 0, sizeof(*res));
}
