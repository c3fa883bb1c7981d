// --suggest-spec on CUDA follows the entry's pointers into the kernel
// (A in the entry is a in the kernel) and reads the guard `row < M`.
// Integer inputs get a range kcc cannot guess: marked '?'.
// RUN: %kcc --suggest-spec %s | FileCheck %s
// CHECK: #pragma kcc entry gather_rows
// CHECK-NEXT: #pragma kcc param idx   in    i32[B] range(0,?)
// CHECK-NEXT: #pragma kcc param table in    f32[{{.*}}]
// CHECK-NEXT: #pragma kcc param out   out   f32[B*D]
// CHECK-NEXT: #pragma kcc shape check
// CHECK-NOT: #pragma kcc bytes
#include <cuda_runtime.h>

__global__ void gather_k(const int *ix, const float *tab, float *o, int b_, int d_)
{
	int row = blockIdx.x;
	int col = threadIdx.x;
	if (row < b_ && col < d_)
		o[row * d_ + col] = tab[ix[row] * d_ + col];
}

void gather_rows(const int *idx, const float *table, float *out, int B, int D)
{
	gather_k<<<B, D>>>(idx, table, out, B, D);
}
