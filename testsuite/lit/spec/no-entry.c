// Spec error: a file with no spec at all points the user to --suggest-spec.
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// CHECK: no-entry.c: error: no '#pragma kcc entry' in this file
// CHECK: note: kcc needs a spec; 'kcc --suggest-spec {{.*}}no-entry.c' prints one to start from

void scale(const float *x, float *y, int N)
{
	for (int i = 0; i < N; i++)
		y[i] = 2.0f * x[i];
}
