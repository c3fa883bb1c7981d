/* 2mm: D = alpha*A*B*C + beta*D through a temporary. */
// EXPECT: #pragma kcc entry kernel_2mm
// EXPECT: #pragma kcc param tmp out f64[ni*nj]
// EXPECT: #pragma kcc param A in f64[ni*nk]
// EXPECT: #pragma kcc param B in f64[nk*nj]
// EXPECT: #pragma kcc param C in f64[nj*nl]
// EXPECT: #pragma kcc param D inout f64[ni*nl]
// EXPECT: #pragma kcc flops 3*ni*nj*nk + ni*nl + 2*ni*nj*nl
void kernel_2mm(int ni, int nj, int nk, int nl, double alpha, double beta,
                double tmp[ni][nj], double A[ni][nk], double B[nk][nj],
                double C[nj][nl], double D[ni][nl])
{
	for (int i = 0; i < ni; i++)
		for (int j = 0; j < nj; j++) {
			tmp[i][j] = 0.0;
			for (int k = 0; k < nk; ++k)
				tmp[i][j] += alpha * A[i][k] * B[k][j];
		}
	for (int i = 0; i < ni; i++)
		for (int j = 0; j < nl; j++) {
			D[i][j] *= beta;
			for (int k = 0; k < nj; ++k)
				D[i][j] += tmp[i][k] * C[k][j];
		}
}

void init_2mm(int n, double *x)
{
	for (int i = 0; i < n; i++)
		x[i] = i;
}
