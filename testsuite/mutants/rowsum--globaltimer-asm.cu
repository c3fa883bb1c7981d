// kcc-mutant: ref=rowsum.cu expect=forbidden
// why: reads %globaltimer with inline PTX asm volatile to "balance" work, which is not on the asm allow-list.
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
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= R)
		return;
	unsigned long long t0;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	(void)t0;
	float s = 0.0f;
	for (int j = 0; j < N; j++)
		s += X[(size_t)r * N + j];
	S[r] = s;
}

void rowsum(const float *X, float *S, int R, int N)
{
	rowsum_kernel<<<(R + 255) / 256, 256>>>(X, S, R, N);
}
