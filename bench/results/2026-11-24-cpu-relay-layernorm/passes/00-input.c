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
		float mean = 0.0f;
		for (int j = 0; j < N; j++)
			mean += X[r * N + j];
		mean = mean / N;
		float var = 0.0f;
		for (int j = 0; j < N; j++) {
			float d = X[r * N + j] - mean;
			var += d * d;
		}
		var = var / N;
		float inv = 1.0f / sqrtf(var + 1e-5f);
		for (int j = 0; j < N; j++)
			Y[r * N + j] = (X[r * N + j] - mean) * inv * gamma[j] + beta[j];
	}
}
