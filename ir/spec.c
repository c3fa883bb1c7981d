/*
 * spec.c — reads the `#pragma kcc` lines of a kernel file into a Spec.
 *
 * The pragmas are found by a small scanner over the raw text (libclang does
 * not hand unknown pragmas to its clients), which skips comments and string
 * literals so a commented-out pragma is not read. Each form of DESIGN.md
 * section 2 has its own small parser; every error points at the column of
 * the offending word, and suggests the nearest valid word when there is one
 * (spec_forms.c). Checks that need the entry's signature live in validate.c.
 */
#include "spec.h"

#include <ctype.h>
#include <string.h>

static bool is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* ---- the scanner ----------------------------------------------------------- */

/* If the logical line at p is `# pragma kcc ...`, return where "kcc" ends. */
static const char *match_pragma(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != '#')
		return NULL;
	p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p < 6 || strncmp(p, "pragma", 6) != 0 || is_ident(p[6]))
		return NULL;
	p += 6;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p < 3 || strncmp(p, "kcc", 3) != 0 || (p + 3 < end && is_ident(p[3])))
		return NULL;
	return p + 3;
}

/* The end of a pragma's own text: before a trailing comment or '\r'. */
static const char *pragma_end(const char *p, const char *eol)
{
	for (const char *q = p; q < eol; q++)
		if (q + 1 < eol && q[0] == '/' && (q[1] == '/' || q[1] == '*'))
			return q;
	while (eol > p && (eol[-1] == '\r' || eol[-1] == ' ' || eol[-1] == '\t'))
		eol--;
	return eol;
}

/* A walk over the text's `#pragma kcc` lines, skipping what could hide a
 * fake one: comments, strings, chars. */
typedef struct {
	const char *p, *end;
	int lineno;
	bool line_start;
} Scan;

/* The next pragma line: true with *line (its start), *body (after "kcc")
 * and *eol; s->lineno is its line. */
static bool scan_next(Scan *s, const char **line, const char **body, const char **eol)
{
	const char *p = s->p, *end = s->end;
	while (p < end) {
		if (s->line_start) {
			const char *e = memchr(p, '\n', (size_t)(end - p));
			if (!e)
				e = end;
			const char *b = match_pragma(p, e);
			if (b) {
				*line = p, *body = b, *eol = e;
				s->p = e;
				return true;
			}
		}
		s->line_start = false;
		if (p[0] == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		if (p[0] == '/' && p + 1 < end && p[1] == '*') {
			for (p += 2; p < end && !(p[0] == '*' && p + 1 < end && p[1] == '/'); p++)
				if (*p == '\n')
					s->lineno++;
			p = p < end ? p + 2 : end;
			continue;
		}
		if (*p == '"' || *p == '\'') {
			char q = *p++;
			while (p < end && *p != q && *p != '\n') {
				if (*p == '\\' && p + 1 < end)
					p++;
				p++;
			}
			if (p < end && *p == q)
				p++;
			continue;
		}
		if (*p == '\n') {
			s->lineno++;
			s->line_start = true;
		}
		p++;
	}
	s->p = p;
	return false;
}

int spec_parse(Arena *a, Unit *u)
{
	Cur c = {.a = a, .u = u};
	Scan s = {u->text, u->text + u->len, 1, true};
	const char *line, *body, *eol;
	while (scan_next(&s, &line, &body, &eol)) {
		c.line = line;
		c.lineno = s.lineno;
		c.p = body;
		c.end = pragma_end(body, eol);
		if (c.end > c.p && c.end[-1] == '\\') {
			error_at((Loc){u->path, s.lineno, (int)(c.end - 1 - line) + 1},
			         "line continuation in '#pragma kcc' is not supported");
			c.errors++;
			diag_note("write one pragma per line");
		} else
			spec_pragma(&c);
	}
	return c.errors;
}

int ir_spec_hash(const char *text, size_t len, char out[65])
{
	Scan s = {text, text + len, 1, true};
	Strbuf sb = STRBUF_INIT;
	const char *line, *body, *eol;
	int n = 0;
	while (scan_next(&s, &line, &body, &eol)) {
		const char *q = body, *e = pragma_end(body, eol), *k;
		n++;
		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		for (k = q; k < e && is_ident(*k);)
			k++;
		if (k - q == 4 && !strncmp(q, "tune", 4))
			continue;
		for (bool space = false; q < e; q++)
			if (*q == ' ' || *q == '\t' || *q == '\r')
				space = true;
			else {
				if (space)
					sb_addc(&sb, ' ');
				sb_addc(&sb, *q);
				space = false;
			}
		sb_addc(&sb, '\n');
	}
	sha256_hex(sb_str(&sb), sb.len, out);
	sb_release(&sb);
	return n;
}
