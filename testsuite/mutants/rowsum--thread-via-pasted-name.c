// kcc-mutant: ref=rowsum.c expect=forbidden
// why: starts a thread of its own through a pasted pthread_create (work could run on after the entry returns, outside the timing).
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


#define P(a, b) a##b
typedef struct { unsigned long x[8]; } Attr;
extern int P(pthread_, create)(unsigned long *, const Attr *, void *(*)(void *), void *);
extern int P(pthread_, join)(unsigned long, void **);
static void *idle(void *p) { return p; }

void rowsum(const float *X, float *S, int R, int N)
{
	unsigned long t;
	if (P(pthread_, create)(&t, 0, idle, 0) == 0)
		P(pthread_, join)(t, 0);
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += X[r * N + j];
		S[r] = s;
	}
}
