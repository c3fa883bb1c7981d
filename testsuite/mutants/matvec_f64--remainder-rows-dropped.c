// kcc-mutant: ref=matvec_f64.c expect=unwritten
// why: the four-rows-at-a-time loop has no cleanup, so the last M % 4 entries of y are never written.
/*
 * matvec_f64.fast.c — double-precision matrix-vector product y = A x, A is
 * M x N (row-major).
 * Faster: four rows per pass share each load of x, each row keeps two
 * partial sums (shorter dependency chains, vectorizable), restrict
 * pointers, row blocks spread over OpenMP threads.
 */
#include <stdint.h>

#pragma kcc entry matvec_f64
#pragma kcc param A in f64[M*N]
#pragma kcc param x in f64[N]
#pragma kcc param y out f64[M]
#pragma kcc shape check M=37 N=101; M=64 N=64; M=1 N=1009; M=257 N=3
#pragma kcc shape bench M=2048 N=2048
#pragma kcc flops 2*M*N
#pragma kcc bytes 8*(M*N+N+M)

static inline double __attribute__((unused)) row_dot(const double *restrict a, const double *restrict x, int N)
{
	double s0 = 0.0, s1 = 0.0;
	int j = 0;
	for (; j + 2 <= N; j += 2) {
		s0 += a[j] * x[j];
		s1 += a[j + 1] * x[j + 1];
	}
	if (j < N)
		s0 += a[j] * x[j];
	return s0 + s1;
}

void matvec_f64(const double *restrict A, const double *restrict x,
                double *restrict y, int M, int N)
{
	const int M4 = M / 4 * 4;
	#pragma omp parallel for schedule(static)
	for (int i = 0; i < M4; i += 4) {
		const double *a0 = A + (int64_t)i * N, *a1 = a0 + N, *a2 = a1 + N, *a3 = a2 + N;
		double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
		for (int j = 0; j < N; j++) {
			const double xj = x[j];
			s0 += a0[j] * xj;
			s1 += a1[j] * xj;
			s2 += a2[j] * xj;
			s3 += a3[j] * xj;
		}
		y[i] = s0;
		y[i + 1] = s1;
		y[i + 2] = s2;
		y[i + 3] = s3;
	}
}
