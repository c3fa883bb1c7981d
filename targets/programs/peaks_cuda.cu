/*
 * peaks_cuda.cu — kcc's micro-benchmarks of a GPU's peak rates, one per
 * unit (built with nvcc for the device's own arch, run once per device, the
 * answer cached; targets/peaks.c). Each rate is the best of 5 timed
 * launches after a warm-up, timed with events:
 *
 *   gbps          a float4 copy between two 1 GiB buffers: DRAM
 *   cache_gbps    float4 reads of a buffer a quarter the L2's size, many
 *                 times over in one launch: L2
 *   gflops        8 independent fp32 FMA chains a thread
 *   tc_f16_gflops mma.sync m16n8k16 f16 x f16 + f32 (tensor cores)
 *   tc_bf16_gflops mma.sync m16n8k16 bf16 x bf16 + f32
 *   tc_tf32_gflops mma.sync m16n8k8 tf32 x tf32 + f32
 *
 * The tensor-core lines appear on sm_80 and later only. mma.sync is not the
 * fastest path on every part (sm_90's wgmma is faster): kcc's floor also
 * takes the datasheet rate from the device's properties (peaks.c).
 */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void copy4(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		out[i] = in[i];
}

__global__ void read4(const float4 *__restrict__ in, size_t n, int reps, float *out)
{
	float s = 0;
	for (int r = 0; r < reps; r++)
		for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
		     i += (size_t)gridDim.x * blockDim.x) {
			float4 v = __ldcg(in + i);
			s += v.x + v.y + v.z + v.w;
		}
	if (s == 1234.5f)
		out[0] = s; /* never true; keeps the loads */
}

__global__ void fmas(float *out, int iters, float m, float k)
{
	float x[8];
#pragma unroll
	for (int j = 0; j < 8; j++)
		x[j] = threadIdx.x * 1e-3f + j;
	for (int i = 0; i < iters; i++)
#pragma unroll
		for (int j = 0; j < 8; j++)
			x[j] = fmaf(x[j], m, k);
	float s = 0;
	for (int j = 0; j < 8; j++)
		s += x[j];
	if (s == 1234.5f)
		out[0] = s;
}

/* kind 0: f16, 1: bf16 (m16n8k16); 2: tf32 (m16n8k8). 4 independent
 * accumulators a warp so the pipe stays full. */
template <int kind> __global__ void mmas(float *out, int iters)
{
#if __CUDA_ARCH__ >= 800
	unsigned a0 = threadIdx.x * 0x00010001u, a1 = a0 ^ 0x3c003c00u, a2 = a0 + 1, a3 = a1 + 1;
	unsigned b0 = a0 ^ 0x11111111u, b1 = a1 ^ 0x22222222u;
	float d[4][4] = {};
	for (int i = 0; i < iters; i++) {
#pragma unroll
		for (int j = 0; j < 4; j++) {
			if (kind == 0)
				asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
				             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
				             : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
				             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
			else if (kind == 1)
				asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
				             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
				             : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
				             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
			else
				asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
				             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
				             : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
				             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
		}
	}
	float s = 0;
	for (int j = 0; j < 4; j++)
		s += d[j][0] + d[j][1] + d[j][2] + d[j][3];
	if (s == 1234.5f)
		out[0] = s;
#endif
}

#define CK(x)                                                                            \
	do {                                                                                 \
		if ((x) != cudaSuccess) {                                                        \
			fprintf(stderr, "%s\n", #x);                                                 \
			return 5;                                                                    \
		}                                                                                \
	} while (0)

static cudaEvent_t e0, e1;

/* The best rate of 5 timed runs of launch() after one warm-up, given the
 * work (bytes or flops) of one run; 0 on an error. */
template <typename F> static double best(double work, F launch)
{
	double rate = 0;
	float ms;
	for (int r = 0; r < 6; r++) {
		if (cudaEventRecord(e0) != cudaSuccess)
			return 0;
		launch();
		if (cudaEventRecord(e1) != cudaSuccess || cudaEventSynchronize(e1) != cudaSuccess ||
		    cudaGetLastError() != cudaSuccess || cudaEventElapsedTime(&ms, e0, e1) != cudaSuccess)
			return 0;
		if (r && work / (ms * 1e6) > rate)
			rate = work / (ms * 1e6);
	}
	return rate;
}

int main(void)
{
	int dev, sms, major, l2;
	CK(cudaGetDevice(&dev));
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	CK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
	CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
	size_t n = (size_t)1 << 26; /* float4s: 1 GiB a buffer */
	float4 *a, *b;
	float *o;
	CK(cudaMalloc(&a, 16 * n));
	CK(cudaMalloc(&b, 16 * n));
	CK(cudaMalloc(&o, 4));
	CK(cudaMemset(a, 0, 16 * n));
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	printf("gbps %.3f\n", best(32.0 * n, [&] { copy4<<<sms * 32, 256>>>(a, b, n); }));
	size_t nl2 = (size_t)(l2 > 0 ? l2 : 4 << 20) / 4 / 16;
	int reps = 64;
	printf("cache_gbps %.3f\n",
	       best(16.0 * nl2 * reps, [&] { read4<<<sms * 8, 256>>>(a, nl2, reps, o); }));
	int iters = 1 << 15, threads = sms * 8 * 256;
	printf("gflops %.3f\n", best(2.0 * 8 * iters * (double)threads,
	                             [&] { fmas<<<sms * 8, 256>>>(o, iters, 0.999f, 0.001f); }));
	if (major >= 8) {
		static const char *const name[] = {"tc_f16", "tc_bf16", "tc_tf32"};
		static const double flops[] = {2.0 * 16 * 8 * 16, 2.0 * 16 * 8 * 16, 2.0 * 16 * 8 * 8};
		int it = 1 << 12, warps = sms * 8 * 8;
		for (int k = 0; k < 3; k++)
			printf("%s_gflops %.3f\n", name[k],
			       best(flops[k] * 4 * it * (double)warps, [&] {
				       if (k == 0)
					       mmas<0><<<sms * 8, 256>>>(o, it);
				       else if (k == 1)
					       mmas<1><<<sms * 8, 256>>>(o, it);
				       else
					       mmas<2><<<sms * 8, 256>>>(o, it);
			       }));
	}
	return 0;
}
