/*
 * peaks.c — the cpu's peak rates for the roofline, measured rather than
 * guessed from a datasheet: a streaming triad (a = b + s*c over arrays far
 * larger than the last-level cache, all threads, STREAM's 24 bytes per
 * element) for bandwidth, and a loop of independent single-precision FMAs
 * on the widest vectors the compiler has (-march=native) for flops. Each is
 * the best of a few repetitions. Built and run with the target's own
 * compiler and flags, once per machine: the answer is cached as
 * CACHE/peaks-cpu-HASH.txt, HASH naming the cpu's description.
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
static char *measure(const Target *t, Arena *a)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = arena_printf(a, "%s/kcc-peaks-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return NULL;
	const char *src = arena_printf(a, "%s/peaks.c", dir), *exe = arena_printf(a, "%s/peaks", dir);
	char *out = NULL;
	TargetBuild b = {.dir = dir, .src = src, .exe = exe};
	TargetBuilt tb;
	if (file_write_atomic(src, PEAKS_SRC, sizeof PEAKS_SRC - 1) == 0 &&
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

int cpu_peaks(const Target *t, Arena *a, const char *cache_dir, ProfilePeaks *out)
{
	memset(out, 0, sizeof *out);
	const char *path = cache_file(a, t, cache_dir);
	char *text = NULL;
	size_t len;
	if (!path || file_read(a, path, &text, &len) != 0) {
		text = measure(t, a);
		if (text && path && file_mkdirs(cache_dir, 0755) == 0)
			file_write_atomic(path, text, strlen(text));
	}
	if (!text)
		return -1;
	out->gflops = field(text, "gflops ");
	out->gbps = field(text, "gbps ");
	out->source = "measured on this machine: FMA loop, triad";
	return out->gflops > 0 && out->gbps > 0 ? 0 : -1;
}
