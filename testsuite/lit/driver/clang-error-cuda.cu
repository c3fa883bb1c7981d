// A CUDA file with an error in a kernel: reported at its place.
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// CHECK: clang-error-cuda.cu:[[@LINE+11]]:7: error: cannot initialize a variable of type 'int *' with an lvalue of type 'float *'
#include <cuda_runtime.h>

#pragma kcc entry scale
#pragma kcc param x in  f32[N]
#pragma kcc param y out f32[N]
#pragma kcc shape check N=17
#pragma kcc shape bench N=1048576

__global__ void k(const float *x, float *y, int N)
{
	int *bad = y;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < N)
		y[i] = 2.0f * x[i] + bad[0];
}

void scale(const float *x, float *y, int N) { k<<<(N + 255) / 256, 256>>>(x, y, N); }
