// kcc-mutant: ref=softmax.cu expect=input-modified
// why: stores exp(x - max) back into X to avoid evaluating exp twice; Y is right but X is overwritten.
/*
 * softmax.cu — row-wise softmax of an R x N matrix (row-major):
 * Y[r][j] = exp(X[r][j] - max_j X[r][.]) / sum_j exp(X[r][j] - max).
 * Naive CUDA: one thread per row, three passes (max, sum, normalize).
 */
#include <cuda_runtime.h>

#pragma kcc entry softmax
#pragma kcc param X in f32[R*N]
#pragma kcc param Y out f32[R*N]
#pragma kcc shape check R=31 N=67; R=16 N=128; R=3 N=1000; R=130 N=33
#pragma kcc shape bench R=8192 N=4096
#pragma kcc flops 5*R*N
#pragma kcc bytes 4*2*R*N

__global__ void softmax_kernel(const float *X, float *Y, int R, int N)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= R)
		return;
	const float *x = X + (size_t)r * N;
	float *y = Y + (size_t)r * N;
	float m = x[0];
	for (int j = 1; j < N; j++)
		m = fmaxf(m, x[j]);
	float *xw = (float *)x;
	float s = 0.0f;
	for (int j = 0; j < N; j++) {
		xw[j] = expf(x[j] - m);
		s += xw[j];
	}
	for (int j = 0; j < N; j++)
		y[j] = xw[j] / s;
}

void softmax(const float *X, float *Y, int R, int N)
{
	softmax_kernel<<<(R + 127) / 128, 128>>>(X, Y, R, N);
}
