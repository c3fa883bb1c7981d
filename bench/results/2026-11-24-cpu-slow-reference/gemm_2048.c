/*
 * gemm.c — a naive single-precision matrix multiply, C = A * B, for the cpu
 * target: the "before" that kcc starts from. A is M x K, B is K x N and C is
 * M x N, all row-major.
 */
#pragma kcc entry gemm
#pragma kcc param A in  f32[M*K]
#pragma kcc param B in  f32[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=37 N=53 K=29; M=64 N=64 K=64
#pragma kcc shape bench M=2048 N=2048 K=2048
#pragma kcc flops 2*M*N*K
#pragma kcc bytes 4*(M*K+K*N+M*N)

void gemm(const float *A, const float *B, float *C, int M, int N, int K)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			float acc = 0.0f;
			for (int k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
}
