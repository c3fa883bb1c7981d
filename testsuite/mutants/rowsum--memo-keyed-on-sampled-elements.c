// kcc-mutant: ref=rowsum.c expect=stateful
// why: remembers its last answer under a key of three sampled input elements and the sizes: inputs that differ elsewhere get the stale sums (A, B and A' change every element, so only a perturbation call shows it).
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

static float memo_key[5];
static float memo_sums[1 << 16];
static int memo_valid;

void rowsum(const float *X, float *S, int R, int N)
{
	long n = (long)R * N;
	float key[5] = {X[0], X[n / 2], X[n - 1], (float)R, (float)N};
	if (memo_valid && R <= (1 << 16) && !__builtin_memcmp(key, memo_key, sizeof key)) {
		for (int r = 0; r < R; r++)
			S[r] = memo_sums[r];
		return;
	}
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += X[r * N + j];
		S[r] = s;
	}
	if (R <= (1 << 16)) {
		for (int r = 0; r < R; r++)
			memo_sums[r] = S[r];
		__builtin_memcpy(memo_key, key, sizeof key);
		memo_valid = 1;
	}
}
