/*
 * sanitize.c — the sanitizer run of a candidate that passed the matrix
 * (DESIGN 5.7): on cuda, compute-sanitizer over the smallest of the spec's
 * own shapes; on cpu, the candidate built with the target's sanitizer
 * flags (ASan + UBSan, guard zones poisoned, inputs read-only during the
 * call) running that case's calls once, after the original passed the
 * same run (where it does not, the check is skipped with a note).
 */
#include "internal.h"

#include <string.h>

/* The smallest of the spec's own shapes. */
static int smallest_case(const VerifyRef *r)
{
	int small = -1;
	for (int i = 0; i < r->ncases; i++)
		if (!r->cases[i].edge && (small < 0 || r->cases[i].bytes < r->cases[small].bytes))
			small = i;
	return small < 0 ? 0 : small;
}

/* One run of a sanitizer build (no address-space limit: ASan reserves
 * terabytes of shadow it never touches). */
static VerifyReason run_sanitized(VerifyRef *r, const char *exe, const Case *c, const char **log)
{
	Results res;
	uint64_t mem = r->o.mem_bytes;
	r->o.mem_bytes = 0;
	VerifyReason vr = vr_run_harness(r, exe, c->plan, "san", vr_limit(r, c->ref_wall) * 4, &res,
	                                 log);
	r->o.mem_bytes = mem;
	return vr;
}

/* cpu's counterpart of compute-sanitizer: the candidate built with the
 * target's sanitizer flags (ASan + UBSan, guard zones poisoned, inputs
 * read-only during the call) runs the smallest case's calls once. The
 * original goes first, once: where it is not clean itself, the check is
 * skipped with a note rather than blamed on candidates. */
static int sanitize_build(VerifyRef *r, const Unit *cand, Verdict *v)
{
	const Case *c = &r->cases[smallest_case(r)];
	TargetBuilt tb;
	const char *why = "", *log;
	if (!r->san_state) {
		r->san_state = -1;
		const char *ref = vr_build_unit_flags(r, r->u, "ref-sanitize", false,
		                                      r->t->sanitize_flags, &tb, &why);
		VerifyReason vr = ref ? run_sanitized(r, ref, c, &log) : VR_BUILD;
		if (vr == VR_OK)
			r->san_state = 1;
		else
			vr_ref_note(r, arena_printf(r->a, "no sanitizer run: the original is not clean "
			                                  "under %s (%s)",
			                            r->t->sanitize_flags[0], verify_reason_name(vr)));
	}
	if (r->san_state != 1)
		return 0;
	const char *exe = vr_build_unit_flags(r, cand, r->cand_dir, false, r->t->sanitize_flags,
	                                      &tb, &why);
	VerifyReason vr = exe ? run_sanitized(r, exe, c, &log) : VR_BUILD;
	if (vr == VR_OK)
		return 0;
	v->check = "sanitizer";
	v->shape = c->text;
	v->log = exe ? log : tb.log;
	vr_reject(v, VR_SANITIZER,
	          arena_printf(r->a, "the %s build %s", r->t->sanitize_flags[0],
	                       vr == VR_BUILD ? "does not build" : "reported an error (guard zones "
	                                                           "poisoned, inputs read-only)"));
	return -1;
}

int vr_sanitize(VerifyRef *r, const char *exe, Verdict *v)
{
	if (r->t->sanitize_flags && r->o.sanitizer && r->ncases && r->last_cand)
		return sanitize_build(r, r->last_cand, v);
	if (!r->t->sanitize || !r->o.sanitizer || !r->ncases)
		return 0;
	/* The smallest of the spec's own shapes: kcc's all-ones edge shape is
	 * one tile, where a missing barrier between tiles has nothing to race
	 * with (seen on the H100: racecheck silent at 1x1x1, a race at 37x53). */
	int small = smallest_case(r);
	/* compute-sanitizer launches the harness itself: the plan goes in a file
	 * in the candidate's own directory and the results nowhere (fd -1). */
	const char *body = vr_write_plan(r, &r->cases[small], r->cases[small].calls, 1);
	char *cwd = arena_strdup(r->a, exe);
	*strrchr(cwd, '/') = 0;
	const char *plan = arena_printf(r->a, "%s/sanitize.plan", cwd);
	const char *text = arena_printf(r->a, "KCCP 2 -1 %s", body);
	if (file_write_atomic(plan, text, strlen(text)))
		return 0;
	const char *argv[] = {exe, plan, NULL};
	const char *put[] = {plan, NULL};
	TargetRun tr = {.argv = argv, .cwd = cwd, .timeout_s = vr_limit(r, r->cases[small].ref_wall),
	                .fsize_bytes = r->o.fsize_bytes, .runner = r->o.runner, .put = put};
	TargetSanitized s;
	if (!plan || r->t->sanitize(r->t, r->a, &tr, &s) != 0)
		return 0;
	if (!s.ran) {
		vr_verdict_note(r->a, v, "compute-sanitizer is not installed: not run");
		return 0;
	}
	if (s.clean)
		return 0;
	v->check = "sanitizer";
	v->shape = r->cases[small].text;
	v->log = s.log;
	vr_reject(v, VR_SANITIZER, arena_printf(r->a, "compute-sanitizer %s reported errors",
	                                        s.tool));
	return -1;
}
