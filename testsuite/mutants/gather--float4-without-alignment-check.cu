// kcc-mutant: ref=gather.cu expect=cuda-error
// why: always takes the float4 path, so with D not a multiple of 4 the row pointers are misaligned (misaligned address error).
/*
 * gather.fast.cu — row gather (embedding lookup): O[m][d] = T[idx[m]][d] for
 * m < M, d < D, where T is an NROWS x D table.
 * Faster: one warp per output row: the index is loaded once per row and
 * broadcast with a shuffle (no divisions per element), and when D is a
 * multiple of 4 and both tables are 16-byte aligned each lane moves float4s
 * (128-bit loads and stores); otherwise it copies floats, still coalesced.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#pragma kcc entry gather
#pragma kcc param T in f32[NROWS*D]
#pragma kcc param idx in i32[M] range(0,NROWS)
#pragma kcc param O out f32[M*D]
#pragma kcc shape check NROWS=97 D=33 M=200; NROWS=64 D=64 M=64; NROWS=1 D=7 M=13; NROWS=1000 D=1 M=999
#pragma kcc shape bench NROWS=262144 D=256 M=131072
#pragma kcc bytes 4*(2*M*D+M)

#define WARPS 8

template <bool VEC>
__global__ void __launch_bounds__(WARPS * 32)
gather_rows(const float *__restrict__ T, const int32_t *__restrict__ idx,
            float *__restrict__ O, int D, int M)
{
	const int lane = threadIdx.x % 32;
	const int m = blockIdx.x * WARPS + threadIdx.x / 32;
	if (m >= M)
		return;
	int row = 0;
	if (lane == 0)
		row = idx[m];
	row = __shfl_sync(0xffffffffu, row, 0);
	const float *src = T + (size_t)row * D;
	float *dst = O + (size_t)m * D;
	if (VEC) {
		const float4 *s4 = reinterpret_cast<const float4 *>(src);
		float4 *d4 = reinterpret_cast<float4 *>(dst);
		for (int v = lane; v < (D + 3) / 4; v += 32)
			d4[v] = s4[v];
	} else {
		for (int d = lane; d < D; d += 32)
			dst[d] = src[d];
	}
}

void gather(const float *T, const int32_t *idx, float *O, int NROWS, int D, int M)
{
	(void)NROWS;
	if (M <= 0 || D <= 0)
		return;
	const bool vec = true; /* tables are 256-byte aligned by cudaMalloc */
	const unsigned blocks = (unsigned)((M + WARPS - 1) / WARPS);
	if (vec)
		gather_rows<true><<<blocks, WARPS * 32>>>(T, idx, O, D, M);
	else
		gather_rows<false><<<blocks, WARPS * 32>>>(T, idx, O, D, M);
}
