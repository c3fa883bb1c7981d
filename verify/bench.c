/*
 * bench.c — honest timing (DESIGN 6). The original and the candidate are
 * timed in separate processes at the bench shape, each warming up by time
 * and sampling until the standard error is under 1% of the mean (at least
 * the minimum, at most a time cap), with caches flushed and outputs
 * re-poisoned before every sample and inputs rotated among several sets
 * while they fit in a few L2s. The original is measured once per run (the
 * memo below: its samples, the outputs of its timed calls, the fp64
 * reference) and that first run is its calibration: later limits derive
 * from its time. A candidate takes one process; a gain is confirmed by
 * timing the original and the candidate once more (A B A B) when the
 * machine was busy or the original's numbers are old, so a gain never rests
 * on a quiet moment of the original against a busy one of the candidate.
 * The speed-up is the ratio of the medians with a bootstrap 95% interval;
 * it counts as a gain only when the interval's lower end clears 1 + delta.
 * The outputs of the timed calls are compared too (DESIGN 5.8), event time
 * is cross-checked against host wall time, and a time below the physical
 * floor (spec flops or bytes over the fastest any unit of the device can
 * go, measured and datasheet) rejects the candidate as implausible.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double quantile(const double *sorted, int n, double q)
{
	double pos = q * (n - 1);
	int i = (int)pos;
	double f = pos - i;
	return i + 1 < n ? sorted[i] * (1 - f) + sorted[i + 1] * f : sorted[n - 1];
}

static double median_of(double *x, int n)
{
	qsort(x, (size_t)n, sizeof *x, cmp_dbl);
	return quantile(x, n, 0.5);
}

void verify_stats(const double *x, int n, BenchStats *out)
{
	memset(out, 0, sizeof *out);
	out->n = n;
	if (n <= 0)
		return;
	double *s = malloc(sizeof *s * (size_t)n);
	if (!s)
		return;
	memcpy(s, x, sizeof *s * (size_t)n);
	qsort(s, (size_t)n, sizeof *s, cmp_dbl);
	out->median = quantile(s, n, 0.5);
	out->q1 = quantile(s, n, 0.25);
	out->q3 = quantile(s, n, 0.75);
	out->min = s[0];
	out->max = s[n - 1];
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / n;
	free(s);
}

void verify_ratio_ci(const double *a, int na, const double *b, int nb, uint64_t seed,
                     double *ratio, double *lo, double *hi)
{
	enum { B = 1000 };
	double *ra = malloc(sizeof(double) * (size_t)(na + nb)), *rs = malloc(sizeof(double) * B);
	*ratio = *lo = *hi = NAN;
	if (!ra || !rs || na <= 0 || nb <= 0) {
		free(ra);
		free(rs);
		return;
	}
	double *rb = ra + na;
	memcpy(ra, a, sizeof(double) * (size_t)na);
	memcpy(rb, b, sizeof(double) * (size_t)nb);
	*ratio = median_of(ra, na) / median_of(rb, nb);
	uint64_t st = seed;
	for (int k = 0; k < B; k++) {
		for (int i = 0; i < na; i++)
			ra[i] = a[kcc_mix(st++) % (uint64_t)na];
		for (int i = 0; i < nb; i++)
			rb[i] = b[kcc_mix(st++) % (uint64_t)nb];
		rs[k] = median_of(ra, na) / median_of(rb, nb);
	}
	qsort(rs, B, sizeof *rs, cmp_dbl);
	*lo = quantile(rs, B, 0.025);
	*hi = quantile(rs, B, 0.975);
	free(ra);
	free(rs);
}

static void take(Arena *a, Samples *s, const Results *res)
{
	for (int i = 0; i < res->nsamples; i++) {
		size_t n = (size_t)s->n, cap = (size_t)s->cap;
		ARENA_PUSH(a, s->ev, n, cap, res->ev[i]);
		n = (size_t)s->n;
		cap = (size_t)s->cap;
		ARENA_PUSH(a, s->wall, n, cap, res->wall[i]);
		s->n++;
		s->cap = (int)cap;
	}
}

static const Shape *bench_shape(const VerifyRef *r)
{
	if (r->u->spec.has_bench)
		return &r->u->spec.bench;
	int best = -1;
	for (int i = 0; i < r->ncases; i++)
		if (best < 0 || r->cases[i].bytes > r->cases[best].bytes)
			best = i;
	return best < 0 ? NULL : &r->cases[best].shape;
}

static const char *bench_plan(VerifyRef *r, const Case *c, uint64_t seed, int nsets, int check)
{
	const VerifyOptions *o = &r->o;
	Strbuf sb = STRBUF_INIT;
	sb_adds(&sb, vr_plan_header(r->a, r, 1, 1));
	PlanCall pc = {.set = 0, .seed = seed, .fill = KCC_FILL_RANDOM};
	vr_plan_call(&sb, r, c, &pc);
	sb_addf(&sb, "%d %d %.6f %.6f %d %d %.6f\n", nsets, check,
	        o->warmup_s > 0.025 ? o->warmup_s : 0.025, o->cap_s,
	        o->min_samples > 1 ? o->min_samples : 1, o->max_samples, o->rel_se);
	return sb_to_arena(&sb, r->a); /* sent on stdin (vr_run_harness) */
}

/* The fp64 reference of the checked set, in a check-mode run. */
static void bench_y64(VerifyRef *r, Case *c, uint64_t seed)
{
	const char *log;
	if (!r->y64_exe)
		return;
	PlanCall *pc = arena_alloc(r->a, sizeof *pc);
	*pc = (PlanCall){.set = 0, .seed = seed, .fill = KCC_FILL_RANDOM,
	                 .poison = KCC_POISON_NAN, .what = "bench"};
	c->calls = pc;
	c->ncalls = 1;
	const char *plan = vr_write_plan(r, c, c->calls, c->ncalls);
	c->have_y64 = plan && vr_run_harness(r, r->y64_exe, plan, "f64", r->o.ceiling_s, &c->y64,
	                                     &log) == VR_OK &&
	              c->y64.ncalls == 1;
}

/* Compare the candidate's timed outputs with the reference's. */
static VerifyReason bench_outputs(VerifyRef *r, Case *c, const Results *ref,
                                  const Results *cand, Verdict *v)
{
	const PlanCall pc = {.what = "bench (outputs of the timed calls)", .poison = 0};
	c->ref = *ref;
	VerifyReason why = vr_compare_call(r, c, 0, &pc, cand->calls[cand->ncalls - 1], v);
	if (vr_value_reason(why)) {
		v->reason = why = VR_BENCH_SHAPE;
		v->summary = arena_printf(r->a, "wrong at the timed shape only: %s", v->summary);
	}
	return why;
}

/* One timed process of exe; its samples appended to s. */
static VerifyReason run_timed(VerifyRef *r, const char *exe, const char *tag, double limit,
                              Samples *s, Results *res, const char **log)
{
	const BenchMemo *m = &r->bench;
	/* One timed run per device at a time across kcc processes sharing the
	 * cache (runners/devlock.c); a run that could not lock times anyway. */
	const char *vis = getenv("CUDA_VISIBLE_DEVICES");
	const char *dev = arena_printf(r->a, "%s%s%s", r->t->name, vis && *vis ? "-" : "",
	                               vis && *vis ? vis : "");
	int lock = r->o.cache_dir ? proc_device_lock(r->a, r->o.cache_dir, dev, NULL) : -1;
	VerifyReason why = vr_run_harness(r, exe, m->plan, tag, limit, res, log);
	proc_device_unlock(lock);
	if (why != VR_OK)
		return why;
	if (res->ncalls < 1 || res->nsamples < 1) {
		*log = "no samples";
		return VR_CRASH;
	}
	take(r->a, s, res);
	return VR_OK;
}

/* The original, timed again: under the derived limit, and when that is
 * too short, once more under the ceiling. -1 after an error that says the
 * machine is too loaded (the original ran at this shape before). */
static int time_original(VerifyRef *r, Samples *s)
{
	BenchMemo *m = &r->bench;
	Results res;
	const char *log;
	double load = proc_load();
	/* Only candidates ran since the reference was last used: a reference
	 * that is not as built is their doing (restored by vr_ref_intact). */
	if (vr_ref_intact(r) != 0)
		return -2;
	VerifyReason why = run_timed(r, r->ref_exe, "ref", vr_limit(r, m->wall), s, &res, &log);
	if (why == VR_TIMEOUT)
		why = run_timed(r, r->ref_exe, "ref", r->o.ceiling_s, s, &res, &log);
	if (why != VR_OK) {
		diag_error("%s: the original, measured at the bench shape %s in %.3g s before, "
		           "now fails there (%s): the machine is too loaded or out of memory to "
		           "time it",
		           r->u->path, m->c.text, m->wall, verify_reason_name(why));
		diag_note("%s", proc_tail(log, 3));
		return -1;
	}
	if (res.wall_s > m->wall)
		m->wall = res.wall_s;
	m->load = load > m->load ? load : m->load;
	m->when = clock_now();
	return 0;
}

/* The memo: the bench case, its plan and fp64 reference, and the first
 * timed run of the original (its calibration, under the ceiling). */
static int bench_memo(VerifyRef *r)
{
	BenchMemo *m = &r->bench;
	if (m->done)
		return 0;
	const Shape *sh = r->dir ? bench_shape(r) : NULL;
	const char *why = "";
	if (!sh || vr_make_case(r, sh, false, &m->c, &why) != 0) {
		diag_error("%s: no usable bench shape: %s", r->u->path, why);
		return -1;
	}
	/* Rotating input sets defeats caches only while the sets fit in them;
	 * larger ones are flushed out anyway, and three of them triple the
	 * harness's set-up (seconds at 8192^3). */
	uint64_t mem = r->info.mem ? r->info.mem : (8ull << 30);
	uint64_t cache = r->info.flush_bytes ? r->info.flush_bytes : (64ull << 20);
	m->nsets = m->c.bytes * 6 < mem / 4 && m->c.bytes < 2 * cache ? 3 : 1;
	m->check = (int)(kcc_mix(r->master ^ 0xbe) % (uint64_t)m->nsets);
	uint64_t seed = kcc_mix(r->master ^ 0xbe7c4) >> 1;
	m->plan = bench_plan(r, &m->c, seed, m->nsets, m->check);
	if (!m->plan)
		return -1;
	bench_y64(r, &m->c, seed + (uint64_t)m->check);
	Results res;
	const char *log;
	m->load = proc_load();
	VerifyReason vr = run_timed(r, r->ref_exe, "ref", r->o.ceiling_s, &m->ref, &res, &log);
	if (vr == VR_TIMEOUT) {
		diag_error("%s: the original did not finish at the bench shape %s within %.0f s",
		           r->u->path, m->c.text, r->o.ceiling_s);
		diag_note("raise the ceiling with --timeout=T, or choose a smaller shape bench");
		return -1;
	}
	if (vr != VR_OK) {
		diag_error("%s: the original fails at the bench shape %s: %s", r->u->path,
		           m->c.text, log);
		return -1;
	}
	m->ref0 = res;
	m->wall = res.wall_s;
	m->when = clock_now();
	m->done = true;
	return 0;
}

static int tampered(Verdict *v)
{
	v->reason = VR_FORBIDDEN;
	v->summary = "the candidate changed or replaced the reference's harness on disk "
	             "(tampering; restored)";
	return 0;
}

static void finish(VerifyRef *r, BenchResult *b, const Samples *sa, const Samples *sb)
{
	verify_stats(sa->ev, sa->n, &b->ref);
	verify_stats(sb->ev, sb->n, &b->cand);
	BenchStats w;
	verify_stats(sa->wall, sa->n, &w);
	b->ref.wall_median = w.median;
	verify_stats(sb->wall, sb->n, &w);
	b->cand.wall_median = w.median;
	verify_ratio_ci(sa->ev, sa->n, sb->ev, sb->n, r->master ^ 0xb007, &b->speedup, &b->ci_lo,
	                &b->ci_hi);
	/* a count has no noise: any lower count is a gain */
	double d = r->t->unit ? 0 : r->o.delta;
	b->call = b->ci_lo > 1 + d ? "gain" : b->ci_hi < 1 - d ? "regression" : "noise";
}

bool verify_bench_again(const BenchResult *b, double d, bool suspect)
{
	if (!strcmp(b->call, "gain"))
		return suspect;
	if (strcmp(b->call, "noise"))
		return false;
	bool wide = b->ci_lo > 0 && b->ci_hi > 1 + d && b->ci_hi > 1.25 * b->ci_lo;
	return b->speedup > 1 + d || wide;
}

/* Event time far below wall time: work escaped the harness's stream. The
 * wall time runs to a device-wide sync, so work on a stream of the
 * candidate's own shows up there and not in the events. The reference's own
 * gap (launch and sync latency) is allowed, plus a quarter of the wall time
 * and 30 us of jitter. (The earlier rule, twice the event time, let a
 * stencil whose second sweep ran on a private stream pass as a 1.96x gain
 * on the H100: events 0.32 ms, wall 0.64 ms.) */
static bool escaped(const BenchResult *b)
{
	double gap_c = b->cand.wall_median - b->cand.median;
	double gap_r = b->ref.wall_median - b->ref.median;
	return gap_c > (gap_r > 0 ? gap_r : 0) + 0.25 * b->cand.wall_median + 30e-6;
}

/* DESIGN 6: a time below the spec's work over the fastest rate any unit of
 * the device reaches is an impossibility, not a gain. */
static void physical_floor(VerifyRef *r, const Case *c, BenchResult *b)
{
	const Spec *sp = &r->u->spec;
	if (!r->peaks_done) {
		r->peaks_done = true;
		memset(&r->peaks, 0, sizeof r->peaks);
		/* The peaks are measured here; over ssh or slurm the runs happen on
		 * another machine, maybe a faster one: no floor rather than a real
		 * gain called impossible (docs/runners.md). */
		if (r->o.runner && strcmp(r->o.runner->name, "local"))
			vr_ref_note(r, arena_printf(r->a, "the physical floor is not checked: the peak "
			                                  "rates are this machine's, the runs happen on %s",
			                            r->o.runner->where));
		else if (!r->t->peaks || r->t->peaks(r->t, r->a, r->o.cache_dir, &r->peaks) != 0)
			vr_ref_note(r, "the device's peak rates are unknown: the physical floor "
			               "is not checked");
	}
	const ProfilePeaks *pk = &r->peaks;
	int64_t flops = 0, bytes = 0;
	const char *why;
	const Expr *bad;
	double t = b->cand.median;
	if (sp->flops && expr_eval(sp->flops, &c->shape, &flops, &why, &bad) == 0 && t > 0)
		b->gflops = (double)flops / t * 1e-9;
	if (sp->bytes && expr_eval(sp->bytes, &c->shape, &bytes, &why, &bad) == 0 && t > 0)
		b->gbps = (double)bytes / t * 1e-9;
	const char *rate_why = pk->floor_gflops > 0 && pk->floor_gflops == pk->est_gflops
	                           ? "the datasheet rate of its fastest unit"
	                           : "1.5x its fastest unit as measured";
	bool fast_f = pk->floor_gflops > 0 && b->gflops > pk->floor_gflops;
	bool fast_b = pk->floor_gbps > 0 && b->gbps > pk->floor_gbps;
	if ((fast_f || fast_b) && b->verdict.reason == VR_OK) {
		b->verdict.reason = VR_IMPLAUSIBLE;
		b->verdict.summary =
		    fast_f ? arena_printf(r->a, "timed at %.0f GFLOP/s of the spec's flops, faster "
		                                "than any unit of the device can go (at most %.0f, "
		                                "%s)", b->gflops, pk->floor_gflops, rate_why)
		           : arena_printf(r->a, "timed at %.0f GB/s of the spec's bytes, faster than "
		                                "the device moves data (at most %.0f GB/s: %s)",
		                          b->gbps, pk->floor_gbps, pk->source);
	}
	if (b->speedup > 10)
		vr_verdict_note(r->a, &b->verdict, "speed-up over 10x: check the report");
}

/* The same version: the same text built the same way (-O2's flag search
 * builds the original's text with other flags: a version of its own). */
/* A timed run of the candidate that failed (rc) or whose outputs differ
 * from the original's timed outputs: v holds the rejection. */
static bool timed_rejected(VerifyRef *r, VerifyReason rc, const char *log, Results *res,
                           Verdict *v)
{
	if (rc != VR_OK) {
		v->reason = rc;
		v->log = log;
		v->summary = arena_printf(r->a, "%s in the timed runs", verify_reason_name(rc));
		return true;
	}
	return bench_outputs(r, &r->bench.c, &r->bench.ref0, res, v) != VR_OK;
}

static bool same_text(const Unit *x, const Unit *y)
{
	return x->len == y->len && !memcmp(x->text, y->text, x->len) && !x->build_flags &&
	       !y->build_flags;
}

int verify_bench(VerifyRef *r, const Unit *cand, BenchResult *b)
{
	memset(b, 0, sizeof *b);
	Verdict *v = &b->verdict;
	v->index = -1;
	b->device = r->info.summary;
	b->unit = r->t->unit;
	if (vr_ref_intact(r) != 0) /* candidates ran since: theirs */
		return tampered(v);
	if (bench_memo(r) != 0)
		return -1;
	BenchMemo *m = &r->bench;
	b->shape = m->c.text;
	v->shape = m->c.text;
	v->check = "bench";
	Samples sa = m->ref, sb = {0};
	if (same_text(cand, r->u)) {
		/* The original is not timed against itself: its speed-up is 1. */
		finish(r, b, &sa, &sa);
		b->speedup = b->ci_lo = b->ci_hi = 1;
		b->call = "noise";
		b->load = m->load;
		vr_verdict_note(r->a, v, "the original itself: its measurement, not timed again");
		return 0;
	}
	const char *why = "";
	const char *exe = r->last_cand == cand ? r->last_exe : NULL;
	TargetBuilt tb;
	if (!exe)
		exe = vr_cand_dir(r) ? vr_build_unit(r, cand, r->cand_dir, false, &tb, &why) : NULL;
	if (!exe) {
		v->reason = VR_BUILD;
		v->summary = "the candidate does not build";
		return 0;
	}
	double load = proc_load();
	Results res;
	const char *log;
	VerifyReason rc = run_timed(r, exe, "cand", vr_limit(r, m->wall), &sb, &res, &log);
	if (rc == VR_TIMEOUT) {
		/* As in the check runs: if the original is much slower now, the
		 * machine is, and the candidate gets the new limit once. */
		Samples again = {0};
		double before = m->wall;
		int t = time_original(r, &again);
		if (t == -2)
			return tampered(v);
		if (t != 0)
			return -1;
		if (m->wall > 1.5 * before)
			rc = run_timed(r, exe, "cand", vr_limit(r, m->wall), &sb, &res, &log);
	}
	if (timed_rejected(r, rc, log, &res, v))
		return 0;
	finish(r, b, &sa, &sb);
	b->unit = r->t->unit;
	if (b->unit) /* a count: no noise to measure again, no events against wall time,
	                no time floor */
		return 0;
	/* A gain measured while the machine was busy, or against numbers of the
	 * original that are old or noisy, is measured again: the original, then
	 * the candidate (with the first runs, A B A B). A result the interval
	 * cannot call yet gets up to three more such rounds when its point
	 * estimate is a gain or its interval is too wide to mean anything (a
	 * real 2.3x read as 1.02x, CI 0.97x-2.76x, while another process took the
	 * memory bus): the samples its interval needs, no more. A clear loss or
	 * a tight non-gain is never re-measured. The rounds pool the original's
	 * samples and the candidate's, taken alternately, so a quiet moment
	 * favours neither. */
	bool busy = load > 0.5 || m->load > 0.5;
	bool old = clock_now() - m->when > 300;
	bool noisy = b->ref.median > 0 && (b->ref.q3 - b->ref.q1) > 0.1 * b->ref.median;
	double d = r->o.delta;
	bool again = verify_bench_again(b, d, busy || old || noisy);
	const char *reason = busy ? "the machine was busy"
	                     : old ? "the original's numbers were old"
	                     : noisy ? "the original's samples were noisy"
	                             : "the interval could not tell";
	for (int round = 0; again && round < 3; round++) {
		Samples fresh = {0};
		int t = time_original(r, &fresh);
		if (t == -2)
			return tampered(v);
		if (t != 0)
			return -1;
		Results res2;
		rc = run_timed(r, exe, "cand", vr_limit(r, m->wall), &sb, &res2, &log);
		if (timed_rejected(r, rc, log, &res2, v))
			return 0;
		for (int i = 0; i < fresh.n; i++) {
			Results one = {.nsamples = 1, .ev = &fresh.ev[i], .wall = &fresh.wall[i]};
			take(r->a, &m->ref, &one);
		}
		sa = m->ref;
		finish(r, b, &sa, &sb);
		b->rounds = round + 2;
		again = verify_bench_again(b, d, false);
	}
	if (b->rounds)
		vr_verdict_note(r->a, v, arena_printf(r->a, "timed in %d rounds of original and "
		                                            "candidate (%s)",
		                                      b->rounds, reason));
	b->load = load > m->load ? load : m->load;
	if (escaped(b)) {
		v->reason = VR_ESCAPED;
		v->summary = arena_printf(r->a, "event time %.3g ms is far below the wall time "
		                                "%.3g ms: work escaped the harness's stream",
		                          b->cand.median * 1e3, b->cand.wall_median * 1e3);
	}
	physical_floor(r, &m->c, b);
	return 0;
}

static void row(FILE *f, const char *name, const BenchStats *s)
{
	fprintf(f, "  %-10s %12.4f %12.4f %12.4f %12.4f %12.4f %6d\n", name, s->median * 1e3,
	        (s->q3 - s->q1) * 1e3, s->min * 1e3, s->max * 1e3, s->wall_median * 1e3, s->n);
}

/* A deterministic count (riscv64's instructions): one number per version. */
static void print_counts(FILE *f, const BenchResult *b)
{
	fprintf(f, "  %-10s %16s %16s %16s %6s\n", "", b->unit, "min", "max", "n");
	fprintf(f, "  %-10s %16.0f %16.0f %16.0f %6d\n", "reference", b->ref.median, b->ref.min,
	        b->ref.max, b->ref.n);
	fprintf(f, "  %-10s %16.0f %16.0f %16.0f %6d\n", "candidate", b->cand.median,
	        b->cand.min, b->cand.max, b->cand.n);
}

void verify_print_bench(FILE *f, const BenchResult *b)
{
	fprintf(f, "kcc: bench: shape %s on %s\n", b->shape ? b->shape : "?",
	        b->device ? b->device : "?");
	if (b->unit) {
		print_counts(f, b);
	} else {
		fprintf(f, "  %-10s %12s %12s %12s %12s %12s %6s\n", "", "median ms", "IQR ms",
		        "min ms", "max ms", "wall ms", "n");
		row(f, "reference", &b->ref);
		row(f, "candidate", &b->cand);
	}
	if (b->verdict.reason != VR_OK) {
		fprintf(f, "kcc: bench: rejected: %s: %s\n", verify_reason_name(b->verdict.reason),
		        b->verdict.summary ? b->verdict.summary : "");
		if (b->verdict.log && *b->verdict.log)
			fprintf(f, "%s\n", b->verdict.log);
		return;
	}
	if (b->unit) {
		fprintf(f, "  speed-up %.4fx in %s (deterministic; any lower count is a gain): %s\n",
		        b->speedup, b->unit, b->call);
	} else {
		fprintf(f, "  speed-up %.3fx (95%% CI %.3fx .. %.3fx): %s\n", b->speedup, b->ci_lo,
		        b->ci_hi, b->call);
		fprintf(f, "  machine load while timing: %.2f runnable tasks per cpu beside kcc; %d "
		           "timing round%s\n", b->load, b->rounds ? b->rounds : 1, b->rounds > 1 ? "s" : "");
	}
	if (b->gflops > 0 || b->gbps > 0)
		fprintf(f, "  candidate: %.1f GFLOP/s, %.1f GB/s\n", b->gflops, b->gbps);
	for (int i = 0; i < b->verdict.nnotes; i++)
		fprintf(f, "kcc: note: %s\n", b->verdict.notes[i]);
}
