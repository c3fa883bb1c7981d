// kcc-mutant: ref=transpose.cu expect=cuda-error
// why: uses 64x32 = 2048-thread blocks, over the 1024-thread limit, so every launch fails with an invalid configuration.
/*
 * transpose.cu — matrix transpose: B[c][r] = A[r][c], A is R x C (row-major),
 * B is C x R. Naive CUDA: one thread per element; reads of A are coalesced,
 * writes of B are strided by R (uncoalesced).
 */
#include <cuda_runtime.h>

#pragma kcc entry transpose
#pragma kcc param A in f32[R*C]
#pragma kcc param B out f32[C*R]
#pragma kcc shape check R=37 C=53; R=64 C=64; R=1 C=129; R=130 C=3
#pragma kcc shape bench R=8192 C=8192
#pragma kcc bytes 4*2*R*C

__global__ void transpose_kernel(const float *A, float *B, int R, int C)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x;
	int r = blockIdx.y * blockDim.y + threadIdx.y;
	if (r < R && c < C)
		B[(size_t)c * R + r] = A[(size_t)r * C + c];
}

void transpose(const float *A, float *B, int R, int C)
{
	dim3 block(64, 32);
	dim3 grid((C + 63) / 64, (R + 31) / 32);
	transpose_kernel<<<grid, block>>>(A, B, R, C);
}
