/*
 * dirs.c — the cache dir, resolved by one rule for every folder: the LLM's
 * answers, the verdict memo, measured peaks, the GPU's description and the
 * QEMU plugin all live under it. The driver sets --cache-dir once
 * (dir_cache_set); whoever needs the dir asks dir_cache().
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *cache; /* resolved, malloc'd; lives until exit */

void dir_cache_set(const char *dir)
{
	free(cache);
	cache = dir && *dir ? strdup(dir) : NULL;
}

const char *dir_cache(void)
{
	if (cache)
		return cache;
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *base = xdg && *xdg ? xdg : home && *home ? home : "/tmp";
	const char *sub = xdg && *xdg ? "kcc" : ".cache/kcc";
	size_t n = strlen(base) + strlen(sub) + 2;
	cache = malloc(n);
	if (!cache)
		abort();
	snprintf(cache, n, "%s/%s", base, sub);
	return cache;
}
