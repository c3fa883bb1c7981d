// kcc-mutant: ref=transpose.cu expect=wrong|nondeterministic
// why: no barrier between writing the shared tile and reading it transposed; on an H100 most elements come out wrong in plain runs already (racecheck also reports a RAW hazard).
/*
 * transpose.fast.cu — matrix transpose: B[c][r] = A[r][c], A is R x C
 * (row-major), B is C x R.
 * Faster: 32x32 tiles staged through shared memory so both the reads of A
 * and the writes of B are coalesced; the tile row is padded to 33 floats so
 * the column-wise reads of the tile are free of bank conflicts; each of the
 * 32x8 threads moves 4 elements.
 */
#include <cuda_runtime.h>

#pragma kcc entry transpose
#pragma kcc param A in f32[R*C]
#pragma kcc param B out f32[C*R]
#pragma kcc shape check R=37 C=53; R=64 C=64; R=1 C=129; R=130 C=3
#pragma kcc shape bench R=8192 C=8192
#pragma kcc bytes 4*2*R*C

#define TILE 32
#define ROWS 8

__global__ void __launch_bounds__(TILE * ROWS)
transpose_tiled(const float *__restrict__ A, float *__restrict__ B, int R, int C)
{
	__shared__ float tile[TILE][TILE + 1];
	const int c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
	const int tx = threadIdx.x, ty = threadIdx.y;
	for (int k = 0; k < TILE; k += ROWS) {
		int r = r0 + ty + k, c = c0 + tx;
		if (r < R && c < C)
			tile[ty + k][tx] = A[(size_t)r * C + c];
	}
	for (int k = 0; k < TILE; k += ROWS) {
		int c = c0 + ty + k, r = r0 + tx; /* B row c, column r */
		if (c < C && r < R)
			B[(size_t)c * R + r] = tile[tx][ty + k];
	}
}

void transpose(const float *A, float *B, int R, int C)
{
	dim3 block(TILE, ROWS);
	dim3 grid((C + TILE - 1) / TILE, (R + TILE - 1) / TILE);
	transpose_tiled<<<grid, block>>>(A, B, R, C);
}
