// kcc-mutant: ref=layernorm.c expect=nan
// why: a one-pass variance computed as mean^2 - E[x^2] is negative, so sqrtf returns NaN for every row.
/*
 * layernorm.fast.c — layer normalization of each row of an R x N matrix:
 * Y[r][j] = (X[r][j] - mean_r) / sqrt(var_r + 1e-5) * gamma[j] + beta[j],
 * with mean and (biased) variance over the row.
 * Faster: the two row reductions use 8 independent partial sums (pipelined,
 * vectorizable, and more accurate than one running sum), restrict pointers,
 * rows spread over OpenMP threads. Still two passes for a stable variance.
 */
#include <math.h>

#include <stdint.h>

#pragma kcc entry layernorm
#pragma kcc param X in f32[R*N]
#pragma kcc param gamma in f32[N]
#pragma kcc param beta in f32[N]
#pragma kcc param Y out f32[R*N]
#pragma kcc shape check R=29 N=77; R=8 N=256; R=2 N=1031
#pragma kcc shape bench R=2048 N=1024
#pragma kcc flops 8*R*N
#pragma kcc bytes 4*(2*R*N+2*N)

static float sum8(const float p[8])
{
	return ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
}

void layernorm(const float *restrict X, const float *restrict gamma,
               const float *restrict beta, float *restrict Y, int R, int N)
{
	#pragma omp parallel for schedule(static)
	for (int r = 0; r < R; r++) {
		const float *restrict x = X + (int64_t)r * N;
		float *restrict y = Y + (int64_t)r * N;
		float p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
		int j = 0;
		for (; j + 8 <= N; j += 8)
			for (int l = 0; l < 8; l++)
				p[l] += x[j + l];
		for (; j < N; j++)
			p[0] += x[j];
		const float mean = sum8(p) / N;
		float q[8] = {0, 0, 0, 0, 0, 0, 0, 0};
		for (j = 0; j + 8 <= N; j += 8)
			for (int l = 0; l < 8; l++) {
				float d = x[j + l] - mean;
				q[l] += d * d;
			}
		for (; j < N; j++) {
			float d = x[j] - mean;
			q[0] += d * d;
		}
		(void)q;
		float sq = 0.0f;
		for (j = 0; j < N; j++)
			sq += x[j] * x[j];
		const float inv = 1.0f / sqrtf(mean * mean - sq / N + 1e-5f);
		for (j = 0; j < N; j++)
			y[j] = (x[j] - mean) * inv * gamma[j] + beta[j];
	}
}
