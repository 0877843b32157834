/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The triage policy language: parser, canonical printer and label matcher.
 *
 * The same sources build in the kernel and, through the shim headers in
 * userspace/compat, in userspace (triagectl and the unit tests), so the
 * kernel and the tool always agree on what a policy means.  The language
 * is described in policy/LANGUAGE.md.
 */

#ifndef _SECURITY_TRIAGE_POLICY_H
#define _SECURITY_TRIAGE_POLICY_H

#include <linux/types.h>

/* Every limit of the language lives here. */
#define TRIAGE_POLICY_MAX_SIZE	(256 * 1024)	/* bytes of policy text */
#define TRIAGE_POLICY_MAX_RULES	4096
#define TRIAGE_VALUE_MAX_LEN	255		/* bytes, after unescaping */
#define TRIAGE_RANK_MAX		1000
#define TRIAGE_ADJUST_MIN	(-1000)
#define TRIAGE_ADJUST_MAX	1000
#define TRIAGE_BUDGET_MAX_MIB	(16U << 20)	/* budget=16T */
#define TRIAGE_REASON_MAX	96
#define TRIAGE_PRESSURE_MAX		16	/* pressure statements per policy */
#define TRIAGE_PRESSURE_WINDOW_MIN_MS	500
#define TRIAGE_PRESSURE_WINDOW_MAX_MS	10000
/*
 * After a kill PSI goes on counting stalls: the survivors refault what the
 * thrash evicted.  No early kill is made this long after any kill the OOM
 * policy chain decided (an OOM of any scope, an early kill of any
 * statement, under any policy loaded since), so that the recovery is not
 * taken for more pressure and a bystander for the next victim (no shorter
 * than any window).
 */
#define TRIAGE_PRESSURE_HOLDOFF_MS	TRIAGE_PRESSURE_WINDOW_MAX_MS
/*
 * A system-wide statement acts only while the system as a whole is short:
 * while what the kernel could still hand out without swapping
 * (MemAvailable) is under this share of RAM, in percent.  Stalls that a
 * memory cgroup causes against its own memory.high or memory.max count in
 * the system's pressure too; they leave MemAvailable high.
 */
#define TRIAGE_PRESSURE_AVAILABLE_PCT	20

enum triage_verdict {
	TRIAGE_VERDICT_NONE,
	TRIAGE_VERDICT_PROTECT,
	TRIAGE_VERDICT_SACRIFICE,
	TRIAGE_VERDICT_ADJUST,
};

enum triage_mode {
	TRIAGE_MODE_ENFORCE,
	TRIAGE_MODE_PERMISSIVE,
};

enum triage_fallback {
	TRIAGE_FALLBACK_CLASSIC,
	TRIAGE_FALLBACK_PANIC,
	TRIAGE_FALLBACK_LEAST_PROTECTED,
};

enum triage_field {
	TRIAGE_FIELD_USER,
	TRIAGE_FIELD_ROLE,
	TRIAGE_FIELD_TYPE,
	TRIAGE_FIELD_RANGE,
	TRIAGE_FIELD_LABEL,
	TRIAGE_NR_FIELDS,
};

/**
 * struct triage_rule - one rule of a policy
 * @verdict: what the rule decides; never %TRIAGE_VERDICT_NONE
 * @adjust: badness adjustment, %TRIAGE_ADJUST_MIN..%TRIAGE_ADJUST_MAX
 *          (%TRIAGE_VERDICT_ADJUST only, otherwise 0)
 * @rank: 0..%TRIAGE_RANK_MAX, higher dies first (sacrifice only, else 0)
 * @group: kill every task whose label matches together (sacrifice only)
 * @budget_mib: protect only: the task is protected while the memory the
 *              OOM killer counts for it (resident, swapped out, page
 *              tables) is at most this many MiB, ordinary beyond; 0: no
 *              budget, 1..%TRIAGE_BUDGET_MAX_MIB
 * @match: per field, the value to compare (exact string for user, role,
 *         type and range; a glob for label), or NULL for "any"
 * @line: line of the rule's keyword in the policy text, 1-based
 */
struct triage_rule {
	enum triage_verdict verdict;
	int adjust;
	unsigned int rank;
	bool group;
	unsigned int budget_mib;
	const char *match[TRIAGE_NR_FIELDS];
	unsigned int line;
};

/**
 * struct triage_pressure - an early-action threshold (a "pressure" statement)
 * @full: PSI's "full" line (every non-idle task stalled) rather than "some"
 * @share: percent of @window_ms spent stalled that fires it, 1..100
 * @window_ms: the PSI window, %TRIAGE_PRESSURE_WINDOW_MIN_MS..
 *             %TRIAGE_PRESSURE_WINDOW_MAX_MS
 * @cgroup: cgroup v2 path of the memory cgroup whose pressure counts, or
 *          NULL for the whole system
 * @line: line of the statement in the policy text, 1-based
 *
 * @cgroup is relative to the cgroup2 mount: it starts with '/', is not
 * "/" itself, does not end in '/' and has no empty, "." or ".."
 * component.  A policy has at most one statement per scope (the whole
 * system, or one cgroup path).
 */
struct triage_pressure {
	bool full;
	unsigned int share;
	unsigned int window_ms;
	const char *cgroup;
	unsigned int line;
};

/**
 * struct triage_policy - a parsed policy
 * @mode: enforce or permissive
 * @fallback: what runs when every candidate is protected
 * @respect_score_adj: true if oom_score_adj = -1000 outranks a label verdict
 * @nr_rules: number of entries in @rules
 * @rules: the rules in policy order; the first match wins
 * @nr_pressure: number of entries in @pressure, at most
 *               %TRIAGE_PRESSURE_MAX
 * @pressure: the pressure statements in policy order (not rules: they
 *            match nothing)
 * @size: bytes in the single allocation that holds the policy, its rules,
 *        its pressure statements and their strings
 *
 * A policy is one allocation made by triage_policy_parse() and released
 * by triage_policy_free(); it is never modified after parsing.
 */
struct triage_policy {
	enum triage_mode mode;
	enum triage_fallback fallback;
	bool respect_score_adj;
	unsigned int nr_rules;
	struct triage_rule *rules;
	unsigned int nr_pressure;
	struct triage_pressure *pressure;
	size_t size;
};

/**
 * struct triage_parse_error - why a policy was rejected
 * @line: 1-based line of the error in the policy text (0: no position)
 * @column: 1-based byte column in that physical line (0: no position)
 * @reason: short fixed-English reason, NUL-terminated
 */
struct triage_parse_error {
	unsigned int line;
	unsigned int column;
	char reason[TRIAGE_REASON_MAX];
};

int triage_policy_parse(const char *text, size_t len,
			struct triage_policy **policy,
			struct triage_parse_error *err);
void triage_policy_free(struct triage_policy *policy);
int triage_rule_print(const struct triage_rule *rule, char *buf, size_t size);
int triage_policy_print(const struct triage_policy *policy, char *buf,
			size_t size);

const char *triage_verdict_name(enum triage_verdict v);
const char *triage_mode_name(enum triage_mode mode);
const char *triage_fallback_name(enum triage_fallback fallback);
const char *triage_field_name(enum triage_field field);

bool triage_glob_match(const char *pattern, const char *str);
bool triage_rule_match(const struct triage_rule *rule, const char *label);
int triage_policy_match(const struct triage_policy *policy, const char *label);

#endif /* _SECURITY_TRIAGE_POLICY_H */
