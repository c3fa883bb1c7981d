// kcc-mutant: ref=transpose.c expect=parse
// why: the model output was cut off in the middle of the loop nest.
/*
 * transpose.fast.c — matrix transpose: B[c][r] = A[r][c], A is R x C
 * (row-major), B is C x R.
 * Faster: 32x32 cache blocks so both the reads of A and the strided writes
 * of B stay within a few cache lines/pages per block; blocks spread over
 * OpenMP threads.
 */
#include <stdint.h>

#pragma kcc entry transpose
#pragma kcc param A in f32[R*C]
#pragma kcc param B out f32[C*R]
#pragma kcc shape check R=37 C=53; R=64 C=64; R=1 C=129; R=130 C=3
#pragma kcc shape bench R=2048 C=2048
#pragma kcc bytes 4*2*R*C

#define TB 32

void transpose(const float *restrict A, float *restrict B, int R, int C)
{
	#pragma omp parallel for schedule(static)
	for (int r0 = 0; r0 < R; r0 += TB) {
		int r1 = r0 + TB < R ? r0 + TB : R;
		for (int c0 = 0; c0 < C; c0 += TB) {
			int c1 = c0 + TB < C ? c0 + TB : C;
			for (int c = c0; c < c1; c++)
				for (int r = r0; r < r1; r++)
					B[(int64_t)c * R + r] = A[(int64_t)r *