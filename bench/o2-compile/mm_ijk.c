/*
 * mm_ijk.c — matrix multiply in the textbook i-j-k order (B walked down its
 * columns), PolyBench style with VLA parameters.
 */
#pragma kcc entry mm_ijk
#pragma kcc param C out f64[ni*nj]
#pragma kcc param A in  f64[ni*nk]
#pragma kcc param B in  f64[nk*nj]
#pragma kcc shape check ni=37 nj=41 nk=29; ni=64 nj=64 nk=64
#pragma kcc shape bench ni=512 nj=512 nk=512
#pragma kcc flops 2*ni*nj*nk

void mm_ijk(int ni, int nj, int nk, double C[ni][nj], const double A[ni][nk],
            const double B[nk][nj])
{
	for (int i = 0; i < ni; i++)
		for (int j = 0; j < nj; j++) {
			double s = 0.0;
			for (int k = 0; k < nk; k++)
				s += A[i][k] * B[k][j];
			C[i][j] = s;
		}
}
