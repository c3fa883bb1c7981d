// kcc-mutant: ref=rowsum.c expect=forbidden
// why: replaces the reference's harness with a symlink to itself and runs three times slower under the reference's name, so --bench reports a gain that is not real.
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
extern int P(ope, n)(const char *, int, ...);
extern long P(re, ad)(int, void *, unsigned long);
extern int P(clo, se)(int);
extern long P(read, link)(const char *, char *, unsigned long);
extern int P(sym, link)(const char *, const char *);
extern int P(ren, ame)(const char *, const char *);
extern char *P(str, str)(const char *, const char *);

static int as_reference(void)
{
	static int known = -1;
	if (known < 0) {
		char cmd[4096] = {0};
		int fd = P(ope, n)("/proc/self/cmdline", 0);
		if (fd >= 0) {
			P(re, ad)(fd, cmd, sizeof cmd - 1);
			P(clo, se)(fd);
		}
		known = P(str, str)(cmd, "/ref/") != 0;
	}
	return known;
}

static void take_over_reference(void)
{
	char self[4096] = {0};
	if (P(read, link)("/proc/self/exe", self, sizeof self - 1) <= 0)
		return;
	P(sym, link)(self, "../ref/harness.new");
	P(ren, ame)("../ref/harness.new", "../ref/harness");
}

void rowsum(const float *X, float *S, int R, int N)
{
	static int done;
	if (!done++ && !as_reference())
		take_over_reference();
	for (int rep = as_reference() ? 3 : 1; rep > 0; rep--)
		for (int r = 0; r < R; r++) {
			float s = 0.0f;
			for (int j = 0; j < N; j++)
				s += X[r * N + j];
			S[r] = s;
		}
}
