/*
 * cpu.c — the cpu target: C kernels built with the system compiler
 * (`cc -O2 -march=native -fopenmp`, $KCC_CC overrides the compiler), run
 * under RLIMIT_AS, timed with the monotonic clock inside the harness
 * (verify/templates/kcc_cpu.h). The hardware comes from /proc/cpuinfo and
 * /sys/devices/system/cpu/cpu0/cache.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The compiler and its fixed flags. */
static const char *FIXED[] = {"cc", "-std=gnu17", "-O2", "-march=native", "-fopenmp",
                              "-Wall", "-Wno-unknown-pragmas", "-Wno-unused-function"};

/* The project's compiler (project.c), else $KCC_CC, else $CC (as make's
 * $(CC)), else cc. */
static const char *compiler(const TargetProject *pj)
{
	const char *cc = pj && pj->cc ? pj->cc : getenv("KCC_CC");
	if (!cc || !*cc)
		cc = getenv("CC");
	return cc && *cc ? cc : FIXED[0];
}

static int cpu_build(const Target *t, Arena *a, const TargetBuild *b, TargetBuilt *out)
{
	(void)t;
	const TargetProject *pj = b->project ? target_project() : NULL;
	Strvec argv = STRVEC_INIT(a);
	strvec_push(&argv, compiler(pj));
	for (size_t i = 1; i < ARRAY_LEN(FIXED); i++)
		strvec_push(&argv, FIXED[i]);
	target_build_tail(&argv, b, pj ? pj->cflags : NULL, "-lm");
	return target_compile(a, b, argv.v, b->runner, PROC_SANDBOX, out);
}

static int cpu_run(const Target *t, Arena *a, const TargetRun *r, ProcResult *out)
{
	(void)t;
	return target_run_proc(a, r, true, out);
}

/* "32K" / "1024K" / "32M" as in sysfs. */
static uint64_t parse_size(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 10);
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	return v;
}

static const char *read_line(Arena *a, const char *path)
{
	char *text;
	size_t len;
	if (file_read(a, path, &text, &len) != 0)
		return NULL;
	text[strcspn(text, "\n")] = 0;
	return text;
}

static void read_caches(Arena *a, TargetInfo *info)
{
	for (int i = 0; i < 8; i++) {
		const char *base = arena_printf(a, "/sys/devices/system/cpu/cpu0/cache/index%d", i);
		const char *lvl = read_line(a, arena_printf(a, "%s/level", base));
		const char *type = read_line(a, arena_printf(a, "%s/type", base));
		const char *size = read_line(a, arena_printf(a, "%s/size", base));
		if (!lvl || !type || !size)
			break;
		uint64_t v = parse_size(size);
		if (!strcmp(lvl, "1") && !strcmp(type, "Data"))
			info->l1d = v;
		else if (!strcmp(lvl, "2"))
			info->l2 = v;
		else if (!strcmp(lvl, "3"))
			info->l3 = v;
	}
}

/* The value of the first "KEY<tabs>: value" line of /proc/cpuinfo's text,
 * or NULL. */
static const char *cpuinfo_field(Arena *a, const char *text, const char *key)
{
	size_t k = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, k) || (p[k] != ' ' && p[k] != '\t' && p[k] != ':'))
			continue;
		const char *c = strchr(p, ':');
		if (!c)
			return NULL;
		c += 1 + strspn(c + 1, " \t");
		return arena_strndup(a, c, strcspn(c, "\n"));
	}
	return NULL;
}

/* The vector and matrix extensions -march=native builds for, from
 * cpuinfo's flags (x86) or Features (arm): a model name on a VM is often
 * just "Intel(R) Xeon(R) Processor", and whether AVX-512 is there decides
 * how a kernel should be vectorized. "" when none is known. */
static const char *cpu_isa(Arena *a, const char *cpuinfo)
{
	static const char *const WANT[] = {
	    "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512dq", "avx512bw",
	    "avx512vl", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16",
	    "amx_int8", "asimd", "asimdhp", "sve", "sve2", "bf16", "i8mm", NULL};
	const char *flags = cpuinfo_field(a, cpuinfo, "flags");
	if (!flags)
		flags = cpuinfo_field(a, cpuinfo, "Features");
	if (!flags)
		return "";
	const char *line = arena_printf(a, " %s ", flags);
	Strbuf sb = STRBUF_INIT;
	for (int i = 0; WANT[i]; i++)
		if (strstr(line, arena_printf(a, " %s ", WANT[i])))
			sb_addf(&sb, "%s%s", sb.len ? " " : "", WANT[i]);
	if (!sb.len) {
		sb_release(&sb);
		return "";
	}
	return sb_to_arena(&sb, a);
}

static int cpu_describe(const Target *t, Arena *a, TargetInfo *out)
{
	(void)t;
	memset(out, 0, sizeof *out);
	out->present = true;
	char *buf = NULL;
	size_t clen = 0;
	const char *cpuinfo = file_read(a, "/proc/cpuinfo", &buf, &clen) == 0 ? buf : "";
	const char *model = cpuinfo_field(a, cpuinfo, "model name");
	out->model = model ? model : "unknown cpu";
#if defined(__x86_64__)
	out->arch = "x86_64";
#elif defined(__aarch64__)
	out->arch = "aarch64";
#else
	out->arch = "unknown";
#endif
	out->cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
	out->mem = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
	read_caches(a, out);
	Strbuf sb = STRBUF_INIT;
	const TargetProject *pj = target_project();
	sb_adds(&sb, compiler(pj));
	for (size_t i = 1; i < ARRAY_LEN(FIXED); i++)
		sb_addf(&sb, " %s", FIXED[i]);
	for (int i = 0; pj->cflags && pj->cflags[i]; i++)
		sb_addf(&sb, " %s", pj->cflags[i]);
	sb_adds(&sb, " -o harness harness.c -lm (the harness #includes your file)");
	out->build_line = sb_to_arena(&sb, a);
	uint64_t llc = out->l3 ? out->l3 : out->l2 ? out->l2 : (8u << 20);
	out->flush_bytes = 2 * llc;
	const char *isa = cpu_isa(a, cpuinfo);
	out->summary = arena_printf(a,
	    "%s (%s%s%s), %d cores, L1d %llu KiB, L2 %llu KiB, L3 %llu KiB, %llu MiB RAM",
	    out->model, out->arch, *isa ? ": " : "", isa, out->cores,
	    (unsigned long long)(out->l1d >> 10), (unsigned long long)(out->l2 >> 10),
	    (unsigned long long)(out->l3 >> 10), (unsigned long long)(out->mem >> 20));
	return 0;
}

/* perf stat's hardware counters when they work (perf.c), else callgrind's
 * simulation (callgrind.c); the profile's notes say which tool ran. */
static int cpu_profile(const Target *t, Arena *a, const TargetProfileRun *r, Profile *out)
{
	if (perf_works(a))
		return perf_profile(a, r, out);
	if (!target_which(a, "valgrind", NULL)) {
		profile_note(a, out, "neither perf's hardware counters nor valgrind are available: "
		                     "no profile, measurements only");
		return -1;
	}
	return callgrind_profile(t, a, r, out);
}

/* valgrind cannot decode AVX-512: the profile build keeps -march=native's
 * other extensions. */
static const char *const PROFILE_FLAGS[] = {"-mno-avx512f", "-g", NULL};

/* The counterpart of compute-sanitizer (docs/verifier.md): out-of-bounds
 * accesses into the guard zones, writes to `in` buffers (read-only pages
 * during the call, KCC_ASAN in kcc_cpu.h) and undefined behaviour abort
 * the run even when the candidate restores what it touched. */
static const char *const SANITIZE_FLAGS[] = {"-fsanitize=address,undefined",
                                             "-fno-sanitize-recover=all",
                                             "-fno-omit-frame-pointer", "-DKCC_ASAN", NULL};

const Target target_cpu = {
    .name = "cpu",
    .about = "C kernels built with the system compiler (cc -O2 -march=native -fopenmp), "
             "timed here",
    .lang = LANG_C,
    .src_ext = ".c",
    .runtime = "kcc_cpu.h",
    .build = cpu_build,
    .run = cpu_run,
    .describe = cpu_describe,
    .sanitize = NULL,
    .sanitize_flags = SANITIZE_FLAGS,
    .profile = cpu_profile,
    .profile_flags = PROFILE_FLAGS,
    .profile_slow = true,
    .peaks = cpu_peaks,
};
