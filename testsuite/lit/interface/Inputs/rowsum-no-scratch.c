// rowsum without its workspace.
#pragma kcc entry rowsum
#pragma kcc param a in      f32[n*m]
#pragma kcc param w scratch f32[m]
#pragma kcc param s out     f32[n]
#pragma kcc shape check n=7 m=13 scale=0.5; n=31 m=64 scale=2
#pragma kcc shape bench n=1000 m=1000 scale=1.5

float rowsum(int n, int m, float scale, const float a[n][m], float *w, float *s)
{
	(void)w;
	float t = 0;
	for (int i = 0; i < n; i++) {
		float acc = 0;
		for (int j = 0; j < m; j++)
			acc += a[i][j] * scale;
		s[i] = acc;
		t += acc;
	}
	return t;
}
