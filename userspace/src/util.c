// SPDX-License-Identifier: GPL-2.0
/* triagectl: files, tables, JSON strings, edit distance, canonical text. */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "triagectl.h"

void *tc_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fputs("triagectl: out of memory\n", stderr);
		exit(TC_EXIT_ERROR);
	}
	return p;
}

char *tc_strdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(tc_xmalloc(n), s, n);
}

void tc_chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

/*
 * Read a whole file (also from proc and securityfs, whose size is 0) into
 * a NUL-terminated buffer.  At most max bytes are kept; one more is read
 * so that the caller can tell "exactly max" from "larger".  Closes fd.
 */
char *tc_read_fd(int fd, size_t max, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf;
	ssize_t r;
	int saved;

	buf = tc_xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			char *nb;

			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			saved = errno;
			free(buf);
			close(fd);
			errno = saved;
			return NULL;
		}
		if (r == 0)
			break;
		n += r;
		if (n > max)
			break;
	}
	close(fd);
	if (n > max + 1)
		n = max + 1;
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

char *tc_read_file(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? NULL : tc_read_fd(fd, max, len);
}

char *tc_read_input(const char *path, size_t max, size_t *len)
{
	if (!strcmp(path, "-")) {
		int fd = dup(0);

		return fd < 0 ? NULL : tc_read_fd(fd, max, len);
	}
	return tc_read_file(path, max, len);
}

const char *tc_input_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

char *tc_path(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = tc_xmalloc(a + b + 2);

	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

char *tc_read_at(const struct tc_ctx *ctx, const char *name, size_t *len)
{
	char *path = tc_path(ctx->root, name), *text = NULL;
	int fd, saved;

	fd = ctx->open_file ? ctx->open_file(path, O_RDONLY | O_CLOEXEC) :
			      open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		text = tc_read_fd(fd, 16 << 20, len);
	saved = errno;
	free(path);
	errno = saved;
	return text;
}

/* ------------------------------------------------------------- errors */

static const char *const tc_kinds[] = {
	[TC_EXIT_OK] = "ok",
	[TC_EXIT_ERROR] = "error",
	[TC_EXIT_USAGE] = "usage",
	[TC_EXIT_UNAVAILABLE] = "unavailable",
	[TC_EXIT_PERM] = "permission",
	[TC_EXIT_REFUSED] = "refused",
	[TC_EXIT_NOPOLICY] = "no-policy",
	[TC_EXIT_NOCHAIN] = "not-in-chain",
};

const char *tc_exit_kind(int code)
{
	return code >= 0 && code <= TC_EXIT_NOCHAIN ? tc_kinds[code] : "error";
}

void tc_json_str_or_null(FILE *f, const char *s)
{
	if (s)
		tc_json_str(f, s);
	else
		fputs("null", f);
}

void tc_json_begin(struct tc_ctx *ctx)
{
	fprintf(ctx->out, "{\"schema_version\":%d,\"command\":", TC_JSON_SCHEMA);
	tc_json_str_or_null(ctx->out, ctx->cmd);
}

int tc_json_end(struct tc_ctx *ctx, int code, const char *msg)
{
	if (!code) {
		fputs(",\"error\":null}\n", ctx->out);
		return code;
	}
	fprintf(ctx->out, ",\"error\":{\"exit\":%d,\"kind\":", code);
	tc_json_str(ctx->out, tc_exit_kind(code));
	fputs(",\"message\":", ctx->out);
	tc_json_str(ctx->out, msg);
	fputs("}}\n", ctx->out);
	return code;
}

int tc_fail(struct tc_ctx *ctx, int code, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(ctx->err, "triagectl: %s\n", msg);
	if (ctx->json) {
		tc_json_begin(ctx);
		tc_json_end(ctx, code, msg);
	}
	return code;
}

int tc_usage_error(struct tc_ctx *ctx, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(ctx->err, "triagectl%s%s: %s; see triagectl%s%s --help\n",
		ctx->cmd ? " " : "", ctx->cmd ? ctx->cmd : "", msg,
		ctx->cmd ? " " : "", ctx->cmd ? ctx->cmd : "");
	if (ctx->json) {
		tc_json_begin(ctx);
		tc_json_end(ctx, TC_EXIT_USAGE, msg);
	}
	return TC_EXIT_USAGE;
}

/*
 * The parent of the triage directory: "/sys/kernel/security" for
 * "/sys/kernel/security/triage", also when --root ends in slashes (as a
 * shell's completion of a directory writes it).
 */
char *tc_secfs(const struct tc_ctx *ctx)
{
	const char *root = ctx->root;
	size_t n = strlen(root);

	if (ctx->secfs)
		return tc_strdup(ctx->secfs);
	while (n > 1 && root[n - 1] == '/')
		n--;			/* "triage/" is "triage" */
	while (n > 0 && root[n - 1] != '/')
		n--;			/* the last component */
	if (!n)
		return tc_strdup(".");
	while (n > 1 && root[n - 1] == '/')
		n--;			/* the slashes before it */
	return strndup(root, n);
}

char *tc_lsm_list(const struct tc_ctx *ctx)
{
	char *dir = tc_secfs(ctx), *path = tc_path(dir, "lsm");
	char *text = tc_read_file(path, 4096, NULL);

	free(dir);
	free(path);
	if (text)
		tc_chomp(text);
	return text;
}

static bool tc_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0' ||
					    p[n] == ' ' || p[n] == '\n'))
			return true;
		p = strpbrk(p, ", ");
		if (p)
			p++;
	}
	return false;
}

const char *tc_major_lsm(const char *lsms)
{
	static const char *const majors[] = { "selinux", "smack", "apparmor" };
	const char *best = NULL, *p;
	size_t i, at = (size_t)-1;

	for (i = 0; lsms && i < 3; i++) {
		if (!tc_in_list(lsms, majors[i]))
			continue;
		p = strstr(lsms, majors[i]);
		if (p && (size_t)(p - lsms) < at) {
			at = p - lsms;
			best = majors[i];
		}
	}
	return best;
}

static const char *tc_what(const char *name)
{
	if (!strcmp(name, "ranking"))
		return "the ranking";
	if (!strcmp(name, "decisions"))
		return "the decisions";
	if (!strcmp(name, "policy"))
		return "the policy";
	if (!strcmp(name, "stats"))
		return "the statistics";
	return name;
}

int tc_sfs_fail(struct tc_ctx *ctx, const char *name, int e, bool writing)
{
	const char *what = tc_what(name);
	struct stat st;

	if (e == EPERM)
		return tc_fail(ctx, TC_EXIT_PERM, "%s %s needs CAP_MAC_ADMIN (run as root)",
			       writing ? "writing" : "reading", what);
	if (e == EACCES)
		return tc_fail(ctx, TC_EXIT_PERM, "%s %s: permission denied (run as root; an LSM such as SELinux may deny it too: see the audit log)",
			       writing ? "writing" : "reading", what);
	if (e == ENOENT || e == ENOTDIR) {
		char *lsms, *dir;
		int rc;

		if (!stat(ctx->root, &st))
			return tc_fail(ctx, TC_EXIT_UNAVAILABLE,
				       "%s/%s does not exist: this kernel's triage has no '%s' (an older kernel?)",
				       ctx->root, name, name);
		lsms = tc_lsm_list(ctx);
		dir = tc_secfs(ctx);
		if (lsms && !tc_in_list(lsms, "triage"))
			rc = tc_fail(ctx, TC_EXIT_UNAVAILABLE,
				     "the triage LSM is not active in this kernel (active LSMs: %s); it must be built in (CONFIG_SECURITY_TRIAGE=y) and enabled: named in CONFIG_LSM, or in lsm= when the kernel command line has one (lsm= replaces CONFIG_LSM)",
				     lsms);
		else if (lsms)
			rc = tc_fail(ctx, TC_EXIT_UNAVAILABLE,
				     "%s does not exist although the active LSMs (%s) name triage",
				     ctx->root, lsms);
		else if (tc_root_given(ctx))
			/* not a reason to mount securityfs on DIR's parent */
			rc = tc_fail(ctx, TC_EXIT_UNAVAILABLE,
				     "--root %s does not exist: --root names the triage directory of securityfs (the kernel's is " TC_DEFAULT_ROOT ", with securityfs mounted on /sys/kernel/security)",
				     tc_esc(ctx->root));
		else if (stat(dir, &st))
			rc = tc_fail(ctx, TC_EXIT_UNAVAILABLE,
				     "%s does not exist (no triage)", ctx->root);
		else
			rc = tc_fail(ctx, TC_EXIT_UNAVAILABLE,
				     "securityfs is not mounted on %s (mount -t securityfs securityfs %s), or this kernel has no LSM support",
				     dir, dir);
		free(lsms);
		free(dir);
		return rc;
	}
	return tc_fail(ctx, TC_EXIT_ERROR, "cannot %s %s/%s: %s",
		       writing ? "write" : "read", ctx->root, name, strerror(e));
}

/* ------------------------------------------------------------ escapes */

/* tc_unescape() is in escape.c: triage-pressured links it without the rest */

static char *tc_esc_do(const char *s, bool backslash)
{
	char *buf = tc_xmalloc(strlen(s ? s : "") * 4 + 1), *o = buf;

	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c < 0x20 || c >= 0x7f || (c == '\\' && backslash))
			o += sprintf(o, "\\%03o", c);
		else
			*o++ = c;
	}
	*o = '\0';
	return buf;
}

char *tc_esc_dup(const char *s)
{
	return tc_esc_do(s, true);
}

static const char *tc_esc_ring(const char *s, bool backslash)
{
	static char *ring[8];
	static unsigned int next;
	unsigned int i = next++ % 8;

	free(ring[i]);
	ring[i] = tc_esc_do(s, backslash);
	return ring[i];
}

const char *tc_esc(const char *s)
{
	return tc_esc_ring(s, true);
}

const char *tc_esc_ctl(const char *s)
{
	return tc_esc_ring(s, false);
}

const char *tc_nearest(const char *w, const char *const *words)
{
	const char *best = NULL;
	unsigned int bd = ~0u, limit;
	size_t wl = strlen(w);

	limit = wl / 3 > 1 ? wl / 3 : 1;
	for (; *words; words++) {
		size_t l = strlen(*words);
		unsigned int d = tc_edit_distance(w, *words);

		/* a prefix of three or more: "least" -> "least-protected" */
		if (wl >= 3 && l > wl && !strncmp(w, *words, wl))
			d = 1;
		if (d < bd) {
			bd = d;
			best = *words;
		}
	}
	return best && bd <= limit && strcmp(best, w) ? best : NULL;
}

/*
 * The length of the well-formed UTF-8 sequence at @s (1 to 4 bytes:
 * Unicode's Table 3-7, so no overlong form, no UTF-16 surrogate, nothing
 * beyond U+10FFFF), or 0 when the byte at @s does not start one.
 */
static size_t tc_utf8_len(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * A JSON string (RFC 8259) of @s: valid UTF-8 as it is; the quote, the
 * backslash and the controls (C0, DEL and C1: they could reach a
 * terminal) escaped as JSON escapes of the same characters; each byte
 * that is not part of valid UTF-8 as \udcNN (NN its value, 80..ff): the
 * lone low surrogates of PEP 383's surrogateescape, which no valid text
 * yields, so such a byte can neither pass for a character nor go
 * unnoticed (triagectl(8), OUTPUT).
 */
void tc_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', f);
	while (*p) {
		unsigned char c = *p;
		size_t n = tc_utf8_len(p);

		if (!n) {
			fprintf(f, "\\udc%02x", c);
			p++;
		} else if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
			p++;
		} else if (c == '\n') {
			fputs("\\n", f);
			p++;
		} else if (c == '\t') {
			fputs("\\t", f);
			p++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			p++;
		} else if (c == 0xc2 && p[1] < 0xa0) {
			fprintf(f, "\\u%04x", p[1]);	/* C1: U+0080..U+009F */
			p += 2;
		} else {
			fwrite(p, 1, n, f);
			p += n;
		}
	}
	fputc('"', f);
}

/* Levenshtein distance, two rows. */
unsigned int tc_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned int *prev, *cur, *tmp, d;

	prev = tc_xmalloc((lb + 1) * sizeof(*prev));
	cur = tc_xmalloc((lb + 1) * sizeof(*cur));
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			unsigned int del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? sub : del;
			if (ins < cur[j])
				cur[j] = ins;
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	d = prev[lb];
	free(prev);
	free(cur);
	return d;
}

/* ------------------------------------------------------------- tables */

static char **tc_split_tabs(char *line, unsigned int *n)
{
	unsigned int cnt = 1, i = 0;
	char **v, *p;

	for (p = line; *p; p++)
		cnt += *p == '\t';
	v = tc_xmalloc(cnt * sizeof(*v));
	v[i++] = line;
	for (p = line; *p; p++)
		if (*p == '\t') {
			*p = '\0';
			v[i++] = p + 1;
		}
	/* after the split: an escaped tab or newline stays in its cell */
	for (i = 0; i < cnt; i++)
		tc_unescape(v[i]);
	*n = cnt;
	return v;
}

int tc_table_parse(char *text, struct tc_table *t)
{
	char *line, *save = NULL;
	size_t cap = 0;

	memset(t, 0, sizeof(*t));
	t->buf = text;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned int n, i;
		char **v;

		if (!t->head) {
			if (line[0] != '#')
				return -1;
			line++;
			while (*line == ' ')
				line++;
			t->head = tc_split_tabs(line, &t->ncols);
			continue;
		}
		v = tc_split_tabs(line, &n);
		if (n < t->ncols) {
			char **w = tc_xmalloc(t->ncols * sizeof(*w));

			for (i = 0; i < t->ncols; i++)
				w[i] = i < n ? v[i] : "";
			free(v);
			v = w;
		}
		if (t->nrows == cap) {
			cap = cap ? cap * 2 : 16;
			t->rows = realloc(t->rows, cap * sizeof(*t->rows));
			if (!t->rows)
				return -1;
		}
		t->rows[t->nrows++] = v;
	}
	return t->head ? 0 : -1;
}

int tc_table_col(const struct tc_table *t, const char *name)
{
	unsigned int i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->head[i], name))
			return i;
	return -1;
}

const char *tc_table_get(const struct tc_table *t, size_t row,
			 const char *name)
{
	int c = tc_table_col(t, name);

	return c < 0 || row >= t->nrows ? "" : t->rows[row][c];
}

void tc_table_free(struct tc_table *t)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		free(t->rows[i]);
	free(t->rows);
	free(t->head);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

static void tc_cell(FILE *f, const char *s, size_t w, bool last)
{
	if (last)
		fprintf(f, "%s\n", s);
	else
		fprintf(f, "%-*s  ", (int)w, s);
}

/*
 * Print columns padded to their widest cell; the last column unpadded.
 * Every cell is escaped (tc_esc): a name cannot start a row of its own.
 */
void tc_table_print(FILE *f, const char *const *head, unsigned int ncols,
		    const char *const *const *rows, size_t nrows)
{
	size_t *w = tc_xmalloc(ncols * sizeof(*w));
	unsigned int c;
	size_t r;

	for (c = 0; c < ncols; c++) {
		w[c] = head ? strlen(head[c]) : 0;
		for (r = 0; r < nrows; r++)
			if (strlen(tc_esc(rows[r][c])) > w[c])
				w[c] = strlen(tc_esc(rows[r][c]));
	}
	for (c = 0; head && c < ncols; c++)
		tc_cell(f, head[c], w[c], c + 1 == ncols);
	for (r = 0; r < nrows; r++)
		for (c = 0; c < ncols; c++)
			tc_cell(f, tc_esc(rows[r][c]), w[c], c + 1 == ncols);
	free(w);
}

/* ------------------------------------------------------- canonical text */

char **tc_canonical_lines(const struct triage_policy *p, size_t *n)
{
	int len = triage_policy_print(p, NULL, 0);
	char *buf, *line, *save = NULL, **v;
	size_t cnt = 0;

	buf = tc_xmalloc(len + 1);
	triage_policy_print(p, buf, len + 1);
	v = tc_xmalloc((p->nr_rules + p->nr_pressure + 4) * sizeof(*v));
	for (line = strtok_r(buf, "\n", &save);
	     line && cnt < p->nr_rules + p->nr_pressure + 3;
	     line = strtok_r(NULL, "\n", &save))
		v[cnt++] = tc_strdup(line);
	free(buf);
	*n = cnt;
	return v;
}

void tc_free_lines(char **lines, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

void tc_budget_text(unsigned int mib, char *buf, size_t n)
{
	if (mib && !(mib % (1U << 20)))
		snprintf(buf, n, "%uT", mib >> 20);
	else if (mib && !(mib % (1U << 10)))
		snprintf(buf, n, "%uG", mib >> 10);
	else
		snprintf(buf, n, "%uM", mib);
}

void tc_size_text(unsigned long long bytes, char *buf, size_t n)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = bytes / 1024.0;
	unsigned int u = 0;

	if (bytes < 1024) {
		snprintf(buf, n, "%llu bytes", bytes);
		return;
	}
	while (v >= 1024 && u < 3) {
		v /= 1024;
		u++;
	}
	snprintf(buf, n, "%.1f %s", v, units[u]);
}

/*
 * The canonical form has the three settings first, then one pressure
 * statement a line, then one rule a line.
 */
char *tc_rule_text(const struct triage_policy *p, unsigned int i)
{
	size_t n, k = 3 + (size_t)p->nr_pressure + i;
	char **v = tc_canonical_lines(p, &n);
	char *s = tc_strdup(k < n ? v[k] : "?");

	tc_free_lines(v, n);
	return s;
}

char *tc_pressure_text(const struct triage_policy *p, unsigned int i)
{
	size_t n;
	char **v = tc_canonical_lines(p, &n);
	char *s = tc_strdup(i < p->nr_pressure && 3 + i < n ? v[3 + i] : "?");

	tc_free_lines(v, n);
	return s;
}

bool tc_pressure_covers(const struct triage_pressure *ps, const char *cgroup)
{
	size_t l;

	if (!ps->cgroup)
		return true;
	if (!cgroup)
		return false;
	l = strlen(ps->cgroup);
	return !strncmp(cgroup, ps->cgroup, l) &&
	       (cgroup[l] == '\0' || cgroup[l] == '/');
}
