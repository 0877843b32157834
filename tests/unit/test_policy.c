// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the triage policy parser, printer and matcher
 * (security/triage/policy.c and match.c, built in userspace through
 * userspace/compat), and the walk over tests/corpus/policy.
 */
#define _DEFAULT_SOURCE

#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy.h"

#ifndef TRIAGE_CORPUS_DIR
#error "build with -DTRIAGE_CORPUS_DIR=\"/path/to/tests/corpus/policy\""
#endif

/* ---------------------------------------------------------------- helpers */

static struct triage_policy *parse_ok(const char *text)
{
	struct triage_policy *p = NULL;
	struct triage_parse_error err;
	int ret;

	ret = triage_policy_parse(text, strlen(text), &p, &err);
	if (ret)
		fail_msg("policy rejected: %d %u:%u: %s\n--\n%s", ret,
			 err.line, err.column, err.reason, text);
	assert_non_null(p);
	return p;
}

/* Parse a policy that must fail; return "LINE:COL: reason". */
static const char *parse_fail(const char *text, size_t len, int want_ret)
{
	static char buf[256];
	struct triage_policy *p = (void *)1;
	struct triage_parse_error err;
	int ret;

	ret = triage_policy_parse(text, len, &p, &err);
	assert_int_equal(ret, want_ret);
	assert_null(p);
	snprintf(buf, sizeof(buf), "%u:%u: %s", err.line, err.column,
		 err.reason);
	return buf;
}

static char *print_policy(const struct triage_policy *p)
{
	int n = triage_policy_print(p, NULL, 0);
	char *buf;

	assert_true(n > 0);
	buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(triage_policy_print(p, buf, n + 1), n);
	assert_int_equal(strlen(buf), n);
	return buf;
}

static void assert_same_policy(const struct triage_policy *a,
			       const struct triage_policy *b)
{
	unsigned int i, f;

	assert_int_equal(a->mode, b->mode);
	assert_int_equal(a->fallback, b->fallback);
	assert_int_equal(a->respect_score_adj, b->respect_score_adj);
	assert_int_equal(a->nr_rules, b->nr_rules);
	for (i = 0; i < a->nr_rules; i++) {
		const struct triage_rule *x = &a->rules[i], *y = &b->rules[i];

		assert_int_equal(x->verdict, y->verdict);
		assert_int_equal(x->adjust, y->adjust);
		assert_int_equal(x->rank, y->rank);
		assert_int_equal(x->group, y->group);
		for (f = 0; f < TRIAGE_NR_FIELDS; f++) {
			if (!x->match[f] || !y->match[f])
				assert_ptr_equal(x->match[f], y->match[f]);
			else
				assert_string_equal(x->match[f], y->match[f]);
		}
	}
	assert_int_equal(a->nr_pressure, b->nr_pressure);
	for (i = 0; i < a->nr_pressure; i++) {
		const struct triage_pressure *x = &a->pressure[i];
		const struct triage_pressure *y = &b->pressure[i];

		assert_int_equal(x->full, y->full);
		assert_int_equal(x->share, y->share);
		assert_int_equal(x->window_ms, y->window_ms);
		if (!x->cgroup || !y->cgroup)
			assert_ptr_equal(x->cgroup, y->cgroup);
		else
			assert_string_equal(x->cgroup, y->cgroup);
	}
}

/* Parse, print, reparse, reprint: same policy and same text. */
static char *round_trip(const char *text)
{
	struct triage_policy *a = parse_ok(text), *b;
	char *t1 = print_policy(a), *t2;

	b = parse_ok(t1);
	t2 = print_policy(b);
	assert_string_equal(t1, t2);
	assert_same_policy(a, b);
	free(t2);
	triage_policy_free(a);
	triage_policy_free(b);
	return t1;
}

/* -------------------------------------------------------------- parsing */

static void test_defaults(void **state)
{
	struct triage_policy *p;

	(void)state;
	p = parse_ok("");
	assert_int_equal(p->mode, TRIAGE_MODE_ENFORCE);
	assert_int_equal(p->fallback, TRIAGE_FALLBACK_CLASSIC);
	assert_false(p->respect_score_adj);
	assert_int_equal(p->nr_rules, 0);
	assert_int_equal(p->nr_pressure, 0);
	triage_policy_free(p);

	/* NULL text is fine when empty */
	assert_int_equal(triage_policy_parse(NULL, 0, &p, NULL), 0);
	assert_non_null(p);
	assert_int_equal(p->nr_rules, 0);
	triage_policy_free(p);
	triage_policy_free(NULL);
}

static void test_settings(void **state)
{
	struct triage_policy *p;

	(void)state;
	p = parse_ok("mode permissive\nfallback panic\noom-score-adj respect\n");
	assert_int_equal(p->mode, TRIAGE_MODE_PERMISSIVE);
	assert_int_equal(p->fallback, TRIAGE_FALLBACK_PANIC);
	assert_true(p->respect_score_adj);
	triage_policy_free(p);

	p = parse_ok("fallback least-protected\noom-score-adj override\n");
	assert_int_equal(p->fallback, TRIAGE_FALLBACK_LEAST_PROTECTED);
	assert_false(p->respect_score_adj);
	triage_policy_free(p);
}

static void test_rules(void **state)
{
	struct triage_policy *p;
	const struct triage_rule *r;

	(void)state;
	p = parse_ok("protect type=sshd_t\n"
		     "# comment\n\n"
		     "sacrifice user=user_u role=user_r type=batch_t "
		     "range=s0-s0:c0.c3 rank=10 group\n"
		     "adjust -250 label=\"/usr/bin/a b\"\n");
	assert_int_equal(p->nr_rules, 3);

	r = &p->rules[0];
	assert_int_equal(r->verdict, TRIAGE_VERDICT_PROTECT);
	assert_string_equal(r->match[TRIAGE_FIELD_TYPE], "sshd_t");
	assert_null(r->match[TRIAGE_FIELD_USER]);
	assert_null(r->match[TRIAGE_FIELD_LABEL]);
	assert_int_equal(r->line, 1);

	r = &p->rules[1];
	assert_int_equal(r->verdict, TRIAGE_VERDICT_SACRIFICE);
	assert_string_equal(r->match[TRIAGE_FIELD_USER], "user_u");
	assert_string_equal(r->match[TRIAGE_FIELD_ROLE], "user_r");
	assert_string_equal(r->match[TRIAGE_FIELD_TYPE], "batch_t");
	assert_string_equal(r->match[TRIAGE_FIELD_RANGE], "s0-s0:c0.c3");
	assert_int_equal(r->rank, 10);
	assert_true(r->group);
	assert_int_equal(r->line, 4);

	r = &p->rules[2];
	assert_int_equal(r->verdict, TRIAGE_VERDICT_ADJUST);
	assert_int_equal(r->adjust, -250);
	assert_string_equal(r->match[TRIAGE_FIELD_LABEL], "/usr/bin/a b");
	assert_int_equal(r->rank, 0);
	assert_false(r->group);
	assert_int_equal(r->line, 5);

	/* one allocation holds everything */
	assert_true(p->size >= sizeof(*p) + 3 * sizeof(*r));
	triage_policy_free(p);
}

static void test_continuation_and_escapes(void **state)
{
	struct triage_policy *p;

	(void)state;
	p = parse_ok("sacrifice \\\n  type=ba\\\nt_t \\\n  rank=1\\\n0\n"
		     "protect label=\"q\\\"uote\\\\d\"\n");
	assert_int_equal(p->nr_rules, 2);
	assert_string_equal(p->rules[0].match[TRIAGE_FIELD_TYPE], "bat_t");
	assert_int_equal(p->rules[0].rank, 10);
	assert_int_equal(p->rules[0].line, 1);
	assert_string_equal(p->rules[1].match[TRIAGE_FIELD_LABEL],
			    "q\"uote\\d");
	assert_int_equal(p->rules[1].line, 6);
	triage_policy_free(p);
}

static void test_numbers(void **state)
{
	static const struct {
		const char *text;
		int adjust;
	} ok[] = {
		{ "adjust 0 type=t", 0 },
		{ "adjust +0 type=t", 0 },
		{ "adjust -0 type=t", 0 },
		{ "adjust 1000 type=t", 1000 },
		{ "adjust +1000 type=t", 1000 },
		{ "adjust -1000 type=t", -1000 },
		{ "adjust 0000000000000000000000001 type=t", 1 },
		{ "adjust \"-3\" type=t", -3 },
	};
	struct triage_policy *p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		p = parse_ok(ok[i].text);
		assert_int_equal(p->rules[0].adjust, ok[i].adjust);
		triage_policy_free(p);
	}
	p = parse_ok("sacrifice type=t rank=1000\nsacrifice type=t rank=+0");
	assert_int_equal(p->rules[0].rank, 1000);
	assert_int_equal(p->rules[1].rank, 0);
	triage_policy_free(p);
}

static void test_errors_inline(void **state)
{
	static const struct {
		const char *text;
		const char *want;
	} cases[] = {
		{ "protect type=x\nprotec type=y\n",
		  "2:1: unknown keyword 'protec'" },
		{ "\n\n   sacrifice type=x rank=abc",
		  "3:26: invalid rank 'abc'" },
		{ "adjust 5000 type=x", "1:8: adjust value out of range -1000..1000" },
		{ "protect type=a type=b", "1:16: duplicate matcher 'type'" },
		{ "protect \"x", "1:9: unterminated string" },
		{ "mode enforce\nmode enforce", "2:1: duplicate setting 'mode' (first on line 1)" },
		{ "protect type=x\tfoo", "1:16: unknown option 'foo'" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(parse_fail(cases[i].text,
					       strlen(cases[i].text), -EINVAL),
				    cases[i].want);

	/* a NUL inside the given length is an error, not the end */
	assert_string_equal(parse_fail("protect type=x\0protect", 22, -EINVAL),
			    "1:15: control character 0x00");
	/* NULL text with a length */
	parse_fail(NULL, 3, -EINVAL);
}

static void test_error_null_err(void **state)
{
	struct triage_policy *p = NULL;

	(void)state;
	assert_int_equal(triage_policy_parse("bogus", 5, &p, NULL), -EINVAL);
	assert_null(p);
	{
		char *big = calloc(1, TRIAGE_POLICY_MAX_SIZE + 1);

		assert_non_null(big);
		assert_int_equal(triage_policy_parse(big,
						     TRIAGE_POLICY_MAX_SIZE + 1,
						     &p, NULL), -E2BIG);
		assert_null(p);
		free(big);
	}
}

static void test_limits(void **state)
{
	static const char rule[] = "protect type=t\n";
	size_t rl = sizeof(rule) - 1, i, len;
	struct triage_policy *p;
	struct triage_parse_error err;
	char *text;

	(void)state;
	/* exactly TRIAGE_POLICY_MAX_SIZE bytes is accepted */
	text = malloc(TRIAGE_POLICY_MAX_SIZE + 2);
	assert_non_null(text);
	memset(text, '#', TRIAGE_POLICY_MAX_SIZE + 1);
	text[TRIAGE_POLICY_MAX_SIZE - 1] = '\n';
	assert_int_equal(triage_policy_parse(text, TRIAGE_POLICY_MAX_SIZE, &p,
					     &err), 0);
	triage_policy_free(p);
	assert_string_equal(parse_fail(text, TRIAGE_POLICY_MAX_SIZE + 1,
				       -E2BIG),
			    "2:1: policy too large (max 262144 bytes)");
	free(text);

	/* exactly TRIAGE_POLICY_MAX_RULES rules are accepted */
	len = rl * (TRIAGE_POLICY_MAX_RULES + 1);
	assert_true(len <= TRIAGE_POLICY_MAX_SIZE);
	text = malloc(len + 1);
	assert_non_null(text);
	for (i = 0; i <= TRIAGE_POLICY_MAX_RULES; i++)
		memcpy(text + i * rl, rule, rl);
	text[len] = '\0';
	assert_int_equal(triage_policy_parse(text, len - rl, &p, &err), 0);
	assert_int_equal(p->nr_rules, TRIAGE_POLICY_MAX_RULES);
	assert_int_equal(triage_policy_match(p, "u:r:t:s0"), 0);
	assert_int_equal(p->rules[TRIAGE_POLICY_MAX_RULES - 1].line,
			 TRIAGE_POLICY_MAX_RULES);
	triage_policy_free(p);
	assert_string_equal(parse_fail(text, len, -E2BIG),
			    "4097:1: too many rules (max 4096)");
	free(text);
}

static void test_value_length(void **state)
{
	char text[600];
	struct triage_policy *p;

	(void)state;
	snprintf(text, sizeof(text), "protect label=%0255d", 0);
	p = parse_ok(text);
	assert_int_equal(strlen(p->rules[0].match[TRIAGE_FIELD_LABEL]), 255);
	triage_policy_free(p);
	snprintf(text, sizeof(text), "protect label=%0256d", 0);
	assert_string_equal(parse_fail(text, strlen(text), -EINVAL),
			    "1:15: value too long (max 255 bytes)");
}

/* ------------------------------------------------------------- pressure */

static void test_pressure(void **state)
{
	const struct triage_pressure *ps;
	struct triage_policy *p;

	(void)state;
	p = parse_ok("pressure full 10% 2s\n"
		     "protect type=sshd_t\n"
		     "pressure some 20% 1500ms cgroup=/batch.slice\n"
		     "sacrifice type=batch_t\n"
		     "pressure \"some\" \"+5%\" \\\n"
		     "   500ms cgroup=\"/user.slice/my app.scope\"  # quoted\n"
		     "pressure full 100% 10s cgroup=/a/b.c/..d/.e\n");
	/* not rules: the rules are numbered without them */
	assert_int_equal(p->nr_rules, 2);
	assert_int_equal(p->rules[0].line, 2);
	assert_int_equal(p->rules[1].line, 4);
	assert_int_equal(p->nr_pressure, 4);

	ps = &p->pressure[0];
	assert_true(ps->full);
	assert_int_equal(ps->share, 10);
	assert_int_equal(ps->window_ms, 2000);
	assert_null(ps->cgroup);
	assert_int_equal(ps->line, 1);

	ps = &p->pressure[1];
	assert_false(ps->full);
	assert_int_equal(ps->share, 20);
	assert_int_equal(ps->window_ms, 1500);
	assert_string_equal(ps->cgroup, "/batch.slice");
	assert_int_equal(ps->line, 3);

	ps = &p->pressure[2];
	assert_false(ps->full);
	assert_int_equal(ps->share, 5);
	assert_int_equal(ps->window_ms, 500);
	assert_string_equal(ps->cgroup, "/user.slice/my app.scope");
	assert_int_equal(ps->line, 5);

	ps = &p->pressure[3];
	assert_true(ps->full);
	assert_int_equal(ps->share, 100);
	assert_int_equal(ps->window_ms, 10000);
	assert_string_equal(ps->cgroup, "/a/b.c/..d/.e");
	assert_int_equal(ps->line, 7);

	/* one allocation holds everything, the strings inside it */
	assert_true(p->size >= sizeof(*p) + 2 * sizeof(*p->rules) +
			       4 * sizeof(*p->pressure));
	assert_true((const char *)p->pressure[1].cgroup > (const char *)p &&
		    (const char *)p->pressure[1].cgroup < (const char *)p + p->size);
	/* rules still match as without the pressure statements */
	assert_int_equal(triage_policy_match(p, "u:r:batch_t:s0"), 1);
	triage_policy_free(p);

	/* a policy of only pressure statements has no rules */
	p = parse_ok("pressure some 1% 1s cgroup=/a\npressure some 1% 1s cgroup=/a/b\n");
	assert_int_equal(p->nr_rules, 0);
	assert_int_equal(p->nr_pressure, 2);
	triage_policy_free(p);
}

static void test_pressure_values(void **state)
{
	static const struct {
		const char *share, *window;
		unsigned int want_share, want_ms;
	} ok[] = {
		{ "1%", "500ms", 1, 500 },
		{ "100%", "10s", 100, 10000 },
		{ "+50%", "10000ms", 50, 10000 },
		{ "0000000000000000000000007%", "1s", 7, 1000 },
		{ "\"25%\"", "\"1000ms\"", 25, 1000 },
		{ "99%", "0000000000000000000000002s", 99, 2000 },
		{ "3%", "9999ms", 3, 9999 },
	};
	static const char *const bad_share[] = {
		"0%", "101%", "-1%", "%", "10", "10%%", "1.5%", "x%", "10 %",
		"1000000000000%", "\"\"",
	};
	static const char *const bad_window[] = {
		"499ms", "10001ms", "0s", "11s", "-1s", "2", "ms", "s", "1.5s",
		"2S", "2sec", "2m", "1s500ms", "99999999999999s", "\"\"",
	};
	char text[128], want[160];
	struct triage_policy *p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(text, sizeof(text), "pressure full %s %s", ok[i].share,
			 ok[i].window);
		p = parse_ok(text);
		assert_int_equal(p->pressure[0].share, ok[i].want_share);
		assert_int_equal(p->pressure[0].window_ms, ok[i].want_ms);
		triage_policy_free(p);
	}
	for (i = 0; i < sizeof(bad_share) / sizeof(bad_share[0]); i++) {
		const char *shown = bad_share[i][0] == '"' ? "" : bad_share[i];

		snprintf(text, sizeof(text), "pressure full %s 2s", bad_share[i]);
		if (!strcmp(bad_share[i], "10 %")) {
			/* the window is then "%" */
			assert_string_equal(parse_fail(text, strlen(text), -EINVAL),
					    "1:15: invalid pressure share '10' (1% to 100%)");
			continue;
		}
		snprintf(want, sizeof(want),
			 "1:15: invalid pressure share '%s' (1%% to 100%%)", shown);
		assert_string_equal(parse_fail(text, strlen(text), -EINVAL), want);
	}
	for (i = 0; i < sizeof(bad_window) / sizeof(bad_window[0]); i++) {
		const char *shown = bad_window[i][0] == '"' ? "" : bad_window[i];

		snprintf(text, sizeof(text), "pressure some 10%% %s", bad_window[i]);
		snprintf(want, sizeof(want),
			 "1:19: invalid pressure window '%s' (500ms to 10s)", shown);
		assert_string_equal(parse_fail(text, strlen(text), -EINVAL), want);
	}
}

static void test_pressure_cgroup(void **state)
{
	static const char *const ok[] = {
		"/a", "/batch.slice", "/a/b/c", "/...", "/a/.b", "/a/b..",
		"\"/my app.scope\"", "\"/a#b\"", "/system.slice/x@1.service",
	};
	static const char *const bad[] = {
		"a", "batch.slice/", "/", "/a/", "//a", "/a//b", "/.", "/..",
		"/a/.", "/a/..", "/./a", "/a/../b", "\"/a/\"", "\"\\\\a\"",
		"//",
	};
	char text[400], want[400];
	struct triage_policy *p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(text, sizeof(text), "pressure full 10%% 2s cgroup=%s",
			 ok[i]);
		p = parse_ok(text);
		assert_non_null(p->pressure[0].cgroup);
		triage_policy_free(p);
		free(round_trip(text));
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char value[64];
		size_t l = strlen(bad[i]);

		/* the value as the error quotes it: unquoted, unescaped */
		if (bad[i][0] == '"') {
			size_t j, o = 0;

			for (j = 1; j + 1 < l; j++) {
				if (bad[i][j] == '\\')
					j++;
				value[o++] = bad[i][j];
			}
			value[o] = '\0';
		} else {
			snprintf(value, sizeof(value), "%s", bad[i]);
		}
		snprintf(text, sizeof(text), "pressure full 10%% 2s cgroup=%s",
			 bad[i]);
		snprintf(want, sizeof(want),
			 "1:29: invalid pressure cgroup '%s' (an absolute cgroup path, not /)",
			 value);
		assert_string_equal(parse_fail(text, strlen(text), -EINVAL), want);
	}

	/* at most TRIAGE_VALUE_MAX_LEN bytes, like every value */
	snprintf(text, sizeof(text), "pressure full 10%% 2s cgroup=/%0254d", 0);
	p = parse_ok(text);
	assert_int_equal(strlen(p->pressure[0].cgroup), 255);
	triage_policy_free(p);
	snprintf(text, sizeof(text), "pressure full 10%% 2s cgroup=/%0255d", 0);
	assert_string_equal(parse_fail(text, strlen(text), -EINVAL),
			    "1:29: value too long (max 255 bytes)");
}

static void test_pressure_errors(void **state)
{
	static const struct {
		const char *text;
		const char *want;
	} cases[] = {
		{ "pressure", "1:9: missing pressure kind" },
		{ "pressure   # nothing", "1:9: missing pressure kind" },
		{ "pressure cgroup=/a", "1:9: missing pressure kind" },
		{ "pressure=full 1% 1s", "1:9: unexpected '='" },
		{ "pressure\"full\" 1% 1s", "1:9: expected space or end of line" },
		{ "pressure Full 1% 1s", "1:10: invalid pressure kind 'Full' (some or full)" },
		{ "pressure \"\" 1% 1s", "1:10: invalid pressure kind '' (some or full)" },
		{ "pressure full", "1:14: missing pressure share" },
		{ "pressure full cgroup=/a 1% 1s", "1:14: missing pressure share" },
		{ "pressure full 10%", "1:18: missing pressure window" },
		{ "pressure \"full\"\t10%\t\t# c", "1:20: missing pressure window" },
		{ "pressure full 10% cgroup=/a", "1:18: missing pressure window" },
		{ "pressure full 10%=2s", "1:14: missing pressure share" },
		{ "pressure full 10% 2s=x", "1:18: missing pressure window" },
		{ "pressure full 10% \"2s\"=x", "1:23: expected space or end of line" },
		{ "pressure full 10% 2s now", "1:22: unknown option 'now'" },
		{ "pressure full 10% 2s group", "1:22: unknown option 'group'" },
		{ "pressure full 10% 2s type=t", "1:22: unknown matcher 'type'" },
		{ "pressure full 10% 2s rank=1", "1:22: unknown matcher 'rank'" },
		{ "pressure full 10% 2s \"/a\"", "1:22: unexpected string" },
		{ "pressure full 10% 2s cgroup", "1:28: expected '=' after 'cgroup'" },
		{ "pressure full 10% 2s cgroup =/a", "1:28: expected '=' after 'cgroup'" },
		{ "pressure full 10% 2s cgroup=", "1:29: missing value for 'cgroup'" },
		{ "pressure full 10% 2s cgroup=\"\"", "1:29: empty value for 'cgroup'" },
		{ "pressure full 10% 2s cgroup=/a=b", "1:31: expected space or end of line" },
		{ "pressure full 10% 2s cgroup=/a cgroup=/a", "1:32: duplicate option 'cgroup'" },
		{ "protect type=x cgroup=/a", "1:16: unknown matcher 'cgroup'" },
		{ "Pressure full 10% 2s", "1:1: unknown keyword 'Pressure'" },
		/* one statement per scope */
		{ "pressure full 10% 2s\npressure some 1% 1s",
		  "2:1: duplicate pressure scope 'system' (first on line 1)" },
		{ "pressure full 10% 2s cgroup=/a\n\n  pressure full 10% 2s cgroup=/a",
		  "3:31: duplicate pressure scope '/a' (first on line 1)" },
		{ "pressure full 10% 2s cgroup=/a\npressure full 10% 2s cgroup=\"/\\\na\"",
		  "2:29: duplicate pressure scope '/a' (first on line 1)" },
		{ "pressure full 10% 2s cgroup=/a\npressure full 10% 2s cgroup=/\\\na",
		  "2:29: duplicate pressure scope '/a' (first on line 1)" },
		/* errors in the statement come first, left to right */
		{ "pressure full 10% 2s\npressure some 1% 1s bad",
		  "2:21: unknown option 'bad'" },
		{ "pressure full 10% 2s\npressure some 1% 1ms",
		  "2:18: invalid pressure window '1ms' (500ms to 10s)" },
		/* a long path is cut in the message */
		{ "pressure full 10% 2s cgroup=/0123456789012345678901234567890123456789\n"
		  "pressure full 10% 2s cgroup=/0123456789012345678901234567890123456789",
		  "2:29: duplicate pressure scope '/0123456789012345678901234567890...' (first on line 1)" },
		{ "pressure full 10% 2s cgroup=0123456789012345678901234567890123456789",
		  "1:29: invalid pressure cgroup '01234567890123456789012345678901...' (an absolute cgroup path, not /)" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(parse_fail(cases[i].text,
					       strlen(cases[i].text), -EINVAL),
				    cases[i].want);
}

static void test_pressure_limits(void **state)
{
	char *text;
	size_t i, len = 0;
	struct triage_policy *p;

	(void)state;
	text = malloc(TRIAGE_PRESSURE_MAX * 64 + 64);
	assert_non_null(text);
	/* different paths are different scopes, even nested ones */
	for (i = 0; i < TRIAGE_PRESSURE_MAX - 1; i++)
		len += sprintf(text + len, "pressure some 10%% 2s cgroup=/s%s%zu\n",
			       i % 2 ? "/t" : "", i);
	len += sprintf(text + len, "protect type=t\npressure full 10%% 2s\n");
	p = parse_ok(text);
	assert_int_equal(p->nr_pressure, TRIAGE_PRESSURE_MAX);
	assert_int_equal(p->nr_rules, 1);
	assert_null(p->pressure[TRIAGE_PRESSURE_MAX - 1].cgroup);
	assert_int_equal(p->pressure[TRIAGE_PRESSURE_MAX - 1].line,
			 TRIAGE_PRESSURE_MAX + 1);
	triage_policy_free(p);
	free(round_trip(text));

	/* the 17th is too many, whatever it says, like the 4097th rule */
	sprintf(text + len, "pressure full 1%% 1s cgroup=/other\n");
	assert_string_equal(parse_fail(text, strlen(text), -E2BIG),
			    "18:1: too many pressure statements (max 16)");
	sprintf(text + len, "pressure full 1%% 1s\n");
	assert_string_equal(parse_fail(text, strlen(text), -E2BIG),
			    "18:1: too many pressure statements (max 16)");
	assert_int_equal(triage_policy_parse(text, strlen(text), &p, NULL),
			 -E2BIG);
	assert_null(p);
	free(text);
}

/* ------------------------------------------------------------- printing */

static void test_print_canonical(void **state)
{
	char *t;

	(void)state;
	t = round_trip("adjust +5 label=\"a b\" type=t  # c\n"
		       "sacrifice group rank=3 user=u\n"
		       "mode permissive\n");
	assert_string_equal(t,
			    "mode permissive\n"
			    "fallback classic\n"
			    "oom-score-adj override\n"
			    "adjust +5 type=t label=\"a b\"\n"
			    "sacrifice user=u rank=3 group\n");
	free(t);

	t = round_trip("protect label=\"q\\\"#=\\\\\\\\x\"\n");
	assert_non_null(strstr(t, "\nprotect label=\"q\\\"#=\\\\\\\\x\"\n"));
	free(t);

	/* pressure statements: after the settings, before the rules */
	t = round_trip("sacrifice type=b\n"
		       "pressure some 20% 1500ms cgroup=\"/batch.slice\"\n"
		       "fallback panic\n"
		       "pressure \"full\" +10% 2000ms\n"
		       "pressure full 1% 10000ms cgroup=\"/a b/c\\\"d\"\n"
		       "protect type=s\n"
		       "pressure some 100% 9999ms cgroup=/x\n"
		       "pressure some 5% 1s cgroup=\"/x/y\"\n");
	assert_string_equal(t,
			    "mode enforce\n"
			    "fallback panic\n"
			    "oom-score-adj override\n"
			    "pressure some 20% 1500ms cgroup=/batch.slice\n"
			    "pressure full 10% 2s\n"
			    "pressure full 1% 10s cgroup=\"/a b/c\\\"d\"\n"
			    "pressure some 100% 9999ms cgroup=/x\n"
			    "pressure some 5% 1s cgroup=/x/y\n"
			    "sacrifice type=b\n"
			    "protect type=s\n");
	free(t);
}

static void test_print_truncation(void **state)
{
	struct triage_policy *p;
	char buf[64], small[8];
	int n;

	(void)state;
	p = parse_ok("protect type=sshd_t\nsacrifice type=batch_t rank=5\n");
	n = triage_policy_print(p, NULL, 0);
	assert_int_equal(n, (int)strlen("mode enforce\nfallback classic\n"
					"oom-score-adj override\n"
					"protect type=sshd_t\n"
					"sacrifice type=batch_t rank=5\n"));
	memset(small, 'x', sizeof(small));
	assert_int_equal(triage_policy_print(p, small, sizeof(small)), n);
	assert_string_equal(small, "mode en");
	memset(small, 'x', sizeof(small));
	assert_int_equal(triage_policy_print(p, small, 1), n);
	assert_int_equal(small[0], '\0');
	assert_int_equal(small[1], 'x');
	assert_int_equal(triage_policy_print(p, buf, sizeof(buf)), n);
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
	triage_policy_free(p);

	/* NULL prints the empty policy */
	n = triage_policy_print(NULL, buf, sizeof(buf));
	assert_string_equal(buf,
			    "mode enforce\nfallback classic\noom-score-adj override\n");
	assert_int_equal(n, strlen(buf));
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(triage_verdict_name(TRIAGE_VERDICT_NONE), "none");
	assert_string_equal(triage_verdict_name(TRIAGE_VERDICT_PROTECT),
			    "protect");
	assert_string_equal(triage_verdict_name(TRIAGE_VERDICT_SACRIFICE),
			    "sacrifice");
	assert_string_equal(triage_verdict_name(TRIAGE_VERDICT_ADJUST),
			    "adjust");
	assert_string_equal(triage_verdict_name((enum triage_verdict)42),
			    "unknown");
	assert_string_equal(triage_mode_name(TRIAGE_MODE_PERMISSIVE),
			    "permissive");
	assert_string_equal(triage_fallback_name(TRIAGE_FALLBACK_LEAST_PROTECTED),
			    "least-protected");
	assert_string_equal(triage_field_name(TRIAGE_FIELD_RANGE), "range");
	assert_string_equal(triage_field_name(TRIAGE_NR_FIELDS), "unknown");
}

/* ------------------------------------------------------------- matching */

static void test_glob(void **state)
{
	static const struct {
		const char *pattern, *str;
		bool match;
	} cases[] = {
		{ "", "", true },
		{ "", "a", false },
		{ "a", "", false },
		{ "*", "", true },
		{ "*", "anything/at:all", true },
		{ "**", "", true },
		{ "***a***", "a", true },
		{ "***a***", "bab", true },
		{ "***a***", "bbb", false },
		{ "?", "", false },
		{ "?", "x", true },
		{ "?", "xy", false },
		{ "??", "xy", true },
		{ "?*", "", false },
		{ "*?", "x", true },
		{ "a*b", "ab", true },
		{ "a*b", "axxxb", true },
		{ "a*b", "axxxbc", false },
		{ "a*b*c", "abbbcbc", true },
		{ "a*b*c", "abbbcbd", false },
		{ "*sshd", "/usr/sbin/sshd", true },
		{ "/usr/*/sshd", "/usr/sbin/sshd", true },
		{ "/usr/*/sshd", "/usr/local/sbin/sshd", true },
		{ "*:sshd_t:*", "system_u:system_r:sshd_t:s0", true },
		{ "*:sshd_t:*", "system_u:system_r:sshd_tx:s0", false },
		{ "\\*", "*", true },
		{ "\\*", "a", false },
		{ "\\?", "?", true },
		{ "\\?", "a", false },
		{ "\\\\", "\\", true },
		{ "\\a", "a", true },
		{ "a\\", "a\\", true },
		{ "a\\", "a", false },
		{ "\\", "\\", true },
		{ "*\\*", "abc*", true },
		{ "*\\*", "abc", false },
		{ "*\\", "abc\\", true },
		{ "[ab]", "a", false },
		{ "[ab]", "[ab]", true },
		{ "a*a*a*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false },
		{ "*a*a*a*a*a*a*a*a*", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", true },
		{ "_", "_", true },
		{ "_", "__", false },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (triage_glob_match(cases[i].pattern, cases[i].str) !=
		    cases[i].match)
			fail_msg("glob '%s' vs '%s': expected %s",
				 cases[i].pattern, cases[i].str,
				 cases[i].match ? "match" : "no match");
	}
}

static void test_match_fields(void **state)
{
	struct triage_policy *p;

	(void)state;
	p = parse_ok("protect user=system_u type=sshd_t\n"        /* 0 */
		     "protect role=sysadm_r\n"                   /* 1 */
		     "sacrifice range=s0-s0:c0.c3\n"             /* 2 */
		     "sacrifice range=s0\n"                      /* 3 */
		     "adjust +10 type=httpd_t label=*:s0\n");    /* 4 */

	assert_int_equal(triage_policy_match(p, "system_u:system_r:sshd_t:s0"), 0);
	/* all matchers of a rule must match */
	assert_int_equal(triage_policy_match(p, "user_u:system_r:sshd_t:s1"), -1);
	assert_int_equal(triage_policy_match(p, "root:sysadm_r:sysadm_t:s0"), 1);
	/* exact comparison, no prefixes */
	assert_int_equal(triage_policy_match(p, "root:sysadm_rr:sysadm_t:s1"), -1);
	assert_int_equal(triage_policy_match(p, "root:sysadm:sysadm_t:s1"), -1);
	/* the range is everything after the third colon */
	assert_int_equal(triage_policy_match(p, "u:r:t:s0-s0:c0.c3"), 2);
	assert_int_equal(triage_policy_match(p, "u:r:t:s0-s0:c0.c4"), -1);
	assert_int_equal(triage_policy_match(p, "u:r:t:s0"), 3);
	assert_int_equal(triage_policy_match(p, "u:r:t:s0:c1"), -1);
	/* field and glob together */
	assert_int_equal(triage_policy_match(p, "u:r:httpd_t:s0"), 3);
	assert_int_equal(triage_policy_match(p, "u:r:httpd_t:s1:s0"), 4);
	assert_int_equal(triage_policy_match(p, "u:r:httpd_t:s1"), -1);
	/* fewer than two colons: not an SELinux context */
	assert_int_equal(triage_policy_match(p, "system_u:sshd_t"), -1);
	assert_int_equal(triage_policy_match(p, "sshd_t"), -1);
	assert_int_equal(triage_policy_match(p, ""), -1);
	assert_int_equal(triage_policy_match(p, NULL), -1);
	assert_int_equal(triage_policy_match(NULL, "u:r:t:s0"), -1);
	triage_policy_free(p);
}

/* A context without MLS (two colons) splits into user:role:type. */
static void test_match_no_mls(void **state)
{
	struct triage_policy *p;

	(void)state;
	p = parse_ok("sacrifice type=sshd_t range=s0\n"      /* 0 */
		     "protect user=system_u type=sshd_t\n"    /* 1 */
		     "protect role=sysadm_r\n"                /* 2 */
		     "adjust +1 type=web_t\n"                 /* 3 */
		     "adjust +5 label=*\n");                  /* 4 */
	/* the range rule cannot match: there is no range */
	assert_int_equal(triage_policy_match(p, "system_u:system_r:sshd_t"), 1);
	assert_int_equal(triage_policy_match(p, "system_u:system_r:sshd_t:s0"), 0);
	assert_int_equal(triage_policy_match(p, "root:sysadm_r:sysadm_t"), 2);
	assert_int_equal(triage_policy_match(p, "u:r:web_t"), 3);
	/* the type ends at the end of the label, no prefix match */
	assert_int_equal(triage_policy_match(p, "u:r:web_tt"), 4);
	assert_int_equal(triage_policy_match(p, "u:r:web"), 4);
	/* empty fields are fields */
	assert_int_equal(triage_policy_match(p, "::web_t"), 3);
	assert_int_equal(triage_policy_match(p, "u:r:"), 4);
	/* a trailing colon gives an empty range, not a missing one */
	assert_int_equal(triage_policy_match(p, "system_u:system_r:sshd_t:"), 1);
	/* one colon: label rules only */
	assert_int_equal(triage_policy_match(p, "sysadm_r:web_t"), 4);
	assert_true(triage_rule_match(&p->rules[3], "a:b:web_t"));
	assert_false(triage_rule_match(&p->rules[3], "b:web_t"));
	assert_false(triage_rule_match(&p->rules[0], "a:b:sshd_t"));
	triage_policy_free(p);
}

static void test_match_precedence(void **state)
{
	struct triage_policy *p;

	(void)state;
	p = parse_ok("sacrifice type=sshd_t\n"
		     "protect type=sshd_t\n"
		     "protect label=*\n");
	/* first match wins, even over a later protect */
	assert_int_equal(triage_policy_match(p, "u:r:sshd_t:s0"), 0);
	assert_int_equal(triage_policy_match(p, "u:r:other_t:s0"), 2);
	assert_int_equal(triage_policy_match(p, "/usr/sbin/sshd"), 2);
	triage_policy_free(p);

	p = parse_ok("adjust -5 label=/usr/bin/*\n"
		     "protect label=/usr/bin/ssh-agent\n");
	assert_int_equal(triage_policy_match(p, "/usr/bin/ssh-agent"), 0);
	triage_policy_free(p);
}

static void test_match_other_lsms(void **state)
{
	struct triage_policy *p;
	struct triage_rule *r;

	(void)state;
	p = parse_ok("protect type=sshd_t\n"
		     "protect label=/usr/sbin/sshd\n"
		     "protect label=_\n"
		     "sacrifice label=\"/snap/*\"\n"
		     "adjust +1 label=\"firefox (complain)\"\n"
		     "adjust +2 label=unconfined\n");
	/* AppArmor profile names */
	assert_int_equal(triage_policy_match(p, "/usr/sbin/sshd"), 1);
	assert_int_equal(triage_policy_match(p, "/usr/sbin/sshd2"), -1);
	assert_int_equal(triage_policy_match(p, "/snap/firefox/123/usr/lib/firefox"), 3);
	assert_int_equal(triage_policy_match(p, "firefox (complain)"), 4);
	assert_int_equal(triage_policy_match(p, "unconfined"), 5);
	/* Smack labels */
	assert_int_equal(triage_policy_match(p, "_"), 2);
	assert_int_equal(triage_policy_match(p, "*"), -1);
	assert_int_equal(triage_policy_match(p, "sshd_t"), -1);

	r = &p->rules[1];
	assert_true(triage_rule_match(r, "/usr/sbin/sshd"));
	assert_false(triage_rule_match(r, "/usr/sbin/sshd "));
	assert_false(triage_rule_match(NULL, "x"));
	assert_false(triage_rule_match(r, NULL));
	triage_policy_free(p);
}

/* --------------------------------------------------------------- corpus */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = n;
	return buf;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* The sorted names in @dir that end in @suffix, without the suffix. */
static char **list_dir(const char *dir, const char *suffix, size_t *count)
{
	size_t n = 0, cap = 16, sl = strlen(suffix);
	char **names = malloc(cap * sizeof(*names));
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		fail_msg("cannot open %s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l <= sl || strcmp(de->d_name + l - sl, suffix))
			continue;
		if (n == cap)
			names = realloc(names, (cap *= 2) * sizeof(*names));
		assert_non_null(names);
		names[n] = strndup(de->d_name, l - sl);
		assert_non_null(names[n]);
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	*count = n;
	return names;
}

static void free_names(char **names, size_t n)
{
	while (n--)
		free(names[n]);
	free(names);
}

/*
 * Every error message of the language, as printf formats.  The corpus
 * must contain at least one policy that produces each of them.
 */
static const char * const error_formats[] = {
	"policy too large (max %d bytes)",
	"non-ASCII byte 0x%02x",
	"control character 0x%02x",
	"carriage return (DOS line ending?)",
	"unterminated string",
	"invalid escape in string",
	"stray '\\'",
	"line continuation at end of file",
	"expected keyword",
	"unknown keyword %s",
	"duplicate setting '%s' (first on line %u)",
	"missing value for '%s'",
	"invalid mode %s (enforce or permissive)",
	"invalid fallback %s (classic, panic or least-protected)",
	"invalid oom-score-adj %s (override or respect)",
	"unexpected '='",
	"unexpected string",
	"unexpected %s",
	"expected space or end of line",
	"rule has no matcher",
	"too many rules (max %d)",
	"unknown matcher %s",
	"unknown option %s",
	"expected '=' after '%s'",
	"duplicate matcher '%s'",
	"duplicate option '%s'",
	"option '%s' is only valid on sacrifice",
	"option 'group' takes no value",
	"value too long (max %d bytes)",
	"empty value for '%s'",
	"':' not allowed in '%s'",
	"invalid rank %s",
	"rank out of range 0..%d",
	"adjust value missing",
	"invalid adjust value %s",
	"adjust value out of range %d..%d",
	"label pattern ends in '\\'",
	"missing pressure %s",
	"invalid pressure kind %s (some or full)",
	"invalid pressure share %s (1%% to 100%%)",
	"invalid pressure window %s (500ms to 10s)",
	"invalid pressure cgroup %s (an absolute cgroup path, not /)",
	"duplicate pressure scope %s (first on line %u)",
	"duplicate option 'cgroup'",
	"empty value for 'cgroup'",
	"too many pressure statements (max %d)",
};

/* Turn a printf format into a triage glob: conversions become '*'. */
static void format_to_glob(const char *fmt, char *glob, size_t size)
{
	size_t o = 0;

	for (; *fmt && o + 3 < size; fmt++) {
		if (fmt[0] == '%' && fmt[1] == '%') {
			glob[o++] = *fmt++;
			continue;
		}
		if (*fmt == '%') {
			while (*fmt && !strchr("sudx", *fmt))
				fmt++;
			if (!*fmt)
				break;
			glob[o++] = '*';
			continue;
		}
		if (strchr("*?\\", *fmt))
			glob[o++] = '\\';
		glob[o++] = *fmt;
	}
	glob[o] = '\0';
}

static void test_corpus_bad(void **state)
{
	const char *dir = TRIAGE_CORPUS_DIR "/bad";
	bool covered[sizeof(error_formats) / sizeof(error_formats[0])] = { 0 };
	size_t n, ne, i, j, len, elen;
	char **names, **expects, path[4096], got[256], glob[128];
	int failures = 0;

	(void)state;
	names = list_dir(dir, ".policy", &n);
	expects = list_dir(dir, ".expect", &ne);
	assert_true(n >= 60);
	for (i = 0; i < ne; i++)
		if (!bsearch(&expects[i], names, n, sizeof(*names), cmp_names))
			fail_msg("%s.expect has no .policy", expects[i]);

	for (i = 0; i < n; i++) {
		struct triage_policy *p = NULL;
		struct triage_parse_error err;
		char *text, *want;
		int ret;

		snprintf(path, sizeof(path), "%s/%s.policy", dir, names[i]);
		text = read_file(path, &len);
		snprintf(path, sizeof(path), "%s/%s.expect", dir, names[i]);
		want = read_file(path, &elen);
		while (elen && want[elen - 1] == '\n')
			want[--elen] = '\0';

		ret = triage_policy_parse(text, len, &p, &err);
		snprintf(got, sizeof(got), "%u:%u: %s", err.line, err.column,
			 err.reason);
		if (ret == 0) {
			print_error("FAIL %s: accepted, expected %s\n",
				    names[i], want);
			triage_policy_free(p);
			failures++;
		} else if (strcmp(got, want)) {
			print_error("FAIL %s:\n  expected %s\n  got      %s\n",
				    names[i], want, got);
			failures++;
		} else if (ret != ((strstr(want, "too large") ||
				    strstr(want, "too many rules") ||
				    strstr(want, "too many pressure")) ?
				   -E2BIG : -EINVAL)) {
			print_error("FAIL %s: returned %d\n", names[i], ret);
			failures++;
		}
		for (j = 0; j < sizeof(error_formats) / sizeof(error_formats[0]); j++) {
			const char *reason = strstr(got, ": ");

			format_to_glob(error_formats[j], glob, sizeof(glob));
			if (reason && triage_glob_match(glob, reason + 2))
				covered[j] = true;
		}
		free(text);
		free(want);
	}
	for (j = 0; j < sizeof(error_formats) / sizeof(error_formats[0]); j++) {
		if (!covered[j]) {
			print_error("FAIL no corpus policy produces \"%s\"\n",
				    error_formats[j]);
			failures++;
		}
	}
	print_message("%zu malformed policies, %zu error messages covered\n",
		      n, sizeof(error_formats) / sizeof(error_formats[0]));
	free_names(names, n);
	free_names(expects, ne);
	assert_int_equal(failures, 0);
}

static void test_corpus_good(void **state)
{
	const char *dir = TRIAGE_CORPUS_DIR "/good";
	size_t n, i, len, clen;
	char **names, path[4096];
	int failures = 0;

	(void)state;
	names = list_dir(dir, ".policy", &n);
	assert_true(n >= 10);
	for (i = 0; i < n; i++) {
		struct triage_policy *p, *q;
		char *text, *canon, *out, *out2;

		snprintf(path, sizeof(path), "%s/%s.policy", dir, names[i]);
		text = read_file(path, &len);
		snprintf(path, sizeof(path), "%s/%s.canonical", dir, names[i]);
		canon = read_file(path, &clen);

		assert_int_equal(triage_policy_parse(text, len, &p, NULL), 0);
		out = print_policy(p);
		if (strcmp(out, canon)) {
			print_error("FAIL %s: canonical form differs:\n%s\n--- expected\n%s\n",
				    names[i], out, canon);
			failures++;
		}
		assert_int_equal(triage_policy_parse(canon, clen, &q, NULL), 0);
		out2 = print_policy(q);
		assert_string_equal(out2, canon);
		assert_same_policy(p, q);
		triage_policy_free(p);
		triage_policy_free(q);
		free(out);
		free(out2);
		free(text);
		free(canon);
	}
	print_message("%zu good policies round-trip\n", n);
	free_names(names, n);
	assert_int_equal(failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_settings),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_continuation_and_escapes),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_errors_inline),
		cmocka_unit_test(test_error_null_err),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_value_length),
		cmocka_unit_test(test_pressure),
		cmocka_unit_test(test_pressure_values),
		cmocka_unit_test(test_pressure_cgroup),
		cmocka_unit_test(test_pressure_errors),
		cmocka_unit_test(test_pressure_limits),
		cmocka_unit_test(test_print_canonical),
		cmocka_unit_test(test_print_truncation),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_glob),
		cmocka_unit_test(test_match_fields),
		cmocka_unit_test(test_match_no_mls),
		cmocka_unit_test(test_match_precedence),
		cmocka_unit_test(test_match_other_lsms),
		cmocka_unit_test(test_corpus_bad),
		cmocka_unit_test(test_corpus_good),
	};

	return cmocka_run_group_tests_name("triage-policy", tests, NULL, NULL);
}
