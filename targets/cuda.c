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
 * The hardware description comes from a tiny query program built and run
 * once; its answer is cached in the process and on disk under
 * $XDG_CACHE_HOME/kcc (keyed by the GPU's UUID), because nvcc takes seconds.
 */
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CUDA_DIRS[] = {"/usr/local/cuda/bin", NULL};

static const char QUERY_SRC[] =
    "#include <cstdio>\n#include <cuda_runtime.h>\n"
    "int main(){int n=0;if(cudaGetDeviceCount(&n)!=cudaSuccess||n==0){"
    "printf(\"present 0\\n\");return 1;}\n"
    "cudaDeviceProp p;cudaGetDeviceProperties(&p,0);int clk=0,mclk=0,bus=0;\n"
    "cudaDeviceGetAttribute(&clk,cudaDevAttrClockRate,0);\n"
    "cudaDeviceGetAttribute(&mclk,cudaDevAttrMemoryClockRate,0);\n"
    "cudaDeviceGetAttribute(&bus,cudaDevAttrGlobalMemoryBusWidth,0);\n"
    "printf(\"present 1\\nname %s\\ncc %d%d\\nsms %d\\nl2 %d\\nmem %zu\\n"
    "clock_khz %d\\nmemclock_khz %d\\nbus_bits %d\\n\",p.name,p.major,p.minor,"
    "p.multiProcessorCount,p.l2CacheSize,p.totalGlobalMem,clk,mclk,bus);\n"
    "printf(\"smem_block %zu\\nsmem_optin %zu\\nsmem_sm %zu\\nregs_block %d\\n"
    "regs_sm %d\\nthreads_sm %d\\n\",p.sharedMemPerBlock,p.sharedMemPerBlockOptin,"
    "p.sharedMemPerMultiprocessor,p.regsPerBlock,p.regsPerMultiprocessor,"
    "p.maxThreadsPerMultiProcessor);return 0;}\n";

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
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *dir = xdg && *xdg ? arena_printf(a, "%s/kcc", xdg)
	                  : home      ? arena_printf(a, "%s/.cache/kcc", home)
	                              : NULL;
	if (!dir || file_mkdirs(dir, 0755) != 0)
		return NULL;
	return arena_printf(a, "%s/cuda-%s.txt", dir, uuid);
}

/* Build and run the query program in a temp dir; its stdout or NULL. */
static char *run_query(Arena *a, const char *arch)
{
	const char *nvcc = target_which(a, "nvcc", CUDA_DIRS);
	const char *tmp = getenv("TMPDIR");
	char *dir = arena_printf(a, "%s/kcc-query-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!nvcc || !mkdtemp(dir))
		return NULL;
	char *src = arena_printf(a, "%s/q.cu", dir), *exe = arena_printf(a, "%s/q", dir);
	char *out = NULL;
	if (file_write_atomic(src, QUERY_SRC, sizeof QUERY_SRC - 1) == 0) {
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
	unlink(src);
	unlink(exe);
	rmdir(dir);
	return out;
}

/* nvcc's fixed flags for arch, after the compiler's path. */
static const char *const *cuda_flags(Arena *a, const char *arch, size_t *n)
{
	const char *f[] = {"-std=c++17", "-O3", "-lineinfo", "-gencode",
	                   arena_printf(a, "arch=compute_%s,code=%s", arch + 3, arch),
	                   "-Xcompiler", "-fopenmp", "-Xcompiler", "-Wall",
	                   "-Wno-deprecated-gpu-targets"};
	const char **v = arena_alloc(a, sizeof f);
	memcpy(v, f, sizeof f);
	*n = ARRAY_LEN(f);
	return v;
}

static void fill_info(Arena *a, const char *text, const char *arch, TargetInfo *o)
{
	memset(o, 0, sizeof *o);
	o->arch = arch;
	size_t nf;
	const char *const *f = cuda_flags(a, arch, &nf);
	Strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "nvcc");
	for (size_t i = 0; i < nf; i++)
		sb_addf(&sb, " %s", f[i]);
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
	const char **argv = NULL;
	size_t n = 0, cap = 0;
	size_t nf;
	const char *const *fixed = cuda_flags(a, info.arch, &nf);
	ARENA_PUSH(a, argv, n, cap, nvcc);
	for (size_t i = 0; i < nf; i++)
		ARENA_PUSH(a, argv, n, cap, fixed[i]);
	for (int i = 0; b->defines && b->defines[i]; i++)
		ARENA_PUSH(a, argv, n, cap, arena_printf(a, "-D%s", b->defines[i]));
	for (int i = 0; b->incdirs && b->incdirs[i]; i++)
		ARENA_PUSH(a, argv, n, cap, arena_printf(a, "-I%s", b->incdirs[i]));
	for (int i = 0; b->flags && b->flags[i]; i++)
		ARENA_PUSH(a, argv, n, cap, b->flags[i]);
	for (int i = 0; pj && pj->nvcc_flags && pj->nvcc_flags[i]; i++)
		ARENA_PUSH(a, argv, n, cap, pj->nvcc_flags[i]);
	for (int i = 0; b->cand_flags && b->cand_flags[i]; i++)
		ARENA_PUSH(a, argv, n, cap, b->cand_flags[i]);
	const char *tail[] = {"-o", b->exe, b->src, "-lgomp", NULL};
	for (size_t i = 0; i < ARRAY_LEN(tail); i++)
		ARENA_PUSH(a, argv, n, cap, tail[i]);
	ProcSpec ps = {.argv = argv, .cwd = b->dir,
	               .timeout_s = b->timeout_s > 0 ? b->timeout_s : 300,
	               .sandbox = PROC_SANDBOX};
	ProcResult r;
	runner_exec(b->runner, a, &ps, b->put, NULL, &r);
	out->ok = proc_ok(&r);
	out->cmdline = proc_cmdline(a, argv);
	out->log = arena_printf(a, "%s%s%s", r.err, r.out,
	                        out->ok || r.exit_code > 0 ? "" : proc_describe(a, &ps, &r));
	out->wall_s = r.wall_s;
	return out->ok ? 0 : -1;
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
		const char **argv = NULL;
		size_t n = 0, cap = 0;
		const char *pre[] = {cs, "--tool", tools[i], "--error-exitcode", "86",
		                     "--print-limit", "20"};
		for (size_t k = 0; k < ARRAY_LEN(pre); k++)
			ARENA_PUSH(a, argv, n, cap, pre[k]);
		for (int k = 0; r->argv[k]; k++)
			ARENA_PUSH(a, argv, n, cap, r->argv[k]);
		ARENA_PUSH(a, argv, n, cap, NULL);
		TargetRun sr = *r;
		sr.argv = argv;
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

/* ncu.c and peaks.c */
int cuda_profile(const Target *t, Arena *a, const TargetProfileRun *r, Profile *out);
int cuda_peaks(const Target *t, Arena *a, const char *cache_dir, ProfilePeaks *out);

/* ptxas's resource report, the fallback profile when ncu is missing. */
static const char *const PROFILE_FLAGS[] = {"-Xptxas", "-v", NULL};

const Target target_cuda = {
    .name = "cuda",
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
