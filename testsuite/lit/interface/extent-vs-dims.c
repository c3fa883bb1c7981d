// An extent that disagrees with the declared dimensions is an error at the
// pragma's extent, with the shape and the declaration as notes.
// RUN: %exit 1 %kcc -O0 %s -o %t.out 2>&1 | FileCheck %s
// CHECK: extent-vs-dims.c:9:29: error: the extent of 'C' is 1073 at this shape, but its declaration 'double[ni][nj]' has 37*41 = 1517 elements
// CHECK: note: evaluated at this shape
// CHECK: extent-vs-dims.c:14:20: note: 'C' is declared here
#pragma kcc entry kernel
#pragma kcc param A in  f64[ni*nk]
#pragma kcc param C out f64[ni*nk]
#pragma kcc shape check ni=37 nj=41 nk=29
#pragma kcc shape bench ni=100 nj=100 nk=100

void kernel(int ni, int nj, int nk, const double A[ni][nk],
            double C[ni][nj])
{
	for (int i = 0; i < ni; i++)
		for (int j = 0; j < nj; j++)
			C[i][j] = A[i][j % nk];
}
