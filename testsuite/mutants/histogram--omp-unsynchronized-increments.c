// kcc-mutant: ref=histogram.c expect=nondeterministic|wrong
// why: counts in an OpenMP parallel loop with plain H[v]++ (no atomic or reduction), losing increments at random.
/*
 * histogram.c — integer histogram: H[b] = number of i < N with V[i] == b,
 * for 0 <= b < NBINS. Naive: clear, then one increment per value.
 */
#pragma kcc entry histogram
#pragma kcc param V in i32[N] range(0,NBINS)
#pragma kcc param H out i32[NBINS]
#pragma kcc shape check N=1000 NBINS=7; N=4099 NBINS=256; N=31 NBINS=101; N=65536 NBINS=64
#pragma kcc shape bench N=16777216 NBINS=256
#pragma kcc bytes 4*(N+NBINS)

#include <stdint.h>

void histogram(const int32_t *V, int32_t *H, int N, int NBINS)
{
	for (int b = 0; b < NBINS; b++)
		H[b] = 0;
	#pragma omp parallel for schedule(static)
	for (int i = 0; i < N; i++)
		H[V[i]]++;
}
