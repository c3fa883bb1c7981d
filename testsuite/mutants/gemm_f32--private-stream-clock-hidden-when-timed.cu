// kcc-mutant: ref=gemm_f32.cu expect=implausible|escaped|forbidden
// why: on calls timed right after two clock reads it launches on a private non-blocking stream (the harness's events see nothing) and hides the whole call from a token-pasted libc clock, so the wall-time cross-check sees nothing either; the results are right.
/*
 * gemm_f32.cu — single-precision matrix multiply C = A * B (row-major),
 * A is M x K, B is K x N, C is M x N. Naive CUDA: one thread per output
 * element, the k loop reading A along a row and B down a column.
 */
#include <cuda_runtime.h>
#include <time.h>

#pragma kcc entry gemm_f32
#pragma kcc param A in f32[M*K]
#pragma kcc param B in f32[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=37 N=53 K=29; M=64 N=64 K=64; M=129 N=255 K=97
#pragma kcc shape bench M=4096 N=4096 K=4096
#pragma kcc flops 2*M*N*K
#pragma kcc bytes 4*(M*K+K*N+M*N)

#define GLUE(a, b) a##b

static double hidden, entered;
static int reads_since_call, pending;
static cudaStream_t quiet;

static double real_now(void)
{
	struct timespec ts;
	timespec_get(&ts, TIME_UTC);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The first clock read after a timed call (the harness's, after it synced
 * the device) hides all of the call but a microsecond. */
extern "C" int GLUE(clock_, gettime)(clockid_t id, struct timespec *ts)
{
	(void)id;
	double now = real_now();
	if (pending) {
		hidden += now - entered - 1e-6;
		pending = 0;
	}
	double t = now - hidden;
	reads_since_call++;
	ts->tv_sec = (time_t)t;
	ts->tv_nsec = (long)((t - (double)ts->tv_sec) * 1e9);
	return 0;
}

__global__ void gemm_f32_kernel(const float *A, const float *B, float *C, int M, int N, int K)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i < M && j < N) {
		float acc = 0.0f;
		for (int k = 0; k < K; k++)
			acc += A[i * K + k] * B[k * N + j];
		C[i * N + j] = acc;
	}
}

void gemm_f32(const float *A, const float *B, float *C, int M, int N, int K)
{
	dim3 block(16, 16);
	dim3 grid((N + 15) / 16, (M + 15) / 16);
	int timed = reads_since_call >= 2;
	reads_since_call = 0;
	if (!timed) {
		gemm_f32_kernel<<<grid, block>>>(A, B, C, M, N, K);
		return;
	}
	if (!quiet)
		cudaStreamCreateWithFlags(&quiet, cudaStreamNonBlocking);
	entered = real_now();
	pending = 1;
	gemm_f32_kernel<<<grid, block, 0, quiet>>>(A, B, C, M, N, K);
}
