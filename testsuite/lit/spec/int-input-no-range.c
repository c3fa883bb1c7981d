// Spec error: an integer input without a range. kcc cannot fill an index
// array with values it does not know are valid.
// RUN: rm -f %t.out
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// RUN: test ! -e %t.out
// CHECK: int-input-no-range.c:[[@LINE+3]]:19: error: integer input 'idx' needs a range
// CHECK: note: say which values are valid, e.g. '#pragma kcc param idx in i32[...] range(0,N)'
#pragma kcc entry gather
#pragma kcc param idx in i32[B]
#pragma kcc param table in f32[NROWS*D]
#pragma kcc param out out f32[B*D]
#pragma kcc shape check B=7 NROWS=13 D=5
#pragma kcc shape bench B=1024 NROWS=4096 D=64

void gather(const int *idx, const float *table, float *out, int B, int NROWS, int D)
{
	for (int b = 0; b < B; b++)
		for (int d = 0; d < D; d++)
			out[b * D + d] = table[idx[b] * D + d];
}
