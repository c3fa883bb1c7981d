/*
 * cuda_query.cu — what the cuda target asks the GPU (targets/cuda.c): built
 * and run once, its answer cached per GPU. "key value" lines; "present 0"
 * when no device answers.
 */
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
		printf("present 0\n");
		return 1;
	}
	cudaDeviceProp p;
	cudaGetDeviceProperties(&p, 0);
	int clk = 0, mclk = 0, bus = 0;
	cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
	cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, 0);
	cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0);
	printf("present 1\nname %s\ncc %d%d\nsms %d\nl2 %d\nmem %zu\n"
	       "clock_khz %d\nmemclock_khz %d\nbus_bits %d\n",
	       p.name, p.major, p.minor, p.multiProcessorCount, p.l2CacheSize, p.totalGlobalMem,
	       clk, mclk, bus);
	printf("smem_block %zu\nsmem_optin %zu\nsmem_sm %zu\nregs_block %d\n"
	       "regs_sm %d\nthreads_sm %d\n",
	       p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor,
	       p.regsPerBlock, p.regsPerMultiprocessor, p.maxThreadsPerMultiProcessor);
	return 0;
}
