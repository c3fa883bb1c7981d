// kcc-mutant: ref=stencil2d.cu expect=escaped|sanitizer
// why: the black half-sweep is put on a second stream that waits for the red one but is never joined back to stream 0.
// on the H100 (2026-11-24) compute-sanitizer reported it before the timed runs could call it escaped: either reason rejects the unjoined stream.
/*
 * stencil2d.cu — one red-black Gauss-Seidel sweep of the 2-D Poisson
 * 5-point stencil, in place on the grid U (NY x NX, row-major):
 * first every interior point with (i+j) even ("red"), then every interior
 * point with (i+j) odd ("black"), each set to
 *     U[i][j] = 0.25 * (U[i-1][j] + U[i+1][j] + U[i][j-1] + U[i][j+1] - F[i][j]).
 * A point's four neighbours all have the other colour, so each half-sweep
 * is order-independent and the result is well defined. Boundary rows and
 * columns are left unchanged.
 * Naive CUDA: one launch per colour, one thread per grid point; threads of
 * the other colour (and the boundary) return at once.
 */
#include <cuda_runtime.h>

#pragma kcc entry stencil2d
#pragma kcc param U inout f32[NY*NX]
#pragma kcc param F in f32[NY*NX]
#pragma kcc shape check NY=37 NX=53; NY=64 NX=64; NY=3 NX=130; NY=101 NX=4
#pragma kcc shape bench NY=8192 NX=8192
#pragma kcc flops 5*NY*NX
#pragma kcc bytes 4*3*NY*NX

__global__ void rb_kernel(float *U, const float *F, int NY, int NX, int color)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i < 1 || i >= NY - 1 || j < 1 || j >= NX - 1)
		return;
	if ((i + j) % 2 != color)
		return;
	size_t p = (size_t)i * NX + j;
	U[p] = 0.25f * (U[p - NX] + U[p + NX] + U[p - 1] + U[p + 1] - F[p]);
}

void stencil2d(float *U, const float *F, int NY, int NX)
{
	dim3 block(32, 8);
	dim3 grid((NX + 31) / 32, (NY + 7) / 8);
	static cudaStream_t s2 = 0;
	static cudaEvent_t red_done;
	if (!s2) {
		cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
		cudaEventCreateWithFlags(&red_done, cudaEventDisableTiming);
	}
	rb_kernel<<<grid, block>>>(U, F, NY, NX, 0);
	cudaEventRecord(red_done, 0);
	cudaStreamWaitEvent(s2, red_done, 0);
	rb_kernel<<<grid, block, 0, s2>>>(U, F, NY, NX, 1);
}
