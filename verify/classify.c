/*
 * classify.c — a candidate's records against the original's, call by call,
 * and what a failure means (DESIGN 5.6-5.7). A value failure of B or A'
 * where A passed is "stateful" when B alone, in a fresh process, passes
 * (and P, A' or a repeat of A failing is stateful outright); any value
 * failure whose outputs differ bitwise when the whole process runs again
 * is "nondeterministic" (a race), as long as the original repeats bitwise;
 * a precision drop stands only where the exact small-integer call passes.
 */
#include "internal.h"

#include <string.h>

static void describe_value(VerifyRef *r, Verdict *v, const SpecParam *pp, const Compare *cm,
                           const PlanCall *pc)
{
	v->param = pp->name;
	v->index = cm->index;
	v->got = cm->got;
	v->want = cm->want;
	const char *what = cm->reason == VR_UNWRITTEN ? "still holds the poison written before "
	                                                "the call"
	                   : cm->reason == VR_NAN ? "has a different NaN/Inf than the original"
	                                          : "differs from the reference";
	v->summary = arena_printf(r->a, "%s[%lld] = %.9g %s (%.9g) at call '%s'; max abs error "
	                                "%.3g, normwise %.3g, rel L2 %.3g",
	                          pp->name, (long long)cm->index, cm->got, what, cm->want,
	                          pc->what, cm->max_abs, cm->max_rel, cm->rel_l2);
}

static const double *y64_of(VerifyRef *r, const Case *c, int call, int p)
{
	if (!c->have_y64 || r->u->spec.params[p].type != ET_F32)
		return NULL;
	const ResBuf *b = &c->y64.calls[call][p];
	double *y = arena_alloc(r->a, b->nbytes + 8); /* the file's bytes may be unaligned */
	memcpy(y, b->data, b->nbytes);
	return y;
}

VerifyReason vr_compare_call(VerifyRef *r, const Case *c, int i, const PlanCall *pc,
                             const ResBuf *cb, Verdict *v)
{
	const Spec *sp = &r->u->spec;
	const ResBuf *rb = c->ref.calls[i];
	for (int p = 0; p < sp->nparams; p++) {
		const SpecParam *pp = &sp->params[p];
		const char *msg = NULL;
		VerifyReason why = VR_OK;
		if (!cb[p].guard_ok)
			why = VR_GUARD, msg = "wrote into the guard zone around '%s' (out of bounds)";
		else if (cb[p].hash_before != rb[p].hash_before)
			why = VR_INPUT_MODIFIED, msg = "'%s' changed before the entry was called";
		else if (pp->role == ROLE_IN && cb[p].hash_after != cb[p].hash_before)
			why = VR_INPUT_MODIFIED, msg = "modified the input '%s'";
		else if (cb[p].escaped)
			why = VR_ESCAPED, msg = "'%s' changed after the harness's stream was "
			                        "synchronised (work escaped to another stream)";
		else if (cb[p].nbytes != rb[p].nbytes)
			why = VR_CRASH, msg = "malformed results for '%s'";
		if (why) {
			v->param = pp->name;
			vr_reject(v, why, arena_printf(r->a, msg, pp->name));
			return why;
		}
	}
	for (int p = 0; p < sp->nparams; p++) {
		const SpecParam *pp = &sp->params[p];
		if (pp->role == ROLE_IN || pp->role == ROLE_SCRATCH)
			continue;
		Tolerance tol = vr_tolerance_for(r->u, pp->type);
		Compare cm;
		verify_compare_salted(pp->type, cb[p].nbytes / elem_size(pp->type), cb[p].data,
		                      rb[p].data, y64_of(r, c, i, p),
		                      pp->role == ROLE_OUT ? pc->poison : 0, r->psalt >> 1, &tol, &cm);
		if (!(cm.max_abs <= v->max_abs))
			v->max_abs = cm.max_abs;
		if (!(cm.max_rel <= v->max_rel))
			v->max_rel = cm.max_rel;
		if (!(cm.rel_l2 <= v->rel_l2))
			v->rel_l2 = cm.rel_l2;
		if (cm.reason != VR_OK) {
			vr_reject(v, cm.reason, NULL);
			describe_value(r, v, pp, &cm, pc);
			return cm.reason;
		}
	}
	return VR_OK;
}

/* An element of b (sentinel-poisoned) still holding its poison, and
 * holding the other poison in b2 (the same inputs, NaN-poisoned; NULL when
 * there is no such call): with per-element random poison, one match alone
 * can be a coincidence for 8-bit outputs, both never (kcc_poison_at). */
bool vr_has_poison(const VerifyRef *r, ElemType t, const ResBuf *b, const ResBuf *b2)
{
	unsigned char pb[8];
	size_t es = elem_size(t);
	for (size_t i = 0; i + es <= b->nbytes; i += es) {
		kcc_poison_at(pb, (int)t, KCC_POISON_SENTINEL, r->psalt >> 1, i / es);
		if (memcmp(b->data + i, pb, es))
			continue;
		if (!b2 || b2->nbytes != b->nbytes)
			return true;
		kcc_poison_at(pb, (int)t, KCC_POISON_NAN, r->psalt >> 1, i / es);
		if (!memcmp(b2->data + i, pb, es))
			return true;
	}
	return false;
}

bool vr_value_reason(VerifyReason why)
{
	return why == VR_WRONG || why == VR_UNWRITTEN || why == VR_NAN || why == VR_PRECISION;
}

/* B failed after A passed: stateful if B alone, in a fresh process, passes. */
static bool b_alone_passes(VerifyRef *r, const Case *c, const char *exe, int ci)
{
	PlanCall fresh = c->calls[ci];
	fresh.set = 0;
	const char *plan = vr_write_plan(r, c, &fresh, 1);
	Results res;
	const char *log;
	if (!plan ||
	    vr_run_harness(r, exe, plan, "cand", vr_limit(r, c->ref_wall), &res, &log) != VR_OK ||
	    res.ncalls != 1)
		return false;
	/* Against the original's record of call ci, without the fp64 rule. */
	Case plain = *c;
	plain.have_y64 = false;
	Verdict tmp = {0};
	return vr_compare_call(r, &plain, ci, &c->calls[ci], res.calls[0], &tmp) == VR_OK;
}

/* A precision drop is confirmed when the exact small-integer call, where
 * any summation order and any reasonable precision is exact, passes. */
static bool exact_passes(VerifyRef *r, const Case *c, Results *res, int failed)
{
	if (c->call_case)
		return true; /* the sweep has no exact call */
	for (int i = 0; i < c->ncalls && i < res->ncalls; i++)
		if (c->calls[i].base == CALL_EXACT) {
			Verdict tmp = {0};
			return i != failed &&
			       vr_compare_call(r, c, i, &c->calls[i], res->calls[i], &tmp) == VR_OK;
		}
	return true; /* no exact call: keep the magnitude's word */
}

static bool outputs_equal(const Unit *u, ResBuf *x, ResBuf *y)
{
	for (int p = 0; p < u->spec.nparams; p++)
		if (u->spec.params[p].role != ROLE_IN &&
		    (x[p].nbytes != y[p].nbytes || memcmp(x[p].data, y[p].data, x[p].nbytes)))
			return false;
	return true;
}

/* Results move: run the case again in a fresh process; a call whose
 * outputs differ bitwise between the two runs, where the original's repeats
 * agree, is nondeterminism (a race), not state kept between calls. */
static bool moves_between_runs(VerifyRef *r, const Case *c, const char *exe, Results *res)
{
	int first = -1, last = -1;
	for (int i = 0; !c->call_case && i < c->ncalls && i < c->ref.ncalls; i++)
		if (c->calls[i].base == CALL_REPEAT)
			last = i, first = first < 0 ? i : first;
	if (first >= 0 && !outputs_equal(r->u, c->ref.calls[first], c->ref.calls[last]))
		return false; /* the original itself is not bitwise repeatable */
	Results again;
	const char *log;
	vr_run_harness(r, exe, c->plan, "again", vr_limit(r, c->ref_wall), &again, &log);
	for (int i = 0; i < res->ncalls && i < again.ncalls; i++)
		if (!outputs_equal(r->u, res->calls[i], again.calls[i]))
			return true;
	return false;
}

int vr_check_case(VerifyRef *r, Case *c, const char *exe, Verdict *v)
{
	Results res;
	const char *log;
	v->shape = c->text;
	/* The sweep's many small calls: an OpenMP candidate pays a fork-join per
	 * call that a serial original does not, and on a loaded machine that is
	 * milliseconds each: 0.1 s a call on top of the limit. */
	double extra = c->call_case ? 0.1 * c->ncalls : 0;
	VerifyReason run = vr_run_harness(r, exe, c->plan, "cand", vr_limit(r, c->ref_wall) + extra,
	                                  &res, &log);
	/* Out of time: the limit came from the original's time, measured when
	 * the machine may have been quieter. If the original, run again now,
	 * is much slower too, the machine is: try once more with the new limit. */
	if (run == VR_TIMEOUT && vr_recalibrate(r, c->plan, &c->ref_wall) == 1)
		run = vr_run_harness(r, exe, c->plan, "cand", vr_limit(r, c->ref_wall) + extra, &res,
		                     &log);
	const PlanCall *calls = c->calls;
	int ncalls = c->ncalls;
	int n = res.ncalls < ncalls ? res.ncalls : ncalls;
	for (int i = 0; i < n; i++) {
		v->check = calls[i].what;
		v->seed = calls[i].seed;
		if (c->call_case)
			v->shape = c->call_case[i]->text;
		VerifyReason why = vr_compare_call(r, c, i, &calls[i], res.calls[i], v);
		v->ncalls++;
		if (why == VR_OK)
			continue;
		int kind = calls[i].base;
		if (why == VR_PRECISION && !exact_passes(r, c, &res, i))
			v->reason = VR_WRONG;
		if (vr_value_reason(why) && moves_between_runs(r, c, exe, &res))
			v->reason = VR_NONDETERMINISTIC;
		else if (vr_value_reason(why) && (kind == CALL_A2 || kind == CALL_PERTURB))
			v->reason = VR_STATEFUL;
		else if (vr_value_reason(why) && kind == CALL_B && b_alone_passes(r, c, exe, i))
			v->reason = VR_STATEFUL;
		else if (vr_value_reason(why) && kind == CALL_REPEAT)
			v->reason = VR_STATEFUL;
		if (v->reason == VR_STATEFUL)
			v->summary = arena_printf(r->a, "right on the first call, wrong on a later one "
			                                "in the same process: %s", v->summary);
		if (v->reason == VR_NONDETERMINISTIC)
			v->summary = arena_printf(r->a, "results move between repeats of the same "
			                                "call: %s", v->summary);
		return -1;
	}
	if (run != VR_OK) {
		v->check = n < ncalls ? calls[n].what : "exit";
		v->seed = n < ncalls ? calls[n].seed : 0;
		if (c->call_case && n < ncalls)
			v->shape = c->call_case[n]->text;
		v->log = log;
		vr_reject(v, run, arena_printf(r->a, "%s during call '%s'",
		                               run == VR_TIMEOUT       ? "timed out"
		                               : run == VR_CUDA_ERROR ? "a CUDA error"
		                               : run == VR_FORBIDDEN  ? "a system call the harness's "
		                                                        "sandbox denies"
		                                                      : "the run failed",
		                               v->check));
		return -1;
	}
	return 0;
}
