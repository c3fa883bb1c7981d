// kcc-mutant: ref=gemm_f32.c expect=wrong
// why: a fast path for M == 2 computes both rows from row 0 of A; the spec's shapes (M = 37, 64, 1) and kcc's old extra ones (1, 41) never have M = 2.
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

void gemm_f32(const float *A, const float *B, float *C, int M, int N, int K)
{
	if (M == 2) { /* two rows at once: one pass over B */
		for (int j = 0; j < N; j++) {
			float a0 = 0.0f, a1 = 0.0f;
			for (int k = 0; k < K; k++) {
				float b = B[k * N + j];
				a0 += A[k] * b;
				a1 += A[k] * b; /* should be A[K + k] */
			}
			C[j] = a0;
			C[N + j] = a1;
		}
		return;
	}
	for (int i = 0; i < M; i++) {
		for (int j = 0; j < N; j++) {
			float acc = 0.0f;
			for (int k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
}
