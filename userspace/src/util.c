// SPDX-License-Identifier: GPL-2.0
/* triagectl: files, tables, JSON strings, edit distance, canonical text. */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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
 * so that the caller can tell "exactly max" from "larger".
 */
char *tc_read_file(const char *path, size_t max, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf;
	ssize_t r;
	int fd, saved;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
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
	char *path = tc_path(ctx->root, name);
	char *text = tc_read_file(path, 16 << 20, len);
	int saved = errno;

	free(path);
	errno = saved;
	return text;
}

void tc_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
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

/* Print columns padded to their widest cell; the last column unpadded. */
void tc_table_print(FILE *f, const char *const *head, unsigned int ncols,
		    const char *const *const *rows, size_t nrows)
{
	size_t *w = tc_xmalloc(ncols * sizeof(*w));
	unsigned int c;
	size_t r;

	for (c = 0; c < ncols; c++) {
		w[c] = head ? strlen(head[c]) : 0;
		for (r = 0; r < nrows; r++)
			if (strlen(rows[r][c]) > w[c])
				w[c] = strlen(rows[r][c]);
	}
	for (c = 0; head && c < ncols; c++)
		tc_cell(f, head[c], w[c], c + 1 == ncols);
	for (r = 0; r < nrows; r++)
		for (c = 0; c < ncols; c++)
			tc_cell(f, rows[r][c], w[c], c + 1 == ncols);
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
	v = tc_xmalloc((p->nr_rules + 4) * sizeof(*v));
	for (line = strtok_r(buf, "\n", &save); line && cnt < p->nr_rules + 3;
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

/* The canonical form has the three settings first, then one rule a line. */
char *tc_rule_text(const struct triage_policy *p, unsigned int i)
{
	size_t n;
	char **v = tc_canonical_lines(p, &n);
	char *s = tc_strdup(3 + i < n ? v[3 + i] : "?");

	tc_free_lines(v, n);
	return s;
}
