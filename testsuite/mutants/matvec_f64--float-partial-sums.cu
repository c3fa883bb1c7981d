// kcc-mutant: ref=matvec_f64.cu expect=precision
// why: keeps the per-lane partial sums and the shuffle tree in float to halve register use.
/*
 * matvec_f64.fast.cu — double-precision matrix-vector product y = A x, A is
 * M x N (row-major).
 * Faster: one warp per row (8 rows per block): lanes read consecutive
 * elements of the row (coalesced), two independent partial sums per lane
 * keep two loads in flight, and a warp-shuffle tree combines the lanes.
 */
#include <cuda_runtime.h>

#pragma kcc entry matvec_f64
#pragma kcc param A in f64[M*N]
#pragma kcc param x in f64[N]
#pragma kcc param y out f64[M]
#pragma kcc shape check M=37 N=101; M=64 N=64; M=1 N=1009; M=257 N=3
#pragma kcc shape bench M=8192 N=8192
#pragma kcc flops 2*M*N
#pragma kcc bytes 8*(M*N+N+M)

#define WARPS 8

__global__ void __launch_bounds__(WARPS * 32)
matvec_warp(const double *__restrict__ A, const double *__restrict__ x,
            double *__restrict__ y, int M, int N)
{
	const int lane = threadIdx.x % 32;
	const int i = blockIdx.x * WARPS + threadIdx.x / 32;
	if (i >= M)
		return;
	const double *a = A + (size_t)i * N;
	float s0 = 0.0f, s1 = 0.0f;
	int j = lane;
	for (; j + 32 < N; j += 64) {
		s0 += a[j] * x[j];
		s1 += a[j + 32] * x[j + 32];
	}
	if (j < N)
		s0 += a[j] * x[j];
	float s = s0 + s1;
	for (int o = 16; o > 0; o /= 2)
		s += __shfl_xor_sync(0xffffffffu, s, o);
	if (lane == 0)
		y[i] = s;
}

void matvec_f64(const double *A, const double *x, double *y, int M, int N)
{
	matvec_warp<<<(M + WARPS - 1) / WARPS, WARPS * 32>>>(A, x, y, M, N);
}
