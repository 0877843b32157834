// SPDX-License-Identifier: GPL-2.0
/*
 * Parser and canonical printer for the triage policy language
 * (policy/LANGUAGE.md).
 *
 * The parser runs twice over the text: the first pass validates the whole
 * policy and counts its rules, pressure statements and string bytes, the
 * second fills a single allocation sized exactly from those counts.  A policy is therefore freed
 * with one call, and a rejected policy never allocates.  Printing never
 * allocates.  This file also builds in userspace with userspace/compat.
 */

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

#include "policy.h"

/* bytes of a token quoted in an error message before it is cut with "..." */
#define TRIAGE_SHOW_MAX		32

enum triage_tok_kind {
	TRIAGE_TOK_WORD,
	TRIAGE_TOK_STRING,
	TRIAGE_TOK_EQ,
	TRIAGE_TOK_EOL,
	TRIAGE_TOK_EOF,
};

struct triage_pos {
	unsigned int line;
	unsigned int col;
};

struct triage_token {
	enum triage_tok_kind kind;
	bool space_before;		/* blank space since the previous token */
	bool too_long;			/* more than TRIAGE_VALUE_MAX_LEN bytes */
	size_t offset;			/* of the first byte in the text */
	struct triage_pos start;	/* first byte */
	struct triage_pos end;		/* just after the last byte */
	size_t len;
	char text[TRIAGE_VALUE_MAX_LEN + 1];
};

enum triage_setting {
	TRIAGE_SETTING_MODE,
	TRIAGE_SETTING_FALLBACK,
	TRIAGE_SETTING_SCORE_ADJ,
	TRIAGE_NR_SETTINGS,
};

/* bits of a rule's "seen" mask beyond the matcher fields */
#define TRIAGE_SEEN_RANK	BIT(TRIAGE_NR_FIELDS)
#define TRIAGE_SEEN_GROUP	BIT(TRIAGE_NR_FIELDS + 1)
#define TRIAGE_SEEN_BUDGET	BIT(TRIAGE_NR_FIELDS + 2)
#define TRIAGE_SEEN_MATCHERS	(BIT(TRIAGE_NR_FIELDS) - 1)

struct triage_parser {
	const char *text;
	size_t len;
	size_t pos;
	struct triage_pos at;		/* position of text[pos] */
	struct triage_token tok;
	struct triage_parse_error *err;

	enum triage_mode mode;
	enum triage_fallback fallback;
	bool respect_score_adj;
	unsigned int setting_line[TRIAGE_NR_SETTINGS];
	unsigned int nr_rules;
	unsigned int nr_pressure;
	/*
	 * The scope of every pressure statement so far, to find duplicates
	 * in the first pass too: its line, and the offset of its cgroup
	 * value in the text (0: the whole system), lexed again to compare.
	 */
	struct {
		unsigned int line;
		u32 offset;
	} scope[TRIAGE_PRESSURE_MAX];

	/* second pass only: where rules, pressure statements and strings go */
	struct triage_rule *rules;
	struct triage_pressure *pressure;
	char *pool;
	size_t pool_used;
	size_t pool_size;	/* first pass: bytes needed; second: capacity */
};

static const char * const triage_verdict_names[] = {
	[TRIAGE_VERDICT_NONE] = "none",
	[TRIAGE_VERDICT_PROTECT] = "protect",
	[TRIAGE_VERDICT_SACRIFICE] = "sacrifice",
	[TRIAGE_VERDICT_ADJUST] = "adjust",
};

static const char * const triage_mode_names[] = {
	[TRIAGE_MODE_ENFORCE] = "enforce",
	[TRIAGE_MODE_PERMISSIVE] = "permissive",
};

static const char * const triage_fallback_names[] = {
	[TRIAGE_FALLBACK_CLASSIC] = "classic",
	[TRIAGE_FALLBACK_PANIC] = "panic",
	[TRIAGE_FALLBACK_LEAST_PROTECTED] = "least-protected",
};

static const char * const triage_score_adj_names[] = {
	[false] = "override",
	[true] = "respect",
};

static const char * const triage_field_names[] = {
	[TRIAGE_FIELD_USER] = "user",
	[TRIAGE_FIELD_ROLE] = "role",
	[TRIAGE_FIELD_TYPE] = "type",
	[TRIAGE_FIELD_RANGE] = "range",
	[TRIAGE_FIELD_LABEL] = "label",
};

static const char * const triage_pressure_kinds[] = {
	[false] = "some",
	[true] = "full",
};

static const char * const triage_setting_names[] = {
	[TRIAGE_SETTING_MODE] = "mode",
	[TRIAGE_SETTING_FALLBACK] = "fallback",
	[TRIAGE_SETTING_SCORE_ADJ] = "oom-score-adj",
};

static int triage_lookup(const char * const *names, unsigned int n,
			 const char *word)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], word))
			return i;
	return -1;
}

static __printf(4, 5)
int triage_fail(struct triage_parse_error *err, const struct triage_pos *at,
		int code, const char *fmt, ...)
{
	va_list args;

	if (!err)
		return code;
	err->line = at ? at->line : 0;
	err->column = at ? at->col : 0;
	va_start(args, fmt);
	vsnprintf(err->reason, sizeof(err->reason), fmt, args);
	va_end(args);
	return code;
}

/* Quote a token for an error message: 'text' or 'text...'. */
static const char *triage_show(const struct triage_token *t, char *buf,
			       size_t size)
{
	int n = t->len > TRIAGE_SHOW_MAX ? TRIAGE_SHOW_MAX : (int)t->len;
	bool cut = t->len > TRIAGE_SHOW_MAX || t->too_long;

	snprintf(buf, size, "'%.*s%s'", n, t->text, cut ? "..." : "");
	return buf;
}

/* Only printable ASCII, tab and newline may appear in a policy. */
static int triage_check_bytes(const char *text, size_t len,
			      struct triage_parse_error *err)
{
	struct triage_pos at = { 1, 1 };
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = text[i];

		if (c == '\n') {
			at.line++;
			at.col = 1;
			continue;
		}
		if (c == '\t' || (c >= ' ' && c < 0x7f)) {
			at.col++;
			continue;
		}
		if (c == '\r')
			return triage_fail(err, &at, -EINVAL,
					   "carriage return (DOS line ending?)");
		if (c >= 0x80)
			return triage_fail(err, &at, -EINVAL,
					   "non-ASCII byte 0x%02x", c);
		return triage_fail(err, &at, -EINVAL,
				   "control character 0x%02x", c);
	}
	return 0;
}

static void triage_parser_init(struct triage_parser *p, const char *text,
			       size_t len, struct triage_parse_error *err)
{
	memset(p, 0, sizeof(*p));
	p->text = text;
	p->len = len;
	p->at.line = 1;
	p->at.col = 1;
	p->err = err;
	p->mode = TRIAGE_MODE_ENFORCE;
	p->fallback = TRIAGE_FALLBACK_CLASSIC;
}

static void triage_advance(struct triage_parser *p)
{
	if (p->text[p->pos] == '\n') {
		p->at.line++;
		p->at.col = 1;
	} else {
		p->at.col++;
	}
	p->pos++;
}

/*
 * The next byte, or -1 at the end of the text.  A backslash that ends a
 * physical line is removed together with the newline, so tokens continue
 * on the next line; comments never get here.  A continuation with no
 * line after it is left for the lexer to reject.
 */
static int triage_peek(struct triage_parser *p)
{
	while (p->pos + 2 < p->len && p->text[p->pos] == '\\' &&
	       p->text[p->pos + 1] == '\n') {
		p->pos += 2;
		p->at.line++;
		p->at.col = 1;
	}
	if (p->pos >= p->len)
		return -1;
	return (unsigned char)p->text[p->pos];
}

static bool triage_word_char(int c)
{
	return c > ' ' && c < 0x7f && c != '#' && c != '"' && c != '=' &&
	       c != '\\';
}

static void triage_append(struct triage_token *t, char c)
{
	if (t->len < TRIAGE_VALUE_MAX_LEN) {
		t->text[t->len++] = c;
		t->text[t->len] = '\0';
	} else {
		t->too_long = true;
	}
}

static int triage_lex_string(struct triage_parser *p)
{
	struct triage_token *t = &p->tok;
	struct triage_pos esc;
	int c;

	t->kind = TRIAGE_TOK_STRING;
	triage_advance(p);
	for (;;) {
		c = triage_peek(p);
		if (c < 0 || c == '\n')
			return triage_fail(p->err, &t->start, -EINVAL,
					   "unterminated string");
		if (c == '"')
			break;
		if (c == '\\') {
			esc = p->at;
			triage_advance(p);
			if (p->pos >= p->len)
				return triage_fail(p->err, &t->start, -EINVAL,
						   "unterminated string");
			c = (unsigned char)p->text[p->pos];
			if (c == '\n')
				return triage_fail(p->err, &t->start, -EINVAL,
						   "unterminated string");
			if (c != '"' && c != '\\')
				return triage_fail(p->err, &esc, -EINVAL,
						   "invalid escape in string");
		}
		triage_append(t, c);
		triage_advance(p);
	}
	triage_advance(p);
	t->end = p->at;
	return 0;
}

/* Read the next token into p->tok. */
static int triage_next(struct triage_parser *p)
{
	struct triage_token *t = &p->tok;
	int c;

	t->space_before = false;
	t->too_long = false;
	t->len = 0;
	t->text[0] = '\0';
	for (;;) {
		c = triage_peek(p);
		if (c != ' ' && c != '\t')
			break;
		triage_advance(p);
		t->space_before = true;
	}
	t->offset = p->pos;
	t->start = p->at;
	t->end = p->at;

	if (c < 0) {
		t->kind = TRIAGE_TOK_EOF;
		return 0;
	}
	switch (c) {
	case '\n':
		t->kind = TRIAGE_TOK_EOL;
		triage_advance(p);
		return 0;
	case '#':
		/* raw: a comment ends at the newline, backslash or not */
		while (p->pos < p->len && p->text[p->pos] != '\n')
			triage_advance(p);
		if (p->pos < p->len)
			triage_advance(p);
		t->kind = TRIAGE_TOK_EOL;
		return 0;
	case '=':
		t->kind = TRIAGE_TOK_EQ;
		triage_advance(p);
		t->end = p->at;
		return 0;
	case '"':
		return triage_lex_string(p);
	case '\\':
		if (p->pos + 1 == p->len ||
		    (p->text[p->pos + 1] == '\n' && p->pos + 2 == p->len))
			return triage_fail(p->err, &t->start, -EINVAL,
					   "line continuation at end of file");
		return triage_fail(p->err, &t->start, -EINVAL, "stray '\\'");
	}

	t->kind = TRIAGE_TOK_WORD;
	do {
		triage_append(t, c);
		triage_advance(p);
		t->end = p->at;
		c = triage_peek(p);
	} while (triage_word_char(c));
	return 0;
}

/* Complain about the current token, which is not wanted here. */
static int triage_unexpected(struct triage_parser *p)
{
	struct triage_token *t = &p->tok;
	char shown[TRIAGE_SHOW_MAX + 8];

	if (t->kind == TRIAGE_TOK_EQ)
		return triage_fail(p->err, &t->start, -EINVAL,
				   "unexpected '='");
	if (t->kind == TRIAGE_TOK_STRING)
		return triage_fail(p->err, &t->start, -EINVAL,
				   "unexpected string");
	return triage_fail(p->err, &t->start, -EINVAL, "unexpected %s",
			   triage_show(t, shown, sizeof(shown)));
}

static bool triage_at_eol(const struct triage_token *t)
{
	return t->kind == TRIAGE_TOK_EOL || t->kind == TRIAGE_TOK_EOF;
}

/*
 * Parse a decimal integer with an optional sign, the @len bytes at @s.
 * Values far out of any range are clamped so that they still compare out
 * of range.
 */
static int triage_parse_int(const char *s, size_t len, int *val)
{
	const char *end = s + len;
	bool neg = false;
	int v = 0;

	if (s < end && (*s == '+' || *s == '-'))
		neg = *s++ == '-';
	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v < 1000000)
			v = v * 10 + (*s - '0');
	}
	*val = neg ? -v : v;
	return 0;
}

static int triage_setting(struct triage_parser *p, enum triage_setting which)
{
	const char *name = triage_setting_names[which];
	struct triage_pos kw = p->tok.start;
	struct triage_pos kw_end = p->tok.end;
	char shown[TRIAGE_SHOW_MAX + 8];
	int ret, val;

	if (p->setting_line[which])
		return triage_fail(p->err, &kw, -EINVAL,
				   "duplicate setting '%s' (first on line %u)",
				   name, p->setting_line[which]);
	p->setting_line[which] = kw.line;

	ret = triage_next(p);
	if (ret)
		return ret;
	if (triage_at_eol(&p->tok))
		return triage_fail(p->err, &kw_end, -EINVAL,
				   "missing value for '%s'", name);
	if (p->tok.kind == TRIAGE_TOK_EQ)
		return triage_unexpected(p);
	if (!p->tok.space_before)
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "expected space or end of line");

	triage_show(&p->tok, shown, sizeof(shown));
	switch (which) {
	case TRIAGE_SETTING_MODE:
		val = triage_lookup(triage_mode_names,
				    ARRAY_SIZE(triage_mode_names), p->tok.text);
		if (val < 0)
			return triage_fail(p->err, &p->tok.start, -EINVAL,
					   "invalid mode %s (enforce or permissive)",
					   shown);
		p->mode = val;
		break;
	case TRIAGE_SETTING_FALLBACK:
		val = triage_lookup(triage_fallback_names,
				    ARRAY_SIZE(triage_fallback_names),
				    p->tok.text);
		if (val < 0)
			return triage_fail(p->err, &p->tok.start, -EINVAL,
					   "invalid fallback %s (classic, panic or least-protected)",
					   shown);
		p->fallback = val;
		break;
	default:
		val = triage_lookup(triage_score_adj_names,
				    ARRAY_SIZE(triage_score_adj_names),
				    p->tok.text);
		if (val < 0)
			return triage_fail(p->err, &p->tok.start, -EINVAL,
					   "invalid oom-score-adj %s (override or respect)",
					   shown);
		p->respect_score_adj = val;
		break;
	}

	ret = triage_next(p);
	if (ret)
		return ret;
	if (!triage_at_eol(&p->tok))
		return triage_unexpected(p);
	return 0;
}

/*
 * After the name of a matcher or option (the current token): '=' and a
 * value, all without blank space.  On success the value is in p->tok.
 */
static int triage_value(struct triage_parser *p, const char *name)
{
	struct triage_pos name_end = p->tok.end;
	struct triage_pos eq_end;
	int ret;

	ret = triage_next(p);
	if (ret)
		return ret;
	if (p->tok.kind != TRIAGE_TOK_EQ || p->tok.space_before)
		return triage_fail(p->err, &name_end, -EINVAL,
				   "expected '=' after '%s'", name);
	eq_end = p->tok.end;

	ret = triage_next(p);
	if (ret)
		return ret;
	if (triage_at_eol(&p->tok) || p->tok.space_before)
		return triage_fail(p->err, &eq_end, -EINVAL,
				   "missing value for '%s'", name);
	if (p->tok.kind == TRIAGE_TOK_EQ)
		return triage_unexpected(p);
	if (p->tok.too_long)
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "value too long (max %d bytes)",
				   TRIAGE_VALUE_MAX_LEN);
	return 0;
}

/* Copy the current token's text into the policy (second pass only). */
static int triage_store(struct triage_parser *p, const char **where)
{
	size_t n = p->tok.len + 1;

	if (!p->pool) {
		p->pool_size += n;
		return 0;
	}
	if (n > p->pool_size - p->pool_used)	/* cannot happen */
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "internal error");
	memcpy(p->pool + p->pool_used, p->tok.text, n);
	*where = p->pool + p->pool_used;
	p->pool_used += n;
	return 0;
}

/* A label glob must not end in an unescaped backslash. */
static bool triage_glob_dangling(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		if (s[i] == '\\') {
			if (i + 1 == len)
				return true;
			i += 2;
		} else {
			i++;
		}
	}
	return false;
}

static int triage_matcher(struct triage_parser *p, struct triage_rule *rule,
			  unsigned long *seen, enum triage_field field)
{
	const char *name = triage_field_names[field];
	struct triage_token *t = &p->tok;
	int ret;

	if (*seen & BIT(field))
		return triage_fail(p->err, &t->start, -EINVAL,
				   "duplicate matcher '%s'", name);
	*seen |= BIT(field);

	ret = triage_value(p, name);
	if (ret)
		return ret;
	if (!t->len)
		return triage_fail(p->err, &t->start, -EINVAL,
				   "empty value for '%s'", name);
	if (field <= TRIAGE_FIELD_TYPE && memchr(t->text, ':', t->len))
		return triage_fail(p->err, &t->start, -EINVAL,
				   "':' not allowed in '%s'", name);
	if (field == TRIAGE_FIELD_LABEL && triage_glob_dangling(t->text, t->len))
		return triage_fail(p->err, &t->start, -EINVAL,
				   "label pattern ends in '\\'");
	return triage_store(p, &rule->match[field]);
}

static int triage_rank(struct triage_parser *p, struct triage_rule *rule,
		       unsigned long *seen)
{
	char shown[TRIAGE_SHOW_MAX + 8];
	int ret, val;

	if (rule->verdict != TRIAGE_VERDICT_SACRIFICE)
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "option 'rank' is only valid on sacrifice");
	if (*seen & TRIAGE_SEEN_RANK)
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "duplicate option 'rank'");
	*seen |= TRIAGE_SEEN_RANK;

	ret = triage_value(p, "rank");
	if (ret)
		return ret;
	if (triage_parse_int(p->tok.text, p->tok.len, &val))
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "invalid rank %s",
				   triage_show(&p->tok, shown, sizeof(shown)));
	if (val < 0 || val > TRIAGE_RANK_MAX)
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "rank out of range 0..%d", TRIAGE_RANK_MAX);
	rule->rank = val;
	return 0;
}

static int triage_group(struct triage_parser *p, struct triage_rule *rule,
			unsigned long *seen)
{
	if (rule->verdict != TRIAGE_VERDICT_SACRIFICE)
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "option 'group' is only valid on sacrifice");
	if (*seen & TRIAGE_SEEN_GROUP)
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "duplicate option 'group'");
	*seen |= TRIAGE_SEEN_GROUP;
	if (triage_peek(p) == '=')
		return triage_fail(p->err, &p->at, -EINVAL,
				   "option 'group' takes no value");
	rule->group = true;
	return 0;
}

/*
 * "budget=SIZE" of a protect rule: a whole number of mebibytes, gibibytes
 * or tebibytes ("512M", "4G", "1T"), the unit always written.
 */
static int triage_budget(struct triage_parser *p, struct triage_rule *rule,
			 unsigned long *seen)
{
	struct triage_token *t = &p->tok;
	char shown[TRIAGE_SHOW_MAX + 8];
	unsigned long long mib = 0;
	unsigned int shift;
	size_t i;
	int ret;

	if (rule->verdict != TRIAGE_VERDICT_PROTECT)
		return triage_fail(p->err, &t->start, -EINVAL,
				   "option 'budget' is only valid on protect");
	if (*seen & TRIAGE_SEEN_BUDGET)
		return triage_fail(p->err, &t->start, -EINVAL,
				   "duplicate option 'budget'");
	*seen |= TRIAGE_SEEN_BUDGET;

	ret = triage_value(p, "budget");
	if (ret)
		return ret;
	switch (t->len ? t->text[t->len - 1] : 0) {
	case 'M':
		shift = 0;
		break;
	case 'G':
		shift = 10;
		break;
	case 'T':
		shift = 20;
		break;
	default:
		return triage_fail(p->err, &t->start, -EINVAL,
				   "invalid budget %s (a size such as 512M, 4G or 1T)",
				   triage_show(t, shown, sizeof(shown)));
	}
	/* as everywhere in the language, a number may have a sign */
	i = t->len > 2 && t->text[0] == '+';
	for (; i + 1 < t->len; i++) {
		if (t->text[i] < '0' || t->text[i] > '9')
			return triage_fail(p->err, &t->start, -EINVAL,
					   "invalid budget %s (a size such as 512M, 4G or 1T)",
					   triage_show(t, shown, sizeof(shown)));
		if (mib <= TRIAGE_BUDGET_MAX_MIB)
			mib = mib * 10 + (t->text[i] - '0');
	}
	if (t->len < 2)
		return triage_fail(p->err, &t->start, -EINVAL,
				   "invalid budget %s (a size such as 512M, 4G or 1T)",
				   triage_show(t, shown, sizeof(shown)));
	mib <<= shift;
	if (!mib || mib > TRIAGE_BUDGET_MAX_MIB)
		return triage_fail(p->err, &t->start, -EINVAL,
				   "budget out of range 1M..16T");
	rule->budget_mib = mib;
	return 0;
}

/* The current token is a word that names no matcher or option here. */
static int triage_unknown_item(struct triage_parser *p)
{
	struct triage_token *t = &p->tok;
	char shown[TRIAGE_SHOW_MAX + 8];

	triage_show(t, shown, sizeof(shown));
	if (triage_peek(p) == '=')
		return triage_fail(p->err, &t->start, -EINVAL,
				   "unknown matcher %s", shown);
	return triage_fail(p->err, &t->start, -EINVAL, "unknown option %s",
			   shown);
}

/* One matcher or option of a rule; its name is the current token. */
static int triage_item(struct triage_parser *p, struct triage_rule *rule,
		       unsigned long *seen)
{
	struct triage_token *t = &p->tok;
	int field;

	field = triage_lookup(triage_field_names, TRIAGE_NR_FIELDS, t->text);
	if (field >= 0)
		return triage_matcher(p, rule, seen, field);
	if (!strcmp(t->text, "rank"))
		return triage_rank(p, rule, seen);
	if (!strcmp(t->text, "group"))
		return triage_group(p, rule, seen);
	if (!strcmp(t->text, "budget"))
		return triage_budget(p, rule, seen);
	return triage_unknown_item(p);
}

/* The signed value right after 'adjust' (the current token). */
static int triage_adjust_value(struct triage_parser *p,
			       struct triage_rule *rule)
{
	struct triage_pos kw_end = p->tok.end;
	char shown[TRIAGE_SHOW_MAX + 8];
	int ret, val;

	ret = triage_next(p);
	if (ret)
		return ret;
	if (triage_at_eol(&p->tok))
		return triage_fail(p->err, &kw_end, -EINVAL,
				   "adjust value missing");
	if (p->tok.kind == TRIAGE_TOK_EQ)
		return triage_unexpected(p);
	if (!p->tok.space_before)
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "expected space or end of line");
	if (p->tok.kind == TRIAGE_TOK_WORD && triage_peek(p) == '=')
		return triage_fail(p->err, &kw_end, -EINVAL,
				   "adjust value missing");
	if (p->tok.too_long || triage_parse_int(p->tok.text, p->tok.len, &val))
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "invalid adjust value %s",
				   triage_show(&p->tok, shown, sizeof(shown)));
	if (val < TRIAGE_ADJUST_MIN || val > TRIAGE_ADJUST_MAX)
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "adjust value out of range %d..%d",
				   TRIAGE_ADJUST_MIN, TRIAGE_ADJUST_MAX);
	rule->adjust = val;
	return 0;
}

static int triage_rule(struct triage_parser *p, enum triage_verdict verdict)
{
	struct triage_pos kw = p->tok.start;
	struct triage_rule rule = {
		.verdict = verdict,
		.line = kw.line,
	};
	unsigned long seen = 0;
	int ret;

	if (p->nr_rules >= TRIAGE_POLICY_MAX_RULES)
		return triage_fail(p->err, &kw, -E2BIG,
				   "too many rules (max %d)",
				   TRIAGE_POLICY_MAX_RULES);

	if (verdict == TRIAGE_VERDICT_ADJUST) {
		ret = triage_adjust_value(p, &rule);
		if (ret)
			return ret;
	}

	for (;;) {
		ret = triage_next(p);
		if (ret)
			return ret;
		if (triage_at_eol(&p->tok))
			break;
		if (!p->tok.space_before)
			return triage_fail(p->err, &p->tok.start, -EINVAL,
					   "expected space or end of line");
		if (p->tok.kind != TRIAGE_TOK_WORD)
			return triage_unexpected(p);
		ret = triage_item(p, &rule, &seen);
		if (ret)
			return ret;
	}

	if (!(seen & TRIAGE_SEEN_MATCHERS))
		return triage_fail(p->err, &kw, -EINVAL, "rule has no matcher");
	if (p->rules)
		p->rules[p->nr_rules] = rule;
	p->nr_rules++;
	return 0;
}

/*
 * The next value of a pressure statement, @what ("kind"), after the
 * current token: a word or string after blank space.  A word directly
 * followed by '=' is an option, not this value, which is then missing.
 */
static int triage_pressure_value(struct triage_parser *p, const char *what)
{
	struct triage_pos prev_end = p->tok.end;
	int ret;

	ret = triage_next(p);
	if (ret)
		return ret;
	if (triage_at_eol(&p->tok))
		return triage_fail(p->err, &prev_end, -EINVAL,
				   "missing pressure %s", what);
	if (p->tok.kind == TRIAGE_TOK_EQ)
		return triage_unexpected(p);
	if (!p->tok.space_before)
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "expected space or end of line");
	if (p->tok.kind == TRIAGE_TOK_WORD && triage_peek(p) == '=')
		return triage_fail(p->err, &prev_end, -EINVAL,
				   "missing pressure %s", what);
	return 0;
}

/* The share of a pressure statement: "N%", N from 1 to 100. */
static int triage_pressure_share(struct triage_parser *p,
				 struct triage_pressure *ps)
{
	const struct triage_token *t = &p->tok;
	char shown[TRIAGE_SHOW_MAX + 8];
	int val;

	if (t->too_long || t->len < 2 || t->text[t->len - 1] != '%' ||
	    triage_parse_int(t->text, t->len - 1, &val) || val < 1 ||
	    val > 100)
		return triage_fail(p->err, &t->start, -EINVAL,
				   "invalid pressure share %s (1%% to 100%%)",
				   triage_show(t, shown, sizeof(shown)));
	ps->share = val;
	return 0;
}

/*
 * The window of a pressure statement: "Nms" or "Ns", from
 * TRIAGE_PRESSURE_WINDOW_MIN_MS to TRIAGE_PRESSURE_WINDOW_MAX_MS.
 */
static int triage_pressure_window(struct triage_parser *p,
				  struct triage_pressure *ps)
{
	const struct triage_token *t = &p->tok;
	char shown[TRIAGE_SHOW_MAX + 8];
	size_t n = t->len;
	int scale = 1, val;

	if (n > 2 && !memcmp(t->text + n - 2, "ms", 2)) {
		n -= 2;
	} else if (n > 1 && t->text[n - 1] == 's') {
		n--;
		scale = 1000;
	} else {
		n = 0;
	}
	if (t->too_long || !n || triage_parse_int(t->text, n, &val) ||
	    val < 0 || val > TRIAGE_PRESSURE_WINDOW_MAX_MS / scale ||
	    val * scale < TRIAGE_PRESSURE_WINDOW_MIN_MS)
		return triage_fail(p->err, &t->start, -EINVAL,
				   "invalid pressure window %s (500ms to 10s)",
				   triage_show(t, shown, sizeof(shown)));
	ps->window_ms = val * scale;
	return 0;
}

/*
 * A cgroup v2 path relative to the cgroup2 mount: "/" then components
 * separated by single slashes, none of them "." or "..", no final slash.
 */
static bool triage_cgroup_path_ok(const char *s, size_t len)
{
	size_t i = 0, start, n;

	if (len < 2 || s[0] != '/' || s[len - 1] == '/')
		return false;
	while (i < len) {
		start = ++i;	/* s[i - 1] is a slash */
		while (i < len && s[i] != '/')
			i++;
		n = i - start;
		if (!n || (n == 1 && s[start] == '.') ||
		    (n == 2 && s[start] == '.' && s[start + 1] == '.'))
			return false;
	}
	return true;
}

/* Does the value at byte @offset of the text equal the current token? */
static bool triage_same_value(const struct triage_parser *p, u32 offset)
{
	struct triage_parser q;

	triage_parser_init(&q, p->text, p->len, NULL);
	q.pos = offset;
	if (triage_next(&q))
		return false;
	return q.tok.len == p->tok.len &&
	       !memcmp(q.tok.text, p->tok.text, q.tok.len);
}

/* "cgroup=PATH" of a pressure statement; the current token is "cgroup". */
static int triage_pressure_cgroup(struct triage_parser *p,
				  struct triage_pressure *ps, u32 *offset)
{
	struct triage_token *t = &p->tok;
	char shown[TRIAGE_SHOW_MAX + 8];
	unsigned int i;
	int ret;

	if (*offset)
		return triage_fail(p->err, &t->start, -EINVAL,
				   "duplicate option 'cgroup'");
	ret = triage_value(p, "cgroup");
	if (ret)
		return ret;
	if (!t->len)
		return triage_fail(p->err, &t->start, -EINVAL,
				   "empty value for 'cgroup'");
	triage_show(t, shown, sizeof(shown));
	if (!triage_cgroup_path_ok(t->text, t->len))
		return triage_fail(p->err, &t->start, -EINVAL,
				   "invalid pressure cgroup %s (an absolute cgroup path, not /)",
				   shown);
	for (i = 0; i < p->nr_pressure; i++)
		if (p->scope[i].offset && triage_same_value(p, p->scope[i].offset))
			return triage_fail(p->err, &t->start, -EINVAL,
					   "duplicate pressure scope %s (first on line %u)",
					   shown, p->scope[i].line);
	*offset = t->offset;
	return triage_store(p, &ps->cgroup);
}

/* pressure KIND SHARE WINDOW [cgroup=PATH]; the current token is "pressure". */
static int triage_pressure(struct triage_parser *p)
{
	struct triage_pos kw = p->tok.start;
	struct triage_pressure ps = { .line = kw.line };
	char shown[TRIAGE_SHOW_MAX + 8];
	unsigned int i;
	u32 offset = 0;
	int ret, val;

	if (p->nr_pressure >= TRIAGE_PRESSURE_MAX)
		return triage_fail(p->err, &kw, -E2BIG,
				   "too many pressure statements (max %d)",
				   TRIAGE_PRESSURE_MAX);

	ret = triage_pressure_value(p, "kind");
	if (ret)
		return ret;
	val = triage_lookup(triage_pressure_kinds,
			    ARRAY_SIZE(triage_pressure_kinds), p->tok.text);
	if (p->tok.too_long || val < 0)
		return triage_fail(p->err, &p->tok.start, -EINVAL,
				   "invalid pressure kind %s (some or full)",
				   triage_show(&p->tok, shown, sizeof(shown)));
	ps.full = val;

	ret = triage_pressure_value(p, "share");
	if (ret)
		return ret;
	ret = triage_pressure_share(p, &ps);
	if (ret)
		return ret;
	ret = triage_pressure_value(p, "window");
	if (ret)
		return ret;
	ret = triage_pressure_window(p, &ps);
	if (ret)
		return ret;

	for (;;) {
		ret = triage_next(p);
		if (ret)
			return ret;
		if (triage_at_eol(&p->tok))
			break;
		if (!p->tok.space_before)
			return triage_fail(p->err, &p->tok.start, -EINVAL,
					   "expected space or end of line");
		if (p->tok.kind != TRIAGE_TOK_WORD)
			return triage_unexpected(p);
		if (strcmp(p->tok.text, "cgroup"))
			return triage_unknown_item(p);
		ret = triage_pressure_cgroup(p, &ps, &offset);
		if (ret)
			return ret;
	}

	for (i = 0; !offset && i < p->nr_pressure; i++)
		if (!p->scope[i].offset)
			return triage_fail(p->err, &kw, -EINVAL,
					   "duplicate pressure scope 'system' (first on line %u)",
					   p->scope[i].line);
	p->scope[p->nr_pressure].line = kw.line;
	p->scope[p->nr_pressure].offset = offset;
	if (p->pressure)
		p->pressure[p->nr_pressure] = ps;
	p->nr_pressure++;
	return 0;
}

/* A line that starts with a word: a setting, a rule or a pressure statement. */
static int triage_statement(struct triage_parser *p)
{
	const char *word = p->tok.text;
	char shown[TRIAGE_SHOW_MAX + 8];
	int which;

	if (!strcmp(word, "protect"))
		return triage_rule(p, TRIAGE_VERDICT_PROTECT);
	if (!strcmp(word, "sacrifice"))
		return triage_rule(p, TRIAGE_VERDICT_SACRIFICE);
	if (!strcmp(word, "adjust"))
		return triage_rule(p, TRIAGE_VERDICT_ADJUST);
	if (!strcmp(word, "pressure"))
		return triage_pressure(p);

	which = triage_lookup(triage_setting_names, TRIAGE_NR_SETTINGS, word);
	if (which >= 0)
		return triage_setting(p, which);

	return triage_fail(p->err, &p->tok.start, -EINVAL,
			   "unknown keyword %s",
			   triage_show(&p->tok, shown, sizeof(shown)));
}

static int triage_parse_all(struct triage_parser *p)
{
	int ret;

	for (;;) {
		ret = triage_next(p);
		if (ret)
			return ret;
		switch (p->tok.kind) {
		case TRIAGE_TOK_EOF:
			return 0;
		case TRIAGE_TOK_EOL:
			break;
		case TRIAGE_TOK_WORD:
			ret = triage_statement(p);
			if (ret)
				return ret;
			break;
		default:
			return triage_fail(p->err, &p->tok.start, -EINVAL,
					   "expected keyword");
		}
	}
}

/**
 * triage_policy_parse() - parse a policy text
 * @text: the policy; need not be NUL-terminated, may be NULL if @len is 0
 * @len: bytes in @text
 * @policy: on success, the new policy; NULL on failure
 * @err: on failure, where and why (may be NULL)
 *
 * The whole text is checked first for its size and then for bytes outside
 * printable ASCII, tab and newline; after that it is parsed from the top
 * and the first error found is reported.  A policy is all or nothing.
 *
 * Context: process context; may sleep (allocates with GFP_KERNEL).
 *
 * Return: 0; -EINVAL for a malformed policy, -E2BIG when it exceeds
 * %TRIAGE_POLICY_MAX_SIZE bytes, %TRIAGE_POLICY_MAX_RULES rules or
 * %TRIAGE_PRESSURE_MAX pressure statements (@err says where and why in
 * every case); -ENOMEM.
 */
int triage_policy_parse(const char *text, size_t len,
			struct triage_policy **policy,
			struct triage_parse_error *err)
{
	struct triage_parser p;
	struct triage_policy *pol;
	struct triage_rule *rules;
	struct triage_pressure *pressure;
	unsigned int nr_rules, nr_pressure;
	size_t pool_size, size, i;
	int ret;

	*policy = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	if (!text && len)
		return triage_fail(err, NULL, -EINVAL, "no policy text");

	if (len > TRIAGE_POLICY_MAX_SIZE) {
		struct triage_pos at = { 1, 1 };

		for (i = 0; i < TRIAGE_POLICY_MAX_SIZE; i++) {
			if (text[i] == '\n') {
				at.line++;
				at.col = 1;
			} else {
				at.col++;
			}
		}
		return triage_fail(err, &at, -E2BIG,
				   "policy too large (max %d bytes)",
				   TRIAGE_POLICY_MAX_SIZE);
	}

	ret = triage_check_bytes(text, len, err);
	if (ret)
		return ret;

	/* first pass: validate, count rules, pressure statements, string bytes */
	triage_parser_init(&p, text, len, err);
	ret = triage_parse_all(&p);
	if (ret)
		return ret;
	nr_rules = p.nr_rules;
	nr_pressure = p.nr_pressure;
	pool_size = p.pool_size;

	size = sizeof(*pol) + nr_rules * sizeof(*rules) +
	       nr_pressure * sizeof(*pressure) + pool_size;
	pol = kvzalloc(size, GFP_KERNEL);
	if (!pol)
		return triage_fail(err, NULL, -ENOMEM, "out of memory");
	rules = (struct triage_rule *)(pol + 1);
	pressure = (struct triage_pressure *)(rules + nr_rules);

	/* second pass: the same walk, now storing into the allocation */
	triage_parser_init(&p, text, len, err);
	p.rules = rules;
	p.pressure = pressure;
	p.pool = (char *)(pressure + nr_pressure);
	p.pool_size = pool_size;
	ret = triage_parse_all(&p);
	if (!ret && (p.nr_rules != nr_rules ||
		     p.nr_pressure != nr_pressure))	/* cannot happen */
		ret = triage_fail(err, NULL, -EINVAL, "internal error");
	if (ret) {
		kvfree(pol);
		return ret;
	}

	pol->mode = p.mode;
	pol->fallback = p.fallback;
	pol->respect_score_adj = p.respect_score_adj;
	pol->nr_rules = nr_rules;
	pol->rules = rules;
	pol->nr_pressure = nr_pressure;
	pol->pressure = pressure;
	pol->size = size;
	*policy = pol;
	return 0;
}

/**
 * triage_policy_free() - free a policy returned by triage_policy_parse()
 * @policy: the policy, or NULL
 *
 * The policy is one kvmalloc() allocation: once no reader can see it any
 * more (e.g. after synchronize_rcu()), this one call frees it.
 *
 * Context: not in NMI context.
 */
void triage_policy_free(struct triage_policy *policy)
{
	kvfree(policy);
}

struct triage_out {
	char *buf;
	size_t size;
	size_t len;
};

static void triage_out_char(struct triage_out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void triage_out_str(struct triage_out *o, const char *s)
{
	while (*s)
		triage_out_char(o, *s++);
}

static void triage_out_value(struct triage_out *o, const char *s)
{
	const char *c;
	bool quote = !*s;

	for (c = s; *c && !quote; c++)
		quote = !triage_word_char((unsigned char)*c);
	if (!quote) {
		triage_out_str(o, s);
		return;
	}
	triage_out_char(o, '"');
	for (c = s; *c; c++) {
		if (*c == '"' || *c == '\\')
			triage_out_char(o, '\\');
		triage_out_char(o, *c);
	}
	triage_out_char(o, '"');
}

static const char *triage_name(const char * const *names, unsigned int n,
			       unsigned int i)
{
	return i < n ? names[i] : "unknown";
}

/* One rule's canonical line, without its newline */
static void triage_out_rule(struct triage_out *o, const struct triage_rule *rule)
{
	unsigned int f;
	char num[24];

	triage_out_str(o, triage_verdict_name(rule->verdict));
	if (rule->verdict == TRIAGE_VERDICT_ADJUST) {
		snprintf(num, sizeof(num), " %+d", rule->adjust);
		triage_out_str(o, num);
	}
	for (f = 0; f < TRIAGE_NR_FIELDS; f++) {
		if (!rule->match[f])
			continue;
		triage_out_char(o, ' ');
		triage_out_str(o, triage_field_names[f]);
		triage_out_char(o, '=');
		triage_out_value(o, rule->match[f]);
	}
	if (rule->rank) {
		snprintf(num, sizeof(num), " rank=%u", rule->rank);
		triage_out_str(o, num);
	}
	if (rule->group)
		triage_out_str(o, " group");
	if (rule->budget_mib) {
		unsigned int mib = rule->budget_mib;

		if (!(mib % (1U << 20)))
			snprintf(num, sizeof(num), " budget=%uT", mib >> 20);
		else if (!(mib % (1U << 10)))
			snprintf(num, sizeof(num), " budget=%uG", mib >> 10);
		else
			snprintf(num, sizeof(num), " budget=%uM", mib);
		triage_out_str(o, num);
	}
}

/**
 * triage_rule_print() - print one rule as its line of the canonical form
 * @rule: the rule
 * @buf: where to print (may be NULL if @size is 0)
 * @size: bytes available at @buf
 *
 * The line triage_policy_print() gives @rule, without the newline; like
 * snprintf(), cut to fit and NUL-terminated when @size is not 0.
 *
 * Context: any; never allocates and never sleeps.
 *
 * Return: the length of the full line, without the terminating NUL.
 */
int triage_rule_print(const struct triage_rule *rule, char *buf, size_t size)
{
	struct triage_out o = { .buf = buf, .size = size };

	triage_out_rule(&o, rule);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}

/**
 * triage_policy_print() - print a policy in canonical form
 * @policy: the policy; NULL prints the empty policy
 * @buf: where to print (may be NULL if @size is 0)
 * @size: bytes available at @buf
 *
 * The canonical form lists the three settings, then the pressure
 * statements in policy order (the window in seconds when it is a whole
 * number of them, cgroup= last), then one rule per line in policy order,
 * with matchers in the order user, role, type, range, label, then rank
 * (when not 0) and group; values are quoted only when needed.  Parsing
 * it gives the same policy, and printing that gives the same text.
 * Like snprintf(), the output is cut to fit and NUL-terminated when @size
 * is not 0.
 *
 * Context: any; never allocates and never sleeps.
 *
 * Return: the length of the full text, without the terminating NUL.
 */
int triage_policy_print(const struct triage_policy *policy, char *buf,
			size_t size)
{
	struct triage_out o = { .buf = buf, .size = size };
	const struct triage_pressure *ps;
	bool respect = policy && policy->respect_score_adj;
	unsigned int i;
	char num[40];

	triage_out_str(&o, "mode ");
	triage_out_str(&o, triage_mode_name(policy ? policy->mode : 0));
	triage_out_str(&o, "\nfallback ");
	triage_out_str(&o, triage_fallback_name(policy ? policy->fallback : 0));
	triage_out_str(&o, "\noom-score-adj ");
	triage_out_str(&o, triage_score_adj_names[respect]);
	triage_out_char(&o, '\n');

	for (i = 0; policy && i < policy->nr_pressure; i++) {
		ps = &policy->pressure[i];
		snprintf(num, sizeof(num), "pressure %s %u%% %u%s",
			 triage_pressure_kinds[ps->full], ps->share,
			 ps->window_ms % 1000 ? ps->window_ms :
			 ps->window_ms / 1000,
			 ps->window_ms % 1000 ? "ms" : "s");
		triage_out_str(&o, num);
		if (ps->cgroup) {
			triage_out_str(&o, " cgroup=");
			triage_out_value(&o, ps->cgroup);
		}
		triage_out_char(&o, '\n');
	}

	for (i = 0; policy && i < policy->nr_rules; i++) {
		triage_out_rule(&o, &policy->rules[i]);
		triage_out_char(&o, '\n');
	}

	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}

/**
 * triage_verdict_name() - the keyword of a verdict
 * @v: the verdict
 *
 * Return: "none", "protect", "sacrifice", "adjust", or "unknown".
 */
const char *triage_verdict_name(enum triage_verdict v)
{
	return triage_name(triage_verdict_names,
			   ARRAY_SIZE(triage_verdict_names), v);
}

/**
 * triage_mode_name() - the keyword of a mode
 * @mode: the mode
 *
 * Return: "enforce", "permissive", or "unknown".
 */
const char *triage_mode_name(enum triage_mode mode)
{
	return triage_name(triage_mode_names, ARRAY_SIZE(triage_mode_names),
			   mode);
}

/**
 * triage_fallback_name() - the keyword of a fallback
 * @fallback: the fallback
 *
 * Return: "classic", "panic", "least-protected", or "unknown".
 */
const char *triage_fallback_name(enum triage_fallback fallback)
{
	return triage_name(triage_fallback_names,
			   ARRAY_SIZE(triage_fallback_names), fallback);
}

/**
 * triage_field_name() - the keyword of a matcher field
 * @field: the field
 *
 * Return: "user", "role", "type", "range", "label", or "unknown".
 */
const char *triage_field_name(enum triage_field field)
{
	return triage_name(triage_field_names, ARRAY_SIZE(triage_field_names),
			   field);
}
