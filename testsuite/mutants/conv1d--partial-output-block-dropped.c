// kcc-mutant: ref=conv1d.c expect=unwritten
// why: the number of 256-output blocks is rounded down, so the tail of each channel (all of it when N < 256) is never written.
/*
 * conv1d.fast.c — 1-D convolution (cross-correlation, "valid" padding) of CH
 * independent channels: y[c][i] = sum_{k<K} x[c][i+k] * w[c][k] for
 * 0 <= i < N, where each input channel holds N+K-1 samples.
 * Faster: the loops are interchanged so the inner loop runs over 256
 * consecutive outputs with unit stride (vectorizable), accumulating into a
 * block of registers/L1 while each tap w[k] is broadcast; blocks of outputs
 * are spread over OpenMP threads. Each output still sums taps in k order.
 */
#include <stdint.h>

#pragma kcc entry conv1d
#pragma kcc param x in f32[CH*(N+K-1)]
#pragma kcc param w in f32[CH*K]
#pragma kcc param y out f32[CH*N]
#pragma kcc shape check CH=3 N=101 K=7; CH=1 N=256 K=16; CH=2 N=37 K=1; CH=4 N=5 K=33
#pragma kcc shape bench CH=4 N=262144 K=31
#pragma kcc flops 2*CH*N*K
#pragma kcc bytes 4*(CH*(N+K-1)+CH*K+CH*N)

#define OB 256

void conv1d(const float *restrict x, const float *restrict w, float *restrict y,
            int CH, int N, int K)
{
	const int L = N + K - 1;
	const int nblk = N / OB;
	#pragma omp parallel for schedule(static)
	for (int t = 0; t < CH * nblk; t++) {
		const int c = t / nblk;
		const int i0 = (t % nblk) * OB;
		const int n = N - i0 < OB ? N - i0 : OB;
		const float *restrict xc = x + (int64_t)c * L + i0;
		const float *restrict wc = w + (int64_t)c * K;
		float acc[OB];
		for (int i = 0; i < n; i++)
			acc[i] = 0.0f;
		for (int k = 0; k < K; k++) {
			const float wk = wc[k];
			for (int i = 0; i < n; i++)
				acc[i] += xc[i + k] * wk;
		}
		float *restrict yc = y + (int64_t)c * N + i0;
		for (int i = 0; i < n; i++)
			yc[i] = acc[i];
	}
}
