// kcc-mutant: ref=attention_decode.cu expect=pragma
// why: shortens the bench context length from 4096 to 128.
/*
 * attention_decode.cu — one decode step of multi-head attention over a KV
 * cache: for each head h, with one query q[h] (D values) and the cache
 * Kc[h][t][d], Vc[h][t][d] for t < T:
 *     s[t] = (q[h] . Kc[h][t]) / sqrt(D),   p = softmax_t(s),
 *     O[h][d] = sum_t p[t] * Vc[h][t][d].
 * Naive CUDA: one thread per output (h, d); each thread makes three passes
 * over the head's keys (max, sum, weighted sum of V), recomputing every dot
 * product itself.
 */
#include <cuda_runtime.h>

#pragma kcc entry attention_decode
#pragma kcc param q in f32[H*D]
#pragma kcc param Kc in f32[H*T*D]
#pragma kcc param Vc in f32[H*T*D]
#pragma kcc param O out f32[H*D]
#pragma kcc shape check H=3 T=37 D=64; H=4 T=128 D=33; H=1 T=1 D=16; H=2 T=301 D=128
#pragma kcc shape bench H=32 T=128 D=128
#pragma kcc flops 4*H*T*D
#pragma kcc bytes 4*(2*H*T*D+2*H*D)

__device__ float score(const float *q, const float *k, int D, float scale)
{
	float s = 0.0f;
	for (int d = 0; d < D; d++)
		s += q[d] * k[d];
	return s * scale;
}

__global__ void attn_kernel(const float *q, const float *Kc, const float *Vc, float *O,
                            int H, int T, int D)
{
	int e = blockIdx.x * blockDim.x + threadIdx.x;
	if (e >= H * D)
		return;
	int h = e / D, d = e % D;
	const float scale = 1.0f / sqrtf((float)D);
	const float *qh = q + (size_t)h * D;
	const float *Kh = Kc + (size_t)h * T * D;
	const float *Vh = Vc + (size_t)h * T * D;
	float m = -INFINITY;
	for (int t = 0; t < T; t++)
		m = fmaxf(m, score(qh, Kh + (size_t)t * D, D, scale));
	float l = 0.0f;
	for (int t = 0; t < T; t++)
		l += expf(score(qh, Kh + (size_t)t * D, D, scale) - m);
	float acc = 0.0f;
	for (int t = 0; t < T; t++) {
		float p = expf(score(qh, Kh + (size_t)t * D, D, scale) - m) / l;
		acc += p * Vh[(size_t)t * D + d];
	}
	O[e] = acc;
}

void attention_decode(const float *q, const float *Kc, const float *Vc, float *O,
                      int H, int T, int D)
{
	int n = H * D;
	if (n > 0)
		attn_kernel<<<(n + 127) / 128, 128>>>(q, Kc, Vc, O, H, T, D);
}
