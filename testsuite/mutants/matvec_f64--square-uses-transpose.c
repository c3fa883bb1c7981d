// kcc-mutant: ref=matvec_f64.c expect=wrong
// why: for square A it walks A by columns (computing A^T x), a layout mix-up that only coincides for symmetric A.
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
		double s = 0.0;
		for (int j = 0; j < N; j++)
			s += (M == N ? A[j * N + i] : A[i * N + j]) * x[j];
		y[i] = s;
	}
}
