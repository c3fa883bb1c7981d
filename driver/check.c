/*
 * check.c — `kcc --check REF CAND [--bench]`: only the Verifier, as a
 * command. REF must carry a valid spec; CAND is parsed without demanding
 * one, so a candidate that changed its pragmas or signature gets the
 * verifier's precise reason instead of a spec error. Exit 0 when CAND is
 * equivalent, 1 with the reason when not, 3 when kcc's own tools failed.
 */
#include "driver.h"

#include "../verify/verify.h"

#include <stdio.h>
#include <string.h>

static Unit *load_candidate(Arena *a, const Options *o, char **text, size_t *len, int *rc)
{
	int e = file_read_max(a, o->cand, KCC_INPUT_MAX, text, len);
	if (e) {
		diag_error("cannot read '%s': %s", o->cand, file_error(e));
		*rc = EXIT_USER;
		return NULL;
	}
	const Target *t = o->target ? target_find(o->target) : NULL;
	IrOptions io = {.clang_args = (const char **)o->parse_args, .nclang_args = o->nparse_args,
	                .target_args = t ? t->parse_args : NULL};
	return ir_parse(a, o->cand, *text, *len, &io, false);
}

static int check_with(Arena *a, const Options *o, const Target *t, Unit *ref, Unit *cand,
                      const char *text, size_t len, Runner *rn);

int driver_check(Arena *a, const Options *o)
{
	int rc = EXIT_OK;
	Unit *ref = driver_load(a, o, o->input, true, &rc);
	if (!ref)
		return rc;
	const Target *t = driver_target(o, ref);
	/* Elsewhere, the device is the runner's: it answers when it runs. */
	if (t && !o->runner && (rc = driver_device(a, t, ref)))
		return rc;
	char *text = NULL;
	size_t len = 0;
	Unit *cand = load_candidate(a, o, &text, &len, &rc);
	if (!cand && rc)
		return rc;
	Runner *rn = NULL;
	if ((rc = driver_runner(a, o, &rn)))
		return rc;
	rc = check_with(a, o, t, ref, cand, text, len, rn);
	runner_cleanup(rn);
	return rc;
}

static int check_with(Arena *a, const Options *o, const Target *t, Unit *ref, Unit *cand,
                      const char *text, size_t len, Runner *rn)
{
	int rc = EXIT_OK;
	VerifyOptions vo;
	driver_verify_options(a, o, t, &vo);
	vo.runner = rn;
	/* --check keeps the search's promise (DESIGN 5.8): the bench shape's
	 * outputs are compared too, unless the user asks for a quick check. */
	vo.bench_shape = o->no_bench_shape ? VB_SKIPPED : VB_COMPARE;
	VerifyRef *r = NULL;
	if (verify_ref_prepare(a, ref, &vo, &r) != 0) {
		verify_ref_release(r);
		if (runner_failed(rn))
			return EXIT_TOOL;
		diag_note("the reference '%s' must build and run before anything can be "
		          "checked against it", o->input);
		return EXIT_USER;
	}
	Verdict v;
	memset(&v, 0, sizeof v);
	if (cand)
		rc = verify_candidate(r, cand, &v) == 0 ? EXIT_OK : EXIT_TOOL;
	else
		verify_unparsed(r, o->cand, text, len, &v);
	if (rc == EXIT_TOOL && runner_failed(rn))
		diag_note("nothing was decided about '%s'; run the same command again when %s "
		          "answers", o->cand, rn->where);
	if (rc == EXIT_OK) {
		verify_print_verdict(stdout, &v);
		rc = v.reason == VR_OK ? EXIT_OK : EXIT_USER;
	}
	if (rc == EXIT_OK && o->bench) {
		BenchResult b;
		memset(&b, 0, sizeof b);
		if (verify_bench(r, cand, &b) != 0)
			rc = EXIT_TOOL;
		else {
			verify_print_bench(stdout, &b);
			if (b.verdict.reason != VR_OK) {
				verify_print_verdict(stdout, &b.verdict);
				rc = EXIT_USER;
			}
		}
	}
	if (rc != EXIT_TOOL && runner_failed(rn)) { /* during --bench */
		diag_error("%s", runner_failed(rn));
		rc = EXIT_TOOL;
	}
	if (o->keep_temps && v.tmpdir)
		fprintf(stderr, "kcc: kept the verifier's files in %s\n", v.tmpdir);
	verify_ref_release(r);
	return rc;
}
