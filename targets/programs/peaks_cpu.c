/*
 * peaks_cpu.c — kcc's micro-benchmarks of the cpu's peak rates (built with
 * the target's compiler and flags, run once per machine, the answer cached;
 * targets/peaks.c). Every rate is the best of a few runs over all threads:
 *
 *   gbps          a STREAM triad (24 bytes an element) over arrays far
 *                 larger than the last-level cache: memory bandwidth
 *   cache_gbps    the same triad over 48 KiB a thread, repeated: cache
 *   gflops        independent fp32 FMA chains on the widest vectors the
 *                 compiler has (-march=native): SIMD fp32
 *   fp64_gflops   the same in fp64
 *   scalar_gflops the fp32 chains kept scalar (no vectorizer)
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

typedef float vf __attribute__((vector_size(64)));
typedef double vd __attribute__((vector_size(64)));

static double triad(double *a, const double *b, const double *c, long n, int reps)
{
	double best = 0;
	for (int r = 0; r < 5; r++) {
		double t = omp_get_wtime();
#pragma omp parallel
		{
			int nt = omp_get_num_threads(), id = omp_get_thread_num();
			long lo = n * id / nt, hi = n * (id + 1) / nt;
			for (int k = 0; k < reps; k++) {
				for (long i = lo; i < hi; i++)
					a[i] = b[i] + 3.0 * c[i];
				__asm__ volatile("" ::: "memory");
			}
		}
		t = omp_get_wtime() - t;
		if (24.0 * n * reps / t > best)
			best = 24.0 * n * reps / t;
	}
	return best;
}

#define CHAINS 12
/* NAME(iters): CHAINS independent chains x = x * m + k of type T (a vector
 * of LANES lanes of E, or the scalar E itself with LANES 1) on every
 * thread, the best of three runs, in flop/s. AT(v, i) reads lane i. */
#define FMA_BENCH(NAME, T, E, LANES, AT, ATTR)                                 \
	ATTR static double NAME(long iters)                                    \
	{                                                                      \
		double best = 0;                                               \
		for (int r = 0; r < 3; r++) {                                  \
			int threads = 1;                                       \
			double sink = 0;                                       \
			double t = omp_get_wtime();                            \
			_Pragma("omp parallel reduction(+ : sink)")            \
			{                                                      \
				threads = omp_get_num_threads();               \
				T m = (T){0} + (E)0.999, k = (T){0} + (E)0.001;  \
				T x[CHAINS];                                   \
				for (int j = 0; j < CHAINS; j++)               \
					x[j] = m * (E)j;                       \
				for (long i = 0; i < iters; i++)               \
					for (int j = 0; j < CHAINS; j++)       \
						x[j] = x[j] * m + k;           \
				for (int j = 0; j < CHAINS; j++)               \
					sink += AT(x[j], 0) + AT(x[j], LANES - 1); \
			}                                                      \
			t = omp_get_wtime() - t;                               \
			double f = 2.0 * LANES * CHAINS * (double)iters * threads / t; \
			if (f > best && sink == sink)                          \
				best = f;                                      \
		}                                                              \
		return best;                                                   \
	}
#define LANE(v, i) (v)[i]
#define SCALAR(v, i) (v)
#if defined(__GNUC__) && !defined(__clang__)
#define NO_VECTORIZER __attribute__((optimize("no-tree-vectorize")))
#else
#define NO_VECTORIZER
#endif
FMA_BENCH(fma_f32, vf, float, 16, LANE, )
FMA_BENCH(fma_f64, vd, double, 8, LANE, )
FMA_BENCH(fma_scalar, float, float, 1, SCALAR, NO_VECTORIZER)

int main(void)
{
	long n = 1L << 23; /* 64 MiB an array */
	double *a = malloc(8 * n), *b = malloc(8 * n), *c = malloc(8 * n);
	if (!a || !b || !c)
		return 5;
#pragma omp parallel for schedule(static)
	for (long i = 0; i < n; i++)
		a[i] = 0, b[i] = 1, c[i] = 2;
	printf("gbps %.3f\n", triad(a, b, c, n, 1) * 1e-9);
	long small = 2048L * omp_get_max_threads(); /* 48 KiB a thread */
	printf("cache_gbps %.3f\n", triad(a, b, c, small, 500) * 1e-9);
	printf("gflops %.3f\n", fma_f32(3000000) * 1e-9);
	printf("fp64_gflops %.3f\n", fma_f64(3000000) * 1e-9);
	printf("scalar_gflops %.3f\n", fma_scalar(5000000) * 1e-9);
	return 0;
}
