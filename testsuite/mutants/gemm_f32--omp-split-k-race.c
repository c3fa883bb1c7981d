// kcc-mutant: ref=gemm_f32.c expect=nondeterministic|wrong
// why: parallelizes over the K blocks, so threads update the same C row concurrently without synchronization.
/*
 * gemm_f32.fast.c — single-precision matrix multiply C = A * B (row-major),
 * A is M x K, B is K x N, C is M x N.
 * Faster: i-k-j loop order so the inner loop streams B and C rows with unit
 * stride (vectorizable), blocked over K and N so the active panel of B stays
 * in cache, restrict-qualified pointers, and rows split across OpenMP
 * threads. Each C element still sums its K products in increasing k order.
 */
#include <stdint.h>

#pragma kcc entry gemm_f32
#pragma kcc param A in f32[M*K]
#pragma kcc param B in f32[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=37 N=53 K=29; M=64 N=64 K=64; M=1 N=97 K=131
#pragma kcc shape bench M=384 N=384 K=384
#pragma kcc flops 2*M*N*K
#pragma kcc bytes 4*(M*K+K*N+M*N)

#define BK 128
#define BN 256

void gemm_f32(const float *restrict A, const float *restrict B, float *restrict C,
              int M, int N, int K)
{
	#pragma omp parallel for schedule(static)
	for (int i = 0; i < M; i++) {
		float *restrict c = C + (int64_t)i * N;
		for (int j = 0; j < N; j++)
			c[j] = 0.0f;
	}
	for (int j0 = 0; j0 < N; j0 += BN) {
		int j1 = j0 + BN < N ? j0 + BN : N;
		#pragma omp parallel for schedule(static)
		for (int k0 = 0; k0 < K; k0 += 4) {
			int k1 = k0 + 4 < K ? k0 + 4 : K;
			for (int i = 0; i < M; i++) {
				float *restrict c = C + (int64_t)i * N;
				const float *restrict a = A + (int64_t)i * K;
				for (int k = k0; k < k1; k++) {
					const float aik = a[k];
					const float *restrict b = B + (int64_t)k * N;
					for (int j = j0; j < j1; j++)
						c[j] += aik * b[j];
				}
			}
		}
	}
}
