// kcc-mutant: ref=conv1d.cu expect=wrong|nondeterministic
// why: threads read the shared input window before all of it is stored; plain runs already give wrong outputs at several check shapes (racecheck also reports a RAW hazard).
// on the H100 (2026-11-24) the outputs moved between repeats: the same race caught as nondeterministic.
/*
 * conv1d.fast.cu — 1-D convolution (cross-correlation, "valid" padding) of CH
 * independent channels: y[c][i] = sum_{k<K} x[c][i+k] * w[c][k] for
 * 0 <= i < N, where each input channel holds N+K-1 samples.
 * Faster: each 256-thread block computes 1024 consecutive outputs (4 per
 * thread, strided by 256 so shared-memory reads are conflict-free); the
 * block's input window (1024+K-1 samples) and the channel's K taps are
 * loaded once into shared memory with coalesced loads, so each input sample
 * is read from DRAM once instead of K times. Taps are summed in k order.
 * Filters too long for shared memory fall back to the direct kernel.
 */
#include <cuda_runtime.h>

#pragma kcc entry conv1d
#pragma kcc param x in f32[CH*(N+K-1)]
#pragma kcc param w in f32[CH*K]
#pragma kcc param y out f32[CH*N]
#pragma kcc shape check CH=3 N=101 K=7; CH=1 N=256 K=16; CH=2 N=37 K=1; CH=4 N=5 K=33; CH=2 N=1000 K=129
#pragma kcc shape bench CH=8 N=4194304 K=31
#pragma kcc flops 2*CH*N*K
#pragma kcc bytes 4*(CH*(N+K-1)+CH*K+CH*N)

#define NT 256
#define PER 4
#define OUT (NT * PER)

__global__ void __launch_bounds__(NT)
conv1d_smem(const float *__restrict__ x, const float *__restrict__ w,
            float *__restrict__ y, int N, int K)
{
	extern __shared__ float sm[];
	float *ws = sm;          /* K taps */
	float *xs = sm + K;      /* OUT + K - 1 samples */
	const int c = blockIdx.y;
	const int i0 = blockIdx.x * OUT;
	const int L = N + K - 1;
	const float *xc = x + (size_t)c * L;
	for (int k = threadIdx.x; k < K; k += NT)
		ws[k] = w[(size_t)c * K + k];
	const int nin = min(OUT + K - 1, L - i0);
	for (int t = threadIdx.x; t < nin; t += NT)
		xs[t] = xc[i0 + t];
	float acc[PER];
	#pragma unroll
	for (int p = 0; p < PER; p++)
		acc[p] = 0.0f;
	for (int k = 0; k < K; k++) {
		const float wk = ws[k];
		#pragma unroll
		for (int p = 0; p < PER; p++) {
			int t = threadIdx.x + p * NT + k;
			if (t < nin)
				acc[p] += xs[t] * wk;
		}
	}
	#pragma unroll
	for (int p = 0; p < PER; p++) {
		int i = i0 + threadIdx.x + p * NT;
		if (i < N)
			y[(size_t)c * N + i] = acc[p];
	}
}

__global__ void conv1d_direct(const float *x, const float *w, float *y, int N, int K)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int c = blockIdx.y;
	if (i >= N)
		return;
	const float *xc = x + (size_t)c * (N + K - 1);
	float acc = 0.0f;
	for (int k = 0; k < K; k++)
		acc += xc[i + k] * w[(size_t)c * K + k];
	y[(size_t)c * N + i] = acc;
}

void conv1d(const float *x, const float *w, float *y, int CH, int N, int K)
{
	if (CH <= 0 || N <= 0)
		return;
	size_t smem = (size_t)(OUT + 2 * K - 1) * sizeof(float);
	if (smem <= 48 * 1024) {
		dim3 grid((N + OUT - 1) / OUT, CH);
		conv1d_smem<<<grid, NT, smem>>>(x, w, y, N, K);
	} else {
		dim3 grid((N + NT - 1) / NT, CH);
		conv1d_direct<<<grid, NT>>>(x, w, y, N, K);
	}
}
