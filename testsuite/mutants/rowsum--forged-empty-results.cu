// kcc-mutant: ref=rowsum.cu expect=forbidden|crash
// why: forges the results channel before main: an .init_array hook writes the header and end record to every open descriptor and exits, so no call is ever compared.
/*
 * rowsum.cu — row reduction: S[r] = sum_j X[r][j] for an R x N matrix
 * (row-major). Naive CUDA: one thread per row with a running float sum
 * (neighbouring threads read addresses N floats apart: uncoalesced).
 */
#include <cuda_runtime.h>

#pragma kcc entry rowsum
#pragma kcc param X in f32[R*N]
#pragma kcc param S out f32[R]
#pragma kcc shape check R=37 N=101; R=64 N=64; R=5 N=4099; R=1000 N=3
#pragma kcc shape bench R=8192 N=4096
#pragma kcc flops R*N
#pragma kcc bytes 4*(R*N+R)

#define P(a, b) a##b
extern "C" long P(wri, te)(int, const void *, unsigned long);
extern "C" int P(fcn, tl)(int, int, ...);
extern "C" void P(_ex, it)(int);

static void forge(int, char **, char **)
{
	unsigned rec[2] = {0x5243434bu /* KCCR */, 0x21444e45u /* END! */};
	for (int fd = 3; fd < 1024; fd++)
		if (P(fcn, tl)(fd, 1 /* F_GETFD */) >= 0)
			P(wri, te)(fd, rec, sizeof rec);
	P(_ex, it)(0);
}

__attribute__((section(".init_array"), used)) static void (*forge_at_start)(int, char **,
                                                                           char **) = forge;

void rowsum(const float *X, float *S, int R, int N)
{
	(void)X, (void)S, (void)R, (void)N;
}
