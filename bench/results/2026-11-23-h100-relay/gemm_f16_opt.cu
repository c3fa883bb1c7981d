/* kcc:begin header: written by kcc 0.1.0; kcc replaces this block when it reads the file again
 * passes: tensor-cores (BK=64), cp-async-pipelining (BK=64 STAGES=2)
 * device: NVIDIA H100 80GB HBM3 (sm_90a), 132 SMs, L2 50 MiB, 81079 MiB memory, ~66908 GFLOP/s fp32, ~3352 GB/s
 * original: /work/main/examples/gemm_f16.cu sha256 73bcc4ae11fa015b2018150fd19c725a0e9aa02ccf15d6f6a9b161c9808c0a79, spec sha256 6ac682bf647a6d83f480236858c81506293014b1ac49008f5ba3e7f4da149ac3
 * measured: 66.35x over the original (95% CI 66.31x-67.93x) at M=8192 N=8192 K=8192, 3.696 ms
 * reproduce: kcc --check ORIGINAL THIS-FILE --bench
 * kcc:end header */
/*
 * gemm_f16.cu: mixed-precision matrix multiply, C = A * B, row-major,
 * A M x K and B K x N in f16, C M x N in f32, accumulated in f32.
 *
 * Tensor-core version. Each block computes a 128 x 128 tile of C with 256
 * threads (8 warps, 2 along M x 4 along N). Each warp computes a 64 x 32
 * sub-tile as 4 x 4 mma.sync m16n8k16 (f16 x f16 -> f32) tiles. A and B
 * tiles of depth BK are staged in padded shared memory (conflict-free
 * ldmatrix). B is row-major K x N, so ldmatrix.trans supplies its
 * fragments.
 *
 * Loads: when K % 8 == 0, N % 8 == 0 and A/B are 16-byte aligned, a
 * STAGES-deep cp.async pipeline (16-byte cp.async.cg, with zero-fill past
 * the edges) over a ring of shared-memory buffers, one __syncthreads() per
 * k-tile. Otherwise a guarded, single-buffered scalar path. Both paths
 * fill zeros past the matrix edges, so partial tiles (M, N, K not
 * multiples of the tile) are exact. The epilogue guards every element.
 */
/* kcc:begin tune: values chosen by measurement */
#ifndef BK
#define BK 64
#endif
#ifndef STAGES
#define STAGES 2
#endif
/* kcc:end tune */
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
#pragma kcc tune BK=32,64
#pragma kcc tune STAGES=2,3,4

#ifndef BK
#define BK 32
#endif

#ifndef STAGES
#define STAGES 3
#endif

#define BM 128
#define BN 128
#define NTHREADS 256
#define AS_STRIDE (BK + 8)   /* halves per A-tile row in shared memory */
#define BS_STRIDE (BN + 8)   /* halves per B-tile row in shared memory */

#define A_TILE_HALVES (BM * AS_STRIDE)
#define B_TILE_HALVES (BK * BS_STRIDE)
#define STAGE_HALVES (A_TILE_HALVES + B_TILE_HALVES)
#define SMEM_BYTES_VEC ((size_t)STAGES * STAGE_HALVES * sizeof(__half))
#define SMEM_BYTES_SCALAR ((size_t)STAGE_HALVES * sizeof(__half))

static_assert(BK % 16 == 0, "BK must be a multiple of 16");
static_assert(STAGES >= 2, "STAGES must be at least 2");
static_assert(((BM * BK / 8) % NTHREADS) == 0, "A tile chunks must divide evenly");
static_assert(((BK * BN / 8) % NTHREADS) == 0, "B tile chunks must divide evenly");
static_assert(((AS_STRIDE * 2) % 16) == 0 && ((BS_STRIDE * 2) % 16) == 0, "rows must stay 16-byte aligned");
static_assert(((A_TILE_HALVES * 2) % 16) == 0 && ((STAGE_HALVES * 2) % 16) == 0, "stages must stay 16-byte aligned");

__device__ __forceinline__ void ldmatrix_x4(uint32_t &r0, uint32_t &r1, uint32_t &r2, uint32_t &r3,
					    const __half *smem_ptr)
{
	uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
		     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
		     : "r"(addr)
		     : "memory");
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t &r0, uint32_t &r1, uint32_t &r2, uint32_t &r3,
						  const __half *smem_ptr)
{
	uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
		     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
		     : "r"(addr)
		     : "memory");
}

/* D = A * B + D, m16n8k16, f16 inputs, f32 accumulate. */
__device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2])
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
		     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* 16-byte async copy global -> shared; src_size 0 zero-fills the 16 bytes. */
__device__ __forceinline__ void cp_async_16(__half *smem_dst, const __half *gmem_src, bool valid)
{
	uint32_t dst = static_cast<uint32_t>(__cvta_generic_to_shared(smem_dst));
	int src_size = valid ? 16 : 0;
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
		     :
		     : "r"(dst), "l"(gmem_src), "r"(src_size)
		     : "memory");
}

__device__ __forceinline__ void cp_async_commit()
{
	asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int N_PENDING>
__device__ __forceinline__ void cp_async_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N_PENDING) : "memory");
}

/* Issue the cp.async copies of the k-tile starting at k0 into one stage. */
__device__ __forceinline__ void load_tile_async(__half *sA, __half *sB,
						const __half *__restrict__ A, const __half *__restrict__ B,
						int M, int N, int K, int m0, int n0, int k0, int tid)
{
	/* A tile: BM rows x BK halves, 8-half (16-byte) chunks */
#pragma unroll
	for (int i = 0; i < (BM * BK / 8) / NTHREADS; ++i) {
		const int c = tid + i * NTHREADS;
		const int row = c / (BK / 8);
		const int kc = (c % (BK / 8)) * 8;
		const int gr = m0 + row;
		const int gk = k0 + kc;
		const bool ok = (gr < M) && (gk < K); /* K % 8 == 0: whole chunk in range */
		const __half *src = ok ? (A + (size_t)gr * K + gk) : A;
		cp_async_16(&sA[row * AS_STRIDE + kc], src, ok);
	}
	/* B tile: BK rows x BN halves */
#pragma unroll
	for (int i = 0; i < (BK * BN / 8) / NTHREADS; ++i) {
		const int c = tid + i * NTHREADS;
		const int row = c / (BN / 8);
		const int nc = (c % (BN / 8)) * 8;
		const int gk = k0 + row;
		const int gn = n0 + nc;
		const bool ok = (gk < K) && (gn < N); /* N % 8 == 0: whole chunk in range */
		const __half *src = ok ? (B + (size_t)gk * N + gn) : B;
		cp_async_16(&sB[row * BS_STRIDE + nc], src, ok);
	}
}

/* Tensor-core math on one staged BK-deep tile. */
__device__ __forceinline__ void compute_tile(const __half *sA, const __half *sB, float (&acc)[4][4][4],
					     int warp_m, int warp_n, int lane)
{
#pragma unroll
	for (int kk = 0; kk < BK; kk += 16) {
		uint32_t af[4][4];
		uint32_t bf[4][2];
#pragma unroll
		for (int mt = 0; mt < 4; ++mt) {
			const __half *p = &sA[(warp_m * 64 + mt * 16 + (lane & 15)) * AS_STRIDE
					      + kk + ((lane >> 4) << 3)];
			ldmatrix_x4(af[mt][0], af[mt][1], af[mt][2], af[mt][3], p);
		}
#pragma unroll
		for (int np = 0; np < 2; ++np) {
			const __half *p = &sB[(kk + (lane & 15)) * BS_STRIDE
					      + warp_n * 32 + np * 16 + ((lane >> 4) << 3)];
			ldmatrix_x4_trans(bf[2 * np][0], bf[2 * np][1], bf[2 * np + 1][0], bf[2 * np + 1][1], p);
		}
#pragma unroll
		for (int mt = 0; mt < 4; ++mt)
#pragma unroll
			for (int nt = 0; nt < 4; ++nt)
				mma_16816(acc[mt][nt], af[mt], bf[nt]);
	}
}

template <bool VEC>
__global__ void __launch_bounds__(NTHREADS, 2)
gemm_f16_tc_kernel(const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C,
		   int M, int N, int K, int c_vec2)
{
	extern __shared__ __align__(128) unsigned char smem_raw[];
	__half *smem = reinterpret_cast<__half *>(smem_raw);

	const int tid = threadIdx.x;
	const int lane = tid & 31;
	const int warp = tid >> 5;
	const int warp_m = warp >> 2; /* 0..1 -> 64 rows each */
	const int warp_n = warp & 3;  /* 0..3 -> 32 cols each */
	const int m0 = blockIdx.y * BM;
	const int n0 = blockIdx.x * BN;

	float acc[4][4][4];
#pragma unroll
	for (int mt = 0; mt < 4; ++mt)
#pragma unroll
		for (int nt = 0; nt < 4; ++nt)
#pragma unroll
			for (int e = 0; e < 4; ++e)
				acc[mt][nt][e] = 0.0f;

	if (VEC) {
		/* ---- STAGES-deep cp.async pipeline ---- */
		const int KT = (K + BK - 1) / BK;

		/* prologue: tiles 0 .. STAGES-2, one commit group each (empty past KT) */
#pragma unroll
		for (int s = 0; s < STAGES - 1; ++s) {
			if (s < KT)
				load_tile_async(smem + s * STAGE_HALVES, smem + s * STAGE_HALVES + A_TILE_HALVES,
						A, B, M, N, K, m0, n0, s * BK, tid);
			cp_async_commit();
		}

		for (int kt = 0; kt < KT; ++kt) {
			/* tile kt has landed (this thread's copies), then make everyone's visible;
			 * the barrier also guarantees all warps finished computing tile kt-1 */
			cp_async_wait<STAGES - 2>();
			__syncthreads();

			/* refill the slot consumed at kt-1 with tile kt+STAGES-1 */
			const int nk = kt + STAGES - 1;
			if (nk < KT) {
				const int ws = nk % STAGES;
				load_tile_async(smem + ws * STAGE_HALVES, smem + ws * STAGE_HALVES + A_TILE_HALVES,
						A, B, M, N, K, m0, n0, nk * BK, tid);
			}
			cp_async_commit();

			const int rs = kt % STAGES;
			compute_tile(smem + rs * STAGE_HALVES, smem + rs * STAGE_HALVES + A_TILE_HALVES,
				     acc, warp_m, warp_n, lane);
		}
		cp_async_wait<0>();
	} else {
		/* ---- guarded scalar path, single buffer ---- */
		__half *As = smem;
		__half *Bs = smem + A_TILE_HALVES;
		const __half hzero = __ushort_as_half((unsigned short)0);

		for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll 4
			for (int idx = tid; idx < BM * BK; idx += NTHREADS) {
				const int row = idx / BK;
				const int kk = idx % BK;
				const int gr = m0 + row;
				const int gk = k0 + kk;
				__half v = hzero;
				if (gr < M && gk < K)
					v = A[(size_t)gr * K + gk];
				As[row * AS_STRIDE + kk] = v;
			}
#pragma unroll 4
			for (int idx = tid; idx < BK * BN; idx += NTHREADS) {
				const int row = idx / BN;
				const int nn = idx % BN;
				const int gk = k0 + row;
				const int gn = n0 + nn;
				__half v = hzero;
				if (gk < K && gn < N)
					v = B[(size_t)gk * N + gn];
				Bs[row * BS_STRIDE + nn] = v;
			}
			__syncthreads();
			compute_tile(As, Bs, acc, warp_m, warp_n, lane);
			__syncthreads();
		}
	}

	/* ---- epilogue: fragments straight to C, every element guarded ---- */
#pragma unroll
	for (int mt = 0; mt < 4; ++mt) {
#pragma unroll
		for (int nt = 0; nt < 4; ++nt) {
			const int row = m0 + warp_m * 64 + mt * 16 + (lane >> 2);
			const int col = n0 + warp_n * 32 + nt * 8 + ((lane & 3) << 1);
#pragma unroll
			for (int h = 0; h < 2; ++h) {
				const int r = row + h * 8;
				if (r < M) {
					const float v0 = acc[mt][nt][2 * h];
					const float v1 = acc[mt][nt][2 * h + 1];
					float *cp = C + (size_t)r * N;
					if (c_vec2 && col + 1 < N) {
						*reinterpret_cast<float2 *>(cp + col) = make_float2(v0, v1);
					} else {
						if (col < N)
							cp[col] = v0;
						if (col + 1 < N)
							cp[col + 1] = v1;
					}
				}
			}
		}
	}
}

void gemm_f16(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	if (M <= 0 || N <= 0)
		return;

	static bool attrs_set = false;
	if (!attrs_set) {
		cudaFuncSetAttribute(gemm_f16_tc_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
				     (int)SMEM_BYTES_VEC);
		cudaFuncSetAttribute(gemm_f16_tc_kernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize,
				     (int)SMEM_BYTES_SCALAR);
		attrs_set = true;
	}

	dim3 block(NTHREADS);
	dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
	const bool vec = (K % 8 == 0) && (N % 8 == 0)
		&& ((reinterpret_cast<uintptr_t>(A) & 15) == 0)
		&& ((reinterpret_cast<uintptr_t>(B) & 15) == 0);
	const int c_vec2 = ((N % 2) == 0) && ((reinterpret_cast<uintptr_t>(C) & 7) == 0);
	if (vec)
		gemm_f16_tc_kernel<true><<<grid, block, SMEM_BYTES_VEC>>>(A, B, C, M, N, K, c_vec2);
	else
		gemm_f16_tc_kernel<false><<<grid, block, SMEM_BYTES_SCALAR>>>(A, B, C, M, N, K, c_vec2);
}
