// kcc-mutant: ref=rowsum.c expect=sanitizer
// why: accumulates each row's sum in the row's first element of the const input and restores it before returning: the input's hash is unchanged, but the entry wrote to memory it promised not to.
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
	float *x = (float *)X; /* casts the const away */
	for (int r = 0; r < R; r++) {
		float first = x[r * N];
		for (int j = 1; j < N; j++)
			x[r * N] += x[r * N + j];
		S[r] = x[r * N];
		x[r * N] = first;
	}
}
