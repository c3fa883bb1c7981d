/*
 * strvec.c — the one way kcc assembles an argument vector, as git's
 * strvec: push words one at a time (formatted, or a whole NULL-terminated
 * list), and the vector is NULL-terminated after every push, so v.v is an
 * argv for proc_run at any moment. The words and the array live in the
 * arena, so there is nothing to free; clear empties it for reuse.
 */
#include "runner.h"

#include <stdarg.h>

void strvec_push(Strvec *v, const char *s)
{
	if (v->n + 1 >= v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 16;
		v->v = arena_realloc(v->a, v->v, v->cap * sizeof *v->v, cap * sizeof *v->v);
		v->cap = cap;
	}
	v->v[v->n++] = s;
	v->v[v->n] = NULL;
}

void strvec_pushf(Strvec *v, const char *fmt, ...)
{
	Strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	strvec_push(v, sb_to_arena(&sb, v->a));
}

void strvec_pushl(Strvec *v, ...)
{
	va_list ap;
	va_start(ap, v);
	for (const char *s; (s = va_arg(ap, const char *));)
		strvec_push(v, s);
	va_end(ap);
}

void strvec_pushv(Strvec *v, const char *const *words)
{
	for (size_t i = 0; words && words[i]; i++)
		strvec_push(v, words[i]);
}

void strvec_pushv_prefix(Strvec *v, const char *prefix, const char *const *words)
{
	for (size_t i = 0; words && words[i]; i++)
		strvec_pushf(v, "%s%s", prefix, words[i]);
}

const char **strvec_detach(Strvec *v)
{
	if (!v->v)
		strvec_clear(v);
	return v->v;
}

void strvec_clear(Strvec *v)
{
	v->n = 0;
	if (!v->v) {
		v->v = arena_alloc(v->a, 16 * sizeof *v->v);
		v->cap = 16;
	}
	v->v[0] = NULL;
}
