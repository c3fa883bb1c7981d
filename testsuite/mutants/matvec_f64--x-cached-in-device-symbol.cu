// kcc-mutant: ref=matvec_f64.cu expect=stateful
// why: copies x into a __device__ array on the first call only and keeps using it, so later calls multiply by a stale x.
/*
 * matvec_f64.cu — double-precision matrix-vector product y = A x, A is
 * M x N (row-major). Naive CUDA: one thread per row with a running double
 * sum (neighbouring threads read addresses N doubles apart: uncoalesced).
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

__device__ double xc[1 << 16];

__global__ void matvec_kernel(const double *A, const double *x, double *y, int M, int N)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= M)
		return;
	double s = 0.0;
	for (int j = 0; j < N; j++)
		s += A[(size_t)i * N + j] * xc[j];
	y[i] = s;
}

void matvec_f64(const double *A, const double *x, double *y, int M, int N)
{
	static bool have_x = false;
	if (!have_x) {
		cudaMemcpyToSymbolAsync(xc, x, (size_t)N * sizeof(double), 0, cudaMemcpyDeviceToDevice, 0);
		have_x = true;
	}
	matvec_kernel<<<(M + 127) / 128, 128>>>(A, x, y, M, N);
}
