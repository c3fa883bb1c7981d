/*
 * template.c — the prompt templates. The words sent to the LLM live in
 * passes/prompts/ (the .txt files, built into kcc by embed.cmake, as the default
 * menus are), not in C strings: a person reads and edits them as text.
 * Templates have {{NAME}} placeholders that the stages fill.
 */
#include "passes.h"

#include <string.h>

extern const EmbeddedFile passes_files[];

const char *passes_builtin(const char *name, size_t *len)
{
	return embedded_find(passes_files, name, len);
}

static int lookup(const char *s, size_t n, const char *const *names, int count)
{
	for (int i = 0; i < count; i++)
		if (strlen(names[i]) == n && !strncmp(names[i], s, n))
			return i;
	return -1;
}

char *prompt_fill(Arena *a, const char *tmpl, const char *const *names,
                  const char *const *values, int n)
{
	Strbuf sb = STRBUF_INIT;
	const char *p = tmpl;
	for (;;) {
		const char *open = strstr(p, "{{");
		const char *close = open ? strstr(open + 2, "}}") : NULL;
		if (!close) {
			sb_adds(&sb, p);
			break;
		}
		sb_addn(&sb, p, (size_t)(open - p));
		int k = lookup(open + 2, (size_t)(close - open - 2), names, n);
		if (k >= 0)
			sb_adds(&sb, values[k] ? values[k] : "");
		else
			sb_addn(&sb, open, (size_t)(close + 2 - open));
		p = close + 2;
	}
	return sb_to_arena(&sb, a);
}

const char *prompt_section(Arena *a, const char *doc, const char *name)
{
	if (!doc)
		return NULL;
	const char *head = arena_printf(a, "## %s\n", name);
	const char *p = strstr(doc, head);
	while (p && p != doc && p[-1] != '\n')
		p = strstr(p + 1, head);
	if (!p)
		return NULL;
	p += strlen(head);
	const char *end = strstr(p, "\n## ");
	size_t n = end ? (size_t)(end - p) : strlen(p);
	while (n && (p[n - 1] == '\n' || p[n - 1] == ' '))
		n--;
	return arena_strndup(a, p, n);
}
