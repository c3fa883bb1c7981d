// kcc-mutant: ref=gemm_f16.cu expect=precision
// why: accumulates in __half with __hfma instead of float.
/*
 * gemm_f16.cu — half-precision-input matrix multiply with single-precision
 * output and accumulation: C = A * B (row-major), A is M x K and B is K x N
 * in f16, C is M x N in f32. Naive CUDA: one thread per output element,
 * converting each input to float and accumulating in float.
 */
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#pragma kcc entry gemm_f16
#pragma kcc param A in f16[M*K]
#pragma kcc param B in f16[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=37 N=53 K=29; M=64 N=64 K=64; M=130 N=67 K=257
#pragma kcc shape bench M=4096 N=4096 K=4096
#pragma kcc flops 2*M*N*K
#pragma kcc bytes 2*(M*K+K*N)+4*M*N

__global__ void gemm_f16_kernel(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i < M && j < N) {
		__half acc = __float2half(0.0f);
		for (int k = 0; k < K; k++)
			acc = __hfma(A[i * K + k], B[k * N + j], acc);
		C[i * N + j] = __half2float(acc);
	}
}

void gemm_f16(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	dim3 block(16, 16);
	dim3 grid((N + 15) / 16, (M + 15) / 16);
	gemm_f16_kernel<<<grid, block>>>(A, B, C, M, N, K);
}
