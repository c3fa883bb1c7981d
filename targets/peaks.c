/*
 * peaks.c — the peak rates for the roofline, measured rather than guessed
 * from a datasheet, by micro-benchmarks built and run with the target's own
 * compiler and flags, once per machine: the answer is cached as
 * CACHE/peaks-TARGET-HASH.txt, HASH naming the hardware's description.
 *
 * cpu: a streaming triad (a = b + s*c over arrays far larger than the
 * last-level cache, all threads, STREAM's 24 bytes per element) for
 * bandwidth, and a loop of independent single-precision FMAs on the widest
 * vectors the compiler has (-march=native) for flops; best of a few runs.
 *
 * cuda: a float4 copy between two 1 GiB buffers (bytes read + written) and
 * a kernel of 8 independent FMA chains per thread, 8 blocks of 256 threads
 * per SM; each timed with events, best of 5 after a warm-up. Without a
 * GPU, or when the benchmark fails, the estimate from the device's
 * properties (SMs x 128 lanes x 2 x clock; 2 x memory clock x bus width).
 */
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char PEAKS_SRC[] =
    "#include <omp.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
    "typedef float v16 __attribute__((vector_size(64)));\n"
    "static double triad(double *a, const double *b, const double *c, long n)\n{\n"
    "\tdouble best = 0;\n"
    "\tfor (int r = 0; r < 5; r++) {\n"
    "\t\tdouble t = omp_get_wtime();\n"
    "#pragma omp parallel for schedule(static)\n"
    "\t\tfor (long i = 0; i < n; i++) a[i] = b[i] + 3.0 * c[i];\n"
    "\t\tt = omp_get_wtime() - t;\n"
    "\t\tif (24.0 * n / t > best) best = 24.0 * n / t;\n\t}\n\treturn best;\n}\n"
    "static double fma_loop(long iters)\n{\n"
    "\tdouble best = 0;\n"
    "\tfor (int r = 0; r < 3; r++) {\n"
    "\t\tint threads = 1;\n\t\tfloat sink = 0;\n"
    "\t\tdouble t = omp_get_wtime();\n"
    "#pragma omp parallel reduction(+ : sink)\n\t\t{\n"
    "\t\t\tthreads = omp_get_num_threads();\n"
    "\t\t\tv16 m = {0}, k = {0}, x[12];\n"
    "\t\t\tfor (int j = 0; j < 16; j++) m[j] = 0.999f, k[j] = 0.001f;\n"
    "\t\t\tfor (int j = 0; j < 12; j++) x[j] = m * (float)j;\n"
    "\t\t\tfor (long i = 0; i < iters; i++)\n"
    "\t\t\t\tfor (int j = 0; j < 12; j++) x[j] = x[j] * m + k;\n"
    "\t\t\tfor (int j = 0; j < 12; j++) sink += x[j][0] + x[j][15];\n\t\t}\n"
    "\t\tt = omp_get_wtime() - t;\n"
    "\t\tdouble f = 2.0 * 16 * 12 * (double)iters * threads / t;\n"
    "\t\tif (f > best && sink == sink) best = f;\n\t}\n\treturn best;\n}\n"
    "int main(void)\n{\n"
    "\tlong n = 1L << 23;\n"
    "\tdouble *a = malloc(8 * n), *b = malloc(8 * n), *c = malloc(8 * n);\n"
    "\tif (!a || !b || !c) return 5;\n"
    "#pragma omp parallel for schedule(static)\n"
    "\tfor (long i = 0; i < n; i++) a[i] = 0, b[i] = 1, c[i] = 2;\n"
    "\tprintf(\"gbps %.3f\\n\", triad(a, b, c, n) * 1e-9);\n"
    "\tprintf(\"gflops %.3f\\n\", fma_loop(20000000) * 1e-9);\n"
    "\treturn 0;\n}\n";

static const char PEAKS_CU[] =
    "#include <cstdio>\n#include <cuda_runtime.h>\n"
    "__global__ void copy4(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n)\n{\n"
    "\tfor (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;\n"
    "\t     i += (size_t)gridDim.x * blockDim.x)\n\t\tout[i] = in[i];\n}\n"
    "__global__ void fmas(float *out, int iters, float m, float k)\n{\n"
    "\tfloat x[8];\n"
    "#pragma unroll\n\tfor (int j = 0; j < 8; j++) x[j] = threadIdx.x * 1e-3f + j;\n"
    "\tfor (int i = 0; i < iters; i++)\n"
    "#pragma unroll\n\t\tfor (int j = 0; j < 8; j++) x[j] = fmaf(x[j], m, k);\n"
    "\tfloat s = 0;\n\tfor (int j = 0; j < 8; j++) s += x[j];\n"
    "\tif (s == 1234.5f) out[0] = s; /* never true; keeps the chains */\n}\n"
    "#define CK(x) do { if ((x) != cudaSuccess) { fprintf(stderr, \"%s\\n\", #x); return 5; } } while (0)\n"
    "int main(void)\n{\n"
    "\tint dev, sms;\n\tCK(cudaGetDevice(&dev));\n"
    "\tCK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));\n"
    "\tsize_t n = (size_t)1 << 26; /* float4s: 1 GiB per buffer */\n"
    "\tfloat4 *a, *b;\n\tfloat *o;\n"
    "\tCK(cudaMalloc(&a, 16 * n));\n\tCK(cudaMalloc(&b, 16 * n));\n\tCK(cudaMalloc(&o, 4));\n"
    "\tCK(cudaMemset(a, 0, 16 * n));\n"
    "\tcudaEvent_t e0, e1;\n\tCK(cudaEventCreate(&e0));\n\tCK(cudaEventCreate(&e1));\n"
    "\tdouble gbps = 0, gflops = 0;\n\tfloat ms;\n"
    "\tfor (int r = 0; r < 6; r++) {\n"
    "\t\tCK(cudaEventRecord(e0));\n"
    "\t\tcopy4<<<sms * 32, 256>>>(a, b, n);\n"
    "\t\tCK(cudaEventRecord(e1));\n\t\tCK(cudaEventSynchronize(e1));\n"
    "\t\tCK(cudaGetLastError());\n\t\tCK(cudaEventElapsedTime(&ms, e0, e1));\n"
    "\t\tif (r && 32.0 * n / (ms * 1e6) > gbps) gbps = 32.0 * n / (ms * 1e6);\n\t}\n"
    "\tint iters = 1 << 15, threads = sms * 8 * 256;\n"
    "\tfor (int r = 0; r < 6; r++) {\n"
    "\t\tCK(cudaEventRecord(e0));\n"
    "\t\tfmas<<<sms * 8, 256>>>(o, iters, 0.999f, 0.001f);\n"
    "\t\tCK(cudaEventRecord(e1));\n\t\tCK(cudaEventSynchronize(e1));\n"
    "\t\tCK(cudaGetLastError());\n\t\tCK(cudaEventElapsedTime(&ms, e0, e1));\n"
    "\t\tdouble f = 2.0 * 8 * iters * (double)threads / (ms * 1e6);\n"
    "\t\tif (r && f > gflops) gflops = f;\n\t}\n"
    "\tprintf(\"gbps %.3f\\ngflops %.3f\\n\", gbps, gflops);\n"
    "\treturn 0;\n}\n";

static double field(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	return p ? strtod(p + strlen(key), NULL) : 0;
}

static const char *cache_file(Arena *a, const Target *t, const char *cache_dir)
{
	if (!cache_dir)
		return NULL;
	TargetInfo info;
	t->describe(t, a, &info);
	char h[65];
	sha256_hex(info.summary, strlen(info.summary), h);
	return arena_printf(a, "%s/peaks-%s-%.16s.txt", cache_dir, t->name, h);
}

/* Build and run the micro-benchmarks in a temp dir; their output or NULL. */
static char *measure(const Target *t, Arena *a, const char *code, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = arena_printf(a, "%s/kcc-peaks-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return NULL;
	const char *src = arena_printf(a, "%s/peaks%s", dir, t->src_ext);
	const char *exe = arena_printf(a, "%s/peaks", dir);
	char *out = NULL;
	TargetBuild b = {.dir = dir, .src = src, .exe = exe};
	TargetBuilt tb;
	if (file_write_atomic(src, code, len) == 0 &&
	    t->build(t, a, &b, &tb) == 0) {
		const char *argv[] = {exe, NULL};
		TargetRun r = {.argv = argv, .cwd = dir, .timeout_s = 60};
		ProcResult pr;
		if (t->run(t, a, &r, &pr) == 0 && proc_ok(&pr))
			out = pr.out;
	}
	unlink(src);
	unlink(exe);
	rmdir(dir);
	return out;
}

/* The cached or freshly measured rates; 0 or -1. */
static int measured(const Target *t, Arena *a, const char *cache_dir, const char *code,
                    size_t len, ProfilePeaks *out)
{
	memset(out, 0, sizeof *out);
	const char *path = cache_file(a, t, cache_dir);
	char *text = NULL;
	size_t n;
	if (!path || file_read(a, path, &text, &n) != 0) {
		text = measure(t, a, code, len);
		if (text && path && field(text, "gflops ") > 0 && field(text, "gbps ") > 0 &&
		    file_mkdirs(cache_dir, 0755) == 0)
			file_write_atomic(path, text, strlen(text));
	}
	if (!text)
		return -1;
	out->gflops = field(text, "gflops ");
	out->gbps = field(text, "gbps ");
	return out->gflops > 0 && out->gbps > 0 ? 0 : -1;
}

int cpu_peaks(const Target *t, Arena *a, const char *cache_dir, ProfilePeaks *out)
{
	if (measured(t, a, cache_dir, PEAKS_SRC, sizeof PEAKS_SRC - 1, out) != 0)
		return -1;
	out->source = "measured on this machine: FMA loop, triad";
	return 0;
}

int cuda_peaks(const Target *t, Arena *a, const char *cache_dir, ProfilePeaks *out)
{
	TargetInfo info;
	t->describe(t, a, &info);
	memset(out, 0, sizeof *out);
	if (!info.present)
		return -1;
	if (measured(t, a, cache_dir, PEAKS_CU, sizeof PEAKS_CU - 1, out) == 0) {
		out->source = "measured on this device: FMA chains, float4 copy";
		return 0;
	}
	out->gflops = info.peak_gflops;
	out->gbps = info.peak_gbps;
	out->source = "estimated from the device's properties (the micro-benchmark failed)";
	return out->gflops > 0 ? 0 : -1;
}
