// kcc-mutant: ref=gemm_f32.c expect=build
// why: calls a micro-kernel that is declared but never defined, so linking fails.
/*
 * gemm_f32.c — single-precision matrix multiply C = A * B (row-major),
 * A is M x K, B is K x N, C is M x N. Naive triple loop, i-j-k order, one
 * float accumulator per output element.
 */
#pragma kcc entry gemm_f32
#pragma kcc param A in f32[M*K]
#pragma kcc param B in f32[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=37 N=53 K=29; M=64 N=64 K=64; M=1 N=97 K=131
#pragma kcc shape bench M=384 N=384 K=384
#pragma kcc flops 2*M*N*K
#pragma kcc bytes 4*(M*K+K*N+M*N)

void gemm_microkernel_4x4(const float *A, const float *B, float *C, int lda, int ldb,
                          int ldc, int K);

void gemm_f32(const float *A, const float *B, float *C, int M, int N, int K)
{
	for (int i = 0; i < M; i++) {
		for (int j = 0; j < N; j++) {
			if (i + 4 <= M && j + 4 <= N && (i % 4) == 0 && (j % 4) == 0) {
				gemm_microkernel_4x4(A + i * K, B + j, C + i * N + j, K, N, N, K);
				continue;
			}
			if ((i / 4) * 4 + 4 <= M && (j / 4) * 4 + 4 <= N)
				continue;
			float acc = 0.0f;
			for (int k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}
