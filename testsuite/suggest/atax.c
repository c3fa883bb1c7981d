/* atax: y = A^T (A x), with pointers and explicit row strides. */
// EXPECT: #pragma kcc entry atax
// EXPECT: #pragma kcc param A in f32[m*n]
// EXPECT: #pragma kcc param x in f32[n]
// EXPECT: #pragma kcc param y out f32[n]
// EXPECT: #pragma kcc param tmp out f32[m]
// EXPECT: #pragma kcc flops 4*m*n
void atax(int m, int n, const float *A, const float *x, float *y, float *tmp)
{
	for (int i = 0; i < n; i++)
		y[i] = 0;
	for (int i = 0; i < m; i++) {
		tmp[i] = 0.0f;
		for (int j = 0; j < n; j++)
			tmp[i] = tmp[i] + A[i * n + j] * x[j];
		for (int j = 0; j < n; j++)
			y[j] = y[j] + A[i * n + j] * tmp[i];
	}
}
