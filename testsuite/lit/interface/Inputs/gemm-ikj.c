// A correct rewrite of polybench-gemm.c: loops in i-k-j order.
#pragma kcc entry kernel_gemm
#pragma kcc param C inout f64[ni*nj]
#pragma kcc param A in    f64[ni*nk]
#pragma kcc param B in    f64[nk*nj]
#pragma kcc shape check ni=37 nj=41 nk=29 alpha=1.5 beta=-0.5; ni=16 nj=16 nk=16 alpha=-2 beta=0.25
#pragma kcc shape bench ni=160 nj=160 nk=160 alpha=1.5 beta=1.2
#pragma kcc flops 2*ni*nj*nk + ni*nj

void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,
                 double C[ni][nj], double A[ni][nk], double B[nk][nj])
{
	for (int i = 0; i < ni; i++) {
		double *restrict c = C[i];
		for (int j = 0; j < nj; j++)
			c[j] *= beta;
		for (int k = 0; k < nk; k++) {
			double a = alpha * A[i][k];
			for (int j = 0; j < nj; j++)
				c[j] += a * B[k][j];
		}
	}
}
