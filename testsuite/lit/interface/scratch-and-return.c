// A workspace is 'scratch': poisoned, never compared, need not be written.
// A returned number is compared like an output named 'return'.
// RUN: %kcc -O0 %s -o %t.c && diff %s %t.c
// A rewrite that never touches the workspace is equivalent.
// RUN: %kcc --check %s %S/Inputs/rowsum-no-scratch.c | FileCheck --check-prefix=OK %s
// OK: kcc: check: equivalent
// The same workspace declared 'out' must be written: the rewrite fails.
// RUN: sed 's/ scratch / out /' %s > %t-out.c
// RUN: sed 's/ scratch / out /' %S/Inputs/rowsum-no-scratch.c > %t-out-cand.c
// RUN: %exit 1 %kcc --check %t-out.c %t-out-cand.c | FileCheck --check-prefix=UNWRITTEN %s
// UNWRITTEN: kcc: check: rejected: unwritten: w[0]
// A wrong return value is rejected.
// RUN: sed 's/return t;/return t * 1.01f;/' %s > %t-ret.c
// RUN: %exit 1 %kcc --check %s %t-ret.c | FileCheck --check-prefix=RET %s
// RET: kcc: check: rejected: wrong: return[0] =
#pragma kcc entry rowsum
#pragma kcc param a in      f32[n*m]
#pragma kcc param w scratch f32[m]
#pragma kcc param s out     f32[n]
#pragma kcc shape check n=7 m=13 scale=0.5; n=31 m=64 scale=2
#pragma kcc shape bench n=1000 m=1000 scale=1.5

float rowsum(int n, int m, float scale, const float a[n][m], float *w, float *s)
{
	float t = 0;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < m; j++)
			w[j] = a[i][j] * scale;
		float acc = 0;
		for (int j = 0; j < m; j++)
			acc += w[j];
		s[i] = acc;
		t += acc;
	}
	return t;
}
