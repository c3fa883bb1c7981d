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

int spec_parse(Arena *a, Unit *u)
{
	Cur c = {.a = a, .u = u};
	const char *p = u->text, *end = u->text + u->len;
	int lineno = 1;
	bool line_start = true;
	while (p < end) {
		if (line_start) {
			const char *eol = memchr(p, '\n', (size_t)(end - p));
			if (!eol)
				eol = end;
			const char *body = match_pragma(p, eol);
			if (body) {
				c.line = p;
				c.lineno = lineno;
				c.p = body;
				c.end = pragma_end(body, eol);
				if (c.end > c.p && c.end[-1] == '\\') {
					error_at((Loc){u->path, lineno, (int)(c.end - 1 - p) + 1},
					         "line continuation in '#pragma kcc' is not supported");
					c.errors++;
					diag_note("write one pragma per line");
				} else
					spec_pragma(&c);
				p = eol;
				continue;
			}
		}
		line_start = false;
		/* Skip what could hide a fake pragma: comments, strings, chars. */
		if (p[0] == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		if (p[0] == '/' && p + 1 < end && p[1] == '*') {
			for (p += 2; p < end && !(p[0] == '*' && p + 1 < end && p[1] == '/'); p++)
				if (*p == '\n')
					lineno++;
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
			lineno++;
			line_start = true;
		}
		p++;
	}
	return c.errors;
}
