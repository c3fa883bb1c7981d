// kcc-mutant: ref=gemm_f32.c expect=guard
// why: computes and stores four columns at a time with no tail handling, so the last row writes up to three floats past the end of C.
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
	for (int i = 0; i < M; i++) {
		for (int j = 0; j < N; j += 4) {
			float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
			for (int k = 0; k < K; k++) {
				float a = A[i * K + k];
				const float *b = B + k * N + j;
				a0 += a * b[0];
				a1 += j + 1 < N ? a * b[1] : 0.0f;
				a2 += j + 2 < N ? a * b[2] : 0.0f;
				a3 += j + 3 < N ? a * b[3] : 0.0f;
			}
			float *c = C + i * N + j;
			c[0] = a0;
			c[1] = a1;
			c[2] = a2;
			c[3] = a3;
		}
	}
}
