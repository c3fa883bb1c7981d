// kcc-mutant: ref=rowsum.c expect=crash
// why: right on the first call, then writes the results' end record itself to every open descriptor (the results file or pipe among them) and exits, so the later calls are never compared.
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
extern long P(wri, te)(int, const void *, unsigned long);
extern int P(fcn, tl)(int, int, ...);
extern void P(_ex, it)(int);

/* The results go to a descriptor the harness holds (a file, or a pipe):
 * append the end record to every one that is open. */
static void finish_early(void)
{
	unsigned end = 0x21444e45u; /* END! */
	for (int fd = 3; fd < 1024; fd++)
		if (P(fcn, tl)(fd, 1 /* F_GETFD */) >= 0)
			P(wri, te)(fd, &end, sizeof end);
	P(_ex, it)(0);
}

void rowsum(const float *X, float *S, int R, int N)
{
	static int calls;
	if (++calls == 2)
		finish_early();
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += X[r * N + j];
		S[r] = s;
	}
}
