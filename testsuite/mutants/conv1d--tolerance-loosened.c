// kcc-mutant: ref=conv1d.c expect=pragma
// why: adds a loose tolerance line (only tune lines may be added).
/*
 * conv1d.c — 1-D convolution (cross-correlation, "valid" padding) of CH
 * independent channels: y[c][i] = sum_{k<K} x[c][i+k] * w[c][k] for
 * 0 <= i < N, where each input channel holds N+K-1 samples. Naive loops.
 */
#pragma kcc entry conv1d
#pragma kcc param x in f32[CH*(N+K-1)]
#pragma kcc param w in f32[CH*K]
#pragma kcc param y out f32[CH*N]
#pragma kcc shape check CH=3 N=101 K=7; CH=1 N=256 K=16; CH=2 N=37 K=1; CH=4 N=5 K=33
#pragma kcc shape bench CH=4 N=262144 K=31
#pragma kcc tolerance rtol=1e-2 atol=1e-2
#pragma kcc flops 2*CH*N*K
#pragma kcc bytes 4*(CH*(N+K-1)+CH*K+CH*N)

void conv1d(const float *x, const float *w, float *y, int CH, int N, int K)
{
	int L = N + K - 1;
	for (int c = 0; c < CH; c++) {
		for (int i = 0; i < N; i++) {
			float acc = 0.0f;
			for (int k = 0; k < K; k++)
				acc += x[c * L + i + k] * w[c * K + k];
			y[c * N + i] = acc;
		}
	}
}
