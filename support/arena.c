/*
 * arena.c — one bump allocator per run. Everything with the lifetime of the
 * run (the source text, the IR, the spec, diagnostics' copies) lives here and
 * is freed at once at exit, so no stage has to track who frees what.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Chunk {
	struct Chunk *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
} Chunk;

struct Arena {
	Chunk *head;
};

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		fputs("kcc: fatal: out of memory\n", stderr);
		abort();
	}
	return p;
}

Arena *arena_new(void)
{
	Arena *a = xmalloc(sizeof *a);
	a->head = NULL;
	return a;
}

void arena_free(Arena *a)
{
	if (!a)
		return;
	for (Chunk *c = a->head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

void *arena_alloc(Arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (n == 0)
		n = 16;
	Chunk *c = a->head;
	if (!c || c->size - c->used < n) {
		size_t size = n > 65536 ? n : 65536;
		c = xmalloc(sizeof(Chunk) + size);
		c->size = size;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	void *p = c->data + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

void *arena_realloc(Arena *a, void *old, size_t oldn, size_t newn)
{
	if (newn <= oldn && old)
		return old;
	void *p = arena_alloc(a, newn);
	if (old && oldn)
		memcpy(p, old, oldn);
	return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *arena_strdup(Arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *p = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}
