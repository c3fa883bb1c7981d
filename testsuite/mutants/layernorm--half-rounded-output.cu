// kcc-mutant: ref=layernorm.cu expect=precision|wrong
// why: rounds each output through __half before storing it as float.
/*
 * layernorm.fast.cu — layer normalization of each row of an R x N matrix:
 * Y[r][j] = (X[r][j] - mean_r) / sqrt(var_r + 1e-5) * gamma[j] + beta[j],
 * with mean and (biased) variance over the row.
 * Faster: one 256-thread block per row (coalesced loads and stores), mean
 * and variance by block reductions (warp shuffles + one shared step), still
 * two passes over the row for a stable variance; the row is re-read from
 * L1/L2. The tree reductions are also more accurate than one running sum.
 */
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#pragma kcc entry layernorm
#pragma kcc param X in f32[R*N]
#pragma kcc param gamma in f32[N]
#pragma kcc param beta in f32[N]
#pragma kcc param Y out f32[R*N]
#pragma kcc shape check R=29 N=77; R=8 N=256; R=2 N=1031; R=130 N=33
#pragma kcc shape bench R=8192 N=4096
#pragma kcc flops 8*R*N
#pragma kcc bytes 4*(2*R*N+2*N)

#define NT 256

__device__ float block_sum(float v, float *red)
{
	for (int o = 16; o > 0; o /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	if (lane == 0)
		red[warp] = v;
	__syncthreads();
	v = 0.0f;
	for (int w = 0; w < NT / 32; w++)
		v += red[w];
	__syncthreads();
	return v;
}

__global__ void __launch_bounds__(NT)
layernorm_rows(const float *__restrict__ X, const float *__restrict__ gamma,
               const float *__restrict__ beta, float *__restrict__ Y, int N)
{
	__shared__ float red[NT / 32];
	const float *x = X + (size_t)blockIdx.x * N;
	float *y = Y + (size_t)blockIdx.x * N;
	float s = 0.0f;
	for (int j = threadIdx.x; j < N; j += NT)
		s += x[j];
	const float mean = block_sum(s, red) / N;
	float q = 0.0f;
	for (int j = threadIdx.x; j < N; j += NT) {
		float d = x[j] - mean;
		q += d * d;
	}
	const float inv = 1.0f / sqrtf(block_sum(q, red) / N + 1e-5f);
	for (int j = threadIdx.x; j < N; j += NT)
		y[j] = __half2float(__float2half((x[j] - mean) * inv * gamma[j] + beta[j]));
}

void layernorm(const float *X, const float *gamma, const float *beta, float *Y, int R, int N)
{
	if (R > 0)
		layernorm_rows<<<R, NT>>>(X, gamma, beta, Y, N);
}
