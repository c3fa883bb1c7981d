/*
 * kcc_harness.h — the common prelude of every generated harness: failure
 * exits with stable codes (kcc maps them to verdict reasons), the plan kcc
 * writes and the result records the harness writes back.
 *
 * Exit codes: 0 ok, 2 bad plan or I/O (kcc's fault), 3 CUDA error, 4 the
 * entry returned non-zero, 5 out of memory. Anything else is the
 * candidate's doing (a signal, an exit() of its own).
 */
#ifndef KCC_HARNESS_H
#define KCC_HARNESS_H

#include "kcc_rt.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kcc_sandbox.h"

typedef struct {
	const char *name;
	int type;  /* the spec's element type (how values are generated) */
	int store; /* how it is stored: f64 for promoted f32 */
	int role;
} KccParam;

static void kcc_fail(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "kcc-harness: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	fflush(stderr);
	_Exit(code);
}

static double kcc_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *kcc_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		kcc_fail(5, "out of host memory (%zu bytes)", n);
	return p;
}

static long long kcc_read_num(FILE *f)
{
	long long v;
	if (fscanf(f, "%lld", &v) != 1)
		kcc_fail(2, "malformed plan");
	return v;
}

static double kcc_read_dbl(FILE *f)
{
	double v;
	if (fscanf(f, "%lf", &v) != 1)
		kcc_fail(2, "malformed plan");
	return v;
}

static void kcc_put(FILE *f, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, f) != n)
		kcc_fail(2, "cannot write results");
}

static void kcc_put32(FILE *f, uint32_t v)
{
	kcc_put(f, &v, 4);
}

static void kcc_put64(FILE *f, uint64_t v)
{
	kcc_put(f, &v, 8);
}

#endif
