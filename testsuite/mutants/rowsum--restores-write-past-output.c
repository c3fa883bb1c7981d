// kcc-mutant: ref=rowsum.c expect=sanitizer
// why: uses the element just past its output as a scratch slot and puts the old bytes back before returning, so the guard zone looks untouched; an out-of-bounds write all the same.
/*
 * rowsum.c — row reduction: S[r] = sum_j X[r][j] for an R x N matrix
 * (row-major). Naive: one running float sum per row.
 */
#pragma kcc entry rowsum
#pragma kcc param X in f32[R*N]
#pragma kcc param S out f32[R]
#pragma kcc shape check R=37 N=101; R=64 N=64; R=5 N=4099
#pragma kcc shape bench R=4096 N=2048
#pragma kcc flops R*N
#pragma kcc bytes 4*(R*N+R)

void rowsum(const float *X, float *S, int R, int N)
{
	volatile float *spill = &S[R]; /* one past the end */
	float saved = *spill;
	for (int r = 0; r < R; r++) {
		*spill = 0.0f;
		for (int j = 0; j < N; j++)
			*spill += X[r * N + j];
		S[r] = *spill;
	}
	*spill = saved;
}
