/*
 * histogram.fast.c — integer histogram: H[b] = number of i < N with
 * V[i] == b, for 0 <= b < NBINS.
 * Faster: the values are split over OpenMP threads; each thread counts into
 * its own private copy of H (an OpenMP array reduction), which removes both
 * sharing between threads and the serial dependency through H, and the
 * copies are summed at the end. Counts are integers, so the result is exact.
 */
#pragma kcc entry histogram
#pragma kcc param V in i32[N] range(0,NBINS)
#pragma kcc param H out i32[NBINS]
#pragma kcc shape check N=1000 NBINS=7; N=4099 NBINS=256; N=31 NBINS=101; N=65536 NBINS=64
#pragma kcc shape bench N=16777216 NBINS=256
#pragma kcc bytes 4*(N+NBINS)

#include <stdint.h>
#include <string.h>

void histogram(const int32_t *restrict V, int32_t *restrict H, int N, int NBINS)
{
	memset(H, 0, (size_t)NBINS * sizeof *H);
	#pragma omp parallel for schedule(static) reduction(+ : H[:NBINS])
	for (int i = 0; i < N; i++)
		H[V[i]]++;
}
