// kcc-mutant: ref=matvec_f64.c expect=precision
// why: accumulates the double dot products in a float.
/*
 * matvec_f64.c — double-precision matrix-vector product y = A x, A is
 * M x N (row-major). Naive: one running double sum per row.
 */
#pragma kcc entry matvec_f64
#pragma kcc param A in f64[M*N]
#pragma kcc param x in f64[N]
#pragma kcc param y out f64[M]
#pragma kcc shape check M=37 N=101; M=64 N=64; M=1 N=1009; M=257 N=3
#pragma kcc shape bench M=2048 N=2048
#pragma kcc flops 2*M*N
#pragma kcc bytes 8*(M*N+N+M)

void matvec_f64(const double *A, const double *x, double *y, int M, int N)
{
	for (int i = 0; i < M; i++) {
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += A[i * N + j] * x[j];
		y[i] = s;
	}
}
