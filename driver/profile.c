/*
 * profile.c — `kcc --profile FILE`: what the planner would be told about a
 * kernel, without a search. The kernel is timed at its bench shape by the
 * verifier's timing protocol (against itself: one build, alternating
 * runs), profiled by the target's profiler (ncu; perf or callgrind; ptxas's
 * report when ncu is missing) at the shape the search would use, and
 * printed with the roofline against the peaks kcc measured on this machine
 * (cached in the cache dir), one metric a line with its meaning.
 *
 * Exit 0 with the profile printed; 1 when the spec is unusable or the
 * kernel does not build or run at its shapes (crash, time limit, no device).
 */
#include "driver.h"

#include "../verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int driver_profile(Arena *a, const Options *o, const Unit *u)
{
	const Target *t = driver_target(o, u);
	if (!t) {
		diag_error("the target '%s' cannot run kernels yet", o->target);
		return EXIT_TOOL;
	}
	if (o->runner) /* docs/runners.md: the profilers do not go through runners yet */
		diag_warning("--profile runs on this machine; --runner=%s is not used for it yet",
		             o->runner);
	int drc = driver_device(a, t, u);
	if (drc)
		return drc;
	const Spec *sp = &u->spec;
	if (!sp->has_bench) {
		diag_error("%s: --profile needs a '#pragma kcc shape bench' to time the kernel at",
		           u->path);
		return EXIT_USER;
	}
	VerifyOptions vo;
	driver_verify_options(a, o, t, &vo);
	VerifyRef *r = NULL;
	status_take(ST_OK);
	if (verify_ref_prepare(a, u, &vo, &r) != 0) {
		diag_note("'%s' must build and run before it can be profiled", u->path);
		return driver_exit(status_take(ST_USER)); /* a missing compiler: 3 */
	}
	BenchResult b;
	int rc = verify_bench(r, u, &b);
	verify_ref_release(r);
	if (rc != 0) /* the kernel fails at its bench shape (verify said why) */
		return EXIT_USER;
	if (b.verdict.reason != VR_OK) {
		verify_print_verdict(stderr, &b.verdict);
		return EXIT_USER;
	}
	const Shape *sh = target_profile_shape(t, u);
	Profile p;
	/* --keep-temps: the kernel, the driver, its build and the tool's raw
	 * output (ncu.csv or ptxas.txt, callgrind.out, perf.txt) stay for the user. */
	ProfileAsk ask = {.cache_dir = dir_cache(), .keep = o->keep_temps};
	verify_profile(t, a, u, sh, temp_base(), 300, &ask, &p);
	if (!p.source)
		p.source = "none";
	ProfilePeaks pk = {0};
	if (!t->peaks || t->peaks(t, a, dir_cache(), &pk) != 0)
		pk.gflops = pk.gbps = 0;
	if (!t->unit) /* a count (riscv64) is no time: no roofline */
		profile_roofline(a, &p, target_eval(sp->flops, &sp->bench),
		                 target_eval(sp->bytes, &sp->bench), b.ref.median, &pk,
		                 profile_compute_type(sp));
	printf("kcc: profile of %s on %s\n", u->path, b.device ? b.device : t->name);
	if (t->unit) /* a count: no time, no roofline */
		printf("Measured: %.0f %s per call (%d runs, min %.0f, max %.0f: a count, the same "
		       "on every run) at %s\n",
		       b.ref.median, t->unit, b.ref.n, b.ref.min, b.ref.max, b.shape);
	else
		printf("Measured: median %.4g ms (IQR %.4g-%.4g ms, %d runs) at %s\n",
		       b.ref.median * 1e3, b.ref.q1 * 1e3, b.ref.q3 * 1e3, b.ref.n, b.shape);
	fputs(profile_text(a, &p), stdout);
	if (p.kept)
		diag_note("the profile's files are in %s", p.kept);
	return EXIT_OK;
}
