/*
 * gather.cu — row gather (embedding lookup): O[m][d] = T[idx[m]][d] for
 * m < M, d < D, where T is an NROWS x D table.
 * Naive CUDA: one thread per output element, reading its index each time.
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

__global__ void gather_kernel(const float *T, const int32_t *idx, float *O, int D, int M)
{
	size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (e >= (size_t)M * D)
		return;
	size_t m = e / D, d = e % D;
	O[e] = T[(size_t)idx[m] * D + d];
}

void gather(const float *T, const int32_t *idx, float *O, int NROWS, int D, int M)
{
	(void)NROWS;
	size_t total = (size_t)M * D;
	if (total == 0)
		return;
	gather_kernel<<<(unsigned)((total + 255) / 256), 256>>>(T, idx, O, D, M);
}
