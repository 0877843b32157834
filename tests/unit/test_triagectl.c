// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for triagectl (userspace/src): the checker against the
 * SELinux test policy (policy/selinux), and every command run whole
 * against a fake securityfs directory written in the format of
 * docs/securityfs.md.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "triagectl.h"

#ifndef TRIAGE_TEST_SELINUX
#error "build with -DTRIAGE_TEST_SELINUX=\"/path/to/triage-test.bin\""
#endif
#ifndef TRIAGE_EXAMPLES_DIR
#error "build with -DTRIAGE_EXAMPLES_DIR=\"/path/to/policy/examples\""
#endif
#ifndef TRIAGE_USERSPACE_DIR
#error "build with -DTRIAGE_USERSPACE_DIR=\"/path/to/userspace\""
#endif
#ifndef TRIAGE_REFPOLICY
#define TRIAGE_REFPOLICY "/etc/selinux/default/policy/policy.33"
#endif

/* --------------------------------------------------------------- helpers */

struct fake {
	char dir[64];		/* the fake securityfs triage directory */
	char proc[96];		/* a fake /proc */
	char sys[96];		/* a fake /sys */
	char boot[96];		/* a fake /boot */
	char file[96];		/* a scratch policy file */
	char dpkg[96];		/* dpkg's status, as the fake dpkg-query gives it (none at first) */
	char dpkg_query[96];	/* a fake dpkg-query, which prints the file dpkg */
};

struct run {
	int rc;
	char *out, *err;
};

static int fake_errno;		/* the refusal the fake write returns */

/* the fake open(): refuses one interface file, or swaps its content */
static const char *deny_name;	/* e.g. "ranking" */
static int deny_errno;
static const char *swap_name;	/* rewritten before its swap_at-th open */
static const char *swap_text;
static int swap_at, swap_opens;

static int fake_open(const char *path, int flags)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (deny_name && !strcmp(base, deny_name)) {
		errno = deny_errno;
		return -1;
	}
	if (swap_name && !strcmp(base, swap_name) && ++swap_opens == swap_at) {
		FILE *f = fopen(path, "w");

		if (f) {
			fputs(swap_text, f);
			fclose(f);
		}
	}
	return open(path, flags);
}

static ssize_t fake_refuse(int fd, const void *buf, size_t len)
{
	(void)fd;
	(void)buf;
	(void)len;
	errno = fake_errno;
	return -1;
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* stats of a loaded 3-rule policy in MODE (status reads the mode there) */
static void put_stats(const char *dir, const char *mode)
{
	char text[256];

	snprintf(text, sizeof(text),
		 "policy_generation 3\npolicy_hash 9f1c0e1d2a3b4c5d\n"
		 "policy_load_time 1764748800\npolicy_rules 3\nmode %s\n"
		 "oom_events 0\naudit_drops 2\nnew_counter 7\n", mode);
	put(dir, "stats", text);
}

static char *get(const char *dir, const char *name)
{
	char path[256];
	char *t;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	t = tc_read_file(path, 1 << 20, NULL);
	assert_non_null(t);
	return t;
}

static const char active_policy[] =
	"mode enforce\n"
	"fallback panic\n"
	"oom-score-adj override\n"
	"protect type=protected_t\n"
	"sacrifice type=batch_t rank=900 group\n"
	"adjust -300 type=web_t\n";

static const char stats_text[] =
	"policy_generation 3\n"
	"policy_hash 9f1c0e1d2a3b4c5d\n"
	"policy_load_time 1764748800\n"
	"policy_rules 3\n"
	"mode enforce\n"
	"oom_events 12\n"
	"protected_skipped 30\n"
	"sacrificed 9\n"
	"adjusted 4\n"
	"label_misses 0\n"
	"fallbacks 1\n"
	"selection_ns_last 81234\n"
	"selection_ns_max 120000\n"
	"rule 1 hits 5\n"
	"rule 2 hits 9\n"
	"rule 3 hits 4\n";

/* the kernel's format: tiers, columns named by the header */
static const char ranking_text[] =
	"# rank\tpid\ttier\tsrank\tpoints\tverdict\trule\tlabel\tcomm\n"
	"1\t211\tsacrifice\t900\t1483\tsacrifice\t2\tsystem_u:system_r:batch_t:s0\ttr-hog\n"
	"2\t205\tordinary\t-\t10412\tadjust\t3\tsystem_u:system_r:web_t:s0\ttr-hog\n"
	"3\t1\tordinary\t-\t112\tnone\t-\tsystem_u:system_r:init_t:s0\tinit\n"
	"-\t198\tprotected\t-\t-\tprotect\t1\tsystem_u:system_r:protected_t:s0\ttr-hog\n";

/* the format before tiers: still read */
static const char old_ranking_text[] =
	"# rank\tpid\tpoints\tverdict\trule\tlabel\tcomm\n"
	"1\t211\t2147483\tsacrifice\t2\tsystem_u:system_r:batch_t:s0\ttr-hog\n"
	"2\t205\t10412\tadjust\t3\tsystem_u:system_r:web_t:s0\ttr-hog\n"
	"3\t1\t112\tnone\t-\tsystem_u:system_r:init_t:s0\tinit\n"
	"-\t198\t-\tprotect\t1\tsystem_u:system_r:protected_t:s0\ttr-hog\n";

static const char decisions_text[] =
	"# seq\ttime\tmode\tscope\tpid\tpoints\tverdict\trule\toutcome\tlabel\tcomm\n"
	"16\t1764748790.000000001\tpermissive\tglobal\t205\t10412\tadjust\t3\twould-kill\tsystem_u:system_r:web_t:s0\ttr-hog\n"
	"17\t1764748800.123456789\tenforce\tmemcg\t211\t2147483\tsacrifice\t2\tkilled\tsystem_u:system_r:batch_t:s0\ttr-hog\n";

static void put_proc(struct fake *f, const char *pid, const char *label,
		     size_t label_len, const char *comm)
{
	char path[160];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s/attr", f->proc, pid);
	assert_int_equal(mkdir(path, 0755) == 0 || errno == EEXIST, 1);
	strcat(path, "/current");
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(label, 1, label_len, fp), label_len);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/%s", f->proc, pid);
	put(path, "comm", comm);
}

static int setup(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));
	char path[160];

	assert_non_null(f);
	strcpy(f->dir, "/tmp/triagectl-test.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	put(f->dir, "policy", active_policy);
	put(f->dir, "load_error", "");
	put(f->dir, "mode", "enforce\n");
	put(f->dir, "stats", stats_text);
	put(f->dir, "ranking", ranking_text);
	put(f->dir, "decisions", decisions_text);
	/* securityfs's own lsm file sits next to the triage directory */
	put(f->dir, "lsm", "capability,selinux,triage");
	snprintf(f->proc, sizeof(f->proc), "%s/proc", f->dir);
	assert_int_equal(mkdir(f->proc, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys", f->proc);
	assert_int_equal(mkdir(path, 0755), 0);
	strcat(path, "/vm");
	assert_int_equal(mkdir(path, 0755), 0);
	put(path, "oom_policy", "triage classic\n");
	snprintf(f->sys, sizeof(f->sys), "%s/sys", f->dir);
	assert_int_equal(mkdir(f->sys, 0755), 0);
	/* the running kernel, the triage kernel of /boot */
	snprintf(path, sizeof(path), "%s/sys/kernel", f->proc);
	assert_int_equal(mkdir(path, 0755), 0);
	put(path, "osrelease", "6.12.41-triage\n");
	snprintf(f->boot, sizeof(f->boot), "%s/boot", f->dir);
	assert_int_equal(mkdir(f->boot, 0755), 0);
	put(f->boot, "config-6.12.41-triage", "CONFIG_LSM=\"landlock,lockdown,yama,selinux,triage\"\n"
	    "CONFIG_SECURITY_TRIAGE=y\nCONFIG_OOM_POLICY_CHAIN=y\n");
	put(f->boot, "vmlinuz-6.12.41-triage", "");
	snprintf(f->file, sizeof(f->file), "%s/in.policy", f->dir);
	snprintf(f->dpkg, sizeof(f->dpkg), "%s/dpkg-status", f->dir);
	/* dpkg-query -W asked for the linux-image packages, as status asks */
	snprintf(f->dpkg_query, sizeof(f->dpkg_query), "%s/dpkg-query", f->dir);
	{
		char script[512];

		snprintf(script, sizeof(script),
			 "#!/bin/sh\n"
			 "[ $# = 3 ] && [ \"$1\" = -W ] && [ \"$3\" = 'linux-image-*' ] || exit 2\n"
			 "case $2 in\n"
			 "'--showformat=Package: ${Package}\\nStatus: ${Status}\\nVersion: ${Version}\\n\\n') ;;\n"
			 "*) exit 2 ;;\n"
			 "esac\n"
			 "exec cat %s\n", f->dpkg);
		put(f->dir, "dpkg-query", script);
	}
	assert_int_equal(chmod(f->dpkg_query, 0755), 0);
	snprintf(path, sizeof(path), "%s/211", f->proc);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/198", f->proc);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/300", f->proc);
	assert_int_equal(mkdir(path, 0755), 0);
	/* SELinux's attr/current ends in a NUL */
	put_proc(f, "211", "system_u:system_r:batch_t:s0", 29, "tr-hog\n");
	put_proc(f, "198", "system_u:system_r:protected_t:s0\n", 33, "tr-hog\n");
	put_proc(f, "300", "user_u:user_r:user_t:s0", 23, "bash\n");
	*state = f;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	struct fake *f = *state;

	deny_name = NULL;
	swap_name = NULL;
	swap_opens = 0;
	nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(f);
	return 0;
}

/* Run triagectl ARGS... (NULL-terminated) against the fake directory. */
static struct run run_with(struct fake *f,
			   ssize_t (*wr)(int, const void *, size_t), ...)
{
	char *argv[32], *obuf = NULL, *ebuf = NULL;
	size_t olen = 0, elen = 0;
	struct tc_ctx ctx = { 0 };
	struct run r;
	int argc = 0;
	va_list ap;

	argv[argc++] = "triagectl";
	va_start(ap, wr);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	ctx.out = open_memstream(&obuf, &olen);
	ctx.err = open_memstream(&ebuf, &elen);
	ctx.root = f ? f->dir : "/nonexistent";
	ctx.secfs = f ? f->dir : NULL;
	ctx.proc = f ? f->proc : "/nonexistent";
	ctx.sys = f ? f->sys : "/nonexistent";
	ctx.boot = f ? f->boot : NULL;
	ctx.dpkg_query = f ? f->dpkg_query : NULL;
	ctx.open_file = fake_open;
	ctx.write_policy = wr ? wr : write;
	ctx.follow_ms = 1;
	ctx.follow_polls = 2;
	r.rc = tc_main(&ctx, argc, argv);
	fclose(ctx.out);
	fclose(ctx.err);
	r.out = obuf;
	r.err = ebuf;
	return r;
}

#define run(f, ...) run_with(f, NULL, __VA_ARGS__, NULL)

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

#define assert_contains(hay, needle) do {				\
	if (!strstr((hay), (needle)))					\
		fail_msg("expected to find\n  %s\nin\n%s", (needle), (hay)); \
} while (0)

#define assert_not_contains(hay, needle) do {				\
	if (strstr((hay), (needle)))					\
		fail_msg("did not expect\n  %s\nin\n%s", (needle), (hay)); \
} while (0)

#define assert_prefix(s, prefix) do {				\
	if (strncmp((s), (prefix), strlen(prefix)))			\
		fail_msg("expected to start with\n  %s\nin\n%s", (prefix), (s)); \
} while (0)

/* Check a policy text against the test SELinux policy. */
static struct run check(struct fake *f, const char *text)
{
	put(f->dir, "in.policy", text);
	return run(f, "check", f->file, "--selinux-policy",
		   TRIAGE_TEST_SELINUX);
}

static void expect_diag(struct fake *f, const char *text, int rc,
			const char *diag)
{
	struct run r = check(f, text);
	char want[600];

	snprintf(want, sizeof(want), "%s:%s\n", f->file, diag);
	assert_contains(r.err, want);
	assert_int_equal(r.rc, rc);
	run_free(&r);
}

/* ---------------------------------------------------------------- check */

static void test_check_ok(void **state)
{
	struct fake *f = *state;
	struct run r = check(f,
		"mode enforce\n"
		"protect type=untrusted_t\n"
		"protect user=system_u role=system_r type=protected_t range=s0\n"
		"sacrifice type=batch_t rank=900 group\n"
		"sacrifice user=user_u role=user_r type=user_t\n"
		"adjust +200 label=/usr/bin/firefox\n"
		"adjust -100 type=web_t\n");

	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_contains(r.out, "in.policy: ok, 6 rules, 0 warnings\n");
	run_free(&r);
}

static void test_check_unknown_type_suggestion(void **state)
{
	struct fake *f = *state;

	expect_diag(f, "protect type=init_t\nsacrifice type=batch_tt\n", 1,
		    "2:16: error: unknown SELinux type 'batch_tt' (did you mean 'batch_t'?)");
	/* nothing near: no suggestion */
	expect_diag(f, "protect type=sshd_t\n", 1,
		    "1:14: error: unknown SELinux type 'sshd_t'");
	/* the column follows continuations, quotes and tabs */
	expect_diag(f, "protect \\\n\tuser=system_u type=\"web_tt\"\n", 1,
		    "2:21: error: unknown SELinux type 'web_tt' (did you mean 'web_t'?)");
}

static void test_check_unknown_user_role_range(void **state)
{
	struct fake *f = *state;
	struct run r;

	expect_diag(f, "protect user=sytem_u\n", 1,
		    "1:14: error: unknown SELinux user 'sytem_u' (did you mean 'system_u'?)");
	expect_diag(f, "protect role=user_rr\n", 1,
		    "1:14: error: unknown SELinux role 'user_rr' (did you mean 'user_r'?)");
	expect_diag(f, "protect type=init_t range=s9\n", 1,
		    "1:27: error: invalid SELinux range 's9'");
	expect_diag(f, "protect type=init_t range=s0:c99\n", 1,
		    "1:27: error: invalid SELinux range 's0:c99'");
	expect_diag(f, "protect type=domain\n", 1,
		    "1:14: error: 'domain' is an SELinux type attribute, not a type: a label never shows it");
	/* every error is reported, in order, and counted */
	r = check(f, "protect type=a_t\nprotect type=b_t\n");
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "in.policy: 2 errors, 0 warnings\n");
	assert_true(strstr(r.err, "a_t") < strstr(r.err, "b_t"));
	run_free(&r);
}

static void test_check_syntax_error(void **state)
{
	struct fake *f = *state;

	expect_diag(f, "protect type=init_t\nprotec type=web_t\n", 1,
		    "2:1: error: unknown keyword 'protec' (did you mean 'protect'?)");
	expect_diag(f, "sacrifice type=batch_t rank=2000\n", 1,
		    "1:29: error: rank out of range 0..1000");
}

static void test_check_shadowing(void **state)
{
	struct fake *f = *state;
	struct run r;

	expect_diag(f, "protect type=web_t\nsacrifice type=web_t rank=5\n", 0,
		    "2:1: warning: rule never decides: the rule on line 1 ('protect type=web_t') matches every label it matches");
	/* an earlier rule with a subset of the matchers */
	expect_diag(f, "protect role=system_r\n\n  adjust +1 user=system_u role=system_r type=web_t\n",
		    0,
		    "3:3: warning: rule never decides: the rule on line 1 ('protect role=system_r') matches every label it matches");
	/* label=* covers everything */
	expect_diag(f, "adjust +1 label=*\nprotect type=init_t\n", 0,
		    "2:1: warning: rule never decides: the rule on line 1 ('adjust +1 label=*') matches every label it matches");
	/* a literal label is covered by a rule that matches it */
	expect_diag(f, "protect type=web_t\nprotect label=system_u:system_r:web_t:s0\n", 0,
		    "2:1: warning: rule never decides: the rule on line 1 ('protect type=web_t') matches every label it matches");
	/* more specific first: no warning */
	r = check(f, "protect type=web_t range=s0\nsacrifice type=web_t\n"
		     "adjust +1 label=/usr/bin/*\nadjust +2 label=/usr/*\n");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	run_free(&r);
}

static void test_check_never_matches(void **state)
{
	struct fake *f = *state;

	expect_diag(f, "protect role=user_r type=web_t\n", 0,
		    "1:1: warning: rule never matches: SELinux role 'user_r' may not have type 'web_t'");
	expect_diag(f, "protect user=user_u role=system_r\n", 0,
		    "1:1: warning: rule never matches: SELinux user 'user_u' may not have role 'system_r'");
	expect_diag(f, "protect type=unlabeled_t\n", 0,
		    "1:1: warning: rule never matches: no SELinux role may have type 'unlabeled_t'");
	expect_diag(f, "protect user=user_u type=web_t\n", 0,
		    "1:1: warning: rule never matches: no role of SELinux user 'user_u' may have type 'web_t'");
	expect_diag(f, "protect type=web_t range=s0-s0\n", 0,
		    "1:26: warning: rule never matches: labels show the range 's0-s0' as 's0'");
	expect_diag(f, "protect type=init_t label=system_u:system_r:web_t:s0\n", 0,
		    "1:1: warning: rule never matches: label=system_u:system_r:web_t:s0 is not a context with the rule's user, role, type and range");
}

static void test_check_no_selinux(void **state)
{
	struct fake *f = *state;
	struct run r;

	put(f->dir, "in.policy", "protect type=sshd_tt\nprotect type=sshd_tt\n");
	r = run(f, "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	/* names are not checked, but shadowing still is */
	assert_not_contains(r.err, "unknown");
	assert_contains(r.err, "2:1: warning: rule never decides");
	run_free(&r);

	r = run(f, "check", f->file, "--selinux-policy", "/nonexistent.bin");
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "cannot read SELinux policy /nonexistent.bin: No such file or directory");
	run_free(&r);

	r = run(f, "check", f->file, "--selinux-policy", f->file);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "not a valid SELinux binary policy");
	run_free(&r);
}

static void test_check_json(void **state)
{
	struct fake *f = *state;
	struct run r;

	put(f->dir, "in.policy", "protect type=web_tt\n");
	r = run(f, "--json", "check", f->file, "--selinux-policy",
		TRIAGE_TEST_SELINUX);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "\"ok\":false,\"rules\":1,\"pressure_statements\":0,\"budgets\":[],\"errors\":1,\"warnings\":0,"
			"\"diagnostics\":[{\"line\":1,\"column\":14,\"severity\":\"error\","
			"\"message\":\"unknown SELinux type 'web_tt' (did you mean 'web_t'?)\"}],"
			"\"error\":{\"exit\":1,\"kind\":\"error\",\"message\":\"");
	run_free(&r);
}

static void test_usage(void **state)
{
	struct fake *f = *state;
	struct run r;

	r = run(f, "check");
	assert_int_equal(r.rc, 2);
	assert_string_equal(r.err, "triagectl check: no policy FILE given (- reads standard input); see triagectl check --help\n");
	run_free(&r);
	r = run(f, "check", "a", "b");
	assert_int_equal(r.rc, 2);
	run_free(&r);
	r = run(f, "check", "a", "--bogus");
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "unknown option '--bogus'");
	run_free(&r);
	r = run(f, "check", "--selinux-policy");
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "needs a value");
	run_free(&r);
	/* options that exclude each other: a usage error that says why */
	r = run(f, "check", "a", "--selinux-policy", "x", "--no-selinux");
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "triagectl check: --selinux-policy and --no-selinux exclude each other; see triagectl check --help\n");
	run_free(&r);
	r = run(f, "diff", "a", "--no-selinux", "--selinux-policy=x");
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "triagectl diff: --selinux-policy and --no-selinux exclude each other; see triagectl diff --help\n");
	run_free(&r);
	put(f->dir, "in.policy", "protect type=web_t\n");
	r = run(f, "load", f->file, "--no-selinux", "--boot", "--force");
	assert_int_equal(r.rc, 2);
	assert_contains(r.err, "triagectl load: --boot and --force exclude each other; see triagectl load --help\n");
	assert_string_equal(r.out, "");
	run_free(&r);
	r = run(f, "frobnicate");
	assert_int_equal(r.rc, 2);
	run_free(&r);
	r = run_with(f, NULL, NULL);
	assert_int_equal(r.rc, 2);
	run_free(&r);
	r = run(f, "mode", "lenient");
	assert_int_equal(r.rc, 2);
	run_free(&r);
	r = run(f, "explain", "abc");
	assert_int_equal(r.rc, 2);
	run_free(&r);
	{
		static const char *const cmds[] = {
			"check", "load", "status", "mode", "rank", "explain",
			"log", "test",
		};
		size_t i;

		for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
			r = run(f, cmds[i], "--help");
			assert_int_equal(r.rc, 0);
			assert_contains(r.out, "usage: triagectl ");
			assert_contains(r.out, "--root DIR");
			assert_contains(r.out, cmds[i]);
			run_free(&r);
		}
	}
	r = run(f, "--help");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "triagectl explain PID");
	run_free(&r);
	r = run(f, "check", "/nonexistent.policy", "--no-selinux");
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "cannot read /nonexistent.policy: No such file or directory");
	run_free(&r);
}

static void test_rule_covers(void **state)
{
	static const struct {
		const char *a, *b;
		bool covers;
	} cases[] = {
		{ "type=x", "type=x", true },
		{ "type=x", "type=x range=s0", true },
		{ "type=x range=s0", "type=x", false },
		{ "user=u type=x", "type=x", false },
		{ "label=*", "type=x", true },
		{ "label=**", "label=/a/*", true },
		{ "label=/a/*", "label=/a/*", true },
		{ "label=/a/*", "label=/a/b", true },
		{ "label=/a/*", "label=/b/*", false },
		{ "label=/a/*", "type=x", false },
		{ "type=x", "label=u:r:x:s0", true },
		{ "type=x", "label=u:r:x", true },
		{ "type=x", "label=u:r:y:s0", false },
		{ "range=s0", "label=u:r:x", false },
		{ "label=\"a\\\\*\"", "label=a*", false },
		{ "label=\"a\\\\*\"", "label=\"a\\\\*\"", true },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct triage_policy *a = NULL, *b = NULL;
		struct triage_parse_error err;
		char ta[128], tb[128];

		snprintf(ta, sizeof(ta), "protect %s\n", cases[i].a);
		snprintf(tb, sizeof(tb), "protect %s\n", cases[i].b);
		assert_int_equal(triage_policy_parse(ta, strlen(ta), &a, &err), 0);
		assert_int_equal(triage_policy_parse(tb, strlen(tb), &b, &err), 0);
		if (tc_rule_covers(&a->rules[0], &b->rules[0]) != cases[i].covers)
			fail_msg("'%s' covers '%s': expected %d", cases[i].a,
				 cases[i].b, cases[i].covers);
		triage_policy_free(a);
		triage_policy_free(b);
	}
}

static void test_edit_distance(void **state)
{
	(void)state;
	assert_int_equal(tc_edit_distance("", ""), 0);
	assert_int_equal(tc_edit_distance("sshd_t", "sshd_t"), 0);
	assert_int_equal(tc_edit_distance("sshd_tt", "sshd_t"), 1);
	assert_int_equal(tc_edit_distance("sytem_r", "system_r"), 1);
	assert_int_equal(tc_edit_distance("kitten", "sitting"), 3);
	assert_int_equal(tc_edit_distance("", "abc"), 3);
}

/* ----------------------------------------------------------------- load */

static void test_load_diff(void **state)
{
	struct fake *f = *state;
	static const char newp[] =
		"# the new policy\n"
		"mode permissive\n"
		"fallback panic\n"
		"protect type=protected_t\n"
		"sacrifice type=batch_t   rank=900 group  # same rule, other layout\n"
		"protect type=user_t\n";
	struct run r;
	char *now;

	put(f->dir, "in.policy", newp);
	r = run(f, "load", f->file, "--selinux-policy", TRIAGE_TEST_SELINUX);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_contains(r.out, "loaded ");
	assert_contains(r.out, "in.policy: 3 rules, hash 9f1c0e1d2a3b4c5d, generation 3\n"
			"  ~ mode permissive (was: mode enforce)\n"
			"  - adjust -300 type=web_t\n"
			"  + protect type=user_t\n");
	assert_not_contains(r.out, "batch_t");
	/* the whole file, as it is, in one write */
	now = get(f->dir, "policy");
	assert_string_equal(now, newp);
	free(now);
	run_free(&r);

	/* loading the same policy again (the kernel took its mode): no change */
	put(f->dir, "mode", "permissive\n");
	r = run(f, "load", f->file, "--no-selinux", "--json");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "{\"schema_version\":1,\"command\":\"load\",\"loaded\":true,");
	assert_contains(r.out, "\"hash\":\"9f1c0e1d2a3b4c5d\",\"generation\":3,");
	assert_contains(r.out, "\"settings\":{\"mode\":{\"from\":\"permissive\",\"to\":\"permissive\",\"changed\":false},"
			"\"fallback\":{\"from\":\"panic\",\"to\":\"panic\",\"changed\":false},"
			"\"oom-score-adj\":{\"from\":\"override\",\"to\":\"override\",\"changed\":false}},"
			"\"mode_set_at_run_time\":false,\"added\":[],\"removed\":[],\"reordered\":false,"
			"\"pressure_added\":[],\"pressure_removed\":[],\"verdict_changes\":null,\"check\":{");
	assert_contains(r.out, "\"error\":null}\n");
	run_free(&r);

	/* a reordering is reported: first match wins */
	put(f->dir, "in.policy", "mode permissive\nfallback panic\nprotect type=user_t\n"
		"protect type=protected_t\nsacrifice type=batch_t rank=900 group\n");
	r = run(f, "load", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "  rules reordered");
	run_free(&r);
}

static void test_load_refused(void **state)
{
	struct fake *f = *state;
	struct run r;
	char *now;

	put(f->dir, "in.policy", "protect type=init_t\n");
	put(f->dir, "load_error", "3:7: unknown keyword 'protec'\n");
	fake_errno = EINVAL;
	r = run_with(f, fake_refuse, "load", f->file, "--no-selinux", NULL);
	assert_int_equal(r.rc, TC_EXIT_REFUSED);
	assert_contains(r.err, "in.policy:3:7: error: unknown keyword 'protec' (refused by the kernel; the old policy stays in force)\n");
	assert_string_equal(r.out, "");
	run_free(&r);

	fake_errno = EPERM;
	r = run_with(f, fake_refuse, "load", f->file, "--no-selinux", NULL);
	assert_int_equal(r.rc, TC_EXIT_PERM);
	assert_contains(r.err, "triagectl: loading a policy needs CAP_MAC_ADMIN (run as root)\n");
	run_free(&r);

	fake_errno = E2BIG;
	r = run_with(f, fake_refuse, "load", f->file, "--no-selinux", NULL);
	assert_int_equal(r.rc, TC_EXIT_REFUSED);
	assert_contains(r.err, "larger than 256 KiB, too many rules or too many pressure statements");
	run_free(&r);

	/* with --json the error is on stdout too */
	fake_errno = EPERM;
	r = run_with(f, fake_refuse, "load", f->file, "--no-selinux", "--json", NULL);
	assert_int_equal(r.rc, TC_EXIT_PERM);
	assert_string_equal(r.out, "{\"schema_version\":1,\"command\":\"load\",\"error\":{\"exit\":4,\"kind\":\"permission\","
			    "\"message\":\"loading a policy needs CAP_MAC_ADMIN (run as root)\"}}\n");
	run_free(&r);

	/* the old policy stays */
	now = get(f->dir, "policy");
	assert_string_equal(now, active_policy);
	free(now);
}

static void test_load_check_errors(void **state)
{
	struct fake *f = *state;
	struct run r;
	char *now;

	/* an unknown type stops the load ... */
	put(f->dir, "in.policy", "protect type=sshd_tt\n");
	r = run(f, "load", f->file, "--selinux-policy", TRIAGE_TEST_SELINUX);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "1:14: error: unknown SELinux type 'sshd_tt'");
	assert_contains(r.err, "in.policy: not loaded: 1 error (--force loads despite SELinux name errors; --boot loads them inert)\n");
	now = get(f->dir, "policy");
	assert_string_equal(now, active_policy);
	free(now);
	run_free(&r);

	/* ... unless forced */
	r = run(f, "load", f->file, "--force", "--selinux-policy",
		TRIAGE_TEST_SELINUX);
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "  + protect type=sshd_tt\n");
	now = get(f->dir, "policy");
	assert_string_equal(now, "protect type=sshd_tt\n");
	free(now);
	run_free(&r);

	/* a syntax error is never forced */
	put(f->dir, "in.policy", "protect type=init_t\nmode lax\n");
	r = run(f, "load", f->file, "--force", "--no-selinux");
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "in.policy:2:6: error: invalid mode 'lax' (enforce or permissive)\n");
	assert_contains(r.err, "in.policy: not loaded: 1 error\n");
	run_free(&r);

	/* no securityfs */
	put(f->dir, "in.policy", "protect type=init_t\n");
	r = run(NULL, "load", f->file, "--no-selinux");
	assert_int_equal(r.rc, TC_EXIT_UNAVAILABLE);
	assert_not_contains(r.err, "refused");
	run_free(&r);
}

/* ----------------------------------------------------- status, mode, rank */

static void test_status(void **state)
{
	struct fake *f = *state;
	struct run r = run(f, "status");
	char path[160];

	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "triage                 enabled (");
	assert_contains(r.out, "\nkernel                 6.12.41-triage\n");
	assert_contains(r.out, "LSM stack              capability,selinux,triage (major: selinux)\n");
	assert_contains(r.out, "OOM chain              triage classic\n");
	assert_contains(r.out, "mode                   enforce\n");
	assert_contains(r.out, "policy                 9f1c0e1d2a3b4c5d, 3 rules, generation 3\n");
	assert_contains(r.out, "policy loaded          2025-12-03T08:00:00Z (");
	assert_contains(r.out, "counters:\n  OOM events             12\n");
	assert_contains(r.out, "  label misses           0\n");
	assert_not_contains(r.out, "\n  victims");
	assert_not_contains(r.out, "last refused load");
	assert_contains(r.out, "rule hits:\n"
			"     1         5  protect type=protected_t\n"
			"     2         9  sacrifice type=batch_t rank=900 group\n");
	assert_string_equal(r.err, "");
	run_free(&r);

	/* JSON: times are numbers, as in log */
	r = run(f, "status", "--json");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "{\"schema_version\":1,\"command\":\"status\","
			"\"enabled\":true,\"running_kernel\":\"6.12.41-triage\",\"running_kernel_triage\":true,"
			"\"triage_kernels\":[\"6.12.41-triage\"],\"newer_triage_kernel\":null,"
			"\"debian_kernel\":null,\"debian_kernel_version\":null,\"debian_kernel_newer\":null,"
			"\"lsm\":\"capability,selinux,triage\",\"major_lsm\":\"selinux\","
			"\"smack\":{\"active\":false,\"built\":false,\"rules\":[]},"
			"\"oom_policy\":\"triage classic\",\"triage_in_chain\":true,\"mode\":\"enforce\","
			"\"oom_select_hook\":null,\"policy_loaded\":true,\"policy_hash\":\"9f1c0e1d2a3b4c5d\",\"policy_generation\":3,"
			"\"policy_load_time\":1764748800,\"policy_rules\":3,\"load_error\":null,"
			"\"counters\":{\"oom_events\":12,");
	assert_contains(r.out, "\"rule_hits\":[5,9,4],\"inert_rules\":[],\"pressure\":[],\"error\":null}\n");
	run_free(&r);

	/* triage not in the chain, a refused load, dropped audit records */
	snprintf(path, sizeof(path), "%s/sys/vm", f->proc);
	put(path, "oom_policy", "classic\n");
	put(f->dir, "load_error", "3:7: unknown keyword 'protec'\n");
	put_stats(f->dir, "permissive");
	r = run(f, "status");
	assert_int_equal(r.rc, TC_EXIT_NOCHAIN);
	assert_contains(r.out, "OOM chain              classic  (triage not in it: its OOM policy is not asked)\n");
	assert_contains(r.out, "last refused load      3:7: unknown keyword 'protec'\n");
	assert_contains(r.out, "  audit records dropped  2\n");
	assert_contains(r.out, "  new counter            7\n");
	assert_contains(r.err, "warning: triage is not in vm.oom_policy (classic): permissive mode tries nothing "
			"(no would-kill is recorded, only the victim the chain chose); "
			"put it first: echo 'triage classic' > /proc/sys/vm/oom_policy\n");
	assert_contains(r.err, "warning: 2 decision audit records were dropped");
	run_free(&r);
	r = run(f, "-q", "status");
	assert_string_equal(r.err, "");
	run_free(&r);
	/* enforced, the rules still decide in the classic selection: said so */
	put_stats(f->dir, "enforce");
	r = run(f, "status");
	assert_int_equal(r.rc, TC_EXIT_NOCHAIN);
	assert_contains(r.err, "warning: triage is not in vm.oom_policy (classic): the classic selection "
			"still takes the rules' protect, sacrifice and adjust, but triage's own OOM policy "
			"is not asked (no fallback, no group kill, no rule named in the kill line); "
			"put it first: echo 'triage classic' > /proc/sys/vm/oom_policy\n");
	run_free(&r);
	put_stats(f->dir, "permissive");

	/*
	 * Without CAP_MAC_ADMIN (stats and mode are for anybody): what could
	 * not be read is said, not silently left out.
	 */
	put(path, "oom_policy", "triage classic\n");
	deny_name = "policy";
	deny_errno = EPERM;
	r = run(f, "status");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "policy                 9f1c0e1d2a3b4c5d, 3 rules, generation 3\n");
	assert_contains(r.out, "last refused load      3:7: unknown keyword 'protec'\n");
	assert_contains(r.err, "triagectl: note: reading the policy needs CAP_MAC_ADMIN (run as root): the rules' texts and inert rules are not shown\n");
	assert_not_contains(r.err, "load_error");
	run_free(&r);
	deny_name = "load_error";
	r = run(f, "status");
	assert_int_equal(r.rc, 0);
	assert_not_contains(r.out, "last refused load");
	assert_contains(r.err, "triagectl: note: reading load_error needs CAP_MAC_ADMIN (run as root): the reason of the last refused load is not shown\n");
	assert_not_contains(r.err, "reading the policy");
	run_free(&r);
	r = run(f, "-q", "status");
	assert_string_equal(r.err, "");
	run_free(&r);
	deny_name = NULL;

	/* no policy loaded: said so, and exit 6 */
	put(f->dir, "policy", "");
	put(f->dir, "stats", "policy_generation 0\npolicy_hash 0000000000000000\n"
	    "policy_load_time 0\npolicy_rules 0\nmode enforce\noom_events 0\n");
	r = run(f, "status");
	assert_int_equal(r.rc, TC_EXIT_NOPOLICY);
	assert_contains(r.out, "policy                 none loaded: every OOM is decided as without triage");
	assert_not_contains(r.out, "policy loaded");
	assert_not_contains(r.out, "never");
	run_free(&r);
	r = run(f, "status", "--json");
	assert_int_equal(r.rc, TC_EXIT_NOPOLICY);
	assert_contains(r.out, "\"policy_loaded\":false,\"policy_hash\":null,");
	run_free(&r);

	r = run(NULL, "status");
	assert_int_equal(r.rc, TC_EXIT_UNAVAILABLE);
	run_free(&r);
}

static void test_mode(void **state)
{
	struct fake *f = *state;
	struct run r = run(f, "mode");
	char *now;

	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "enforce\n");
	run_free(&r);
	r = run(f, "mode", "permissive");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "mode permissive (was enforce)\n");
	now = get(f->dir, "mode");
	assert_string_equal(now, "permissive");
	free(now);
	run_free(&r);
	r = run(f, "mode", "--json");
	assert_string_equal(r.out, "{\"schema_version\":1,\"command\":\"mode\",\"mode\":\"permissive\","
			    "\"previous\":null,\"error\":null}\n");
	run_free(&r);
}

static void test_rank(void **state)
{
	struct fake *f = *state;
	struct run r = run(f, "rank");

	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"RANK  PID  TIER       SRANK  POINTS  VERDICT    RULE  COMM    LABEL                             WHY\n"
		"1     211  sacrifice  900    1483    sacrifice  2     tr-hog  system_u:system_r:batch_t:s0      sacrifice type=batch_t rank=900 group\n"
		"2     205  ordinary   -      10412   adjust     3     tr-hog  system_u:system_r:web_t:s0        adjust -300 type=web_t\n"
		"3     1    ordinary   -      112     none       -     init    system_u:system_r:init_t:s0       no rule matches\n"
		"-     198  protected  -      -       protect    1     tr-hog  system_u:system_r:protected_t:s0  protect type=protected_t\n");
	run_free(&r);

	r = run(f, "rank", "--json");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "{\"schema_version\":1,\"command\":\"rank\",\"candidates\":[{\"rank\":1,\"pid\":211,\"tier\":\"sacrifice\",\"srank\":900,\"points\":1483,"
			"\"verdict\":\"sacrifice\",\"rule\":2,"
			"\"label\":\"system_u:system_r:batch_t:s0\",\"comm\":\"tr-hog\","
			"\"why\":\"sacrifice type=batch_t rank=900 group\",\"beyond_budget\":false},\n");
	assert_contains(r.out, "{\"rank\":null,\"pid\":198,\"tier\":\"protected\",\"srank\":null,\"points\":null,");
	run_free(&r);

	/* the format before tiers */
	put(f->dir, "ranking", old_ranking_text);
	r = run(f, "rank");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "RANK  PID  POINTS   VERDICT    RULE  COMM    LABEL");
	assert_contains(r.out, "1     211  2147483  sacrifice  2     tr-hog  system_u:system_r:batch_t:s0");
	run_free(&r);

	put(f->dir, "ranking", "# rank\tpid\ttier\tsrank\tpoints\tverdict\trule\tlabel\tcomm\n");
	r = run(f, "rank");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "(no candidates)\n");
	run_free(&r);
	put(f->dir, "ranking", "garbage\n");
	r = run(f, "rank");
	assert_int_equal(r.rc, 1);
	run_free(&r);

	/* CAP_MAC_ADMIN: a clear message and its own exit code */
	deny_name = "ranking";
	deny_errno = EPERM;
	r = run(f, "rank");
	assert_int_equal(r.rc, TC_EXIT_PERM);
	assert_string_equal(r.err, "triagectl: reading the ranking needs CAP_MAC_ADMIN (run as root)\n");
	run_free(&r);
	r = run(f, "rank", "--json");
	assert_int_equal(r.rc, TC_EXIT_PERM);
	assert_contains(r.out, "\"command\":\"rank\",\"error\":{\"exit\":4,\"kind\":\"permission\",");
	run_free(&r);
	deny_name = "decisions";
	r = run(f, "log");
	assert_int_equal(r.rc, TC_EXIT_PERM);
	assert_string_equal(r.err, "triagectl: reading the decisions needs CAP_MAC_ADMIN (run as root)\n");
	run_free(&r);
}

/*
 * A process named "x\n9\t999\t9\tsac" (PR_SET_NAME) must stay one row:
 * the kernel escapes it, triagectl unescapes it into its cell and shows
 * it escaped again; no row for pid 999 appears anywhere.
 */
static void test_injection(void **state)
{
	struct fake *f = *state;
	char path[160];
	struct run r;

	put(f->dir, "ranking",
	    "# rank\tpid\ttier\tsrank\tpoints\tverdict\trule\tlabel\tcomm\n"
	    "1\t300\tordinary\t-\t500\tnone\t-\tuser_u:user_r:user_t:s0\tx\\0129\\011999\\0119\\011sac\n"
	    "-\t198\tprotected\t-\t-\tprotect\t1\tsystem_u:system_r:protected_t:s0\ttr\\040hog\\134\n");
	r = run(f, "rank");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "1     300  ordinary   -      500     none     -     x\\0129\\011999\\0119\\011sac  user_u:user_r:user_t:s0");
	assert_contains(r.out, "tr hog\\134");
	assert_not_contains(r.out, "\n9");
	assert_not_contains(r.out, "\t");
	/* header + two rows */
	{
		size_t lines = 0;
		const char *p;

		for (p = r.out; *p; p++)
			lines += *p == '\n';
		assert_int_equal(lines, 3);
	}
	run_free(&r);

	r = run(f, "rank", "--json");
	assert_contains(r.out, "\"comm\":\"x\\n9\\t999\\t9\\tsac\"");
	assert_contains(r.out, "\"comm\":\"tr hog\\\\\"");
	assert_not_contains(r.out, "\"pid\":999");
	run_free(&r);

	/* test: the fake row is not a candidate either */
	snprintf(path, sizeof(path), "%s/s.scenario", f->dir);
	put(f->dir, "s.scenario", "killable label=\"*\"\nnever type=sac\n");
	r = run(f, "test", path);
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "# pid 198 (tr hog\\134, system_u:system_r:protected_t:s0) is protected");
	assert_contains(r.out, "not ok 2 - ");
	assert_contains(r.out, "# no live candidate matches the selector");
	assert_not_contains(r.out, "999");
	run_free(&r);

	/* explain reads comm from /proc itself: escaped too */
	put_proc(f, "300", "user_u:user_r:user_t:s0", 23, "x\n9\t999\t9\tsac\n");
	snprintf(path, sizeof(path), "%s/300", f->proc);
	put(path, "comm", "x\033[2J\n");
	r = run(f, "explain", "300");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "pid      300 (x\\033[2J)\n");
	run_free(&r);
}

static void test_escapes(void **state)
{
	char s[64];

	(void)state;
	strcpy(s, "a\\040b\\134c\\012\\011\\377\\000\\08\\");
	tc_unescape(s);
	assert_string_equal(s, "a b\\c\n\t\377\\000\\08\\");
	assert_string_equal(tc_esc("a b\\c\n\t\377\x7f"),
			    "a b\\134c\\012\\011\\377\\177");
	assert_string_equal(tc_esc(""), "");
	assert_string_equal(tc_nearest("protec", (const char *const[]){ "protect", "adjust", NULL }),
			    "protect");
	assert_null(tc_nearest("zzz", (const char *const[]){ "protect", NULL }));
	assert_null(tc_nearest("protect", (const char *const[]){ "protect", NULL }));
}

/* tc_json_str() of @s, as a string (static buffer) */
static const char *json_of(const char *s)
{
	static char buf[512];
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	tc_json_str(f, s);
	fclose(f);
	assert_true(len < sizeof(buf));
	memcpy(buf, out, len + 1);
	free(out);
	return buf;
}

/*
 * JSON strings: valid UTF-8 passes through as it is (café is not
 * cafÃ©); every byte that is not part of valid UTF-8 is \udcNN, which no
 * valid text gives; controls (C0, DEL, C1) are \u escapes of the same
 * characters.  triagectl(8), OUTPUT.
 */
static void test_json_utf8(void **state)
{
	struct fake *f = *state;
	struct run r;

	assert_string_equal(json_of("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
	assert_string_equal(json_of("\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80"),
			    "\"\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80\"");
	/* a Latin-1 é alone is not é */
	assert_string_equal(json_of("caf\xe9"), "\"caf\\udce9\"");
	assert_string_equal(json_of("\xff\xfe"), "\"\\udcff\\udcfe\"");
	/* overlong, a UTF-16 surrogate, beyond U+10FFFF, cut short, lone continuation */
	assert_string_equal(json_of("\xc0\xaf"), "\"\\udcc0\\udcaf\"");
	assert_string_equal(json_of("\xe0\x80\xaf"), "\"\\udce0\\udc80\\udcaf\"");
	assert_string_equal(json_of("\xed\xa0\x80"), "\"\\udced\\udca0\\udc80\"");
	assert_string_equal(json_of("\xf4\x90\x80\x80"), "\"\\udcf4\\udc90\\udc80\\udc80\"");
	assert_string_equal(json_of("a\xe2\x82"), "\"a\\udce2\\udc82\"");
	assert_string_equal(json_of("\xe2\x82z"), "\"\\udce2\\udc82z\"");
	assert_string_equal(json_of("\x80x"), "\"\\udc80x\"");
	/* the largest and smallest of each length pass */
	assert_string_equal(json_of("\xf4\x8f\xbf\xbf\xef\xbf\xbf\xe0\xa0\x80\xc2\xa0"),
			    "\"\xf4\x8f\xbf\xbf\xef\xbf\xbf\xe0\xa0\x80\xc2\xa0\"");
	/* controls stay escaped: C0, DEL and C1 (CSI as U+009B) */
	assert_string_equal(json_of("a\"b\\c\n\t\x01\x7f\xc2\x9b"),
			    "\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\\u009b\"");

	/* a whole command: the kernel's octal escapes of UTF-8 decoded */
	put(f->dir, "ranking",
	    "# rank\tpid\ttier\tsrank\tpoints\tverdict\trule\tlabel\tcomm\n"
	    "1\t300\tordinary\t-\t500\tnone\t-\tcaf\\303\\251\tcaf\\303\\251\n"
	    "2\t301\tordinary\t-\t400\tnone\t-\tcaf\\351\tx\n");
	r = run(f, "rank", "--json");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\"label\":\"caf\xc3\xa9\",\"comm\":\"caf\xc3\xa9\"");
	assert_contains(r.out, "\"label\":\"caf\\udce9\",\"comm\":\"x\"");
	assert_not_contains(r.out, "\\u00c3");
	run_free(&r);
}

/* -------------------------------------------------------------- explain */

static void test_explain(void **state)
{
	struct fake *f = *state;
	struct run r = run(f, "explain", "211");
	char path[160];

	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"pid      211 (tr-hog)\n"
		"label    system_u:system_r:batch_t:s0\n"
		"rule     2: sacrifice type=batch_t rank=900 group\n"
		"verdict  sacrifice\n"
		"ranking  1 of 4 (dies first), tier sacrifice, 1483 points\n"
		"change   rule 2 sacrifices it; to protect it, put `protect type=batch_t` before that rule\n");
	run_free(&r);

	r = run(f, "explain", "198");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "label    system_u:system_r:protected_t:s0\n");
	assert_contains(r.out, "verdict  protect\n");
	assert_contains(r.out, "ranking  protected: never chosen");
	run_free(&r);

	/* no rule: what to add */
	r = run(f, "explain", "300");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "rule     none matches\n");
	assert_contains(r.out, "ranking  not a candidate (kernel thread");
	run_free(&r);
	/* sshd on Debian sets its own oom_score_adj to -1000 */
	snprintf(path, sizeof(path), "%s/300", f->proc);
	put(path, "oom_score_adj", "-1000\n");
	r = run(f, "explain", "300");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "ranking  not a candidate: oom_score_adj -1000 (the OOM killer skips it unless a rule sacrifices it)\n");
	assert_contains(r.out, "change   no rule matches, so the kernel's usual badness decides; "
			"add `protect type=user_t` to protect it, or `sacrifice type=user_t` to make it die first\n");
	run_free(&r);

	r = run(f, "explain", "211", "--json");
	assert_contains(r.out, "{\"schema_version\":1,\"command\":\"explain\",\"pid\":211,\"comm\":\"tr-hog\",\"label\":\"system_u:system_r:batch_t:s0\","
			"\"policy_loaded\":true,"
			"\"rule\":2,\"rule_text\":\"sacrifice type=batch_t rank=900 group\",\"verdict\":\"sacrifice\","
			"\"candidate\":true,\"rank\":1,\"tier\":\"sacrifice\",\"points\":1483,");
	run_free(&r);

	/* the label the kernel matched (its ranking) counts over /proc's */
	put_proc(f, "211", "system_u:system_r:web_t:s0", 26, "tr-hog\n");
	r = run(f, "explain", "211");
	assert_contains(r.out, "label    system_u:system_r:batch_t:s0\n");
	run_free(&r);

	r = run(f, "explain", "4242");
	assert_int_equal(r.rc, TC_EXIT_ERROR);
	assert_string_equal(r.err, "triagectl: no such process: 4242\n");
	run_free(&r);

	/*
	 * a label we may not read (SELinux without process getattr) is an
	 * error, not "no major LSM labels it" with a guessed verdict
	 */
	deny_name = "current";
	deny_errno = EACCES;
	r = run(f, "explain", "300");
	assert_int_equal(r.rc, TC_EXIT_ERROR);
	assert_contains(r.err, "cannot read the label of process 300 (");
	assert_contains(r.err, "/300/attr/current): Permission denied\n");
	assert_null(strstr(r.err, "no major LSM"));
	assert_string_equal(r.out, "");
	run_free(&r);
	/* without any label (no major LSM): a note, and only label=* matches */
	deny_errno = EINVAL;
	r = run(f, "explain", "300");
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "no label for 300 (Invalid argument): no major LSM labels it");
	assert_contains(r.out, "label    (none)\n");
	run_free(&r);
	deny_name = NULL;
	r = run(f, "explain", "0");
	assert_int_equal(r.rc, TC_EXIT_USAGE);
	assert_contains(r.err, "'0' is not a process ID");
	run_free(&r);
	r = run(f, "explain", "12x");
	assert_int_equal(r.rc, TC_EXIT_USAGE);
	run_free(&r);
	r = run(NULL, "explain", "1");
	assert_int_equal(r.rc, TC_EXIT_ERROR);
	assert_contains(r.err, "no such process: 1");
	run_free(&r);
}

/* AppArmor: the mode suffix of attr/current is not part of the label */
static void test_explain_apparmor(void **state)
{
	struct fake *f = *state;
	char path[200];
	FILE *fp;
	struct run r;

	put(f->dir, "lsm", "capability,apparmor,triage");
	put(f->dir, "policy", "protect label=/usr/bin/firefox\n");
	snprintf(path, sizeof(path), "%s/300/attr/apparmor", f->proc);
	assert_int_equal(mkdir(path, 0755), 0);
	put(path, "current", "/usr/bin/firefox (complain)\n");
	r = run(f, "explain", "300");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "label    /usr/bin/firefox\n");
	assert_contains(r.out, "rule     1: protect label=/usr/bin/firefox\n");
	assert_contains(r.out, "verdict  protect\n");
	run_free(&r);

	/* a glob character in the profile name is escaped in the suggestion */
	put(path, "current", "/usr/bin/fire*fox (enforce)\n");
	r = run(f, "explain", "300");
	assert_contains(r.out, "add `protect label=\"/usr/bin/fire\\\\*fox\"` to protect it");
	run_free(&r);

	/* with display_secid_mode the kernel sees the mode too */
	snprintf(path, sizeof(path), "%s/module", f->sys);
	assert_int_equal(mkdir(path, 0755), 0);
	strcat(path, "/apparmor");
	assert_int_equal(mkdir(path, 0755), 0);
	strcat(path, "/parameters");
	assert_int_equal(mkdir(path, 0755), 0);
	strcat(path, "/display_secid_mode");
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("Y\n", fp);
	fclose(fp);
	r = run(f, "explain", "300");
	assert_contains(r.out, "label    /usr/bin/fire*fox (enforce)\n");
	run_free(&r);
}

/*
 * explain never suggests a rule for a label many processes share (the
 * guide forbids protecting AppArmor's "unconfined"; init_t is every
 * service without a module) nor for no label at all (label="" is not a
 * rule the parser takes): it says the label cannot tell the process
 * apart and how to label the service.
 */
static void test_explain_shared_label(void **state)
{
	struct fake *f = *state;
	char path[200], *p;
	struct run r;

	/* AppArmor: unconfined, no rule matches it */
	put(f->dir, "lsm", "capability,apparmor,triage");
	put(f->dir, "policy", "protect label=/usr/sbin/chronyd\n");
	snprintf(path, sizeof(path), "%s/300/attr/apparmor", f->proc);
	assert_int_equal(mkdir(path, 0755), 0);
	put(path, "current", "unconfined\n");
	r = run(f, "explain", "300");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "label    unconfined\n");
	assert_contains(r.out, "change   no rule matches, so the kernel's usual badness decides; its label unconfined "
			"cannot tell it apart: every process without an AppArmor profile has it");
	assert_contains(r.out, "a rule for that label decides for all of them, so none is suggested: give the service "
			"an AppArmor profile of its own");
	assert_not_contains(r.out, "`");
	assert_not_contains(r.out, "label=\"unconfined\"");
	run_free(&r);
	r = run(f, "explain", "300", "--json");
	assert_contains(r.out, "\"shared_label\":true");
	assert_not_contains(r.out, "label=\\\"unconfined\\\"");
	run_free(&r);
	/* a rule that protects it: no `adjust +0 label="unconfined"` either */
	put(f->dir, "policy", "protect label=unconf*\n");
	r = run(f, "explain", "300");
	assert_contains(r.out, "change   rule 1 protects it, and with it every process of its label: "
			"every process without an AppArmor profile has it");
	assert_not_contains(r.out, "`");
	run_free(&r);
	put(f->dir, "policy", "sacrifice label=unconfined\n");
	r = run(f, "explain", "300");
	assert_contains(r.out, "change   rule 1 sacrifices it, and with it every process of its label: ");
	assert_not_contains(r.out, "`");
	run_free(&r);

	/* SELinux: init_t, the domain of every service without a module */
	put(f->dir, "lsm", "capability,selinux,triage");
	put(f->dir, "policy", active_policy);
	put_proc(f, "300", "system_u:system_r:init_t:s0", 28, "cron\n");
	r = run(f, "explain", "300");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "change   no rule matches, so the kernel's usual badness decides; its label "
			"system_u:system_r:init_t:s0 cannot tell it apart: under the reference policy every service "
			"without a policy module of its own runs in it; a rule for that label decides for all of them, "
			"so none is suggested: give the service a domain of its own, a site module with init_daemon_domain(), and name that\n");
	assert_not_contains(r.out, "type=init_t");
	run_free(&r);
	put_proc(f, "300", "unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023", 54, "bash\n");
	r = run(f, "explain", "300");
	assert_contains(r.out, "cannot tell it apart: every unconfined login runs in it");
	assert_not_contains(r.out, "type=unconfined_t");
	run_free(&r);
	/* an ordinary domain still gets its rule */
	put_proc(f, "300", "user_u:user_r:user_t:s0", 23, "bash\n");
	r = run(f, "explain", "300", "--json");
	assert_contains(r.out, "add `protect type=user_t` to protect it");
	assert_contains(r.out, "\"shared_label\":false");
	run_free(&r);

	/* no label at all (no major LSM): no label="" */
	deny_name = "current";
	deny_errno = EINVAL;
	r = run(f, "explain", "300");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "label    (none)\n");
	assert_not_contains(r.out, "label=\"\"");
	assert_not_contains(r.out, "`");
	p = strstr(r.out, "change   ");
	assert_non_null(p);
	assert_contains(p, "it has no label, which cannot tell it apart: no major LSM (SELinux, AppArmor, Smack) labels it");
	run_free(&r);
	deny_name = NULL;
}

/*
 * rank and explain in permissive mode, or with triage not in
 * vm.oom_policy, describe a kill that will not happen: the first line
 * says so, and JSON has "enforced" (true otherwise).
 */
static void test_rank_explain_enforced(void **state)
{
	struct fake *f = *state;
	char vm[200], other[160];
	struct run r;

	snprintf(vm, sizeof(vm), "%s/sys/vm", f->proc);
	/* enforced: no such line, "enforced":true */
	r = run(f, "rank");
	assert_int_equal(r.rc, 0);
	assert_prefix(r.out, "RANK  PID");
	run_free(&r);
	r = run(f, "rank", "--json");
	assert_contains(r.out, "\"enforced\":true,\"not_enforced_reason\":null,\"error\":null}\n");
	run_free(&r);
	r = run(f, "explain", "211");
	assert_prefix(r.out, "pid      211 (tr-hog)\n");
	run_free(&r);
	r = run(f, "explain", "211", "--json");
	assert_contains(r.out, "\"enforced\":true,\"not_enforced_reason\":null,");
	run_free(&r);

	/* permissive: the classic victim dies */
	put(f->dir, "mode", "permissive\n");
	r = run(f, "rank");
	assert_int_equal(r.rc, 0);
	assert_prefix(r.out, "NOT ENFORCED: permissive mode: at an OOM the kernel kills the victim the rest "
			     "of vm.oom_policy chooses (classic: the highest badness) and logs this ranking's first "
			     "as would-kill; triagectl mode enforce enforces it\nRANK  PID");
	run_free(&r);
	r = run(f, "rank", "--json");
	assert_contains(r.out, "\"enforced\":false,\"not_enforced_reason\":\"permissive mode: ");
	run_free(&r);
	r = run(f, "explain", "211");
	assert_int_equal(r.rc, 0);
	assert_prefix(r.out, "NOT ENFORCED: permissive mode: ");
	assert_contains(r.out, "\npid      211 (tr-hog)\n");
	run_free(&r);
	r = run(f, "explain", "211", "--json");
	assert_contains(r.out, "\"enforced\":false,\"not_enforced_reason\":\"permissive mode: ");
	run_free(&r);

	/* enforce, triage not in the chain */
	put(f->dir, "mode", "enforce\n");
	put(vm, "oom_policy", "classic\n");
	r = run(f, "rank");
	assert_prefix(r.out, "NOT ENFORCED: triage is not in vm.oom_policy (classic): ");
	assert_contains(r.out, "; put it first: echo 'triage classic' > /proc/sys/vm/oom_policy\nRANK  PID");
	run_free(&r);
	r = run(f, "explain", "211", "--json");
	assert_contains(r.out, "\"enforced\":false,\"not_enforced_reason\":\"triage is not in vm.oom_policy (classic): ");
	run_free(&r);
	/* explain --proc DIR reads the process there, the chain from the system's /proc */
	snprintf(other, sizeof(other), "%s/proc2", f->dir);
	assert_int_equal(mkdir(other, 0755), 0);
	snprintf(vm, sizeof(vm), "%s/211", other);
	assert_int_equal(mkdir(vm, 0755), 0);
	put(vm, "comm", "tr-hog\n");
	strcat(vm, "/attr");
	assert_int_equal(mkdir(vm, 0755), 0);
	put(vm, "current", "system_u:system_r:batch_t:s0");
	r = run(f, "explain", "211", "--proc", other);
	if (r.rc)
		fail_msg("%s", r.err);
	assert_prefix(r.out, "NOT ENFORCED: triage is not in vm.oom_policy (classic)");
	assert_contains(r.out, "\npid      211 (tr-hog)\n");
	run_free(&r);

	/* no chain at all */
	snprintf(vm, sizeof(vm), "%s/sys/vm/oom_policy", f->proc);
	assert_int_equal(unlink(vm), 0);
	r = run(f, "rank", "--json");
	assert_contains(r.out, "\"enforced\":false,\"not_enforced_reason\":\"vm.oom_policy cannot be read (");
	run_free(&r);
}

/* ------------------------------------------------------------------ log */

static void test_log(void **state)
{
	struct fake *f = *state;
	struct run r = run(f, "log");

	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"SEQ  TIME                  MODE        SCOPE   PID  COMM    POINTS   VERDICT    RULE  OUTCOME     LABEL\n"
		"16   2025-12-03T07:59:50Z  permissive  global  205  tr-hog  10412    adjust     3     would-kill  system_u:system_r:web_t:s0\n"
		"17   2025-12-03T08:00:00Z  enforce     memcg   211  tr-hog  2147483  sacrifice  2     killed      system_u:system_r:batch_t:s0\n");
	run_free(&r);

	r = run(f, "log", "--json");
	assert_int_equal(r.rc, 0);
	/* times are numbers, as in status */
	assert_contains(r.out, "{\"schema_version\":1,\"command\":\"log\",\"decisions\":"
			"[{\"seq\":16,\"time\":1764748790.000000001,\"mode\":\"permissive\",");
	run_free(&r);

	/* --follow prints each decision once (two polls of an unchanged file) */
	r = run(f, "log", "--follow", "--json");
	assert_int_equal(r.rc, 0);
	assert_string_equal(strstr(r.out, "\"seq\":16") ? "1" : "0", "1");
	assert_null(strstr(strstr(r.out, "\"seq\":17") + 1, "\"seq\":17"));
	run_free(&r);

	put(f->dir, "decisions", "# seq\ttime\tmode\tscope\tpid\tpoints\tverdict\trule\toutcome\tlabel\tcomm\n");
	r = run(f, "log");
	assert_string_equal(r.out, "(no decisions yet)\n");
	run_free(&r);
}

/* ----------------------------------------------------------------- test */

static void test_scenario(void **state)
{
	struct fake *f = *state;
	struct run r;

	put(f->dir, "s.scenario",
	    "# conformance\n"
	    "never type=protected_t\n"
	    "dies-first type=batch_t\n"
	    "before type=batch_t < type=web_t   # batch first\n"
	    "before type=batch_t type=init_t\n"
	    "verdict adjust type=web_t\n"
	    "killable label=\"*:web_t:*\"\n"
	    "never type=web_t\n"
	    "before type=web_t < user=system_u role=system_r type=batch_t\n"
	    "dies-first type=user_t\n");
	r = run(f, "test", "--root", f->dir, "s.scenario");
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "cannot read s.scenario");
	run_free(&r);

	{
		char path[160];

		snprintf(path, sizeof(path), "%s/s.scenario", f->dir);
		r = run(f, "test", path);
		assert_int_equal(r.rc, 1);
		assert_contains(r.out, "TAP version 13\n1..9\n");
		assert_contains(r.out, "ok 1 - ");
		assert_contains(r.out, "s.scenario:2: never type=protected_t\n");
		assert_contains(r.out, "ok 4 - ");
		assert_contains(r.out, "s.scenario:5: before type=batch_t type=init_t\n");
		assert_contains(r.out, "ok 6 - ");
		assert_contains(r.out, "\nnot ok 7 - ");
		assert_contains(r.out, "# pid 205 (tr-hog, system_u:system_r:web_t:s0) can be chosen: rank 2, verdict adjust\n");
		assert_contains(r.out, "\nnot ok 8 - ");
		assert_contains(r.out, "# pid 205 (tr-hog, system_u:system_r:web_t:s0) rank 2 does not die before pid 211 "
				"(tr-hog, system_u:system_r:batch_t:s0) rank 1\n");
		assert_contains(r.out, "\nnot ok 9 - ");
		assert_contains(r.out, "# no live candidate matches the selector");
		assert_contains(r.out, "# 6 passed, 3 failed\n");
		run_free(&r);

		put(f->dir, "s.scenario", "never type=protected_t\ndies-first type=batch_t\n");
		r = run(f, "test", path);
		assert_int_equal(r.rc, 0);
		assert_string_equal(strstr(r.out, "1..2\n"), strstr(r.out, "1..2\n"));
		assert_not_contains(r.out, "not ok");
		run_free(&r);

		r = run(f, "test", path, "--json");
		assert_int_equal(r.rc, 0);
		assert_contains(r.out, "\"tests\":2,\"passed\":2,\"failed\":0,\"error\":null}\n");
		run_free(&r);

		put(f->dir, "s.scenario", "nevr type=x\nbefore type=a\nnever type=a rank=3\nnever\n"
		    "verdict maybe type=a\n");
		r = run(f, "test", path);
		assert_int_equal(r.rc, TC_EXIT_USAGE);
		assert_contains(r.err, "s.scenario:1: error: unknown expectation 'nevr'");
		assert_contains(r.err, "s.scenario:2: error: before needs two selectors: before A < B\n");
		assert_contains(r.err, "s.scenario:3: error: bad selector: option 'rank' is only valid on sacrifice\n");
		assert_contains(r.err, "s.scenario:4: error: missing selector\n");
		assert_contains(r.err, "s.scenario:5: error: verdict must be");
		assert_string_equal(r.out, "");
		run_free(&r);

		put(f->dir, "s.scenario", "# nothing\n");
		r = run(f, "test", path);
		assert_int_equal(r.rc, TC_EXIT_USAGE);
		assert_contains(r.err, "no expectations");
		run_free(&r);

		/*
		 * Over 1 MiB: refused, not cut (the expectation past the cut
		 * would not be tested, and one cut in half could pass).
		 */
		{
			size_t n = (1 << 20) / 32 + 1, k;
			char *big = malloc(n * 32 + 64), *o = big;

			assert_non_null(big);
			for (k = 0; k < n; k++)
				o += sprintf(o, "%-31s\n", "killable type=batch_t");
			strcpy(o, "never type=batch_t\n");
			put(f->dir, "s.scenario", big);
			free(big);
		}
		r = run(f, "test", path);
		assert_int_equal(r.rc, TC_EXIT_ERROR);
		assert_contains(r.err, "s.scenario: larger than 1024 KiB; nothing tested\n");
		assert_string_equal(r.out, "");
		run_free(&r);
	}
}


/* Every syntax error, with the kernel's positions, and names after them. */
static void test_check_all_errors(void **state)
{
	struct fake *f = *state;
	struct run r = check(f,
		"protec type=web_t\n"
		"sacrifice typ=batch_t\n"
		"protect type=web_tt\n"
		"mode enforcing\n"
		"adjust +5 \\\n"
		"   type=web_t rnk=3\n"
		"fallback least\n"
		"type=init_t\n"
		"protect type=user_t\n");

	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "in.policy:1:1: error: unknown keyword 'protec' (did you mean 'protect'?)\n");
	assert_contains(r.err, "in.policy:2:11: error: unknown matcher 'typ' (did you mean 'type'?)\n");
	assert_contains(r.err, "in.policy:3:14: error: unknown SELinux type 'web_tt' (did you mean 'web_t'?)\n");
	assert_contains(r.err, "in.policy:4:6: error: invalid mode 'enforcing' (enforce or permissive) (did you mean 'enforce'?)\n");
	assert_contains(r.err, "in.policy:6:15: error: unknown matcher 'rnk' (did you mean 'rank'?)\n");
	assert_contains(r.err, "in.policy:7:10: error: invalid fallback 'least' (classic, panic or least-protected) (did you mean 'least-protected'?)\n");
	assert_contains(r.err, "in.policy:8:1: error: unknown keyword 'type' (a rule starts with protect, sacrifice or adjust)\n");
	assert_contains(r.err, "in.policy: 7 errors, 0 warnings\n");
	/* in line order */
	assert_true(strstr(r.err, ":1:1:") < strstr(r.err, ":2:11:"));
	assert_true(strstr(r.err, ":3:14:") < strstr(r.err, ":4:6:"));
	run_free(&r);

	/* a duplicate setting is the kernel's error too */
	expect_diag(f, "mode enforce\nmode permissive\nprotect type=web_tt\n", 1,
		    "2:1: error: duplicate setting 'mode' (first on line 1)");
	expect_diag(f, "mode enforce\nmode permissive\nprotect type=web_tt\n", 1,
		    "3:14: error: unknown SELinux type 'web_tt' (did you mean 'web_t'?)");
}

static void test_check_warnings(void **state)
{
	struct fake *f = *state;
	struct run r;

	/* fallback panic with a catch-all protect */
	expect_diag(f, "fallback panic\nprotect label=*\n", 0,
		    "2:1: warning: 'fallback panic' with a rule that protects every task: every candidate is protected, so the first OOM panics the machine");
	expect_diag(f, "fallback panic\nsacrifice type=batch_t\nprotect label=\"*\"\n", 0,
		    "3:1: warning: 'fallback panic' with a rule that protects every task no earlier rule decides: "
		    "an OOM among only such tasks panics the machine");
	/* an empty policy */
	r = check(f, "mode enforce\n");
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "in.policy: warning: the policy has no rules: it protects and sacrifices nothing");
	run_free(&r);
	/* a label glob that covers every context of a type */
	put(f->dir, "in.policy", "protect label=*sshd_t*\nsacrifice type=sshd_t\n"
	    "protect label=*:sshd_t:*\nadjust +1 user=u type=sshd_t\n"
	    "protect label=*_u:*\nadjust +2 type=x_t\n");
	r = run(f, "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "in.policy:2:1: warning: rule never decides: the rule on line 1 ('protect label=*sshd_t*') matches every label it matches\n");
	assert_contains(r.err, "in.policy:4:1: warning: rule never decides: the rule on line 1");
	assert_not_contains(r.err, "in.policy:6:");
	run_free(&r);

	/* type= rules when the major LSM is AppArmor or Smack */
	put(f->dir, "lsm", "capability,apparmor,triage");
	put(f->dir, "in.policy", "protect type=sshd_t\nprotect label=/usr/sbin/sshd\n");
	r = run(f, "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "in.policy:1:14: warning: rule never matches: the major LSM is AppArmor, whose labels are not SELinux contexts (type= never matches them; use label=)\n");
	assert_not_contains(r.err, "in.policy:2:");
	run_free(&r);
	/* -q: errors only */
	r = run(f, "-q", "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_string_equal(r.out, "");
	run_free(&r);
	put(f->dir, "lsm", "capability,smack,triage");
	r = run(f, "check", f->file, "--no-selinux", "--json");
	assert_contains(r.out, "the major LSM is Smack");
	run_free(&r);
	/* checking against an explicit SELinux policy: no LSM warning */
	r = check(f, "protect type=web_t\n");
	assert_not_contains(r.err, "major LSM");
	run_free(&r);
}

/* check - reads standard input */
static void test_check_stdin(void **state)
{
	struct fake *f = *state;
	struct run r;
	int saved = dup(0), fd;

	put(f->dir, "in.policy", "protect type=web_t\nprotec type=x\n");
	fd = open(f->file, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	r = run(f, "check", "-", "--selinux-policy", TRIAGE_TEST_SELINUX);
	assert_int_equal(dup2(saved, 0), 0);
	close(saved);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "<stdin>:2:1: error: unknown keyword 'protec' (did you mean 'protect'?)\n");
	run_free(&r);
}

static void test_version_and_verbosity(void **state)
{
	struct fake *f = *state;
	struct run r = run(f, "--version");

	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "triagectl " TC_VERSION "\n");
	run_free(&r);
	put(f->dir, "in.policy", "protect type=web_t\n");
	r = run(f, "-v", "check", f->file, "--selinux-policy", TRIAGE_TEST_SELINUX);
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "checking SELinux names against " TRIAGE_TEST_SELINUX);
	run_free(&r);
	r = run(f, "check", f->file, "-q", "--selinux-policy", TRIAGE_TEST_SELINUX);
	assert_string_equal(r.out, "");
	run_free(&r);
	r = run(f, "--json", "frobnicate");
	assert_int_equal(r.rc, TC_EXIT_USAGE);
	assert_contains(r.out, "{\"schema_version\":1,\"command\":null,\"error\":{\"exit\":2,\"kind\":\"usage\","
			"\"message\":\"unknown command 'frobnicate'\"}}\n");
	run_free(&r);
	r = run(f, "lod");
	assert_contains(r.err, "unknown command 'lod' (did you mean 'load'?)");
	run_free(&r);
}

/*
 * --root with trailing slashes (bash completes a directory as "triage/"):
 * the LSM list is still read from the directory above it.
 */
static void test_root_slash(void **state)
{
	static const struct {
		const char *root, *secfs;
	} cases[] = {
		{ "/sys/kernel/security/triage", "/sys/kernel/security" },
		{ "/sys/kernel/security/triage/", "/sys/kernel/security" },
		{ "/sys/kernel/security//triage//", "/sys/kernel/security" },
		{ "/triage/", "/" },
		{ "triage/", "." },
		{ "sec/triage", "sec" },
	};
	struct fake *f = *state;
	struct tc_ctx ctx = { 0 };
	char dir[128], root[140];
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s;

		ctx.root = cases[i].root;
		s = tc_secfs(&ctx);
		assert_string_equal(s, cases[i].secfs);
		free(s);
	}
	/* a whole command: the fake's lsm is in f->dir, above "triage/" */
	snprintf(dir, sizeof(dir), "%s/triage", f->dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	put(dir, "stats", stats_text);
	put(dir, "policy", active_policy);
	put(dir, "load_error", "");
	put(dir, "mode", "enforce\n");
	snprintf(root, sizeof(root), "%s/", dir);
	r = run(f, "--root", root, "status");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "capability,selinux,triage (major: selinux)");
	run_free(&r);
}

/* ------------------------------------------- man page, --help, completion */

struct optset {
	char name[16][32];
	size_t n;
};

static bool optset_has(const struct optset *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		if (!strcmp(o->name[i], name))
			return true;
	return false;
}

static void optset_add(struct optset *o, const char *name)
{
	if (optset_has(o, name))
		return;
	assert_true(o->n < 16);
	snprintf(o->name[o->n++], sizeof(o->name[0]), "%s", name);
}

/* Every "--word" of @text (roff's "\-\-" too) into @o. */
static void optset_scan(struct optset *o, const char *text)
{
	char *t = tc_strdup(text), *w = t, *p;
	const char *q;

	for (q = text; *q; q++)		/* "\-" is "-" */
		if (!(q[0] == '\\' && q[1] == '-'))
			*w++ = *q;
	*w = '\0';
	for (p = t; (p = strstr(p, "--")); ) {
		char word[32];
		size_t n;

		if (p > t && (p[-1] == '-' || (p[-1] >= 'a' && p[-1] <= 'z'))) {
			p += 2;
			continue;
		}
		n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-");
		if (n && n + 2 < sizeof(word)) {
			snprintf(word, sizeof(word), "%.*s", (int)n + 2, p);
			optset_add(o, word);
		}
		p += 2 + n;
	}
	free(t);
}

static void optset_equal(const struct optset *a, const struct optset *b,
			 const char *what)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!optset_has(b, a->name[i]))
			fail_msg("%s: '%s' only on one side", what, a->name[i]);
	for (i = 0; i < b->n; i++)
		if (!optset_has(a, b->name[i]))
			fail_msg("%s: '%s' only on the other side", what,
				 b->name[i]);
}

/* The words of shell assignment `local NAME="..."` in @sh. */
static char *sh_words(const char *sh, const char *name)
{
	char key[64];
	const char *p, *e;

	snprintf(key, sizeof(key), "local %s=\"", name);
	p = strstr(sh, key);
	assert_non_null(p);
	p += strlen(key);
	e = strchr(p, '"');
	assert_non_null(e);
	return strndup(p, e - p);
}

/*
 * What bash completion offers (one word a line) for "triagectl @line",
 * whose last word is the one being completed ('' for an empty one): userspace/completion/triagectl run by bash with Debian's
 * bash-completion, in @dir.
 */
static char *complete(const char *dir, const char *line)
{
	char script[256], cmd[600], *buf = NULL;
	size_t len = 0;
	FILE *f, *p;
	int c;

	snprintf(script, sizeof(script), "%s.complete.sh", dir);	/* not in dir */
	f = fopen(script, "w");
	assert_non_null(f);
	fprintf(f, "source /usr/share/bash-completion/bash_completion\n"
		   "source %s/completion/triagectl\n"
		   "eval \"COMP_WORDS=(triagectl $1)\"\n"
		   "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
		   "COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}\n"
		   "COMPREPLY=()\n"
		   "_triagectl triagectl \"${COMP_WORDS[COMP_CWORD]}\" \"${COMP_WORDS[COMP_CWORD-1]}\"\n"
		   "for w in \"${COMPREPLY[@]}\"; do printf '%%s\\n' \"$w\"; done\n",
		TRIAGE_USERSPACE_DIR);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "cd %s && bash %s \"%s\"", dir, script, line);
	p = popen(cmd, "r");
	assert_non_null(p);
	f = open_memstream(&buf, &len);
	while ((c = fgetc(p)) != EOF)
		fputc(c, f);
	fclose(f);
	assert_int_equal(pclose(p), 0);
	return buf;
}

/* Does triagectl(8) have a .TP entry for command @name? */
static bool man_documents(const char *man, const char *name)
{
	const char *p;
	size_t n = strlen(name);

	for (p = man; (p = strstr(p, "\n.TP\n")); p++) {
		const char *l = p + 5, *w = strchr(l, ' ');

		if (l[0] != '.' || !w || w > strchr(l, '\n'))
			continue;
		w += 1 + (w[1] == '"');
		if (!strncmp(w, name, n) &&
		    (w[n] == ' ' || w[n] == '"' || w[n] == '\n'))
			return true;
	}
	return false;
}

/*
 * triagectl(8), triagectl --help, and the bash completion agree with
 * what the parser does: the same commands, each with the same options,
 * every option offered is accepted, every other one refused.
 */
static void test_cli_consistency(void **state)
{
	static const char *const with_value[] = {
		"--root", "--selinux-policy", "--proc", "--cgroup-parent",
		"--junit", "--evidence",
	};
	struct fake *f = *state;
	struct optset man = { 0 }, helped = { 0 }, common = { 0 };
	char *manp = get(TRIAGE_USERSPACE_DIR "/man", "triagectl.8");
	char *comp = get(TRIAGE_USERSPACE_DIR "/completion", "triagectl");
	char *cmds = sh_words(comp, "commands"), *save = NULL, *cmd;
	char *commonw = sh_words(comp, "common");
	size_t ncmds = 0, nlisted = 0, i;
	struct run r, all;
	const char *p;

	optset_scan(&man, manp);
	optset_scan(&common, commonw);
	all = run(f, "--help");
	assert_int_equal(all.rc, 0);
	optset_scan(&helped, all.out);
	/* every command of the overview is completed */
	for (p = all.out; (p = strstr(p, "\n  triagectl ")); p++) {
		char name[32];

		sscanf(p + 12, "%31s", name);
		if (!strstr(cmds, name))
			fail_msg("command '%s' is not completed", name);
		nlisted++;
	}
	for (cmd = strtok_r(cmds, " ", &save); cmd;
	     cmd = strtok_r(NULL, " ", &save)) {
		struct optset usage = { 0 }, completed = { 0 };
		char *offered, *line;
		char want[64];

		ncmds++;
		if (!man_documents(manp, cmd))
			fail_msg("triagectl(8) has no entry for '%s'", cmd);
		r = run(f, "help", cmd);
		assert_int_equal(r.rc, 0);
		snprintf(want, sizeof(want), "usage: triagectl %s", cmd);
		assert_contains(r.out, want);
		line = strndup(r.out, strcspn(r.out, "\n"));
		optset_scan(&usage, line);
		optset_scan(&helped, r.out);
		free(line);
		for (i = 0; i < common.n; i++)
			optset_add(&usage, common.name[i]);
		assert_contains(r.out, "Options of every command:");
		run_free(&r);
		/* what completion offers after the command: its options */
		snprintf(want, sizeof(want), "%s -", cmd);
		offered = complete(f->dir, want);
		optset_scan(&completed, offered);
		free(offered);
		optset_equal(&usage, &completed, cmd);
		/* what the man page names: accepted here or refused here */
		for (i = 0; i < man.n; i++) {
			const char *o = man.name[i];
			bool val = false;
			size_t k;

			for (k = 0; k < 3; k++)
				val |= !strcmp(o, with_value[k]);
			r = val ? run(f, cmd, o, "/nonexistent") : run(f, cmd, o);
			if (optset_has(&usage, o)) {
				if (strstr(r.err, "unknown option"))
					fail_msg("triagectl %s %s: %s", cmd, o, r.err);
			} else if (r.rc != TC_EXIT_USAGE ||
				   !strstr(r.err, "unknown option")) {
				fail_msg("triagectl %s %s: accepted, but not in its usage", cmd, o);
			}
			run_free(&r);
		}
	}
	assert_int_equal(ncmds, 12);
	assert_int_equal(ncmds, nlisted);
	/* the man page and the help texts name the same options */
	optset_equal(&man, &helped, "triagectl(8) against --help");
	run_free(&all);

	/* help, version and --root: no argument silently dropped */
	assert_true(man_documents(manp, "help"));
	assert_true(man_documents(manp, "version"));
	r = run(f, "help", "frobnicate");
	assert_int_equal(r.rc, TC_EXIT_USAGE);
	assert_contains(r.err, "unknown command 'frobnicate'");
	run_free(&r);
	r = run(f, "help", "check", "load");
	assert_int_equal(r.rc, TC_EXIT_USAGE);
	assert_contains(r.err, "unexpected argument 'load'");
	run_free(&r);
	r = run(f, "version", "check");
	assert_int_equal(r.rc, TC_EXIT_USAGE);
	run_free(&r);
	r = run(f, "version");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "triagectl " TC_VERSION "\n");
	run_free(&r);
	r = run(f, "--root");
	assert_int_equal(r.rc, TC_EXIT_USAGE);
	assert_contains(r.err, "triagectl: option '--root' needs a value; see triagectl --help\n");
	run_free(&r);
	r = run(f, "--root=", "status");
	assert_int_equal(r.rc, TC_EXIT_USAGE);
	assert_contains(r.err, "option '--root' needs a value");
	run_free(&r);
	free(cmds);
	free(commonw);
	free(comp);
	free(manp);
}

/*
 * Completion offers only what the parser accepts there: each word it
 * offers, put on the command line, is no usage error of that word (a
 * still missing argument aside).
 */
static void test_completion_accepted(void **state)
{
	static const char *const lines[] = {
		"''", "-", "--json ''", "--root /x ''", "-q -", "mode ''",
		"mode enforce ''", "mode enforce -", "help ''", "help check ''",
		"help -", "--help ''", "--help check ''", "--version ''",
		"--version -", "version ''", "version -", "check ''",
		"check a.policy ''", "check a.policy -", "load a.policy ''",
		"load -", "diff a.policy --no-selinux ''", "explain 1 ''",
		"explain -", "log ''", "log -", "test ''", "test a.policy ''",
		"status ''", "status -", "rank ''", "rank -",
		"check -- ''", "--root=/x check a.policy ''",
	};
	static const char *const refusals[] = {
		"unknown option", "unknown command", "unexpected argument",
		"is not enforce or permissive", "takes no value",
		"is not a process ID",
	};
	struct fake *f = *state;
	char dir[128];
	size_t i, k;

	/* a file for _filedir to offer */
	snprintf(dir, sizeof(dir), "%s/cwd", f->dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	put(dir, "a.policy", "protect type=web_t\n");
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char *offered = complete(dir, lines[i]), *save = NULL, *w;
		char line[128], *argv[16], *tok, *s2 = NULL;
		int argc = 0, checked = 0;

		/* the words before the one being completed */
		snprintf(line, sizeof(line), "%s", lines[i]);
		for (tok = strtok_r(line, " ", &s2); tok; tok = strtok_r(NULL, " ", &s2))
			argv[argc++] = tok;
		argc--;		/* the last: the word being completed */
		for (w = strtok_r(offered, "\n", &save); w && checked < 20;
		     w = strtok_r(NULL, "\n", &save), checked++) {
			char *args[20];
			struct tc_ctx ctx = { 0 };
			char *obuf = NULL, *ebuf = NULL;
			size_t olen = 0, elen = 0;
			int n = 0, j, rc;

			args[n++] = "triagectl";
			for (j = 0; j < argc; j++)
				args[n++] = argv[j];
			args[n++] = w;
			if (!strcmp(w, "--root") || !strcmp(w, "--proc") ||
			    !strcmp(w, "--selinux-policy"))
				args[n++] = "/nonexistent";
			args[n] = NULL;
			ctx.out = open_memstream(&obuf, &olen);
			ctx.err = open_memstream(&ebuf, &elen);
			ctx.root = f->dir;
			ctx.secfs = f->dir;
			ctx.proc = f->proc;
			ctx.sys = f->sys;
			ctx.open_file = fake_open;
			ctx.write_policy = fake_refuse;
			fake_errno = EPERM;
			ctx.follow_ms = 1;
			ctx.follow_polls = 1;
			rc = tc_main(&ctx, n, args);
			fclose(ctx.out);
			fclose(ctx.err);
			for (k = 0; k < sizeof(refusals) / sizeof(refusals[0]); k++)
				if (rc == TC_EXIT_USAGE && strstr(ebuf, refusals[k]))
					fail_msg("triagectl %s: completion offers '%s', the parser says: %s",
						 lines[i], w, ebuf);
			free(obuf);
			free(ebuf);
		}
		free(offered);
	}
	/* and offers what is accepted there */
	{
		char *o = complete(dir, "mode ''");

		assert_string_equal(o, "enforce\npermissive\n");
		free(o);
		o = complete(dir, "help ''");
		assert_contains(o, "help\n");
		assert_contains(o, "version\n");
		free(o);
		o = complete(dir, "check ''");
		assert_string_equal(o, "a.policy\n");
		free(o);
		o = complete(dir, "mode enforce ''");
		assert_string_equal(o, "");
		free(o);
	}
}

/* A usage error: one line, the reason and where to look; JSON too. */
static void test_usage_one_line(void **state)
{
	static const struct {
		const char *args[5];
		const char *err, *json;
	} cases[] = {
		{ { "check", "a", "--bogus" },
		  "triagectl check: unknown option '--bogus'; see triagectl check --help\n",
		  "{\"schema_version\":1,\"command\":\"check\",\"error\":{\"exit\":2,\"kind\":\"usage\","
		  "\"message\":\"unknown option '--bogus'\"}}\n" },
		{ { "frobnicate" },
		  "triagectl: unknown command 'frobnicate'; see triagectl --help\n",
		  "{\"schema_version\":1,\"command\":null,\"error\":{\"exit\":2,\"kind\":\"usage\","
		  "\"message\":\"unknown command 'frobnicate'\"}}\n" },
		{ { "lod", "x" },
		  "triagectl: unknown command 'lod' (did you mean 'load'?); see triagectl --help\n",
		  NULL },
		{ { "--bogus", "status" },
		  "triagectl: unknown option '--bogus'; see triagectl --help\n",
		  "{\"schema_version\":1,\"command\":null,\"error\":{\"exit\":2,\"kind\":\"usage\","
		  "\"message\":\"unknown option '--bogus'\"}}\n" },
		{ { "mode", "lenient" },
		  "triagectl mode: 'lenient' is not enforce or permissive; see triagectl mode --help\n",
		  NULL },
		{ { "explain" },
		  "triagectl explain: no PID given; see triagectl explain --help\n",
		  "{\"schema_version\":1,\"command\":\"explain\",\"error\":{\"exit\":2,\"kind\":\"usage\","
		  "\"message\":\"no PID given\"}}\n" },
		{ { "explain", "abc" },
		  "triagectl explain: 'abc' is not a process ID (a positive number); see triagectl explain --help\n",
		  NULL },
		{ { "test" },
		  "triagectl test: no SCENARIO file given (- reads standard input); see triagectl test --help\n",
		  NULL },
		{ { "log", "--follow=yes" },
		  "triagectl log: option '--follow' takes no value; see triagectl log --help\n",
		  NULL },
		{ { "status", "extra" },
		  "triagectl status: unexpected argument 'extra'; see triagectl status --help\n",
		  NULL },
		{ { NULL },
		  "triagectl: no command given; see triagectl --help\n",
		  NULL },
	};
	struct fake *f = *state;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *a = cases[i].args;
		struct run r;

		r = run_with(f, NULL, a[0], a[1], a[2], a[3], NULL);
		assert_int_equal(r.rc, TC_EXIT_USAGE);
		assert_string_equal(r.err, cases[i].err);
		assert_string_equal(r.out, "");
		run_free(&r);
		/* --json anywhere, also after what is wrong */
		if (!a[0])
			r = run(f, "--json");
		else if (!a[1])
			r = run(f, a[0], "--json");
		else if (!a[2])
			r = run(f, a[0], a[1], "--json");
		else
			r = run(f, a[0], a[1], a[2], "--json");
		assert_int_equal(r.rc, TC_EXIT_USAGE);
		if (cases[i].json)
			assert_string_equal(r.out, cases[i].json);
		assert_contains(r.out, "\"kind\":\"usage\",\"message\":");
		assert_not_contains(r.out, "see triagectl");
		run_free(&r);
	}
}

/* Every JSON object: schema_version, command, error; no key left out. */
static void test_json_schema(void **state)
{
	static const char *const cmds[][5] = {
		{ "status" }, { "mode" }, { "rank" }, { "log" },
		{ "explain", "211" }, { "explain", "300" }, { "version" },
		{ "check", "IN", "--no-selinux" }, { "diff", "IN", "--no-selinux" },
		{ "load", "--dry-run", "IN", "--no-selinux" },
		{ "load", "IN", "--no-selinux" }, { "test", "SC" },
		{ "log", "--follow" },
	};
	struct fake *f = *state;
	char sc[160];
	struct run r;
	size_t i;

	snprintf(sc, sizeof(sc), "%s/s.scenario", f->dir);
	put(f->dir, "s.scenario", "never type=protected_t\n");
	put(f->dir, "in.policy", "protect type=web_t\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		const char *a[5];
		char want[100], *line, *save = NULL;
		size_t k;

		for (k = 0; k < 5; k++)
			a[k] = !cmds[i][k] ? NULL : !strcmp(cmds[i][k], "IN") ? f->file :
			       !strcmp(cmds[i][k], "SC") ? sc : cmds[i][k];
		r = run_with(f, NULL, "--json", a[0], a[1], a[2], a[3], NULL);
		snprintf(want, sizeof(want), "{\"schema_version\":1,\"command\":\"%s\",", a[0]);
		/* JSON Lines for log --follow: each line an object */
		for (line = strtok_r(r.out, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (line != r.out && strncmp(line, "{\"schema_version\"", 17))
				continue;	/* a row of an array */
			if (strncmp(line, want, strlen(want)))
				fail_msg("triagectl --json %s: %s", a[0], line);
		}
		run_free(&r);
	}
	/* keys without a value are null, not left out */
	r = run(f, "explain", "300", "--json");
	assert_contains(r.out, "\"candidate\":false,\"rank\":null,\"tier\":null,\"points\":null,"
			"\"kernel_verdict\":null,\"kernel_rule\":null,");
	run_free(&r);
	r = run(f, "diff", f->file, "--no-selinux", "--json");
	assert_contains(r.out, "\"hash\":null,\"generation\":null,");
	assert_contains(r.out, "\"error\":null}\n");
	run_free(&r);
	r = run(f, "load", f->file, "--no-selinux", "--json");
	assert_contains(r.out, "\"verdict_changes\":null,");
	run_free(&r);
	put(f->dir, "ranking", old_ranking_text);
	r = run(f, "rank", "--json");
	assert_contains(r.out, "{\"rank\":1,\"pid\":211,\"tier\":null,\"srank\":null,\"points\":2147483,");
	run_free(&r);
	r = run(f, "mode", "permissive", "--json");
	assert_contains(r.out, "\"mode\":\"permissive\",\"previous\":\"enforce\",\"error\":null}\n");
	run_free(&r);
	put(f->dir, "policy", "");
	put(f->dir, "stats", "policy_generation 0\npolicy_hash 0000000000000000\n"
	    "policy_load_time 0\npolicy_rules 0\nmode enforce\noom_events 0\n");
	r = run(f, "status", "--json");
	assert_int_equal(r.rc, TC_EXIT_NOPOLICY);
	assert_contains(r.out, "\"policy_loaded\":false,\"policy_hash\":null,\"policy_generation\":null,"
			"\"policy_load_time\":null,\"policy_rules\":null,");
	assert_contains(r.out, "\"error\":{\"exit\":6,\"kind\":\"no-policy\",\"message\":\"no policy loaded\"}}\n");
	run_free(&r);
	/* check: a policy with errors is the error */
	put(f->dir, "in.policy", "protec type=web_t\n");
	r = run(f, "check", f->file, "--no-selinux", "--json");
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "\"error\":{\"exit\":1,\"kind\":\"error\",\"message\":");
	run_free(&r);
	r = run(f, "load", f->file, "--no-selinux", "--json");
	assert_int_equal(r.rc, 1);
	assert_contains(r.out, "{\"schema_version\":1,\"command\":\"load\",\"loaded\":false,\"dry_run\":false,");
	assert_contains(r.out, "\"check\":{\"file\":");
	run_free(&r);
}

/* status: its own exit code when triage is not in vm.oom_policy. */
static void test_status_not_in_chain(void **state)
{
	struct fake *f = *state;
	char path[160];
	struct run r;

	snprintf(path, sizeof(path), "%s/sys/vm", f->proc);
	put(path, "oom_policy", "classic\n");
	r = run(f, "status");
	assert_int_equal(r.rc, TC_EXIT_NOCHAIN);
	assert_int_equal(TC_EXIT_NOCHAIN, 7);
	run_free(&r);
	r = run(f, "status", "--json");
	assert_int_equal(r.rc, TC_EXIT_NOCHAIN);
	assert_contains(r.out, "\"triage_in_chain\":false,");
	assert_contains(r.out, "\"error\":{\"exit\":7,\"kind\":\"not-in-chain\","
			"\"message\":\"triage is not in vm.oom_policy\"}}\n");
	run_free(&r);
	/* no policy either: that first */
	put(f->dir, "policy", "");
	put(f->dir, "stats", "policy_generation 0\npolicy_hash 0\npolicy_load_time 0\n"
	    "policy_rules 0\nmode enforce\n");
	r = run(f, "status");
	assert_int_equal(r.rc, TC_EXIT_NOPOLICY);
	run_free(&r);
}

/*
 * status when the running kernel has no triage: what runs, the triage
 * kernels of /boot and what to do, exit 3 (text and JSON); a newer
 * triage kernel installed than the one running.
 */
static void test_status_no_triage(void **state)
{
	struct fake *f = *state;
	char root[160], path[160];
	struct run r;

	/* --root: a triage directory that is not there, securityfs's lsm beside it */
	snprintf(root, sizeof(root), "%s/triage", f->dir);
	snprintf(path, sizeof(path), "%s/sys/kernel", f->proc);
	put(f->dir, "lsm", "lockdown,capability,landlock,yama,apparmor,tomoyo,bpf,ipe");
	put(path, "osrelease", "6.12.43+deb13-amd64\n");
	put(f->boot, "config-6.12.43+deb13-amd64", "# CONFIG_SECURITY_TRIAGE is not set\n");
	put(f->boot, "vmlinuz-6.12.43+deb13-amd64", "");
	put(f->boot, "config-6.12.9-triage", "CONFIG_SECURITY_TRIAGE=y\n");
	put(f->boot, "vmlinuz-6.12.9-triage", "");
	/* a purged package's leftover config: not a kernel */
	put(f->boot, "config-6.12.50-triage", "CONFIG_SECURITY_TRIAGE=y\n");
	r = run(f, "--root", root, "status");
	assert_int_equal(r.rc, TC_EXIT_UNAVAILABLE);
	assert_int_equal(TC_EXIT_UNAVAILABLE, 3);
	assert_string_equal(r.out,
		"triage                 not active in the running kernel\n"
		"kernel                 6.12.43+deb13-amd64 (no triage built in)\n"
		"LSM stack              lockdown,capability,landlock,yama,apparmor,tomoyo,bpf,ipe (major: apparmor)\n"
		"triage kernels         6.12.41-triage\n"
		"                       6.12.9-triage\n");
	assert_string_equal(r.err,
		"triagectl: the triage LSM is not active in this kernel (active LSMs: "
		"lockdown,capability,landlock,yama,apparmor,tomoyo,bpf,ipe): the running kernel "
		"6.12.43+deb13-amd64 is not a triage kernel; the triage kernel 6.12.41-triage is "
		"installed: boot it (GRUB's \"Advanced options\", or grub-reboot), and keep it GRUB's "
		"default (GRUB_DEFAULT=saved, grub-set-default: triagectl(8), KERNELS)\n");
	run_free(&r);
	r = run(f, "--root", root, "status", "--json");
	assert_int_equal(r.rc, TC_EXIT_UNAVAILABLE);
	assert_contains(r.out, "{\"schema_version\":1,\"command\":\"status\",\"enabled\":false,"
			"\"running_kernel\":\"6.12.43+deb13-amd64\",\"running_kernel_triage\":false,"
			"\"triage_kernels\":[\"6.12.41-triage\",\"6.12.9-triage\"],\"newer_triage_kernel\":null,"
			"\"debian_kernel\":\"6.12.43+deb13-amd64\",\"debian_kernel_version\":\"6.12.43\","
			"\"debian_kernel_newer\":null,"
			"\"lsm\":\"lockdown,capability,landlock,yama,apparmor,tomoyo,bpf,ipe\",\"major_lsm\":\"apparmor\","
			"\"smack\":null,\"oom_policy\":\"triage classic\",\"triage_in_chain\":false,\"mode\":null,");
	assert_contains(r.out, "\"counters\":null,\"rule_hits\":null,\"inert_rules\":null,\"pressure\":null,"
			"\"error\":{\"exit\":3,\"kind\":\"unavailable\",\"message\":\"the triage LSM is not active "
			"in this kernel (active LSMs: ");
	run_free(&r);

	/* no triage kernel installed at all */
	snprintf(path, sizeof(path), "%s/vmlinuz-6.12.9-triage", f->boot);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/vmlinuz-6.12.41-triage", f->boot);
	assert_int_equal(unlink(path), 0);
	r = run(f, "--root", root, "status");
	assert_int_equal(r.rc, TC_EXIT_UNAVAILABLE);
	assert_contains(r.out, "triage kernels         none installed in ");
	assert_contains(r.err, "the running kernel 6.12.43+deb13-amd64 is not a triage kernel and no "
			"triage kernel is installed in ");
	assert_contains(r.err, ": install a linux-image-*-triage package (make kernel-deb) and boot it\n");
	run_free(&r);

	/* a triage kernel booted with an lsm= that leaves triage out */
	snprintf(path, sizeof(path), "%s/sys/kernel", f->proc);
	put(path, "osrelease", "6.12.9-triage\n");
	put(f->boot, "vmlinuz-6.12.9-triage", "");
	put(f->proc, "cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.12.9-triage root=/dev/vda1 lsm=landlock,selinux\n");
	r = run(f, "--root", root, "status");
	assert_int_equal(r.rc, TC_EXIT_UNAVAILABLE);
	assert_contains(r.out, "kernel                 6.12.9-triage (triage built in, not enabled)\n");
	assert_contains(r.err, "the running kernel 6.12.9-triage has triage built in, but the kernel "
			"command line's lsm= leaves it out (lsm= replaces CONFIG_LSM): append ,triage");
	run_free(&r);

	/* triage named in the LSM list, its directory missing: the old message */
	put(f->dir, "lsm", "capability,selinux,triage");
	r = run(f, "--root", root, "status");
	assert_int_equal(r.rc, TC_EXIT_UNAVAILABLE);
	assert_string_equal(r.out, "");
	assert_contains(r.err, "does not exist although the active LSMs (capability,selinux,triage) name triage");
	run_free(&r);

	/* enabled, and a newer triage kernel installed than the one running */
	put(f->boot, "vmlinuz-6.12.41-triage", "");
	r = run(f, "status");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\nkernel                 6.12.9-triage (6.12.41-triage is installed: reboot to run it)\n");
	run_free(&r);
	r = run(f, "status", "--json");
	assert_contains(r.out, "\"running_kernel\":\"6.12.9-triage\",\"running_kernel_triage\":true,"
			"\"triage_kernels\":[\"6.12.41-triage\",\"6.12.9-triage\"],"
			"\"newer_triage_kernel\":\"6.12.41-triage\",");
	run_free(&r);
}

/*
 * status: a Debian kernel installed that is newer than the running triage
 * kernel's base (its Debian fixes are not in the running kernel), from
 * /boot's vmlinuz-*-amd64 and from dpkg's linux-image packages.
 */
static void test_status_debian_kernel_newer(void **state)
{
	struct fake *f = *state;
	char path[160];
	struct run r;

	/* running 6.12.41-triage; Debian's 6.12.38 is older: a line, no warning */
	snprintf(path, sizeof(path), "%s/sys/kernel", f->proc);
	put(f->boot, "vmlinuz-6.12.38+deb13-amd64", "");
	put(f->boot, "config-6.12.38+deb13-amd64", "# CONFIG_SECURITY_TRIAGE is not set\n");
	r = run(f, "status");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\nDebian's kernel        6.12.38+deb13-amd64 (6.12.38): not newer than 6.12.41, the running triage kernel's base\n");
	assert_not_contains(r.err, "Debian's kernel");
	run_free(&r);
	r = run(f, "status", "--json");
	assert_contains(r.out, "\"debian_kernel\":\"6.12.38+deb13-amd64\",\"debian_kernel_version\":\"6.12.38\","
			"\"debian_kernel_newer\":false,");
	run_free(&r);

	/* trixie-security's 6.12.43 installed: newer */
	put(f->boot, "vmlinuz-6.12.43+deb13-amd64", "");
	r = run(f, "status");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\nDebian's kernel        6.12.43+deb13-amd64 (6.12.43): newer than 6.12.41, the running triage kernel's base\n");
	assert_contains(r.err, "triagectl: warning: Debian's kernel 6.12.43+deb13-amd64 (6.12.43) is newer than 6.12.41, "
			"the base of the running triage kernel 6.12.41-triage: Debian's fixes since are not in the running kernel; "
			"rebuild the triage kernel from Debian's newer source (triage-kernel-update on the build machine, "
			"or make kernel-deb), install it and reboot\n");
	run_free(&r);
	r = run(f, "status", "--json");
	assert_contains(r.out, "\"debian_kernel\":\"6.12.43+deb13-amd64\",\"debian_kernel_version\":\"6.12.43\","
			"\"debian_kernel_newer\":true,");
	run_free(&r);
	r = run(f, "-q", "status");
	assert_string_equal(r.err, "");
	run_free(&r);

	/*
	 * Debian 12's ABI names do not say the version (6.1.0-18-amd64 is
	 * 6.1.76): dpkg's does; a newer triage kernel's own package is not
	 * Debian's
	 */
	snprintf(path, sizeof(path), "%s/vmlinuz-6.12.43+deb13-amd64", f->boot);
	assert_int_equal(unlink(path), 0);
	{
		FILE *fp = fopen(f->dpkg, "w");

		assert_non_null(fp);
		fputs("Package: linux-image-6.12.38+deb13-amd64\nStatus: install ok installed\n"
		      "Architecture: amd64\nVersion: 6.12.38-1\n\n"
		      "Package: linux-image-6.12.48+deb13-amd64\nStatus: deinstall ok config-files\n"
		      "Version: 6.12.48-1\n\n"
		      "Package: linux-image-6.12.44-triage\nStatus: install ok installed\n"
		      "Version: 6.12.44-1+triage.g1234567\n\n"
		      "Package: linux-image-6.12.42+bpo-amd64\nStatus: install ok installed\n"
		      "Version: 6.12.42-1~bpo12+1\n\n"
		      "Package: linux-image-6.1.0-18-amd64\nStatus: install ok installed\n"
		      "Version: 6.1.76-1\n", fp);
		assert_int_equal(fclose(fp), 0);
	}
	r = run(f, "status");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\nDebian's kernel        linux-image-6.12.42+bpo-amd64 6.12.42-1~bpo12+1 (6.12.42): newer than 6.12.41");
	assert_contains(r.err, "warning: Debian's kernel linux-image-6.12.42+bpo-amd64 6.12.42-1~bpo12+1 (6.12.42) is newer than 6.12.41");
	run_free(&r);

	/* none installed: no line, null */
	assert_int_equal(unlink(f->dpkg), 0);
	snprintf(path, sizeof(path), "%s/vmlinuz-6.12.38+deb13-amd64", f->boot);
	assert_int_equal(unlink(path), 0);
	r = run(f, "status", "--json");
	assert_contains(r.out, "\"debian_kernel\":null,\"debian_kernel_version\":null,\"debian_kernel_newer\":null,");
	run_free(&r);
	r = run(f, "status");
	assert_not_contains(r.out, "Debian's kernel");
	run_free(&r);
}

/*
 * status: a policy with rules for Smack labels on a kernel without Smack
 * (Debian's kernels do not build it) says that a Smack site needs a
 * kernel of its own configuration.
 */
static void test_status_smack(void **state)
{
	struct fake *f = *state;
	char path[160];
	struct run r;

	/* Debian's own configuration, AppArmor the major LSM */
	put(f->dir, "lsm", "lockdown,capability,landlock,yama,apparmor,tomoyo,bpf,ipe,triage");
	put(f->dir, "policy", "protect label=/usr/sbin/chronyd\nprotect label=triage-pressured\n"
	    "protect label=Database\nsacrifice label=Batch*\nadjust -5 label=*\n");
	snprintf(path, sizeof(path), "%s/apparmor", f->dir);
	assert_int_equal(mkdir(path, 0755), 0);
	put(path, "profiles", "/usr/sbin/chronyd (enforce)\ntriage-pressured (enforce)\n");
	r = run(f, "status");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\nSmack                  not in the running kernel (not built in); rules 3, 4 name labels no active LSM gives\n");
	assert_contains(r.err, "triagectl: warning: rules 3, 4 (protect label=Database, sacrifice label=Batch*) name labels "
			"that no active LSM gives (no loaded AppArmor profile has them): if they are Smack labels, this kernel "
			"has no Smack (Debian's kernels do not build it) and a Smack site needs a kernel of its own configuration: "
			"CONFIG_SECURITY_SMACK=y and smack in CONFIG_LSM in place of apparmor (kernel/configs/debian.config "
			"before make kernel-deb)\n");
	run_free(&r);
	r = run(f, "status", "--json");
	assert_contains(r.out, "\"smack\":{\"active\":false,\"built\":false,\"rules\":[3,4]}");
	run_free(&r);

	/* built in but not enabled: lsm= */
	put(f->boot, "config-6.12.41-triage", "CONFIG_SECURITY_TRIAGE=y\nCONFIG_SECURITY_SMACK=y\n");
	r = run(f, "status");
	assert_contains(r.out, "\nSmack                  not in the running kernel (built in, not enabled); rules 3, 4");
	assert_contains(r.err, "if they are Smack labels, this kernel has Smack built in but not enabled: "
			"name it in lsm= in place of apparmor (one of SELinux, Smack and AppArmor is active)\n");
	run_free(&r);

	/* every label rule names a loaded profile: nothing said */
	put(f->dir, "policy", "protect label=/usr/sbin/chronyd\nprotect label=triage-*\n");
	r = run(f, "status");
	assert_not_contains(r.out, "Smack");
	assert_not_contains(r.err, "Smack");
	run_free(&r);
	r = run(f, "status", "--json");
	assert_contains(r.out, "\"smack\":{\"active\":false,\"built\":true,\"rules\":[]}");
	run_free(&r);

	/* a Smack kernel: its labels are the ones the rules name */
	put(f->dir, "lsm", "capability,smack,triage");
	put(f->dir, "policy", "protect label=Database\n");
	r = run(f, "status");
	assert_not_contains(r.out, "Smack  ");
	assert_not_contains(r.err, "Smack");
	run_free(&r);
	r = run(f, "status", "--json");
	assert_contains(r.out, "\"smack\":{\"active\":true,");
	run_free(&r);

	/* SELinux: a label= rule without a context names no SELinux label */
	put(f->dir, "lsm", "capability,selinux,triage");
	put(f->dir, "policy", "protect label=Database\nprotect label=*:sshd_t:*\nprotect type=web_t\n");
	put(f->boot, "config-6.12.41-triage", "CONFIG_SECURITY_TRIAGE=y\n");
	r = run(f, "status");
	assert_contains(r.out, "\nSmack                  not in the running kernel (not built in); rule 1 names labels no active LSM gives\n");
	assert_contains(r.err, "warning: rule 1 (protect label=Database) names labels that no active LSM gives (no SELinux context "
			"has them): if they are Smack labels, this kernel has no Smack (Debian's kernels do not build it) and "
			"a Smack site needs a kernel of its own configuration: CONFIG_SECURITY_SMACK=y and smack in CONFIG_LSM "
			"in place of selinux (kernel/configs/debian.config before make kernel-deb)\n");
	run_free(&r);
}

/*
 * The kernel sets the mode from the mode line of every policy it loads:
 * diff and load say when that changes the mode in force, also when
 * `triagectl mode` set it at run time.
 */
static void test_load_mode_override(void **state)
{
	struct fake *f = *state;
	static const char line[] =
		"  ~ mode enforce (was: mode permissive, set at run time by triagectl mode; "
		"the policy in force says mode enforce)\n";
	struct run r;

	put(f->dir, "mode", "permissive\n");		/* triagectl mode permissive */
	put(f->dir, "in.policy", active_policy);	/* the same file again */
	r = run(f, "diff", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, line);
	assert_not_contains(r.out, "no change");
	run_free(&r);
	r = run(f, "diff", f->file, "--no-selinux", "--json");
	assert_contains(r.out, "\"settings\":{\"mode\":{\"from\":\"permissive\",\"to\":\"enforce\",\"changed\":true},");
	assert_contains(r.out, "\"mode_set_at_run_time\":true,");
	run_free(&r);
	r = run(f, "load", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, line);
	assert_contains(r.err, "triagectl: warning: the mode was permissive, set at run time (triagectl mode); "
			"this load sets the file's mode enforce: the kernel takes the mode of every policy it loads\n");
	run_free(&r);
	/* the file says permissive as well: the mode stays, nothing to say */
	put(f->dir, "in.policy", "mode permissive\nfallback panic\nprotect type=protected_t\n"
	    "sacrifice type=batch_t rank=900 group\nadjust -300 type=web_t\n");
	r = run(f, "diff", f->file, "--no-selinux");
	assert_contains(r.out, "  no change\n");
	run_free(&r);
	/* and a change of the file's mode is shown as it always was */
	put(f->dir, "mode", "enforce\n");
	r = run(f, "diff", f->file, "--no-selinux");
	assert_contains(r.out, "  ~ mode permissive (was: mode enforce)\n");
	run_free(&r);
}

/* help and version are commands like the others. */
static void test_help_version(void **state)
{
	struct fake *f = *state;
	struct run r;

	r = run(f, "help", "version");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "usage: triagectl version [--json]\n");
	run_free(&r);
	r = run(f, "help", "help");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "usage: triagectl help [COMMAND]\n");
	run_free(&r);
	r = run(f, "--help", "check");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "usage: triagectl check FILE");
	run_free(&r);
	r = run(f, "version", "--json");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out, "{\"schema_version\":1,\"command\":\"version\",\"version\":\""
			    TC_VERSION "\",\"error\":null}\n");
	run_free(&r);
	r = run(f, "--json", "--version");
	assert_string_equal(r.out, "{\"schema_version\":1,\"command\":\"version\",\"version\":\""
			    TC_VERSION "\",\"error\":null}\n");
	run_free(&r);
	r = run(f, "--version", "check");
	assert_int_equal(r.rc, TC_EXIT_USAGE);
	assert_string_equal(r.err, "triagectl version: unexpected argument 'check'; see triagectl version --help\n");
	run_free(&r);
}

/* --root naming a missing directory: no advice to mount securityfs there */
static void test_root_missing(void **state)
{
	struct fake *f = *state;
	char root[160];
	struct run r;

	snprintf(root, sizeof(root), "%s/nowhere/triage", f->dir);
	r = run(f, "--root", root, "status");
	assert_int_equal(r.rc, TC_EXIT_UNAVAILABLE);
	assert_contains(r.err, "nowhere/triage does not exist: --root names the triage directory of securityfs "
			"(the kernel's is /sys/kernel/security/triage");
	assert_not_contains(r.err, "mount -t securityfs securityfs /tmp");
	run_free(&r);
}

/* log --follow: the header comes with the first decisions, however late. */
static void test_log_follow_header(void **state)
{
	struct fake *f = *state;
	struct run r;

	put(f->dir, "decisions", "# seq\ttime\tmode\tscope\tpid\tpoints\tverdict\trule\toutcome\tlabel\tcomm\n");
	swap_name = "decisions";
	swap_at = 2;
	swap_text = decisions_text;
	r = run(f, "log", "--follow");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.out,
		"SEQ  TIME                  MODE        SCOPE   PID  COMM    POINTS   VERDICT    RULE  OUTCOME     LABEL\n"
		"16   2025-12-03T07:59:50Z  permissive  global  205  tr-hog  10412    adjust     3     would-kill  system_u:system_r:web_t:s0\n"
		"17   2025-12-03T08:00:00Z  enforce     memcg   211  tr-hog  2147483  sacrifice  2     killed      system_u:system_r:batch_t:s0\n");
	run_free(&r);
}

/* AppArmor's "unconfined": a rule matching it decides for most daemons. */
static void test_check_unconfined(void **state)
{
	static const char warn[] =
		"warning: rule matches the AppArmor label 'unconfined': on an AppArmor system every "
		"unconfined process (every process without a profile: on a stock Debian server most "
		"daemons, sshd and every login shell) ";
	struct fake *f = *state;
	char want[400];
	struct run r;
	glob_t g;
	size_t i;

	put(f->dir, "lsm", "capability,apparmor,triage");
	put(f->dir, "in.policy", "protect label=unconfined\n");
	r = run(f, "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	snprintf(want, sizeof(want), "in.policy:1:1: %sis protected\n", warn);
	assert_contains(r.err, want);
	run_free(&r);
	/* a glob that matches it; only the first such rule decides */
	put(f->dir, "in.policy", "sacrifice label=/usr/sbin/sshd\nadjust +100 label=unconf*\nprotect label=*\n");
	r = run(f, "check", f->file, "--no-selinux");
	snprintf(want, sizeof(want), "in.policy:2:1: %shas its badness adjusted by +100\n", warn);
	assert_contains(r.err, want);
	assert_not_contains(r.err, "in.policy:3:1: warning: rule matches");
	assert_not_contains(r.err, "in.policy:1:1: warning: rule matches");
	run_free(&r);
	put(f->dir, "in.policy", "sacrifice label=* rank=1\n");
	r = run(f, "check", f->file, "--no-selinux");
	snprintf(want, sizeof(want), "in.policy:1:1: %sis sacrificed\n", warn);
	assert_contains(r.err, want);
	run_free(&r);
	/* on SELinux no label is "unconfined" */
	put(f->dir, "lsm", "capability,selinux,triage");
	r = run(f, "check", f->file, "--no-selinux");
	assert_not_contains(r.err, "unconfined");
	run_free(&r);
	/* no example matches unconfined on AppArmor; the trixie one is clean */
	put(f->dir, "lsm", "capability,apparmor,triage");
	assert_int_equal(glob(TRIAGE_EXAMPLES_DIR "/*.policy", 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc; i++) {
		r = run(f, "check", g.gl_pathv[i], "--no-selinux");
		if (strstr(r.err, "'unconfined'"))
			fail_msg("%s:\n%s", g.gl_pathv[i], r.err);
		if (strstr(g.gl_pathv[i], "trixie-apparmor") && (r.rc || *r.err))
			fail_msg("%s:\n%s", g.gl_pathv[i], r.err);
		run_free(&r);
	}
	globfree(&g);
	r = run(f, "check", TRIAGE_EXAMPLES_DIR "/trixie-apparmor-server.policy", "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	run_free(&r);
}

/*
 * SELinux's shared domains: init_t (under the reference policy every
 * service without a module of its own), unconfined_service_t and
 * unconfined_t.  The first rule that decides for one of them decides for
 * all their processes: a warning, as for AppArmor's "unconfined"; no
 * example policy has such a rule.
 */
static void test_check_shared_domains(void **state)
{
	struct fake *f = *state;
	struct run r;
	glob_t g;
	size_t i;

	/* against the test policy, which has init_t */
	expect_diag(f, "protect type=init_t\n", 0,
		    "1:1: warning: rule matches the SELinux domain init_t, which is not one service's: "
		    "under the reference policy every service without a policy module of its own runs in it; "
		    "every such process is protected (give the service a domain of its own, a site module "
		    "with init_daemon_domain(), and name that)");
	/* user= or role= beside the type narrows nothing that matters */
	r = check(f, "protect type=web_t\nprotect user=system_u type=init_t\n");
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "in.policy:2:1: warning: rule matches the SELinux domain init_t,");
	run_free(&r);
	/* a label glob over the context, the first rule that decides */
	put(f->dir, "in.policy", "sacrifice type=batch_t\nadjust -50 label=*:init_t:*\nprotect type=init_t\n");
	r = run(f, "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "in.policy:2:1: warning: rule matches the SELinux domain init_t,");
	assert_contains(r.err, "every such process has its badness adjusted by -50 (give the service");
	assert_not_contains(r.err, "in.policy:3:1: warning: rule matches");
	run_free(&r);
	/* unconfined_service_t and unconfined_t, on an SELinux system */
	put(f->dir, "in.policy", "protect type=unconfined_service_t\nprotect label=unconfined_u:unconfined_r:unconfined_t:*\n");
	r = run(f, "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "in.policy:1:1: warning: rule matches the SELinux domain unconfined_service_t, which is not one service's: "
			"every service whose program has no type of its own may run in it; every such process is protected");
	assert_contains(r.err, "in.policy:2:1: warning: rule matches the SELinux domain unconfined_t, which is not one service's: "
			"every unconfined login runs in it (root's shell, the users' sessions and what they start); every such process is protected");
	run_free(&r);
	/* a catch-all decides for them too, but warns once per rule */
	put(f->dir, "in.policy", "protect label=*\n");
	r = run(f, "check", f->file, "--no-selinux");
	assert_contains(r.err, "in.policy:1:1: warning: rule matches the SELinux domain init_t,");
	assert_not_contains(r.err, "domain unconfined_t");
	run_free(&r);
	/* on AppArmor, type= never matches: that warning, not this one */
	put(f->dir, "lsm", "capability,apparmor,triage");
	put(f->dir, "in.policy", "protect type=init_t\n");
	r = run(f, "check", f->file, "--no-selinux");
	assert_not_contains(r.err, "SELinux domain");
	run_free(&r);
	/* the example policies protect none of them */
	put(f->dir, "lsm", "capability,selinux,triage");
	assert_int_equal(glob(TRIAGE_EXAMPLES_DIR "/*.policy", 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc; i++) {
		r = run(f, "check", g.gl_pathv[i], "--no-selinux");
		if (strstr(r.err, "SELinux domain"))
			fail_msg("%s:\n%s", g.gl_pathv[i], r.err);
		run_free(&r);
	}
	globfree(&g);
}

/* make -C userspace install installs the packaged sysctl.d file. */
static void test_install_sysctl(void **state)
{
	struct fake *f = *state;
	char cmd[600], *inst;
	char *buf = NULL;
	size_t len = 0;
	FILE *p, *o;
	int c;

	snprintf(cmd, sizeof(cmd), "make -s -n -C %s install DESTDIR=%s/dest PREFIX=/usr OUT=%s/out 2>&1",
		 TRIAGE_USERSPACE_DIR, f->dir, f->dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	o = open_memstream(&buf, &len);
	while ((c = fgetc(p)) != EOF)
		fputc(c, o);
	fclose(o);
	assert_int_equal(pclose(p), 0);
	snprintf(cmd, sizeof(cmd), "%s/dest/usr/lib/sysctl.d/60-triage.conf", f->dir);
	assert_contains(buf, "/60-triage.conf");
	assert_contains(buf, cmd);
	free(buf);
	/* the package takes that file, not a copy of its own */
	inst = get(TRIAGE_USERSPACE_DIR "/../debian", "triagectl.install");
	assert_contains(inst, "\nusr/lib/sysctl.d/60-triage.conf\n");
	assert_not_contains(inst, "debian/60-triage.conf");
	free(inst);
	assert_int_equal(access(TRIAGE_USERSPACE_DIR "/../debian/60-triage.conf", F_OK), -1);
}

/*
 * The audit record type of the decisions, as the kernel series defines
 * it, is the one triagectl and its documents name (ausearch -m N).
 */
static void test_audit_type(void **state)
{
	static const char *const files[] = {
		TRIAGE_USERSPACE_DIR "/man/triagectl.8",
		TRIAGE_USERSPACE_DIR "/sysctl.d/60-triage.conf",
		TRIAGE_USERSPACE_DIR "/../debian/policy.default",
		TRIAGE_EXAMPLES_DIR "/default.policy",
		TRIAGE_EXAMPLES_DIR "/trixie-apparmor-server.policy",
	};
	long kernel = -1;
	glob_t g;
	size_t i;

	(void)state;
	assert_int_equal(glob(TRIAGE_USERSPACE_DIR "/../security/patches/*.patch", 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc && kernel < 0; i++) {
		char *t = tc_read_file(g.gl_pathv[i], 1 << 22, NULL), *d;

		assert_non_null(t);
		d = strstr(t, "+#define AUDIT_TRIAGE_DECISION");
		if (d)
			kernel = strtol(d + strlen("+#define AUDIT_TRIAGE_DECISION"), NULL, 10);
		free(t);
	}
	globfree(&g);
	assert_true(kernel > 1000);
	assert_int_equal(TC_AUDIT_DECISION, kernel);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *t = tc_read_file(files[i], 1 << 20, NULL), *p;
		size_t n = 0;

		assert_non_null(t);
		for (p = t; (p = strstr(p, "-m ")); p++) {
			long v = strtol(p + 3, NULL, 10);

			/* "ausearch -m N", in roff "ausearch \-m N" */
			if (!(p >= t + 9 && !strncmp(p - 9, "ausearch ", 9)) &&
			    !(p >= t + 10 && !strncmp(p - 10, "ausearch \\", 10)))
				continue;
			n++;
			if (v != kernel)
				fail_msg("%s names audit type %ld, the kernel's decisions are %ld",
					 files[i], v, kernel);
		}
		if (!n)
			fail_msg("%s names no ausearch -m", files[i]);
		free(t);
	}
}

/* Why triage is unavailable, exit 3. */
static void test_unavailable(void **state)
{
	struct fake *f = *state;
	char root[128];
	struct run r;
	struct tc_ctx ctx = { 0 };
	char *obuf = NULL, *ebuf = NULL;
	size_t olen = 0, elen = 0;
	char *argv[] = { "triagectl", "rank", NULL };

	snprintf(root, sizeof(root), "%s/triage-missing", f->dir);
	ctx.out = open_memstream(&obuf, &olen);
	ctx.err = open_memstream(&ebuf, &elen);
	ctx.root = root;
	ctx.secfs = f->dir;
	ctx.proc = f->proc;
	ctx.sys = f->sys;
	ctx.write_policy = write;
	put(f->dir, "lsm", "capability,selinux");
	r.rc = tc_main(&ctx, 2, argv);
	fflush(ctx.err);
	assert_int_equal(r.rc, TC_EXIT_UNAVAILABLE);
	assert_contains(ebuf, "the triage LSM is not active in this kernel (active LSMs: capability,selinux); "
			"it must be built in (CONFIG_SECURITY_TRIAGE=y) and enabled: named in CONFIG_LSM, "
			"or in lsm= when the kernel command line has one (lsm= replaces CONFIG_LSM)\n");
	/*
	 * No lsm file and a --root that does not exist: not a reason to mount
	 * securityfs on the directory above it; the kernel's path is named.
	 */
	unlink(strcat(strcpy(root, f->dir), "/lsm"));
	snprintf(root, sizeof(root), "%s/triage-missing", f->dir);
	r.rc = tc_main(&ctx, 2, argv);
	fflush(ctx.err);
	assert_int_equal(r.rc, TC_EXIT_UNAVAILABLE);
	assert_contains(ebuf, "triage-missing does not exist: --root names the triage directory of securityfs "
			"(the kernel's is /sys/kernel/security/triage, with securityfs mounted on /sys/kernel/security)\n");
	assert_not_contains(ebuf, "securityfs is not mounted on ");
	/* the directory there, one file missing (an older kernel) */
	ctx.root = f->dir;
	unlink(strcat(strcpy(root, f->dir), "/ranking"));
	r.rc = tc_main(&ctx, 2, argv);
	fflush(ctx.err);
	assert_int_equal(r.rc, TC_EXIT_UNAVAILABLE);
	assert_contains(ebuf, "/ranking does not exist: this kernel's triage has no 'ranking'");
	fclose(ctx.out);
	fclose(ctx.err);
	free(obuf);
	free(ebuf);
}

static void test_load_boot(void **state)
{
	struct fake *f = *state;
	struct run r;
	char *now;

	/* an SELinux type the loaded policy lacks: inert, still loaded */
	put(f->dir, "in.policy", "protect type=sshd_t\nsacrifice type=batch_t\n");
	r = run(f, "load", "--boot", f->file, "--selinux-policy", TRIAGE_TEST_SELINUX);
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "in.policy:1:14: warning: unknown SELinux type 'sshd_t' (loaded inert: the rule matches nothing)\n");
	assert_contains(r.out, "loaded ");
	now = get(f->dir, "policy");
	assert_string_equal(now, "protect type=sshd_t\nsacrifice type=batch_t\n");
	free(now);
	run_free(&r);

	/* what the kernel refuses still stops it */
	put(f->dir, "in.policy", "protect type=sshd_t\nprotec type=batch_t\n");
	r = run(f, "load", "--boot", f->file, "--selinux-policy", TRIAGE_TEST_SELINUX);
	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "in.policy: not loaded: 1 error\n");
	run_free(&r);
}

static void test_load_dry_run_and_diff(void **state)
{
	struct fake *f = *state;
	struct run r;
	char *now;

	put(f->dir, "in.policy", "protect type=web_t\nprotect type=protected_t\n");
	r = run(f, "load", "--dry-run", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "would load (dry run, nothing loaded) ");
	assert_contains(r.out, "in.policy: 2 rules, against the policy in force:\n"
			"  ~ fallback classic (was: fallback panic)\n"
			"  - sacrifice type=batch_t rank=900 group\n"
			"  - adjust -300 type=web_t\n"
			"  + protect type=web_t\n"
			"running tasks whose verdict changes:\n"
			"  pid 211 (tr-hog, system_u:system_r:batch_t:s0): sacrifice rank=900 group -> none\n"
			"  pid 205 (tr-hog, system_u:system_r:web_t:s0): adjust -300 -> protect\n");
	assert_not_contains(r.out, "pid 198");
	now = get(f->dir, "policy");
	assert_string_equal(now, active_policy);
	free(now);
	run_free(&r);

	r = run(f, "diff", f->file, "--no-selinux", "--json");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "{\"schema_version\":1,\"command\":\"diff\",\"loaded\":false,\"dry_run\":true,");
	assert_contains(r.out, "\"verdict_changes\":[{\"pid\":211,\"comm\":\"tr-hog\",\"label\":\"system_u:system_r:batch_t:s0\","
			"\"from\":\"sacrifice rank=900 group\",\"to\":\"none\"},");
	run_free(&r);

	/* the ranking unreadable: the rules still compared */
	deny_name = "ranking";
	deny_errno = EPERM;
	r = run(f, "diff", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "  + protect type=web_t\n");
	assert_contains(r.err, "running tasks not compared: reading the ranking needs CAP_MAC_ADMIN (run as root)");
	run_free(&r);
	r = run(f, "diff", f->file, "--force");
	assert_int_equal(r.rc, TC_EXIT_USAGE);
	run_free(&r);

	/*
	 * The policy in force unreadable (no CAP_MAC_ADMIN): nothing to
	 * compare, exit 4, as triagectl(8) says for diff, load --dry-run
	 * and explain.
	 */
	deny_name = "policy";
	r = run(f, "diff", f->file, "--no-selinux");
	assert_int_equal(r.rc, TC_EXIT_PERM);
	assert_string_equal(r.out, "");
	assert_contains(r.err, "triagectl: reading the policy needs CAP_MAC_ADMIN (run as root)\n");
	run_free(&r);
	r = run(f, "load", "--dry-run", f->file, "--no-selinux");
	assert_int_equal(r.rc, TC_EXIT_PERM);
	run_free(&r);
	r = run(f, "explain", "211");
	assert_int_equal(r.rc, TC_EXIT_PERM);
	assert_contains(r.err, "reading the policy needs CAP_MAC_ADMIN");
	run_free(&r);
	deny_name = NULL;
}

static void test_log_follow_gap(void **state)
{
	struct fake *f = *state;
	struct run r;

	/* between two reads, 18 and 19 fell out of the kernel's ring */
	swap_name = "decisions";
	swap_at = 2;
	swap_text = "# seq\ttime\tmode\tscope\tpid\tpoints\tverdict\trule\toutcome\tlabel\tcomm\n"
		"20\t1764748900.000000000\tenforce\tglobal\t-\t10\tnone\t-\tkilled\tu:r:t:s0\tx\n"
		"21\t1764748901.000000000\tenforce\tglobal\t7\t10\tnone\t-\tkilled\tu:r:t:s0\ty\n";
	r = run(f, "log", "--follow");
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "triagectl: 2 decisions lost (seq 18..19): more came between two reads than the kernel keeps; "
			"the audit log has them (ausearch -m " TC_STR(TC_AUDIT_DECISION) ")\n");
	assert_contains(r.out, "\n20  2025-12-03T08:01:40Z  enforce  global  -  x  10");
	run_free(&r);

	swap_opens = 0;
	put(f->dir, "decisions", decisions_text);
	r = run(f, "log", "--follow", "--json");
	assert_contains(r.out, "{\"schema_version\":1,\"command\":\"log\",\"lost\":{\"count\":2,\"first_seq\":18,\"last_seq\":19},\"error\":null}\n");
	assert_contains(r.out, "{\"seq\":20,\"time\":1764748900.000000000,\"mode\":\"enforce\",\"scope\":\"global\",\"pid\":null,");
	run_free(&r);
}

/*
 * Every malformed policy of the parser's corpus: check reports at least
 * the kernel's own first error and exits 1, whatever the rest holds
 * (the statement-by-statement recovery runs under ASan here).
 */
static void test_check_corpus(void **state)
{
	struct fake *f = *state;
	glob_t g;
	size_t i;

	assert_int_equal(glob(TRIAGE_EXAMPLES_DIR "/../../tests/corpus/policy/bad/*.policy",
			      0, NULL, &g), 0);
	assert_true(g.gl_pathc > 10);
	for (i = 0; i < g.gl_pathc; i++) {
		struct run r = run(f, "check", g.gl_pathv[i], "--no-selinux");
		char exp[512], want[700], *c, *sp;

		if (r.rc != 1 || !strstr(r.err, ": error: "))
			fail_msg("%s: rc %d\n%s", g.gl_pathv[i], r.rc, r.err);
		/* "LINE:COL: REASON" -> "FILE:LINE:COL: error: REASON" */
		snprintf(exp, sizeof(exp), "%s", g.gl_pathv[i]);
		strcpy(strrchr(exp, '.'), ".expect");
		c = tc_read_file(exp, 400, NULL);
		if (c) {
			tc_chomp(c);
			sp = strstr(c, ": ");
			if (sp && sp != c && c[0] >= '1' && c[0] <= '9') {
				*sp = '\0';
				snprintf(want, sizeof(want), "%s:%s: error: %s",
					 g.gl_pathv[i], c, sp + 2);
				assert_contains(r.err, want);
			}
			free(c);
		}
		run_free(&r);
	}
	globfree(&g);
}

/* ------------------------------------------------------------ pressure */

/* the fake /proc gets PSI: proc/pressure/memory */
static void put_psi(struct fake *f)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/pressure", f->proc);
	assert_int_equal(mkdir(path, 0755) == 0 || errno == EEXIST, 1);
	put(path, "memory", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
	    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
}

static const char pressure_policy[] =
	"pressure full 10% 2s\n"
	"protect type=protected_t\n"
	"pressure some 20% 1500ms cgroup=/batch.slice\n"
	"sacrifice type=batch_t rank=900 group\n"
	"adjust -300 type=web_t\n";

/* check: counts them, warns about a kernel without PSI on this system only */
static void test_check_pressure(void **state)
{
	struct fake *f = *state;
	struct run r;

	/* against another SELinux policy: not this system, no PSI warning */
	r = check(f, pressure_policy);
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_contains(r.out, "in.policy: ok, 3 rules, 2 pressure statements, 0 warnings\n");
	run_free(&r);

	/* against this system, whose kernel has no PSI: a warning */
	r = run(f, "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "in.policy:1:1: warning: the kernel has no PSI: pressure statements will never fire\n");
	assert_contains(r.out, "in.policy: ok, 3 rules, 2 pressure statements, 1 warning\n");
	run_free(&r);
	r = run(f, "--json", "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\"ok\":true,\"rules\":3,\"pressure_statements\":2,\"budgets\":[],\"errors\":0,\"warnings\":1,"
			"\"diagnostics\":[{\"line\":1,\"column\":1,\"severity\":\"warning\","
			"\"message\":\"the kernel has no PSI: pressure statements will never fire\"}]");
	run_free(&r);
	/* -q: errors only */
	r = run(f, "-q", "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	run_free(&r);
	/* a policy without pressure statements: nothing to say */
	put(f->dir, "in.policy", "protect type=protected_t\n");
	r = run(f, "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_not_contains(r.err, "PSI");
	assert_contains(r.out, "in.policy: ok, 1 rule, 0 warnings\n");
	run_free(&r);
	/* the first pressure statement is where it is said */
	put(f->dir, "in.policy", "protect type=protected_t\n\n  pressure some 1% 1s cgroup=/a\n");
	r = run(f, "check", f->file, "--no-selinux");
	assert_contains(r.err, "in.policy:3:3: warning: the kernel has no PSI");
	assert_contains(r.out, "ok, 1 rule, 1 pressure statement, 1 warning\n");
	run_free(&r);

	/* a kernel with PSI: no warning */
	put_psi(f);
	put(f->dir, "in.policy", pressure_policy);
	r = run(f, "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_contains(r.out, "in.policy: ok, 3 rules, 2 pressure statements, 0 warnings\n");
	run_free(&r);
}

/* check: the kernel's errors in pressure statements, all of them, with hints */
static void test_check_pressure_errors(void **state)
{
	struct fake *f = *state;
	struct run r = check(f,
		"presure full 10% 2s\n"
		"pressure ful 10% 2s\n"
		"pressure full 10% 2s cgrop=/a\n"
		"protect type=web_t cgroup=/a\n"
		"pressure some 10% 2s cgroup=/a type=web_t\n"
		"pressure some 10% 2s cgroup=/b group\n"
		"pressure some 10% 499ms cgroup=/c\n"
		"pressure full 1% 1s\n"
		"pressure full 1% 1s\n"
		"cgroup=/x\n"
		"protect type=web_t\n");

	assert_int_equal(r.rc, 1);
	assert_contains(r.err, "in.policy:1:1: error: unknown keyword 'presure' (did you mean 'pressure'?)\n");
	assert_contains(r.err, "in.policy:2:10: error: invalid pressure kind 'ful' (some or full) (did you mean 'full'?)\n");
	assert_contains(r.err, "in.policy:3:22: error: unknown matcher 'cgrop' (did you mean 'cgroup'?)\n");
	assert_contains(r.err, "in.policy:4:20: error: unknown matcher 'cgroup' (cgroup= is only valid on a pressure statement)\n");
	assert_contains(r.err, "in.policy:5:32: error: unknown matcher 'type' (a pressure statement takes only cgroup=)\n");
	assert_contains(r.err, "in.policy:6:32: error: unknown option 'group' (a pressure statement takes only cgroup=)\n");
	assert_contains(r.err, "in.policy:7:19: error: invalid pressure window '499ms' (500ms to 10s)\n");
	assert_contains(r.err, "in.policy:9:1: error: duplicate pressure scope 'system' (first on line 8)\n");
	assert_contains(r.err, "in.policy:10:1: error: unknown keyword 'cgroup' (cgroup= is only valid on a pressure statement)\n");
	assert_contains(r.err, "in.policy: 9 errors, 0 warnings\n");
	run_free(&r);

	/* too many: a limit of the whole policy, the check stops there */
	{
		char text[2048];
		size_t len = 0, i;

		for (i = 0; i <= TRIAGE_PRESSURE_MAX; i++)
			len += snprintf(text + len, sizeof(text) - len,
					"pressure some 10%% 2s cgroup=/s%zu\n", i);
		snprintf(text + len, sizeof(text) - len, "protec type=web_t\n");
		r = check(f, text);
		assert_int_equal(r.rc, 1);
		assert_contains(r.err, "in.policy:17:1: error: too many pressure statements (max 16)\n");
		assert_not_contains(r.err, "protec");
		run_free(&r);
	}
}

/* load and diff: pressure statements added and removed, apart from rules */
static void test_load_pressure(void **state)
{
	struct fake *f = *state;
	struct run r;

	put(f->dir, "in.policy", pressure_policy);
	r = run(f, "diff", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "diff ");
	assert_contains(r.out, "in.policy: 3 rules, 2 pressure statements, against the policy in force:\n"
			"  ~ fallback classic (was: fallback panic)\n"
			"  + pressure full 10% 2s\n"
			"  + pressure some 20% 1500ms cgroup=/batch.slice\n"
			"running tasks whose verdict changes: none (of 4 candidates)\n");
	assert_not_contains(r.out, "reordered");
	run_free(&r);
	r = run(f, "diff", f->file, "--no-selinux", "--json");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\"rules\":3,\"pressure_statements\":2,");
	assert_contains(r.out, "\"added\":[],\"removed\":[],\"reordered\":false,"
			"\"pressure_added\":[\"pressure full 10% 2s\",\"pressure some 20% 1500ms cgroup=/batch.slice\"],"
			"\"pressure_removed\":[],");
	run_free(&r);

	/* loaded: the kernel's canonical form has them before the rules */
	put_psi(f);
	r = run(f, "load", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_string_equal(r.err, "");
	assert_contains(r.out, "in.policy: 3 rules, 2 pressure statements, hash 9f1c0e1d2a3b4c5d, generation 3\n");
	run_free(&r);
	put(f->dir, "policy", "mode enforce\nfallback classic\noom-score-adj override\n"
	    "pressure full 10% 2s\npressure some 20% 1500ms cgroup=/batch.slice\n"
	    "protect type=protected_t\nsacrifice type=batch_t rank=900 group\n"
	    "adjust -300 type=web_t\n");

	/* the same statements in another order: no change */
	put(f->dir, "in.policy", "pressure some 20% 1500ms cgroup=\"/batch.slice\"\n"
	    "protect type=protected_t\nsacrifice type=batch_t rank=900 group\n"
	    "adjust -300 type=web_t\npressure full 10% 2000ms\n");
	r = run(f, "diff", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "  no change\n");
	run_free(&r);

	/* one changed, one removed, a rule removed: each said once */
	put(f->dir, "in.policy", "pressure some 30% 1500ms cgroup=/batch.slice\n"
	    "protect type=protected_t\nsacrifice type=batch_t rank=900 group\n");
	r = run(f, "diff", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "in.policy: 2 rules, 1 pressure statement, against the policy in force:\n"
			"  - pressure full 10% 2s\n"
			"  - pressure some 20% 1500ms cgroup=/batch.slice\n"
			"  + pressure some 30% 1500ms cgroup=/batch.slice\n"
			"  - adjust -300 type=web_t\n"
			"running tasks whose verdict changes:\n");
	assert_not_contains(r.out, "reordered");
	run_free(&r);

	/* rules reordered around them: still reported */
	put(f->dir, "in.policy", "pressure full 10% 2s\n"
	    "sacrifice type=batch_t rank=900 group\nprotect type=protected_t\n"
	    "pressure some 20% 1500ms cgroup=/batch.slice\nadjust -300 type=web_t\n");
	r = run(f, "diff", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "  rules reordered");
	assert_not_contains(r.out, "  + ");
	assert_not_contains(r.out, "  - ");
	run_free(&r);
}

/* status and explain of a policy in force with pressure statements */
static void test_status_explain_pressure(void **state)
{
	static const char policy[] =
		"mode enforce\nfallback panic\noom-score-adj override\n"
		"pressure full 10% 2s\n"
		"pressure some 20% 1500ms cgroup=/batch.slice\n"
		"pressure some 5% 10s cgroup=\"/user.slice/my app.scope\"\n"
		"protect type=protected_t\n"
		"sacrifice type=batch_t rank=900 group\n"
		"adjust -300 type=web_t\n";
	struct fake *f = *state;
	char path[160];
	struct run r;

	put(f->dir, "policy", policy);
	r = run(f, "status");
	assert_int_equal(r.rc, 0);
	/* the rules are numbered without the pressure statements */
	assert_contains(r.out, "rule hits:\n"
			"     1         5  protect type=protected_t\n"
			"     2         9  sacrifice type=batch_t rank=900 group\n"
			"     3         4  adjust -300 type=web_t\n");
	assert_contains(r.out, "early action           1: pressure full 10% 2s\n"
			"                       2: pressure some 20% 1500ms cgroup=/batch.slice\n"
			"                       3: pressure some 5% 10s cgroup=\"/user.slice/my app.scope\"\n");
	assert_contains(r.err, "triagectl: warning: the kernel has no PSI: pressure statements will never fire\n");
	run_free(&r);
	r = run(f, "status", "--json");
	assert_contains(r.out, "\"inert_rules\":[],\"pressure\":[\"pressure full 10% 2s\","
			"\"pressure some 20% 1500ms cgroup=/batch.slice\","
			"\"pressure some 5% 10s cgroup=\\\"/user.slice/my app.scope\\\"\"],\"error\":null}\n");
	run_free(&r);
	put_psi(f);
	r = run(f, "status");
	assert_string_equal(r.err, "");
	run_free(&r);
	/* the policy unreadable: unknown, not none */
	deny_name = "policy";
	deny_errno = EACCES;
	r = run(f, "status", "--json");
	assert_contains(r.out, "\"pressure\":null,");
	run_free(&r);
	deny_name = NULL;

	/* explain: which statements' early action may take the task */
	snprintf(path, sizeof(path), "%s/211", f->proc);
	put(path, "cgroup", "0::/batch.slice/job-7.scope\n");
	r = run(f, "explain", "211");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "rule     2: sacrifice type=batch_t rank=900 group\n");
	assert_contains(r.out, "pressure statement 1 (pressure full 10% 2s) may take it early\n"
			"         statement 2 (pressure some 20% 1500ms cgroup=/batch.slice) may take it early\n");
	assert_not_contains(r.out, "statement 3");
	run_free(&r);
	r = run(f, "explain", "211", "--json");
	assert_contains(r.out, "\"rule\":2,\"rule_text\":\"sacrifice type=batch_t rank=900 group\",");
	assert_contains(r.out, "\"cgroup\":\"/batch.slice/job-7.scope\",\"pressure\":["
			"\"pressure full 10% 2s\",\"pressure some 20% 1500ms cgroup=/batch.slice\"],\"error\":null}\n");
	run_free(&r);
	/* a sibling whose name starts the same is not below /batch.slice */
	put(path, "cgroup", "0::/batch.slice2/x.scope\n");
	r = run(f, "explain", "211");
	assert_contains(r.out, "pressure statement 1 (pressure full 10% 2s) may take it early\n");
	assert_not_contains(r.out, "statement 2");
	run_free(&r);
	/* cgroup v1 lines are not its cgroup v2 path */
	put(path, "cgroup", "12:memory:/batch.slice\n0::/user.slice/my app.scope\n");
	r = run(f, "explain", "211");
	assert_contains(r.out, "statement 3 (pressure some 5% 10s cgroup=\"/user.slice/my app.scope\") may take it early\n");
	assert_not_contains(r.out, "statement 2");
	run_free(&r);

	/* protected: never by early action */
	r = run(f, "explain", "198");
	assert_contains(r.out, "verdict  protect\n");
	assert_contains(r.out, "pressure protected: early action never takes it\n");
	assert_not_contains(r.out, "may take it early");
	run_free(&r);
	r = run(f, "explain", "198", "--json");
	assert_contains(r.out, "\"cgroup\":null,\"pressure\":[],\"error\":null}\n");
	run_free(&r);

	/* an ordinary task: early action takes sacrificed tasks only */
	r = run(f, "explain", "300");
	assert_contains(r.out, "pressure not sacrificed: early action takes sacrificed tasks only, it never takes it\n");
	assert_not_contains(r.out, "may take it early");
	run_free(&r);

	/* only cgroup statements, and the sacrificed task in none of them */
	put(f->dir, "policy", "pressure some 20% 1500ms cgroup=/batch.slice\nprotect type=protected_t\nsacrifice type=batch_t\n");
	snprintf(path, sizeof(path), "%s/211", f->proc);
	put(path, "cgroup", "0::/user.slice\n");
	r = run(f, "explain", "211");
	assert_contains(r.out, "pressure no pressure statement covers its cgroup (/user.slice): early action never takes it\n");
	run_free(&r);

	/* no pressure statements: no pressure line */
	put(f->dir, "policy", active_policy);
	r = run(f, "explain", "300");
	assert_not_contains(r.out, "pressure");
	run_free(&r);
	r = run(f, "explain", "211", "--json");
	assert_contains(r.out, "\"cgroup\":\"/user.slice\",\"pressure\":[],");
	run_free(&r);
}

/* ------------------------------------------------------------ examples */

/* Every example policy passes check against Debian's reference policy. */
static void test_examples(void **state)
{
	struct fake *f = *state;
	glob_t g;
	size_t i;

	if (access(TRIAGE_REFPOLICY, R_OK)) {
		print_message("# skip: %s not installed (selinux-policy-default)\n",
			      TRIAGE_REFPOLICY);
		skip();
	}
	assert_int_equal(glob(TRIAGE_EXAMPLES_DIR "/*.policy", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 2);
	for (i = 0; i < g.gl_pathc; i++) {
		struct run r = run(f, "check", g.gl_pathv[i],
				   "--selinux-policy", TRIAGE_REFPOLICY);

		if (r.rc || *r.err)
			fail_msg("%s:\n%s%s", g.gl_pathv[i], r.out, r.err);
		run_free(&r);
	}
	globfree(&g);
}

/* ------------------------------------------------------------- budgets */

/* protect ... budget=SIZE (policy/LANGUAGE.md, "Budgets") */
static const char budget_policy[] =
	"mode enforce\nfallback panic\noom-score-adj override\n"
	"protect type=protected_t budget=32M\n"
	"sacrifice type=batch_t rank=900 group\n"
	"adjust -300 type=web_t\n";

/* the kernel's ranking with pid 198 at @tier (protected or ordinary) */
static void put_budget_ranking(struct fake *f, bool beyond)
{
	put(f->dir, "ranking", beyond ?
	    "# rank\tpid\ttier\tsrank\tpoints\tverdict\trule\tlabel\tcomm\n"
	    "1\t211\tsacrifice\t900\t1483\tsacrifice\t2\tsystem_u:system_r:batch_t:s0\ttr-hog\n"
	    "2\t198\tordinary\t-\t12576\tprotect\t1\tsystem_u:system_r:protected_t:s0\ttr-hog\n"
	    "3\t205\tordinary\t-\t10412\tadjust\t3\tsystem_u:system_r:web_t:s0\ttr-hog\n" :
	    "# rank\tpid\ttier\tsrank\tpoints\tverdict\trule\tlabel\tcomm\n"
	    "1\t211\tsacrifice\t900\t1483\tsacrifice\t2\tsystem_u:system_r:batch_t:s0\ttr-hog\n"
	    "2\t205\tordinary\t-\t10412\tadjust\t3\tsystem_u:system_r:web_t:s0\ttr-hog\n"
	    "-\t198\tprotected\t-\t-\tprotect\t1\tsystem_u:system_r:protected_t:s0\ttr-hog\n");
}

/* /proc/198/status with the three counters the OOM killer adds up */
static void put_status(struct fake *f, const char *pid, unsigned long rss,
		       unsigned long swap, unsigned long pte)
{
	char path[160], text[512];

	snprintf(path, sizeof(path), "%s/%s", f->proc, pid);
	snprintf(text, sizeof(text),
		 "Name:\ttr-hog\nUmask:\t0022\nState:\tS (sleeping)\n"
		 "VmPeak:\t  900000 kB\nVmSize:\t  800000 kB\nVmHWM:\t  %lu kB\n"
		 "VmRSS:\t  %lu kB\nRssAnon:\t  1 kB\nRssFile:\t  2 kB\n"
		 "VmData:\t  700000 kB\nVmPTE:\t  %lu kB\nVmSwap:\t  %lu kB\n"
		 "Threads:\t1\n", rss, rss, pte, swap);
	put(path, "status", text);
}

/*
 * explain: the budget, the task's size as the OOM killer counts it (from
 * /proc/PID/status, said so) and its standing, within or beyond.
 */
static void test_explain_budget(void **state)
{
	struct fake *f = *state;
	char path[160], want[200];
	long page = sysconf(_SC_PAGESIZE);
	struct run r;

	put(f->dir, "policy", budget_policy);

	/* within: 16384 + 0 + 64 kB of 32 MiB */
	put_budget_ranking(f, false);
	put_status(f, "198", 16384, 0, 64);
	r = run(f, "explain", "198");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "rule     1: protect type=protected_t budget=32M\n"
			"verdict  protect\n"
			"budget   32M: within it, so protected\n"
			"size     16.1 MiB, as the OOM killer counts it: VmRSS 16384 kB + VmSwap 0 kB + VmPTE 64 kB (");
	assert_contains(r.out, "/proc/198/status)\n"
			"ranking  protected: never chosen");
	assert_contains(r.out, "change   rule 1 protects it while it holds at most 32M;");
	assert_not_contains(r.out, "note ");
	run_free(&r);
	r = run(f, "explain", "198", "--json");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "\"kernel_rule\":1,\"budget_bytes\":33554432,\"size_bytes\":16842752,"
			"\"within_budget\":true,\"size_source\":\"status\",");
	run_free(&r);

	/* beyond: 49152 + 1024 + 128 kB */
	put_budget_ranking(f, true);
	put_status(f, "198", 49152, 1024, 128);
	r = run(f, "explain", "198");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "verdict  protect\n"
			"budget   32M: beyond it, so ordinary: ranked by its size like any other task\n"
			"size     49.1 MiB, as the OOM killer counts it: VmRSS 49152 kB + VmSwap 1024 kB + VmPTE 128 kB (");
	assert_contains(r.out, "ranking  2 of 3, tier ordinary, 12576 points\n");
	assert_contains(r.out, "change   rule 1 protects it only while it holds at most 32M, and it holds more:");
	run_free(&r);
	r = run(f, "explain", "198", "--json");
	assert_contains(r.out, "\"tier\":\"ordinary\",");
	assert_contains(r.out, "\"budget_bytes\":33554432,\"size_bytes\":51511296,"
			"\"within_budget\":false,\"size_source\":\"status\",");
	run_free(&r);

	/* exactly the budget is within (the kernel: beyond is more than SIZE) */
	put_budget_ranking(f, false);
	put_status(f, "198", 32768 - 96, 32, 64);
	r = run(f, "explain", "198", "--json");
	assert_contains(r.out, "\"size_bytes\":33554432,\"within_budget\":true,");
	run_free(&r);

	/* the kernel's ranking and /proc disagree: said, /proc's size shown */
	put_budget_ranking(f, true);
	put_status(f, "198", 1024, 0, 16);
	r = run(f, "explain", "198");
	assert_contains(r.out, "budget   32M: within it, so protected\n");
	assert_contains(r.out, "note     the kernel's ranking lists it as ordinary (beyond its budget): its size crossed the budget between the two reads\n");
	run_free(&r);

	/* no status: statm's resident pages, a lower bound, said so */
	snprintf(path, sizeof(path), "%s/198", f->proc);
	put(path, "statm", "20000 12800 100 10 0 500 0\n");
	snprintf(want, sizeof(want), "%s/status", path);
	assert_int_equal(unlink(want), 0);
	r = run(f, "explain", "198");
	snprintf(want, sizeof(want), "size     at least %.1f MiB: 12800 resident pages of %ld bytes (",
		 12800.0 * page / 1048576, page);
	assert_contains(r.out, want);
	assert_contains(r.out, "/proc/198/statm), without swap and page tables: ");
	assert_contains(r.out, "/proc/198/status: No such file or directory\n");
	if (12800 * page > (32 << 20))
		assert_contains(r.out, "budget   32M: beyond it, so ordinary");
	run_free(&r);
	r = run(f, "explain", "198", "--json");
	assert_contains(r.out, "\"size_source\":\"statm\"");
	run_free(&r);
	/* a lower bound within the budget: the kernel's ranking tells */
	put(path, "statm", "20000 10 100 10 0 500 0\n");
	put_budget_ranking(f, false);
	r = run(f, "explain", "198");
	assert_contains(r.out, "budget   32M: within it (the kernel's ranking), so protected\n");
	run_free(&r);
	/* and without the ranking: unknown */
	deny_name = "ranking";
	deny_errno = EACCES;
	r = run(f, "explain", "198", "--json");
	assert_contains(r.out, "\"within_budget\":null,\"size_source\":\"statm\",");
	run_free(&r);
	r = run(f, "explain", "198");
	assert_contains(r.out, "budget   32M: within it or beyond: unknown (");
	run_free(&r);
	deny_name = NULL;

	/* no memory of its own (a task on its way out): the kernel counts 0 */
	put(path, "status", "Name:\ttr-hog\nState:\tZ (zombie)\nThreads:\t1\n");
	r = run(f, "explain", "198");
	assert_contains(r.out, "budget   32M: within it, so protected\n"
			"size     0: no VmRSS in ");
	run_free(&r);

	/* no budget: no budget or size, null in JSON */
	put(f->dir, "policy", active_policy);
	put(f->dir, "ranking", ranking_text);
	r = run(f, "explain", "198");
	assert_not_contains(r.out, "budget");
	assert_not_contains(r.out, "size ");
	run_free(&r);
	r = run(f, "explain", "211", "--json");
	assert_contains(r.out, "\"budget_bytes\":null,\"size_bytes\":null,\"within_budget\":null,\"size_source\":null,");
	run_free(&r);
}

/* rank: a protected-by-rule task beyond its budget is marked so */
static void test_rank_budget(void **state)
{
	struct fake *f = *state;
	struct run r;

	put(f->dir, "policy", budget_policy);
	put_budget_ranking(f, true);
	r = run(f, "rank");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "2     198  ordinary   -      12576   protect    1     tr-hog  system_u:system_r:protected_t:s0  "
			"protect type=protected_t budget=32M (beyond budget 32M: ordinary)\n");
	assert_contains(r.out, "adjust -300 type=web_t\n");
	run_free(&r);
	r = run(f, "rank", "--json");
	assert_contains(r.out, "\"pid\":198,\"tier\":\"ordinary\",");
	assert_contains(r.out, "\"why\":\"protect type=protected_t budget=32M\",\"beyond_budget\":true}");
	assert_contains(r.out, "\"why\":\"sacrifice type=batch_t rank=900 group\",\"beyond_budget\":false}");
	run_free(&r);

	/* within: protected, no note */
	put_budget_ranking(f, false);
	r = run(f, "rank");
	assert_contains(r.out, "protect type=protected_t budget=32M\n");
	assert_not_contains(r.out, "beyond");
	run_free(&r);
	r = run(f, "rank", "--json");
	assert_contains(r.out, "\"why\":\"protect type=protected_t budget=32M\",\"beyond_budget\":false}");
	run_free(&r);

	/* the policy unreadable: the kernel's tier still tells */
	put_budget_ranking(f, true);
	deny_name = "policy";
	deny_errno = EACCES;
	r = run(f, "rank");
	assert_contains(r.out, "(beyond its budget: ordinary)\n");
	run_free(&r);
	deny_name = NULL;

	/* the format before tiers: a protect verdict with a rank */
	put(f->dir, "ranking",
	    "# rank\tpid\tpoints\tverdict\trule\tlabel\tcomm\n"
	    "1\t198\t12576\tprotect\t1\tsystem_u:system_r:protected_t:s0\ttr-hog\n"
	    "-\t199\t-\tprotect\t1\tsystem_u:system_r:protected_t:s0\ttr-hog\n");
	r = run(f, "rank", "--json");
	assert_contains(r.out, "\"pid\":198,");
	assert_contains(r.out, "\"beyond_budget\":true},\n{\"rank\":null,\"pid\":199,");
	assert_contains(r.out, "\"beyond_budget\":false}]");
	run_free(&r);
}

/* the fake /proc/meminfo: 15.6 GiB of RAM and 2 GiB of swap */
static void put_meminfo(struct fake *f)
{
	put(f->proc, "meminfo",
	    "MemTotal:       16318480 kB\nMemFree:         1000000 kB\n"
	    "MemAvailable:    9000000 kB\nSwapCached:            0 kB\n"
	    "SwapTotal:       2097148 kB\nSwapFree:        2097148 kB\n");
}

/*
 * check: a budget beyond the machine's RAM and swap can never be
 * exceeded (a unit mistake?); the summary counts the rules with one.
 */
static void test_check_budget(void **state)
{
	static const char policy[] =
		"protect type=protected_t budget=64G\n"
		"protect type=web_t budget=4G\n"
		"sacrifice type=batch_t\n";
	struct fake *f = *state;
	char path[160];
	struct run r;

	put_meminfo(f);
	put(f->dir, "in.policy", policy);
	r = run(f, "check", f->file, "--no-selinux");
	assert_int_equal(r.rc, 0);
	assert_contains(r.err, "in.policy:1:33: warning: budget=64G is more than this system's memory and swap together (17.6 GiB): "
			"no process can exceed it, so the rule protects at any size (a unit mistake? M, G and T are MiB, GiB and TiB)\n");
	assert_not_contains(r.err, "budget=4G is more");
	assert_contains(r.out, "in.policy: ok, 3 rules, 2 protect rules with a budget, 1 warning\n");
	run_free(&r);
	r = run(f, "--json", "check", f->file, "--no-selinux");
	assert_contains(r.out, "\"rules\":3,\"pressure_statements\":0,\"budgets\":["
			"{\"rule\":1,\"line\":1,\"budget\":\"64G\",\"budget_bytes\":68719476736},"
			"{\"rule\":2,\"line\":2,\"budget\":\"4G\",\"budget_bytes\":4294967296}],\"errors\":0,\"warnings\":1,");
	run_free(&r);

	/* not against this system (--selinux-policy), or no meminfo: no warning */
	r = check(f, policy);
	assert_int_equal(r.rc, 0);
	assert_not_contains(r.err, "is more than");
	assert_contains(r.out, "in.policy: ok, 3 rules, 2 protect rules with a budget, 0 warnings\n");
	run_free(&r);
	snprintf(path, sizeof(path), "%s/meminfo", f->proc);
	assert_int_equal(unlink(path), 0);
	r = run(f, "check", f->file, "--no-selinux");
	assert_string_equal(r.err, "");
	run_free(&r);

	/* one budget: singular; none: the summary as before */
	put_meminfo(f);
	put(f->dir, "in.policy", "protect type=web_t budget=+1536M\nsacrifice type=batch_t\n");
	r = run(f, "check", f->file, "--no-selinux");
	assert_contains(r.out, "in.policy: ok, 2 rules, 1 protect rule with a budget, 0 warnings\n");
	run_free(&r);
	r = run(f, "--json", "check", f->file, "--no-selinux");
	assert_contains(r.out, "\"budgets\":[{\"rule\":1,\"line\":1,\"budget\":\"1536M\",\"budget_bytes\":1610612736}]");
	run_free(&r);
	put(f->dir, "in.policy", "protect type=web_t\n");
	r = run(f, "check", f->file, "--no-selinux");
	assert_contains(r.out, "in.policy: ok, 1 rule, 0 warnings\n");
	run_free(&r);
	r = run(f, "--json", "check", f->file, "--no-selinux");
	assert_contains(r.out, "\"budgets\":[],");
	run_free(&r);

	/* a misspelt budget gets its suggestion; on pressure, what it takes */
	expect_diag(f, "protect type=web_t budgte=4G\n", 1,
		    "1:20: error: unknown matcher 'budgte' (did you mean 'budget'?)");
	expect_diag(f, "pressure some 10% 1s budget=4G\n", 1,
		    "1:22: error: unknown matcher 'budget' (a pressure statement takes only cgroup=)");
}

/* load: a budget added or changed changes a running task's verdict */
static void test_load_budget(void **state)
{
	struct fake *f = *state;
	struct run r;

	put(f->dir, "in.policy", "protect type=protected_t budget=4G\n"
	    "sacrifice type=batch_t rank=900 group\nadjust -300 type=web_t\n");
	r = run(f, "load", f->file, "--no-selinux", "--dry-run");
	assert_int_equal(r.rc, 0);
	assert_contains(r.out, "  pid 198 (tr-hog, system_u:system_r:protected_t:s0): protect -> protect budget=4G\n");
	run_free(&r);
}

/* Text of a man page without its roff: fonts, escapes and macros gone. */
static char *deroff(const char *path)
{
	char *src = tc_read_file(path, 1 << 20, NULL), *out, *o, *line, *save = NULL;

	assert_non_null(src);
	out = o = calloc(1, strlen(src) * 2 + 1);
	assert_non_null(out);
	for (line = strtok_r(src, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *p = line;
		bool macro = *p == '.', alt = false, q = false;

		if (!strncmp(p, ".\\\"", 3))
			continue;
		if (macro) {
			size_t n = strcspn(p, " ");

			/* .BI, .BR, .IR ...: the arguments alternate, unspaced */
			alt = n == 3 && strchr("BIR", p[1]) && strchr("BIR", p[2]);
			p += n;
			while (*p == ' ')
				p++;
		}
		for (; *p; p++) {
			if (macro && *p == '"') {
				q = !q;
			} else if (macro && *p == ' ' && !q) {
				if (!alt)
					*o++ = ' ';
				while (p[1] == ' ')
					p++;
			} else if (*p == '\\' && p[1] == 'f' && p[2]) {
				p += 2;
			} else if (*p == '\\' && p[1] == '(' && p[2] && p[3]) {
				*o++ = !strncmp(p + 2, "aq", 2) ? '\'' :
				       !strncmp(p + 2, "dq", 2) ? '"' :
				       !strncmp(p + 2, "ga", 2) ? '`' : '?';
				p += 3;
			} else if (*p == '\\' && p[1] == '-') {
				*o++ = '-';
				p++;
			} else if (*p == '\\' && p[1] == 'e') {
				*o++ = '\\';
				p++;
			} else if (*p == '\\' && (p[1] == '&' || p[1] == ' ')) {
				if (p[1] == ' ')
					*o++ = ' ';
				p++;
			} else {
				*o++ = *p;
			}
		}
		*o++ = ' ';
	}
	*o = '\0';
	free(src);
	return out;
}

/*
 * triage-policy(5) and triagectl(8) describe budgets as
 * policy/LANGUAGE.md does: the syntax, the sizes, what is counted, the
 * canonical form, every error about a budget; what explain, rank and
 * check show.
 */
static void test_man_budget(void **state)
{
	static const char *const policy5[] = {
		"protect MATCHER... [budget=SIZE]",
		"512M, 4G, 1T: a whole number of MiB, GiB or TiB, 1M..16T",
		"as the OOM killer counts it (resident, swapped out and page tables), is at most SIZE",
		"beyond it the task is ordinary, ranked by its size like any other",
		"The budget is per process, not per label or service",
		"/proc/PID/oom_score and ranking show the standing at once",
		"then budget=SIZE in its largest whole unit (budget=4096M is budget=4G)",
		"Early action never takes a protected task beyond its budget",
		"duplicate option 'budget'",
	};
	static const char *const policy8[] = {
		"budget=SIZE",
		"VmRSS + VmSwap + VmPTE",
		"/proc/PID/statm",
		"\"budget_bytes\"", "\"size_bytes\"", "\"within_budget\"",
		"\"size_source\"", "\"beyond_budget\"", "\"budgets\"",
		"(beyond budget 4G: ordinary)",
		"is more than this system's memory and swap together",
		"protect rules with a budget",
	};
	char *lang = get(TRIAGE_USERSPACE_DIR "/../policy", "LANGUAGE.md");
	char *m5 = deroff(TRIAGE_USERSPACE_DIR "/man/triage-policy.5");
	char *m8 = deroff(TRIAGE_USERSPACE_DIR "/man/triagectl.8");
	const char *p;
	size_t i, nerr = 0;

	(void)state;
	for (i = 0; i < sizeof(policy5) / sizeof(policy5[0]); i++)
		assert_contains(m5, policy5[i]);
	for (i = 0; i < sizeof(policy8) / sizeof(policy8[0]); i++)
		assert_contains(m8, policy8[i]);
	/* LANGUAGE.md's rule and error tables: what names budget */
	for (p = lang; (p = strstr(p, "\n| `")); p++) {
		const char *b = p + 4, *e = strstr(b, "` |");
		char reason[200];

		if (!e || (size_t)(e - b) >= sizeof(reason) || memchr(b, '\n', e - b))
			continue;
		memcpy(reason, b, e - b);
		reason[e - b] = '\0';
		if (!strstr(reason, "budget"))
			continue;
		assert_contains(m5, reason);
		nerr++;
	}
	/* protect MATCHER... [budget=SIZE] and the three errors */
	assert_int_equal(nerr, 4);
	free(lang);
	free(m5);
	free(m8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_check_ok, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_unknown_type_suggestion, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_unknown_user_role_range, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_syntax_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_shadowing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_never_matches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_no_selinux, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_usage, setup, teardown),
		cmocka_unit_test(test_rule_covers),
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test_setup_teardown(test_load_diff, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_check_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rank, setup, teardown),
		cmocka_unit_test_setup_teardown(test_explain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_explain_apparmor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_injection, setup, teardown),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test_setup_teardown(test_log, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scenario, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_all_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_warnings, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_stdin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_version_and_verbosity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unavailable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_root_slash, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cli_consistency, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_boot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_dry_run_and_diff, setup, teardown),
		cmocka_unit_test_setup_teardown(test_log_follow_gap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_corpus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_pressure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_pressure_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_pressure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_explain_pressure, setup, teardown),
		cmocka_unit_test_setup_teardown(test_examples, setup, teardown),
		cmocka_unit_test_setup_teardown(test_completion_accepted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_usage_one_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_not_in_chain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_no_triage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_mode_override, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help_version, setup, teardown),
		cmocka_unit_test_setup_teardown(test_root_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_log_follow_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_unconfined, setup, teardown),
		cmocka_unit_test_setup_teardown(test_install_sysctl, setup, teardown),
		cmocka_unit_test(test_audit_type),
		cmocka_unit_test_setup_teardown(test_json_utf8, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_shared_domains, setup, teardown),
		cmocka_unit_test_setup_teardown(test_explain_shared_label, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rank_explain_enforced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_debian_kernel_newer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_smack, setup, teardown),
		cmocka_unit_test_setup_teardown(test_explain_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rank_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_budget, setup, teardown),
		cmocka_unit_test(test_man_budget),
	};

	return cmocka_run_group_tests_name("triagectl", tests, NULL, NULL);
}
