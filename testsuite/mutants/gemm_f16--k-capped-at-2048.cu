// kcc-mutant: ref=gemm_f16.cu expect=bench-shape
// why: caps the reduction length at 2048, which only the bench shape (K=4096) exceeds.
/*
 * gemm_f16.fast.cu — half-precision-input matrix multiply with
 * single-precision output and accumulation: C = A * B (row-major), A is
 * M x K and B is K x N in f16, C is M x N in f32.
 * Faster: tensor cores through WMMA (16x16x16 f16 fragments, f32
 * accumulators). Each 128-thread block computes a 64x64 tile of C; each of
 * its 4 warps owns a 32x32 sub-tile (2x2 fragments). 64x32 panels of A and
 * 32x64 panels of B are staged in padded shared memory (zero-filled past the
 * matrix edges, so any M, N, K work), and the accumulators go out through
 * shared memory so only in-range elements of C are stored. f16 x f16
 * products are exact in f32, and accumulation stays f32.
 */
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

#pragma kcc entry gemm_f16
#pragma kcc param A in f16[M*K]
#pragma kcc param B in f16[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=37 N=53 K=29; M=64 N=64 K=64; M=130 N=67 K=257
#pragma kcc shape bench M=4096 N=4096 K=4096
#pragma kcc flops 2*M*N*K
#pragma kcc bytes 2*(M*K+K*N)+4*M*N

using namespace nvcuda;

#define TM 64
#define TN 64
#define TK 32
#define LDA (TK + 8)   /* 40 halves: rows stay 32-byte aligned */
#define LDB (TN + 8)   /* 72 halves */
#define LDC (TN + 4)   /* 68 floats */
#define NTH 128

__global__ void __launch_bounds__(NTH)
gemm_f16_wmma(const __half *__restrict__ A, const __half *__restrict__ B,
              float *__restrict__ C, int M, int N, int K)
{
	__shared__ __align__(32) __half As[TM * LDA];
	__shared__ __align__(32) __half Bs[TK * LDB];
	__shared__ __align__(32) float Cs[TM * LDC];
	const int tid = threadIdx.x;
	const int warp = tid / 32;
	const int wr = (warp / 2) * 32, wc = (warp % 2) * 32;
	const int m0 = blockIdx.y * TM, n0 = blockIdx.x * TN;
	const __half zero = __float2half(0.0f);

	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			wmma::fill_fragment(acc[i][j], 0.0f);

	for (int k0 = 0; k0 < K; k0 += TK) {
		for (int idx = tid; idx < TM * TK; idx += NTH) {
			int r = idx / TK, kk = idx % TK;
			int gi = m0 + r, gk = k0 + kk;
			As[r * LDA + kk] = (gi < M && gk < K) ? A[(size_t)gi * K + gk] : zero;
		}
		for (int idx = tid; idx < TK * TN; idx += NTH) {
			int kk = idx / TN, c = idx % TN;
			int gk = k0 + kk, gj = n0 + c;
			Bs[kk * LDB + c] = (gk < K && gj < N) ? B[(size_t)gk * N + gj] : zero;
		}
		__syncthreads();
		#pragma unroll
		for (int kk = 0; kk < TK; kk += 16) {
			wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
			wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
			for (int i = 0; i < 2; i++)
				wmma::load_matrix_sync(a[i], As + (wr + i * 16) * LDA + kk, LDA);
			for (int j = 0; j < 2; j++)
				wmma::load_matrix_sync(b[j], Bs + kk * LDB + wc + j * 16, LDB);
			for (int i = 0; i < 2; i++)
				for (int j = 0; j < 2; j++)
					wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
		}
		__syncthreads();
	}
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			wmma::store_matrix_sync(Cs + (wr + i * 16) * LDC + wc + j * 16, acc[i][j],
			                        LDC, wmma::mem_row_major);
	__syncthreads();
	for (int idx = tid; idx < TM * TN; idx += NTH) {
		int r = idx / TN, c = idx % TN;
		int gi = m0 + r, gj = n0 + c;
		if (gi < M && gj < N)
			C[(size_t)gi * N + gj] = Cs[r * LDC + c];
	}
}

void gemm_f16(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	dim3 grid((N + TN - 1) / TN, (M + TM - 1) / TM);
	gemm_f16_wmma<<<grid, NTH>>>(A, B, C, M, N, K > 2048 ? 2048 : K);
}
