/*
 * axpy.c — y = ALPHA*x + y over n floats, for the riscv64 target (rv64gcv under
 * qemu-riscv64; kcc measures instructions executed). The unroll factor is a
 * macro that `#pragma kcc tune` lists, so `kcc -O2 --target=riscv64` counts
 * each variant's instructions (and the menu's compiler-flag variants) and
 * writes the verified one with the fewest.
 *
 *   kcc --target=riscv64 -O2 axpy.c -o axpy.kcc.c
 *   kcc --target=riscv64 --profile axpy.c
 */
#pragma kcc entry axpy
#pragma kcc param x in f32[n]
#pragma kcc param y inout f32[n]
#pragma kcc shape check n=1; n=7; n=37; n=1000
#pragma kcc shape bench n=4096
#pragma kcc flops 2*n
#pragma kcc bytes 12*n
#pragma kcc tune UNROLL=1,4,8

#define ALPHA 0.75f

#ifndef UNROLL
#define UNROLL 1
#endif

void axpy(const float *x, float *y, int n)
{
	int i = 0;
	for (; i + UNROLL <= n; i += UNROLL)
		for (int u = 0; u < UNROLL; u++)
			y[i + u] = ALPHA * x[i + u] + y[i + u];
	for (; i < n; i++)
		y[i] = ALPHA * x[i] + y[i];
}
