// SPDX-License-Identifier: GPL-2.0
/*
 * Matching security labels against triage policy rules.
 *
 * Nothing here allocates, sleeps or recurses, so it may run in any
 * context that holds a reference to the policy.  This file also builds
 * in userspace with userspace/compat.
 */

#include <linux/string.h>
#include <linux/types.h>

#include "policy.h"

/* The user, role, type and range fields of an SELinux context. */
struct triage_context {
	bool valid;
	const char *field[TRIAGE_FIELD_LABEL];
	size_t len[TRIAGE_FIELD_LABEL];
};

/*
 * Split "user:role:type[:range]".  The range is everything after the third
 * colon and may contain colons itself ("s0-s0:c0.c3"); without a third
 * colon (an SELinux context without MLS) the range is empty, so no range
 * rule matches.  A label with fewer than two colons is not an SELinux
 * context.
 */
static void triage_split(const char *label, struct triage_context *ctx)
{
	const char *s = label;
	const char *colon;
	int i;

	ctx->valid = false;
	for (i = 0; i < TRIAGE_FIELD_TYPE; i++) {
		colon = strchr(s, ':');
		if (!colon)
			return;
		ctx->field[i] = s;
		ctx->len[i] = colon - s;
		s = colon + 1;
	}
	colon = strchr(s, ':');
	ctx->field[TRIAGE_FIELD_TYPE] = s;
	ctx->len[TRIAGE_FIELD_TYPE] = colon ? (size_t)(colon - s) : strlen(s);
	ctx->field[TRIAGE_FIELD_RANGE] = colon ? colon + 1 : s + strlen(s);
	ctx->len[TRIAGE_FIELD_RANGE] = strlen(ctx->field[TRIAGE_FIELD_RANGE]);
	ctx->valid = true;
}

static bool triage_field_equal(const char *want, const char *s, size_t len)
{
	return !strncmp(want, s, len) && want[len] == '\0';
}

static bool triage_match_split(const struct triage_rule *rule,
			       const char *label,
			       const struct triage_context *ctx)
{
	int f;

	for (f = 0; f < TRIAGE_FIELD_LABEL; f++) {
		if (!rule->match[f])
			continue;
		if (!ctx->valid ||
		    !triage_field_equal(rule->match[f], ctx->field[f],
					ctx->len[f]))
			return false;
	}
	if (rule->match[TRIAGE_FIELD_LABEL] &&
	    !triage_glob_match(rule->match[TRIAGE_FIELD_LABEL], label))
		return false;
	return true;
}

/**
 * triage_glob_match() - match a string against a triage glob
 * @pattern: the glob: '*' matches any run of bytes (also '/' and ':'),
 *           '?' matches one byte, '\' makes the next byte literal; a
 *           trailing '\' matches a backslash; everything else matches
 *           itself
 * @str: the string
 *
 * Iterative with a single backtracking point, so it needs no recursion
 * and no memory, and takes O(strlen(pattern) * strlen(str)) at worst.
 *
 * Return: true if the whole of @str matches the whole of @pattern.
 */
bool triage_glob_match(const char *pattern, const char *str)
{
	const char *p = pattern, *s = str;
	const char *star_p = NULL, *star_s = NULL;

	while (*s) {
		if (*p == '*') {
			while (*p == '*')
				p++;
			star_p = p;
			star_s = s;
			continue;
		}
		if (*p == '?') {
			p++;
			s++;
			continue;
		}
		if (*p == '\\' && p[1]) {
			if (p[1] == *s) {
				p += 2;
				s++;
				continue;
			}
		} else if (*p && *p == *s) {
			p++;
			s++;
			continue;
		}
		/* mismatch: let the last '*' swallow one more byte */
		if (!star_p)
			return false;
		p = star_p;
		s = ++star_s;
	}
	while (*p == '*')
		p++;
	return !*p;
}

/**
 * triage_rule_match() - does a label match one rule?
 * @rule: the rule
 * @label: the task's security label, NUL-terminated
 *
 * Every matcher of the rule must match.  user, role, type and range are
 * compared exactly with the fields of an SELinux context
 * "user:role:type[:range]"; a label with fewer than two colons matches
 * no rule that has one of these, and a label without a range (two colons)
 * matches no range rule.  label is a glob over the whole label.
 *
 * Return: true if @label matches @rule.
 */
bool triage_rule_match(const struct triage_rule *rule, const char *label)
{
	struct triage_context ctx;

	if (!rule || !label)
		return false;
	triage_split(label, &ctx);
	return triage_match_split(rule, label, &ctx);
}

/**
 * triage_policy_match() - find the rule that decides a label
 * @policy: the policy, or NULL
 * @label: the task's security label, NUL-terminated
 *
 * Rules are tried in policy order and the first one that matches wins.
 *
 * Context: any; never allocates and never sleeps.
 *
 * Return: the index of that rule in @policy->rules, or -1 if none matches.
 */
int triage_policy_match(const struct triage_policy *policy, const char *label)
{
	struct triage_context ctx;
	unsigned int i;

	if (!policy || !label)
		return -1;
	triage_split(label, &ctx);
	for (i = 0; i < policy->nr_rules; i++)
		if (triage_match_split(&policy->rules[i], label, &ctx))
			return i;
	return -1;
}
