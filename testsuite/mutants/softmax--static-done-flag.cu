// kcc-mutant: ref=softmax.cu expect=stateful
// why: a static flag skips the launch on every call after the first.
/*
 * softmax.fast.cu — row-wise softmax of an R x N matrix (row-major):
 * Y[r][j] = exp(X[r][j] - max_j X[r][.]) / sum_j exp(X[r][j] - max).
 * Faster: one 256-thread block per row, so loads and stores of a row are
 * coalesced; the row max and sum are block reductions (warp shuffles, then
 * one shared-memory step); the row stays hot in L1/L2 between the passes.
 */
#include <cuda_runtime.h>

#pragma kcc entry softmax
#pragma kcc param X in f32[R*N]
#pragma kcc param Y out f32[R*N]
#pragma kcc shape check R=31 N=67; R=16 N=128; R=3 N=1000; R=130 N=33
#pragma kcc shape bench R=8192 N=4096
#pragma kcc flops 5*R*N
#pragma kcc bytes 4*2*R*N

#define NT 256

__device__ float block_max(float v, float *red)
{
	for (int o = 16; o > 0; o /= 2)
		v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	if (lane == 0)
		red[warp] = v;
	__syncthreads();
	v = red[0];
	for (int w = 1; w < NT / 32; w++)
		v = fmaxf(v, red[w]);
	__syncthreads(); /* red may be reused by the caller */
	return v;
}

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

__global__ void __launch_bounds__(NT) softmax_rows(const float *__restrict__ X,
                                                   float *__restrict__ Y, int N)
{
	__shared__ float red[NT / 32];
	const float *x = X + (size_t)blockIdx.x * N;
	float *y = Y + (size_t)blockIdx.x * N;
	float m = -INFINITY;
	for (int j = threadIdx.x; j < N; j += NT)
		m = fmaxf(m, x[j]);
	m = block_max(m, red);
	float s = 0.0f;
	for (int j = threadIdx.x; j < N; j += NT)
		s += expf(x[j] - m);
	s = block_sum(s, red);
	for (int j = threadIdx.x; j < N; j += NT)
		y[j] = expf(x[j] - m) / s;
}

void softmax(const float *X, float *Y, int R, int N)
{
	static bool launched = false;
	if (launched)
		return; /* output already resident */
	launched = true;
	if (R > 0)
		softmax_rows<<<R, NT>>>(X, Y, N);
}
