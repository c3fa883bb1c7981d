/*
 * check.h — the unit tests' tiny assertion kit: CHECK keeps going after a
 * failure (so one run shows every broken case) and check_summary() sets the
 * exit status.
 */
#ifndef KCC_CHECK_H
#define KCC_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures, check_count;

#define CHECK(cond)                                                            \
	do {                                                                   \
		check_count++;                                                 \
		if (!(cond)) {                                                 \
			check_failures++;                                      \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, \
			        __LINE__, #cond);                              \
		}                                                              \
	} while (0)

#define CHECK_STR(got, want)                                                   \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		check_count++;                                                 \
		if (!g_ || strcmp(g_, w_) != 0) {                              \
			check_failures++;                                      \
			fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n",    \
			        __FILE__, __LINE__, g_ ? g_ : "(null)", w_);   \
		}                                                              \
	} while (0)

static inline int check_summary(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
	return check_failures != 0;
}

#endif
