// kcc-mutant: ref=attention_decode.cu expect=unwritten
// why: the final store loop strides by 64 instead of 32 over one warp, so half of each head's output (d in [32,64), ...) is never written.
/*
 * attention_decode.fast.cu — one decode step of multi-head attention over a
 * KV cache: for each head h, with one query q[h] (D values) and the cache
 * Kc[h][t][d], Vc[h][t][d] for t < T:
 *     s[t] = (q[h] . Kc[h][t]) / sqrt(D),   p = softmax_t(s),
 *     O[h][d] = sum_t p[t] * Vc[h][t][d].
 * Faster: one 256-thread block per head reads K and V exactly once. Each of
 * the 8 warps takes every 8th key: its lanes compute the dot product over
 * d (coalesced rows of K, warp-shuffle sum), and the warp keeps an online
 * softmax (running max, running sum, and D/32 accumulators per lane for
 * its share of V). The 8 partial results are merged through shared memory
 * with the usual max-rescaling. Sums and accumulators are kept in double
 * (cheap next to the memory traffic) so the result is at least as accurate
 * as the direct computation. Heads with D > 256 use the direct kernel.
 */
#include <cuda_runtime.h>

#pragma kcc entry attention_decode
#pragma kcc param q in f32[H*D]
#pragma kcc param Kc in f32[H*T*D]
#pragma kcc param Vc in f32[H*T*D]
#pragma kcc param O out f32[H*D]
#pragma kcc shape check H=3 T=37 D=64; H=4 T=128 D=33; H=1 T=1 D=16; H=2 T=301 D=128
#pragma kcc shape bench H=32 T=4096 D=128
#pragma kcc flops 4*H*T*D
#pragma kcc bytes 4*(2*H*T*D+2*H*D)

#define WARPS 8
#define MAXD 256
#define DPL (MAXD / 32)   /* accumulators per lane */

__global__ void __launch_bounds__(WARPS * 32)
attn_head(const float *__restrict__ q, const float *__restrict__ Kc,
          const float *__restrict__ Vc, float *__restrict__ O, int T, int D)
{
	__shared__ float qs[MAXD];
	__shared__ float wm[WARPS];
	__shared__ double wl[WARPS];
	__shared__ double wacc[WARPS][MAXD];
	const int h = blockIdx.x;
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	const float scale = 1.0f / sqrtf((float)D);
	const float *Kh = Kc + (size_t)h * T * D;
	const float *Vh = Vc + (size_t)h * T * D;
	for (int d = threadIdx.x; d < D; d += WARPS * 32)
		qs[d] = q[(size_t)h * D + d];
	__syncthreads();

	float m = -INFINITY;
	double l = 0.0;
	double acc[DPL];
	#pragma unroll
	for (int i = 0; i < DPL; i++)
		acc[i] = 0.0;
	for (int t = warp; t < T; t += WARPS) {
		const float *k = Kh + (size_t)t * D;
		float part = 0.0f;
		for (int d = lane; d < D; d += 32)
			part += qs[d] * k[d];
		for (int o = 16; o > 0; o /= 2)
			part += __shfl_xor_sync(0xffffffffu, part, o);
		const float s = part * scale; /* same value in every lane */
		if (s > m) {
			const double r = exp((double)m - (double)s); /* 0 the first time */
			l *= r;
			#pragma unroll
			for (int i = 0; i < DPL; i++)
				acc[i] *= r;
			m = s;
		}
		const double p = exp((double)s - (double)m);
		l += p;
		const float *v = Vh + (size_t)t * D;
		#pragma unroll
		for (int i = 0; i < DPL; i++) {
			const int d = lane + 32 * i;
			if (d < D)
				acc[i] += p * (double)v[d];
		}
	}
	if (lane == 0) {
		wm[warp] = m;
		wl[warp] = l;
	}
	#pragma unroll
	for (int i = 0; i < DPL; i++) {
		const int d = lane + 32 * i;
		if (d < D)
			wacc[warp][d] = acc[i];
	}
	__syncthreads();

	float M = wm[0];
	for (int w = 1; w < WARPS; w++)
		M = fmaxf(M, wm[w]);
	double L = 0.0;
	for (int w = 0; w < WARPS; w++)
		if (wm[w] != -INFINITY) /* warps that saw no key (T < 8) add nothing */
			L += wl[w] * exp((double)wm[w] - (double)M);
	for (int d = threadIdx.x; warp == 0 && d < D; d += 64) {
		double o = 0.0;
		for (int w = 0; w < WARPS; w++)
			if (wm[w] != -INFINITY)
				o += wacc[w][d] * exp((double)wm[w] - (double)M);
		O[(size_t)h * D + d] = (float)(o / L);
	}
}

__device__ float score(const float *q, const float *k, int D, float scale)
{
	float s = 0.0f;
	for (int d = 0; d < D; d++)
		s += q[d] * k[d];
	return s * scale;
}

__global__ void attn_direct(const float *q, const float *Kc, const float *Vc, float *O,
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
	if (H <= 0 || D <= 0)
		return;
	if (D <= MAXD)
		attn_head<<<H, WARPS * 32>>>(q, Kc, Vc, O, T, D);
	else
		attn_direct<<<(H * D + 127) / 128, 128>>>(q, Kc, Vc, O, H, T, D);
}
