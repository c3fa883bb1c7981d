/* gesummv: y = alpha*A*x + beta*B*x. */
// EXPECT: #pragma kcc entry kernel_gesummv
// EXPECT: #pragma kcc param A in f32[n*n]
// EXPECT: #pragma kcc param B in f32[n*n]
// EXPECT: #pragma kcc param tmp out f32[n]
// EXPECT: #pragma kcc param x in f32[n]
// EXPECT: #pragma kcc param y out f32[n]
// EXPECT: #pragma kcc flops 4*n*n + 3*n
void kernel_gesummv(int n, float alpha, float beta, const float A[n][n], const float B[n][n],
                    float tmp[n], const float x[n], float y[n])
{
	for (int i = 0; i < n; i++) {
		tmp[i] = 0.0f;
		y[i] = 0.0f;
		for (int j = 0; j < n; j++) {
			tmp[i] = A[i][j] * x[j] + tmp[i];
			y[i] = B[i][j] * x[j] + y[i];
		}
		y[i] = alpha * tmp[i] + beta * y[i];
	}
}
