// kcc-mutant: ref=rowsum.c expect=forbidden
// why: sends a signal to its parent (kcc) through a pasted kill(); signal 0 only probes, a real one could stop the verifier.
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


#define P(a, b) a##b
extern int P(ki, ll)(int, int);
extern int P(getp, pid)(void);

void rowsum(const float *X, float *S, int R, int N)
{
	P(ki, ll)(P(getp, pid)(), 0);
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += X[r * N + j];
		S[r] = s;
	}
}
