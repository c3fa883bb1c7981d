/*
 * gemm_f16.cu — C = A * B, row-major, A M x K and B K x N in f16, C M x N in
 * f32, accumulated in f32 (kcc flagship, step 2: multi-stage pipeline).
 *
 * Fast path (K and N multiples of 8, 16-byte-aligned A and B, so every
 * 8-half row chunk is one 16-byte cp.async): a 128 x 256 block tile, 8 warps
 * (2 x 4, each a 64 x 64 warp tile of 4 x 8 mma.sync m16n8k16 f16 -> f32
 * tiles), K panels of 64 in a 4-stage cp.async pipeline (192 KiB of dynamic
 * shared memory), XOR-swizzled shared tiles read with ldmatrix (.trans for
 * B), and a grouped block order (8 block rows per group) for L2 locality.
 * Loads past M, N or K are zero-filled (cp.async src-size 0), stores are
 * predicated, so any M, N, K >= 1 is exact. Otherwise: one thread per
 * output, as in the original.
 */
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>

#pragma kcc entry gemm_f16
#pragma kcc param A in f16[M*K]
#pragma kcc param B in f16[K*N]
#pragma kcc param C out f32[M*N]
#pragma kcc shape check M=37 N=53 K=29; M=64 N=64 K=64; M=130 N=136 K=264
#pragma kcc shape check M=256 N=384 K=512; M=200 N=264 K=40; M=1 N=8 K=8
#pragma kcc shape bench M=8192 N=8192 K=8192
#pragma kcc flops 2*M*N*K
#pragma kcc bytes 2*(M*K+K*N)+4*M*N

#define PIPE_BM 128
#define PIPE_BN 256
#define PIPE_BK 64
#define PIPE_STAGES 4
#define PIPE_THREADS 256
#define PIPE_GROUP_M 8
#define PIPE_A_STAGE (PIPE_BM * PIPE_BK) /* halves */
#define PIPE_B_STAGE (PIPE_BK * PIPE_BN)
#define PIPE_SMEM ((PIPE_A_STAGE + PIPE_B_STAGE) * PIPE_STAGES * 2) /* bytes */

__device__ __forceinline__ void pipe_cp16(uint32_t dst, const void *src, bool valid)
{
	int n = valid ? 16 : 0; /* 0: nothing read, 16 zero bytes written */
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
	             "r"(n));
}

__device__ __forceinline__ void pipe_commit()
{
	asm volatile("cp.async.commit_group;\n" ::);
}

template <int N> __device__ __forceinline__ void pipe_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

__device__ __forceinline__ void pipe_ldsm_x4(uint32_t addr, uint32_t &r0, uint32_t &r1,
                                             uint32_t &r2, uint32_t &r3)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
	             : "r"(addr));
}

__device__ __forceinline__ void pipe_ldsm_x4_t(uint32_t addr, uint32_t &r0, uint32_t &r1,
                                               uint32_t &r2, uint32_t &r3)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
	             : "r"(addr));
}

__device__ __forceinline__ void pipe_mma(float *d, const uint32_t *a, const uint32_t *b)
{
	asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
	             "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* Shared layouts, in halves. A stage: 128 rows of 64 halves (8 chunks of 16
 * bytes, 128-byte rows); chunk c of row r is stored at chunk c ^ (r & 7), so
 * the 8 rows one ldmatrix phase reads (same logical chunk) hit 8 distinct
 * 16-byte bank groups. B stage: 64 rows (k) of 256 halves (32 chunks);
 * chunk c of row r at c ^ (r & 7) (the low 3 bits of c). */
__device__ __forceinline__ int pipe_a_off(int r, int c)
{
	return r * PIPE_BK + ((c ^ (r & 7)) << 3);
}

__device__ __forceinline__ int pipe_b_off(int r, int c)
{
	return r * PIPE_BN + ((c ^ (r & 7)) << 3);
}

__device__ __forceinline__ void pipe_load(__half *sA, __half *sB, const __half *A,
                                          const __half *B, int M, int N, int K, int bm,
                                          int bn, int k0, int tid)
{
#pragma unroll
	for (int i = 0; i < 4; i++) { /* 128 x 8 chunks of A */
		int id = tid + i * PIPE_THREADS;
		int r = id >> 3, c = id & 7;
		int gm = bm + r, gk = k0 + c * 8;
		bool ok = gm < M && gk < K;
		const __half *src = ok ? A + (size_t)gm * K + gk : A;
		pipe_cp16((uint32_t)__cvta_generic_to_shared(sA + pipe_a_off(r, c)), src, ok);
	}
#pragma unroll
	for (int i = 0; i < 8; i++) { /* 64 x 32 chunks of B */
		int id = tid + i * PIPE_THREADS;
		int r = id >> 5, c = id & 31;
		int gk = k0 + r, gn = bn + c * 8;
		bool ok = gk < K && gn < N;
		const __half *src = ok ? B + (size_t)gk * N + gn : B;
		pipe_cp16((uint32_t)__cvta_generic_to_shared(sB + pipe_b_off(r, c)), src, ok);
	}
}

__global__ void __launch_bounds__(PIPE_THREADS, 1)
gemm_f16_pipe(const __half *__restrict__ A, const __half *__restrict__ B,
              float *__restrict__ C, int M, int N, int K)
{
	extern __shared__ __align__(128) unsigned char pipe_smem[];
	__half *sA = (__half *)pipe_smem;
	__half *sB = sA + PIPE_STAGES * PIPE_A_STAGE;

	/* Grouped order: consecutive blocks walk down PIPE_GROUP_M block rows
	 * before moving right, so a wave shares A and B panels in L2. */
	int tiles_m = (M + PIPE_BM - 1) / PIPE_BM, tiles_n = (N + PIPE_BN - 1) / PIPE_BN;
	int pid = blockIdx.x;
	int per_group = PIPE_GROUP_M * tiles_n;
	int first_m = (pid / per_group) * PIPE_GROUP_M;
	int group_m = min(tiles_m - first_m, PIPE_GROUP_M);
	int tile_m = first_m + (pid % per_group) % group_m;
	int tile_n = (pid % per_group) / group_m;
	int bm = tile_m * PIPE_BM, bn = tile_n * PIPE_BN;

	int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	int wm = warp >> 2, wn = warp & 3; /* 2 x 4 warps, 64 x 64 each */

	float acc[4][8][4];
#pragma unroll
	for (int i = 0; i < 4; i++)
#pragma unroll
		for (int j = 0; j < 8; j++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				acc[i][j][e] = 0.0f;

	int ktiles = (K + PIPE_BK - 1) / PIPE_BK;
#pragma unroll
	for (int s = 0; s < PIPE_STAGES - 1; s++) {
		if (s < ktiles)
			pipe_load(sA + s * PIPE_A_STAGE, sB + s * PIPE_B_STAGE, A, B, M, N, K, bm, bn,
			          s * PIPE_BK, tid);
		pipe_commit(); /* empty groups keep the count uniform */
	}

	uint32_t sA0 = (uint32_t)__cvta_generic_to_shared(sA);
	uint32_t sB0 = (uint32_t)__cvta_generic_to_shared(sB);

	for (int kt = 0; kt < ktiles; kt++) {
		pipe_wait<PIPE_STAGES - 2>(); /* this thread's copies of panel kt landed */
		__syncthreads();              /* everyone's did; panel kt-1 is free */
		int next = kt + PIPE_STAGES - 1;
		if (next < ktiles) {
			int s = next % PIPE_STAGES;
			pipe_load(sA + s * PIPE_A_STAGE, sB + s * PIPE_B_STAGE, A, B, M, N, K, bm, bn,
			          next * PIPE_BK, tid);
		}
		pipe_commit();

		int s = kt % PIPE_STAGES;
		uint32_t a_base = sA0 + s * PIPE_A_STAGE * 2;
		uint32_t b_base = sB0 + s * PIPE_B_STAGE * 2;
#pragma unroll
		for (int kk = 0; kk < PIPE_BK / 16; kk++) {
			uint32_t af[4][4], bf[8][2];
#pragma unroll
			for (int mt = 0; mt < 4; mt++) {
				int r = wm * 64 + mt * 16 + (lane & 15);
				int c = kk * 2 + (lane >> 4);
				pipe_ldsm_x4(a_base + pipe_a_off(r, c) * 2, af[mt][0], af[mt][1],
				             af[mt][2], af[mt][3]);
			}
#pragma unroll
			for (int np = 0; np < 4; np++) {
				int r = kk * 16 + (lane & 15);
				int c = wn * 8 + np * 2 + (lane >> 4);
				pipe_ldsm_x4_t(b_base + pipe_b_off(r, c) * 2, bf[2 * np][0],
				               bf[2 * np][1], bf[2 * np + 1][0], bf[2 * np + 1][1]);
			}
#pragma unroll
			for (int mt = 0; mt < 4; mt++)
#pragma unroll
				for (int nt = 0; nt < 8; nt++)
					pipe_mma(acc[mt][nt], af[mt], bf[nt]);
		}
	}
	pipe_wait<0>();

	/* Accumulator (mt, nt): rows g and g + 8, columns 2t and 2t + 1 of the
	 * 16 x 8 tile (g = lane / 4, t = lane % 4). N is even, so col < N
	 * covers col + 1. */
	int g = lane >> 2, t = lane & 3;
#pragma unroll
	for (int mt = 0; mt < 4; mt++) {
#pragma unroll
		for (int nt = 0; nt < 8; nt++) {
			int row = bm + wm * 64 + mt * 16 + g;
			int col = bn + wn * 64 + nt * 8 + 2 * t;
			if (col < N) {
				if (row < M)
					*(float2 *)(C + (size_t)row * N + col) =
					    make_float2(acc[mt][nt][0], acc[mt][nt][1]);
				if (row + 8 < M)
					*(float2 *)(C + (size_t)(row + 8) * N + col) =
					    make_float2(acc[mt][nt][2], acc[mt][nt][3]);
			}
		}
	}
}

/* Any shape, any alignment: one thread per output, f32 accumulation in k
 * order (the original's arithmetic). */
__global__ void gemm_f16_any(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i < M && j < N) {
		float acc = 0.0f;
		for (int k = 0; k < K; k++)
			acc += __half2float(A[(size_t)i * K + k]) * __half2float(B[(size_t)k * N + j]);
		C[(size_t)i * N + j] = acc;
	}
}

void gemm_f16(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	bool aligned = ((uintptr_t)A % 16 == 0) && ((uintptr_t)B % 16 == 0) &&
	               ((uintptr_t)C % 8 == 0);
	if (M > 0 && N > 0 && K > 0 && K % 8 == 0 && N % 8 == 0 && aligned) {
		cudaFuncSetAttribute(gemm_f16_pipe, cudaFuncAttributeMaxDynamicSharedMemorySize,
		                     PIPE_SMEM);
		int tiles = ((M + PIPE_BM - 1) / PIPE_BM) * ((N + PIPE_BN - 1) / PIPE_BN);
		gemm_f16_pipe<<<tiles, PIPE_THREADS, PIPE_SMEM>>>(A, B, C, M, N, K);
		return;
	}
	dim3 block(16, 16);
	dim3 grid((N + 15) / 16, (M + 15) / 16);
	gemm_f16_any<<<grid, block>>>(A, B, C, M, N, K);
}
