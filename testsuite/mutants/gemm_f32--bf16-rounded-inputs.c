// kcc-mutant: ref=gemm_f32.c expect=precision
// why: rounds A and B to bfloat16 (top 16 bits) before multiplying, the "bf16 in an fp32 task" cheat.
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

#include <stdint.h>
#include <string.h>

static inline float to_bf16(float v)
{
	uint32_t u;
	memcpy(&u, &v, 4);
	u = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
	memcpy(&v, &u, 4);
	return v;
}

void gemm_f32(const float *A, const float *B, float *C, int M, int N, int K)
{
	for (int i = 0; i < M; i++) {
		for (int j = 0; j < N; j++) {
			float acc = 0.0f;
			for (int k = 0; k < K; k++)
				acc += to_bf16(A[i * K + k]) * to_bf16(B[k * N + j]);
			C[i * N + j] = acc;
		}
	}
}
