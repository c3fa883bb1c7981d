/*
 * extract.c — getting the code out of an LLM's answer. Models wrap the file
 * in a Markdown fence (``` or ~~~, tagged or not), sometimes several, and
 * sometimes forget to close the last one when they run out of tokens.
 *
 * Rules: among the fenced blocks prefer those tagged with the expected
 * language, then untagged or other C-family ones, and take the largest;
 * an unterminated fence runs to the end; with no fence at all the whole
 * answer is code only if it looks like code. The text outside the blocks is
 * the plan. The answer comes from outside, so sizes are capped, NUL bytes
 * are refused and CRLF line ends are tolerated.
 */
#include "internal.h"

#include <ctype.h>
#include <string.h>

typedef struct {
	const char *tag; /* lowercased first word of the info string */
	size_t start, end; /* content [start, end) in the normalized text */
	int rank;
} Block;

/* A copy with CRLF turned into LF; NULL and *err on bad input. */
static char *normalize(Arena *a, const char *s, size_t len, const char **err)
{
	if (!s || len > LLM_MAX_ANSWER) {
		*err = s ? "the answer is larger than 1 MiB" : "no answer";
		return NULL;
	}
	if (memchr(s, 0, len)) {
		*err = "the answer contains a NUL byte";
		return NULL;
	}
	char *d = arena_alloc(a, len + 1);
	size_t k = 0;
	for (size_t i = 0; i < len; i++)
		if (!(s[i] == '\r' && i + 1 < len && s[i + 1] == '\n'))
			d[k++] = s[i];
	d[k] = 0;
	return d;
}

/* If the line at p opens or closes a fence, its char and length. */
static size_t fence_at(const char *p, char *ch)
{
	int indent = 0;
	while (*p == ' ' && indent < 4)
		p++, indent++;
	if (indent > 3 || (*p != '`' && *p != '~'))
		return 0;
	size_t n = 0;
	while (p[n] == *p)
		n++;
	if (n < 3)
		return 0;
	*ch = *p;
	return n;
}

static const char *line_end(const char *p)
{
	const char *e = strchr(p, '\n');
	return e ? e : p + strlen(p);
}

/* The info string's first word, lowercased, with a leading '.' or '{'
 * (pandoc's ```{.c}) dropped. */
static const char *fence_tag(Arena *a, const char *p, const char *eol, char ch,
                             size_t n)
{
	while (*p == ' ')
		p++;
	p += n;
	while (p < eol && (*p == ' ' || *p == '\t' || *p == '{' || *p == '.'))
		p++;
	const char *q = p;
	while (q < eol && !isspace((unsigned char)*q) && *q != '}' && *q != ch)
		q++;
	char *t = arena_strndup(a, p, (size_t)(q - p));
	for (char *c = t; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return t;
}

/* Does the closing line at p close a fence of ch x n? */
static bool closes(const char *p, const char *eol, char ch, size_t n)
{
	char c2;
	size_t m = fence_at(p, &c2);
	if (!m || c2 != ch || m < n)
		return false;
	while (*p == ' ')
		p++;
	for (p += m; p < eol; p++)
		if (!isspace((unsigned char)*p))
			return false;
	return true;
}

static bool in_list(const char *t, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(t, *list) == 0)
			return true;
	return false;
}

/* 2: the expected language; 1: untagged or another C-family tag; 0: not C. */
static int rank(const char *tag, const char *lang)
{
	static const char *const c[] = {"c", "h", NULL};
	static const char *const cuda[] = {"cuda", "cu", "cuh", NULL};
	static const char *const cpp[] = {"cpp", "c++", "cxx", "cc", "hpp", NULL};
	static const char *const *fams[] = {c, cuda, cpp};
	const char *want = lang ? lang : "c";
	for (size_t i = 0; i < ARRAY_LEN(fams); i++)
		if (in_list(want, fams[i]) && in_list(tag, fams[i]))
			return 2;
	if (!*tag)
		return 1;
	for (size_t i = 0; i < ARRAY_LEN(fams); i++)
		if (in_list(tag, fams[i]))
			return 1;
	return 0;
}

/* Find the fenced blocks; the text outside them goes to plan. */
static int scan(Arena *a, const char *s, const char *lang, Block **out,
                Strbuf *plan)
{
	Block *v = NULL;
	size_t n = 0, cap = 0;
	for (const char *p = s; *p;) {
		const char *eol = line_end(p);
		const char *next = *eol ? eol + 1 : eol;
		char ch;
		size_t fl = fence_at(p, &ch);
		const char *info = p + strspn(p, " ") + fl;
		/* CommonMark: a backtick fence's info string has no backtick. */
		if (!fl || (ch == '`' && memchr(info, '`', (size_t)(eol - info)))) {
			sb_addn(plan, p, (size_t)(next - p));
			p = next;
			continue;
		}
		Block b = {fence_tag(a, p, eol, ch, fl), (size_t)(next - s), 0, 0};
		const char *q = next;
		while (*q && !closes(q, line_end(q), ch, fl))
			q = *line_end(q) ? line_end(q) + 1 : line_end(q);
		b.end = (size_t)(q - s);
		b.rank = rank(b.tag, lang);
		ARENA_PUSH(a, v, n, cap, b);
		p = *q ? (*line_end(q) ? line_end(q) + 1 : line_end(q)) : q;
	}
	*out = v;
	return (int)n;
}

/* A fence-less answer is code when most of its lines end like C lines. */
static bool looks_like_code(const char *s)
{
	if (!strchr(s, '{') || !strchr(s, '}') || !strchr(s, ';'))
		return false;
	int lines = 0, codey = 0;
	for (const char *p = s; *p;) {
		const char *eol = line_end(p), *b = p, *e = eol;
		while (b < e && isspace((unsigned char)*b))
			b++;
		while (e > b && isspace((unsigned char)e[-1]))
			e--;
		if (e > b) {
			lines++;
			char last = e[-1];
			codey += *b == '#' || last == ';' || last == '{' || last == '}' ||
			         last == ')' || last == ',' || (e - b >= 2 && b[0] == '/' &&
			                                        (b[1] == '/' || b[1] == '*'));
		}
		p = *eol ? eol + 1 : eol;
	}
	return lines > 0 && codey * 10 >= lines * 6;
}

static const char *trim(Arena *a, const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return arena_strndup(a, s, n);
}

/* Code with exactly one trailing newline. */
static const char *as_file(Arena *a, const char *s, size_t n)
{
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	char *d = arena_alloc(a, n + 2);
	memcpy(d, s, n);
	d[n] = '\n';
	return d;
}

int llm_extract_code(Arena *a, const char *answer, size_t len,
                     const char *lang, LlmExtract *out, const char **err)
{
	memset(out, 0, sizeof *out);
	char *s = normalize(a, answer, len, err);
	if (!s)
		return -1;
	Block *b;
	Strbuf plan = STRBUF_INIT;
	int n = scan(a, s, lang, &b, &plan);
	out->plan = trim(a, sb_str(&plan), plan.len);
	sb_release(&plan);
	out->nblocks = n;
	int best = -1;
	for (int i = 0; i < n; i++) {
		if (b[i].rank == 0)
			continue;
		if (best < 0 || b[i].rank > b[best].rank ||
		    (b[i].rank == b[best].rank &&
		     b[i].end - b[i].start > b[best].end - b[best].start))
			best = i;
	}
	if (best >= 0) {
		out->code = as_file(a, s + b[best].start, b[best].end - b[best].start);
		out->lang = b[best].tag;
		return 0;
	}
	if (n == 0 && looks_like_code(s)) {
		out->code = as_file(a, s, strlen(s));
		out->lang = "";
		out->plan = "";
		return 0;
	}
	*err = n ? arena_printf(a, "no %s code block in the answer (only '%s')",
	                        lang ? lang : "c", b[0].tag)
	         : "no code block in the answer";
	return -1;
}

const char *llm_extract_plan(Arena *a, const char *answer, size_t len,
                             const char **err)
{
	char *s = normalize(a, answer, len, err);
	if (!s)
		return NULL;
	Block *b;
	Strbuf plan = STRBUF_INIT;
	scan(a, s, NULL, &b, &plan);
	const char *r = trim(a, sb_str(&plan), plan.len);
	sb_release(&plan);
	return r;
}
