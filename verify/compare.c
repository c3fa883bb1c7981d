/*
 * compare.c — deciding whether a candidate's outputs match the reference's
 * (DESIGN 5.4-5.5), NaN-safe throughout: every test is written as
 * `!(err <= tol)` so a NaN error fails instead of passing.
 *
 * In order: an element still holding the exact poison bits the harness
 * wrote (and the original did not) is "unwritten"; NaN/Inf masks must equal
 * the original's ("nan"); then values. Integers compare exactly. Floats
 * compare either elementwise against the original (spec tolerance, or no
 * fp64 reference), or by the fp64-reference rule: with y64 the original
 * run in double precision, the candidate passes when its max, mean and
 * relative-L2 errors against y64 are each at most twice the original's
 * own plus a floor of a few epsilons of the output scale. A failure whose
 * error is small in norm (relative L2 under 5%, max under 10% of the
 * scale) is reported as a precision drop ("precision"), otherwise "wrong";
 * classify.c then confirms a precision drop by the exact small-integer call,
 * which a lower-precision but otherwise right kernel passes and a shortcut
 * (skipping 1% of a sum and rescaling, say) does not.
 */
#include "internal.h"

#include <math.h>
#include <string.h>

static double type_eps(ElemType t)
{
	switch (t) {
	case ET_F64: return 0x1p-53;
	case ET_F32: return 0x1p-24;
	case ET_F16: return 0x1p-11;
	case ET_BF16: return 0x1p-8;
	default: return 0;
	}
}

Tolerance verify_default_tolerance(ElemType t)
{
	Tolerance tol = {.elementwise = false, .atol_scaled = true, .floor_ulps = 256};
	switch (t) {
	case ET_F64: tol.rtol = 1e-10; tol.atol = 1e-12; break;
	case ET_F32: tol.rtol = 1e-4; tol.atol = 1e-5; break;
	case ET_F16: tol.rtol = 1e-2; tol.atol = 1e-3; break;
	case ET_BF16: tol.rtol = 2e-2; tol.atol = 1e-2; break;
	default: tol.rtol = 0; tol.atol = 0; tol.elementwise = true; break;
	}
	return tol;
}

static bool same_bits(const unsigned char *a, const unsigned char *b, size_t es)
{
	return memcmp(a, b, es) == 0;
}

static int64_t find_unwritten(ElemType t, size_t n, const void *cand, const void *orig,
                              int poison, uint64_t salt)
{
	size_t es = elem_size(t);
	unsigned char pb[8];
	const unsigned char *c = cand, *o = orig;
	for (size_t i = 0; i < n; i++) {
		kcc_poison_at(pb, (int)t, poison, salt, i);
		if (same_bits(c + i * es, pb, es) && !same_bits(o + i * es, pb, es))
			return (int64_t)i;
	}
	return -1;
}

static int64_t find_nan_mismatch(ElemType t, size_t n, const void *cand, const void *orig)
{
	for (size_t i = 0; i < n; i++) {
		double c = kcc_load(cand, (int)t, i), o = kcc_load(orig, (int)t, i);
		if (isnan(c) != isnan(o) || (isinf(c) && !(c == o)) || (isinf(o) && !(c == o)))
			return (int64_t)i;
	}
	return -1;
}

/* Error statistics of x against r (finite elements of r only). */
typedef struct {
	double max, mean, l2, scale, rmean, imax;
} Err;

static Err errors(ElemType tx, const void *x, const double *r64, ElemType tr, const void *r,
                  size_t n)
{
	Err e = {0};
	double num = 0, den = 0, sum = 0, rsum = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		double ref = r64 ? r64[i] : kcc_load(r, (int)tr, i);
		if (!isfinite(ref))
			continue;
		double d = fabs(kcc_load(x, (int)tx, i) - ref);
		if (!(d <= e.max)) { /* NaN-safe: a NaN becomes the maximum */
			e.max = d;
			e.imax = (double)i;
		}
		sum += d;
		rsum += fabs(ref);
		num += d * d;
		den += ref * ref;
		if (fabs(ref) > e.scale)
			e.scale = fabs(ref);
		k++;
	}
	e.mean = k ? sum / (double)k : 0;
	e.rmean = k ? rsum / (double)k : 0;
	e.l2 = den > 0 ? sqrt(num / den) : sqrt(num);
	return e;
}

static void fill_at(Compare *out, ElemType t, const void *cand, const void *orig, int64_t i)
{
	out->index = i;
	out->got = kcc_load(cand, (int)t, (size_t)i);
	out->want = kcc_load(orig, (int)t, (size_t)i);
}

/* Small in norm against the original: perhaps a precision drop. */
static bool small_error(ElemType t, size_t n, const void *cand, const void *orig)
{
	Err e = errors(t, cand, NULL, t, orig, n);
	return e.l2 <= 5e-2 && e.max <= 0.1 * e.scale;
}

static void compare_elementwise(ElemType t, size_t n, const void *cand, const void *orig,
                                const Tolerance *tol, Compare *out)
{
	double scale = 0;
	for (size_t i = 0; i < n; i++) {
		double o = fabs(kcc_load(orig, (int)t, i));
		if (isfinite(o) && o > scale)
			scale = o;
	}
	double atol = tol->atol * (tol->atol_scaled && scale > 1 ? scale : 1);
	for (size_t i = 0; i < n; i++) {
		double c = kcc_load(cand, (int)t, i), o = kcc_load(orig, (int)t, i);
		if (!isfinite(o) && !isfinite(c))
			continue; /* the masks matched already */
		if (!(fabs(c - o) <= atol + tol->rtol * fabs(o))) {
			out->reason = small_error(t, n, cand, orig) ? VR_PRECISION : VR_WRONG;
			fill_at(out, t, cand, orig, (int64_t)i);
			return;
		}
	}
}

static void compare_y64(ElemType t, size_t n, const void *cand, const void *orig,
                        const double *y64, const Tolerance *tol, Compare *out)
{
	Err ec = errors(t, cand, y64, ET_F64, NULL, n);
	Err eo = errors(t, orig, y64, ET_F64, NULL, n);
	double u = type_eps(t) * tol->floor_ulps;
	out->ref_max_abs = eo.max;
	bool ok = ec.max <= 2 * eo.max + u * ec.scale && ec.mean <= 2 * eo.mean + u * ec.rmean &&
	          ec.l2 <= 2 * eo.l2 + u;
	if (ok)
		return;
	bool small = ec.l2 <= 5e-2 && ec.max <= 0.1 * ec.scale;
	out->reason = small ? VR_PRECISION : VR_WRONG;
	fill_at(out, t, cand, orig, (int64_t)ec.imax);
}

void verify_compare(ElemType t, size_t n, const void *cand, const void *orig,
                    const double *y64, int poison_kind, const Tolerance *tol, Compare *out)
{
	verify_compare_salted(t, n, cand, orig, y64, poison_kind, 0, tol, out);
}

void verify_compare_salted(ElemType t, size_t n, const void *cand, const void *orig,
                           const double *y64, int poison_kind, uint64_t salt,
                           const Tolerance *tol, Compare *out)
{
	memset(out, 0, sizeof *out);
	out->reason = VR_OK;
	out->index = -1;
	int64_t i;
	if (poison_kind && (i = find_unwritten(t, n, cand, orig, poison_kind, salt)) >= 0) {
		out->reason = VR_UNWRITTEN;
		fill_at(out, t, cand, orig, i);
		return;
	}
	if (elem_is_float(t) && (i = find_nan_mismatch(t, n, cand, orig)) >= 0) {
		out->reason = VR_NAN;
		fill_at(out, t, cand, orig, i);
		return;
	}
	Err e = errors(t, cand, y64, y64 ? ET_F64 : t, orig, n);
	out->max_abs = e.max;
	out->max_rel = e.scale > 0 ? e.max / e.scale : e.max;
	out->rel_l2 = e.l2;
	out->mean_abs = e.mean;
	if (!elem_is_float(t)) {
		size_t es = elem_size(t);
		for (size_t k = 0; k < n; k++)
			if (!same_bits((const unsigned char *)cand + k * es,
			               (const unsigned char *)orig + k * es, es)) {
				out->reason = VR_WRONG;
				fill_at(out, t, cand, orig, (int64_t)k);
				return;
			}
		return;
	}
	if (tol->elementwise || !y64)
		compare_elementwise(t, n, cand, orig, tol, out);
	else
		compare_y64(t, n, cand, orig, y64, tol, out);
}

/* ---- the rule per output ------------------------------------------------------- */

Tolerance vr_tolerance_for(const Unit *u, ElemType t)
{
	Tolerance tol = verify_default_tolerance(t);
	if (u->spec.has_tolerance && elem_is_float(t)) {
		tol.elementwise = true;
		tol.rtol = u->spec.rtol;
		tol.atol = u->spec.atol;
		tol.atol_scaled = false;
	}
	return tol;
}

char *verify_tolerance_text(Arena *a, const VerifyRef *r)
{
	bool y64 = r->y64_exe && r->ncases > 0;
	for (int i = 0; i < r->ncases; i++)
		y64 = y64 && r->cases[i].have_y64;
	Strbuf sb = STRBUF_INIT;
	const Spec *sp = &r->u->spec;
	for (int p = 0; p < sp->nparams; p++) {
		const SpecParam *pp = &sp->params[p];
		if (pp->role == ROLE_IN)
			continue;
		Tolerance tol = vr_tolerance_for(r->u, pp->type);
		sb_addf(&sb, "- %s (%s): ", pp->name, elem_name(pp->type));
		if (!elem_is_float(pp->type))
			sb_adds(&sb, "exactly equal to the original's output\n");
		else if (tol.elementwise)
			sb_addf(&sb, "every element c within %g + %g*|o| of the original's o (the "
			        "spec's `#pragma kcc tolerance rtol=%g atol=%g`)\n", tol.atol, tol.rtol,
			        tol.rtol, tol.atol);
		else if (y64)
			sb_addf(&sb, "no less accurate than the original, both measured against an "
			        "fp64 run of the original (y64): max|c-y64| <= 2*max|o-y64| + "
			        "%g*eps*max|y64|, and the same for the mean error and for the "
			        "relative L2 error (eps = 2^-24). Reordering sums and using FMA is "
			        "fine; a narrower type for inputs or accumulators is not\n",
			        tol.floor_ulps);
		else
			sb_addf(&sb, "every element c within %g*max(1, max|o|) + %g*|o| of the "
			        "original's o (kcc's default for %s: the original has no fp64 "
			        "reference)\n", tol.atol, tol.rtol, elem_name(pp->type));
	}
	sb_adds(&sb, "- NaN and Inf exactly where the original's output has them\n");
	return sb_to_arena(&sb, a);
}
