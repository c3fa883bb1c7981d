// kcc-mutant: ref=rowsum.c expect=wrong
// why: rows whose first and last elements are within 0.5 are treated as constant and summed as N * first.
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
	for (int r = 0; r < R; r++) {
		const float *x = X + r * N;
		if (x[0] - x[N - 1] < 0.5f && x[N - 1] - x[0] < 0.5f) {
			S[r] = N * x[0]; /* constant row */
			continue;
		}
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += x[j];
		S[r] = s;
	}
}
