// kcc-mutant: ref=gemm_f32.cu expect=unwritten
// why: the grid's row count is M/16 rounded down, so the last M % 16 rows of C are never written.
/*
 * gemm_f32.cu — single-precision matrix multiply C = A * B (row-major),
 * A is M x K, B is K x N, C is M x N. Naive CUDA: one thread per output
 * element, reading A and B straight from global memory.
 */
#include <cuda_runtime.h>

#pragma kcc entry gemm_f32
#pragma kcc param A in f32[M*K]
#pragma kcc param B in f32[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=37 N=53 K=29; M=64 N=64 K=64; M=129 N=255 K=97
#pragma kcc shape bench M=4096 N=4096 K=4096
#pragma kcc flops 2*M*N*K
#pragma kcc bytes 4*(M*K+K*N+M*N)

__global__ void gemm_f32_kernel(const float *A, const float *B, float *C, int M, int N, int K)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i < M && j < N) {
		float acc = 0.0f;
		for (int k = 0; k < K; k++)
			acc += A[i * K + k] * B[k * N + j];
		C[i * N + j] = acc;
	}
}

void gemm_f32(const float *A, const float *B, float *C, int M, int N, int K)
{
	dim3 block(16, 16);
	dim3 grid((N + 15) / 16, M / 16);
	gemm_f32_kernel<<<grid, block>>>(A, B, C, M, N, K);
}
