/*
 * gemm_f16.cu — C = A * B, row-major, A M x K and B K x N in f16, C M x N in
 * f32, accumulated in f32 (kcc flagship, step 3: Hopper warpgroup MMA).
 *
 * Needs sm_90a (nvcc -arch=sm_90a; kcc: KCC_CUDA_ARCH=sm_90a or an sm_90a
 * build). Fast path (K and N multiples of 8, 16-byte-aligned A and B): a
 * 128 x 256 block tile, two warpgroups of 64 x 256, each issuing
 * wgmma.mma_async m64n256k16 (f16 in, f32 accumulators, 128 per thread)
 * with both operands read from shared memory through matrix descriptors in
 * the 128-byte swizzled layout; K panels of 64 in a 4-stage cp.async
 * pipeline (2 panels in flight, one being multiplied, one still read by
 * the previous panel's asynchronous MMAs); grouped block order for L2.
 * Loads past M, N or K are zero-filled, stores predicated: any M, N, K >= 1
 * is exact. Built for an architecture without wgmma, the same kernel
 * computes its tile with plain f32 loops (correct, slow). When K or N is not
 * a multiple of 8: one thread per output, as in the original.
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

#define WG_BM 128
#define WG_BN 256
#define WG_BK 64
#define WG_STAGES 4
#define WG_THREADS 256
#define WG_GROUP_M 8
#define WG_A_BYTES (WG_BM * WG_BK * 2) /* 16 KiB a stage */
#define WG_B_BYTES (WG_BK * WG_BN * 2) /* 32 KiB a stage */
#define WG_SMEM (WG_STAGES * (WG_A_BYTES + WG_B_BYTES) + 1024) /* + alignment slack */

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define WG_HAVE_WGMMA 1
#else
#define WG_HAVE_WGMMA 0
#endif

__device__ __forceinline__ void wg_cp16(uint32_t dst, const void *src, bool valid)
{
	int n = valid ? 16 : 0; /* 0: nothing read, 16 zero bytes written */
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
	             "r"(n));
}

__device__ __forceinline__ void wg_commit()
{
	asm volatile("cp.async.commit_group;\n" ::);
}

template <int N> __device__ __forceinline__ void wg_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* Shared layouts (bytes from a 1024-byte-aligned stage base), the 128-byte
 * swizzle of the wgmma descriptors: 16-byte chunk c of a 128-byte row r is
 * stored at chunk c ^ (r & 7).
 * A (K-major): row m (0..127) of 64 halves at m * 128.
 * B (N-major): four 64-column blocks of 64 k-rows x 128 bytes, block nb at
 * nb * 8192, row k at k * 128. */
__device__ __forceinline__ uint32_t wg_a_off(int m, int c)
{
	return m * 128 + ((c ^ (m & 7)) << 4);
}

__device__ __forceinline__ uint32_t wg_b_off(int k, int c) /* c: chunk 0..31 of the row */
{
	return (c >> 3) * 8192 + k * 128 + (((c & 7) ^ (k & 7)) << 4);
}

__device__ __forceinline__ void wg_load(uint32_t sa, uint32_t sb, const __half *A,
                                        const __half *B, int M, int N, int K, int bm, int bn,
                                        int k0, int tid)
{
#pragma unroll
	for (int i = 0; i < 4; i++) { /* A: 128 rows x 8 chunks */
		int id = tid + i * WG_THREADS;
		int r = id >> 3, c = id & 7;
		int gm = bm + r, gk = k0 + c * 8;
		bool ok = gm < M && gk < K;
		wg_cp16(sa + wg_a_off(r, c), ok ? A + (size_t)gm * K + gk : A, ok);
	}
#pragma unroll
	for (int i = 0; i < 8; i++) { /* B: 64 rows x 32 chunks */
		int id = tid + i * WG_THREADS;
		int r = id >> 5, c = id & 31;
		int gk = k0 + r, gn = bn + c * 8;
		bool ok = gk < K && gn < N;
		wg_cp16(sb + wg_b_off(r, c), ok ? B + (size_t)gk * N + gn : B, ok);
	}
}

/* A shared-memory matrix descriptor: start address, leading and stride
 * byte offsets (all >> 4), 128-byte swizzle (mode 1 in bits 62-63). */
__device__ __forceinline__ uint64_t wg_desc(uint32_t addr, uint32_t lbo, uint32_t sbo)
{
	return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)(lbo >> 4) << 16) |
	       ((uint64_t)(sbo >> 4) << 32) | (1ull << 62);
}

#if WG_HAVE_WGMMA
/* d += A(64 x 16, K-major) * B(16 x 256, N-major: transposed, the last 1). */
__device__ __forceinline__ void wg_mma(float *d, uint64_t da, uint64_t db)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {"
	             "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
	             "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
	             "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
	             "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
	             "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
	             "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
	             "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
	             "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
	             "}, %128, %129, p, 1, 1, 0, 1;\n}\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
	               "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
	               "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
	               "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
	               "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
	               "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
	               "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
	               "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
	               "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
	               "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
	               "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
	               "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
	               "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
	               "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
	               "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
	               "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
	             : "l"(da), "l"(db), "r"(1));
}
#endif

__global__ void __launch_bounds__(WG_THREADS, 1)
gemm_f16_wgmma(const __half *__restrict__ A, const __half *__restrict__ B,
               float *__restrict__ C, int M, int N, int K)
{
	int tiles_m = (M + WG_BM - 1) / WG_BM, tiles_n = (N + WG_BN - 1) / WG_BN;
	int pid = blockIdx.x;
	int per_group = WG_GROUP_M * tiles_n;
	int first_m = (pid / per_group) * WG_GROUP_M;
	int group_m = min(tiles_m - first_m, WG_GROUP_M);
	int bm = (first_m + (pid % per_group) % group_m) * WG_BM;
	int bn = ((pid % per_group) / group_m) * WG_BN;

	int tid = threadIdx.x;

#if WG_HAVE_WGMMA
	extern __shared__ unsigned char wg_smem_raw[];
	uint32_t raw = (uint32_t)__cvta_generic_to_shared(wg_smem_raw);
	uint32_t base = (raw + 1023) & ~1023u; /* the swizzle needs 1024-byte alignment */
	uint32_t sA = base, sB = base + WG_STAGES * WG_A_BYTES;
	int ktiles = (K + WG_BK - 1) / WG_BK;
	int wg = tid >> 7, lane = tid & 31, warp = (tid >> 5) & 3;
	float d[128];
#pragma unroll
	for (int i = 0; i < 128; i++)
		d[i] = 0.0f;

	/* Prologue: panels 0 .. STAGES-3 (2 in flight ahead of the one used). */
#pragma unroll
	for (int s = 0; s < WG_STAGES - 2; s++) {
		if (s < ktiles)
			wg_load(sA + s * WG_A_BYTES, sB + s * WG_B_BYTES, A, B, M, N, K, bm, bn,
			        s * WG_BK, tid);
		wg_commit();
	}
	for (int kt = 0; kt < ktiles; kt++) {
		wg_wait<WG_STAGES - 3>(); /* this thread's copies of panel kt landed */
		asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); /* visible to wgmma */
		__syncthreads(); /* everyone's; and panel kt-2's MMAs are done (wait below) */
		int next = kt + WG_STAGES - 2;
		if (next < ktiles) {
			int s = next % WG_STAGES;
			wg_load(sA + s * WG_A_BYTES, sB + s * WG_B_BYTES, A, B, M, N, K, bm, bn,
			        next * WG_BK, tid);
		}
		wg_commit();

		int s = kt % WG_STAGES;
		uint32_t a0 = sA + s * WG_A_BYTES + wg * 64 * 128;
		uint32_t b0 = sB + s * WG_B_BYTES;
		asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
		for (int k = 0; k < WG_BK / 16; k++) {
			/* A: 8-row groups 1024 bytes apart (SBO), k16 step = 32 bytes;
			 * B: 64-column blocks 8192 apart (LBO), 8-k-row groups 1024 apart
			 * (SBO), k16 step = 16 rows = 2048 bytes. */
			uint64_t da = wg_desc(a0 + k * 32, 16, 1024);
			uint64_t db = wg_desc(b0 + k * 2048, 8192, 1024);
			wg_mma(d, da, db);
		}
		asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
		asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory"); /* panel kt-1 done */
	}
	asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
	wg_wait<0>();

	/* Accumulator layout of m64nNk16: warp w of the warpgroup holds rows
	 * 16w + g and 16w + g + 8 (g = lane / 4); d[4i], d[4i+1] are columns
	 * 8i + 2t, 8i + 2t + 1 (t = lane % 4) of the first, d[4i+2], d[4i+3]
	 * of the second. N is even: col < N covers col + 1. */
	int g = lane >> 2, t = lane & 3;
	int row = bm + wg * 64 + warp * 16 + g;
#pragma unroll
	for (int i = 0; i < 32; i++) {
		int col = bn + i * 8 + 2 * t;
		if (col < N) {
			if (row < M)
				*(float2 *)(C + (size_t)row * N + col) = make_float2(d[4 * i], d[4 * i + 1]);
			if (row + 8 < M)
				*(float2 *)(C + (size_t)(row + 8) * N + col) =
				    make_float2(d[4 * i + 2], d[4 * i + 3]);
		}
	}
#else
	/* No wgmma on this architecture: the tile in plain f32 loops. */
	for (int e = tid; e < WG_BM * WG_BN; e += WG_THREADS) {
		int i = bm + e / WG_BN, j = bn + e % WG_BN;
		if (i < M && j < N) {
			float acc = 0.0f;
			for (int k = 0; k < K; k++)
				acc += __half2float(A[(size_t)i * K + k]) *
				       __half2float(B[(size_t)k * N + j]);
			C[(size_t)i * N + j] = acc;
		}
	}
#endif
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
		cudaFuncSetAttribute(gemm_f16_wgmma, cudaFuncAttributeMaxDynamicSharedMemorySize,
		                     WG_SMEM);
		int tiles = ((M + WG_BM - 1) / WG_BM) * ((N + WG_BN - 1) / WG_BN);
		gemm_f16_wgmma<<<tiles, WG_THREADS, WG_SMEM>>>(A, B, C, M, N, K);
		return;
	}
	dim3 block(16, 16);
	dim3 grid((N + 15) / 16, (M + 15) / 16);
	gemm_f16_any<<<grid, block>>>(A, B, C, M, N, K);
}
