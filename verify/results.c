/*
 * results.c — reading the binary records a harness writes (see
 * templates/kcc_main.h). The file comes from an untrusted process, so every
 * length is checked against what is left before it is used.
 */
#include "internal.h"

#include <string.h>

typedef struct {
	const unsigned char *p, *end;
} Rd;

static bool get(Rd *r, void *dst, size_t n)
{
	if ((size_t)(r->end - r->p) < n)
		return false;
	memcpy(dst, r->p, n);
	r->p += n;
	return true;
}

static int parse_call(Arena *a, Rd *r, int nparams, Results *res, size_t *cap)
{
	uint32_t idx, np;
	if (!get(r, &idx, 4) || !get(r, &np, 4) || np != (uint32_t)nparams)
		return -1;
	/* Records come in plan order (bench mode: the checked set's index). */
	if (res->ncalls && idx != (uint32_t)res->ncalls)
		return -1;
	ResBuf *bufs = arena_alloc(a, sizeof *bufs * (size_t)(nparams ? nparams : 1));
	for (int p = 0; p < nparams; p++) {
		uint32_t guard, esc;
		uint64_t nb;
		if (!get(r, &guard, 4) || !get(r, &esc, 4) || !get(r, &bufs[p].hash_before, 8) ||
		    !get(r, &bufs[p].hash_after, 8) || !get(r, &nb, 8))
			return -1;
		if (nb > (uint64_t)(r->end - r->p))
			return -1;
		bufs[p].guard_ok = guard == 1;
		bufs[p].escaped = esc != 0;
		bufs[p].nbytes = (size_t)nb;
		bufs[p].data = r->p;
		r->p += nb;
	}
	size_t n = (size_t)res->ncalls;
	ARENA_PUSH(a, res->calls, n, *cap, bufs);
	res->ncalls = (int)n;
	return 0;
}

static int parse_samples(Arena *a, Rd *r, Results *res)
{
	uint32_t n;
	if (!get(r, &n, 4) || (uint64_t)n * 16 > (uint64_t)(r->end - r->p))
		return -1;
	res->ev = arena_alloc(a, sizeof(double) * (n + 1));
	res->wall = arena_alloc(a, sizeof(double) * (n + 1));
	for (uint32_t i = 0; i < n; i++) {
		get(r, &res->ev[i], 8);
		get(r, &res->wall[i], 8);
	}
	res->nsamples = (int)n;
	return 0;
}

int results_parse(Arena *a, const char *data, size_t len, int nparams, Results *res)
{
	memset(res, 0, sizeof *res);
	Rd r = {(const unsigned char *)data, (const unsigned char *)data + len};
	uint32_t tag;
	size_t cap = 0;
	if (!get(&r, &tag, 4) || tag != KCC_RESULT_MAGIC)
		return -1;
	while (get(&r, &tag, 4)) {
		if (tag == KCC_TAG_END) {
			res->complete = r.p == r.end;
			return res->complete ? 0 : -1;
		}
		int rc = tag == KCC_TAG_CALL      ? parse_call(a, &r, nparams, res, &cap)
		         : tag == KCC_TAG_SAMPLES ? parse_samples(a, &r, res)
		                                  : -1;
		if (rc)
			return -1;
	}
	return 0; /* truncated: the calls read so far stand, complete is false */
}
