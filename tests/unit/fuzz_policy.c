// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the triage policy parser, printer and matcher.
 *
 * For every input:
 *  - parse it; if it is accepted, print it, parse the printout, print that
 *    again: both parses must succeed, agree rule by rule and pressure
 *    statement by pressure statement (each within the language's limits),
 *    and the two printouts must be identical (the canonical form is a
 *    fixed point);
 *    the printer must honour snprintf() semantics for every buffer size
 *    tried; a rejected input must carry a position and a reason;
 *  - split the input at its first newline into a glob and a string and
 *    compare triage_glob_match() with a simple recursive reference;
 *  - match the string against the parsed policy and check the result
 *    against triage_rule_match() on every rule.
 *
 * Build and run: make -C tests/unit OUT=/abs/dir fuzz-smoke (30 s), or
 * for longer, e.g. FUZZ_TIME=3600 make -C tests/unit OUT=... fuzz-smoke.
 */
#define _DEFAULT_SOURCE

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"

/*
 * Reference glob: the pattern compiled to items, then dynamic programming
 * over (pattern item, string byte); slow but obviously right.
 */
#define REF_P	64
#define REF_S	256

static bool ref_glob(const char *pat, const char *s)
{
	static bool dp[REF_P + 1][REF_S + 1];
	int kind[REF_P];	/* 0 literal, 1 '?', 2 '*' */
	char lit[REF_P];
	size_t np = 0, ns = strlen(s), i, j;

	while (*pat) {
		if (*pat == '*') {
			kind[np] = 2;
		} else if (*pat == '?') {
			kind[np] = 1;
		} else if (*pat == '\\' && pat[1]) {
			kind[np] = 0;
			lit[np] = *++pat;
		} else {
			kind[np] = 0;
			lit[np] = *pat;
		}
		pat++;
		np++;
	}
	/* dp[i][j]: items i.. match s[j..] */
	for (i = np + 1; i-- > 0;) {
		for (j = ns + 1; j-- > 0;) {
			if (i == np)
				dp[i][j] = j == ns;
			else if (kind[i] == 2)
				dp[i][j] = dp[i + 1][j] || (j < ns && dp[i][j + 1]);
			else if (j == ns)
				dp[i][j] = false;
			else
				dp[i][j] = (kind[i] == 1 || lit[i] == s[j]) &&
					   dp[i + 1][j + 1];
		}
	}
	return dp[0][0];
}

static char *print_all(const struct triage_policy *p, int *len)
{
	int n = triage_policy_print(p, NULL, 0);
	char *buf;

	if (n <= 0)
		abort();
	buf = malloc(n + 1);
	if (!buf)
		abort();
	if (triage_policy_print(p, buf, n + 1) != n || strlen(buf) != (size_t)n)
		abort();
	*len = n;
	return buf;
}

static void check_same(const struct triage_policy *a,
		       const struct triage_policy *b)
{
	unsigned int i, f;

	if (a->mode != b->mode || a->fallback != b->fallback ||
	    a->respect_score_adj != b->respect_score_adj ||
	    a->nr_rules != b->nr_rules)
		abort();
	for (i = 0; i < a->nr_rules; i++) {
		const struct triage_rule *x = &a->rules[i], *y = &b->rules[i];

		if (x->verdict != y->verdict || x->adjust != y->adjust ||
		    x->rank != y->rank || x->group != y->group)
			abort();
		for (f = 0; f < TRIAGE_NR_FIELDS; f++) {
			if (!x->match[f] != !y->match[f])
				abort();
			if (x->match[f] && strcmp(x->match[f], y->match[f]))
				abort();
		}
	}
	if (a->nr_pressure != b->nr_pressure ||
	    a->nr_pressure > TRIAGE_PRESSURE_MAX)
		abort();
	for (i = 0; i < a->nr_pressure; i++) {
		const struct triage_pressure *x = &a->pressure[i];
		const struct triage_pressure *y = &b->pressure[i];

		if (x->full != y->full || x->share != y->share ||
		    x->window_ms != y->window_ms || !x->cgroup != !y->cgroup)
			abort();
		if (x->share < 1 || x->share > 100 ||
		    x->window_ms < TRIAGE_PRESSURE_WINDOW_MIN_MS ||
		    x->window_ms > TRIAGE_PRESSURE_WINDOW_MAX_MS)
			abort();
		if (x->cgroup && (strcmp(x->cgroup, y->cgroup) ||
				  x->cgroup[0] != '/' || strstr(x->cgroup, "//")))
			abort();
	}
}

static void check_truncation(const struct triage_policy *p, const char *full,
			     int n)
{
	static const size_t sizes[] = { 1, 2, 7, 64 };
	char buf[65];
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t sz = sizes[i], want = (size_t)n < sz ? (size_t)n : sz - 1;

		memset(buf, 0x55, sizeof(buf));
		if (triage_policy_print(p, buf, sz) != n)
			abort();
		if (strlen(buf) != want || memcmp(buf, full, want))
			abort();
		if (buf[sz] != 0x55)
			abort();
	}
}

static void check_match(const struct triage_policy *p, const char *label)
{
	int idx = triage_policy_match(p, label);
	unsigned int i;

	for (i = 0; i < p->nr_rules; i++) {
		bool m = triage_rule_match(&p->rules[i], label);

		if ((int)i < idx && m)
			abort();
		if ((int)i == idx && !m)
			abort();
		if (idx < 0 && m)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct triage_policy *p = NULL, *q = NULL;
	struct triage_parse_error err;
	char *copy, *nl, *t1, *t2;
	int ret, n1, n2;

	ret = triage_policy_parse((const char *)data, size, &p, &err);
	if (ret) {
		if (p || !err.line || !err.column || !err.reason[0] ||
		    strnlen(err.reason, sizeof(err.reason)) == sizeof(err.reason))
			abort();
	} else {
		t1 = print_all(p, &n1);
		check_truncation(p, t1, n1);
		if (triage_policy_parse(t1, n1, &q, &err))
			abort();
		check_same(p, q);
		t2 = print_all(q, &n2);
		if (n1 != n2 || memcmp(t1, t2, n1))
			abort();
		free(t1);
		free(t2);
		triage_policy_free(q);
	}

	/* glob differential and matcher consistency */
	copy = malloc(size + 1);
	if (!copy)
		abort();
	memcpy(copy, data, size);
	copy[size] = '\0';
	nl = strchr(copy, '\n');
	if (nl) {
		*nl = '\0';
		if (strlen(copy) <= REF_P && strlen(nl + 1) <= REF_S &&
		    triage_glob_match(copy, nl + 1) != ref_glob(copy, nl + 1))
			abort();
		if (p)
			check_match(p, nl + 1);
	}
	if (p)
		check_match(p, copy);
	free(copy);
	triage_policy_free(p);
	return 0;
}
