/* jacobi-1d: two buffers, time steps, edges kept. */
// EXPECT: #pragma kcc entry kernel_jacobi_1d
// EXPECT: #pragma kcc param A inout f64[n]
// EXPECT: #pragma kcc param B inout f64[n]
// EXPECT: #pragma kcc flops 6*n*tsteps
void kernel_jacobi_1d(int tsteps, int n, double A[n], double B[n])
{
	for (int t = 0; t < tsteps; t++) {
		for (int i = 1; i < n - 1; i++)
			B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
		for (int i = 1; i < n - 1; i++)
			A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
	}
}
