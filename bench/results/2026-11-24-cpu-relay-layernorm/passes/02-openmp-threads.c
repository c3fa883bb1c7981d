/*
 * layernorm.c — layer normalization of each row of an R x N matrix:
 * Y[r][j] = (X[r][j] - mean_r) / sqrt(var_r + 1e-5) * gamma[j] + beta[j],
 * with mean and (biased) variance over the row. Two-pass version, vectorized:
 * the mean and variance reductions use several independent vector
 * accumulators (the row sum in fp64, so the mean is at least as accurate as
 * the original's), the normalize pass is a vector FMA loop; masked (AVX-512)
 * or scalar tails handle any N, and on AVX-512 a masked head chunk aligns the
 * output stores to 64-byte lines. The reductions always split a row the same
 * way (by position in the row, not by address), so results do not depend on
 * the buffers' alignment.
 */
/* kcc:begin tune: values chosen by measurement */
#ifndef LN_PAR_MIN
#define LN_PAR_MIN 8192
#endif
/* kcc:end tune */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <immintrin.h>

#pragma kcc entry layernorm
#pragma kcc param X in f32[R*N]
#pragma kcc param gamma in f32[N]
#pragma kcc param beta in f32[N]
#pragma kcc param Y out f32[R*N]
#pragma kcc shape check R=29 N=77; R=8 N=256; R=2 N=1031
#pragma kcc shape bench R=2048 N=1024
#pragma kcc flops 8*R*N
#pragma kcc bytes 4*(2*R*N+2*N)
#pragma kcc tune LN_PAR_MIN=8192,32768,131072

/* smallest R*N for which the row loop runs in parallel */
#ifndef LN_PAR_MIN
#define LN_PAR_MIN 32768
#endif

#if defined(__AVX512F__)

/* Number of leading floats before p reaches a 64-byte boundary (at most N):
 * a masked head chunk of that length makes every full 16-float store of the
 * output loop line-aligned (no cache-line-split stores), whatever the
 * alignment of the buffer the caller passes. Only used for the elementwise
 * output pass, whose results do not depend on how the row is split. */
static inline int ln_head(const void *p, int N)
{
	int h = (int)((((uintptr_t)0 - (uintptr_t)p) & 63u) >> 2);
	return h < N ? h : N;
}

static inline __mmask16 ln_mask(int n)
{
	return (__mmask16)((1u << n) - 1u);	/* 0 <= n <= 15 */
}

static inline __m512d ln_lo8(__m512 v)
{
	return _mm512_cvtps_pd(_mm512_castps512_ps256(v));
}

static inline __m512d ln_hi8(__m512 v)
{
	return _mm512_cvtps_pd(_mm256_castpd_ps(
		_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
}

/* row sum accumulated in double: the mean is then correctly rounded to
 * float in almost all cases, so it is never less accurate than the
 * original's sequential float sum, whatever the offset of the data */
static inline double ln_row_sum(const float *restrict xr, int N)
{
	__m512d a0 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd();
	__m512d a2 = _mm512_setzero_pd(), a3 = _mm512_setzero_pd();
	int j = 0;
	for (; j + 32 <= N; j += 32) {
		__m512 v0 = _mm512_loadu_ps(xr + j);
		__m512 v1 = _mm512_loadu_ps(xr + j + 16);
		a0 = _mm512_add_pd(a0, ln_lo8(v0));
		a1 = _mm512_add_pd(a1, ln_hi8(v0));
		a2 = _mm512_add_pd(a2, ln_lo8(v1));
		a3 = _mm512_add_pd(a3, ln_hi8(v1));
	}
	for (; j + 16 <= N; j += 16) {
		__m512 v = _mm512_loadu_ps(xr + j);
		a0 = _mm512_add_pd(a0, ln_lo8(v));
		a1 = _mm512_add_pd(a1, ln_hi8(v));
	}
	int rem = N - j;
	if (rem > 0) {
		__m512 v = _mm512_maskz_loadu_ps(ln_mask(rem), xr + j);
		a2 = _mm512_add_pd(a2, ln_lo8(v));
		a3 = _mm512_add_pd(a3, ln_hi8(v));
	}
	a0 = _mm512_add_pd(a0, a1);
	a2 = _mm512_add_pd(a2, a3);
	a0 = _mm512_add_pd(a0, a2);
	return _mm512_reduce_add_pd(a0);
}

static inline float ln_row_sqdev(const float *restrict xr, int N, float mean)
{
	const __m512 mv = _mm512_set1_ps(mean);
	__m512 a0 = _mm512_setzero_ps(), a1 = _mm512_setzero_ps();
	__m512 a2 = _mm512_setzero_ps(), a3 = _mm512_setzero_ps();
	int j = 0;
	for (; j + 64 <= N; j += 64) {
		__m512 d0 = _mm512_sub_ps(_mm512_loadu_ps(xr + j), mv);
		__m512 d1 = _mm512_sub_ps(_mm512_loadu_ps(xr + j + 16), mv);
		__m512 d2 = _mm512_sub_ps(_mm512_loadu_ps(xr + j + 32), mv);
		__m512 d3 = _mm512_sub_ps(_mm512_loadu_ps(xr + j + 48), mv);
		a0 = _mm512_fmadd_ps(d0, d0, a0);
		a1 = _mm512_fmadd_ps(d1, d1, a1);
		a2 = _mm512_fmadd_ps(d2, d2, a2);
		a3 = _mm512_fmadd_ps(d3, d3, a3);
	}
	for (; j + 16 <= N; j += 16) {
		__m512 d = _mm512_sub_ps(_mm512_loadu_ps(xr + j), mv);
		a0 = _mm512_fmadd_ps(d, d, a0);
	}
	int rem = N - j;
	if (rem > 0) {
		__mmask16 m = ln_mask(rem);
		__m512 d = _mm512_maskz_sub_ps(m, _mm512_maskz_loadu_ps(m, xr + j), mv);
		a1 = _mm512_fmadd_ps(d, d, a1);
	}
	a0 = _mm512_add_ps(a0, a1);
	a2 = _mm512_add_ps(a2, a3);
	a0 = _mm512_add_ps(a0, a2);
	return _mm512_reduce_add_ps(a0);
}

static inline void ln_out16(const float *xr, const float *g, const float *b,
			    float *yr, __m512 mv, __m512 iv)
{
	__m512 t = _mm512_mul_ps(_mm512_sub_ps(_mm512_loadu_ps(xr), mv), iv);
	_mm512_storeu_ps(yr, _mm512_fmadd_ps(t, _mm512_loadu_ps(g), _mm512_loadu_ps(b)));
}

static inline void ln_out_masked(const float *xr, const float *g, const float *b,
				 float *yr, __m512 mv, __m512 iv, __mmask16 m)
{
	__m512 t = _mm512_mul_ps(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, xr), mv), iv);
	__m512 y = _mm512_fmadd_ps(t, _mm512_maskz_loadu_ps(m, g), _mm512_maskz_loadu_ps(m, b));
	_mm512_mask_storeu_ps(yr, m, y);
}

static inline void ln_row_out(const float *restrict xr, const float *restrict g,
			      const float *restrict b, float *restrict yr,
			      int N, float mean, float inv)
{
	const __m512 mv = _mm512_set1_ps(mean);
	const __m512 iv = _mm512_set1_ps(inv);
	int j = ln_head(yr, N);		/* align the stores */
	if (j > 0)
		ln_out_masked(xr, g, b, yr, mv, iv, ln_mask(j));
	for (; j + 32 <= N; j += 32) {
		ln_out16(xr + j, g + j, b + j, yr + j, mv, iv);
		ln_out16(xr + j + 16, g + j + 16, b + j + 16, yr + j + 16, mv, iv);
	}
	for (; j + 16 <= N; j += 16)
		ln_out16(xr + j, g + j, b + j, yr + j, mv, iv);
	int rem = N - j;
	if (rem > 0)
		ln_out_masked(xr + j, g + j, b + j, yr + j, mv, iv, ln_mask(rem));
}

#elif defined(__AVX2__) && defined(__FMA__)

static inline float ln_hsum256(__m256 v)
{
	__m128 lo = _mm256_castps256_ps128(v);
	__m128 hi = _mm256_extractf128_ps(v, 1);
	lo = _mm_add_ps(lo, hi);
	__m128 sh = _mm_movehdup_ps(lo);
	__m128 s = _mm_add_ps(lo, sh);
	sh = _mm_movehl_ps(sh, s);
	s = _mm_add_ss(s, sh);
	return _mm_cvtss_f32(s);
}

static inline double ln_row_sum(const float *restrict xr, int N)
{
	__m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd();
	__m256d a2 = _mm256_setzero_pd(), a3 = _mm256_setzero_pd();
	int j = 0;
	for (; j + 16 <= N; j += 16) {
		a0 = _mm256_add_pd(a0, _mm256_cvtps_pd(_mm_loadu_ps(xr + j)));
		a1 = _mm256_add_pd(a1, _mm256_cvtps_pd(_mm_loadu_ps(xr + j + 4)));
		a2 = _mm256_add_pd(a2, _mm256_cvtps_pd(_mm_loadu_ps(xr + j + 8)));
		a3 = _mm256_add_pd(a3, _mm256_cvtps_pd(_mm_loadu_ps(xr + j + 12)));
	}
	for (; j + 4 <= N; j += 4)
		a0 = _mm256_add_pd(a0, _mm256_cvtps_pd(_mm_loadu_ps(xr + j)));
	a0 = _mm256_add_pd(a0, a1);
	a2 = _mm256_add_pd(a2, a3);
	a0 = _mm256_add_pd(a0, a2);
	__m128d h = _mm_add_pd(_mm256_castpd256_pd128(a0), _mm256_extractf128_pd(a0, 1));
	double s = _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
	for (; j < N; j++)
		s += (double)xr[j];
	return s;
}

static inline float ln_row_sqdev(const float *restrict xr, int N, float mean)
{
	const __m256 mv = _mm256_set1_ps(mean);
	__m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
	__m256 a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
	int j = 0;
	for (; j + 32 <= N; j += 32) {
		__m256 d0 = _mm256_sub_ps(_mm256_loadu_ps(xr + j), mv);
		__m256 d1 = _mm256_sub_ps(_mm256_loadu_ps(xr + j + 8), mv);
		__m256 d2 = _mm256_sub_ps(_mm256_loadu_ps(xr + j + 16), mv);
		__m256 d3 = _mm256_sub_ps(_mm256_loadu_ps(xr + j + 24), mv);
		a0 = _mm256_fmadd_ps(d0, d0, a0);
		a1 = _mm256_fmadd_ps(d1, d1, a1);
		a2 = _mm256_fmadd_ps(d2, d2, a2);
		a3 = _mm256_fmadd_ps(d3, d3, a3);
	}
	for (; j + 8 <= N; j += 8) {
		__m256 d = _mm256_sub_ps(_mm256_loadu_ps(xr + j), mv);
		a0 = _mm256_fmadd_ps(d, d, a0);
	}
	a0 = _mm256_add_ps(a0, a1);
	a2 = _mm256_add_ps(a2, a3);
	float s = ln_hsum256(_mm256_add_ps(a0, a2));
	for (; j < N; j++) {
		float d = xr[j] - mean;
		s = fmaf(d, d, s);
	}
	return s;
}

static inline void ln_row_out(const float *restrict xr, const float *restrict g,
			      const float *restrict b, float *restrict yr,
			      int N, float mean, float inv)
{
	const __m256 mv = _mm256_set1_ps(mean);
	const __m256 iv = _mm256_set1_ps(inv);
	int j = 0;
	for (; j + 8 <= N; j += 8) {
		__m256 t = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(xr + j), mv), iv);
		_mm256_storeu_ps(yr + j, _mm256_fmadd_ps(t, _mm256_loadu_ps(g + j),
							 _mm256_loadu_ps(b + j)));
	}
	for (; j < N; j++)
		yr[j] = fmaf((xr[j] - mean) * inv, g[j], b[j]);
}

#else /* plain scalar fallback */

static inline double ln_row_sum(const float *restrict xr, int N)
{
	double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
	int j = 0;
	for (; j + 4 <= N; j += 4) {
		s0 += (double)xr[j];
		s1 += (double)xr[j + 1];
		s2 += (double)xr[j + 2];
		s3 += (double)xr[j + 3];
	}
	for (; j < N; j++)
		s0 += (double)xr[j];
	return (s0 + s1) + (s2 + s3);
}

static inline float ln_row_sqdev(const float *restrict xr, int N, float mean)
{
	float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
	int j = 0;
	for (; j + 4 <= N; j += 4) {
		float d0 = xr[j] - mean, d1 = xr[j + 1] - mean;
		float d2 = xr[j + 2] - mean, d3 = xr[j + 3] - mean;
		s0 += d0 * d0;
		s1 += d1 * d1;
		s2 += d2 * d2;
		s3 += d3 * d3;
	}
	for (; j < N; j++) {
		float d = xr[j] - mean;
		s0 += d * d;
	}
	return (s0 + s1) + (s2 + s3);
}

static inline void ln_row_out(const float *restrict xr, const float *restrict g,
			      const float *restrict b, float *restrict yr,
			      int N, float mean, float inv)
{
	for (int j = 0; j < N; j++)
		yr[j] = (xr[j] - mean) * inv * g[j] + b[j];
}

#endif

void layernorm(const float *X, const float *gamma, const float *beta, float *Y,
               int R, int N)
{
	const float *restrict g = gamma;
	const float *restrict b = beta;
	/* rows are independent: each thread normalizes a contiguous block of
	 * rows with exactly the same per-row code, so results are bit-identical
	 * whatever the thread count */
	#pragma omp parallel for schedule(static) if ((size_t)R * (size_t)N >= (size_t)LN_PAR_MIN)
	for (int r = 0; r < R; r++) {
		const float *restrict xr = X + (size_t)r * (size_t)N;
		float *restrict yr = Y + (size_t)r * (size_t)N;
		float mean = (float)(ln_row_sum(xr, N) / N);
		float var = ln_row_sqdev(xr, N, mean);
		var = var / N;
		float inv = 1.0f / sqrtf(var + 1e-5f);
		ln_row_out(xr, g, b, yr, N, mean, inv);
	}
}
