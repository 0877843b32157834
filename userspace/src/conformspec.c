// SPDX-License-Identifier: GPL-2.0
/*
 * triagectl conform: the spec language (docs/conform.md).  One statement
 * per line; words are separated by blanks; a word that starts with '#'
 * starts a comment.
 *
 *	memory SIZE			each expectation's memory.max
 *	timeout SECONDS			longest run of one expectation
 *	grower LABEL			label of the probe that grows to the OOM
 *	[todo] PROBE dies before PROBE
 *	[todo] PROBE is never killed
 *	[todo] LABEL SIZE [xN] dies as a group
 *	[todo] adjust puts PROBE before PROBE
 *	PROBE = LABEL SIZE, LABEL = type=T | context=C | profile=P | smack=L,
 *	SIZE = N | NM | NMiB (MiB)
 *
 * Errors are collected (every line is parsed) with the line and column of
 * the word at fault, and printed by tc_check_print() as check prints them.
 */
#define _GNU_SOURCE

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

#define TC_CF_MAXWORDS	32

struct tc_cf_word {
	const char *s;		/* NUL-terminated copy */
	unsigned int col;
};

struct tc_cf_line {
	struct tc_cf_word w[TC_CF_MAXWORDS];
	int n;
	unsigned int line, endcol;	/* endcol: one past the last word */
	char buf[];
};

struct tc_cf_parser {
	struct tc_cf_spec *spec;
	struct tc_check *diags;
	const struct tc_cf_line *l;
	unsigned int first_ex_line;
	unsigned int set_line[3];	/* memory, timeout: first line set */
	bool failed;			/* this line had an error */
};

static const char *const tc_cf_lsm_names[] = {
	[TC_CF_SELINUX] = "SELinux",
	[TC_CF_APPARMOR] = "AppArmor",
	[TC_CF_SMACK] = "Smack",
};

const char *tc_cf_lsm_name(enum tc_cf_lsm lsm)
{
	return lsm < TC_CF_NLSM ? tc_cf_lsm_names[lsm] : "?";
}

static const char *const tc_cf_statements[] = {
	"adjust", "todo", "memory", "timeout", "grower", NULL,
};

static const char *const tc_cf_kinds[] = {
	"type=", "context=", "profile=", "smack=", NULL,
};

static __attribute__((format(printf, 3, 4)))
void tc_cf_err(struct tc_cf_parser *p, unsigned int col, const char *fmt, ...)
{
	char msg[sizeof(((struct tc_diag *)0)->msg)];
	va_list ap;

	if (p->failed)		/* one error per line: the first */
		return;
	p->failed = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tc_diag(p->diags, p->l ? p->l->line : 0, col, TC_ERROR, "%s", msg);
}

/* Split one line (without its newline) into words. */
static struct tc_cf_line *tc_cf_split(const char *s, size_t len,
				      unsigned int lineno)
{
	struct tc_cf_line *l = tc_xmalloc(sizeof(*l) + len + 1);
	size_t i = 0;
	char *b = l->buf;

	memcpy(b, s, len);
	b[len] = '\0';
	while (len && (b[len - 1] == '\r'))
		b[--len] = '\0';
	l->n = 0;
	l->line = lineno;
	l->endcol = 1;
	while (i < len) {
		size_t st;

		while (i < len && (b[i] == ' ' || b[i] == '\t'))
			i++;
		if (i >= len || b[i] == '#')
			break;
		st = i;
		while (i < len && b[i] != ' ' && b[i] != '\t')
			i++;
		if (l->n < TC_CF_MAXWORDS) {
			l->w[l->n].s = b + st;
			l->w[l->n].col = st + 1;
			l->n++;
		} else {
			l->n = TC_CF_MAXWORDS + 1;	/* too many */
		}
		l->endcol = i + 1;
		if (i < len)
			b[i++] = '\0';
	}
	return l;
}

static bool tc_cf_selinux_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '.' ||
		      *s == '-'))
			return false;
	return true;
}

/* user:role:type[:range], each of the first three a name */
static bool tc_cf_context_ok(const char *s)
{
	char buf[TC_CF_LABEL_MAX + 1], *f[3], *save = NULL;
	int i;

	if (strlen(s) > TC_CF_LABEL_MAX || strchr(s, '"') || strchr(s, '\\'))
		return false;
	strcpy(buf, s);
	for (i = 0; i < 3; i++) {
		f[i] = strtok_r(i ? NULL : buf, ":", &save);
		if (!f[i] || !tc_cf_selinux_name(f[i]))
			return false;
	}
	return (f[2] + strlen(f[2]) < buf + strlen(s)) ?
		s[f[2] - buf + strlen(f[2])] == ':' &&
		s[f[2] - buf + strlen(f[2]) + 1] != '\0' : true;
}

/* Smack: 1..255 bytes, no blank, slash, quote or backslash, not '-' first */
static bool tc_cf_smack_ok(const char *s)
{
	if (!*s || *s == '-' || strlen(s) > TC_CF_LABEL_MAX)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 0x7f ||
		    strchr("/\"'\\", *s))
			return false;
	return true;
}

/* AppArmor profile names: printable, no blank (a spec word) */
static bool tc_cf_profile_ok(const char *s)
{
	if (!*s || strlen(s) > TC_CF_LABEL_MAX)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || (unsigned char)*s == 0x7f)
			return false;
	return true;
}

/* A label word at @w into @lab; false after an error. */
static bool tc_cf_label(struct tc_cf_parser *p, const struct tc_cf_word *w,
			struct tc_cf_label *lab)
{
	const char *eq = strchr(w->s, '='), *v;
	char kind[32];
	int k;

	memset(lab, 0, sizeof(*lab));
	if (!eq) {
		tc_cf_err(p, w->col,
			  "expected a label (type=, context=, profile= or smack=), got '%s'",
			  tc_esc(w->s));
		return false;
	}
	snprintf(kind, sizeof(kind), "%.*s", (int)(eq - w->s + 1), w->s);
	for (k = 0; tc_cf_kinds[k] && strcmp(kind, tc_cf_kinds[k]); k++)
		;
	if (!tc_cf_kinds[k]) {
		const char *near = tc_nearest(kind, tc_cf_kinds);

		if (near)
			tc_cf_err(p, w->col, "unknown label kind '%s' (did you mean '%s'?)",
				  tc_esc(kind), near);
		else
			tc_cf_err(p, w->col,
				  "unknown label kind '%s' (type=, context=, profile= or smack=)",
				  tc_esc(kind));
		return false;
	}
	v = eq + 1;
	lab->lsm = k < 2 ? TC_CF_SELINUX : k == 2 ? TC_CF_APPARMOR : TC_CF_SMACK;
	lab->context = k == 1;
	if (!*v) {
		tc_cf_err(p, w->col, "empty %s %s after '%s'",
			  tc_cf_lsm_name(lab->lsm),
			  k == 0 ? "type" : k == 1 ? "context" :
			  k == 2 ? "profile" : "label", kind);
		return false;
	}
	if ((k == 0 && (!tc_cf_selinux_name(v) || strlen(v) > TC_CF_LABEL_MAX)) ||
	    (k == 2 && !tc_cf_profile_ok(v)) || (k == 3 && !tc_cf_smack_ok(v))) {
		tc_cf_err(p, w->col, "invalid %s %s '%s'",
			  tc_cf_lsm_name(lab->lsm),
			  k == 0 ? "type" : k == 2 ? "profile" : "label",
			  tc_esc(v));
		return false;
	}
	if (k == 1 && !tc_cf_context_ok(v)) {
		tc_cf_err(p, w->col,
			  "invalid SELinux context '%s': user:role:type[:range]",
			  tc_esc(v));
		return false;
	}
	lab->name = tc_strdup(v);
	lab->text = tc_strdup(w->s);
	lab->line = p->l->line;
	lab->column = w->col;
	return true;
}

/* "8", "8M", "8MiB"; -1 when it is not a size, -2 when out of range */
static long tc_cf_size(const char *s, long max)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	if (*end && strcmp(end, "M") && strcmp(end, "MiB"))
		return -1;
	if (v < 1 || v > max)
		return -2;
	return v;
}

static void tc_cf_label_free(struct tc_cf_label *l)
{
	free(l->name);
	free(l->text);
	memset(l, 0, sizeof(*l));
}

/* LABEL SIZE at word *i; advances *i */
static bool tc_cf_probe(struct tc_cf_parser *p, int *i, struct tc_cf_probe *pr,
			const char *after)
{
	const struct tc_cf_line *l = p->l;
	long sz;

	if (*i >= l->n) {
		tc_cf_err(p, l->endcol, "expected a probe (LABEL SIZE) after '%s'",
			  after);
		return false;
	}
	if (!tc_cf_label(p, &l->w[*i], &pr->label))
		return false;
	pr->count = 1;
	if (++*i >= l->n) {
		tc_cf_err(p, l->endcol,
			  "expected the probe's size in MiB (e.g. 8M) after '%s'",
			  tc_esc(pr->label.text));
		return false;
	}
	sz = tc_cf_size(l->w[*i].s, TC_CF_MEMORY_MAX);
	if (sz == -1 && (l->w[*i].s[0] < '0' || l->w[*i].s[0] > '9')) {
		tc_cf_err(p, l->w[*i].col,
			  "expected the probe's size in MiB (e.g. 8M) after '%s', got '%s'",
			  tc_esc(pr->label.text), tc_esc(l->w[*i].s));
		return false;
	}
	if (sz == -1) {
		tc_cf_err(p, l->w[*i].col,
			  "invalid size '%s': a number of MiB, optionally followed by M or MiB",
			  tc_esc(l->w[*i].s));
		return false;
	}
	if (sz == -2) {
		tc_cf_err(p, l->w[*i].col, "size '%s' out of range (1 to %d MiB)",
			  tc_esc(l->w[*i].s), TC_CF_MEMORY_MAX);
		return false;
	}
	pr->mib = sz;
	++*i;
	return true;
}

/* the next words are exactly @phrase ("as a group"); *i advances */
static bool tc_cf_phrase(const struct tc_cf_line *l, int *i, const char *phrase)
{
	char buf[64], *w, *save = NULL;
	int j = *i;

	snprintf(buf, sizeof(buf), "%s", phrase);
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (j >= l->n || strcmp(l->w[j].s, w))
			return false;
		j++;
	}
	*i = j;
	return true;
}

/* the words from @i on, up to 3, for "got '...'" */
static const char *tc_cf_rest(const struct tc_cf_line *l, int i, int max)
{
	static char buf[200];
	int j;

	buf[0] = '\0';
	for (j = i; j < l->n && j < i + max; j++) {
		if (j > i)
			strncat(buf, " ", sizeof(buf) - strlen(buf) - 1);
		strncat(buf, l->w[j].s, sizeof(buf) - strlen(buf) - 1);
	}
	return tc_esc(buf);
}

static void tc_cf_expectation(struct tc_cf_parser *p, int i, bool todo)
{
	const struct tc_cf_line *l = p->l;
	struct tc_cf_expect e = { 0 };
	struct tc_cf_spec *s = p->spec;
	unsigned int total = 0, k;
	int j;
	size_t tl = 0;

	e.todo = todo;
	e.line = l->line;
	if (!strcmp(l->w[i].s, "adjust")) {
		e.kind = TC_CF_ADJUST;
		if (i + 1 >= l->n || strcmp(l->w[i + 1].s, "puts")) {
			if (i + 1 >= l->n)
				tc_cf_err(p, l->endcol, "expected 'puts' after 'adjust'");
			else
				tc_cf_err(p, l->w[i + 1].col,
					  "expected 'puts' after 'adjust', got '%s'",
					  tc_esc(l->w[i + 1].s));
			goto out;
		}
		i += 2;
		if (!tc_cf_probe(p, &i, &e.probe[0], "puts"))
			goto out;
		if (i >= l->n || strcmp(l->w[i].s, "before")) {
			if (i >= l->n)
				tc_cf_err(p, l->endcol, "expected 'before' after the probe");
			else
				tc_cf_err(p, l->w[i].col,
					  "expected 'before' after the probe, got '%s'",
					  tc_esc(l->w[i].s));
			goto out;
		}
		i++;
		if (!tc_cf_probe(p, &i, &e.probe[1], "before"))
			goto out;
		e.nprobes = 2;
	} else {
		unsigned int countcol = 0;

		if (!tc_cf_probe(p, &i, &e.probe[0], "todo"))
			goto out;
		e.nprobes = 1;
		if (i < l->n && l->w[i].s[0] == 'x' && l->w[i].s[1] >= '0' &&
		    l->w[i].s[1] <= '9') {
			char *end;
			long c = strtol(l->w[i].s + 1, &end, 10);

			countcol = l->w[i].col;
			if (*end || c < 2 || c > TC_CF_GROUP_MAX) {
				tc_cf_err(p, countcol, "group count '%s' out of range (2 to %d)",
					  tc_esc(l->w[i].s), TC_CF_GROUP_MAX);
				goto out;
			}
			e.probe[0].count = c;
			i++;
		}
		if (i < l->n && !strcmp(l->w[i].s, "dies")) {
			int at = ++i;

			if (i < l->n && !strcmp(l->w[i].s, "before")) {
				e.kind = TC_CF_BEFORE;
				i++;
				if (!tc_cf_probe(p, &i, &e.probe[1], "before"))
					goto out;
				e.nprobes = 2;
			} else if (tc_cf_phrase(l, &i, "as a group")) {
				e.kind = TC_CF_GROUP;
				if (!countcol)
					e.probe[0].count = TC_CF_GROUP_DEFAULT;
			} else if (i < l->n && !strcmp(l->w[i].s, "as")) {
				tc_cf_err(p, l->w[at].col,
					  "expected 'as a group' after 'dies', got '%s'",
					  tc_cf_rest(l, at, 3));
				goto out;
			} else {
				if (i >= l->n)
					tc_cf_err(p, l->endcol,
						  "expected 'before' or 'as a group' after 'dies'");
				else
					tc_cf_err(p, l->w[i].col,
						  "expected 'before' or 'as a group' after 'dies', got '%s'",
						  tc_esc(l->w[i].s));
				goto out;
			}
		} else if (i < l->n && !strcmp(l->w[i].s, "is")) {
			i++;
			if (!tc_cf_phrase(l, &i, "never killed")) {
				if (i >= l->n)
					tc_cf_err(p, l->endcol,
						  "expected 'never killed' after 'is'");
				else
					tc_cf_err(p, l->w[i].col,
						  "expected 'never killed' after 'is', got '%s'",
						  tc_cf_rest(l, i, 2));
				goto out;
			}
			e.kind = TC_CF_NEVER;
		} else {
			if (i >= l->n)
				tc_cf_err(p, l->endcol,
					  "expected 'dies' or 'is' after the probe");
			else
				tc_cf_err(p, l->w[i].col,
					  "expected 'dies' or 'is' after the probe, got '%s'",
					  tc_esc(l->w[i].s));
			goto out;
		}
		if (countcol && e.kind != TC_CF_GROUP) {
			tc_cf_err(p, countcol,
				  "a count (x%u) is only for 'dies as a group'",
				  e.probe[0].count);
			goto out;
		}
	}
	if (i < l->n) {
		tc_cf_err(p, l->w[i].col, "unexpected '%s' after the expectation",
			  tc_esc(l->w[i].s));
		goto out;
	}
	if (e.nprobes == 2 && e.probe[0].label.lsm != e.probe[1].label.lsm) {
		enum tc_cf_lsm a = e.probe[1].label.lsm, b = e.probe[0].label.lsm;

		tc_cf_err(p, e.probe[1].label.column,
			  "one expectation is for one LSM: '%s' is %s %s label, '%s' %s %s one",
			  tc_esc(e.probe[1].label.text),
			  a == TC_CF_APPARMOR ? "an" : "a", tc_cf_lsm_name(a),
			  tc_esc(e.probe[0].label.text),
			  b == TC_CF_APPARMOR ? "an" : b == TC_CF_SELINUX ? "an" : "a",
			  tc_cf_lsm_name(b));
		goto out;
	}
	for (k = 0; k < e.nprobes; k++)
		total += e.probe[k].mib * e.probe[k].count;
	if (total + TC_CF_GROWER_ROOM > s->memory_mib) {
		tc_cf_err(p, l->w[0].col,
			  "the probes take %u MiB of memory %uM: leave the grower at least %d MiB (raise memory or shrink the probes)",
			  total, s->memory_mib, TC_CF_GROWER_ROOM);
		goto out;
	}
	/* the statement's text, blanks squeezed */
	for (j = 0; j < l->n; j++)
		tl += strlen(l->w[j].s) + 1;
	e.text = tc_xmalloc(tl + 1);
	e.text[0] = '\0';
	for (j = 0; j < l->n; j++) {
		if (j)
			strcat(e.text, " ");
		strcat(e.text, l->w[j].s);
	}
	if (!p->first_ex_line)
		p->first_ex_line = l->line;
	s->ex = realloc(s->ex, (s->nex + 1) * sizeof(*s->ex));
	if (!s->ex)
		exit(TC_EXIT_ERROR);
	s->ex[s->nex++] = e;
	return;
out:
	tc_cf_label_free(&e.probe[0].label);
	tc_cf_label_free(&e.probe[1].label);
}

static void tc_cf_setting(struct tc_cf_parser *p, int which)
{
	static const char *const names[] = { "memory", "timeout", "grower" };
	const struct tc_cf_line *l = p->l;
	struct tc_cf_spec *s = p->spec;
	long v;

	if (p->first_ex_line) {
		tc_cf_err(p, l->w[0].col,
			  "%s must come before the first expectation (line %u)",
			  names[which], p->first_ex_line);
		return;
	}
	if (which == 2) {
		struct tc_cf_label lab;

		if (l->n < 2) {
			tc_cf_err(p, l->endcol,
				  "grower needs a label (type=, context=, profile= or smack=)");
			return;
		}
		if (!tc_cf_label(p, &l->w[1], &lab))
			return;
		if (l->n > 2) {
			tc_cf_err(p, l->w[2].col,
				  "unexpected '%s' after the grower's label (it grows until the OOM)",
				  tc_esc(l->w[2].s));
		} else if (s->grower[lab.lsm].name) {
			tc_cf_err(p, l->w[0].col,
				  "grower for %s set twice (first on line %u)",
				  tc_cf_lsm_name(lab.lsm), s->grower[lab.lsm].line);
		} else {
			s->grower[lab.lsm] = lab;
			return;
		}
		tc_cf_label_free(&lab);
		return;
	}
	if (p->set_line[which]) {
		tc_cf_err(p, l->w[0].col, "%s set twice (first on line %u)",
			  names[which], p->set_line[which]);
		return;
	}
	if (l->n < 2) {
		tc_cf_err(p, l->endcol, which == 0 ?
			  "memory needs a size (e.g. 96M)" :
			  "timeout needs a number of seconds");
		return;
	}
	if (l->n > 2) {
		tc_cf_err(p, l->w[2].col, "unexpected '%s' after the setting",
			  tc_esc(l->w[2].s));
		return;
	}
	if (which == 0) {
		v = tc_cf_size(l->w[1].s, TC_CF_MEMORY_MAX);
		if (v == -1) {
			tc_cf_err(p, l->w[1].col,
				  "invalid size '%s': a number of MiB, optionally followed by M or MiB",
				  tc_esc(l->w[1].s));
			return;
		}
		if (v < TC_CF_MEMORY_MIN) {
			tc_cf_err(p, l->w[1].col, "memory '%s' out of range (%d to %d MiB)",
				  tc_esc(l->w[1].s), TC_CF_MEMORY_MIN,
				  TC_CF_MEMORY_MAX);
			return;
		}
		s->memory_mib = v;
	} else {
		char *end;

		v = strtol(l->w[1].s, &end, 10);
		if (l->w[1].s[0] < '0' || l->w[1].s[0] > '9' || *end || v < 1 ||
		    v > TC_CF_TIMEOUT_MAX) {
			tc_cf_err(p, l->w[1].col,
				  "invalid timeout '%s': seconds, 1 to %d",
				  tc_esc(l->w[1].s), TC_CF_TIMEOUT_MAX);
			return;
		}
		s->timeout_s = v;
	}
	p->set_line[which] = l->line;
}

int tc_cf_parse(const char *text, size_t len, struct tc_cf_spec *spec,
		struct tc_check *diags)
{
	struct tc_cf_parser p = { .spec = spec, .diags = diags };
	const char *line = text, *end = text + len;
	unsigned int lineno = 0;

	memset(spec, 0, sizeof(*spec));
	spec->memory_mib = TC_CF_MEMORY_DEFAULT;
	spec->timeout_s = TC_CF_TIMEOUT_DEFAULT;
	while (line < end) {
		const char *nl = memchr(line, '\n', end - line);
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
		struct tc_cf_line *l;
		const char *w0;

		lineno++;
		l = tc_cf_split(line, n, lineno);
		line += n + (nl ? 1 : 0);
		p.l = l;
		p.failed = false;
		if (!l->n) {
			free(l);
			continue;
		}
		if (l->n > TC_CF_MAXWORDS) {
			tc_cf_err(&p, l->w[0].col, "too many words (more than %d)",
				  TC_CF_MAXWORDS);
			free(l);
			continue;
		}
		w0 = l->w[0].s;
		if (!strcmp(w0, "memory"))
			tc_cf_setting(&p, 0);
		else if (!strcmp(w0, "timeout"))
			tc_cf_setting(&p, 1);
		else if (!strcmp(w0, "grower"))
			tc_cf_setting(&p, 2);
		else if (!strcmp(w0, "todo")) {
			if (l->n < 2)
				tc_cf_err(&p, l->endcol,
					  "expected an expectation after 'todo'");
			else if (!strcmp(l->w[1].s, "adjust") ||
				 strchr(l->w[1].s, '='))
				tc_cf_expectation(&p, 1, true);
			else
				tc_cf_err(&p, l->w[1].col,
					  "expected an expectation after 'todo', got '%s'",
					  tc_esc(l->w[1].s));
		} else if (!strcmp(w0, "adjust") || strchr(w0, '=')) {
			tc_cf_expectation(&p, 0, false);
		} else {
			const char *near = tc_nearest(w0, tc_cf_statements);

			if (near)
				tc_cf_err(&p, l->w[0].col,
					  "unknown statement '%s' (did you mean '%s'?)",
					  tc_esc(w0), near);
			else
				tc_cf_err(&p, l->w[0].col,
					  "unknown statement '%s' (a probe LABEL SIZE, adjust, todo, memory, timeout or grower)",
					  tc_esc(w0));
		}
		free(l);
	}
	p.l = NULL;
	p.failed = false;
	if (!spec->nex && !diags->errors)
		tc_cf_err(&p, 0, "no expectations");
	return diags->errors ? -1 : 0;
}

void tc_cf_free(struct tc_cf_spec *spec)
{
	size_t i;
	int k;

	for (i = 0; i < spec->nex; i++) {
		tc_cf_label_free(&spec->ex[i].probe[0].label);
		tc_cf_label_free(&spec->ex[i].probe[1].label);
		free(spec->ex[i].text);
	}
	free(spec->ex);
	for (k = 0; k < TC_CF_NLSM; k++)
		tc_cf_label_free(&spec->grower[k]);
	memset(spec, 0, sizeof(*spec));
}
