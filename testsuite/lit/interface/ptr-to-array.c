// Pointers to arrays (T (*a)[m]) and constant dimensions: the extent must
// be a whole number of rows; a constant dimension is checked too.
// RUN: %kcc -O0 %s -o %t.c && diff %s %t.c
// RUN: sed 's/f32\[n\*m\]/f32[n*m+1]/' %s > %t-rows.c
// RUN: %exit 1 %kcc -O0 %t-rows.c -o %t.out 2>&1 | FileCheck --check-prefix=ROWS %s
// ROWS: -rows.c:13:29: error: the extent of 'a' is 92 at this shape, not a whole number of rows of 13 elements as declared 'const float (*)[m]'
// RUN: sed 's/f32\[8\*n\]/f32[7*n]/' %s > %t-const.c
// RUN: %exit 1 %kcc -O0 %t-const.c -o %t.out 2>&1 | FileCheck --check-prefix=CONST %s
// CONST: -const.c:15:29: error: the extent of 't' is 49 at this shape, but its declaration 'float[n][8]' has 7*8 = 56 elements
// RUN: %kcc --check %s %s | FileCheck --check-prefix=OK %s
// OK: kcc: check: equivalent
#pragma kcc entry rows
#pragma kcc param a in  f32[n*m]
#pragma kcc param s out f32[n]
#pragma kcc param t out f32[8*n]
#pragma kcc shape check n=7 m=13; n=31 m=64
#pragma kcc shape bench n=1000 m=1000

void rows(int n, int m, const float (*a)[m], float *s, float t[n][8])
{
	for (int i = 0; i < n; i++) {
		float acc = 0;
		for (int j = 0; j < m; j++)
			acc += a[i][j];
		s[i] = acc;
		for (int k = 0; k < 8; k++)
			t[i][k] = acc * (float)k;
	}
}
