/* 3mm: G = (A*B)*(C*D), single precision, flat arrays. */
// EXPECT: #pragma kcc entry mm3
// EXPECT: #pragma kcc param E out f32[ni*nj]
// EXPECT: #pragma kcc param A in f32[ni*nk]
// EXPECT: #pragma kcc param B in f32[nk*nj]
// EXPECT: #pragma kcc param F out f32[nj*nl]
// EXPECT: #pragma kcc param C in f32[nj*nm]
// EXPECT: #pragma kcc param D in f32[nm*nl]
// EXPECT: #pragma kcc param G out f32[ni*nl]
// EXPECT: #pragma kcc flops 2*ni*nj*nk + 2*nj*nl*nm + 2*ni*nj*nl
void mm3(int ni, int nj, int nk, int nl, int nm, float *E, const float *A, const float *B,
         float *F, const float *C, const float *D, float *G)
{
	for (int i = 0; i < ni; i++)
		for (int j = 0; j < nj; j++) {
			E[i * nj + j] = 0.0f;
			for (int k = 0; k < nk; ++k)
				E[i * nj + j] += A[i * nk + k] * B[k * nj + j];
		}
	for (int i = 0; i < nj; i++)
		for (int j = 0; j < nl; j++) {
			F[i * nl + j] = 0.0f;
			for (int k = 0; k < nm; ++k)
				F[i * nl + j] += C[i * nm + k] * D[k * nl + j];
		}
	for (int i = 0; i < ni; i++)
		for (int j = 0; j < nl; j++) {
			G[i * nl + j] = 0.0f;
			for (int k = 0; k < nj; ++k)
				G[i * nl + j] += E[i * nj + k] * F[k * nl + j];
		}
}
