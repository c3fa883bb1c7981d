/* syr2k: the lower triangle of C = alpha*(A B^T + B A^T) + beta*C. */
// EXPECT: #pragma kcc entry kernel_syr2k
// EXPECT: #pragma kcc param C inout f64[n*n]
// EXPECT: #pragma kcc param A in f64[n*m]
// EXPECT: #pragma kcc param B in f64[n*m]
// EXPECT: #pragma kcc flops n*n + 6*m*n*n
void kernel_syr2k(int n, int m, double alpha, double beta, double C[n][n], double A[n][m],
                  double B[n][m])
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j <= i; j++)
			C[i][j] *= beta;
		for (int k = 0; k < m; k++)
			for (int j = 0; j <= i; j++)
				C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
	}
}
