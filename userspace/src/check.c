// SPDX-License-Identifier: GPL-2.0
/*
 * triagectl check: the kernel's parser, then what only userspace can
 * know: are the users, roles, types and ranges real names of the SELinux
 * policy, and can every rule ever decide anything (shadowed rules, rules
 * whose matchers contradict each other or the SELinux policy)?
 */
#define _GNU_SOURCE

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "triagectl.h"

static const char *const tc_field_word[] = {
	"user", "role", "type", "range", "label",
};

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

/*
 * Does the label glob @glob match every SELinux context that rule @b's
 * user, role, type and range matchers allow?  @b must name a type or
 * more (else it matches labels of any LSM).  Decided by probes: the
 * fields @b leaves open take several unrelated values, with and without
 * a range; a glob that matches them all only constrains what @b fixes
 * (label=*sshd_t* against type=sshd_t).
 */
static bool tc_glob_covers_fields(const char *glob,
				  const struct triage_rule *b)
{
	static const char *const users[] = { "u0", "zz_9u" };
	static const char *const roles[] = { "r0", "qq_9r" };
	static const char *const types[] = { "t0", "kk_9t" };
	static const char *const ranges[] = { NULL, "s0", "s2-s15:c0.c1023" };
	const char *const *field[] = { users, roles, types };
	unsigned int combo, nfixed = 0;
	int f;

	for (f = 0; f < TRIAGE_FIELD_LABEL; f++)
		nfixed += !!b->match[f];
	if (!nfixed)
		return false;
	for (combo = 0; combo < 2 * 2 * 2 * 3; combo++) {
		const char *v[4];
		char label[4 * 260];
		unsigned int k = combo;

		for (f = 0; f < 3; f++) {
			v[f] = b->match[f] ? b->match[f] : field[f][k % 2];
			k /= 2;
		}
		v[3] = b->match[TRIAGE_FIELD_RANGE] ?
		       b->match[TRIAGE_FIELD_RANGE] : ranges[k % 3];
		if (v[3])
			snprintf(label, sizeof(label), "%s:%s:%s:%s", v[0], v[1],
				 v[2], v[3]);
		else
			snprintf(label, sizeof(label), "%s:%s:%s", v[0], v[1],
				 v[2]);
		if (!triage_glob_match(glob, label))
			return false;
	}
	return true;
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
		return !bl && tc_glob_covers_fields(al, b);
	return true;
}

static const char *const tc_kind_word[] = {
	[TRIAGE_FIELD_USER] = "user",
	[TRIAGE_FIELD_ROLE] = "role",
	[TRIAGE_FIELD_TYPE] = "type",
};

/* user=, role=, type=, range= against the SELinux policy. */
static bool tc_check_selinux(const char *text, size_t len,
			     const struct tc_check_opts *o,
			     const struct triage_rule *r, struct tc_check *res)
{
	const struct tc_sepol *s = o->sepol;
	enum tc_severity sev = o->names_are_warnings ? TC_WARNING : TC_ERROR;
	const char *inert = o->names_are_warnings ?
		" (loaded inert: the rule matches nothing)" : "";
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
				tc_diag(res, l, c, sev,
					"unknown SELinux %s '%s' (did you mean '%s'?)%s",
					tc_kind_word[f], v, near, inert);
			else
				tc_diag(res, l, c, sev,
					"unknown SELinux %s '%s'%s",
					tc_kind_word[f], v, inert);
			break;
		case TC_NAME_ATTRIBUTE:
			ok = false;
			tc_diag(res, l, c, sev,
				"'%s' is an SELinux %s attribute, not a %s: a label never shows it%s",
				v, tc_kind_word[f], tc_kind_word[f], inert);
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
			tc_diag(res, l, c, sev,
				"invalid SELinux range '%s'%s", v, inert);
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

/* Does physical line [b, e) end in a continuation (not in a comment)? */
static bool tc_continues(const char *b, const char *e)
{
	bool q = false;
	const char *p;

	if (e == b || e[-1] != '\\')
		return false;
	for (p = b; p < e - 1; p++) {
		if (q && *p == '\\') {
			p++;
		} else if (*p == '"') {
			q = !q;
		} else if (!q && *p == '#') {
			return false;
		}
	}
	return true;
}

/*
 * Blank (with spaces, keeping the newlines) the statement that contains
 * physical line @line: the lines joined to it by continuations.  Returns
 * false when there was nothing left to blank.
 */
static bool tc_blank_statement(char *t, size_t len, unsigned int line)
{
	size_t b = tc_line_start(t, len, line), e, i;
	bool changed = false;

	/* back over the lines that continue into this one */
	while (b > 0) {
		size_t pb = b - 1;	/* the '\n' ending the previous line */

		while (pb > 0 && t[pb - 1] != '\n')
			pb--;
		if (!tc_continues(t + pb, t + b - 1))
			break;
		b = pb;
	}
	/* forward while a line continues */
	for (e = b;;) {
		size_t ls = e;

		while (e < len && t[e] != '\n')
			e++;
		if (e >= len || !tc_continues(t + ls, t + e))
			break;
		e++;
	}
	for (i = b; i < e && i < len; i++)
		if (t[i] != '\n' && t[i] != ' ') {
			t[i] = ' ';
			changed = true;
		}
	return changed;
}

static const char *const tc_keywords[] = {
	"protect", "sacrifice", "adjust", "mode", "fallback", "oom-score-adj",
	"pressure", NULL,
};
static const char *const tc_matchers[] = {
	"user", "role", "type", "range", "label", "rank", "budget", "cgroup",
	NULL,
};
static const char *const tc_options[] = { "group", "rank", NULL };
static const char *const tc_modes[] = { "enforce", "permissive", NULL };
static const char *const tc_fallbacks[] = {
	"classic", "panic", "least-protected", NULL,
};
static const char *const tc_score_adjs[] = { "override", "respect", NULL };
static const char *const tc_pressure_kinds[] = { "some", "full", NULL };

/* Is @w one of @words? */
static bool tc_word_in(const char *w, const char *const *words)
{
	for (; *words; words++)
		if (!strcmp(w, *words))
			return true;
	return false;
}

/* The kernel's reason, with "did you mean" for a misspelt word. */
static void tc_syntax_diag(struct tc_check *res,
			   const struct triage_parse_error *err)
{
	static const struct {
		const char *prefix;
		const char *const *words;
	} kinds[] = {
		{ "unknown keyword '", tc_keywords },
		{ "unknown matcher '", tc_matchers },
		{ "unknown option '", tc_options },
		{ "invalid mode '", tc_modes },
		{ "invalid fallback '", tc_fallbacks },
		{ "invalid oom-score-adj '", tc_score_adjs },
		{ "invalid pressure kind '", tc_pressure_kinds },
	};
	char word[64];
	const char *near = NULL, *w, *q;
	size_t i, pl;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		pl = strlen(kinds[i].prefix);
		if (strncmp(err->reason, kinds[i].prefix, pl))
			continue;
		w = err->reason + pl;
		q = strchr(w, '\'');
		if (!q || (size_t)(q - w) >= sizeof(word) ||
		    (q - w >= 3 && !strncmp(q - 3, "...", 3)))
			break;
		memcpy(word, w, q - w);
		word[q - w] = '\0';
		/*
		 * A matcher or option the parser knows, refused: it is on the
		 * other kind of statement.  cgroup belongs to pressure
		 * statements; on those, every rule's matcher (X=...) and
		 * option is unknown.
		 */
		if ((i == 0 || i == 1 || i == 2) && !strcmp(word, "cgroup")) {
			tc_diag(res, err->line, err->column, TC_ERROR,
				"%s (cgroup= is only valid on a pressure statement)",
				err->reason);
			return;
		}
		if ((i == 1 && tc_word_in(word, tc_matchers)) ||
		    (i == 2 && tc_word_in(word, tc_options))) {
			tc_diag(res, err->line, err->column, TC_ERROR,
				"%s (a pressure statement takes only cgroup=)",
				err->reason);
			return;
		}
		near = tc_nearest(word, kinds[i].words);
		if (!near && i == 0 && tc_word_in(word, tc_matchers)) {
			tc_diag(res, err->line, err->column, TC_ERROR,
				"%s (a rule starts with protect, sacrifice or adjust)",
				err->reason);
			return;
		}
		break;
	}
	if (near)
		tc_diag(res, err->line, err->column, TC_ERROR,
			"%s (did you mean '%s'?)", err->reason, near);
	else
		tc_diag(res, err->line, err->column, TC_ERROR, "%s",
			err->reason);
}

/* A rule every label matches: no user/role/type/range, label only '*'. */
static bool tc_rule_catch_all(const struct triage_rule *r)
{
	int f;

	for (f = 0; f < TRIAGE_FIELD_LABEL; f++)
		if (r->match[f])
			return false;
	return r->match[TRIAGE_FIELD_LABEL] &&
	       tc_glob_is_any(r->match[TRIAGE_FIELD_LABEL]);
}

/*
 * Labels that many unrelated processes share, so that a rule naming one
 * decides for all of them at once: explain suggests no rule for them,
 * check warns about the first rule that decides for each.  The SELinux
 * ones are matched through contexts of each type and through type=
 * itself (whatever user or role the rule adds).
 */
static const struct tc_shared tc_shared[] = {
	{ "none", "",
	  "no major LSM (SELinux, AppArmor, Smack) labels it, and every unlabelled process has the same empty label, which only label=* matches",
	  "run a major LSM that labels the service (on Debian AppArmor is the default) and name its label",
	  { NULL } },
	{ "apparmor", "unconfined",
	  "every process without an AppArmor profile has it (on a stock Debian server most daemons, sshd and every login shell)",
	  "give the service an AppArmor profile of its own, attached to its program or through its unit's AppArmorProfile= (complain mode, or flags=(unconfined), is enough), and name that",
	  { "unconfined", NULL } },
	{ "selinux", "init_t",
	  "under the reference policy every service without a policy module of its own runs in it",
	  "give the service a domain of its own, a site module with init_daemon_domain(), and name that",
	  { "system_u:system_r:init_t:s0", "system_u:system_r:init_t", NULL } },
	{ "selinux", "unconfined_service_t",
	  "every service whose program has no type of its own may run in it",
	  "give the service a domain of its own, a site module with init_daemon_domain(), and name that",
	  { "system_u:system_r:unconfined_service_t:s0",
	    "system_u:system_r:unconfined_service_t", NULL } },
	{ "selinux", "unconfined_t",
	  "every unconfined login runs in it (root's shell, the users' sessions and what they start)",
	  "give what must live a domain of its own and name that, or confine the logins",
	  { "unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023",
	    "unconfined_u:unconfined_r:unconfined_t:s0",
	    "unconfined_u:unconfined_r:unconfined_t", NULL } },
};

#define TC_NSHARED (sizeof(tc_shared) / sizeof(tc_shared[0]))

const struct tc_shared *tc_shared_label(const char *label)
{
	const char *a, *b, *e;
	size_t i, n;

	if (!label)
		return NULL;
	a = strchr(label, ':');
	b = a ? strchr(a + 1, ':') : NULL;
	for (i = 0; i < TC_NSHARED; i++) {
		const struct tc_shared *sh = &tc_shared[i];

		if (strcmp(sh->lsm, "selinux")) {
			/* AppArmor's profile, or no label at all */
			if (!strcmp(label, sh->name))
				return sh;
			continue;
		}
		if (!b)
			continue;
		e = strchr(b + 1, ':');
		n = e ? (size_t)(e - b - 1) : strlen(b + 1);
		if (strlen(sh->name) == n && !strncmp(b + 1, sh->name, n))
			return sh;
	}
	return NULL;
}

/* Does @r decide for the SELinux domain @sh (see tc_shared)? */
static bool tc_rule_shares(const struct triage_rule *r,
			   const struct tc_shared *sh)
{
	const char *t = r->match[TRIAGE_FIELD_TYPE];
	size_t k;

	if (t)
		return !strcmp(t, sh->name);
	for (k = 0; sh->samples[k]; k++)
		if (triage_rule_match(r, sh->samples[k]))
			return true;
	return false;
}

/*
 * SELinux's shared domains: the first rule that decides for each, one
 * warning a rule.  A type the SELinux policy checked against does not
 * have is left to the unknown-name error.
 */
static void tc_check_shared_domains(const char *text, size_t len,
				    const struct tc_check_opts *o,
				    const struct triage_policy *p,
				    struct tc_check *res)
{
	bool *warned = calloc(p->nr_rules + 1, 1);
	unsigned int i;
	size_t k;

	if (!warned) {
		fputs("triagectl: out of memory\n", stderr);
		exit(TC_EXIT_ERROR);
	}
	for (k = 0; k < TC_NSHARED; k++) {
		const struct tc_shared *sh = &tc_shared[k];
		const struct triage_rule *r;
		const char *primary;
		char what[64];

		if (strcmp(sh->lsm, "selinux") ||
		    (o->sepol && tc_sepol_lookup(o->sepol, TRIAGE_FIELD_TYPE,
						 sh->name, &primary) == TC_NAME_UNKNOWN))
			continue;
		for (i = 0; i < p->nr_rules; i++)
			if (tc_rule_shares(&p->rules[i], sh))
				break;
		if (i == p->nr_rules || warned[i])
			continue;
		warned[i] = true;
		r = &p->rules[i];
		if (r->verdict == TRIAGE_VERDICT_PROTECT)
			snprintf(what, sizeof(what), "is protected");
		else if (r->verdict == TRIAGE_VERDICT_SACRIFICE)
			snprintf(what, sizeof(what), "is sacrificed");
		else
			snprintf(what, sizeof(what), "has its badness adjusted by %+d",
				 r->adjust);
		tc_diag(res, r->line, tc_keyword_column(text, len, r->line),
			TC_WARNING,
			"rule matches the SELinux domain %s, which is not one service's: %s; every such process %s (%s)",
			sh->name, sh->who, what, sh->advice);
	}
	free(warned);
}

/*
 * The memory of the system of /proc @proc that a process can hold at
 * most: RAM and swap (/proc/meminfo's MemTotal and SwapTotal), in kB;
 * false when unknown.
 */
static bool tc_mem_and_swap_kb(const char *proc, unsigned long long *kb)
{
	char *path = tc_path(proc, "meminfo");
	char *text = tc_read_file(path, 1 << 16, NULL);
	unsigned long long mem = 0, swap = 0;
	bool have_mem = false;
	const char *p;

	free(path);
	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, "MemTotal:", 9)) {
			mem = strtoull(p + 9, NULL, 10);
			have_mem = true;
		} else if (!strncmp(p, "SwapTotal:", 10)) {
			swap = strtoull(p + 10, NULL, 10);
		}
	}
	free(text);
	*kb = mem + swap;
	return have_mem && mem;
}

/*
 * A budget no process of this system can exceed (more than its RAM and
 * swap together) never ends the protection: most likely a unit mistake
 * (budget=64G meant for 64M).  Only when checking against this system.
 */
static void tc_check_budgets(const char *text, size_t len,
			     const struct tc_check_opts *o,
			     const struct triage_policy *p,
			     struct tc_check *res)
{
	unsigned long long kb;
	unsigned int i;

	if (!o->proc || !tc_mem_and_swap_kb(o->proc, &kb))
		return;
	for (i = 0; i < p->nr_rules; i++) {
		const struct triage_rule *r = &p->rules[i];
		char b[32], total[48];
		unsigned int l, c;

		if (!r->budget_mib ||
		    (unsigned long long)r->budget_mib * 1024 <= kb)
			continue;
		tc_budget_text(r->budget_mib, b, sizeof(b));
		tc_size_text(kb * 1024, total, sizeof(total));
		tc_locate(text, len, r->line, "budget", &l, &c);
		tc_diag(res, l, c, TC_WARNING,
			"budget=%s is more than this system's memory and swap together (%s): no process can exceed it, so the rule protects at any size (a unit mistake? M, G and T are MiB, GiB and TiB)",
			b, total);
	}
}

/* Warnings about the policy as a whole. */
static void tc_check_policy(const char *text, size_t len,
			    const struct tc_check_opts *o,
			    const struct triage_policy *p,
			    struct tc_check *res)
{
	const char *lsm = o->major_lsm;
	unsigned int i;
	int f;

	if (!p->nr_rules && !res->syntax_error)
		tc_diag(res, 0, 0, TC_WARNING,
			"the policy has no rules: it protects and sacrifices nothing, every OOM is decided as without triage");
	/* PSI: CONFIG_PSI, and not turned off with psi=0 on the command line */
	if (p->nr_pressure && o->proc && !tc_have_psi(o->proc)) {
		unsigned int line = p->pressure[0].line;

		tc_diag(res, line, tc_keyword_column(text, len, line),
			TC_WARNING, TC_NO_PSI);
	}
	tc_check_budgets(text, len, o, p, res);
	for (i = 0; i < p->nr_rules; i++) {
		const struct triage_rule *r = &p->rules[i];

		if (p->fallback == TRIAGE_FALLBACK_PANIC &&
		    r->verdict == TRIAGE_VERDICT_PROTECT &&
		    tc_rule_catch_all(r)) {
			tc_diag(res, r->line, tc_keyword_column(text, len, r->line),
				TC_WARNING, i == 0 ?
				"'fallback panic' with a rule that protects every task: every candidate is protected, so the first OOM panics the machine" :
				"'fallback panic' with a rule that protects every task no earlier rule decides: an OOM among only such tasks panics the machine");
			break;
		}
	}
	/*
	 * On AppArmor a process without a profile is labelled "unconfined":
	 * on a stock Debian server that is most daemons and every login
	 * shell.  The first rule that matches it decides for all of them.
	 * Said when the major LSM is AppArmor, or when nothing tells which
	 * LSM the policy is for.
	 */
	if (lsm ? !strcmp(lsm, "apparmor") : !o->sepol) {
		for (i = 0; i < p->nr_rules; i++) {
			const struct triage_rule *r = &p->rules[i];
			char what[64];

			if (!triage_rule_match(r, "unconfined"))
				continue;
			if (r->verdict == TRIAGE_VERDICT_PROTECT)
				snprintf(what, sizeof(what), "is protected");
			else if (r->verdict == TRIAGE_VERDICT_SACRIFICE)
				snprintf(what, sizeof(what), "is sacrificed");
			else
				snprintf(what, sizeof(what), "has its badness adjusted by %+d",
					 r->adjust);
			tc_diag(res, r->line, tc_keyword_column(text, len, r->line),
				TC_WARNING,
				"rule matches the AppArmor label 'unconfined': on an AppArmor system every unconfined process (every process without a profile: on a stock Debian server most daemons, sshd and every login shell) %s",
				what);
			break;
		}
	}
	if (!lsm || !strcmp(lsm, "selinux")) {
		tc_check_shared_domains(text, len, o, p, res);
		return;
	}
	for (i = 0; i < p->nr_rules; i++) {
		const struct triage_rule *r = &p->rules[i];

		for (f = 0; f < TRIAGE_FIELD_LABEL; f++) {
			unsigned int l, c;

			if (!r->match[f])
				continue;
			tc_locate(text, len, r->line, tc_field_word[f], &l, &c);
			tc_diag(res, l, c, TC_WARNING,
				"rule never matches: the major LSM is %s, whose labels are not SELinux contexts (%s= never matches them; use label=)",
				!strcmp(lsm, "apparmor") ? "AppArmor" :
				!strcmp(lsm, "smack") ? "Smack" : lsm,
				tc_field_word[f]);
			break;
		}
	}
}

/**
 * tc_check_text - check a policy text
 * @text: the policy (need not be NUL-terminated)
 * @len: its length
 * @o: what to check against (may be NULL: syntax and shadowing only)
 * @res: filled in; release with tc_check_free()
 *
 * Every syntax error is reported: after the kernel's parser stops at one,
 * the statement is blanked and the text parsed again, so the positions
 * and reasons are the kernel's own.  The rest of the policy is then
 * checked as if the bad statements were not there.
 */
void tc_check_text(const char *text, size_t len,
		   const struct tc_check_opts *o, struct tc_check *res)
{
	static const struct tc_check_opts none;
	const struct tc_sepol *s;
	struct triage_parse_error err;
	struct triage_policy *p = NULL;
	unsigned int i, j, rounds;
	char *work;
	int ret;

	if (!o)
		o = &none;
	s = o->sepol;
	memset(res, 0, sizeof(*res));
	work = tc_xmalloc(len + 1);
	memcpy(work, text, len);
	work[len] = '\0';
	for (rounds = 0; rounds < 1000; rounds++) {
		ret = triage_policy_parse(work, len, &p, &err);
		if (!ret)
			break;
		p = NULL;
		res->syntax_error = true;
		tc_syntax_diag(res, &err);
		/* no position, or a limit of the whole policy: stop here */
		if (!err.line || ret == -E2BIG ||
		    !tc_blank_statement(work, len, err.line))
			break;
	}
	free(work);
	res->policy = p;
	if (!p)
		goto sort;
	for (i = 0; i < p->nr_rules; i++) {
		const struct triage_rule *r = &p->rules[i];
		const char *lab = r->match[TRIAGE_FIELD_LABEL];
		unsigned int col = tc_keyword_column(text, len, r->line);
		bool names_ok = true;
		char *lit;

		if (s)
			names_ok = tc_check_selinux(text, len, o, r, res);
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
	tc_check_policy(text, len, o, p, res);
sort:
	if (res->ndiags > 1)
		qsort(res->diags, res->ndiags, sizeof(*res->diags),
		      tc_diag_cmp);
}

static const char *const tc_sev_word[] = { "note", "warning", "error" };

void tc_check_print(FILE *f, const char *file, const struct tc_check *res,
		    bool quiet)
{
	size_t i;

	file = tc_esc(file);
	for (i = 0; i < res->ndiags; i++) {
		const struct tc_diag *d = &res->diags[i];

		if (quiet && d->severity != TC_ERROR)
			continue;
		if (d->line)
			fprintf(f, "%s:%u:%u: %s: %s\n", file, d->line,
				d->column, tc_sev_word[d->severity], d->msg);
		else
			fprintf(f, "%s: %s: %s\n", file,
				tc_sev_word[d->severity], d->msg);
	}
}

void tc_check_json(FILE *f, const char *file, const char *selinux,
		   const struct tc_check *res, bool comma)
{
	size_t i, n;

	fputs(comma ? ",\"file\":" : "\"file\":", f);
	tc_json_str(f, file);
	fputs(",\"selinux_policy\":", f);
	if (selinux)
		tc_json_str(f, selinux);
	else
		fputs("null", f);
	fprintf(f, ",\"ok\":%s,\"rules\":%u,\"pressure_statements\":%u,\"budgets\":[",
		res->errors ? "false" : "true",
		res->policy ? res->policy->nr_rules : 0,
		res->policy ? res->policy->nr_pressure : 0);
	/* the protect rules with a budget */
	for (i = 0, n = 0; res->policy && i < res->policy->nr_rules; i++) {
		const struct triage_rule *r = &res->policy->rules[i];
		char b[32];

		if (!r->budget_mib)
			continue;
		tc_budget_text(r->budget_mib, b, sizeof(b));
		fprintf(f, "%s{\"rule\":%zu,\"line\":%u,\"budget\":\"%s\",\"budget_bytes\":%llu}",
			n++ ? "," : "", i + 1, r->line, b,
			(unsigned long long)r->budget_mib << 20);
	}
	fprintf(f, "],\"errors\":%u,\"warnings\":%u,\"diagnostics\":[",
		res->errors, res->warnings);
	for (i = 0; i < res->ndiags; i++) {
		const struct tc_diag *d = &res->diags[i];

		fprintf(f, "%s{\"line\":%u,\"column\":%u,\"severity\":\"%s\",\"message\":",
			i ? "," : "", d->line, d->column,
			tc_sev_word[d->severity]);
		tc_json_str(f, d->msg);
		fputc('}', f);
	}
	fputc(']', f);
}

void tc_check_add(struct tc_check *res, enum tc_severity sev,
		  const char *msg)
{
	tc_diag(res, 0, 0, sev, "%s", msg);
	if (res->ndiags > 1)
		qsort(res->diags, res->ndiags, sizeof(*res->diags),
		      tc_diag_cmp);
}

bool tc_have_psi(const char *proc)
{
	char *path = tc_path(proc, "pressure/memory");
	bool ok = access(path, F_OK) == 0;

	free(path);
	return ok;
}

void tc_check_free(struct tc_check *res)
{
	triage_policy_free(res->policy);
	free(res->diags);
	memset(res, 0, sizeof(*res));
}
