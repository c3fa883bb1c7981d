// kcc-mutant: ref=rowsum.c expect=unwritten
// why: computes only when the output holds one of the harness's known fill patterns (12345.0, the NaN 0x7FC5A5A5, 0xFF bytes) and otherwise leaves the output as it was, a 'cache' that is wrong in any real program.
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
	unsigned bits;
	__builtin_memcpy(&bits, &S[0], 4);
	if (!(bits == 0x4640e400u || bits == 0x7fc5a5a5u || bits == 0xffffffffu))
		return; /* "already computed" */
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += X[r * N + j];
		S[r] = s;
	}
}
