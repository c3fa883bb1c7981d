/*
 * kcc_cpu.h — the cpu target's side of the harness: "device" memory is
 * host memory, synchronisation is a no-op (OpenMP regions join before the
 * entry returns; threads of its own are forbidden by the static scan), the
 * timer is the monotonic clock and the cache flush (kcc_flush: for the
 * profile, and for timing on cpus other than x86-64, where kcc_main.h's
 * kcc_cool does not clflush the set's lines) touches every line of a
 * buffer twice the last-level cache.
 */
#ifndef KCC_CPU_H
#define KCC_CPU_H

#define KCC_HAS_STREAMS 0
/* Strict: no thread or file opens once the entry may run. Under the
 * sanitizer build (KCC_ASAN) the runtime level: ASan's report reads
 * /proc/self/maps. */
#ifdef KCC_ASAN
#define KCC_SANDBOX_LEVEL KCC_SANDBOX_RUNTIME
#else
#define KCC_SANDBOX_LEVEL KCC_SANDBOX_STRICT
#endif

/* OpenMP's pool is started before the sandbox closes thread creation: a
 * parallel region as wide as the default, then one per level the entry's
 * own regions could use (the pool is reused, not grown). */
static void kcc_init(void)
{
#ifdef _OPENMP
	volatile int sink = 0;
#pragma omp parallel
	{
		sink += omp_get_thread_num() >= 0;
	}
	(void)sink;
#endif
}

#ifdef KCC_ASAN
#include <sanitizer/asan_interface.h>
#include <sys/mman.h>
/* No leak check (it needs ptrace, which the sandbox denies; the harness
 * leaves with _exit anyway), no symbolizer process, distinct exit codes. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0:symbolize=0:exitcode=86:handle_segv=1:allow_user_segv_handler=0";
}
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1:symbolize=0:exitcode=87";
}
#endif

static void *kcc_dalloc(size_t n)
{
#ifdef KCC_ASAN
	/* Whole pages, so an input's pages can be made read-only alone. */
	void *q = aligned_alloc(4096, (n + 4095) / 4096 * 4096 + 4096);
	if (!q)
		kcc_fail(5, "out of memory (%zu bytes)", n);
	return q;
#endif
	/* 64-byte alignment: the guard zone keeps it for the data, as cudaMalloc's
	 * 256 bytes do on the GPU, so aligned vector loads behave the same. */
	void *p = aligned_alloc(64, (n + 63) / 64 * 64);
	if (!p)
		kcc_fail(5, "out of memory (%zu bytes)", n);
	return p;
}

#include "kcc_host.h"

/* One store per 64-byte line of a buffer of the flush size: each store
 * brings its line in and pushes an older one out, as a full memset would,
 * at a 64th of the work (a simulating profiler runs this too: a memset of
 * the flush size costs seconds under callgrind). */
static void kcc_flush(size_t bytes)
{
	static volatile unsigned char *buf;
	static unsigned char round;
	if (!bytes)
		return;
	if (!buf)
		buf = (volatile unsigned char *)kcc_xmalloc(bytes);
	round++;
	for (size_t i = 0; i < bytes; i += 64)
		buf[i] = round;
}

static double kcc_t0;

static void kcc_tstart(void)
{
	kcc_t0 = kcc_now();
}

static double kcc_tstop(void)
{
	return kcc_now() - kcc_t0;
}

static void kcc_finish(void)
{
}

#endif
