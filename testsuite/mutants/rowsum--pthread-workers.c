// kcc-mutant: ref=rowsum.c expect=forbidden
// why: spawns pthreads to split the rows.
/*
 * rowsum.c — row reduction: S[r] = sum_j X[r][j] for an R x N matrix
 * (row-major). Naive: one running float sum per row.
 */
#pragma kcc entry rowsum
#pragma kcc param X in f32[R*N]
#pragma kcc param S out f32[R]
#pragma kcc shape check R=37 N=101; R=64 N=64; R=5 N=4099
#pragma kcc shape bench R=4096 N=2048
#pragma kcc flops R*N
#pragma kcc bytes 4*(R*N+R)

#include <pthread.h>

struct job { const float *X; float *S; int r0, r1, N; };

static void *work(void *p)
{
	struct job *jb = p;
	for (int r = jb->r0; r < jb->r1; r++) {
		float s = 0.0f;
		for (int j = 0; j < jb->N; j++)
			s += jb->X[r * jb->N + j];
		jb->S[r] = s;
	}
	return 0;
}

void rowsum(const float *X, float *S, int R, int N)
{
	pthread_t th[4];
	struct job jb[4];
	for (int t = 0; t < 4; t++) {
		jb[t] = (struct job){X, S, R * t / 4, R * (t + 1) / 4, N};
		pthread_create(&th[t], 0, work, &jb[t]);
	}
	for (int t = 0; t < 4; t++)
		pthread_join(th[t], 0);
}
