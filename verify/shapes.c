/*
 * shapes.c — kcc's own shapes, chosen to cover the classes of sizes where
 * kernels go wrong (issue 17): for every shape name, the values 1, 2, 3,
 * 4, 5, 6, 8, 9, 16, 17, 32, 33 (one and two, odd and even, even but not a
 * multiple of 4, multiples of 4, 8, 16 and 32 and one past each, primes),
 * varied one name at a time around the spec's first check shape, plus a
 * bounded random sample of combinations drawn per run. A value stays at or
 * below max(2 v, 9) for a check value v, and a shape whose buffers outgrow
 * the largest check shape's is left out, so the sweep stays cheap: all of
 * it runs in one harness process (verify.c, the "sweep" case).
 */
#include "internal.h"

#include <string.h>

static const int64_t CLASS_VALUES[] = {1, 2, 3, 4, 5, 6, 8, 9, 16, 17, 32, 33};

enum { MAX_SHAPES = 64, RANDOM_SHAPES = 6 };

static bool same_values(const Shape *a, const Shape *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (a->values[i] != b->values[i])
			return false;
	return true;
}

static void push(Arena *a, Shape **v, int *n, size_t *cap, const Shape *base,
                 const int64_t *values)
{
	Shape s = *base;
	s.values = arena_alloc(a, sizeof(int64_t) * (size_t)(base->n + 1));
	memcpy(s.values, values, sizeof(int64_t) * (size_t)base->n);
	for (int i = 0; i < *n; i++)
		if (same_values(&(*v)[i], &s))
			return;
	size_t k = (size_t)*n;
	ARENA_PUSH(a, *v, k, *cap, s);
	*n = (int)k;
}

static bool allowed(int64_t value, int64_t around)
{
	int64_t top = 2 * around > 9 ? 2 * around : 9;
	return value <= top;
}

int vr_class_shapes(VerifyRef *r, Shape **out)
{
	const Spec *sp = &r->u->spec;
	Shape *v = NULL;
	int n = 0;
	size_t cap = 0;
	for (int c = 0; c < (sp->ncheck ? 1 : 0); c++) {
		const Shape *s0 = &sp->check[c];
		int64_t *vals = arena_alloc(r->a, sizeof(int64_t) * (size_t)(s0->n + 1));
		for (int k = 0; k < s0->n; k++)
			for (size_t j = 0; j < ARRAY_LEN(CLASS_VALUES); j++) {
				if (!allowed(CLASS_VALUES[j], s0->values[k]) ||
				    CLASS_VALUES[j] == s0->values[k])
					continue;
				memcpy(vals, s0->values, sizeof(int64_t) * (size_t)s0->n);
				vals[k] = CLASS_VALUES[j];
				push(r->a, &v, &n, &cap, s0, vals);
			}
	}
	/* Combinations: every name drawn at once, per run (the seed says which). */
	if (sp->ncheck) {
		const Shape *s0 = &sp->check[0];
		int64_t *vals = arena_alloc(r->a, sizeof(int64_t) * (size_t)(s0->n + 1));
		uint64_t st = r->master ^ 0x73686170657321ull;
		for (int t = 0; t < RANDOM_SHAPES; t++) {
			for (int k = 0; k < s0->n; k++) {
				int64_t pick;
				do
					pick = CLASS_VALUES[kcc_mix(st++) % ARRAY_LEN(CLASS_VALUES)];
				while (!allowed(pick, s0->values[k]));
				vals[k] = pick;
			}
			push(r->a, &v, &n, &cap, s0, vals);
		}
	}
	/* Bounded: a random subset when the spec has many names. */
	uint64_t st = r->master ^ 0x73756273657421ull;
	while (n > MAX_SHAPES) {
		int drop = (int)(kcc_mix(st++) % (uint64_t)n);
		v[drop] = v[--n];
	}
	*out = v;
	return n;
}
