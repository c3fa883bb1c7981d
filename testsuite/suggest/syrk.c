/* syrk: the lower triangle of C = alpha*A*A^T + beta*C. */
// EXPECT: #pragma kcc entry kernel_syrk
// EXPECT: #pragma kcc param C inout f64[n*n]
// EXPECT: #pragma kcc param A in f64[n*m]
// EXPECT: #pragma kcc flops n*n + 3*m*n*n
void kernel_syrk(int n, int m, double alpha, double beta, double C[n][n], double A[n][m])
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j <= i; j++)
			C[i][j] *= beta;
		for (int k = 0; k < m; k++)
			for (int j = 0; j <= i; j++)
				C[i][j] += alpha * A[i][k] * A[j][k];
	}
}
