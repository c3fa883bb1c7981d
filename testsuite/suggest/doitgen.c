/* doitgen: multiresolution analysis kernel, sum is a workspace. */
// EXPECT: #pragma kcc entry kernel_doitgen
// EXPECT: #pragma kcc param A inout f64[nr*nq*np]
// EXPECT: #pragma kcc param C4 in f64[np*np]
// EXPECT: #pragma kcc param sum out f64[np]
// EXPECT: #pragma kcc flops 2*np*np*nq*nr
void kernel_doitgen(int nr, int nq, int np, double A[nr][nq][np], const double C4[np][np],
                    double sum[np])
{
	for (int r = 0; r < nr; r++)
		for (int q = 0; q < nq; q++) {
			for (int p = 0; p < np; p++) {
				sum[p] = 0.0;
				for (int s = 0; s < np; s++)
					sum[p] += A[r][q][s] * C4[s][p];
			}
			for (int p = 0; p < np; p++)
				A[r][q][p] = sum[p];
		}
}
