// -O0 on a CUDA file with cuda_runtime.h and cuda_fp16.h: libclang 22 parses
// it with CUDA 13's headers, f16 maps to __half, and the output is identical.
// RUN: %kcc -O0 %s -o %t.out.cu
// RUN: cmp %s %t.out.cu
// RUN: %kcc --dump-ir %s | FileCheck %s
// CHECK: "language": "cuda"
// CHECK: "name": "x"
// CHECK-NEXT: "c_type": "const __half *"
// CHECK: "type": "f16"
// CHECK: "functions":
// CHECK: "name": "to_float"
// CHECK-NEXT: "kind": "kernel"
// CHECK: "name": "cvt"
// CHECK-NEXT: "kind": "device"
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#pragma kcc entry convert
#pragma kcc param x in  f16[N]
#pragma kcc param y out f32[N]
#pragma kcc shape check N=1; N=1000
#pragma kcc shape bench N=16777216

__device__ float cvt(__half h) { return __half2float(h); }

__global__ void to_float(const __half *x, float *y, int N)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < N)
		y[i] = cvt(x[i]);
}

void convert(const __half *x, float *y, int N)
{
	to_float<<<(N + 255) / 256, 256>>>(x, y, N);
}
