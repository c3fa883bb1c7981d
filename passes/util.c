/*
 * util.c — the small helpers the files of passes/ share: the search's
 * random numbers and a compiler-flags string as an argv. It
 * depends on nothing else in passes/.
 */
#include "internal.h"

/* splitmix64 */
uint64_t passes_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

const char *const *passes_split_flags(Arena *a, const char *flags)
{
	const char **v = NULL;
	size_t n = 0, cap = 0;
	for (const char *p = flags; p && *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		const char *st = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (p > st)
			ARENA_PUSH(a, v, n, cap, arena_strndup(a, st, (size_t)(p - st)));
	}
	ARENA_PUSH(a, v, n, cap, NULL);
	return v;
}
