/* kcc:begin header: written by kcc 0.1.0; kcc replaces this block when it reads the file again
 * passes: shared-memory-tiling, register-blocking (BK=8)
 * device: NVIDIA H100 80GB HBM3 (sm_90), 132 SMs, L2 50 MiB, 81079 MiB memory, ~66908 GFLOP/s fp32, ~3352 GB/s
 * original: /work/main/examples/gemm.cu sha256 c62ca94189e0c4838a12a5bb7d117cb98efc26a8e20818036d1bb8b53727a0fe, spec sha256 16f8621f21d2838e038d292415a99159d0e10716b079628d7f7a9c8b8afbb72b
 * measured: 3.78x over the original (95% CI 3.78x-3.79x) at M=4096 N=4096 K=4096, 6.803 ms
 * reproduce: kcc --check ORIGINAL THIS-FILE --bench
 * kcc:end header */
/*
 * gemm.cu — single-precision matrix multiply for the cuda target (the
 * scripted "register-blocking" answer of scripts/gpu-search): the tiled
 * kernel of testsuite/kernels/gemm_f32.fast.cu with the panel depth BK a
 * `tune` macro, so kcc measures BK = 8, 16 and 32.
 */
/* kcc:begin tune: values chosen by measurement */
#ifndef BK
#define BK 8
#endif
/* kcc:end tune */
#include <cuda_runtime.h>

#pragma kcc entry gemm
#pragma kcc param A in  f32[M*K]
#pragma kcc param B in  f32[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=127 N=129 K=65; M=256 N=256 K=256
#pragma kcc shape bench M=4096 N=4096 K=4096
#pragma kcc flops 2*M*N*K
#pragma kcc bytes 4*(M*K+K*N+M*N)
#pragma kcc tune BK=8,16,32

#define BM 64
#define BN 64
#ifndef BK
#define BK 16
#endif
#define NT 256

__global__ void __launch_bounds__(NT)
gemm_tiled(const float *__restrict__ A, const float *__restrict__ B,
               float *__restrict__ C, int M, int N, int K)
{
	__shared__ float As[BK][BM];   /* As[k][row] */
	__shared__ float Bs[BK][BN];   /* Bs[k][col] */
	const int tid = threadIdx.x;
	const int tx = tid % 16, ty = tid / 16;
	const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
	float acc[4][4];
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++)
			acc[r][c] = 0.0f;

	for (int k0 = 0; k0 < K; k0 += BK) {
		for (int l = 0; l < (BM * BK) / NT; l++) {
			int idx = tid + l * NT;
			int r = idx / BK, kk = idx % BK;
			int gi = m0 + r, gk = k0 + kk;
			As[kk][r] = (gi < M && gk < K) ? A[(size_t)gi * K + gk] : 0.0f;
		}
		for (int l = 0; l < (BK * BN) / NT; l++) {
			int idx = tid + l * NT;
			int kk = idx / BN, c = idx % BN;
			int gk = k0 + kk, gj = n0 + c;
			Bs[kk][c] = (gk < K && gj < N) ? B[(size_t)gk * N + gj] : 0.0f;
		}
		__syncthreads();
		#pragma unroll
		for (int kk = 0; kk < BK; kk++) {
			float a[4], b[4];
			#pragma unroll
			for (int r = 0; r < 4; r++)
				a[r] = As[kk][ty + 16 * r];
			#pragma unroll
			for (int c = 0; c < 4; c++)
				b[c] = Bs[kk][tx + 16 * c];
			#pragma unroll
			for (int r = 0; r < 4; r++)
				#pragma unroll
				for (int c = 0; c < 4; c++)
					acc[r][c] += a[r] * b[c];
		}
		__syncthreads();
	}
	for (int r = 0; r < 4; r++) {
		int gi = m0 + ty + 16 * r;
		if (gi >= M)
			continue;
		for (int c = 0; c < 4; c++) {
			int gj = n0 + tx + 16 * c;
			if (gj < N)
				C[(size_t)gi * N + gj] = acc[r][c];
		}
	}
}

void gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
	dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
	gemm_tiled<<<grid, NT>>>(A, B, C, M, N, K);
}
