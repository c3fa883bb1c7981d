/*
 * profile.c — the target-independent half of profiling: the Profile's
 * metrics and their text for the plan prompt, the peak rates and the
 * roofline, and the shape to profile at. The program the profilers run is
 * the verifier's harness in profile mode (verify/profile.c); the plan's
 * requests for extra metrics, profile_ask.c.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void profile_set(Arena *a, Profile *p, const char *name, double value, const char *unit,
                 const char *meaning)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->m[i].name, name)) {
			p->m[i] = (ProfileMetric){name, value, unit, meaning};
			return;
		}
	ARENA_PUSH(a, p->m, p->n, p->cap, ((ProfileMetric){name, value, unit, meaning}));
}

const ProfileMetric *profile_get(const Profile *p, const char *name)
{
	for (int i = 0; p && i < p->n; i++)
		if (!strcmp(p->m[i].name, name))
			return &p->m[i];
	return NULL;
}

void profile_note(Arena *a, Profile *p, const char *fmt, ...)
{
	Strbuf sb = STRBUF_INIT;
	if (p->notes && *p->notes)
		sb_addf(&sb, "%s\n", p->notes);
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	p->notes = sb_to_arena(&sb, a);
}

void target_keep_raw(Arena *a, const TargetProfileRun *r, const char *name, const char *data,
                     size_t len)
{
	if (r->keep && data)
		file_write_atomic(arena_printf(a, "%s/%s", r->cwd, name), data, len);
}

char *profile_value(Arena *a, const ProfileMetric *m)
{
	if (!m)
		return "n/a";
	double v = m->value;
	const char *u = m->unit ? m->unit : "";
	if (!strcmp(u, "%"))
		return arena_printf(a, "%.1f%%", v);
	if (!strcmp(u, "instructions")) /* exact counts (riscv64) */
		return arena_printf(a, "%.0f %s", v, u);
	if (v != 0 && (v >= 1e6 || v <= -1e6))
		return arena_printf(a, "%.3g%s%s", v, *u ? " " : "", u);
	return arena_printf(a, "%.4g%s%s", v, *u ? " " : "", u);
}

char *profile_text(Arena *a, const Profile *p)
{
	Strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "Profile (%s%s%s):\n", p->source ? p->source : "none",
	        p->shape ? " at " : "", p->shape ? p->shape : "");
	for (int i = 0; i < p->n; i++)
		sb_addf(&sb, "- %s: %s — %s\n", p->m[i].name, profile_value(a, &p->m[i]),
		        p->m[i].meaning ? p->m[i].meaning : "");
	if (p->nhot) {
		sb_adds(&sb, "- hottest:");
		for (int i = 0; i < p->nhot; i++)
			sb_addf(&sb, "%s %s %.1f%%", i ? "," : "", p->hot[i].name, p->hot[i].share);
		sb_addc(&sb, '\n');
	}
	if (p->notes && *p->notes)
		sb_addf(&sb, "Notes: %s\n", p->notes);
	return sb_to_arena(&sb, a);
}

static const char *const UNIT_NAMES[PEAK__UNITS] = {
    [PEAK_FP32] = "fp32 FMA",
    [PEAK_FP64] = "fp64 FMA",
    [PEAK_FP32_SCALAR] = "scalar fp32 FMA",
    [PEAK_TC_F16] = "fp16 tensor cores (f32 accumulate)",
    [PEAK_TC_BF16] = "bf16 tensor cores (f32 accumulate)",
    [PEAK_TC_TF32] = "tf32 tensor cores (f32 accumulate)",
};

const char *profile_peak_unit_name(PeakUnit u)
{
	return u < PEAK__UNITS ? UNIT_NAMES[u] : "?";
}

double profile_peak_for(const ProfilePeaks *pk, ElemType t, PeakUnit *unit)
{
	PeakUnit u = PEAK_FP32;
	if (t == ET_F16 && pk->unit[PEAK_TC_F16] > 0)
		u = PEAK_TC_F16;
	else if (t == ET_BF16 && pk->unit[PEAK_TC_BF16] > 0)
		u = PEAK_TC_BF16;
	else if (t == ET_F64 && pk->unit[PEAK_FP64] > 0)
		u = PEAK_FP64;
	if (unit)
		*unit = u;
	double v = pk->unit[u] > 0 ? pk->unit[u] : u == PEAK_FP32 ? pk->gflops : 0;
	/* Measured beside other work, a peak is too low to be a roof: a kernel
	 * timed in a quieter moment would sit above it. */
	if (pk->busy && pk->est_unit[u] > v)
		v = pk->est_unit[u];
	return v;
}

char *profile_peaks_text(Arena *a, const ProfilePeaks *pk)
{
	Strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "Peak rates (%s):\n", pk->source ? pk->source : "measured");
	for (int u = 0; u < PEAK__UNITS; u++)
		if (pk->unit[u] > 0)
			sb_addf(&sb, "- %s: %.0f GFLOP/s\n", UNIT_NAMES[u], pk->unit[u]);
	if (pk->gbps > 0)
		sb_addf(&sb, "- memory (DRAM) bandwidth: %.0f GB/s\n", pk->gbps);
	if (pk->cache_gbps > 0)
		sb_addf(&sb, "- cache (%s) bandwidth: %.0f GB/s\n",
		        pk->cache_name ? pk->cache_name : "cache", pk->cache_gbps);
	if (pk->est_gflops > 0)
		sb_addf(&sb, "- datasheet: up to %.0f GFLOP/s on the fastest unit (%s), %.0f GB/s\n",
		        pk->est_gflops, pk->est_name ? pk->est_name : "?", pk->est_gbps);
	return sb_to_arena(&sb, a);
}

void profile_peaks_floor(ProfilePeaks *pk)
{
	double f = pk->gflops, b = pk->gbps > pk->cache_gbps ? pk->gbps : pk->cache_gbps;
	for (int u = 0; u < PEAK__UNITS; u++)
		if (pk->unit[u] > f)
			f = pk->unit[u];
	f *= 1.5;
	b *= 1.5;
	pk->floor_gflops = f > pk->est_gflops ? f : pk->est_gflops;
	pk->floor_gbps = b > pk->est_gbps ? b : pk->est_gbps;
}

ElemType profile_compute_type(const Spec *sp)
{
	static const ElemType narrow[] = {ET_F16, ET_BF16, ET_F32, ET_F64};
	for (size_t k = 0; k < ARRAY_LEN(narrow); k++)
		for (int i = 0; i < sp->nparams; i++)
			if (sp->params[i].role != ROLE_OUT && sp->params[i].type == narrow[k])
				return narrow[k];
	return ET_F32;
}

void profile_roofline(Arena *a, Profile *p, double flops, double bytes, double seconds,
                      const ProfilePeaks *pk, ElemType compute)
{
	if (!(seconds > 0))
		return;
	PeakUnit unit = PEAK_FP32;
	double peak = pk ? profile_peak_for(pk, compute, &unit) : 0;
	if (flops > 0) {
		double g = flops / seconds * 1e-9;
		profile_set(a, p, "achieved GFLOP/s", g, "GFLOP/s",
		            "spec flops at the bench shape over the measured median time");
		if (peak > 0)
			profile_set(a, p, "% of peak FLOP/s", 100 * g / peak, "%",
			            arena_printf(a, "of %.0f GFLOP/s, the %s peak (%s)", peak,
			                         profile_peak_unit_name(unit), pk->source));
	}
	if (bytes > 0) {
		double g = bytes / seconds * 1e-9;
		profile_set(a, p, "achieved GB/s", g, "GB/s",
		            "spec bytes at the bench shape over the measured median time");
		double bw = pk ? pk->gbps : 0;
		if (pk && pk->busy && pk->est_dram_gbps > bw)
			bw = pk->est_dram_gbps;
		if (bw > 0)
			profile_set(a, p, "% of peak bandwidth", 100 * g / bw, "%",
			            arena_printf(a, "of %.0f GB/s, the memory (DRAM) bandwidth (%s)", bw,
			                         pk->busy && bw > pk->gbps
			                             ? "the datasheet's: the measurement ran on a busy "
			                               "machine"
			                             : pk->source));
	}
	if (flops > 0 && bytes > 0) {
		double bwr = pk ? pk->gbps : 0;
		if (pk && pk->busy && pk->est_dram_gbps > bwr)
			bwr = pk->est_dram_gbps;
		double ai = flops / bytes, ridge = bwr > 0 ? peak / bwr : 0;
		profile_set(a, p, "arithmetic intensity", ai, "flop/byte",
		            ridge <= 0 ? "spec flops over spec bytes"
		            : ai < ridge
		                ? arena_printf(a, "below the ridge point (%.1f flop/byte against the "
		                                  "%s peak): memory-bound at best, so cut traffic",
		                               ridge, profile_peak_unit_name(unit))
		                : arena_printf(a, "above the ridge point (%.1f flop/byte against the "
		                                  "%s peak): compute-bound at best, so the roof is "
		                                  "the %s peak",
		                               ridge, profile_peak_unit_name(unit),
		                               profile_peak_unit_name(unit)));
	}
}

/* ---- the shape profiled ------------------------------------------------------ */

double target_eval(const Expr *e, const Shape *sh)
{
	int64_t v = 0;
	const char *why;
	return e && expr_eval(e, sh, &v, &why, NULL) == 0 ? (double)v : 0;
}

/* A simulating profiler (callgrind) runs ~50x slower than native: the
 * bench shape only when that still fits a minute. */
const Shape *target_profile_shape(const Target *t, const Unit *u)
{
	const Spec *sp = &u->spec;
	if (sp->has_bench && !t->profile_slow)
		return &sp->bench;
	if (sp->has_bench) {
		double bytes = 0;
		for (int i = 0; i < sp->nparams; i++) {
			int64_t n = 0;
			const char *why;
			if (spec_extent(&sp->params[i], &sp->bench, &n, &why) == 0)
				bytes += (double)n * (double)elem_size(sp->params[i].type);
		}
		if (target_eval(sp->flops, &sp->bench) <= 3e8 && bytes <= 256e6)
			return &sp->bench;
	}
	const Shape *best = sp->ncheck ? &sp->check[0] : NULL;
	for (int i = 1; i < sp->ncheck; i++) {
		double a = 1, b = 1;
		for (int k = 0; k < sp->check[i].n; k++)
			a *= (double)sp->check[i].values[k];
		for (int k = 0; k < best->n; k++)
			b *= (double)best->values[k];
		if (a > b)
			best = &sp->check[i];
	}
	return best;
}
