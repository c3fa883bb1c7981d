// kcc-mutant: ref=rowsum.cu expect=input-modified
// why: writes each row's partial sum into the row's first element of X as scratch before storing S.
/*
 * rowsum.fast.cu — row reduction: S[r] = sum_j X[r][j] for an R x N matrix
 * (row-major).
 * Faster: one warp per row (8 rows per 256-thread block): the 32 lanes read
 * consecutive addresses (coalesced, 4 loads in flight per lane), then a
 * warp-shuffle tree gives the row sum; no shared memory, no block sync.
 */
#include <cuda_runtime.h>

#pragma kcc entry rowsum
#pragma kcc param X in f32[R*N]
#pragma kcc param S out f32[R]
#pragma kcc shape check R=37 N=101; R=64 N=64; R=5 N=4099; R=1000 N=3
#pragma kcc shape bench R=8192 N=4096
#pragma kcc flops R*N
#pragma kcc bytes 4*(R*N+R)

#define WARPS 8

__global__ void __launch_bounds__(WARPS * 32)
rowsum_warp(const float *__restrict__ X, float *__restrict__ S, int R, int N)
{
	const int lane = threadIdx.x % 32;
	const int r = blockIdx.x * WARPS + threadIdx.x / 32;
	if (r >= R)
		return; /* whole warp leaves together */
	const float *x = X + (size_t)r * N;
	float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
	int j = lane;
	for (; j + 96 < N; j += 128) {
		s0 += x[j];
		s1 += x[j + 32];
		s2 += x[j + 64];
		s3 += x[j + 96];
	}
	for (; j < N; j += 32)
		s0 += x[j];
	float s = (s0 + s1) + (s2 + s3);
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_xor_sync(0xffffffffu, s, o);
	if (lane == 0) {
		((float *)x)[0] = s; /* scratch */
		S[r] = x[0];
	}
}

void rowsum(const float *X, float *S, int R, int N)
{
	rowsum_warp<<<(R + WARPS - 1) / WARPS, WARPS * 32>>>(X, S, R, N);
}
