// A PolyBench-style kernel as users write it: VLA parameters (C[ni][nj]),
// double scalars bound by the shapes (alpha=1.5 beta=-0.5), C read and
// written (inout). It round-trips with -O0; a correct rewrite (i-k-j order,
// row pointers) is accepted; a rewrite wrong only at the bench size is
// rejected by the comparison at the bench shape (--check does it, as
// --bench and the search do).
// RUN: %kcc -O0 %s -o %t.c && diff %s %t.c
// RUN: %kcc --check %s %S/Inputs/gemm-ikj.c | FileCheck --check-prefix=OK %s
// OK: kcc: check: equivalent
// RUN: %exit 1 %kcc --check %s %S/Inputs/gemm-bench-wrong.c | FileCheck --check-prefix=BENCH %s
// RUN: %exit 1 %kcc --check --bench %s %S/Inputs/gemm-bench-wrong.c | FileCheck --check-prefix=BENCH %s
// BENCH: kcc: check: rejected: bench-shape: wrong at the {{timed|bench}} shape only: C[{{[0-9]+}}]
// The scalars reach the kernel: a rewrite that ignores beta is wrong.
// RUN: %exit 1 %kcc --check %s %S/Inputs/gemm-no-beta.c | FileCheck --check-prefix=BETA %s
// BETA: kcc: check: rejected: wrong: C[{{[0-9]+}}]
#pragma kcc entry kernel_gemm
#pragma kcc param C inout f64[ni*nj]
#pragma kcc param A in    f64[ni*nk]
#pragma kcc param B in    f64[nk*nj]
#pragma kcc shape check ni=37 nj=41 nk=29 alpha=1.5 beta=-0.5; ni=16 nj=16 nk=16 alpha=-2 beta=0.25
#pragma kcc shape bench ni=160 nj=160 nk=160 alpha=1.5 beta=1.2
#pragma kcc flops 2*ni*nj*nk + ni*nj

void kernel_gemm(int ni, int nj, int nk, double alpha, double beta,
                 double C[ni][nj], double A[ni][nk], double B[nk][nj])
{
	for (int i = 0; i < ni; i++)
		for (int j = 0; j < nj; j++) {
			C[i][j] *= beta;
			for (int k = 0; k < nk; k++)
				C[i][j] += alpha * A[i][k] * B[k][j];
		}
}
