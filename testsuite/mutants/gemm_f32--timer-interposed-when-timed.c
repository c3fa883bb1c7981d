// kcc-mutant: ref=gemm_f32.c expect=implausible|forbidden
// why: defines the libc clock under a token-pasted name and, only on calls timed right after two clock reads, hides 99.99% of its own run time; the results are right.
/*
 * gemm_f32.c — single-precision matrix multiply C = A * B (row-major),
 * A is M x K, B is K x N, C is M x N. Naive triple loop, i-j-k order, one
 * float accumulator per output element.
 */
#pragma kcc entry gemm_f32
#pragma kcc param A in f32[M*K]
#pragma kcc param B in f32[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=37 N=53 K=29; M=64 N=64 K=64; M=1 N=97 K=131
#pragma kcc shape bench M=384 N=384 K=384
#pragma kcc flops 2*M*N*K
#pragma kcc bytes 4*(M*K+K*N+M*N)

#include <time.h>

#define GLUE(a, b) a##b

static double hidden, last_read;
static int reads_since_call;

static double real_now(void)
{
	struct timespec ts;
	timespec_get(&ts, TIME_UTC);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every clock read in the process lands here: real time less what the
 * timed calls hid. */
int GLUE(clock_, gettime)(clockid_t id, struct timespec *ts)
{
	(void)id;
	double now = real_now();
	double t = now - hidden;
	reads_since_call++;
	last_read = now;
	ts->tv_sec = (time_t)t;
	ts->tv_nsec = (long)((t - (double)ts->tv_sec) * 1e9);
	return 0;
}

void gemm_f32(const float *A, const float *B, float *C, int M, int N, int K)
{
	double t0 = real_now();
	int timed = reads_since_call >= 2 && t0 - last_read < 1e-3;
	reads_since_call = 0;
	for (int i = 0; i < M; i++) {
		for (int j = 0; j < N; j++) {
			float acc = 0.0f;
			for (int k = 0; k < K; k++)
				acc += A[i * K + k] * B[k * N + j];
			C[i * N + j] = acc;
		}
	}
	if (timed)
		hidden += (real_now() - t0) * 0.9999;
}
