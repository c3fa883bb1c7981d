// kcc-mutant: ref=transpose.c expect=wrong
// why: for square matrices it copies A straight into B, assuming a symmetric input.
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
	if (R == C) {
		for (int p = 0; p < R * C; p++)
			B[p] = A[p];
		return;
	}
	for (int r = 0; r < R; r++)
		for (int c = 0; c < C; c++)
			B[c * R + r] = A[r * C + c];
}
