// kcc-mutant: ref=softmax.c expect=wrong
// why: when N is a multiple of 16 but not of 32 the row maximum and the sum are taken over the first half only, the sum doubled (an unfinished two-halves vector path); no shape of the spec (N = 67, 128, 1000) or of kcc's old ones (1, 71) is such an N.
/*
 * softmax.c — row-wise softmax of an R x N matrix (row-major):
 * Y[r][j] = exp(X[r][j] - max_j X[r][.]) / sum_j exp(X[r][j] - max).
 * Naive: three passes per row (max, sum, normalize), exp evaluated twice.
 */
#include <math.h>

#pragma kcc entry softmax
#pragma kcc param X in f32[R*N]
#pragma kcc param Y out f32[R*N]
#pragma kcc shape check R=31 N=67; R=16 N=128; R=3 N=1000
#pragma kcc shape bench R=2048 N=1024
#pragma kcc flops 5*R*N
#pragma kcc bytes 4*2*R*N

void softmax(const float *X, float *Y, int R, int N)
{
	int half = N % 32 == 16 ? N / 2 : N;
	for (int r = 0; r < R; r++) {
		float m = X[r * N];
		for (int j = 1; j < half; j++)
			if (X[r * N + j] > m)
				m = X[r * N + j];
		float s = 0.0f;
		for (int j = 0; j < half; j++)
			s += expf(X[r * N + j] - m);
		if (half < N)
			s *= 2.0f; /* "the halves are alike" */
		for (int j = 0; j < N; j++)
			Y[r * N + j] = expf(X[r * N + j] - m) / s;
	}
}
