// kcc-mutant: ref=attention_decode.c expect=crash
// why: computes keys-per-chunk as T / (T / CHUNK), an integer division by zero whenever T < 256.
/*
 * attention_decode.fast.c — one decode step of multi-head attention over a
 * KV cache: for each head h, with one query q[h] (D values) and the cache
 * Kc[h][t][d], Vc[h][t][d] for t < T:
 *     s[t] = (q[h] . Kc[h][t]) / sqrt(D),   p = softmax_t(s),
 *     O[h][d] = sum_t p[t] * Vc[h][t][d].
 * Faster: one pass over K and one over V instead of three, using an online
 * softmax over chunks of 256 keys: the chunk's scores are computed once into
 * a small local array, the running maximum is updated once per chunk and the
 * accumulated output rescaled only then; dot products use 4 partial sums;
 * heads are spread over OpenMP threads. Normalization happens once at the end;
 * the running sum and output accumulate in double (cheap here: the kernel is
 * bound by reading the cache), so the result is at least as accurate.
 */
#include <math.h>

#include <stdint.h>

#pragma kcc entry attention_decode
#pragma kcc param q in f32[H*D]
#pragma kcc param Kc in f32[H*T*D]
#pragma kcc param Vc in f32[H*T*D]
#pragma kcc param O out f32[H*D]
#pragma kcc shape check H=3 T=37 D=64; H=4 T=128 D=33; H=1 T=1 D=16; H=2 T=301 D=128
#pragma kcc shape bench H=32 T=2048 D=128
#pragma kcc flops 4*H*T*D
#pragma kcc bytes 4*(2*H*T*D+2*H*D)

#define CHUNK 256

static float dot4(const float *restrict a, const float *restrict b, int n)
{
	float p0 = 0.0f, p1 = 0.0f, p2 = 0.0f, p3 = 0.0f;
	int d = 0;
	for (; d + 4 <= n; d += 4) {
		p0 += a[d] * b[d];
		p1 += a[d + 1] * b[d + 1];
		p2 += a[d + 2] * b[d + 2];
		p3 += a[d + 3] * b[d + 3];
	}
	for (; d < n; d++)
		p0 += a[d] * b[d];
	return (p0 + p1) + (p2 + p3);
}

void attention_decode(const float *restrict q, const float *restrict Kc,
                      const float *restrict Vc, float *restrict O, int H, int T, int D)
{
	const float scale = 1.0f / sqrtf((float)D);
	#pragma omp parallel for schedule(static)
	for (int h = 0; h < H; h++) {
		const float *qh = q + (int64_t)h * D;
		const float *Kh = Kc + (int64_t)h * T * D;
		const float *Vh = Vc + (int64_t)h * T * D;
		double o[D];
		float s[CHUNK];
		float m = -INFINITY;
		double l = 0.0;
		for (int d = 0; d < D; d++)
			o[d] = 0.0;
		const int nchunks = T / CHUNK;
		const int step = T / nchunks; /* balanced chunks */
		for (int t0 = 0; t0 < T; t0 += step) {
			const int n = T - t0 < step ? T - t0 : (step < CHUNK ? step : CHUNK);
			float cm = -INFINITY;
			for (int t = 0; t < n; t++) {
				s[t] = dot4(qh, Kh + (int64_t)(t0 + t) * D, D) * scale;
				cm = s[t] > cm ? s[t] : cm;
			}
			if (cm > m) {
				const double r = exp((double)m - cm); /* 0 on the first chunk */
				l *= r;
				for (int d = 0; d < D; d++)
					o[d] *= r;
				m = cm;
			}
			for (int t = 0; t < n; t++) {
				const double p = exp((double)s[t] - m);
				const float *v = Vh + (int64_t)(t0 + t) * D;
				l += p;
				for (int d = 0; d < D; d++)
					o[d] += p * v[d];
			}
		}
		for (int d = 0; d < D; d++)
			O[(int64_t)h * D + d] = (float)(o[d] / l);
	}
}
