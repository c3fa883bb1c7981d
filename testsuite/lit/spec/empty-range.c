// Spec error: a range that is empty at one of the shapes.
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// CHECK: empty-range.c:[[@LINE+3]]:33: error: empty range [0, 0) for 'idx'
// CHECK: note: range(LO,HI) includes LO and excludes HI
#pragma kcc entry gather
#pragma kcc param idx in i32[B] range(0,NROWS-13)
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
