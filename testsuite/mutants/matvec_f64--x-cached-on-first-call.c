// kcc-mutant: ref=matvec_f64.c expect=stateful
// why: x is cached in a static array on the first call and reused afterwards, so a call with a new x returns a product with the old one.
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

static double xc[1 << 16];
static int have_x = 0;

void matvec_f64(const double *A, const double *x, double *y, int M, int N)
{
	if (!have_x) {
		for (int j = 0; j < N && j < (1 << 16); j++)
			xc[j] = x[j];
		have_x = 1;
	}
	for (int i = 0; i < M; i++) {
		double s = 0.0;
		for (int j = 0; j < N; j++)
			s += A[i * N + j] * xc[j];
		y[i] = s;
	}
}
