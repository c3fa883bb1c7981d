/*
 * axpy.wrong.c — unrolled by 4 with the remainder loop forgotten: the last
 * n % 4 elements of y keep their old values (a wrong rewrite).
 */
#pragma kcc entry axpy
#pragma kcc param x in f32[n]
#pragma kcc param y inout f32[n]
#pragma kcc shape check n=1; n=7; n=37; n=1000
#pragma kcc shape bench n=4096
#pragma kcc flops 2*n
#pragma kcc bytes 12*n

#define ALPHA 0.75f

void axpy(const float *x, float *y, int n)
{
	for (int i = 0; i + 4 <= n; i += 4) {
		y[i] = ALPHA * x[i] + y[i];
		y[i + 1] = ALPHA * x[i + 1] + y[i + 1];
		y[i + 2] = ALPHA * x[i + 2] + y[i + 2];
		y[i + 3] = ALPHA * x[i + 3] + y[i + 3];
	}
}
