/*
 * kcc_cuda.h — the cuda target's side of the harness: buffers in device
 * memory, every CUDA call checked (a failure exits 3, which kcc reports as
 * "cuda-error"), timing with events on the legacy default stream (which the
 * entry's launches on stream 0 and on blocking streams join), the L2 flushed
 * by writing twice its size and the persisting-L2 window reset before each
 * sample. The half-precision headers come first so that kcc_promote.h's
 * `float` -> `double` does not reach their declarations.
 */
#ifndef KCC_CUDA_H
#define KCC_CUDA_H

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define KCC_HAS_STREAMS 1
/* The CUDA runtime may start threads and open device files after init. */
#define KCC_SANDBOX_LEVEL KCC_SANDBOX_RUNTIME

#define KCC_CK(x)                                                              \
	do {                                                                   \
		cudaError_t e_ = (x);                                          \
		if (e_ != cudaSuccess)                                         \
			kcc_fail(e_ == cudaErrorMemoryAllocation ? 5 : 3,      \
			         "cuda-error: %s (%s) in %s", cudaGetErrorName(e_), \
			         cudaGetErrorString(e_), #x);                  \
	} while (0)

static cudaEvent_t kcc_ev0, kcc_ev1;

static void kcc_init(void)
{
	KCC_CK(cudaSetDevice(0));
	KCC_CK(cudaFree(0));
	KCC_CK(cudaEventCreate(&kcc_ev0));
	KCC_CK(cudaEventCreate(&kcc_ev1));
}

static void *kcc_dalloc(size_t n)
{
	void *p = NULL;
	KCC_CK(cudaMalloc(&p, n ? n : 1));
	return p;
}

static void kcc_dfree(void *p)
{
	KCC_CK(cudaFree(p));
}

static void kcc_h2d(void *d, const void *h, size_t n)
{
	KCC_CK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
}

static void kcc_d2h(void *h, const void *d, size_t n)
{
	KCC_CK(cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost));
}

static void kcc_d2d(void *d, const void *s, size_t n)
{
	KCC_CK(cudaMemcpy(d, s, n, cudaMemcpyDeviceToDevice));
}

static void kcc_dset(void *d, int byte, size_t n)
{
	KCC_CK(cudaMemset(d, byte, n));
}

/* Launch errors surface here, before any synchronisation. */
static void kcc_after_call(void)
{
	KCC_CK(cudaGetLastError());
}

static void kcc_sync_stream(void)
{
	KCC_CK(cudaStreamSynchronize(0));
}

static void kcc_sync_device(void)
{
	KCC_CK(cudaDeviceSynchronize());
	KCC_CK(cudaGetLastError());
}

static void kcc_flush(size_t bytes)
{
	static void *buf;
	static int round;
	if (!bytes)
		return;
	if (!buf)
		KCC_CK(cudaMalloc(&buf, bytes));
	/* Not fatal: devices without persisting L2 report "not supported". */
	if (cudaCtxResetPersistingL2Cache() != cudaSuccess)
		(void)cudaGetLastError();
	KCC_CK(cudaMemsetAsync(buf, ++round & 0xff, bytes, 0));
	KCC_CK(cudaDeviceSynchronize());
}

static void kcc_tstart(void)
{
	KCC_CK(cudaEventRecord(kcc_ev0, 0));
}

static double kcc_tstop(void)
{
	float ms = 0;
	KCC_CK(cudaEventRecord(kcc_ev1, 0));
	KCC_CK(cudaEventSynchronize(kcc_ev1));
	KCC_CK(cudaEventElapsedTime(&ms, kcc_ev0, kcc_ev1));
	return ms * 1e-3;
}

static void kcc_finish(void)
{
	KCC_CK(cudaDeviceSynchronize());
}

#endif
