// kcc-mutant: ref=attention_decode.c expect=guard
// why: the loop that clears the output row runs d <= D, which for the last head zeroes one float past the end of O.
/*
 * attention_decode.c — one decode step of multi-head attention over a KV
 * cache: for each head h, with one query q[h] (D values) and the cache
 * Kc[h][t][d], Vc[h][t][d] for t < T:
 *     s[t] = (q[h] . Kc[h][t]) / sqrt(D),   p = softmax_t(s),
 *     O[h][d] = sum_t p[t] * Vc[h][t][d].
 * Naive: three passes over the cache per head (max, sum, weighted sum of V),
 * the dot products recomputed in each pass; O itself is the accumulator.
 */
#include <math.h>

#pragma kcc entry attention_decode
#pragma kcc param q in f32[H*D]
#pragma kcc param Kc in f32[H*T*D]
#pragma kcc param Vc in f32[H*T*D]
#pragma kcc param O out f32[H*D]
#pragma kcc shape check H=3 T=37 D=64; H=4 T=128 D=33; H=1 T=1 D=16; H=2 T=301 D=128
#pragma kcc shape bench H=32 T=2048 D=128
#pragma kcc flops 4*H*T*D
#pragma kcc bytes 4*(2*H*T*D+2*H*D)

static float score(const float *q, const float *k, int D, float scale)
{
	float s = 0.0f;
	for (int d = 0; d < D; d++)
		s += q[d] * k[d];
	return s * scale;
}

void attention_decode(const float *q, const float *Kc, const float *Vc, float *O,
                      int H, int T, int D)
{
	const float scale = 1.0f / sqrtf((float)D);
	for (int h = 0; h < H; h++) {
		const float *qh = q + h * D;
		const float *Kh = Kc + h * T * D;
		const float *Vh = Vc + h * T * D;
		float m = -INFINITY;
		for (int t = 0; t < T; t++) {
			float s = score(qh, Kh + t * D, D, scale);
			if (s > m)
				m = s;
		}
		float l = 0.0f;
		for (int t = 0; t < T; t++)
			l += expf(score(qh, Kh + t * D, D, scale) - m);
		for (int d = 0; d <= D; d++)
			O[h * D + d] = 0.0f;
		for (int t = 0; t < T; t++) {
			float p = expf(score(qh, Kh + t * D, D, scale) - m) / l;
			for (int d = 0; d < D; d++)
				O[h * D + d] += p * Vh[t * D + d];
		}
	}
}
