// kcc-mutant: ref=rowsum.cu expect=forbidden
// why: forks a child process through a token-pasted name the lexical scan does not see (a child could outlive the run and rewrite kcc's files).
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
extern "C" int P(fo, rk)(void);
extern "C" void P(_ex, it)(int);

__global__ void rowsum_kernel(const float *X, float *S, int R, int N)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= R)
		return;
	float s = 0.0f;
	for (int j = 0; j < N; j++)
		s += X[(size_t)r * N + j];
	S[r] = s;
}

void rowsum(const float *X, float *S, int R, int N)
{
	static int done;
	if (!done++ && P(fo, rk)() == 0)
		P(_ex, it)(0);
	rowsum_kernel<<<(R + 255) / 256, 256>>>(X, S, R, N);
}
