// kcc-mutant: ref=stencil2d.c expect=wrong
// why: does one lexicographic Gauss-Seidel sweep instead of red-black ordering, which gives different values.
/*
 * stencil2d.c — one red-black Gauss-Seidel sweep of the 2-D Poisson
 * 5-point stencil, in place on the grid U (NY x NX, row-major):
 * first every interior point with (i+j) even ("red"), then every interior
 * point with (i+j) odd ("black"), each set to
 *     U[i][j] = 0.25 * (U[i-1][j] + U[i+1][j] + U[i][j-1] + U[i][j+1] - F[i][j]).
 * A point's four neighbours all have the other colour, so each half-sweep
 * is order-independent and the result is well defined. Boundary rows and
 * columns are left unchanged. Naive: every point visited in both
 * half-sweeps, colour tested per point.
 */
#pragma kcc entry stencil2d
#pragma kcc param U inout f32[NY*NX]
#pragma kcc param F in f32[NY*NX]
#pragma kcc shape check NY=37 NX=53; NY=64 NX=64; NY=3 NX=130; NY=101 NX=4
#pragma kcc shape bench NY=2048 NX=2048
#pragma kcc flops 5*NY*NX
#pragma kcc bytes 4*3*NY*NX

void stencil2d(float *U, const float *F, int NY, int NX)
{
	for (int color = 0; color < 1; color++) {
		for (int i = 1; i < NY - 1; i++) {
			for (int j = 1; j < NX - 1; j++) {
				U[i * NX + j] = 0.25f * (U[(i - 1) * NX + j] + U[(i + 1) * NX + j] +
				                         U[i * NX + j - 1] + U[i * NX + j + 1] -
				                         F[i * NX + j]);
			}
		}
	}
}
