// Spec error: a shape value that is not an integer. kcc exits 1, points at the pragma and writes no output.
// RUN: rm -f %t.out
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// CHECK: shape-not-integer.c:10:37: error: expected a number for 'K'
#pragma kcc entry gemm
#pragma kcc param A in  f32[M*K]
#pragma kcc param B in  f32[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=37 N=53 K=2x; M=64 N=64 K=64
#pragma kcc shape bench M=256 N=256 K=256

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
