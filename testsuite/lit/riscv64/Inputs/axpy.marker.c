/*
 * axpy.marker.c — a cheat aimed at the riscv64 timer: an alias (the name is
 * in a string, which the static scan does not read) of the harness's
 * KCC_icount_off marker, called first thing, would close the counting
 * window before the work and make the kernel look nearly free. The results
 * are right; the measurement must refuse it.
 */
#pragma kcc entry axpy
#pragma kcc param x in f32[n]
#pragma kcc param y inout f32[n]
#pragma kcc shape check n=1; n=7; n=37; n=1000
#pragma kcc shape bench n=4096
#pragma kcc flops 2*n
#pragma kcc bytes 12*n

#define ALPHA 0.75f

static void stop_counting(void) __attribute__((alias("KCC_icount_off")));

void axpy(const float *x, float *y, int n)
{
	stop_counting();
	for (int i = 0; i < n; i++)
		y[i] = ALPHA * x[i] + y[i];
}
