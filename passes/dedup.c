/*
 * dedup.c — when is an answer a candidate kcc has already judged? A model
 * asked to repair a rejection often sends the same file back, reformatted
 * or with a new comment; verifying and timing it again costs minutes and
 * shows the planner the same rejection twice. Two texts are the same
 * candidate when they are equal after comments are removed and whitespace
 * is normalised: literals are kept byte for byte, a preprocessor line keeps
 * its end, and a run of blanks becomes one space only where removing it
 * could join two tokens (two identifier characters, or two operator
 * characters that could form `- -` → `--`); elsewhere it disappears, so
 * `a+b` and `a + b` agree. docs/search.md, "Duplicates".
 */
#include "internal.h"

#include <ctype.h>
#include <string.h>

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* Could a followed by b, with nothing between, read as other tokens? */
static bool joins(char a, char b)
{
	if (word_char(a) && word_char(b))
		return true;
	if (word_char(a) || word_char(b))
		return a == '.' || b == '.'; /* 1 .5 vs 1.5 */
	return strchr("+-*/%<>=!&|^:.#", a) && strchr("+-*/%<>=!&|^:.#", b);
}

/* A string or character literal from *p (at its quote) into sb. */
static const char *literal(Strbuf *sb, const char *p, const char *end)
{
	char q = *p;
	sb_addc(sb, *p++);
	while (p < end && *p != q && *p != '\n') {
		if (*p == '\\' && p + 1 < end)
			sb_addc(sb, *p++);
		sb_addc(sb, *p++);
	}
	if (p < end && *p == q)
		sb_addc(sb, *p++);
	return p;
}

char *passes_normalize(Arena *a, const char *text, size_t len, size_t *outlen)
{
	Strbuf sb = STRBUF_INIT;
	const char *p = text, *end = text + len;
	bool blank = false;     /* whitespace or a comment since the last token */
	bool directive = false; /* inside a preprocessor line */
	bool line_start = true;
	while (p < end) {
		char c = *p;
		if (c == '\\' && p + 1 < end && p[1] == '\n') { /* a spliced line */
			p += 2;
			blank = true;
			continue;
		}
		if (c == '\n') {
			if (directive) {
				sb_addc(&sb, '\n');
				directive = blank = false;
			} else
				blank = true;
			line_start = true;
			p++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			blank = true;
			p++;
			continue;
		}
		if (c == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
			blank = true;
			continue;
		}
		if (c == '/' && p + 1 < end && p[1] == '*') {
			const char *e = p + 2;
			while (e + 1 < end && !(e[0] == '*' && e[1] == '/'))
				e++;
			p = e + 1 < end ? e + 2 : end;
			blank = true;
			continue;
		}
		if (line_start && c == '#') {
			if (sb.len && sb.buf[sb.len - 1] != '\n')
				sb_addc(&sb, '\n');
			directive = true;
			blank = false;
		} else if (blank && sb.len && sb.buf[sb.len - 1] != '\n' &&
		           joins(sb.buf[sb.len - 1], c))
			sb_addc(&sb, ' ');
		blank = line_start = false;
		if (c == '"' || c == '\'')
			p = literal(&sb, p, end);
		else
			sb_addc(&sb, *p++);
	}
	if (outlen)
		*outlen = sb.len;
	return sb_to_arena(&sb, a);
}

void passes_text_key(Arena *a, const char *text, size_t len, char out[65])
{
	size_t n;
	char *norm = passes_normalize(a, text, len, &n);
	sha256_hex(norm, n, out);
}
