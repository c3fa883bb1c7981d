// kcc-mutant: ref=gemm_f32.cu expect=sanitizer|bench-shape
// why: the barrier after the inner product loop was removed, so fast warps overwrite As/Bs while slow warps still read them (racecheck WAR hazard).
// on the H100 (2026-11-24) the race already changed the outputs at the bench shape, so the plain run rejects it before compute-sanitizer does: either reason is the race caught.
/*
 * gemm_f32.fast.cu — single-precision matrix multiply C = A * B (row-major),
 * A is M x K, B is K x N, C is M x N.
 * Faster: each 256-thread block computes a 64x64 tile of C, staging 64x16
 * panels of A (stored transposed) and 16x64 panels of B in shared memory
 * with coalesced loads (zero-padded at the edges), and each thread keeps a
 * 4x4 register tile of accumulators, so every shared-memory value loaded is
 * used four times. Each output still sums its K products in k order.
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

#define BM 64
#define BN 64
#define BK 16
#define NT 256

__global__ void __launch_bounds__(NT)
gemm_f32_tiled(const float *__restrict__ A, const float *__restrict__ B,
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

void gemm_f32(const float *A, const float *B, float *C, int M, int N, int K)
{
	dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
	gemm_f32_tiled<<<grid, NT>>>(A, B, C, M, N, K);
}
