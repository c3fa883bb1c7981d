/*
 * cuda.c — the cuda target: CUDA kernels built with nvcc for the GPU that
 * is present (`-gencode arch=compute_XX,code=sm_XX`, XX from nvidia-smi's
 * compute_cap, with the `a` suffix from sm_90 on so the whole feature set
 * (wgmma, setmaxnreg, TMA multicast) is there; $KCC_CUDA_ARCH overrides;
 * sm_90a when no GPU answers), run
 * without RLIMIT_AS (the CUDA driver reserves far more address space than
 * it uses), timed with CUDA events inside the harness
 * (verify/templates/kcc_cuda.h), checked with compute-sanitizer when it is
 * installed.
 *
 * The hardware description comes from a tiny query program
 * (programs/cuda_query.cu) built and run once; its answer is cached in the
 * process and on disk under the cache dir (keyed by the GPU's UUID),
 * because nvcc takes seconds.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The process-wide cache of the description: the hardware does not change
 * while kcc runs. Strings are malloc'd copies, not arena memory. */
static struct {
	bool done;
	TargetInfo info;
	char *text; /* the query's answer, "key value" lines */
} cache;

static const char *field(Arena *a, const char *text, const char *key)
{
	size_t k = strlen(key);
	for (const char *p = text; p && *p;) {
		if (strncmp(p, key, k) == 0 && p[k] == ' ')
			return arena_strndup(a, p + k + 1, strcspn(p + k + 1, "\n"));
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return NULL;
}

static long long num(Arena *a, const char *text, const char *key)
{
	const char *v = field(a, text, key);
	return v ? atoll(v) : 0;
}

/* nvidia-smi's answer "9.0, GPU-uuid" or NULL when there is no GPU. */
static const char *smi_query(Arena *a)
{
	const char *smi = target_which(a, "nvidia-smi", NULL);
	if (!smi)
		return NULL;
	const char *argv[] = {smi, "--query-gpu=compute_cap,uuid", "--format=csv,noheader",
	                      NULL};
	ProcSpec ps = {.argv = argv, .timeout_s = 20};
	ProcResult r;
	if (proc_run(a, &ps, &r) != 0 || !proc_ok(&r) || !strchr(r.out, '.'))
		return NULL;
	return arena_strndup(a, r.out, strcspn(r.out, "\n"));
}

static const char *arch_of(Arena *a, const char *smi)
{
	const char *env = getenv("KCC_CUDA_ARCH");
	if (env && *env)
		return arena_strdup(a, env);
	if (!smi)
		return "sm_90a";
	int major = atoi(smi);
	const char *dot = strchr(smi, '.');
	int minor = dot ? atoi(dot + 1) : 0;
	return arena_printf(a, "sm_%d%d%s", major, minor, major >= 9 ? "a" : "");
}

static const char *cache_path(Arena *a, const char *smi)
{
	const char *uuid = smi ? strchr(smi, ',') : NULL;
	if (!uuid)
		return NULL;
	uuid += 1 + strspn(uuid + 1, " ");
	const char *dir = target_cache_home(a);
	if (!dir || file_mkdirs(dir, 0755) != 0)
		return NULL;
	return arena_printf(a, "%s/cuda-%s.txt", dir, uuid);
}

/* Build and run the query program in a temp dir; its stdout or NULL. */
static char *run_query(Arena *a, const char *arch)
{
	const char *nvcc = target_which(a, "nvcc", CUDA_DIRS);
	size_t len;
	const char *query = target_program("cuda_query.cu", &len);
	char *dir = nvcc && query ? scratch_make(a, NULL, "kcc-query") : NULL;
	if (!dir)
		return NULL;
	char *src = arena_printf(a, "%s/q.cu", dir), *exe = arena_printf(a, "%s/q", dir);
	char *out = NULL;
	if (file_write_atomic(src, query, len) == 0) {
		const char *gen = arena_printf(a, "arch=compute_%s,code=%s", arch + 3, arch);
		const char *cc[] = {nvcc, "-gencode", gen, "-o", exe, src, NULL};
		ProcSpec ps = {.argv = cc, .timeout_s = 120};
		ProcResult r;
		if (proc_run(a, &ps, &r) == 0 && proc_ok(&r)) {
			const char *run[] = {exe, NULL};
			ProcSpec rs = {.argv = run, .timeout_s = 30};
			if (proc_run(a, &rs, &r) == 0)
				out = r.out;
		}
	}
	scratch_remove(dir);
	return out;
}

/* nvcc's fixed flags for arch, after the compiler's path. */
static void cuda_flags(Strvec *v, const char *arch)
{
	strvec_pushl(v, "-std=c++17", "-O3", "-lineinfo", "-gencode", NULL);
	strvec_pushf(v, "arch=compute_%s,code=%s", arch + 3, arch);
	strvec_pushl(v, "-Xcompiler", "-fopenmp", "-Xcompiler", "-Wall",
	             "-Wno-deprecated-gpu-targets", NULL);
}

static void fill_info(Arena *a, const char *text, const char *arch, TargetInfo *o)
{
	memset(o, 0, sizeof *o);
	o->arch = arch;
	Strvec f = STRVEC_INIT(a);
	cuda_flags(&f, arch);
	Strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "nvcc");
	for (size_t i = 0; i < f.n; i++)
		sb_addf(&sb, " %s", f.v[i]);
	sb_adds(&sb, " -o harness harness.cu -lgomp (the harness #includes your file)");
	o->build_line = sb_to_arena(&sb, a);
	o->present = text && num(a, text, "present") == 1;
	if (!o->present) {
		o->model = "no NVIDIA GPU found";
		o->l2 = 50u << 20; /* an H100's, so flushes are sized sensibly */
		o->flush_bytes = 2 * o->l2;
		o->summary = arena_printf(a, "no NVIDIA GPU found; building for %s", arch);
		return;
	}
	o->model = field(a, text, "name");
	o->cores = (int)num(a, text, "sms");
	o->l2 = (uint64_t)num(a, text, "l2");
	o->mem = (uint64_t)num(a, text, "mem");
	o->flush_bytes = 2 * (o->l2 ? o->l2 : 50u << 20);
	double clk = (double)num(a, text, "clock_khz") * 1e3;
	double mclk = (double)num(a, text, "memclock_khz") * 1e3;
	/* 128 fp32 lanes per SM and an FMA per cycle: right for sm_80..sm_90. */
	o->peak_gflops = o->cores * 128.0 * 2.0 * clk * 1e-9;
	o->clock_ghz = clk * 1e-9;
	o->smem_block = (uint64_t)num(a, text, "smem_block");
	o->smem_block_optin = (uint64_t)num(a, text, "smem_optin");
	o->smem_sm = (uint64_t)num(a, text, "smem_sm");
	o->regs_block = (int)num(a, text, "regs_block");
	o->regs_sm = (int)num(a, text, "regs_sm");
	o->threads_sm = (int)num(a, text, "threads_sm");
	o->peak_gbps = 2.0 * mclk * (double)num(a, text, "bus_bits") / 8.0 * 1e-9;
	o->summary = arena_printf(a,
	    "%s (%s), %d SMs, L2 %llu MiB, %llu MiB memory, ~%.0f GFLOP/s fp32, ~%.0f GB/s",
	    o->model, arch, o->cores, (unsigned long long)(o->l2 >> 20),
	    (unsigned long long)(o->mem >> 20), o->peak_gflops, o->peak_gbps);
}

static int cuda_describe(const Target *t, Arena *a, TargetInfo *out)
{
	(void)t;
	if (!cache.done) {
		const char *smi = smi_query(a);
		const char *arch = arch_of(a, smi);
		const char *path = cache_path(a, smi);
		char *text = NULL;
		size_t len;
		/* A description cached by an older kcc lacks the limits: ask again. */
		if (!path || file_read(a, path, &text, &len) != 0 || !strstr(text, "smem_optin"))
			text = smi ? run_query(a, arch) : NULL;
		if (path && text && num(a, text, "present") == 1)
			file_write_atomic(path, text, strlen(text));
		cache.text = strdup(text ? text : "present 0\n");
		cache.info.arch = strdup(arch);
		cache.done = true;
	}
	fill_info(a, cache.text, arena_strdup(a, cache.info.arch), out);
	return 0;
}

static int cuda_build(const Target *t, Arena *a, const TargetBuild *b, TargetBuilt *out)
{
	memset(out, 0, sizeof *out);
	const TargetProject *pj = b->project ? target_project() : NULL;
	const char *nvcc = pj && pj->nvcc ? pj->nvcc : getenv("NVCC");
	if (!nvcc || !*nvcc)
		nvcc = target_which(a, "nvcc", CUDA_DIRS);
	if (!nvcc) {
		out->log = "nvcc not found in PATH or /usr/local/cuda/bin";
		out->cmdline = "nvcc";
		return -1;
	}
	TargetInfo info;
	t->describe(t, a, &info);
	Strvec argv = STRVEC_INIT(a);
	strvec_push(&argv, nvcc);
	cuda_flags(&argv, info.arch);
	target_build_tail(&argv, b, pj ? pj->nvcc_flags : NULL, "-lgomp");
	return target_compile(a, b, argv.v, b->runner, PROC_SANDBOX, out);
}

static int cuda_run(const Target *t, Arena *a, const TargetRun *r, ProcResult *out)
{
	(void)t;
	return target_run_proc(a, r, false, out);
}

/* Each tool in turn on the same run; the first report rejects. */
static int cuda_sanitize(const Target *t, Arena *a, const TargetRun *r, TargetSanitized *out)
{
	(void)t;
	memset(out, 0, sizeof *out);
	out->clean = true;
	const char *cs = target_which(a, "compute-sanitizer", CUDA_DIRS);
	if (!cs)
		return 0;
	out->ran = true;
	static const char *const tools[] = {"memcheck", "racecheck", "initcheck", "synccheck"};
	for (size_t i = 0; i < ARRAY_LEN(tools); i++) {
		Strvec argv = STRVEC_INIT(a);
		strvec_pushl(&argv, cs, "--tool", tools[i], "--error-exitcode", "86", "--print-limit",
		             "20", NULL);
		strvec_pushv(&argv, r->argv);
		TargetRun sr = *r;
		sr.argv = argv.v;
		sr.timeout_s = (r->timeout_s > 0 ? r->timeout_s : 10) * 30;
		ProcResult pr;
		target_run_proc(a, &sr, false, &pr);
		if (!proc_ok(&pr)) {
			out->clean = false;
			out->tool = tools[i];
			out->log = arena_printf(a, "%s\n%s", proc_describe(a, &(ProcSpec){0}, &pr),
			                        proc_tail(arena_printf(a, "%s%s", pr.out, pr.err), 30));
			return 0;
		}
	}
	return 0;
}

/* ptxas's resource report, the fallback profile when ncu is missing. */
static const char *const PROFILE_FLAGS[] = {"-Xptxas", "-v", NULL};

const Target target_cuda = {
    .name = "cuda",
    .about = "CUDA kernels built with nvcc for the GPU present, timed with CUDA events",
    .lang = LANG_CUDA,
    .src_ext = ".cu",
    .runtime = "kcc_cuda.h",
    .build = cuda_build,
    .run = cuda_run,
    .describe = cuda_describe,
    .sanitize = cuda_sanitize,
    .profile = cuda_profile,
    .profile_flags = PROFILE_FLAGS,
    .peaks = cuda_peaks,
};
