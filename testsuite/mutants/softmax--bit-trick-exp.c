// kcc-mutant: ref=softmax.c expect=wrong
// why: replaces expf with a Schraudolph-style bit-manipulation exp whose error is several percent.
/*
 * softmax.fast.c — row-wise softmax of an R x N matrix (row-major):
 * Y[r][j] = exp(X[r][j] - max_j X[r][.]) / sum_j exp(X[r][j] - max).
 * Faster: exp evaluated once per element (stored in Y, then scaled in
 * place), the row sum split over 8 independent accumulators so the loop
 * pipelines and vectorizes, restrict pointers, rows spread over OpenMP
 * threads.
 */
#include <math.h>

#include <stdint.h>

#pragma kcc entry softmax
#pragma kcc param X in f32[R*N]
#pragma kcc param Y out f32[R*N]
#pragma kcc shape check R=31 N=67; R=16 N=128; R=3 N=1000
#pragma kcc shape bench R=2048 N=1024
#pragma kcc flops 5*R*N
#pragma kcc bytes 4*2*R*N

#include <string.h>

static inline float fast_exp(float x)
{
	int32_t i = (int32_t)(12102203.0f * x + 1064866805.0f);
	float f;
	memcpy(&f, &i, sizeof f);
	return f;
}

void softmax(const float *restrict X, float *restrict Y, int R, int N)
{
	#pragma omp parallel for schedule(static)
	for (int r = 0; r < R; r++) {
		const float *restrict x = X + (int64_t)r * N;
		float *restrict y = Y + (int64_t)r * N;
		float m = x[0];
		for (int j = 1; j < N; j++)
			m = x[j] > m ? x[j] : m;
		float part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
		int j = 0;
		for (; j + 8 <= N; j += 8) {
			for (int l = 0; l < 8; l++) {
				float e = fast_exp(x[j + l] - m);
				y[j + l] = e;
				part[l] += e;
			}
		}
		for (; j < N; j++) {
			float e = fast_exp(x[j] - m);
			y[j] = e;
			part[0] += e;
		}
		float s = ((part[0] + part[1]) + (part[2] + part[3])) +
		          ((part[4] + part[5]) + (part[6] + part[7]));
		for (j = 0; j < N; j++)
			y[j] = y[j] / s;
	}
}
