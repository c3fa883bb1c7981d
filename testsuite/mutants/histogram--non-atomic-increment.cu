// kcc-mutant: ref=histogram.cu expect=wrong|nondeterministic
// why: increments the global bins with a plain H[v]++ instead of atomicAdd, so concurrent updates are lost differently on every run.
/*
 * histogram.cu — integer histogram: H[b] = number of i < N with V[i] == b,
 * for 0 <= b < NBINS. Naive CUDA: clear H, then one thread per value doing
 * an atomicAdd on the global histogram.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#pragma kcc entry histogram
#pragma kcc param V in i32[N] range(0,NBINS)
#pragma kcc param H out i32[NBINS]
#pragma kcc shape check N=1000 NBINS=7; N=4099 NBINS=256; N=31 NBINS=101; N=65536 NBINS=64
#pragma kcc shape bench N=67108864 NBINS=256
#pragma kcc bytes 4*(N+NBINS)

__global__ void hist_clear(int32_t *H, int NBINS)
{
	int b = blockIdx.x * blockDim.x + threadIdx.x;
	if (b < NBINS)
		H[b] = 0;
}

__global__ void hist_count(const int32_t *V, int32_t *H, int N)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < N)
		H[V[i]]++;
}

void histogram(const int32_t *V, int32_t *H, int N, int NBINS)
{
	hist_clear<<<(NBINS + 255) / 256, 256>>>(H, NBINS);
	if (N > 0)
		hist_count<<<(N + 255) / 256, 256>>>(V, H, N);
}
