/* bicg: s = A^T r, q = A p. */
// EXPECT: #pragma kcc entry kernel_bicg
// EXPECT: #pragma kcc param A in f64[n*m]
// EXPECT: #pragma kcc param s out f64[m]
// EXPECT: #pragma kcc param q out f64[n]
// EXPECT: #pragma kcc param p in f64[m]
// EXPECT: #pragma kcc param r in f64[n]
// EXPECT: #pragma kcc flops 4*m*n
void kernel_bicg(int m, int n, const double A[n][m], double s[m], double q[n],
                 const double p[m], const double r[n])
{
	for (int i = 0; i < m; i++)
		s[i] = 0;
	for (int i = 0; i < n; i++) {
		q[i] = 0.0;
		for (int j = 0; j < m; j++) {
			s[j] = s[j] + r[i] * A[i][j];
			q[i] = q[i] + A[i][j] * p[j];
		}
	}
}
