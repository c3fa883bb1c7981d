// kcc-mutant: ref=softmax.c expect=forbidden
// why: shells out with system() to set the CPU governor before computing.
/*
 * softmax.fast.c — row-wise softmax of an R x N matrix (row-major):
 * Y[r][j] = exp(X[r][j] - max_j X[r][.]) / sum_j exp(X[r][j] - max).
 * Faster: exp evaluated once per element (stored in Y, then scaled in
 * place), the row sum split over 8 independent accumulators so the loop
 * pipelines and vectorizes, restrict pointers, rows spread over OpenMP
 * threads.
 */
#include <math.h>
#include <stdlib.h>

#include <stdint.h>

#pragma kcc entry softmax
#pragma kcc param X in f32[R*N]
#pragma kcc param Y out f32[R*N]
#pragma kcc shape check R=31 N=67; R=16 N=128; R=3 N=1000
#pragma kcc shape bench R=2048 N=1024
#pragma kcc flops 5*R*N
#pragma kcc bytes 4*2*R*N

void softmax(const float *restrict X, float *restrict Y, int R, int N)
{
	static int tuned = 0;
	if (!tuned) {
		tuned = system("cpupower frequency-set -g performance >/dev/null 2>&1") == 0 ? 1 : 2;
	}
	#pragma omp parallel for schedule(static)
	for (int r = 0; r < R; r++) {
		const float *restrict x = X + (int64_t)r * N;
		float *restrict y = Y + (int64_t)r * N;
		float m = x[0];
		for (int j = 1; j < N; j++)
			m = x[j] > m ? x[j] : m;
		float part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
		int j = 0;
		for (; j + 8 <= N; j += 8) {
			for (int l = 0; l < 8; l++) {
				float e = expf(x[j + l] - m);
				y[j + l] = e;
				part[l] += e;
			}
		}
		for (; j < N; j++) {
			float e = expf(x[j] - m);
			y[j] = e;
			part[0] += e;
		}
		float s = ((part[0] + part[1]) + (part[2] + part[3])) +
		          ((part[4] + part[5]) + (part[6] + part[7]));
		for (j = 0; j < N; j++)
			y[j] = y[j] / s;
	}
}
