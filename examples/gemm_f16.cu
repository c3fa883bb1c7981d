/*
 * gemm_f16.cu — the flagship "before": a naive mixed-precision matrix
 * multiply, C = A * B, row-major, A M x K and B K x N in f16, C M x N in f32,
 * accumulated in f32. One thread per output element, each input converted
 * to float. kcc -O-llm starts here (bench/flagship/README.md has the
 * hand-written rewrites and the H100 run).
 *
 * The check shapes mix awkward sizes (nothing a multiple of 8) with shapes
 * where a 16-byte-aligned fast path must run at sizes that are not
 * multiples of a 128 x 128 tile (N and K multiples of 8, M and N not of
 * 128), and a 256..512 shape that fills several tiles and k-steps.
 */
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#pragma kcc entry gemm_f16
#pragma kcc param A in f16[M*K]
#pragma kcc param B in f16[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=37 N=53 K=29; M=64 N=64 K=64; M=130 N=136 K=264
#pragma kcc shape check M=256 N=384 K=512; M=200 N=264 K=40; M=1 N=8 K=8
#pragma kcc shape bench M=8192 N=8192 K=8192
#pragma kcc flops 2*M*N*K
#pragma kcc bytes 2*(M*K+K*N)+4*M*N

__global__ void gemm_f16_kernel(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i < M && j < N) {
		float acc = 0.0f;
		for (int k = 0; k < K; k++)
			acc += __half2float(A[(size_t)i * K + k]) * __half2float(B[(size_t)k * N + j]);
		C[(size_t)i * N + j] = acc;
	}
}

void gemm_f16(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	dim3 block(16, 16);
	dim3 grid((N + 15) / 16, (M + 15) / 16);
	gemm_f16_kernel<<<grid, block>>>(A, B, C, M, N, K);
}
