/*
 * gemm.c — PolyBench's gemm loop order (i-k-j) with VLA parameters and
 * double scalars, as users write it: no restrict, so at kcc's default -O2
 * GCC does not version the inner loop for aliasing and leaves it scalar;
 * -O3 vectorizes it behind a run-time alias check. kcc -O2 finds that
 * without an LLM and writes the flags to OUT.cflags.
 */
#pragma kcc entry kernel_gemm
#pragma kcc param C inout f64[ni*nj]
#pragma kcc param A in    f64[ni*nk]
#pragma kcc param B in    f64[nk*nj]
#pragma kcc shape check ni=37 nj=41 nk=29 alpha=1.5 beta=-0.5; ni=64 nj=64 nk=64 alpha=-2 beta=0.25
#pragma kcc shape bench ni=500 nj=500 nk=500 alpha=1.5 beta=1.2
#pragma kcc flops 3*ni*nj*nk + ni*nj

void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,
                 double C[ni][nj], double A[ni][nk], double B[nk][nj])
{
	for (int i = 0; i < ni; i++) {
		for (int j = 0; j < nj; j++)
			C[i][j] *= beta;
		for (int k = 0; k < nk; k++)
			for (int j = 0; j < nj; j++)
				C[i][j] += alpha * A[i][k] * B[k][j];
	}
}
