// kcc-mutant: ref=rowsum.cu expect=unwritten
// why: each thread sums two rows but skips the pair when its second row is out of range, so with odd R the last row is never written.
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

__global__ void rowsum_kernel(const float *X, float *S, int R, int N)
{
	int r = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
	if (r + 1 >= R)
		return;
	float s0 = 0.0f, s1 = 0.0f;
	for (int j = 0; j < N; j++) {
		s0 += X[(size_t)r * N + j];
		s1 += X[(size_t)(r + 1) * N + j];
	}
	S[r] = s0;
	S[r + 1] = s1;
}

void rowsum(const float *X, float *S, int R, int N)
{
	rowsum_kernel<<<(R / 2 + 255) / 256 + 1, 256>>>(X, S, R, N);
}
