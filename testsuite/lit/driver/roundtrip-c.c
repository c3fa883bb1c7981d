// -O0 re-emits the file byte for byte, through the atomic emit path, and
// never touches the input.
// RUN: cp %s %t.in.c && chmod a-w %t.in.c
// RUN: %kcc -O0 %t.in.c -o %t.out.c
// RUN: cmp %s %t.out.c
// RUN: cmp %s %t.in.c
// An existing output is replaced, keeping its mode.
// RUN: echo old > %t.mode.c && chmod 0640 %t.mode.c
// RUN: %kcc -O0 %s -o %t.mode.c
// RUN: cmp %s %t.mode.c
// RUN: stat -c %%a %t.mode.c | FileCheck --check-prefix=MODE %s
// MODE: 640
// No temp file is left behind next to the output.
// RUN: rm -rf %t.dir && mkdir %t.dir && %kcc -O0 %s -o %t.dir/out.c
// RUN: ls -A %t.dir | FileCheck --check-prefix=LS --implicit-check-not=kcc- %s
// LS: out.c
#pragma kcc entry axpy
#pragma kcc param x in    f64[N]
#pragma kcc param y inout f64[N]
#pragma kcc shape check N=1; N=17; N=1000
#pragma kcc shape bench N=1000000
#pragma kcc flops 2*N

void axpy(const double *x, double *y, int N)
{
	for (int i = 0; i < N; i++)
		y[i] += 3.0 * x[i];
}
