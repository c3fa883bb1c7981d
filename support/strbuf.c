/*
 * strbuf.c — a growable, always NUL-terminated string, as git's strbuf: the
 * only way kcc builds strings in pieces (prompts, JSON, command lines).
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_grow(Strbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	char *p = realloc(sb->buf, cap);
	if (!p) {
		fputs("kcc: fatal: out of memory\n", stderr);
		abort();
	}
	sb->buf = p;
	sb->cap = cap;
}

void sb_addn(Strbuf *sb, const char *s, size_t n)
{
	sb_grow(sb, n);
	if (n)
		memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = 0;
}

void sb_adds(Strbuf *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

void sb_addc(Strbuf *sb, char c)
{
	sb_addn(sb, &c, 1);
}

void sb_vaddf(Strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n <= 0)
		return;
	sb_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_addf(Strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sb_reset(Strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = 0;
}

void sb_release(Strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

const char *sb_str(Strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *sb_to_arena(Strbuf *sb, Arena *a)
{
	char *p = arena_strndup(a, sb_str(sb), sb->len);
	sb_release(sb);
	return p;
}
