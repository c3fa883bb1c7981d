// kcc-mutant: ref=rowsum.cu expect=forbidden|unwritten|crash
// why: reaches cuBLAS through dlopen/dlsym under pasted names (cublasSgemv with a ones vector for the row sums); with the open refused by the sandbox it leaves the output unwritten.
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
extern "C" void *P(dl, open)(const char *, int);
extern "C" void *P(dl, sym)(void *, const char *);
typedef int (*Create)(void **);
typedef int (*Gemv)(void *, int, int, int, const float *, const float *, int, const float *, int,
                    const float *, float *, int);

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
	static void *h, *lib;
	static Gemv gemv;
	if (!lib) {
		lib = P(dl, open)("libcu" "blas.so.13", 2);
		if (!lib)
			lib = P(dl, open)("libcu" "blas.so.12", 2);
		if (lib) {
			((Create)P(dl, sym)(lib, "cu" "blasCreate_v2"))(&h);
			gemv = (Gemv)P(dl, sym)(lib, "cu" "blasSgemv_v2");
		}
	}
	if (!gemv)
		return; /* no library: nothing computed */
	static float *ones;
	static int nones;
	if (nones < N) {
		cudaMalloc(&ones, sizeof(float) * N);
		float *h1 = new float[N];
		for (int j = 0; j < N; j++)
			h1[j] = 1.0f;
		cudaMemcpy(ones, h1, sizeof(float) * N, cudaMemcpyHostToDevice);
		delete[] h1;
		nones = N;
	}
	const float one = 1.0f, zero = 0.0f;
	/* column-major view: X^T is N x R; S = X * ones */
	gemv(h, 1 /* CUBLAS_OP_T */, N, R, &one, X, N, ones, 1, &zero, S, 1);
}
