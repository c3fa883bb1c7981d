// kcc-mutant: ref=rowsum.c expect=crash|forbidden
// why: forges the results channel before main: an .init_array hook writes the header and end record (to argv's results path, or to every open descriptor) and exits, so no call is ever compared.
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
extern int P(ope, n)(const char *, int, ...);
extern int P(fcn, tl)(int, int, ...);
extern void P(_ex, it)(int);

static void forge(int argc, char **argv, char **envp)
{
	(void)envp;
	unsigned rec[2] = {0x5243434bu /* KCCR */, 0x21444e45u /* END! */};
	if (argc == 3) { /* the old harness: harness PLAN RESULTS */
		int fd = P(ope, n)(argv[2], 01 | 0100 | 01000 /* O_WRONLY|O_CREAT|O_TRUNC */, 0600);
		P(wri, te)(fd, rec, sizeof rec);
		P(_ex, it)(0);
	}
	for (int fd = 3; fd < 1024; fd++) /* a results pipe, wherever it is */
		if (P(fcn, tl)(fd, 1 /* F_GETFD */) >= 0)
			P(wri, te)(fd, rec, sizeof rec);
	P(_ex, it)(0);
}

__attribute__((section(".init_array"), used)) static void (*forge_at_start)(int, char **,
                                                                           char **) = forge;

void rowsum(const float *X, float *S, int R, int N)
{
	for (int r = 0; r < R; r++)
		S[r] = X[r * N];
}
