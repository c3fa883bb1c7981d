/*
 * scratch.c — working directories: the compiler's query program, the peak
 * micro-benchmarks, a profile program, a runner's own files each get a
 * fresh directory made here and removed here with what is in it. They land
 * under $TMPDIR, which the driver points at the run's temp root
 * (support/tempdir.c), so even one left behind goes at exit.
 */
#define _GNU_SOURCE
#include "runner.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

char *scratch_make(Arena *a, const char *dir, const char *prefix)
{
	char *path = arena_printf(a, "%s/%s-XXXXXX", dir && *dir ? dir : temp_base(), prefix);
	return mkdtemp(path);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	remove(path);
	return 0;
}

void scratch_remove(const char *path)
{
	if (path && *path)
		nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
