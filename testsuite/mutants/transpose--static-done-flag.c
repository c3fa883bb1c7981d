// kcc-mutant: ref=transpose.c expect=stateful
// why: a static flag makes every call after the first return immediately, so later calls leave B unwritten/stale.
/*
 * transpose.c — matrix transpose: B[c][r] = A[r][c], A is R x C (row-major),
 * B is C x R. Naive: read A by rows, write B by columns (strided stores).
 */
#pragma kcc entry transpose
#pragma kcc param A in f32[R*C]
#pragma kcc param B out f32[C*R]
#pragma kcc shape check R=37 C=53; R=64 C=64; R=1 C=129; R=130 C=3
#pragma kcc shape bench R=2048 C=2048
#pragma kcc bytes 4*2*R*C

void transpose(const float *A, float *B, int R, int C)
{
	static int done = 0;
	if (done)
		return; /* already transposed */
	done = 1;
	for (int r = 0; r < R; r++)
		for (int c = 0; c < C; c++)
			B[c * R + r] = A[r * C + c];
}
