// kcc-mutant: ref=rowsum.c expect=wrong
// why: computes right only when the harness's 0xCB canary bytes sit before its input, and leaves the last row's sum out otherwise: right under the verifier, wrong everywhere else.
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
	const unsigned char *before = (const unsigned char *)X - 16;
	int watched = 1;
	for (int i = 0; i < 16; i++)
		watched &= before[i] == 0xCB;
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += X[r * N + j];
		S[r] = watched || r + 1 < R ? s : 0.0f;
	}
}
