/*
 * profile_ask.c — the extra metrics a plan asks for on its `Metrics:`
 * lines (ProfileAsk): each token is untrusted text that may end up on the
 * profiler's command line, so only a metric name is taken; the rest are
 * kept, defanged, to tell the planner.
 */
#include "internal.h"

#include <string.h>
#include <strings.h>

/* ---- extra metrics asked for by the plan ---------------------------------------- */

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.';
}

/* A token of a Metrics: line is untrusted: it becomes part of an argument
 * of the profiler's command line, so it is a name or nothing. */
static bool metric_name(const char *s, size_t n)
{
	if (n == 0 || n > 128 || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!name_char(s[i]))
			return false;
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == '_' && s[i + 1] == '_')
			return true;
	return false;
}

static void ask_bad(Arena *a, ProfileAsk *ask, const char *s, size_t n)
{
	if (ask->nbad == PROFILE_ASK_BAD)
		return;
	Strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n && i < 40; i++)
		sb_addc(&sb, name_char(s[i]) ? s[i] : '?');
	if (n > 40)
		sb_adds(&sb, "...");
	const char *shown = sb_to_arena(&sb, a);
	for (int i = 0; i < ask->nbad; i++)
		if (!strcmp(ask->bad[i], shown))
			return;
	ask->bad[ask->nbad++] = shown;
}

/* One item of a Metrics: line: its first word, decoration trimmed. */
static int ask_item(Arena *a, ProfileAsk *ask, const char *s, size_t n)
{
	static const char deco[] = "`*\"'";
	size_t i = 0;
	while (i < n && (strchr(" \t", s[i]) || strchr(deco, s[i])))
		i++;
	size_t j = i;
	while (j < n && s[j] != ' ' && s[j] != '\t')
		j++;
	while (j > i && (strchr(deco, s[j - 1]) || s[j - 1] == '.'))
		j--;
	s += i, n = j - i;
	if (n == 0 || (n == 4 && !strncasecmp(s, "none", 4)))
		return 0;
	if (!metric_name(s, n)) {
		ask_bad(a, ask, s, n);
		return 0;
	}
	for (int k = 0; k < ask->n; k++)
		if (strlen(ask->name[k]) == n && !strncmp(ask->name[k], s, n))
			return 0;
	if (ask->n == PROFILE_ASK_MAX) {
		ask->full = true;
		return 0;
	}
	ask->name[ask->n++] = arena_strndup(a, s, n);
	return 1;
}

/* The rest of the line after "Metrics:", or NULL when it is not one. */
static const char *metrics_line(const char *p, const char *eol)
{
	while (p < eol && strchr(" \t*-#>`", *p))
		p++;
	if (eol - p < 7 || strncasecmp(p, "metrics", 7))
		return NULL;
	p += 7;
	while (p < eol && strchr("*`", *p))
		p++;
	return p < eol && *p == ':' ? p + 1 : NULL;
}

int profile_ask_parse(Arena *a, const char *plan, ProfileAsk *ask)
{
	int added = 0;
	for (const char *p = plan; p && *p;) {
		const char *eol = p + strcspn(p, "\r\n");
		const char *q = metrics_line(p, eol);
		while (q && q < eol) {
			const char *comma = memchr(q, ',', (size_t)(eol - q));
			const char *end = comma ? comma : eol;
			added += ask_item(a, ask, q, (size_t)(end - q));
			q = end + 1;
		}
		p = *eol ? eol + 1 : eol;
	}
	return added;
}

bool profile_ask_same(const ProfileAsk *a, const ProfileAsk *b)
{
	static const ProfileAsk none;
	a = a ? a : &none;
	b = b ? b : &none;
	if (a->n != b->n || a->full != b->full || a->nbad != b->nbad)
		return false;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->name[i], b->name[i]))
			return false;
	for (int i = 0; i < a->nbad; i++)
		if (strcmp(a->bad[i], b->bad[i]))
			return false;
	return true;
}
