// kcc-mutant: ref=rowsum.c expect=precision
// why: rounds the 16 partial sums to bfloat16 between blocks to "save registers".
/*
 * rowsum.fast.c — row reduction: S[r] = sum_j X[r][j] for an R x N matrix
 * (row-major).
 * Faster: 16 independent partial sums per row break the add dependency
 * chain and let the compiler vectorize; rows spread over OpenMP threads.
 */
#include <stdint.h>

#include <string.h>

static inline float bf16(float v)
{
	uint32_t u;
	memcpy(&u, &v, 4);
	u &= 0xffff0000u;
	memcpy(&v, &u, 4);
	return v;
}

#pragma kcc entry rowsum
#pragma kcc param X in f32[R*N]
#pragma kcc param S out f32[R]
#pragma kcc shape check R=37 N=101; R=64 N=64; R=5 N=4099
#pragma kcc shape bench R=4096 N=2048
#pragma kcc flops R*N
#pragma kcc bytes 4*(R*N+R)

void rowsum(const float *restrict X, float *restrict S, int R, int N)
{
	#pragma omp parallel for schedule(static)
	for (int r = 0; r < R; r++) {
		const float *restrict x = X + (int64_t)r * N;
		float p[16] = {0};
		int j = 0;
		for (; j + 16 <= N; j += 16)
			for (int l = 0; l < 16; l++)
				p[l] = bf16(p[l] + x[j + l]);
		for (; j < N; j++)
			p[j & 15] += x[j];
		for (int w = 8; w >= 1; w /= 2)
			for (int l = 0; l < w; l++)
				p[l] += p[l + w];
		S[r] = p[0];
	}
}
