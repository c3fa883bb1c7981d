/*
 * matrix.c — the test matrix (DESIGN 5.2): the cases (every `shape check`,
 * plus kcc's edge shapes: all names 1; each name the next prime) and the
 * calls each case's one harness process runs: A (seed 1, sentinel poison),
 * P (A's inputs with a few elements redrawn), B (same buffers, new inputs,
 * NaN poison), A' (new buffers, A's inputs), more random seeds, an
 * exact-integer call and repeats of A. A plan is the text that tells the
 * harness which calls to make at which sizes.
 */
#include "internal.h"

#include <string.h>

static uint64_t seed_n(const VerifyRef *r, int k)
{
	return kcc_mix(r->master + (uint64_t)k * 0x632be59bd9b4e019ull) >> 1;
}

char *vr_shape_text(Arena *a, const Shape *s)
{
	Strbuf sb = STRBUF_INIT;
	for (int i = 0; i < s->n; i++)
		if (s->real && s->real[i])
			sb_addf(&sb, "%s%s=%g", i ? " " : "", s->names[i], s->reals[i]);
		else
			sb_addf(&sb, "%s%s=%lld", i ? " " : "", s->names[i], (long long)s->values[i]);
	return sb_to_arena(&sb, a);
}

static int eval_or(const Expr *e, const Shape *s, int64_t dflt, int64_t *out)
{
	const char *why;
	const Expr *bad;
	if (!e) {
		*out = dflt;
		return 0;
	}
	return expr_eval(e, s, out, &why, &bad);
}

int vr_make_case(VerifyRef *r, const Shape *sh, bool edge, Case *c, const char **why)
{
	const Spec *sp = &r->u->spec;
	memset(c, 0, sizeof *c);
	c->shape = *sh;
	c->edge = edge;
	c->text = vr_shape_text(r->a, sh);
	c->calls = r->calls;
	c->ncalls = r->ncalls;
	int np = sp->nparams;
	c->n = arena_alloc(r->a, sizeof(int64_t) * (size_t)(np + 1));
	c->lo = arena_alloc(r->a, sizeof(int64_t) * (size_t)(np + 1));
	c->hi = arena_alloc(r->a, sizeof(int64_t) * (size_t)(np + 1));
	c->s = arena_alloc(r->a, sizeof(int64_t) * (size_t)(r->bind.nscalars + 1));
	for (int p = 0; p < np; p++) {
		const SpecParam *pp = &sp->params[p];
		if (spec_extent(pp, sh, &c->n[p], why) != 0)
			return -1;
		if (eval_or(pp->lo, sh, 0, &c->lo[p]) || eval_or(pp->hi, sh, 0, &c->hi[p])) {
			*why = "range() does not evaluate";
			return -1;
		}
		if (pp->hi && c->hi[p] <= c->lo[p]) {
			*why = arena_printf(r->a, "empty range for '%s'", pp->name);
			return -1;
		}
		c->bytes += (uint64_t)c->n[p] * elem_size(pp->type);
	}
	for (int i = 0; i < r->bind.nscalars; i++) {
		bool found;
		c->s[i] = shape_get(sh, r->bind.scalars[i], &found);
		if (r->bind.fp[i]) { /* a double travels as its bits */
			double d = shape_get_real(sh, r->bind.scalars[i], &found);
			memcpy(&c->s[i], &d, sizeof d);
		}
		if (!found) {
			*why = arena_printf(r->a, "shape does not set '%s'", r->bind.scalars[i]);
			return -1;
		}
	}
	return 0;
}

/* ---- the calls ---------------------------------------------------------------- */

static void push_call(VerifyRef *r, size_t *cap, int kind, int set, uint64_t seed, int fill,
                      int poison, const char *what)
{
	PlanCall c = {.set = set, .seed = seed, .fill = fill, .poison = poison, .what = what,
	              .base = kind, .pert = kind == CALL_PERTURB ? 3 : 0};
	size_t n = (size_t)r->ncalls;
	ARENA_PUSH(r->a, r->calls, n, *cap, c);
	r->ncalls = (int)n;
}

void vr_make_calls(VerifyRef *r)
{
	size_t cap = 0;
	uint64_t s1 = seed_n(r, 1);
	push_call(r, &cap, CALL_A, 0, s1, KCC_FILL_RANDOM, KCC_POISON_SENTINEL, "A");
	/* A memo keyed on a few sampled elements, the pointers or the sizes
	 * answers this one with A's outputs. */
	push_call(r, &cap, CALL_PERTURB, 0, s1, KCC_FILL_RANDOM, KCC_POISON_NAN,
	          "P (A's inputs with 3 elements per input redrawn)");
	push_call(r, &cap, CALL_B, 0, seed_n(r, 2), KCC_FILL_RANDOM, KCC_POISON_NAN,
	          "B (same buffers, new inputs)");
	push_call(r, &cap, CALL_A2, 1, s1, KCC_FILL_RANDOM, KCC_POISON_NAN,
	          "A' (new buffers, A's inputs)");
	for (int k = 3; k <= (r->o.nseeds > 3 ? r->o.nseeds : 3); k++)
		push_call(r, &cap, CALL_SEED, 0, seed_n(r, k), KCC_FILL_RANDOM,
		          k & 1 ? KCC_POISON_SENTINEL : KCC_POISON_NAN,
		          arena_printf(r->a, "seed %d", k));
	if (r->o.exact_mode)
		push_call(r, &cap, CALL_EXACT, 0, seed_n(r, 100), KCC_FILL_EXACT,
		          KCC_POISON_SENTINEL, "exact (small-integer inputs)");
	int reps = r->o.paranoid && r->o.repeats < 10 ? 10 : r->o.repeats;
	reps = reps < 4 ? 4 : reps; /* A and at least three repeats to compare */
	for (int k = 2; k <= reps; k++)
		push_call(r, &cap, CALL_REPEAT, 0, s1, KCC_FILL_RANDOM, KCC_POISON_SENTINEL,
		          arena_printf(r->a, "repeat %d of A", k));
}

int vr_call_index(const VerifyRef *r, int kind)
{
	for (int i = 0; i < r->ncalls; i++)
		if (r->calls[i].base == kind)
			return i;
	return -1;
}

/* ---- plans ---------------------------------------------------------------------- */

void vr_plan_call(Strbuf *sb, const VerifyRef *r, const Case *c, const PlanCall *pc)
{
	sb_addf(sb, "%d %llu %d %d %d", pc->set, (unsigned long long)pc->seed, pc->fill,
	        pc->poison, pc->pert);
	for (int p = 0; p < r->u->spec.nparams; p++)
		sb_addf(sb, "  %lld %lld %lld", (long long)c->n[p], (long long)c->lo[p],
		        (long long)c->hi[p]);
	if (!r->u->spec.nparams)
		sb_adds(sb, "  0 0 0");
	sb_adds(sb, " ");
	for (int i = 0; i < r->bind.nscalars; i++)
		sb_addf(sb, " %lld", (long long)c->s[i]);
	sb_addc(sb, '\n');
}

/* Mode, the harness's shape, the calls planned, the sandbox, the run's
 * guard and poison seeds. */
const char *vr_plan_header(Arena *a, const VerifyRef *r, int mode, int ncalls)
{
	return arena_printf(a, "%d %d %d %llu %d %d %llu %llu\n", mode,
	                    r->u->spec.nparams ? r->u->spec.nparams : 1, r->bind.nscalars,
	                    (unsigned long long)r->info.flush_bytes, ncalls, r->o.sandbox ? 1 : 0,
	                    (unsigned long long)(r->gseed >> 1), (unsigned long long)(r->psalt >> 1));
}

/* As text: it goes to the harness on stdin, never through the file system. */
const char *vr_write_plan(VerifyRef *r, const Case *c, const PlanCall *calls, int n)
{
	Strbuf sb = STRBUF_INIT;
	sb_adds(&sb, vr_plan_header(r->a, r, 0, n));
	for (int i = 0; i < n; i++)
		vr_plan_call(&sb, r, c, &calls[i]);
	return sb_to_arena(&sb, r->a);
}

/* ---- the cases ------------------------------------------------------------------- */

bool vr_known_shape(const VerifyRef *r, const Shape *sh)
{
	for (int i = 0; i < r->ncases; i++) {
		const Shape *o = &r->cases[i].shape;
		bool same = o->n == sh->n;
		for (int k = 0; same && k < sh->n; k++)
			same = o->values[k] == sh->values[k];
		if (same)
			return true;
	}
	return false;
}

static void add_shape(VerifyRef *r, size_t *cap, const Shape *sh, bool edge)
{
	if (vr_known_shape(r, sh))
		return;
	Case c;
	const char *why = "?";
	if (vr_make_case(r, sh, edge, &c, &why) != 0) {
		if (!edge)
			error_at(sh->loc, "shape %s: %s", vr_shape_text(r->a, sh), why);
		return;
	}
	size_t n = (size_t)r->ncases;
	ARENA_PUSH(r->a, r->cases, n, *cap, c);
	r->ncases = (int)n;
}

static int64_t next_prime(int64_t v)
{
	for (int64_t p = v + 1;; p++) {
		bool prime = p > 1;
		for (int64_t d = 2; prime && d * d <= p; d++)
			prime = p % d != 0;
		if (prime)
			return p;
	}
}

static void edge_shape(VerifyRef *r, size_t *cap, bool ones)
{
	const Shape *s0 = &r->u->spec.check[0];
	Shape e = *s0;
	e.values = arena_alloc(r->a, sizeof(int64_t) * (size_t)(s0->n + 1));
	for (int i = 0; i < s0->n; i++) {
		bool fp = s0->real && s0->real[i];
		for (int k = 0; k < r->bind.nscalars; k++)
			fp |= r->bind.fp[k] && !strcmp(r->bind.scalars[k], s0->names[i]);
		/* sizes only: alpha and beta keep their values */
		e.values[i] = fp ? s0->values[i] : ones ? 1 : next_prime(s0->values[i]);
	}
	add_shape(r, cap, &e, true);
}

int vr_make_cases(VerifyRef *r)
{
	size_t cap = 0;
	int errs = diag_error_count();
	for (int i = 0; i < r->u->spec.ncheck; i++)
		add_shape(r, &cap, &r->u->spec.check[i], false);
	if (diag_error_count() != errs)
		return -1;
	if (r->o.edge_shapes && r->u->spec.ncheck) {
		edge_shape(r, &cap, true);
		edge_shape(r, &cap, false);
	}
	if (!r->ncases) {
		diag_error("%s: no `#pragma kcc shape check` to verify with", r->u->path);
		return -1;
	}
	return 0;
}
