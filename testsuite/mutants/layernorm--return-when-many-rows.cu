// kcc-mutant: ref=layernorm.cu expect=bench-shape
// why: returns without launching anything when R > 4096, which only the bench shape reaches.
/*
 * layernorm.cu — layer normalization of each row of an R x N matrix:
 * Y[r][j] = (X[r][j] - mean_r) / sqrt(var_r + 1e-5) * gamma[j] + beta[j],
 * with mean and (biased) variance over the row.
 * Naive CUDA: one thread per row, two-pass mean/variance.
 */
#include <cuda_runtime.h>

#pragma kcc entry layernorm
#pragma kcc param X in f32[R*N]
#pragma kcc param gamma in f32[N]
#pragma kcc param beta in f32[N]
#pragma kcc param Y out f32[R*N]
#pragma kcc shape check R=29 N=77; R=8 N=256; R=2 N=1031; R=130 N=33
#pragma kcc shape bench R=8192 N=4096
#pragma kcc flops 8*R*N
#pragma kcc bytes 4*(2*R*N+2*N)

__global__ void layernorm_kernel(const float *X, const float *gamma, const float *beta,
                                 float *Y, int R, int N)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= R)
		return;
	const float *x = X + (size_t)r * N;
	float *y = Y + (size_t)r * N;
	float mean = 0.0f;
	for (int j = 0; j < N; j++)
		mean += x[j];
	mean = mean / N;
	float var = 0.0f;
	for (int j = 0; j < N; j++) {
		float d = x[j] - mean;
		var += d * d;
	}
	var = var / N;
	float inv = 1.0f / sqrtf(var + 1e-5f);
	for (int j = 0; j < N; j++)
		y[j] = (x[j] - mean) * inv * gamma[j] + beta[j];
}

void layernorm(const float *X, const float *gamma, const float *beta, float *Y, int R, int N)
{
	if (R > 4096)
		return; /* handled by the fused path upstream */
	layernorm_kernel<<<(R + 127) / 128, 128>>>(X, gamma, beta, Y, R, N);
}
