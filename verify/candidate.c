/*
 * candidate.c — the one way to check a candidate (DESIGN 5): its text is
 * parsed without demanding a spec (so a spec that no longer matches its
 * entry gets the verifier's exact reason), statically checked, built in a
 * fresh dir of its own and inspected as an executable, run over the
 * reference's matrix, at the bench shape and under the sanitizer, and,
 * when asked and it passed, timed against the original (bench.c). kcc
 * --check, the search (passes/eval.c) and the mutant corpus all come here.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* kcc --check keeps the search's promise (DESIGN 5.8, issue 17): one call
 * at the bench shape, compared like the others; a value failure there
 * only is "bench-shape". */
static int bench_shape_check(VerifyRef *r, const char *exe, Verdict *v)
{
	v->bench_shape = r->o.bench_shape == VB_SKIPPED ? VB_SKIPPED : VB_OFF;
	if (r->o.bench_shape != VB_COMPARE || !r->u->spec.has_bench)
		return 0;
	if (vr_ref_intact(r) != 0) {
		v->check = "bench shape";
		vr_reject(v, VR_FORBIDDEN, "the candidate changed or replaced the reference's harness "
		                           "on disk (tampering; restored)");
		return -1;
	}
	if (vr_bench_case(r) != 1)
		return 0;
	const Case *c = &r->bcase;
	Results res;
	const char *log;
	v->shape = c->text;
	v->check = c->calls[0].what;
	v->seed = c->calls[0].seed;
	VerifyReason run = vr_run_harness(r, exe, c->plan, "cand", vr_limit(r, c->ref_wall), &res,
	                                  &log);
	if (res.ncalls >= 1) {
		VerifyReason why = vr_compare_call(r, c, 0, &c->calls[0], res.calls[0], v);
		v->ncalls++;
		if (vr_value_reason(why)) {
			v->reason = VR_BENCH_SHAPE;
			v->summary = arena_printf(r->a, "wrong at the bench shape only: %s", v->summary);
			return -1;
		}
		if (why != VR_OK)
			return -1;
	}
	if (run != VR_OK) {
		v->log = log;
		vr_reject(v, run, arena_printf(r->a, "%s at the bench shape", verify_reason_name(run)));
		return -1;
	}
	v->bench_shape = VB_COMPARE;
	return 0;
}

/* The built candidate, structurally: no code before main beyond the
 * reference harness's own, no definition of a function the harness calls. */
static int elf_check(VerifyRef *r, const char *exe, Verdict *v)
{
	ElfFacts f;
	if (!r->have_ref_elf || elf_inspect(r->a, exe, &f) != 0)
		return 0;
	const char *bad = elf_forbidden(&r->ref_elf, &f);
	v->check = "static (the built executable)";
	if (f.init_entries > r->ref_elf.init_entries) {
		vr_reject(v, VR_FORBIDDEN, arena_printf(r->a, "the candidate adds code that runs before "
		                                              "main (%d .init_array/.ctors entries, the "
		                                              "reference has %d)",
		                                        f.init_entries, r->ref_elf.init_entries));
		return -1;
	}
	if (bad) {
		vr_reject(v, VR_FORBIDDEN, arena_printf(r->a, "the candidate defines '%s', a function "
		                                              "the harness calls (interposition)",
		                                        bad));
		return -1;
	}
	return 0;
}

static int candidate_verdict(VerifyRef *r, const Unit *cand, Verdict *v)
{
	memset(v, 0, sizeof *v);
	v->index = -1;
	for (int i = 0; i < r->nnotes; i++)
		vr_verdict_note(r->a, v, r->notes[i]);
	if (!r->dir)
		return -1;
	if (vr_static_checks(r, cand, v))
		return 0;
	if (vr_ref_intact(r) > 0)
		vr_verdict_note(r->a, v, "the reference's harness had been changed by an earlier "
		                         "candidate and was restored");
	TargetBuilt tb;
	const char *why = "cannot create a work dir";
	const char *sub = vr_cand_dir(r);
	r->ncand++;
	const char *exe = sub ? vr_build_unit(r, cand, sub, false, &tb, &why) : NULL;
	r->last_cand = cand;
	r->last_exe = exe;
	if (!exe) {
		v->check = "build";
		v->log = tb.log ? proc_tail(tb.log, 30) : why;
		vr_reject(v, VR_BUILD, tb.cmdline ? arena_printf(r->a, "the compiler rejected it: %s",
		                                                 tb.cmdline)
		                                  : why);
		return 0;
	}
	if (elf_check(r, exe, v))
		return 0;
	vr_prefetch(r, (const char *[]){exe}, (const char *[]){"cand"}, 1);
	for (int i = 0; i < r->ncases; i++)
		if (vr_check_case(r, &r->cases[i], exe, v)) {
			vr_prefetch_drop(r);
			return 0;
		}
	if (bench_shape_check(r, exe, v))
		return 0;
	if (vr_sanitize(r, exe, v))
		return 0;
	v->reason = VR_OK;
	v->check = NULL;
	v->shape = NULL;
	v->summary = "equivalent";
	if (r->o.keep_temps)
		v->tmpdir = r->dir;
	return 0;
}


/* A runner that failed (connection lost, job cancelled) is kcc's failure,
 * never the candidate's: no verdict then. */
int verify_source(VerifyRef *r, const VerifySource *src, VerifyResult *out)
{
	memset(out, 0, sizeof *out);
	double t = clock_now();
	/* The front end's errors go to the verdict's log when the caller asks
	 * (the search: they belong in the record and the repair prompt, not on
	 * the user's terminal). */
	Strbuf errs = STRBUF_INIT, *prev = src->quiet ? diag_capture(&errs) : NULL;
	const IrOptions none = {0};
	Unit *u = ir_parse(r->a, src->path, src->text, src->len, src->io ? src->io : &none, false);
	if (src->quiet)
		diag_capture(prev);
	if (errs.len > 65536)
		errs.buf[errs.len = 65536] = 0;
	const char *log = sb_to_arena(&errs, r->a); /* releases the buffer */
	Verdict *v = &out->verdict;
	int rc = 0;
	if (!u) {
		vr_unparsed(r, src->path, src->text, src->len, v);
		if (*log)
			v->log = log;
	} else {
		u->build_flags = src->build_flags;
		rc = candidate_verdict(r, u, v);
	}
	out->verify_s = clock_now() - t;
	if (runner_failed(r->o.runner)) {
		diag_error("%s", runner_failed(r->o.runner));
		return -1;
	}
	if (rc != 0)
		return -1;
	out->checked = true;
	if (!src->bench || v->reason != VR_OK)
		return 0;
	t = clock_now();
	rc = verify_bench(r, u, &out->bench);
	out->bench_s = clock_now() - t;
	if (rc == 0 && runner_failed(r->o.runner)) {
		diag_error("%s", runner_failed(r->o.runner));
		rc = -1;
	}
	out->timed = rc == 0;
	return rc;
}

const Verdict *verify_result_verdict(const VerifyResult *res)
{
	if (res->timed && res->bench.verdict.reason != VR_OK)
		return &res->bench.verdict;
	return &res->verdict;
}

void verify_print_result(FILE *f, const VerifyResult *res)
{
	verify_print_verdict(f, &res->verdict);
	if (!res->timed)
		return;
	verify_print_bench(f, &res->bench);
	if (res->bench.verdict.reason != VR_OK)
		verify_print_verdict(f, &res->bench.verdict);
}
