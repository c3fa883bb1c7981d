/* gemm: C = alpha*A*B + beta*C, as a benchmark suite writes it. */
// EXPECT: #pragma kcc entry kernel_gemm
// EXPECT: #pragma kcc param C inout f64[ni*nj]
// EXPECT: #pragma kcc param A in f64[ni*nk]
// EXPECT: #pragma kcc param B in f64[nk*nj]
// EXPECT: #pragma kcc flops ni*nj + 3*ni*nj*nk
#include <stdio.h>
#include <stdlib.h>

static void init_array(int ni, int nj, int nk, double *alpha, double *beta,
                       double C[ni][nj], double A[ni][nk], double B[nk][nj])
{
	*alpha = 1.5;
	*beta = 1.2;
	for (int i = 0; i < ni; i++)
		for (int j = 0; j < nj; j++)
			C[i][j] = (double)((i * j + 1) % ni) / ni;
	for (int i = 0; i < ni; i++)
		for (int k = 0; k < nk; k++)
			A[i][k] = (double)(i * (k + 1) % nk) / nk;
	for (int k = 0; k < nk; k++)
		for (int j = 0; j < nj; j++)
			B[k][j] = (double)(k * (j + 2) % nj) / nj;
}

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

static void print_array(int ni, int nj, double C[ni][nj])
{
	for (int i = 0; i < ni; i++)
		for (int j = 0; j < nj; j++)
			printf("%0.2lf ", C[i][j]);
}

int main(void)
{
	int ni = 200, nj = 220, nk = 240;
	double alpha, beta;
	double (*C)[nj] = malloc(sizeof(double[ni][nj]));
	double (*A)[nk] = malloc(sizeof(double[ni][nk]));
	double (*B)[nj] = malloc(sizeof(double[nk][nj]));
	init_array(ni, nj, nk, &alpha, &beta, C, A, B);
	kernel_gemm(ni, nj, nk, alpha, beta, C, A, B);
	print_array(ni, nj, C);
	return 0;
}
