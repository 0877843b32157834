// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the spec language of triagectl conform
 * (userspace/src/conformspec.c): good specs parse into what they say,
 * every error is reported as FILE:LINE:COLUMN: error: REASON exactly as
 * triagectl check reports policy errors, and the shipped specs parse.
 */
#define _GNU_SOURCE

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conform.h"

#ifndef TRIAGE_TOP_DIR
#error "build with -DTRIAGE_TOP_DIR=\"/path/to/repo\""
#endif

/* parse @text; *out gets what triagectl prints on stderr for "s.spec" */
static int parse(const char *text, struct tc_cf_spec *spec, char **out)
{
	struct tc_check diags = { 0 };
	size_t len;
	FILE *f;
	int rc;

	rc = tc_cf_parse(text, strlen(text), spec, &diags);
	f = open_memstream(out, &len);
	assert_non_null(f);
	tc_check_print(f, "s.spec", &diags, false);
	fclose(f);
	if (rc == 0)
		assert_int_equal(diags.errors, 0);
	else
		assert_true(diags.errors > 0);
	tc_check_free(&diags);
	return rc;
}

/* @text has exactly the errors @want (a whole stderr text) */
static void bad(const char *text, const char *want)
{
	struct tc_cf_spec spec;
	char *out = NULL;
	int rc = parse(text, &spec, &out);

	if (rc != -1 || strcmp(out, want))
		fail_msg("spec:\n%s\nwant (rc -1):\n%sgot (rc %d):\n%s", text,
			 want, rc, out);
	free(out);
	tc_cf_free(&spec);
}

static void test_good(void **state)
{
	struct tc_cf_spec spec;
	const struct tc_cf_expect *e;
	char *out = NULL;

	(void)state;
	assert_int_equal(parse(
		"# a site's expectations\n"
		"memory 96M\n"
		"timeout\t20\n"
		"grower type=user_t   # grows to the OOM\n"
		"grower profile=grower\n"
		"\n"
		"type=batch_t 8M dies before type=protected_t 40MiB\n"
		"  context=system_u:system_r:protected_t:s0 40 is never killed\n"
		"type=batch_t 6M x4 dies as a group\n"
		"todo adjust puts type=web_t 30M before type=user_t 20M # not yet\n"
		"profile=batch 8M dies before profile=db 30M\n"
		"smack=Batch 8M dies as a group\n",
		&spec, &out), 0);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(spec.memory_mib, 96);
	assert_int_equal(spec.timeout_s, 20);
	assert_string_equal(spec.grower[TC_CF_SELINUX].name, "user_t");
	assert_int_equal(spec.grower[TC_CF_SELINUX].line, 4);
	assert_string_equal(spec.grower[TC_CF_APPARMOR].name, "grower");
	assert_null(spec.grower[TC_CF_SMACK].name);
	assert_int_equal(spec.nex, 6);

	e = &spec.ex[0];
	assert_int_equal(e->kind, TC_CF_BEFORE);
	assert_false(e->todo);
	assert_int_equal(e->line, 7);
	assert_string_equal(e->text, "type=batch_t 8M dies before type=protected_t 40MiB");
	assert_int_equal(e->nprobes, 2);
	assert_int_equal(e->probe[0].label.lsm, TC_CF_SELINUX);
	assert_false(e->probe[0].label.context);
	assert_string_equal(e->probe[0].label.name, "batch_t");
	assert_string_equal(e->probe[0].label.text, "type=batch_t");
	assert_int_equal(e->probe[0].label.column, 1);
	assert_int_equal(e->probe[0].mib, 8);
	assert_int_equal(e->probe[0].count, 1);
	assert_string_equal(e->probe[1].label.name, "protected_t");
	assert_int_equal(e->probe[1].label.column, 29);
	assert_int_equal(e->probe[1].mib, 40);

	e = &spec.ex[1];
	assert_int_equal(e->kind, TC_CF_NEVER);
	assert_int_equal(e->nprobes, 1);
	assert_true(e->probe[0].label.context);
	assert_string_equal(e->probe[0].label.name, "system_u:system_r:protected_t:s0");
	assert_int_equal(e->probe[0].label.column, 3);
	assert_int_equal(e->probe[0].mib, 40);

	e = &spec.ex[2];
	assert_int_equal(e->kind, TC_CF_GROUP);
	assert_int_equal(e->probe[0].count, 4);
	assert_int_equal(e->probe[0].mib, 6);

	e = &spec.ex[3];
	assert_int_equal(e->kind, TC_CF_ADJUST);
	assert_true(e->todo);
	assert_string_equal(e->text, "todo adjust puts type=web_t 30M before type=user_t 20M");
	assert_string_equal(e->probe[0].label.name, "web_t");
	assert_string_equal(e->probe[1].label.name, "user_t");

	e = &spec.ex[4];
	assert_int_equal(e->probe[0].label.lsm, TC_CF_APPARMOR);
	assert_string_equal(e->probe[1].label.name, "db");

	e = &spec.ex[5];
	assert_int_equal(e->kind, TC_CF_GROUP);
	assert_int_equal(e->probe[0].label.lsm, TC_CF_SMACK);
	assert_int_equal(e->probe[0].count, TC_CF_GROUP_DEFAULT);
	tc_cf_free(&spec);

	/* defaults */
	assert_int_equal(parse("type=a_t 8M is never killed\n", &spec, &out), 0);
	free(out);
	assert_int_equal(spec.memory_mib, TC_CF_MEMORY_DEFAULT);
	assert_int_equal(spec.timeout_s, TC_CF_TIMEOUT_DEFAULT);
	assert_null(spec.grower[TC_CF_SELINUX].name);
	tc_cf_free(&spec);
	/* no newline at the end, CRLF */
	assert_int_equal(parse("type=a_t 8M is never killed\r\ntype=b_t 8M is never killed", &spec, &out), 0);
	free(out);
	assert_int_equal(spec.nex, 2);
	tc_cf_free(&spec);
	assert_string_equal(tc_cf_lsm_name(TC_CF_APPARMOR), "AppArmor");
}

static void test_bad_statements(void **state)
{
	(void)state;
	bad("frobnicate 3\n",
	    "s.spec:1:1: error: unknown statement 'frobnicate' (a probe LABEL SIZE, adjust, todo, memory, timeout or grower)\n");
	bad("\n  timout 10\n",
	    "s.spec:2:3: error: unknown statement 'timout' (did you mean 'timeout'?)\n");
	bad("typ=batch_t 8M is never killed\n",
	    "s.spec:1:1: error: unknown label kind 'typ=' (did you mean 'type='?)\n");
	bad("# nothing\n\n",
	    "s.spec: error: no expectations\n");
	bad("todo\n",
	    "s.spec:1:5: error: expected an expectation after 'todo'\n");
	bad("todo memory 96M\n",
	    "s.spec:1:6: error: expected an expectation after 'todo', got 'memory'\n");
	bad("adjust type=web_t 8M before type=user_t 8M\n",
	    "s.spec:1:8: error: expected 'puts' after 'adjust', got 'type=web_t'\n");
	/* every line is reported, each with its own position */
	bad("type=a_t 8M is never killed\n"
	    "type=a_t 8M perishes\n"
	    "type=a_t 8M dies after type=b_t 8M\n"
	    "type=a_t 8M dies before\n"
	    "type=a_t 8M is killed\n"
	    "type=a_t 8M is never killed now\n"
	    "type=a_t 8M dies as group\n",
	    "s.spec:2:13: error: expected 'dies' or 'is' after the probe, got 'perishes'\n"
	    "s.spec:3:18: error: expected 'before' or 'as a group' after 'dies', got 'after'\n"
	    "s.spec:4:24: error: expected a probe (LABEL SIZE) after 'before'\n"
	    "s.spec:5:16: error: expected 'never killed' after 'is', got 'killed'\n"
	    "s.spec:6:29: error: unexpected 'now' after the expectation\n"
	    "s.spec:7:18: error: expected 'as a group' after 'dies', got 'as group'\n");
}

static void test_bad_probes(void **state)
{
	(void)state;
	bad("type=batch_t dies before type=web_t 8M\n",
	    "s.spec:1:14: error: expected the probe's size in MiB (e.g. 8M) after 'type=batch_t', got 'dies'\n");
	bad("type=batch_t\n",
	    "s.spec:1:13: error: expected the probe's size in MiB (e.g. 8M) after 'type=batch_t'\n");
	bad("type=batch_t 0M is never killed\n",
	    "s.spec:1:14: error: size '0M' out of range (1 to 4096 MiB)\n");
	bad("type=batch_t 8G is never killed\n",
	    "s.spec:1:14: error: invalid size '8G': a number of MiB, optionally followed by M or MiB\n");
	bad("type= 8M is never killed\n",
	    "s.spec:1:1: error: empty SELinux type after 'type='\n");
	bad("type=bad/t 8M is never killed\n",
	    "s.spec:1:1: error: invalid SELinux type 'bad/t'\n");
	bad("context=batch_t 8M is never killed\n",
	    "s.spec:1:1: error: invalid SELinux context 'batch_t': user:role:type[:range]\n");
	bad("smack=-x 8M is never killed\n",
	    "s.spec:1:1: error: invalid Smack label '-x'\n");
	bad("type=batch_t 8M dies before profile=db 30M\n",
	    "s.spec:1:29: error: one expectation is for one LSM: 'profile=db' is an AppArmor label, 'type=batch_t' an SELinux one\n");
	bad("type=batch_t 6M x1 dies as a group\n",
	    "s.spec:1:17: error: group count 'x1' out of range (2 to 16)\n");
	bad("type=batch_t 6M x3 dies before type=web_t 8M\n",
	    "s.spec:1:17: error: a count (x3) is only for 'dies as a group'\n");
	bad("memory 32M\ntype=a_t 20M dies before type=b_t 8M\n",
	    "s.spec:2:1: error: the probes take 28 MiB of memory 32M: leave the grower at least 8 MiB (raise memory or shrink the probes)\n");
	bad("memory 40M\ntype=a_t 12M x3 dies as a group\n",
	    "s.spec:2:1: error: the probes take 36 MiB of memory 40M: leave the grower at least 8 MiB (raise memory or shrink the probes)\n");
}

static void test_bad_settings(void **state)
{
	(void)state;
	bad("memory 8M\ntype=a_t 1M is never killed\n",
	    "s.spec:1:8: error: memory '8M' out of range (16 to 4096 MiB)\n");
	bad("memory\ntype=a_t 1M is never killed\n",
	    "s.spec:1:7: error: memory needs a size (e.g. 96M)\n");
	bad("memory 64M 2\ntype=a_t 1M is never killed\n",
	    "s.spec:1:12: error: unexpected '2' after the setting\n");
	bad("timeout 10\ntimeout 20\ntype=a_t 1M is never killed\n",
	    "s.spec:2:1: error: timeout set twice (first on line 1)\n");
	bad("timeout 0\ntype=a_t 1M is never killed\n",
	    "s.spec:1:9: error: invalid timeout '0': seconds, 1 to 3600\n");
	bad("type=a_t 1M is never killed\nmemory 96M\n",
	    "s.spec:2:1: error: memory must come before the first expectation (line 1)\n");
	bad("grower type=user_t\ngrower type=web_t\ntype=a_t 1M is never killed\n",
	    "s.spec:2:1: error: grower for SELinux set twice (first on line 1)\n");
	bad("grower type=user_t 8M\ntype=a_t 1M is never killed\n",
	    "s.spec:1:20: error: unexpected '8M' after the grower's label (it grows until the OOM)\n");
	bad("grower 8M\ntype=a_t 1M is never killed\n",
	    "s.spec:1:8: error: expected a label (type=, context=, profile= or smack=), got '8M'\n");
}

/* the shipped specs parse */
static void test_shipped(void **state)
{
	static const char *const files[] = {
		TRIAGE_TOP_DIR "/policy/examples/hardened-server.spec",
		TRIAGE_TOP_DIR "/policy/examples/trixie-apparmor-server.spec",
		TRIAGE_TOP_DIR "/policy/selinux/triage-test.spec",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct tc_cf_spec spec;
		char *text = tc_read_file(files[i], 1 << 20, NULL), *out = NULL;

		if (!text)
			fail_msg("cannot read %s", files[i]);
		if (parse(text, &spec, &out))
			fail_msg("%s:\n%s", files[i], out);
		assert_true(spec.nex >= 3);
		free(out);
		free(text);
		tc_cf_free(&spec);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad_statements),
		cmocka_unit_test(test_bad_probes),
		cmocka_unit_test(test_bad_settings),
		cmocka_unit_test(test_shipped),
	};

	return cmocka_run_group_tests_name("conform", tests, NULL, NULL);
}
