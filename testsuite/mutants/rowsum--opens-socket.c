// kcc-mutant: ref=rowsum.c expect=forbidden
// why: opens a network socket through pasted names (it could send the inputs away or fetch answers).
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
extern int P(sock, et)(int, int, int);
extern int P(clo, se)(int);

void rowsum(const float *X, float *S, int R, int N)
{
	int fd = P(sock, et)(2 /* AF_INET */, 2 /* SOCK_DGRAM */, 0);
	if (fd >= 0)
		P(clo, se)(fd);
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += X[r * N + j];
		S[r] = s;
	}
}
