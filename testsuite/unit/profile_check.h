/*
 * profile_check.h — what the profile parsers' tests share: reading a
 * fixture under testsuite/ (the tests run there), a metric's value (NAN
 * when the profile lacks it) and a relative comparison.
 */
#ifndef KCC_PROFILE_CHECK_H
#define KCC_PROFILE_CHECK_H

#include "targets/target.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

/* The fixture's text, NUL-terminated, its length in *len (may be NULL);
 * NULL, with a message, when it cannot be read. */
static inline char *fixture(Arena *a, const char *path, size_t *len)
{
	char *text = NULL;
	size_t n = 0;
	if (file_read(a, path, &text, &n) != 0) {
		fprintf(stderr, "cannot read %s\n", path);
		return NULL;
	}
	if (len)
		*len = n;
	return text;
}

static inline double val(const Profile *p, const char *name)
{
	const ProfileMetric *m = profile_get(p, name);
	return m ? m->value : NAN;
}

static inline bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) + 1);
}

#endif
