/*
 * axpy.rvv.c — examples/riscv64/axpy.c with RVV intrinsics: strip-mined
 * with vsetvl at LMUL=8, one fused multiply-add per vector (a correct
 * rewrite; kcc builds it with clang 22 because of <riscv_vector.h>).
 */
#pragma kcc entry axpy
#pragma kcc param x in f32[n]
#pragma kcc param y inout f32[n]
#pragma kcc shape check n=1; n=7; n=37; n=1000
#pragma kcc shape bench n=4096
#pragma kcc flops 2*n
#pragma kcc bytes 12*n

#include <riscv_vector.h>
#include <stddef.h>

#define ALPHA 0.75f

void axpy(const float *x, float *y, int n)
{
	for (size_t i = 0, vl; i < (size_t)n; i += vl) {
		vl = __riscv_vsetvl_e32m8((size_t)n - i);
		vfloat32m8_t vx = __riscv_vle32_v_f32m8(x + i, vl);
		vfloat32m8_t vy = __riscv_vle32_v_f32m8(y + i, vl);
		vy = __riscv_vfmacc_vf_f32m8(vy, ALPHA, vx, vl);
		__riscv_vse32_v_f32m8(y + i, vy, vl);
	}
}
