/* mvt: x1 += A y1, x2 += A^T y2. */
// EXPECT: #pragma kcc entry kernel_mvt
// EXPECT: #pragma kcc param x1 inout f64[n]
// EXPECT: #pragma kcc param x2 inout f64[n]
// EXPECT: #pragma kcc param y_1 in f64[n]
// EXPECT: #pragma kcc param y_2 in f64[n]
// EXPECT: #pragma kcc param A in f64[n*n]
// EXPECT: #pragma kcc flops 4*n*n
void kernel_mvt(int n, double *x1, double *x2, const double *y_1, const double *y_2,
                const double *A)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			x1[i] = x1[i] + A[i * n + j] * y_1[j];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			x2[i] = x2[i] + A[j * n + i] * y_2[j];
}
