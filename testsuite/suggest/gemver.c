/* gemver: rank-2 update of A, then two matrix-vector products. */
// EXPECT: #pragma kcc entry kernel_gemver
// EXPECT: #pragma kcc param A inout f64[n*n]
// EXPECT: #pragma kcc param u1 in f64[n]
// EXPECT: #pragma kcc param v1 in f64[n]
// EXPECT: #pragma kcc param u2 in f64[n]
// EXPECT: #pragma kcc param v2 in f64[n]
// EXPECT: #pragma kcc param w inout f64[n]
// EXPECT: #pragma kcc param x inout f64[n]
// EXPECT: #pragma kcc param y in f64[n]
// EXPECT: #pragma kcc param z in f64[n]
// EXPECT: #pragma kcc flops 4*n*n + 3*n*n + n + 3*n*n
void kernel_gemver(int n, double alpha, double beta, double A[n][n], const double u1[n],
                   const double v1[n], const double u2[n], const double v2[n], double w[n],
                   double x[n], const double y[n], const double z[n])
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			x[i] = x[i] + beta * A[j][i] * y[j];
	for (int i = 0; i < n; i++)
		x[i] = x[i] + z[i];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			w[i] = w[i] + alpha * A[i][j] * x[j];
}
