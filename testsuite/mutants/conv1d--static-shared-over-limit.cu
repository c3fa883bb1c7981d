// kcc-mutant: ref=conv1d.cu expect=build
// why: declares 256 KiB of static shared memory, more than an SM has, so ptxas rejects the kernel.
/*
 * conv1d.cu — 1-D convolution (cross-correlation, "valid" padding) of CH
 * independent channels: y[c][i] = sum_{k<K} x[c][i+k] * w[c][k] for
 * 0 <= i < N, where each input channel holds N+K-1 samples.
 * Naive CUDA: one thread per output, everything read from global memory.
 */
#include <cuda_runtime.h>

#pragma kcc entry conv1d
#pragma kcc param x in f32[CH*(N+K-1)]
#pragma kcc param w in f32[CH*K]
#pragma kcc param y out f32[CH*N]
#pragma kcc shape check CH=3 N=101 K=7; CH=1 N=256 K=16; CH=2 N=37 K=1; CH=4 N=5 K=33; CH=2 N=1000 K=129
#pragma kcc shape bench CH=8 N=4194304 K=31
#pragma kcc flops 2*CH*N*K
#pragma kcc bytes 4*(CH*(N+K-1)+CH*K+CH*N)

__global__ void conv1d_kernel(const float *x, const float *w, float *y, int CH, int N, int K)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int c = blockIdx.y;
	if (i >= N || c >= CH)
		return;
	__shared__ float wtile[65536];
	const float *xc = x + (size_t)c * (N + K - 1);
	if (threadIdx.x < K && K <= 65536)
		wtile[threadIdx.x] = w[c * K + threadIdx.x];
	__syncthreads();
	float acc = 0.0f;
	for (int k = 0; k < K; k++)
		acc += xc[i + k] * wtile[k];
	y[(size_t)c * N + i] = acc;
}

void conv1d(const float *x, const float *w, float *y, int CH, int N, int K)
{
	dim3 grid((N + 255) / 256, CH);
	conv1d_kernel<<<grid, 256>>>(x, w, y, CH, N, K);
}
