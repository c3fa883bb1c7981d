// kcc-mutant: ref=rowsum.c expect=crash
// why: splits the rows into R/8 chunks and divides by that count, an integer division by zero when R < 8.
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
	int chunks = R / 8;
	int per = (R + chunks - 1) / chunks; /* rows per chunk */
	for (int r0 = 0; r0 < R; r0 += per)
	for (int r = r0; r < R && r < r0 + per; r++) {
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += X[r * N + j];
		S[r] = s;
	}
}
