/*
 * peaks.c — the peak rates for the roofline and the physical floor, per
 * unit, measured rather than guessed from a datasheet: micro-benchmarks
 * (targets/programs/peaks_cpu.c, peaks_cuda.cu) built and run with the
 * target's own compiler and flags, once per machine; the answer is cached as
 * CACHE/peaks-TARGET-HASH.txt, HASH naming the hardware's description.
 *
 * cpu: a STREAM triad (memory and cache), fp32 and fp64 FMA chains on the
 * widest vectors and scalar ones, all threads. cuda: a float4 copy (DRAM),
 * float4 reads of an L2-resident buffer, fp32 FMA chains and mma.sync on
 * the fp16, bf16 and tf32 tensor cores.
 *
 * Beside them, the datasheet rates from the hardware's description: the
 * physical floor (profile_peaks_floor) takes the larger, so that a kernel
 * using a faster path than the micro-benchmarks (wgmma on sm_90) or a
 * measurement taken on a busy machine never makes a real kernel look
 * impossible.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The value of the line "KEY VALUE" (KEY at a line's start); 0 if none. */
static double field(const char *text, const char *key)
{
	size_t k = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, k))
			return strtod(p + k, NULL);
	return 0;
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
	char *dir = scratch_make(a, NULL, "kcc-peaks");
	if (!dir)
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
	scratch_remove(dir);
	return out;
}

/* Seconds since path was last written; 0 when it cannot be read. */
static double file_age_s(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	return difftime(time(NULL), st.st_mtime);
}

/* fresh's "KEY VALUE" lines, each VALUE raised to old's for the same KEY
 * when that is higher (a peak is the best rate seen; measurements on a
 * busy machine are low, and even quiet ones vary). The "busy" line is
 * dropped: the caller says whether the new one was busy. */
static char *keep_highest(Arena *a, const char *fresh, const char *old)
{
	Strbuf sb = STRBUF_INIT;
	for (const char *p = fresh; *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *sp = memchr(p, ' ', len);
		if (sp && strncmp(p, "busy ", 5)) {
			char *key = arena_printf(a, "%.*s", (int)(sp - p + 1), p);
			double now_v = strtod(sp + 1, NULL), then_v = field(old, key);
			sb_addf(&sb, "%s%.6g\n", key, then_v > now_v ? then_v : now_v);
		} else if (len && strncmp(p, "busy ", 5)) {
			sb_addf(&sb, "%.*s\n", (int)len, p);
		}
		p = e ? e + 1 : p + len;
	}
	return sb_to_arena(&sb, a);
}

/* The cached or freshly measured rates; 0 or -1. */
static int measured(const Target *t, Arena *a, const char *cache_dir, const char *prog,
                    ProfilePeaks *out)
{
	memset(out, 0, sizeof *out);
	size_t plen;
	const char *pg = target_program(prog, &plen);
	const char *path = cache_file(a, t, cache_dir);
	char *text = NULL;
	size_t n;
	if (!pg)
		return -1;
	/* Peaks measured beside other work are low: they are kept with a
	 * "busy 1" line, said to be low, and measured again once they are 10
	 * minutes old; each rate keeps the highest value seen, so one
	 * measurement at load 15 does not stay the machine's peak for good (it
	 * read "DRAM 2 GB/s" in a prompt). Not sooner, even on a quiet machine:
	 * the peaks are in the prompts, and a search and its --resume a minute
	 * later must send the same prompts to hit the LLM cache (lit
	 * search/interrupt-resume missed it when the resume found the machine
	 * quiet; the quiet DRAM number was the lower one, too). */
	bool cached = path && file_read(a, path, &text, &n) == 0 && field(text, "gflops ") > 0;
	bool stale = cached && field(text, "busy ") > 0 && file_age_s(path) > 600;
	if (!cached || stale) {
		bool busy = proc_load() > 0.5;
		char *fresh = measure(t, a, pg, plen);
		if (fresh && cached)
			fresh = keep_highest(a, fresh, text);
		if (fresh && busy)
			fresh = arena_printf(a, "%sbusy 1\n", fresh);
		if (fresh && path && field(fresh, "gflops ") > 0 && field(fresh, "gbps ") > 0 &&
		    file_mkdirs(cache_dir, 0755) == 0)
			file_write_atomic(path, fresh, strlen(fresh));
		if (fresh || !cached)
			text = fresh;
	}
	if (text)
		out->busy = field(text, "busy ") > 0;
	if (!text)
		return -1;
	out->gflops = field(text, "gflops ");
	out->gbps = field(text, "gbps ");
	out->cache_gbps = field(text, "cache_gbps ");
	out->unit[PEAK_FP32] = out->gflops;
	out->unit[PEAK_FP64] = field(text, "fp64_gflops ");
	out->unit[PEAK_FP32_SCALAR] = field(text, "scalar_gflops ");
	out->unit[PEAK_TC_F16] = field(text, "tc_f16_gflops ");
	out->unit[PEAK_TC_BF16] = field(text, "tc_bf16_gflops ");
	out->unit[PEAK_TC_TF32] = field(text, "tc_tf32_gflops ");
	return out->gflops > 0 && out->gbps > 0 ? 0 : -1;
}

/* The cpu's datasheet rates from /proc/cpuinfo: cores x vector lanes x 2
 * FMA pipes x 2 flops x clock, and 2 loads of a vector a cycle a core. The
 * clock is the highest the kernel reports (cpufreq's maximum, else 1.5x
 * the current "cpu MHz", for turbo). */
static void cpu_datasheet(Arena *a, const TargetInfo *info, ProfilePeaks *pk)
{
	char *text = NULL;
	size_t len;
	if (file_read(a, "/proc/cpuinfo", &text, &len) != 0)
		return;
	double lanes = strstr(text, " avx512f") ? 16 : strstr(text, " avx2") ? 8 : 4;
	double ghz = 0;
	char *mx = NULL;
	if (file_read(a, "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", &mx, &len) == 0)
		ghz = strtod(mx, NULL) * 1e-6;
	const char *mhz = strstr(text, "cpu MHz");
	if (ghz <= 0 && mhz && (mhz = strchr(mhz, ':')))
		ghz = strtod(mhz + 1, NULL) * 1e-3 * 1.5;
	if (ghz <= 0)
		ghz = 5.0;
	int cores = info->cores > 0 ? info->cores : 1;
	pk->est_gflops = cores * lanes * 2 * 2 * ghz;
	pk->est_gbps = cores * 2 * lanes * 4 * ghz;
	pk->est_unit[PEAK_FP32] = pk->est_gflops;
	pk->est_name = arena_printf(a, "fp32 FMA on %d-lane vectors, all cores", (int)lanes);
	pk->est_unit[PEAK_FP64] = pk->est_gflops / 2;
	pk->est_unit[PEAK_FP32_SCALAR] = pk->est_gflops / lanes;
}

int cpu_peaks(const Target *t, Arena *a, const char *cache_dir, ProfilePeaks *out)
{
	TargetInfo info;
	t->describe(t, a, &info);
	int rc = measured(t, a, cache_dir, "peaks_cpu.c", out);
	out->cache_name = "48 KiB a thread";
	cpu_datasheet(a, &info, out);
	profile_peaks_floor(out);
	out->source = rc != 0 ? "estimated from /proc/cpuinfo (the micro-benchmark failed)"
	              : out->busy ? "measured by kcc's micro-benchmarks while the machine was "
	                            "busy: lower than the hardware's"
	                          : "measured on this machine by kcc's micro-benchmarks";
	if (rc != 0) {
		out->gflops = out->unit[PEAK_FP32] = out->est_gflops;
		return out->est_gflops > 0 ? 0 : -1;
	}
	return 0;
}

/* Dense fp16 tensor-core flops per SM per clock (f32 accumulate), by
 * compute capability, from NVIDIA's datasheets; newer parts than the table
 * get the largest. */
static double tc_per_clock(int cc)
{
	if (cc < 70)
		return 0;
	if (cc < 75)
		return 1024; /* V100 */
	if (cc < 80)
		return 1024; /* T4 */
	if (cc < 86)
		return 2048; /* A100 */
	if (cc < 90)
		return 1024; /* A10, L40 */
	if (cc < 100)
		return 4096; /* H100 */
	return 8192;     /* B200 and later */
}

int cuda_peaks(const Target *t, Arena *a, const char *cache_dir, ProfilePeaks *out)
{
	TargetInfo info;
	t->describe(t, a, &info);
	memset(out, 0, sizeof *out);
	if (!info.present)
		return -1;
	int rc = measured(t, a, cache_dir, "peaks_cuda.cu", out);
	out->cache_name = "L2";
	int cc = info.arch ? atoi(info.arch + 3) : 0;
	/* fp8 (cc >= 8.9) doubles the fp16 rate: the floor allows for it. */
	double tc = info.cores * tc_per_clock(cc) * info.clock_ghz * (cc >= 89 ? 2 : 1);
	out->est_gflops = tc > info.peak_gflops ? tc : info.peak_gflops;
	out->est_name = tc <= info.peak_gflops ? "fp32 FMA"
	                : cc >= 89 ? "fp8 tensor cores, twice the fp16 rate"
	                           : "fp16 tensor cores";
	out->est_gbps = info.peak_gbps;
	out->est_dram_gbps = info.peak_gbps;
	out->est_unit[PEAK_FP32] = info.peak_gflops;
	out->est_unit[PEAK_TC_F16] = out->est_unit[PEAK_TC_BF16] =
	    info.cores * tc_per_clock(cc) * info.clock_ghz;
	out->est_unit[PEAK_TC_TF32] = out->est_unit[PEAK_TC_F16] / 2;
	if (rc == 0) {
		out->source = out->busy ? "measured by kcc's micro-benchmarks while the device "
		                          "was busy: lower than the hardware's"
		                        : "measured on this device by kcc's micro-benchmarks";
	} else {
		out->gflops = out->unit[PEAK_FP32] = info.peak_gflops;
		out->gbps = info.peak_gbps;
		out->source = "estimated from the device's properties (the micro-benchmark failed)";
	}
	profile_peaks_floor(out);
	return out->gflops > 0 ? 0 : -1;
}
