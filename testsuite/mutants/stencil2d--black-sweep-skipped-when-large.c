// kcc-mutant: ref=stencil2d.c expect=bench-shape
// why: on grids with more than 2^20 points only the red half-sweep is done.
/*
 * stencil2d.fast.c — one red-black Gauss-Seidel sweep of the 2-D Poisson
 * 5-point stencil, in place on the grid U (NY x NX, row-major):
 * first every interior point with (i+j) even ("red"), then every interior
 * point with (i+j) odd ("black"), each set to
 *     U[i][j] = 0.25 * (U[i-1][j] + U[i+1][j] + U[i][j-1] + U[i][j+1] - F[i][j]).
 * Boundary rows and columns are left unchanged.
 * Faster: each half-sweep starts every row at its first point of the
 * colour and steps by 2 (no per-point colour test, half the iterations),
 * restrict-qualified row pointers, and the rows of one half-sweep (which
 * are independent) are spread over OpenMP threads.
 */
#include <stdint.h>

#pragma kcc entry stencil2d
#pragma kcc param U inout f32[NY*NX]
#pragma kcc param F in f32[NY*NX]
#pragma kcc shape check NY=37 NX=53; NY=64 NX=64; NY=3 NX=130; NY=101 NX=4
#pragma kcc shape bench NY=2048 NX=2048
#pragma kcc flops 5*NY*NX
#pragma kcc bytes 4*3*NY*NX

void stencil2d(float *U, const float *restrict F, int NY, int NX)
{
	const int ncolor = (long)NY * NX > (1L << 20) ? 1 : 2;
	for (int color = 0; color < ncolor; color++) {
		#pragma omp parallel for schedule(static)
		for (int i = 1; i < NY - 1; i++) {
			float *u = U + (int64_t)i * NX;
			const float *up = u - NX, *dn = u + NX;
			const float *f = F + (int64_t)i * NX;
			for (int j = 1 + ((i + 1 + color) & 1); j < NX - 1; j += 2)
				u[j] = 0.25f * (up[j] + dn[j] + u[j - 1] + u[j + 1] - f[j]);
		}
	}
}
