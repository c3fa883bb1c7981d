/*
 * gemm.cu — a naive single-precision matrix multiply for the cuda target,
 * one thread per output element: the "before" that kcc starts from.
 * A is M x K, B is K x N and C is M x N, all row-major, in device memory.
 */
#include <cuda_runtime.h>

#pragma kcc entry gemm
#pragma kcc param A in  f32[M*K]
#pragma kcc param B in  f32[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=127 N=129 K=65; M=256 N=256 K=256
#pragma kcc shape bench M=4096 N=4096 K=4096
#pragma kcc flops 2*M*N*K
#pragma kcc bytes 4*(M*K+K*N+M*N)

__global__ void gemm_kernel(const float *A, const float *B, float *C, int M, int N,
                            int K)
{
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	if (row < M && col < N) {
		float acc = 0.0f;
		for (int k = 0; k < K; k++)
			acc += A[row * K + k] * B[k * N + col];
		C[row * N + col] = acc;
	}
}

void gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
	dim3 block(16, 16);
	dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
	gemm_kernel<<<grid, block>>>(A, B, C, M, N, K);
}
