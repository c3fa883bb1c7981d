// kcc-mutant: ref=layernorm.c expect=wrong
// why: the mean's loop is unrolled by four and its epilogue forgets the last element when N % 4 == 2; the spec's shapes (N = 77, 256, 1031) and kcc's old extra ones (1, 79) never have that remainder.
/*
 * layernorm.c — layer normalization of each row of an R x N matrix:
 * Y[r][j] = (X[r][j] - mean_r) / sqrt(var_r + 1e-5) * gamma[j] + beta[j],
 * with mean and (biased) variance over the row. Naive two-pass version.
 */
#include <math.h>

#pragma kcc entry layernorm
#pragma kcc param X in f32[R*N]
#pragma kcc param gamma in f32[N]
#pragma kcc param beta in f32[N]
#pragma kcc param Y out f32[R*N]
#pragma kcc shape check R=29 N=77; R=8 N=256; R=2 N=1031
#pragma kcc shape bench R=2048 N=1024
#pragma kcc flops 8*R*N
#pragma kcc bytes 4*(2*R*N+2*N)

void layernorm(const float *X, const float *gamma, const float *beta, float *Y,
               int R, int N)
{
	for (int r = 0; r < R; r++) {
		const float *x = X + (long)r * N;
		float m0 = 0.0f, m1 = 0.0f, m2 = 0.0f, m3 = 0.0f;
		int j = 0;
		for (; j + 4 <= N; j += 4) {
			m0 += x[j];
			m1 += x[j + 1];
			m2 += x[j + 2];
			m3 += x[j + 3];
		}
		float mean = (m0 + m1) + (m2 + m3);
		if (N % 4 == 2)
			mean += x[j]; /* forgets x[j + 1] */
		else
			for (; j < N; j++)
				mean += x[j];
		mean = mean / N;
		float var = 0.0f;
		for (int k = 0; k < N; k++) {
			float d = x[k] - mean;
			var += d * d;
		}
		var = var / N;
		float inv = 1.0f / sqrtf(var + 1e-5f);
		for (int k = 0; k < N; k++)
			Y[r * N + k] = (x[k] - mean) * inv * gamma[k] + beta[k];
	}
}
