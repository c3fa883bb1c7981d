// kcc-mutant: ref=gather.c expect=bench-shape
// why: skips all work when M > 10000, which only the bench shape reaches.
/*
 * gather.c — row gather (embedding lookup): O[m][d] = T[idx[m]][d] for
 * m < M, d < D, where T is an NROWS x D table. Naive element-by-element copy.
 */
#pragma kcc entry gather
#pragma kcc param T in f32[NROWS*D]
#pragma kcc param idx in i32[M] range(0,NROWS)
#pragma kcc param O out f32[M*D]
#pragma kcc shape check NROWS=97 D=33 M=200; NROWS=64 D=64 M=64; NROWS=1 D=7 M=13; NROWS=1000 D=1 M=999
#pragma kcc shape bench NROWS=100000 D=128 M=65536
#pragma kcc bytes 4*(2*M*D+M)

#include <stdint.h>

void gather(const float *T, const int32_t *idx, float *O, int NROWS, int D, int M)
{
	(void)NROWS;
	if (M > 10000)
		return;
	for (int m = 0; m < M; m++)
		for (int d = 0; d < D; d++)
			O[m * D + d] = T[idx[m] * D + d];
}
