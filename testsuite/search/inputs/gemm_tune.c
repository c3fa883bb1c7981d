/*
 * gemm_tune.c (the test's copy of examples/gemm_tune.c: smaller bench
 * shape, fewer tune values) — a cache-blocked single-precision matrix multiply for the cpu
 * target, C = A * B (row-major; A is M x K, B is K x N). The block sizes are
 * macros that `#pragma kcc tune` lists, so `kcc -O2` measures the variants
 * and writes the fastest verified one, with its values, into the output.
 */
#pragma kcc entry gemm
#pragma kcc param A in  f32[M*K]
#pragma kcc param B in  f32[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=37 N=53 K=29; M=64 N=64 K=64
#pragma kcc shape bench M=192 N=192 K=192
#pragma kcc flops 2*M*N*K
#pragma kcc tune BK=4,128

#ifndef BK
#define BK 4
#endif
#ifndef BJ
#define BJ 8
#endif

void gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
	for (int i = 0; i < M * N; i++)
		C[i] = 0.0f;
	for (int kk = 0; kk < K; kk += BK)
		for (int jj = 0; jj < N; jj += BJ)
			for (int i = 0; i < M; i++) {
				int kend = kk + BK < K ? kk + BK : K;
				int jend = jj + BJ < N ? jj + BJ : N;
				for (int k = kk; k < kend; k++) {
					float a = A[i * K + k];
					for (int j = jj; j < jend; j++)
						C[i * N + j] += a * B[k * N + j];
				}
			}
}
