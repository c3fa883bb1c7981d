/*
 * gemm_f16.cu — C = A * B, row-major, A M x K and B K x N in f16, C M x N in
 * f32, accumulated in f32 (kcc flagship, step 1: tensor cores).
 *
 * Fast path (K and N multiples of 8, 16-byte-aligned A and B): a 128 x 128
 * block tile, 8 warps (2 x 4, each 64 x 32 = 4 x 4 mma.sync m16n8k16
 * f16 -> f32 tiles), K panels of 32 double-buffered in shared memory with
 * cp.async (a copy of panel k+1 in flight while panel k is multiplied),
 * padded rows (40 and 136 halves: no bank conflicts) read with ldmatrix
 * (.trans for B). Loads past M, N or K are zero-filled, stores predicated:
 * any M, N, K >= 1 is exact. Otherwise one thread per output, as before.
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

#define TC_BM 128
#define TC_BN 128
#define TC_BK 32
#define TC_LDA (TC_BK + 8)  /* 80-byte rows: 8 rows of a ldmatrix hit distinct banks */
#define TC_LDB (TC_BN + 8)  /* 272-byte rows */
#define TC_THREADS 256

__device__ __forceinline__ void tc_cp16(uint32_t dst, const void *src, bool valid)
{
	int n = valid ? 16 : 0; /* 0: nothing read, 16 zero bytes written */
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
	             "r"(n));
}

__device__ __forceinline__ void tc_commit()
{
	asm volatile("cp.async.commit_group;\n" ::);
}

template <int N> __device__ __forceinline__ void tc_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

__device__ __forceinline__ void tc_ldsm_x4(uint32_t addr, uint32_t &r0, uint32_t &r1,
                                           uint32_t &r2, uint32_t &r3)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
	             : "r"(addr));
}

__device__ __forceinline__ void tc_ldsm_x4_t(uint32_t addr, uint32_t &r0, uint32_t &r1,
                                             uint32_t &r2, uint32_t &r3)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
	             : "r"(addr));
}

__device__ __forceinline__ void tc_mma(float *d, const uint32_t *a, const uint32_t *b)
{
	asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
	             "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__global__ void __launch_bounds__(TC_THREADS)
gemm_f16_tc(const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C,
            int M, int N, int K)
{
	__shared__ __align__(16) __half sA[2][TC_BM * TC_LDA];
	__shared__ __align__(16) __half sB[2][TC_BK * TC_LDB];

	int bm = blockIdx.y * TC_BM, bn = blockIdx.x * TC_BN;
	int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	int wm = warp >> 2, wn = warp & 3; /* 2 x 4 warps, 64 x 32 each */

	float acc[4][4][4];
#pragma unroll
	for (int i = 0; i < 4; i++)
#pragma unroll
		for (int j = 0; j < 4; j++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				acc[i][j][e] = 0.0f;

	int ktiles = (K + TC_BK - 1) / TC_BK;
	/* panel kt into buffer s: A 128 x 4 chunks, B 32 x 16 chunks, 2 + 2 per thread */
	auto load = [&](int s, int kt) {
		int k0 = kt * TC_BK;
#pragma unroll
		for (int i = 0; i < 2; i++) {
			int id = tid + i * TC_THREADS;
			int r = id >> 2, c = id & 3;
			int gm = bm + r, gk = k0 + c * 8;
			bool ok = gm < M && gk < K;
			const __half *src = ok ? A + (size_t)gm * K + gk : A;
			tc_cp16((uint32_t)__cvta_generic_to_shared(&sA[s][r * TC_LDA + c * 8]), src, ok);
		}
#pragma unroll
		for (int i = 0; i < 2; i++) {
			int id = tid + i * TC_THREADS;
			int r = id >> 4, c = id & 15;
			int gk = k0 + r, gn = bn + c * 8;
			bool ok = gk < K && gn < N;
			const __half *src = ok ? B + (size_t)gk * N + gn : B;
			tc_cp16((uint32_t)__cvta_generic_to_shared(&sB[s][r * TC_LDB + c * 8]), src, ok);
		}
		tc_commit();
	};

	load(0, 0);
	for (int kt = 0; kt < ktiles; kt++) {
		int s = kt & 1;
		if (kt + 1 < ktiles) {
			load(s ^ 1, kt + 1); /* buffer s^1 was released by the barrier below */
			tc_wait<1>();
		} else {
			tc_wait<0>();
		}
		__syncthreads(); /* panel kt is in shared memory for every thread */

		uint32_t a_base = (uint32_t)__cvta_generic_to_shared(&sA[s][0]);
		uint32_t b_base = (uint32_t)__cvta_generic_to_shared(&sB[s][0]);
#pragma unroll
		for (int kk = 0; kk < TC_BK / 16; kk++) {
			uint32_t af[4][4], bf[4][2];
#pragma unroll
			for (int mt = 0; mt < 4; mt++) {
				int r = wm * 64 + mt * 16 + (lane & 15);
				int c = kk * 16 + (lane >> 4) * 8;
				tc_ldsm_x4(a_base + (r * TC_LDA + c) * 2, af[mt][0], af[mt][1], af[mt][2],
				           af[mt][3]);
			}
#pragma unroll
			for (int np = 0; np < 2; np++) {
				int r = kk * 16 + (lane & 15);
				int c = wn * 32 + np * 16 + (lane >> 4) * 8;
				tc_ldsm_x4_t(b_base + (r * TC_LDB + c) * 2, bf[2 * np][0], bf[2 * np][1],
				             bf[2 * np + 1][0], bf[2 * np + 1][1]);
			}
#pragma unroll
			for (int mt = 0; mt < 4; mt++)
#pragma unroll
				for (int nt = 0; nt < 4; nt++)
					tc_mma(acc[mt][nt], af[mt], bf[nt]);
		}
		__syncthreads(); /* everyone is done with buffer s before it is refilled */
	}

	/* Accumulator (mt, nt): rows g and g + 8, columns 2t, 2t + 1 of its
	 * 16 x 8 tile (g = lane / 4, t = lane % 4); N is even, so col < N
	 * covers col + 1. */
	int g = lane >> 2, t = lane & 3;
#pragma unroll
	for (int mt = 0; mt < 4; mt++) {
#pragma unroll
		for (int nt = 0; nt < 4; nt++) {
			int row = bm + wm * 64 + mt * 16 + g;
			int col = bn + wn * 32 + nt * 8 + 2 * t;
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
		dim3 grid((N + TC_BN - 1) / TC_BN, (M + TC_BM - 1) / TC_BM);
		gemm_f16_tc<<<grid, TC_THREADS>>>(A, B, C, M, N, K);
		return;
	}
	dim3 block(16, 16);
	dim3 grid((N + 15) / 16, (M + 15) / 16);
	gemm_f16_any<<<grid, block>>>(A, B, C, M, N, K);
}
