// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for triage-pressured (userspace/src/pressured.c, pressfile.c):
 * the pressure file's parser (generation, statements, escaped cgroup
 * paths, malformed input), the trigger texts and paths, the fire request
 * and what each answer means; then the real binary (built with the same
 * sanitizers) run against a temporary directory standing for securityfs,
 * /proc and the cgroup2 mount: what it wrote into the trigger files, its
 * log, its exit codes, its reaction to a new generation and to signals.
 * Last, its documents against the code: the answers and exit codes in
 * triage-pressured(8), the unit, the Debian package's list.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "pressfile.h"
#include "triagectl.h"

#ifndef TRIAGE_PRESSURED_BIN
#error "build with -DTRIAGE_PRESSURED_BIN=\"/path/to/triage-pressured\""
#endif
#ifndef TRIAGE_TOP_DIR
#error "build with -DTRIAGE_TOP_DIR=\"/path/to/the/tree\""
#endif

/* ---------------------------------------------------------------- helpers */

#define assert_contains(hay, needle) do { \
	const char *h_ = (hay), *n_ = (needle); \
	if (!h_ || !strstr(h_, n_)) \
		fail_msg("\"%s\" not in:\n%s", n_, h_ ? h_ : "(null)"); \
} while (0)

#define assert_not_contains(hay, needle) do { \
	const char *h_ = (hay), *n_ = (needle); \
	if (h_ && strstr(h_, n_)) \
		fail_msg("\"%s\" unexpectedly in:\n%s", n_, h_); \
} while (0)

static int parse(const char *text, struct tp_file *f, char *why, size_t n)
{
	return tp_parse(text, strlen(text), f, why, n);
}

static char *slurp(const char *path, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0, n = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	for (;;) {
		size_t r;

		if (n + 4096 + 1 > cap) {
			cap = (n + 4096 + 1) * 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (!r)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static void put(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fail_msg("cannot write %s: %s", path, strerror(errno));
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void puts_at(const char *dir, const char *name, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	put(path, text, strlen(text));
}

static void mkdir_p(const char *path)
{
	char buf[512], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		fail_msg("mkdir %s: %s", buf, strerror(errno));
}

/* ------------------------------------------------------------ the parser */

static const char example[] =
	"generation 7\n"
	"1 full 200000 2000000 - 0\n"
	"2 some 300000 1500000 /batch.slice 2\n";

static void test_parse_example(void **state)
{
	struct tp_file f;
	char why[TP_WHY_MAX];

	(void)state;
	assert_int_equal(parse(example, &f, why, sizeof(why)), 0);
	assert_string_equal(why, "");
	assert_int_equal(f.generation, 7);
	assert_int_equal(f.count, 2);
	assert_int_equal(f.st[0].nr, 1);
	assert_true(f.st[0].full);
	assert_int_equal(f.st[0].stall_us, 200000);
	assert_int_equal(f.st[0].window_us, 2000000);
	assert_true(f.st[0].system);
	assert_int_equal(f.st[0].kills, 0);
	assert_int_equal(f.st[1].nr, 2);
	assert_false(f.st[1].full);
	assert_int_equal(f.st[1].stall_us, 300000);
	assert_int_equal(f.st[1].window_us, 1500000);
	assert_false(f.st[1].system);
	assert_string_equal(f.st[1].path, "/batch.slice");
	assert_string_equal(f.st[1].shown, "/batch.slice");
	assert_int_equal(f.st[1].kills, 2);
}

static void test_parse_no_statement(void **state)
{
	struct tp_file f;
	char why[TP_WHY_MAX];

	(void)state;
	assert_int_equal(parse("generation 0\n", &f, why, sizeof(why)), 0);
	assert_int_equal(f.generation, 0);
	assert_int_equal(f.count, 0);
	assert_int_equal(parse("generation 18446744073709551615\n", &f, why,
			       sizeof(why)), 0);
	assert_int_equal(f.generation, 18446744073709551615ULL);
	assert_int_equal(f.count, 0);
}

static void test_parse_max(void **state)
{
	char text[TP_READ_MAX];
	struct tp_file f;
	char why[TP_WHY_MAX];
	size_t n;
	int i;

	(void)state;
	n = snprintf(text, sizeof(text), "generation 3\n");
	for (i = 1; i <= TRIAGE_PRESSURE_MAX; i++)
		n += snprintf(text + n, sizeof(text) - n,
			      "%d some 100000 1000000 /s%d 0\n", i, i);
	assert_int_equal(tp_parse(text, n, &f, why, sizeof(why)), 0);
	assert_int_equal(f.count, TRIAGE_PRESSURE_MAX);
	assert_string_equal(f.st[TRIAGE_PRESSURE_MAX - 1].path, "/s16");
	/* one more is malformed */
	snprintf(text + n, sizeof(text) - n, "%d some 1 2 - 0\n",
		 TRIAGE_PRESSURE_MAX + 1);
	assert_int_equal(parse(text, &f, why, sizeof(why)), -1);
	assert_contains(why, "line 18: more statements than the kernel's maximum");
}

/* the kernel's escapes (security/triage: \ooo for <= 0x20, >= 0x7f, '\') */
static void test_parse_escaped(void **state)
{
	static const struct {
		const char *shown, *path;
	} cases[] = {
		{ "/batch\\040slice", "/batch slice" },
		{ "/a\\134b", "/a\\b" },
		{ "/tab\\011x/nl\\012y", "/tab\tx/nl\ny" },
		{ "/caf\\303\\251", "/caf\xc3\xa9" },
		{ "/del\\177", "/del\x7f" },
		{ "/x\\101", "/xA" },	/* not needed, but an escape all the same */
		{ "/\\040", "/ " },
		{ "/a.b/..c/.d", "/a.b/..c/.d" },
	};
	char text[256], why[TP_WHY_MAX];
	struct tp_file f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text),
			 "generation 1\n1 some 100000 1000000 %s 0\n",
			 cases[i].shown);
		if (parse(text, &f, why, sizeof(why)))
			fail_msg("%s: %s", cases[i].shown, why);
		assert_false(f.st[0].system);
		assert_string_equal(f.st[0].path, cases[i].path);
		assert_string_equal(f.st[0].shown, cases[i].shown);
	}
}

static void test_parse_long_path(void **state)
{
	char text[2 * TP_ESC_MAX], why[TP_WHY_MAX], *p;
	struct tp_file f;
	int n, i;

	(void)state;
	/* the kernel's longest value: 255 bytes, each escaped */
	n = snprintf(text, sizeof(text), "generation 1\n1 some 1 2 /");
	for (i = 0; i < TRIAGE_VALUE_MAX_LEN - 1; i++)
		n += snprintf(text + n, sizeof(text) - n, "\\040");
	snprintf(text + n, sizeof(text) - n, " 0\n");
	assert_int_equal(parse(text, &f, why, sizeof(why)), 0);
	assert_int_equal(strlen(f.st[0].path), TRIAGE_VALUE_MAX_LEN);
	/* one byte more does not fit */
	p = strstr(text, " 0\n");
	memmove(p + 4, p, strlen(p) + 1);
	memcpy(p, "\\040", 4);
	assert_int_equal(parse(text, &f, why, sizeof(why)), -1);
	assert_contains(why, "cgroup path too long");
}

static void test_parse_malformed(void **state)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "", "line 1: not \"generation G\"" },
		{ "generation 7", "line 1: not \"generation G\"" },
		{ "generation\n", "line 1:" },
		{ "generation \n", "line 1:" },
		{ "generation -1\n", "line 1:" },
		{ "generation +1\n", "line 1:" },
		{ "generation 07\n", "line 1:" },
		{ "generation 7 \n", "line 1:" },
		{ "generation  7\n", "line 1:" },
		{ "Generation 7\n", "line 1:" },
		{ "generation 18446744073709551616\n", "line 1:" },
		{ "generation 7\n1 full 200000 2000000 - 0", "line 2: no newline at the end" },
		{ "generation 7\n\n", "line 2: fewer than 6 fields" },
		{ "generation 7\n1 full 200000 2000000 -\n", "line 2: fewer than 6 fields" },
		{ "generation 7\n1 full 200000 2000000 - 0 9\n", "line 2: more than 6 fields" },
		{ "generation 7\n1 full  200000 2000000 - 0\n", "line 2: empty field" },
		{ "generation 7\n1 full 200000 2000000 - 0 \n", "line 2: empty field" },
		{ " generation 7\n", "line 1:" },
		{ "generation 7\n1\tfull 200000 2000000 - 0\n", "line 2: fewer than 6 fields" },
		{ "generation 7\n1x full 200000 2000000 - 0\n", "line 2: bad statement number" },
		{ "generation 7\n01 full 200000 2000000 - 0\n", "line 2: bad statement number" },
		{ "generation 7\n2 full 200000 2000000 - 0\n", "line 2: statement numbers out of order" },
		{ "generation 7\n0 full 200000 2000000 - 0\n", "line 2: statement numbers out of order" },
		{ "generation 7\n1 full 1 2 - 0\n1 full 1 2 /a 0\n", "line 3: statement numbers out of order" },
		{ "generation 7\n1 Full 200000 2000000 - 0\n", "line 2: kind neither some nor full" },
		{ "generation 7\n1 any 200000 2000000 - 0\n", "line 2: kind neither some nor full" },
		{ "generation 7\n1 full 0 2000000 - 0\n", "line 2: bad stall threshold" },
		{ "generation 7\n1 full -5 2000000 - 0\n", "line 2: bad stall threshold" },
		{ "generation 7\n1 full 1000000000000001 1000000000000001 - 0\n", "line 2: bad stall threshold" },
		{ "generation 7\n1 full 200000 0 - 0\n", "line 2: bad window" },
		{ "generation 7\n1 full 200000 2s - 0\n", "line 2: bad window" },
		{ "generation 7\n1 full 2000001 2000000 - 0\n", "line 2: stall threshold longer than the window" },
		{ "generation 7\n1 full 200000 2000000 - x\n", "line 2: bad kill count" },
		{ "generation 7\n1 full 200000 2000000 - -1\n", "line 2: bad kill count" },
		{ "generation 7\n1 full 200000 2000000 -- 0\n", "line 2: cgroup path not absolute" },
		{ "generation 7\n1 full 200000 2000000 batch.slice 0\n", "line 2: cgroup path not absolute" },
		{ "generation 7\n1 full 200000 2000000 / 0\n", "line 2: cgroup path not absolute, or \"/\"" },
		{ "generation 7\n1 full 200000 2000000 /a/ 0\n", "ending in '/'" },
		{ "generation 7\n1 full 200000 2000000 /a//b 0\n", "line 2: empty, \".\" or \"..\" component" },
		{ "generation 7\n1 full 200000 2000000 /a/./b 0\n", "line 2: empty, \".\" or \"..\" component" },
		{ "generation 7\n1 full 200000 2000000 /.. 0\n", "line 2: empty, \".\" or \"..\" component" },
		{ "generation 7\n1 full 200000 2000000 /a/\\056\\056/b 0\n", "line 2: empty, \".\" or \"..\" component" },
		{ "generation 7\n1 full 200000 2000000 /a\\080 0\n", "line 2: bad escape in cgroup path" },
		{ "generation 7\n1 full 200000 2000000 /a\\400 0\n", "line 2: bad escape in cgroup path" },
		{ "generation 7\n1 full 200000 2000000 /a\\x41 0\n", "line 2: bad escape in cgroup path" },
		{ "generation 7\n1 full 200000 2000000 /a\\\\123 0\n", "line 2: bad escape in cgroup path" },
		{ "generation 7\n1 full 200000 2000000 /a\\000b 0\n", "line 2: NUL in cgroup path" },
		{ "generation 7\n1 full 200000 2000000 /a\\04 0\n", "line 2: cut escape in cgroup path" },
		{ "generation 7\n1 full 200000 2000000 /a\\ 0\n", "line 2: cut escape in cgroup path" },
		{ "generation 7\n1 full 200000 2000000 /a\tb 0\n", "line 2: unescaped byte in cgroup path" },
		{ "generation 7\n1 full 200000 2000000 /caf\xc3\xa9 0\n", "line 2: unescaped byte in cgroup path" },
		{ "generation 7\n1 full 200000 2000000 /a\r 0\n", "line 2: unescaped byte in cgroup path" },
	};
	struct tp_file f;
	char why[TP_WHY_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (parse(cases[i].text, &f, why, sizeof(why)) != -1)
			fail_msg("case %zu parsed: %s", i, cases[i].text);
		if (!strstr(why, cases[i].why))
			fail_msg("case %zu: \"%s\" not in \"%s\"", i,
				 cases[i].why, why);
	}
	/* a NUL anywhere: the text is what the kernel wrote, not a C string */
	assert_int_equal(tp_parse("generation 7\n\0", 14, &f, why, sizeof(why)), -1);
	assert_contains(why, "NUL byte");
	/* no reason asked for */
	assert_int_equal(tp_parse("x", 1, &f, NULL, 0), -1);
}

static void test_parse_generation(void **state)
{
	unsigned long long g = 0;

	(void)state;
	assert_int_equal(tp_parse_generation("generation 12\n1 fu", 18, &g), 0);
	assert_int_equal(g, 12);
	assert_int_equal(tp_parse_generation(example, strlen(example), &g), 0);
	assert_int_equal(g, 7);
	assert_int_equal(tp_parse_generation("generation 12", 13, &g), -1);
	assert_int_equal(tp_parse_generation("generation x\n", 13, &g), -1);
	assert_int_equal(tp_parse_generation("", 0, &g), -1);
}

/* --------------------------------------------- descriptions and triggers */

static struct tp_stmt stmt(unsigned int nr, bool full, unsigned long long stall,
			   unsigned long long window, const char *shown)
{
	char text[256], why[TP_WHY_MAX];
	struct tp_file f;

	snprintf(text, sizeof(text), "generation 1\n%s%u %s %llu %llu %s 0\n",
		 nr == 2 ? "1 some 1 1 - 0\n" : "", nr, full ? "full" : "some",
		 stall, window, shown ? shown : "-");
	if (parse(text, &f, why, sizeof(why)))
		fail_msg("%s: %s", text, why);
	return f.st[nr - 1];
}

static void test_describe(void **state)
{
	static const struct {
		bool full;
		unsigned long long stall, window;
		const char *scope, *text;
	} cases[] = {
		{ true, 200000, 2000000, NULL, "statement 1 (full 10% of 2s, system)" },
		{ false, 300000, 1500000, "/batch.slice", "statement 1 (some 20% of 1.5s, cgroup /batch.slice)" },
		{ false, 125000, 1000000, NULL, "statement 1 (some 12.5% of 1s, system)" },
		{ false, 1000000, 3000000, NULL, "statement 1 (some 33.3% of 3s, system)" },
		{ false, 2000000, 3000000, NULL, "statement 1 (some 66.7% of 3s, system)" },
		{ true, 500000, 500000, NULL, "statement 1 (full 100% of 500ms, system)" },
		{ true, 5000, 500000, NULL, "statement 1 (full 1% of 500ms, system)" },
		{ true, 1, 10000000, NULL, "statement 1 (full 0.0% of 10s, system)" },
		{ true, 100000, 1250000, NULL, "statement 1 (full 8% of 1.25s, system)" },
		{ true, 100000, 1001000, NULL, "statement 1 (full 10.0% of 1.001s, system)" },
		{ true, 1000, 999999, NULL, "statement 1 (full 0.1% of 999999us, system)" },
		{ false, 100000, 1000000, "/batch\\040slice", "statement 1 (some 10% of 1s, cgroup /batch\\040slice)" },
	};
	char buf[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tp_stmt s = stmt(1, cases[i].full, cases[i].stall,
					cases[i].window, cases[i].scope);

		assert_ptr_equal(tp_describe(&s, buf, sizeof(buf)), buf);
		assert_string_equal(buf, cases[i].text);
	}
	{
		struct tp_stmt s = stmt(2, false, 300000, 1500000, "/b");

		assert_string_equal(tp_describe(&s, buf, sizeof(buf)),
				    "statement 2 (some 20% of 1.5s, cgroup /b)");
	}
}

static void test_trigger(void **state)
{
	struct tp_stmt sys = stmt(1, true, 200000, 2000000, NULL);
	struct tp_stmt cg = stmt(1, false, 300000, 1500000, "/batch\\040slice/job");
	char buf[512], tiny[16];

	(void)state;
	assert_int_equal(tp_trigger_text(&sys, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "full 200000 2000000");
	assert_int_equal(tp_trigger_text(&cg, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "some 300000 1500000");
	assert_int_equal(tp_trigger_text(&cg, tiny, sizeof(tiny)), -1);

	assert_int_equal(tp_trigger_path(&sys, "/proc", "/sys/fs/cgroup", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/proc/pressure/memory");
	assert_int_equal(tp_trigger_path(&cg, "/proc", "/sys/fs/cgroup", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/fs/cgroup/batch slice/job/memory.pressure");
	assert_int_equal(tp_trigger_path(&cg, "/proc", "/sys/fs/cgroup//", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/sys/fs/cgroup/batch slice/job/memory.pressure");
	assert_int_equal(tp_trigger_path(&cg, "/proc", "/", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/batch slice/job/memory.pressure");
	assert_int_equal(tp_trigger_path(&cg, "/proc", "cg", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "cg/batch slice/job/memory.pressure");
	assert_int_equal(tp_trigger_path(&cg, "/proc", "/sys/fs/cgroup", tiny, sizeof(tiny)), -1);
	assert_int_equal(tp_trigger_path(&sys, "/proc", "/", tiny, sizeof(tiny)), -1);
}

static void test_mountinfo(void **state)
{
	char line[512], out[256], tiny[8];

	(void)state;
	strcpy(line, "36 25 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n");
	assert_true(tp_mountinfo_cgroup2(line, out, sizeof(out)));
	assert_string_equal(out, "/sys/fs/cgroup");
	/* no optional field; a blank and a backslash in the mount point */
	strcpy(line, "40 30 0:37 / /tmp/cg\\040root\\134x rw,relatime - cgroup2 none rw\n");
	assert_true(tp_mountinfo_cgroup2(line, out, sizeof(out)));
	assert_string_equal(out, "/tmp/cg root\\x");
	strcpy(line, "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime master:3 shared:4 - cgroup2 cgroup2 rw\n");
	assert_true(tp_mountinfo_cgroup2(line, out, sizeof(out)));
	assert_string_equal(out, "/sys/fs/cgroup/unified");
	strcpy(line, "40 30 0:37 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
	assert_false(tp_mountinfo_cgroup2(line, tiny, sizeof(tiny)));
	/* not cgroup2 */
	strcpy(line, "41 30 0:38 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n");
	assert_false(tp_mountinfo_cgroup2(line, out, sizeof(out)));
	strcpy(line, "42 30 0:39 / /cgroup2 rw - tmpfs cgroup2 rw\n");
	assert_false(tp_mountinfo_cgroup2(line, out, sizeof(out)));
	strcpy(line, "garbage - cgroup2 x\n");
	assert_false(tp_mountinfo_cgroup2(line, out, sizeof(out)));
	strcpy(line, "");
	assert_false(tp_mountinfo_cgroup2(line, out, sizeof(out)));
}

/* ------------------------------------------------- fire and its answers */

static char fired[128];
static size_t fired_len;
static off_t fired_off;
static int fire_calls, fire_eintr;
static int fire_errno;		/* the refusal of the fake kernel, or 0 */
static ssize_t fire_short;	/* a short write, when > 0 */

static ssize_t fake_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	assert_int_equal(fd, 42);
	fire_calls++;
	assert_true(len < sizeof(fired));
	memcpy(fired, buf, len);
	fired[len] = '\0';
	fired_len = len;
	fired_off = off;
	if (fire_eintr) {
		fire_eintr--;
		errno = EINTR;
		return -1;
	}
	if (fire_errno) {
		errno = fire_errno;
		return -1;
	}
	return fire_short ? fire_short : (ssize_t)len;
}

static void test_fire_request(void **state)
{
	(void)state;
	fire_calls = fire_eintr = fire_errno = 0;
	fire_short = 0;
	assert_int_equal(tp_fire(42, fake_pwrite, 7, 2), 0);
	assert_int_equal(fire_calls, 1);
	assert_string_equal(fired, "fire 7 2\n");
	assert_int_equal(fired_len, 9);
	assert_int_equal(fired_off, 0);
	assert_int_equal(tp_fire(42, fake_pwrite, 18446744073709551615ULL, 16), 0);
	assert_string_equal(fired, "fire 18446744073709551615 16\n");
	/* interrupted: asked again, once */
	fire_calls = 0;
	fire_eintr = 1;
	assert_int_equal(tp_fire(42, fake_pwrite, 3, 1), 0);
	assert_int_equal(fire_calls, 2);
	/* a short write is no answer */
	fire_short = 4;
	assert_int_equal(tp_fire(42, fake_pwrite, 3, 1), EIO);
	fire_short = 0;
}

static void test_fire_answers(void **state)
{
	static const struct {
		int err;
		enum tp_action action;
		const char *text;
	} cases[] = {
		{ 0, TP_KILLED, "killed" },
		{ ESTALE, TP_REREAD, "not killed: a policy was loaded since; re-reading it (ESTALE)" },
		{ EINVAL, TP_REREAD, "not killed: the kernel does not know this statement; re-reading the policy (EINVAL)" },
		{ ENOENT, TP_NOT_KILLED, "not killed: its cgroup does not exist (ENOENT)" },
		{ EOPNOTSUPP, TP_NOT_KILLED, "not killed: its cgroup has no memory controller of its own (EOPNOTSUPP)" },
		{ EAGAIN, TP_NOT_KILLED, "not killed: an OOM or early kill came less than the hold-off (10 s) ago (EAGAIN)" },
		{ ENODATA, TP_NOT_KILLED, "not killed: the system is not short of memory: the pressure is a memory cgroup's own (ENODATA)" },
		{ EBUSY, TP_NOT_KILLED, "not killed: an earlier victim is still exiting (EBUSY)" },
		{ ESRCH, TP_NOT_KILLED, "not killed: nothing in its scope may be taken (no sacrificed task) (ESRCH)" },
		{ ECANCELED, TP_NOT_KILLED, "not killed: the policy is in permissive mode (a would-kill is recorded) (ECANCELED)" },
		{ EPERM, TP_FAILED, "not killed: no permission (CAP_MAC_ADMIN) (EPERM)" },
		{ EACCES, TP_FAILED, "not killed: no permission (an LSM denied the write) (EACCES)" },
		{ EINTR, TP_NOT_KILLED, "not killed: interrupted (EINTR)" },
		{ EIO, TP_FAILED, "not killed: Input/output error (errno 5)" },
		{ ENOMEM, TP_FAILED, "not killed: Cannot allocate memory (errno 12)" },
	};
	char buf[160];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int e = cases[i].err;

		if (e && e != EINTR) {
			fire_errno = e;
			assert_int_equal(tp_fire(42, fake_pwrite, 9, 1), e);
			fire_errno = 0;
		}
		assert_int_equal(tp_fire_action(e), cases[i].action);
		assert_ptr_equal(tp_fire_text(e, buf, sizeof(buf)), buf);
		assert_string_equal(buf, cases[i].text);
		if (cases[i].action != TP_KILLED && e != EIO && e != ENOMEM)
			assert_non_null(tp_errno_name(e));
	}
	assert_null(tp_errno_name(0));
	assert_null(tp_errno_name(EIO));
	assert_string_equal(tp_errno_name(EBUSY), "EBUSY");
	/* a small buffer cuts, never overruns */
	tp_fire_text(EBUSY, buf, 8);
	assert_string_equal(buf, "not kil");
}

/* ------------------------------------------------------- the real binary */

struct tree {
	char root[64];
	char sec[128], proc[128], cg[128];
	char out[128], err[128];
};

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	char path[256];

	assert_non_null(t);
	snprintf(t->root, sizeof(t->root), "/tmp/triage-pressured-test.XXXXXX");
	assert_non_null(mkdtemp(t->root));
	chmod(t->root, 0755);
	snprintf(t->sec, sizeof(t->sec), "%s/sec", t->root);
	snprintf(t->proc, sizeof(t->proc), "%s/proc", t->root);
	snprintf(t->cg, sizeof(t->cg), "%s/cg", t->root);
	snprintf(t->out, sizeof(t->out), "%s/stdout", t->root);
	snprintf(t->err, sizeof(t->err), "%s/stderr", t->root);
	mkdir_p(t->sec);
	snprintf(path, sizeof(path), "%s/self", t->proc);
	mkdir_p(path);
	snprintf(path, sizeof(path), "%s/pressure", t->proc);
	mkdir_p(path);
	puts_at(t->proc, "self/oom_score_adj", "");
	puts_at(t->proc, "pressure/memory", "");
	puts_at(t->proc, "self/mountinfo",
		"22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n");
	mkdir_p(t->cg);
	*state = t;
	return 0;
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;

	nftw(t->root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(t);
	return 0;
}

/* a cgroup directory with an empty memory.pressure */
static void tree_cgroup(const struct tree *t, const char *path)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s%s", t->cg, path);
	mkdir_p(dir);
	puts_at(dir, "memory.pressure", "");
}

/*
 * Start the daemon with @args (NULL-terminated) and the tree's options
 * (when @opts), stdout and stderr into the tree's files.  @as_nobody: as
 * uid 65534 when run by root.
 */
static pid_t start(const struct tree *t, bool opts, bool as_nobody,
		   const char *const *args)
{
	const char *argv[32];
	int n = 0, i;
	pid_t pid;

	argv[n++] = TRIAGE_PRESSURED_BIN;
	if (opts) {
		argv[n++] = "--securityfs";
		argv[n++] = t->sec;
		argv[n++] = "--proc";
		argv[n++] = t->proc;
		argv[n++] = "--no-mlock";
	}
	for (i = 0; args[i]; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int o = open(t->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(t->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		if (as_nobody && getuid() == 0 &&
		    (setgroups(0, NULL) || setgid(65534) || setuid(65534)))
			_exit(125);
		execv(argv[0], (char **)argv);
		_exit(as_nobody ? 125 : 127);
	}
	return pid;
}

static int finish(pid_t pid)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static int run(struct tree *t, bool opts, char **out, char **err,
	       const char *const *args)
{
	int rc = finish(start(t, opts, false, args));

	*out = slurp(t->out, NULL);
	*err = slurp(t->err, NULL);
	assert_non_null(*out);
	assert_non_null(*err);
	return rc;
}

/* every line of the log: "triage-pressured: [SECONDS.MILLIS] ..." */
static void assert_log_lines(const char *log)
{
	const char *l = log;

	while (*l) {
		const char *nl = strchr(l, '\n');
		unsigned long long s;
		unsigned int ms;
		int n = 0;

		assert_non_null(nl);
		if (sscanf(l, "triage-pressured: [%llu.%3u]%n", &s, &ms, &n) != 2 ||
		    n < 24 || l[n] != ' ' || l[n - 5] != '.')
			fail_msg("log line without its timestamp: %.*s",
				 (int)(nl - l), l);
		l = nl + 1;
	}
}

static void test_bin_once_armed(void **state)
{
	static const char *const args[] = { "--cgroup-root", NULL, "--once-armed", NULL };
	struct tree *t = *state;
	const char *a[4] = { args[0], t->cg, args[2], NULL };
	char *out, *err, *trig, path[512];
	size_t len;

	puts_at(t->sec, "pressure",
		"generation 7\n"
		"1 full 200000 2000000 - 0\n"
		"2 some 300000 1500000 /batch\\040slice/x\\134y 2\n");
	tree_cgroup(t, "/batch slice/x\\y");
	assert_int_equal(run(t, true, &out, &err, a), 0);

	/* the trigger files hold "KIND STALL WINDOW" and its NUL */
	snprintf(path, sizeof(path), "%s/pressure/memory", t->proc);
	trig = slurp(path, &len);
	assert_int_equal(len, strlen("full 200000 2000000") + 1);
	assert_memory_equal(trig, "full 200000 2000000", len);
	free(trig);
	snprintf(path, sizeof(path), "%s/batch slice/x\\y/memory.pressure", t->cg);
	trig = slurp(path, &len);
	assert_int_equal(len, strlen("some 300000 1500000") + 1);
	assert_memory_equal(trig, "some 300000 1500000", len);
	free(trig);

	/* what it armed, on stdout */
	snprintf(path, sizeof(path),
		 "statement 1 (full 10%% of 2s, system): armed: full 200000 2000000 on %s/pressure/memory\n"
		 "statement 2 (some 20%% of 1.5s, cgroup /batch\\040slice/x\\134y): armed: some 300000 1500000 on %s/batch slice/x\\y/memory.pressure\n",
		 t->proc, t->cg);
	assert_string_equal(out, path);
	/* its log */
	assert_log_lines(err);
	assert_contains(err, "] generation 7: 2 pressure statements\n");
	assert_contains(err, "] statement 1 (full 10% of 2s, system): armed: full 200000 2000000 on ");
	/* oom_score_adj */
	snprintf(path, sizeof(path), "%s/self/oom_score_adj", t->proc);
	free(out);
	out = slurp(path, NULL);
	assert_string_equal(out, "-1000");
	/* the pressure file is read, never written, when nothing fires */
	free(out);
	snprintf(path, sizeof(path), "%s/pressure", t->sec);
	out = slurp(path, NULL);
	assert_string_equal(out, "generation 7\n"
			    "1 full 200000 2000000 - 0\n"
			    "2 some 300000 1500000 /batch\\040slice/x\\134y 2\n");
	free(out);
	free(err);
}

/* the cgroup2 mount from PROC/self/mountinfo, escapes decoded */
static void test_bin_mountinfo(void **state)
{
	static const char *const args[] = { "--once-armed", NULL };
	struct tree *t = *state;
	char mi[1024], dir[256], *out, *err, *trig;

	snprintf(dir, sizeof(dir), "%s/cg root", t->root);
	mkdir_p(dir);
	snprintf(mi, sizeof(mi),
		 "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
		 "35 22 0:29 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
		 "36 22 0:30 / %s/cg\\040root rw,nosuid shared:9 - cgroup2 cgroup2 rw\n",
		 t->root);
	puts_at(t->proc, "self/mountinfo", mi);
	puts_at(t->sec, "pressure", "generation 2\n1 some 100000 1000000 /a 0\n");
	snprintf(mi, sizeof(mi), "%s/a", dir);
	mkdir_p(mi);
	puts_at(mi, "memory.pressure", "");
	assert_int_equal(run(t, true, &out, &err, args), 0);
	strcat(mi, "/memory.pressure");
	trig = slurp(mi, NULL);
	assert_string_equal(trig, "some 100000 1000000");
	assert_contains(out, "cgroup /a): armed: some 100000 1000000 on ");
	assert_contains(out, "/cg root/a/memory.pressure\n");
	free(trig);
	free(out);
	free(err);
}

static void test_bin_not_armed(void **state)
{
	static const char *const args[] = { "--cgroup-root", NULL, "--once-armed", NULL };
	struct tree *t = *state;
	const char *a[4] = { args[0], t->cg, args[2], NULL };
	char *out, *err;

	puts_at(t->sec, "pressure",
		"generation 9\n1 full 200000 2000000 - 0\n2 some 1 2 /gone 0\n");
	assert_int_equal(run(t, true, &out, &err, a), TC_EXIT_ERROR);
	assert_contains(out, "statement 1 (full 10% of 2s, system): armed: ");
	assert_contains(out, "statement 2 (some 50% of 2us, cgroup /gone): not armed: ");
	assert_contains(out, "/cg/gone/memory.pressure: No such file or directory\n");
	assert_log_lines(err);
	assert_contains(err, "/cg/gone/memory.pressure: No such file or directory (no such cgroup now); trying again every 2 s\n");
	free(out);
	free(err);
}

static void test_bin_idle(void **state)
{
	static const char *const args[] = { "--once-armed", NULL };
	struct tree *t = *state;
	char *out, *err;

	puts_at(t->sec, "pressure", "generation 3\n");
	assert_int_equal(run(t, true, &out, &err, args), 0);
	assert_string_equal(out, "generation 3: no pressure statement: nothing to arm\n");
	assert_contains(err, "generation 3: the policy in force has no pressure statement (or there is no policy): early action is off; idling\n");
	free(out);
	free(err);
}

static void test_bin_malformed(void **state)
{
	static const char *const args[] = { "--once-armed", NULL };
	struct tree *t = *state;
	char *out, *err;

	puts_at(t->sec, "pressure", "generation 3\n1 full 1 2 /a\\080 0\n");
	assert_int_equal(run(t, true, &out, &err, args), TC_EXIT_ERROR);
	assert_string_equal(out, "");
	assert_contains(err, "/sec/pressure: line 2: bad escape in cgroup path; keeping generation 0\n");
	free(out);
	free(err);
}

static void test_bin_usage(void **state)
{
	static const char *const bad[][4] = {
		{ "--bogus", NULL },
		{ "--proc", NULL },
		{ "--securityfs=", NULL },
		{ "extra", NULL },
		{ "--cgroup-root", "", NULL },
	};
	static const char *const reasons[] = {
		"triage-pressured: unknown option --bogus; see triage-pressured --help\n",
		"triage-pressured: --proc needs a directory; see triage-pressured --help\n",
		"triage-pressured: --securityfs: empty directory; see triage-pressured --help\n",
		"triage-pressured: unexpected argument extra; see triage-pressured --help\n",
		"triage-pressured: --cgroup-root: empty directory; see triage-pressured --help\n",
	};
	static const char *const version[] = { "--version", NULL };
	static const char *const help[] = { "--help", NULL };
	struct tree *t = *state;
	char *out, *err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(run(t, false, &out, &err, bad[i]), TC_EXIT_USAGE);
		assert_string_equal(out, "");
		assert_string_equal(err, reasons[i]);
		free(out);
		free(err);
	}
	assert_int_equal(run(t, false, &out, &err, version), 0);
	assert_string_equal(out, "triage-pressured " TC_VERSION "\n");
	assert_string_equal(err, "");
	free(out);
	free(err);
	assert_int_equal(run(t, false, &out, &err, help), 0);
	assert_contains(out, "usage: triage-pressured [--securityfs DIR]");
	assert_contains(out, "--once-armed");
	assert_string_equal(err, "");
	free(out);
	free(err);
}

static void test_bin_unavailable_and_perm(void **state)
{
	static const char *const once[] = { "--once-armed", NULL };
	struct tree *t = *state;
	char *out, *err, path[256];
	int rc;

	/* no pressure file: 3 */
	assert_int_equal(run(t, true, &out, &err, once), TC_EXIT_UNAVAILABLE);
	assert_contains(err, "/sec/pressure: No such file or directory: no triage early action here");
	free(out);
	free(err);
	/* a file it may not open: 4, EACCES named */
	puts_at(t->sec, "pressure", "generation 1\n");
	snprintf(path, sizeof(path), "%s/pressure", t->sec);
	chmod(path, 0600);
	if (getuid() != 0)
		chmod(path, 0);
	rc = finish(start(t, true, true, once));
	err = slurp(t->err, NULL);
	assert_non_null(err);
	if (rc == 125) {
		free(err);
		skip();		/* root that cannot become nobody, or run it */
	}
	assert_int_equal(rc, TC_EXIT_PERM);
	assert_contains(err, "/sec/pressure: Permission denied (EACCES): it needs CAP_MAC_ADMIN");
	free(err);
}

/* the log, re-read until @needle is in it (at most 10 s) */
static char *wait_log(const struct tree *t, const char *needle)
{
	int i;

	for (i = 0; i < 1000; i++) {
		char *log = slurp(t->err, NULL);

		if (log && strstr(log, needle))
			return log;
		free(log);
		usleep(10000);
	}
	fail_msg("\"%s\" never logged:\n%s", needle, slurp(t->err, NULL));
	return NULL;
}

/*
 * The daemon running: a new generation is found by the 2 s check and its
 * statements armed; SIGHUP re-reads; a trigger that cannot be armed is
 * retried and logged once; SIGTERM stops it with 0.
 */
static void test_bin_loop(void **state)
{
	static const char *const args[] = { "--cgroup-root", NULL, "--verbose", NULL };
	struct tree *t = *state;
	const char *a[4] = { args[0], t->cg, args[2], NULL };
	char *log, path[512], *trig;
	struct timespec t0, t1;
	pid_t pid;
	double dt;

	puts_at(t->sec, "pressure", "generation 7\n1 full 200000 2000000 - 0\n");
	pid = start(t, true, false, a);
	log = wait_log(t, "statement 1 (full 10% of 2s, system): armed");
	free(log);
	snprintf(path, sizeof(path), "%s/pressure/memory", t->proc);

	/* a new policy: another statement, and one whose cgroup comes later */
	puts_at(t->proc, "pressure/memory", "");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	puts_at(t->sec, "pressure",
		"generation 8\n1 some 150000 1000000 - 0\n2 full 1 2 /later 0\n");
	log = wait_log(t, "statement 1 (some 15% of 1s, system): armed: some 150000 1000000 on ");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	dt = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	assert_true(dt < 5.0);	/* the 2 s check, on a busy machine */
	assert_contains(log, "] generation 7 -> 8: a policy was loaded; re-reading\n");
	assert_contains(log, "/later/memory.pressure: No such file or directory (no such cgroup now); trying again every 2 s\n");
	free(log);
	trig = slurp(path, NULL);
	assert_string_equal(trig, "some 150000 1000000");
	free(trig);

	/* the cgroup appears: armed at a later check, the failure logged once */
	tree_cgroup(t, "/later");
	log = wait_log(t, "statement 2 (full 50% of 2us, cgroup /later): armed: full 1 2 on ");
	{
		const char *first = strstr(log, "/later/memory.pressure: No such file");

		assert_non_null(first);
		assert_null(strstr(first + 1, "/later/memory.pressure: No such file"));
	}
	free(log);

	/* SIGHUP: read again, armed again */
	puts_at(t->proc, "pressure/memory", "");
	assert_int_equal(kill(pid, SIGHUP), 0);
	log = wait_log(t, "SIGHUP: re-reading ");
	free(log);
	for (int i = 0; i < 500; i++) {
		trig = slurp(path, NULL);
		if (trig && *trig)
			break;
		free(trig);
		trig = NULL;
		usleep(10000);
	}
	assert_non_null(trig);
	assert_string_equal(trig, "some 150000 1000000");
	free(trig);

	/* a policy without statements: idles and says so once */
	puts_at(t->sec, "pressure", "generation 9\n");
	log = wait_log(t, "generation 9: the policy in force has no pressure statement");
	free(log);

	assert_int_equal(kill(pid, SIGTERM), 0);
	assert_int_equal(finish(pid), 0);
	log = slurp(t->err, NULL);
	assert_contains(log, "] stopping (SIGTERM)\n");
	assert_log_lines(log);
	free(log);
}

/* --------------------------------------------- the documents and the code */

static void test_documents(void **state)
{
	static const int answers[] = { ESTALE, EINVAL, ENOENT, EOPNOTSUPP,
				       EAGAIN, EBUSY, ESRCH, ECANCELED, EPERM,
				       EACCES };
	char *man, *unit, *inst, *rules, *writing, want[128];
	const char *end;
	size_t i;

	(void)state;
	man = slurp(TRIAGE_TOP_DIR "/userspace/man/triage-pressured.8", NULL);
	unit = slurp(TRIAGE_TOP_DIR "/userspace/systemd/triage-pressured.service", NULL);
	inst = slurp(TRIAGE_TOP_DIR "/debian/triagectl.install", NULL);
	rules = slurp(TRIAGE_TOP_DIR "/debian/rules", NULL);
	assert_non_null(man);
	assert_non_null(unit);
	assert_non_null(inst);
	assert_non_null(rules);
	/* every answer the daemon knows is in the man page's list */
	writing = strstr(man, "\n.SS Writing\n");
	assert_non_null(writing);
	end = strstr(writing, "\n.SH ");
	assert_non_null(end);
	writing = strndup(writing, end - writing);
	for (i = 0; i < sizeof(answers) / sizeof(answers[0]); i++) {
		const char *name = tp_errno_name(answers[i]);

		assert_non_null(name);
		snprintf(want, sizeof(want), "\n.B %s\n", name);
		if (!strstr(writing, want)) {
			snprintf(want, sizeof(want), "\n.BR %s ", name);
			if (!strstr(writing, want))
				snprintf(want, sizeof(want), "\n.BR EPERM \", \" %s\n", name);
			assert_contains(writing, want);
		}
	}
	free(writing);
	/* the exit codes */
	snprintf(want, sizeof(want), ".SH EXIT STATUS\n.TP\n.B %d\n", TC_EXIT_OK);
	assert_contains(man, want);
	for (i = TC_EXIT_ERROR; i <= TC_EXIT_PERM; i++) {
		snprintf(want, sizeof(want), "\n.TP\n.B %zu\n", i);
		assert_contains(man, want);
	}
	snprintf(want, sizeof(want), "RestartPreventExitStatus=%d %d %d\n",
		 TC_EXIT_USAGE, TC_EXIT_UNAVAILABLE, TC_EXIT_PERM);
	assert_contains(unit, want);
	assert_contains(unit, "\nExecStart=@SBINDIR@/triage-pressured\n");
	assert_contains(unit, "Documentation=man:triage-pressured(8)");
	assert_contains(unit, "\nOOMScoreAdjust=-1000\n");
	assert_contains(unit, "\nLimitMEMLOCK=infinity\n");
	assert_contains(unit, "\nRestart=always\n");
	assert_contains(unit, "\nAfter=triage-policy.service\n");
	assert_not_contains(unit, "\nProtectSystem=");
	assert_not_contains(unit, "\nProtectKernelTunables=");
	assert_not_contains(unit, "\nProtectControlGroups=");
	assert_contains(man, "ships it\n.BR enabled .");
	/* the package ships the daemon, its man page and its unit */
	assert_contains(inst, "\nusr/sbin/triage-pressured\n");
	assert_contains(inst, "\nusr/share/man/man8/triage-pressured.8\n");
	assert_contains(rules, "/triage-pressured.service");
	assert_contains(rules, "$(B)/userspace/triage-pressured");
	free(man);
	free(unit);
	free(inst);
	free(rules);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_example),
		cmocka_unit_test(test_parse_no_statement),
		cmocka_unit_test(test_parse_max),
		cmocka_unit_test(test_parse_escaped),
		cmocka_unit_test(test_parse_long_path),
		cmocka_unit_test(test_parse_malformed),
		cmocka_unit_test(test_parse_generation),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_trigger),
		cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_fire_request),
		cmocka_unit_test(test_fire_answers),
		cmocka_unit_test_setup_teardown(test_bin_once_armed, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_bin_mountinfo, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_bin_not_armed, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_bin_idle, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_bin_malformed, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_bin_usage, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_bin_unavailable_and_perm, tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_bin_loop, tree_setup, tree_teardown),
		cmocka_unit_test(test_documents),
	};

	return cmocka_run_group_tests_name("triage-pressured", tests, NULL, NULL);
}
