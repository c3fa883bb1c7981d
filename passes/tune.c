/*
 * tune.c — writing tuning choices into the source. The values kcc picks
 * for `#pragma kcc tune` macros and the compiler flags it picks (-O2) are
 * put into the file itself, as guarded #defines and `#pragma GCC` lines in
 * blocks marked `kcc:begin` / `kcc:end`: the emitted file then builds the
 * way it was measured with any compiler command, is verified exactly as
 * emitted, and kcc can replace the block when it tunes the file again.
 */
#include "passes.h"

#include <string.h>

static bool begins_block(const char *s, size_t n, const char *which)
{
	static const char tag[] = "/* kcc:begin";
	size_t t = sizeof tag - 1;
	if (n < t || strncmp(s, tag, t))
		return false;
	if (!which)
		return true;
	size_t w = strlen(which);
	return n >= t + 1 + w && s[t] == ' ' && !strncmp(s + t + 1, which, w);
}

static bool holds_end(const char *s, size_t n)
{
	for (size_t i = 0; i + 7 <= n; i++)
		if (!strncmp(s + i, "kcc:end", 7))
			return true;
	return false;
}

char *tune_strip(Arena *a, const char *text, size_t len, const char *which,
                 size_t *outlen)
{
	Strbuf sb = STRBUF_INIT;
	bool in = false;
	const char *s = text, *end = text + len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
		if (!in && begins_block(s, n, which))
			in = true;
		if (!in)
			sb_addn(&sb, s, n);
		else if (holds_end(s, n))
			in = false;
		s += n;
	}
	*outlen = sb.len;
	return sb.len ? sb_to_arena(&sb, a) : arena_strdup(a, "");
}

/* Byte offset just after the file's leading comment (block or // lines);
 * kcc's own tune and flags blocks are not part of it, so a new block never
 * lands inside an old one. */
static size_t after_leading_comment(const char *t, size_t len)
{
	size_t i = 0;
	for (;;) {
		size_t j = i;
		while (j < len && (t[j] == ' ' || t[j] == '\t' || t[j] == '\n'))
			j++;
		if (j < len && begins_block(t + j, len - j, "tune"))
			return i;
		if (j < len && begins_block(t + j, len - j, "flags"))
			return i;
		if (j + 1 < len && t[j] == '/' && t[j + 1] == '*') {
			const char *e = strstr(t + j + 2, "*/");
			if (!e)
				return i;
			j = (size_t)(e - t) + 2;
		} else if (j + 1 < len && t[j] == '/' && t[j + 1] == '/') {
			while (j < len && t[j] != '\n')
				j++;
		} else
			return i;
		while (j < len && t[j] != '\n')
			j++;
		i = j < len ? j + 1 : j;
	}
}

char *tune_apply(Arena *a, const char *text, size_t len, const TuneValue *v, int nv,
                 const MenuFlag *flag, size_t *outlen)
{
	size_t n = len;
	const char *t = text;
	if (nv > 0)
		t = tune_strip(a, t, n, "tune", &n);
	if (flag)
		t = tune_strip(a, t, n, "flags", &n);
	size_t at = after_leading_comment(t, n);
	Strbuf sb = STRBUF_INIT;
	sb_addn(&sb, t, at);
	if (at > 0 && t[at - 1] != '\n')
		sb_addc(&sb, '\n');
	if (flag && *flag->top)
		sb_addf(&sb, "/* kcc:begin flags %s */\n%s/* kcc:end flags */\n", flag->name,
		        flag->top);
	if (nv > 0) {
		sb_adds(&sb, "/* kcc:begin tune: values chosen by measurement */\n");
		for (int i = 0; i < nv; i++)
			sb_addf(&sb, "#ifndef %s\n#define %s %s\n#endif\n", v[i].name, v[i].name,
			        v[i].value);
		sb_adds(&sb, "/* kcc:end tune */\n");
	}
	sb_addn(&sb, t + at, n - at);
	if (flag && *flag->bottom) {
		if (sb.len && sb.buf[sb.len - 1] != '\n')
			sb_addc(&sb, '\n');
		sb_addf(&sb, "/* kcc:begin flags %s (end) */\n%s/* kcc:end flags */\n",
		        flag->name, flag->bottom);
	}
	*outlen = sb.len;
	return sb_to_arena(&sb, a);
}
