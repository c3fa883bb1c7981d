// kcc-mutant: ref=stencil2d.cu expect=wrong
// why: the first-column parity is inverted, so the "red" launch updates black points and vice versa.
/*
 * stencil2d.fast.cu — one red-black Gauss-Seidel sweep of the 2-D Poisson
 * 5-point stencil, in place on the grid U (NY x NX, row-major):
 * first every interior point with (i+j) even ("red"), then every interior
 * point with (i+j) odd ("black"), each set to
 *     U[i][j] = 0.25 * (U[i-1][j] + U[i+1][j] + U[i][j-1] + U[i][j+1] - F[i][j]).
 * Boundary rows and columns are left unchanged.
 * Faster: per colour, only threads for points of that colour are launched
 * (thread jj of row i handles column j = first(i) + 2*jj), so no warp slot
 * is wasted on the other colour; each block covers 4 rows x 64 points of
 * the colour, so the neighbour rows it reads are shared in L1/L2, and the
 * read-only F goes through the non-coherent cache.
 */
#include <cuda_runtime.h>

#pragma kcc entry stencil2d
#pragma kcc param U inout f32[NY*NX]
#pragma kcc param F in f32[NY*NX]
#pragma kcc shape check NY=37 NX=53; NY=64 NX=64; NY=3 NX=130; NY=101 NX=4
#pragma kcc shape bench NY=8192 NX=8192
#pragma kcc flops 5*NY*NX
#pragma kcc bytes 4*3*NY*NX

#define BX 64
#define BY 4

__global__ void __launch_bounds__(BX * BY)
rb_colour(float *U, const float *__restrict__ F, int NY, int NX, int color)
{
	const int i = 1 + blockIdx.y * BY + threadIdx.y;
	const int jj = blockIdx.x * BX + threadIdx.x;
	if (i >= NY - 1)
		return;
	const int j = 1 + ((i + color) & 1) + 2 * jj; /* (i + j) % 2 == color */
	if (j >= NX - 1)
		return;
	const size_t p = (size_t)i * NX + j;
	U[p] = 0.25f * (U[p - NX] + U[p + NX] + U[p - 1] + U[p + 1] - __ldg(F + p));
}

void stencil2d(float *U, const float *F, int NY, int NX)
{
	if (NY < 3 || NX < 3)
		return; /* no interior points */
	const int per_row = (NX - 2 + 1) / 2; /* points of one colour per row, at most */
	dim3 block(BX, BY);
	dim3 grid((per_row + BX - 1) / BX, (NY - 2 + BY - 1) / BY);
	rb_colour<<<grid, block>>>(U, F, NY, NX, 0);
	rb_colour<<<grid, block>>>(U, F, NY, NX, 1);
}
