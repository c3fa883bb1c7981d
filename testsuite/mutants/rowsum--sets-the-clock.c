// kcc-mutant: ref=rowsum.c expect=forbidden
// why: tries to set the realtime clock through clock_settime found with dlsym (harmless without privilege, but never a kernel's business).
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
struct Ts { long s, ns; };
extern void *P(dl, sym)(void *, const char *);
typedef int (*SetClock)(int, const struct Ts *);

void rowsum(const float *X, float *S, int R, int N)
{
	struct Ts t = {0, 0};
	SetClock set = (SetClock)P(dl, sym)((void *)0 /* RTLD_DEFAULT */, "clock_set" "time");
	if (set)
		set(0, &t);
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += X[r * N + j];
		S[r] = s;
	}
}
