/* kcc:begin header: written by kcc 0.1.0; kcc replaces this block when it reads the file again
 * passes: tensor-cores, cp-async-pipelining, tensor-cores, cp-async-pipelining
 * device: NVIDIA H100 80GB HBM3 (sm_90a), 132 SMs, L2 50 MiB, 81079 MiB memory, ~66908 GFLOP/s fp32, ~3352 GB/s
 * original: /work/main/examples/gemm_f16.cu sha256 73bcc4ae11fa015b2018150fd19c725a0e9aa02ccf15d6f6a9b161c9808c0a79, spec sha256 6ac682bf647a6d83f480236858c81506293014b1ac49008f5ba3e7f4da149ac3
 * measured: 163.69x over the original (95% CI 163.27x-164.04x) at M=8192 N=8192 K=8192, 1.508 ms
 * reproduce: kcc --check ORIGINAL THIS-FILE --bench
 * kcc:end header */
/*
 * gemm_f16.cu — C = A * B, row-major, A M x K and B K x N in f16, C M x N in
 * f32, accumulated in f32 (kcc flagship, step 4: TMA and warp
 * specialization).
 *
 * Needs sm_90a. Fast path (K and N multiples of 8, 16-byte-aligned A and B:
 * the tensor maps' row strides must be multiples of 16 bytes): a 128 x 256
 * block tile computed by two consumer warpgroups of 64 x 256 issuing
 * wgmma.mma_async m64n256k16 (f16 in, f32 accumulators) from shared-memory
 * descriptors in the 128-byte swizzled layout; a ninth warp is the
 * producer: one thread issues the Hopper bulk tensor copies (TMA,
 * cp.async.bulk.tensor, 128-byte swizzle, the same layout the descriptors
 * read) of 64-deep K panels into a 4-stage ring, signalled by mbarriers
 * (full: the panel's bytes landed; empty: all 8 consumer warps finished
 * the MMAs reading it). TMA fills everything past M, N or K with zeros and
 * the stores are predicated, so any M, N, K >= 1 is exact. Tensor maps are
 * encoded per call on the host (cuTensorMapEncodeTiled through the runtime's
 * driver entry point); if that fails, or K or N is not a multiple of 8,
 * one thread per output computes C as in the original. Built for an
 * architecture without wgmma, the kernel computes its tile with f32 loops.
 */
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda.h>
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

#define TM_BM 128
#define TM_BN 256
#define TM_BK 64
#define TM_STAGES 4
#define TM_THREADS 288 /* 2 consumer warpgroups + 1 producer warp */
#define TM_GROUP_M 8
#define TM_A_BYTES (TM_BM * TM_BK * 2) /* 16 KiB a stage */
#define TM_B_BYTES (TM_BK * TM_BN * 2) /* 32 KiB a stage: 4 boxes of 64 k x 64 n */
#define TM_SMEM (TM_STAGES * (TM_A_BYTES + TM_B_BYTES) + 1024 + 256)

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TM_HAVE_WGMMA 1
#else
#define TM_HAVE_WGMMA 0
#endif

#if TM_HAVE_WGMMA
__device__ __forceinline__ void tm_bar_init(uint32_t bar, uint32_t count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void tm_bar_expect(uint32_t bar, uint32_t bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar),
	             "r"(bytes)
	             : "memory");
}

__device__ __forceinline__ void tm_bar_arrive(uint32_t bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void tm_bar_wait(uint32_t bar, uint32_t parity)
{
	uint32_t done = 0;
	while (!done)
		asm volatile("{\n.reg .pred p;\n"
		             "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
		             "selp.u32 %0, 1, 0, p;\n}\n"
		             : "=r"(done)
		             : "r"(bar), "r"(parity)
		             : "memory");
}

/* A 2-D box of the tensor map at (c0 = innermost, c1) into shared memory. */
__device__ __forceinline__ void tm_load(uint32_t dst, const CUtensorMap *map, int c0, int c1,
                                        uint32_t bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
	             " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst),
	             "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(bar)
	             : "memory");
}

/* Shared-memory matrix descriptor: start, leading and stride byte offsets
 * (>> 4), 128-byte swizzle (mode 1, bits 62-63). */
__device__ __forceinline__ uint64_t tm_desc(uint32_t addr, uint32_t lbo, uint32_t sbo)
{
	return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)(lbo >> 4) << 16) |
	       ((uint64_t)(sbo >> 4) << 32) | (1ull << 62);
}

/* d += A(64 x 16, K-major) * B(16 x 256, N-major: transposed, the last 1). */
__device__ __forceinline__ void tm_mma(float *d, uint64_t da, uint64_t db)
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

__global__ void __launch_bounds__(TM_THREADS, 1)
gemm_f16_tma(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapB,
             const __half *__restrict__ A, const __half *__restrict__ B,
             float *__restrict__ C, int M, int N, int K)
{
	int tiles_m = (M + TM_BM - 1) / TM_BM, tiles_n = (N + TM_BN - 1) / TM_BN;
	int pid = blockIdx.x;
	int per_group = TM_GROUP_M * tiles_n;
	int first_m = (pid / per_group) * TM_GROUP_M;
	int group_m = min(tiles_m - first_m, TM_GROUP_M);
	int bm = (first_m + (pid % per_group) % group_m) * TM_BM;
	int bn = ((pid % per_group) / group_m) * TM_BN;
	int tid = threadIdx.x;

#if TM_HAVE_WGMMA
	extern __shared__ unsigned char tm_smem_raw[];
	uint32_t raw = (uint32_t)__cvta_generic_to_shared(tm_smem_raw);
	uint32_t base = (raw + 1023) & ~1023u; /* the 128-byte swizzle needs 1024 alignment */
	uint32_t sA = base, sB = base + TM_STAGES * TM_A_BYTES;
	uint32_t full = sB + TM_STAGES * TM_B_BYTES; /* TM_STAGES mbarriers, 8 bytes each */
	uint32_t empty = full + TM_STAGES * 8;
	int ktiles = (K + TM_BK - 1) / TM_BK;
	int warp = tid >> 5, lane = tid & 31;

	if (tid == 0) {
		for (int s = 0; s < TM_STAGES; s++) {
			tm_bar_init(full + 8 * s, 1);  /* the producer's expect_tx */
			tm_bar_init(empty + 8 * s, 8); /* one arrive per consumer warp */
		}
		asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
	}
	__syncthreads();

	if (warp == 8) { /* producer */
		if (lane == 0) {
			for (int kt = 0; kt < ktiles; kt++) {
				int s = kt % TM_STAGES;
				if (kt >= TM_STAGES) /* wait for the consumers of panel kt - STAGES */
					tm_bar_wait(empty + 8 * s, ((kt / TM_STAGES) + 1) & 1);
				uint32_t f = full + 8 * s;
				tm_bar_expect(f, TM_A_BYTES + TM_B_BYTES);
				tm_load(sA + s * TM_A_BYTES, &mapA, kt * TM_BK, bm, f);
#pragma unroll
				for (int j = 0; j < 4; j++)
					tm_load(sB + s * TM_B_BYTES + j * 8192, &mapB, bn + j * 64, kt * TM_BK,
					        f);
			}
		}
		return;
	}

	int wg = warp >> 2, wq = warp & 3; /* consumer warpgroup 0..1, warp in it */
	float d[128];
#pragma unroll
	for (int i = 0; i < 128; i++)
		d[i] = 0.0f;
	for (int kt = 0; kt < ktiles; kt++) {
		int s = kt % TM_STAGES;
		tm_bar_wait(full + 8 * s, (kt / TM_STAGES) & 1);
		uint32_t a0 = sA + s * TM_A_BYTES + wg * 64 * 128;
		uint32_t b0 = sB + s * TM_B_BYTES;
		asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
		for (int k = 0; k < TM_BK / 16; k++) {
			/* A: 8-row groups 1024 bytes apart (SBO), k16 step 32 bytes;
			 * B: 64-column boxes 8192 apart (LBO), 8-k-row groups 1024 apart
			 * (SBO), k16 step 16 rows = 2048 bytes. */
			uint64_t da = tm_desc(a0 + k * 32, 16, 1024);
			uint64_t db = tm_desc(b0 + k * 2048, 8192, 1024);
			tm_mma(d, da, db);
		}
		asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
		asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory"); /* panel kt-1 done */
		if (kt > 0 && lane == 0)
			tm_bar_arrive(empty + 8 * ((kt - 1) % TM_STAGES));
	}
	asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");

	/* Accumulators of m64nNk16: warp wq of the warpgroup holds rows
	 * 16 wq + g and 16 wq + g + 8 (g = lane / 4); d[4i], d[4i+1] are columns
	 * 8i + 2t, 8i + 2t + 1 (t = lane % 4) of the first, d[4i+2], d[4i+3] of
	 * the second. N is even: col < N covers col + 1. */
	int g = lane >> 2, t = lane & 3;
	int row = bm + wg * 64 + wq * 16 + g;
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
	for (int e = tid; e < TM_BM * TM_BN; e += TM_THREADS) {
		int i = bm + e / TM_BN, j = bn + e % TM_BN;
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

typedef CUresult (*TmEncode)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                             const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                             const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                             CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

/* A row-major rows x cols f16 matrix as a 2-D tensor map with box_cols x
 * box_rows boxes in the 128-byte swizzle; 0 when it worked. */
static int tm_map(TmEncode encode, CUtensorMap *map, const __half *p, int rows, int cols,
                  int box_rows, int box_cols)
{
	cuuint64_t dim[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
	cuuint64_t stride[1] = {(cuuint64_t)cols * 2};
	cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows};
	cuuint32_t estride[2] = {1, 1};
	return encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)p, dim, stride, box, estride,
	              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
	              CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
	              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS;
}

void gemm_f16(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	bool aligned = ((uintptr_t)A % 16 == 0) && ((uintptr_t)B % 16 == 0) &&
	               ((uintptr_t)C % 8 == 0);
	if (M > 0 && N > 0 && K > 0 && K % 8 == 0 && N % 8 == 0 && aligned) {
		void *fn = NULL;
		cudaDriverEntryPointQueryResult q;
		CUtensorMap mapA, mapB;
		if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
		                                     cudaEnableDefault, &q) == cudaSuccess &&
		    q == cudaDriverEntryPointSuccess && fn &&
		    !tm_map((TmEncode)fn, &mapA, A, M, K, TM_BM, TM_BK) &&
		    !tm_map((TmEncode)fn, &mapB, B, K, N, TM_BK, 64)) {
			cudaFuncSetAttribute(gemm_f16_tma, cudaFuncAttributeMaxDynamicSharedMemorySize,
			                     TM_SMEM);
			int tiles = ((M + TM_BM - 1) / TM_BM) * ((N + TM_BN - 1) / TM_BN);
			gemm_f16_tma<<<tiles, TM_THREADS, TM_SMEM>>>(mapA, mapB, A, B, C, M, N, K);
			return;
		}
	}
	dim3 block(16, 16);
	dim3 grid((N + 15) / 16, (M + 15) / 16);
	gemm_f16_any<<<grid, block>>>(A, B, C, M, N, K);
}
