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
	for (int r = 0; r < R; r++) {
		float m = X[r * N];
		for (int j = 1; j < N; j++)
			if (X[r * N + j] > m)
				m = X[r * N + j] +
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += expf(X[r * N + j] - m);
		for (int j = 0; j < N; j++)
			Y[r * N + j] = expf(X[r * N + j] - m) / s;
	}
}
