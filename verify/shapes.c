/*
 * shapes.c — kcc's own shapes, chosen to cover the classes of sizes where
 * kernels go wrong (issue 17): for every shape name, the values 1, 2, 3,
 * 4, 5, 6, 8, 9, 16, 17, 32, 33 (one and two, odd and even, even but not a
 * multiple of 4, multiples of 4, 8, 16 and 32 and one past each, primes),
 * varied one name at a time around the spec's first check shape, plus a
 * bounded random sample of combinations drawn per run. A value stays at or
 * below max(2 v, 9) for a check value v, and a shape whose buffers outgrow
 * the largest check shape's is left out, so the sweep stays cheap: all of
 * it runs in one harness process, the sweep case below: calls A and P of
 * the matrix at every class shape where the original runs cleanly.
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

/* ---- the sweep ---------------------------------------------------------------- */

/* The sweep case over subs[0..n): calls A and P of the matrix at each,
 * all in one harness process (buffers are reallocated as sizes change). */
static Case sweep_case(VerifyRef *r, Case *subs, int n)
{
	Case c;
	memset(&c, 0, sizeof c);
	c.shape = r->u->spec.check[0];
	c.edge = true;
	c.text = arena_printf(r->a, "(kcc's %d class shapes)", n);
	c.ncalls = 2 * n;
	PlanCall *calls = arena_alloc(r->a, sizeof(PlanCall) * (size_t)(c.ncalls + 1));
	c.calls = calls;
	c.call_case = arena_alloc(r->a, sizeof(Case *) * (size_t)(c.ncalls + 1));
	int ia = vr_call_index(r, CALL_A), ip = vr_call_index(r, CALL_PERTURB);
	Strbuf sb = STRBUF_INIT;
	sb_adds(&sb, vr_plan_header(r->a, r, 0, c.ncalls));
	for (int k = 0; k < n; k++)
		for (int j = 0; j < 2; j++) {
			PlanCall pc = r->calls[j ? ip : ia];
			pc.what = arena_printf(r->a, "%s, at kcc's class shape %s", j ? "P" : "A",
			                       subs[k].text);
			calls[2 * k + j] = pc;
			c.call_case[2 * k + j] = &subs[k];
			vr_plan_call(&sb, r, &subs[k], &pc);
			if (subs[k].bytes > c.bytes)
				c.bytes = subs[k].bytes;
		}
	c.plan = sb_to_arena(&sb, r->a);
	return c;
}

/* The class shape whose call made the original's sweep unusable, or -1. */
static int sweep_culprit(VerifyRef *r, const Case *c, VerifyReason vr)
{
	const Spec *sp = &r->u->spec;
	if (vr != VR_OK || c->ref.ncalls != c->ncalls)
		return c->ref.ncalls < c->ncalls ? c->ref.ncalls / 2 : c->ncalls / 2 - 1;
	for (int i = 0; i < c->ncalls; i++)
		for (int p = 0; p < sp->nparams; p++) {
			const ResBuf *b = &c->ref.calls[i][p];
			const SpecParam *pp = &sp->params[p];
			if (!b->guard_ok || (pp->role == ROLE_IN && b->hash_after != b->hash_before) ||
			    (pp->role == ROLE_OUT && c->calls[i].base == CALL_A &&
			     vr_has_poison(r, pp->type, b, NULL)))
				return i / 2;
		}
	return -1;
}

/* Build the sweep and run the original over it; a class shape where the
 * original fails (crash, guard, unwritten) is dropped and the rest run
 * again, a few times at most. */
void vr_prepare_sweep(VerifyRef *r)
{
	Shape *shapes = NULL;
	int n = r->o.edge_shapes && r->u->spec.ncheck ? vr_class_shapes(r, &shapes) : 0;
	uint64_t most = 0;
	for (int i = 0; i < r->ncases; i++)
		most = r->cases[i].bytes > most ? r->cases[i].bytes : most;
	Case *subs = arena_alloc(r->a, sizeof(Case) * (size_t)(n + 1));
	int ns = 0, dropped = 0;
	for (int i = 0; i < n; i++) {
		const char *why;
		if (!vr_known_shape(r, &shapes[i]) &&
		    vr_make_case(r, &shapes[i], true, &subs[ns], &why) == 0 && subs[ns].bytes <= most)
			ns++;
	}
	for (int attempt = 0; ns > 0 && attempt < 16; attempt++) {
		Case c = sweep_case(r, subs, ns);
		const char *log;
		VerifyReason vr = vr_run_harness(r, r->ref_exe, c.plan, "ref", r->o.ceiling_s, &c.ref,
		                                 &log);
		int bad = sweep_culprit(r, &c, vr);
		if (bad >= 0) {
			memmove(&subs[bad], &subs[bad + 1], sizeof(Case) * (size_t)(ns - bad - 1));
			ns--;
			dropped++;
			continue;
		}
		c.ref_wall = c.ref.wall_s;
		if (r->y64_exe) {
			vr = vr_run_harness(r, r->y64_exe, c.plan, "f64", r->o.ceiling_s, &c.y64, &log);
			c.have_y64 = vr == VR_OK && c.y64.ncalls == c.ncalls;
		}
		size_t k = (size_t)r->ncases, cap = k;
		ARENA_PUSH(r->a, r->cases, k, cap, c);
		r->ncases = (int)k;
		if (dropped)
			vr_ref_note(r, arena_printf(r->a, "%d of kcc's class shapes dropped: the "
			                                  "original fails there",
			                            dropped));
		return;
	}
	if (n)
		vr_ref_note(r, "kcc's class shapes not used: the original fails at too many");
}
