// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the triage policy parser, printer and matcher.
 *
 * The userspace unit tests (tests/unit) run a larger corpus through the
 * same sources; these cases check that the kernel build behaves the same.
 */

#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "policy.h"

KUNIT_DEFINE_ACTION_WRAPPER(triage_test_free_policy, triage_policy_free,
			    struct triage_policy *);

#define TRIAGE_TEST_BUF	4096

struct triage_good_case {
	const char *desc;
	const char *text;
	const char *canonical;
};

static const struct triage_good_case triage_good_cases[] = {
	{
		"empty policy",
		"",
		"mode enforce\nfallback classic\noom-score-adj override\n",
	},
	{
		"comments and blank lines",
		"# comment\n\n   \t# indented comment\n",
		"mode enforce\nfallback classic\noom-score-adj override\n",
	},
	{
		"settings",
		"oom-score-adj respect\nfallback least-protected\nmode permissive\n",
		"mode permissive\nfallback least-protected\noom-score-adj respect\n",
	},
	{
		"every kind of rule",
		"protect type=sshd_t # keep the door open\n"
		"sacrifice group rank=900 type=batch_t user=user_u\n"
		"adjust -300 role=system_r type=postgresql_t\n"
		"adjust 42 range=s0-s0:c0.c1023\n",
		"mode enforce\nfallback classic\noom-score-adj override\n"
		"protect type=sshd_t\n"
		"sacrifice user=user_u type=batch_t rank=900 group\n"
		"adjust -300 role=system_r type=postgresql_t\n"
		"adjust +42 range=s0-s0:c0.c1023\n",
	},
	{
		"protection with a budget, in its largest whole unit",
		"protect type=postgresql_t budget=4096M\n"
		"protect type=sshd_t budget=+1536M\n"
		"protect budget=2048G type=big_t\n",
		"mode enforce\nfallback classic\noom-score-adj override\n"
		"protect type=postgresql_t budget=4G\n"
		"protect type=sshd_t budget=1536M\n"
		"protect type=big_t budget=2T\n",
	},
	{
		"line continuation",
		"sacrifice \\\n\ttype=batch_t \\\n\trank=1\\\n0\n",
		"mode enforce\nfallback classic\noom-score-adj override\n"
		"sacrifice type=batch_t rank=10\n",
	},
	{
		"quoted values",
		"protect label=\"/opt/my app\"\n"
		"protect label=\"a#b=c\"\n"
		"protect label=\"say \\\"hi\\\"\"\n"
		"protect label=\"lit\\\\*\"\n"
		"protect label=\"plain\"\n",
		"mode enforce\nfallback classic\noom-score-adj override\n"
		"protect label=\"/opt/my app\"\n"
		"protect label=\"a#b=c\"\n"
		"protect label=\"say \\\"hi\\\"\"\n"
		"protect label=\"lit\\\\*\"\n"
		"protect label=plain\n",
	},
	{
		"no final newline",
		"protect label=/usr/sbin/sshd",
		"mode enforce\nfallback classic\noom-score-adj override\n"
		"protect label=/usr/sbin/sshd\n",
	},
	{
		"pressure statements",
		"protect type=sshd_t\n"
		"pressure full 10% 2s\n"
		"mode permissive\n"
		"pressure some 20% 1500ms cgroup=/batch.slice # batch\n"
		"pressure \"some\" +5% 10000ms \\\n"
		"\tcgroup=\"/user.slice/my app.scope\"\n"
		"pressure full 100% 500ms cgroup=\"/system.slice\"\n",
		"mode permissive\nfallback classic\noom-score-adj override\n"
		"pressure full 10% 2s\n"
		"pressure some 20% 1500ms cgroup=/batch.slice\n"
		"pressure some 5% 10s cgroup=\"/user.slice/my app.scope\"\n"
		"pressure full 100% 500ms cgroup=/system.slice\n"
		"protect type=sshd_t\n",
	},
};

struct triage_bad_case {
	const char *desc;
	const char *text;
	int ret;
	unsigned int line;
	unsigned int column;
	const char *reason;
};

static const struct triage_bad_case triage_bad_cases[] = {
	{ "unknown keyword", "protect type=a\nprotec type=b\n",
	  -EINVAL, 2, 1, "unknown keyword 'protec'" },
	{ "duplicate setting", "mode enforce\n\nmode permissive\n",
	  -EINVAL, 3, 1, "duplicate setting 'mode' (first on line 1)" },
	{ "invalid mode", "mode strict\n",
	  -EINVAL, 1, 6, "invalid mode 'strict' (enforce or permissive)" },
	{ "missing setting value", "fallback   # none\n",
	  -EINVAL, 1, 9, "missing value for 'fallback'" },
	{ "expected equals", "protect type sshd_t\n",
	  -EINVAL, 1, 13, "expected '=' after 'type'" },
	{ "rank out of range", "sacrifice type=x rank=1001\n",
	  -EINVAL, 1, 23, "rank out of range 0..1000" },
	{ "rank on protect", "protect type=x rank=1\n",
	  -EINVAL, 1, 16, "option 'rank' is only valid on sacrifice" },
	{ "group on adjust", "adjust +1 type=x group\n",
	  -EINVAL, 1, 18, "option 'group' is only valid on sacrifice" },
	{ "budget on sacrifice", "sacrifice type=x budget=1G\n",
	  -EINVAL, 1, 18, "option 'budget' is only valid on protect" },
	{ "budget without a unit", "protect type=x budget=512\n",
	  -EINVAL, 1, 23, "invalid budget '512' (a size such as 512M, 4G or 1T)" },
	{ "budget of nothing", "protect type=x budget=0M\n",
	  -EINVAL, 1, 23, "budget out of range 1M..16T" },
	{ "budget too large", "protect type=x budget=17T\n",
	  -EINVAL, 1, 23, "budget out of range 1M..16T" },
	{ "budget twice", "protect type=x budget=1G budget=2G\n",
	  -EINVAL, 1, 26, "duplicate option 'budget'" },
	{ "unterminated string", "protect label=\"abc\n",
	  -EINVAL, 1, 15, "unterminated string" },
	{ "invalid escape", "protect label=\"\\n\"\n",
	  -EINVAL, 1, 16, "invalid escape in string" },
	{ "no matcher", "sacrifice rank=3\n",
	  -EINVAL, 1, 1, "rule has no matcher" },
	{ "duplicate matcher", "protect type=a user=u type=b\n",
	  -EINVAL, 1, 23, "duplicate matcher 'type'" },
	{ "adjust value missing", "adjust type=x\n",
	  -EINVAL, 1, 7, "adjust value missing" },
	{ "adjust out of range", "adjust -1001 type=x\n",
	  -EINVAL, 1, 8, "adjust value out of range -1000..1000" },
	{ "non-ASCII byte", "protect type=caf\xc3\xa9_t\n",
	  -EINVAL, 1, 17, "non-ASCII byte 0xc3" },
	{ "carriage return", "mode enforce\r\n",
	  -EINVAL, 1, 13, "carriage return (DOS line ending?)" },
	{ "unknown option", "sacrifice type=x now\n",
	  -EINVAL, 1, 18, "unknown option 'now'" },
	{ "unknown matcher", "protect domain=x\n",
	  -EINVAL, 1, 9, "unknown matcher 'domain'" },
	{ "colon in type", "protect type=a:b\n",
	  -EINVAL, 1, 14, "':' not allowed in 'type'" },
	{ "error on a continued line", "sacrifice type=x \\\n    rank=-1\n",
	  -EINVAL, 2, 10, "rank out of range 0..1000" },
	{ "comment not continued", "protect type=x # \\\n  type=y\n",
	  -EINVAL, 2, 3, "unknown keyword 'type'" },
	{ "continuation at end", "protect type=x \\\n",
	  -EINVAL, 1, 16, "line continuation at end of file" },
	{ "trailing backslash in glob", "protect label=\"a\\\\\"\n",
	  -EINVAL, 1, 15, "label pattern ends in '\\'" },
	{ "value after string", "protect label=\"a\"b\n",
	  -EINVAL, 1, 18, "expected space or end of line" },
	{ "pressure kind missing", "pressure\n",
	  -EINVAL, 1, 9, "missing pressure kind" },
	{ "pressure kind before cgroup", "pressure cgroup=/a\n",
	  -EINVAL, 1, 9, "missing pressure kind" },
	{ "pressure kind invalid", "pressure partial 10% 2s\n",
	  -EINVAL, 1, 10, "invalid pressure kind 'partial' (some or full)" },
	{ "pressure share missing", "pressure full\n",
	  -EINVAL, 1, 14, "missing pressure share" },
	{ "pressure share without %", "pressure full 10 2s\n",
	  -EINVAL, 1, 15, "invalid pressure share '10' (1% to 100%)" },
	{ "pressure share 0%", "pressure full 0% 2s\n",
	  -EINVAL, 1, 15, "invalid pressure share '0%' (1% to 100%)" },
	{ "pressure share 101%", "pressure full 101% 2s\n",
	  -EINVAL, 1, 15, "invalid pressure share '101%' (1% to 100%)" },
	{ "pressure window missing", "pressure full 10%  # none\n",
	  -EINVAL, 1, 18, "missing pressure window" },
	{ "pressure window 499ms", "pressure full 10% 499ms\n",
	  -EINVAL, 1, 19, "invalid pressure window '499ms' (500ms to 10s)" },
	{ "pressure window 10001ms", "pressure full 10% 10001ms\n",
	  -EINVAL, 1, 19, "invalid pressure window '10001ms' (500ms to 10s)" },
	{ "pressure window 11s", "pressure full 10% 11s\n",
	  -EINVAL, 1, 19, "invalid pressure window '11s' (500ms to 10s)" },
	{ "pressure window without unit", "pressure full 10% 2000\n",
	  -EINVAL, 1, 19, "invalid pressure window '2000' (500ms to 10s)" },
	{ "pressure cgroup relative", "pressure full 10% 2s cgroup=a\n",
	  -EINVAL, 1, 29,
	  "invalid pressure cgroup 'a' (an absolute cgroup path, not /)" },
	{ "pressure cgroup root", "pressure full 10% 2s cgroup=/\n",
	  -EINVAL, 1, 29,
	  "invalid pressure cgroup '/' (an absolute cgroup path, not /)" },
	{ "pressure cgroup trailing slash", "pressure full 10% 2s cgroup=/a/\n",
	  -EINVAL, 1, 29,
	  "invalid pressure cgroup '/a/' (an absolute cgroup path, not /)" },
	{ "pressure cgroup double slash", "pressure full 10% 2s cgroup=/a//b\n",
	  -EINVAL, 1, 29,
	  "invalid pressure cgroup '/a//b' (an absolute cgroup path, not /)" },
	{ "pressure cgroup dot-dot",
	  "pressure full 10% 2s cgroup=\"/a/../b\"\n", -EINVAL, 1, 29,
	  "invalid pressure cgroup '/a/../b' (an absolute cgroup path, not /)" },
	{ "pressure cgroup dot", "pressure full 10% 2s cgroup=/a/.\n",
	  -EINVAL, 1, 29,
	  "invalid pressure cgroup '/a/.' (an absolute cgroup path, not /)" },
	{ "pressure cgroup twice",
	  "pressure full 10% 2s cgroup=/a cgroup=/b\n",
	  -EINVAL, 1, 32, "duplicate option 'cgroup'" },
	{ "pressure unknown option", "pressure full 10% 2s now\n",
	  -EINVAL, 1, 22, "unknown option 'now'" },
	{ "pressure unknown matcher", "pressure full 10% 2s type=t\n",
	  -EINVAL, 1, 22, "unknown matcher 'type'" },
	{ "pressure system twice",
	  "pressure full 10% 2s\nprotect type=t\npressure some 5% 1s\n",
	  -EINVAL, 3, 1, "duplicate pressure scope 'system' (first on line 1)" },
	{ "pressure cgroup twice, spelt differently",
	  "pressure full 10% 2s cgroup=/a\npressure full 10% 2s\n"
	  "pressure some 5% 1s cgroup=\"/a\"\n",
	  -EINVAL, 3, 28, "duplicate pressure scope '/a' (first on line 1)" },
};

static void triage_good_desc(const struct triage_good_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

static void triage_bad_desc(const struct triage_bad_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(triage_good, triage_good_cases, triage_good_desc);
KUNIT_ARRAY_PARAM(triage_bad, triage_bad_cases, triage_bad_desc);

/* Parse @text, which must be valid; the policy is freed when the test ends. */
static struct triage_policy *triage_test_parse(struct kunit *test,
					       const char *text, size_t len)
{
	struct triage_parse_error err;
	struct triage_policy *policy;
	int ret;

	ret = triage_policy_parse(text, len, &policy, &err);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "%u:%u: %s", err.line, err.column,
			    err.reason);
	KUNIT_ASSERT_NOT_NULL(test, policy);
	ret = kunit_add_action_or_reset(test, triage_test_free_policy, policy);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return policy;
}

/* Valid policies print in canonical form, which parses back the same. */
static void triage_parse_good_test(struct kunit *test)
{
	const struct triage_good_case *c = test->param_value;
	struct triage_policy *policy, *again;
	char *buf, *buf2;
	int len;

	buf = kunit_kzalloc(test, TRIAGE_TEST_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf2 = kunit_kzalloc(test, TRIAGE_TEST_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf2);

	policy = triage_test_parse(test, c->text, strlen(c->text));
	len = triage_policy_print(policy, buf, TRIAGE_TEST_BUF);
	KUNIT_ASSERT_LT(test, len, TRIAGE_TEST_BUF);
	KUNIT_EXPECT_EQ(test, (size_t)len, strlen(c->canonical));
	KUNIT_EXPECT_STREQ(test, buf, c->canonical);
	KUNIT_EXPECT_EQ(test, triage_policy_print(policy, NULL, 0), len);

	again = triage_test_parse(test, buf, len);
	KUNIT_EXPECT_EQ(test, again->nr_rules, policy->nr_rules);
	KUNIT_EXPECT_EQ(test, again->nr_pressure, policy->nr_pressure);
	KUNIT_EXPECT_EQ(test, triage_policy_print(again, buf2, TRIAGE_TEST_BUF),
			len);
	KUNIT_EXPECT_STREQ(test, buf2, buf);
}

/* Invalid policies are rejected whole, with line, column and reason. */
static void triage_parse_bad_test(struct kunit *test)
{
	const struct triage_bad_case *c = test->param_value;
	struct triage_policy *policy = NULL;
	struct triage_parse_error err;
	int ret;

	ret = triage_policy_parse(c->text, strlen(c->text), &policy, &err);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_NULL(test, policy);
	KUNIT_EXPECT_EQ(test, err.line, c->line);
	KUNIT_EXPECT_EQ(test, err.column, c->column);
	KUNIT_EXPECT_STREQ(test, err.reason, c->reason);
	triage_policy_free(policy);
}

/* The size and rule limits, one past each and exactly at each. */
static void triage_limits_test(struct kunit *test)
{
	static const char rule[] = "protect type=t\n";
	size_t rl = sizeof(rule) - 1, i;
	struct triage_policy *policy = NULL;
	struct triage_parse_error err;
	char *text;
	int ret;

	text = kunit_kzalloc(test, TRIAGE_POLICY_MAX_SIZE + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);

	memset(text, '#', TRIAGE_POLICY_MAX_SIZE + 1);
	ret = triage_policy_parse(text, TRIAGE_POLICY_MAX_SIZE + 1, &policy,
				  &err);
	KUNIT_EXPECT_EQ(test, ret, -E2BIG);
	KUNIT_EXPECT_NULL(test, policy);
	KUNIT_EXPECT_STREQ(test, err.reason, "policy too large (max 262144 bytes)");
	triage_test_parse(test, text, TRIAGE_POLICY_MAX_SIZE);

	for (i = 0; i <= TRIAGE_POLICY_MAX_RULES; i++)
		memcpy(text + i * rl, rule, rl);
	policy = triage_test_parse(test, text, TRIAGE_POLICY_MAX_RULES * rl);
	KUNIT_EXPECT_EQ(test, policy->nr_rules, TRIAGE_POLICY_MAX_RULES);

	policy = NULL;
	ret = triage_policy_parse(text, (TRIAGE_POLICY_MAX_RULES + 1) * rl,
				  &policy, &err);
	KUNIT_EXPECT_EQ(test, ret, -E2BIG);
	KUNIT_EXPECT_NULL(test, policy);
	KUNIT_EXPECT_EQ(test, err.line, TRIAGE_POLICY_MAX_RULES + 1);
	KUNIT_EXPECT_EQ(test, err.column, 1);
	KUNIT_EXPECT_STREQ(test, err.reason, "too many rules (max 4096)");
}

/* Pressure statements: what the parser stores, and their limit. */
static void triage_pressure_test(struct kunit *test)
{
	static const char text[] =
		"pressure full 10% 2s\n"
		"protect type=sshd_t\n"
		"pressure some 20% 1500ms cgroup=/batch.slice\n";
	struct triage_policy *policy = NULL;
	const struct triage_pressure *ps;
	struct triage_parse_error err;
	size_t len = 0, i;
	char *buf;
	int ret;

	policy = triage_test_parse(test, text, strlen(text));
	KUNIT_EXPECT_EQ(test, policy->nr_rules, 1);
	KUNIT_ASSERT_EQ(test, policy->nr_pressure, 2);
	ps = &policy->pressure[0];
	KUNIT_EXPECT_TRUE(test, ps->full);
	KUNIT_EXPECT_EQ(test, ps->share, 10);
	KUNIT_EXPECT_EQ(test, ps->window_ms, 2000);
	KUNIT_EXPECT_NULL(test, ps->cgroup);
	KUNIT_EXPECT_EQ(test, ps->line, 1);
	ps = &policy->pressure[1];
	KUNIT_EXPECT_FALSE(test, ps->full);
	KUNIT_EXPECT_EQ(test, ps->share, 20);
	KUNIT_EXPECT_EQ(test, ps->window_ms, 1500);
	KUNIT_EXPECT_STREQ(test, ps->cgroup, "/batch.slice");
	KUNIT_EXPECT_EQ(test, ps->line, 3);
	/* inside the policy's one allocation */
	KUNIT_EXPECT_TRUE(test, (const char *)ps->cgroup > (const char *)policy &&
			  (const char *)ps->cgroup <
			  (const char *)policy + policy->size);
	KUNIT_EXPECT_EQ(test, triage_policy_match(policy, "u:r:sshd_t:s0"), 0);

	/* TRIAGE_PRESSURE_MAX statements, one scope each; one more is E2BIG */
	buf = kunit_kzalloc(test, TRIAGE_TEST_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < TRIAGE_PRESSURE_MAX; i++)
		len += scnprintf(buf + len, TRIAGE_TEST_BUF - len,
				 "pressure some 10%% 2s cgroup=/s%zu\n", i);
	policy = triage_test_parse(test, buf, len);
	KUNIT_EXPECT_EQ(test, policy->nr_pressure, TRIAGE_PRESSURE_MAX);
	KUNIT_EXPECT_EQ(test, policy->nr_rules, 0);

	len += scnprintf(buf + len, TRIAGE_TEST_BUF - len,
			 "pressure full 10%% 2s\n");
	policy = NULL;
	ret = triage_policy_parse(buf, len, &policy, &err);
	KUNIT_EXPECT_EQ(test, ret, -E2BIG);
	KUNIT_EXPECT_NULL(test, policy);
	KUNIT_EXPECT_EQ(test, err.line, TRIAGE_PRESSURE_MAX + 1);
	KUNIT_EXPECT_EQ(test, err.column, 1);
	KUNIT_EXPECT_STREQ(test, err.reason,
			   "too many pressure statements (max 16)");
}

struct triage_glob_case {
	const char *pattern;
	const char *str;
	bool match;
};

static const struct triage_glob_case triage_glob_cases[] = {
	{ "", "", true },
	{ "", "a", false },
	{ "*", "", true },
	{ "*", "any/thing:at all", true },
	{ "***", "x", true },
	{ "?", "", false },
	{ "?", "x", true },
	{ "?", "xy", false },
	{ "a*b*c", "abbbcbc", true },
	{ "a*b*c", "abbbcbd", false },
	{ "*sshd", "/usr/sbin/sshd", true },
	{ "*:sshd_t:*", "system_u:system_r:sshd_t:s0", true },
	{ "*:sshd_t:*", "system_u:system_r:sshd_tt:s0", false },
	{ "\\*", "*", true },
	{ "\\*", "x", false },
	{ "\\?", "?", true },
	{ "\\\\", "\\", true },
	{ "a\\", "a\\", true },
	{ "a\\", "a", false },
	{ "[ab]", "[ab]", true },
	{ "a*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false },
};

/* triage_glob_match() on the edge cases of the glob syntax. */
static void triage_glob_test(struct kunit *test)
{
	const struct triage_glob_case *c;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(triage_glob_cases); i++) {
		c = &triage_glob_cases[i];
		KUNIT_EXPECT_EQ_MSG(test, triage_glob_match(c->pattern, c->str),
				    c->match, "pattern '%s' string '%s'",
				    c->pattern, c->str);
	}
}

struct triage_match_case {
	const char *label;
	int rule;
};

static const char triage_match_policy[] =
	"sacrifice type=sshd_t range=s0-s0:c0.c3\n"	/* 0 */
	"protect type=sshd_t\n"				/* 1 */
	"protect user=system_u role=system_r\n"		/* 2 */
	"sacrifice label=/snap/*\n"			/* 3 */
	"protect label=/usr/sbin/sshd\n"		/* 4 */
	"adjust -10 label=_\n"				/* 5 */
	"adjust +10 label=*\n";				/* 6 */

static const struct triage_match_case triage_match_cases[] = {
	{ "system_u:system_r:sshd_t:s0-s0:c0.c3", 0 },	/* first match wins */
	{ "system_u:system_r:sshd_t:s0", 1 },
	{ "system_u:system_r:init_t:s0", 2 },
	{ "system_u:object_r:init_t:s0", 6 },
	{ "system_u:system_r:sshd_t", 1 },	/* no MLS: empty range */
	{ "/snap/firefox/42/firefox", 3 },
	{ "/usr/sbin/sshd", 4 },
	{ "_", 5 },
	{ "", 6 },
};

/* First-match precedence over SELinux, AppArmor and Smack labels. */
static void triage_match_test(struct kunit *test)
{
	struct triage_policy *policy;
	size_t i;

	policy = triage_test_parse(test, triage_match_policy,
				   strlen(triage_match_policy));
	for (i = 0; i < ARRAY_SIZE(triage_match_cases); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    triage_policy_match(policy,
							triage_match_cases[i].label),
				    triage_match_cases[i].rule, "label '%s'",
				    triage_match_cases[i].label);
	KUNIT_EXPECT_EQ(test, triage_policy_match(NULL, "u:r:t:s0"), -1);
	KUNIT_EXPECT_EQ(test, policy->rules[4].verdict, TRIAGE_VERDICT_PROTECT);
	KUNIT_EXPECT_STREQ(test, triage_verdict_name(policy->rules[3].verdict),
			   "sacrifice");
}

/*
 * security_oom_select() combines the LSMs' answers the same way whatever
 * their order: three answers (a sacrifice at rank 7 with +600, a protect
 * vote through -EPERM, an adjustment of +700) and three without protection,
 * folded in all six orders.
 */
static void triage_fold_all(struct kunit *test,
			    const struct oom_select_verdict *answers,
			    const int *rcs, const struct oom_select_verdict *want)
{
	static const int orders[6][3] = {
		{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
		{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
	};
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(orders); i++) {
		struct oom_select_verdict acc = {};
		long adj = 0;

		for (j = 0; j < 3; j++)
			security_oom_select_fold(&acc, &adj, rcs[orders[i][j]],
						 &answers[orders[i][j]]);
		security_oom_select_finish(&acc, adj);
		KUNIT_EXPECT_EQ(test, acc.protect, want->protect);
		KUNIT_EXPECT_EQ(test, acc.sacrifice, want->sacrifice);
		KUNIT_EXPECT_EQ(test, acc.rank, want->rank);
		KUNIT_EXPECT_EQ(test, acc.adj, want->adj);
		KUNIT_EXPECT_EQ(test, acc.override_score_adj,
				want->override_score_adj);
	}
}

static void triage_oom_select_combine_test(struct kunit *test)
{
	const struct oom_select_verdict protected[3] = {
		{ .sacrifice = true, .rank = 7, .adj = 600,
		  .override_score_adj = true },
		{ .sacrifice = true, .rank = 900 },	/* with -EPERM: ignored */
		{ .adj = 700 },
	};
	const int protected_rcs[3] = { 0, -EPERM, 0 };
	const struct oom_select_verdict protected_want = { .protect = true,
							   .adj = 1000 };
	const struct oom_select_verdict ranked[3] = {
		{ .sacrifice = true, .rank = 7, .adj = -600 },
		{ .rank = 900, .adj = -700 },	/* not sacrificing: no rank */
		{ .sacrifice = true, .rank = 3, .adj = 2000,
		  .override_score_adj = true },
	};
	const int ranked_rcs[3] = { 0, 0, 0 };
	const struct oom_select_verdict ranked_want = { .sacrifice = true,
		.rank = 7, .adj = -300, .override_score_adj = true };
	const struct oom_select_verdict failed[3] = {
		{ .protect = true },	/* with -EINVAL: ignored */
		{ .adj = 1500 },
		{ .adj = -400 },
	};
	const int failed_rcs[3] = { -EINVAL, 0, 0 };
	const struct oom_select_verdict failed_want = { .adj = 600 };

	triage_fold_all(test, protected, protected_rcs, &protected_want);
	triage_fold_all(test, ranked, ranked_rcs, &ranked_want);
	triage_fold_all(test, failed, failed_rcs, &failed_want);
}

static struct kunit_case triage_policy_test_cases[] = {
	KUNIT_CASE_PARAM(triage_parse_good_test, triage_good_gen_params),
	KUNIT_CASE_PARAM(triage_parse_bad_test, triage_bad_gen_params),
	KUNIT_CASE(triage_limits_test),
	KUNIT_CASE(triage_pressure_test),
	KUNIT_CASE(triage_glob_test),
	KUNIT_CASE(triage_match_test),
	KUNIT_CASE(triage_oom_select_combine_test),
	{ }
};

static struct kunit_suite triage_policy_test_suite = {
	.name = "triage-policy",
	.test_cases = triage_policy_test_cases,
};

kunit_test_suite(triage_policy_test_suite);
