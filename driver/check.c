/*
 * check.c — `kcc --check REF CAND... [--bench]`: only the Verifier, as a
 * command. REF must carry a valid spec and is prepared once; each CAND goes
 * through verify_source (parsed without demanding a spec, so a candidate
 * that changed its pragmas or signature gets the verifier's precise reason
 * instead of a spec error) and gets a verdict block of its own, headed
 * `==> CAND <==` when there are several. Exit 0 when every CAND is
 * equivalent, 1 when one is not, 3 when kcc's own tools failed: the worst.
 */
#include "driver.h"

#include "../verify/verify.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

/* -v: the verifier's throughput and kcc's own share of the time (its CPU
 * time; the compilers and the harness runs are its children) for
 * bench/verify/run. */
static void trace_time(int n, double t0)
{
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	diag_trace("kcc: check: %d candidate%s in %.1f s; kcc's own CPU time %.2f s, its "
	           "children's (compilers, harness runs) %.2f s",
	           n, n == 1 ? "" : "s", clock_now() - t0,
	           seconds(self.ru_utime) + seconds(self.ru_stime),
	           seconds(kids.ru_utime) + seconds(kids.ru_stime));
}

static int worst(int a, int b)
{
	return a == EXIT_TOOL || b == EXIT_TOOL ? EXIT_TOOL : a > b ? a : b;
}

/* One candidate against the prepared reference: its exit code. */
static int check_one(Arena *a, const Options *o, VerifyRef *r, const IrOptions *io,
                     const char *path, Runner *rn, const char **kept)
{
	char *text = NULL;
	size_t len = 0;
	int e = file_read_max(a, path, KCC_INPUT_MAX, &text, &len);
	if (e) {
		diag_error("cannot read '%s': %s", path, file_error(e));
		return EXIT_USER;
	}
	VerifySource src = {.path = path, .text = text, .len = len, .io = io, .bench = o->bench};
	VerifyResult res;
	int rc = verify_source(r, &src, &res);
	if (res.checked)
		verify_print_result(stdout, &res);
	if (res.verdict.tmpdir)
		*kept = res.verdict.tmpdir;
	if (rc != 0) {
		if (!res.checked && runner_failed(rn))
			diag_note("nothing was decided about '%s'; run the same command again when "
			          "%s answers", path, rn->where);
		return EXIT_TOOL;
	}
	return verify_result_verdict(&res)->reason == VR_OK ? EXIT_OK : EXIT_USER;
}

static int check_all(Arena *a, const Options *o, const Target *t, Unit *ref, Runner *rn)
{
	double start = clock_now();
	VerifyOptions vo;
	driver_verify_options(a, o, t, &vo);
	vo.runner = rn;
	/* --check keeps the search's promise (DESIGN 5.8): the bench shape's
	 * outputs are compared too, unless the user asks for a quick check. */
	vo.bench_shape = o->no_bench_shape ? VB_SKIPPED : VB_COMPARE;
	VerifyRef *r = NULL;
	status_take(ST_OK);
	if (verify_ref_prepare(a, ref, &vo, &r) != 0) {
		verify_ref_release(r);
		/* A compiler that cannot be started is kcc's tool failing (exit 3,
		 * DESIGN 3), not the reference being wrong. */
		Status st = status_take(runner_failed(rn) ? ST_TOOL : ST_USER);
		if (st == ST_USER)
			diag_note("the reference '%s' must build and run before anything can be "
			          "checked against it", o->input);
		return driver_exit(st);
	}
	IrOptions io = {.clang_args = (const char **)o->parse_args, .nclang_args = o->nparse_args,
	                .target_args = t ? t->parse_args : NULL};
	int rc = EXIT_OK;
	const char *kept = NULL;
	for (int i = 0; i < o->ncands; i++) {
		if (o->ncands > 1)
			printf("%s==> %s <==\n", i ? "\n" : "", o->cands[i]);
		fflush(stdout);
		rc = worst(rc, check_one(a, o, r, &io, o->cands[i], rn, &kept));
		fflush(stdout);
		if (runner_failed(rn))
			break; /* the runner is gone: nothing more can be decided */
	}
	trace_time(o->ncands, start);
	if (o->keep_temps && kept)
		fprintf(stderr, "kcc: kept the verifier's files in %s\n", kept);
	verify_ref_release(r);
	return rc;
}

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
	Runner *rn = NULL;
	if ((rc = driver_runner(a, o, &rn)))
		return rc;
	rc = check_all(a, o, t, ref, rn);
	runner_cleanup(rn);
	return rc;
}
