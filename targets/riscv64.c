/*
 * riscv64.c — the riscv64 target: C kernels cross-built with Debian's
 * `riscv64-linux-gnu-gcc -static -O2 -march=rv64gcv` ($KCC_RISCV_CC
 * overrides the compiler), or with `clang-22 --target=riscv64-linux-gnu`
 * when the kernel includes <riscv_vector.h> (GCC 12 has no RVV
 * intrinsics), and run under `qemu-riscv64 -cpu rv64,v=true,vlen=N` (N is
 * --riscv-vlen, 128 by default) with kcc's plugin (targets/qemu/), which
 * counts the instructions executed. The measurement is that count (or its
 * weighted cost, --riscv-cost): deterministic, so the search needs no noise
 * margin, and the profile is the plugin's per-function, per-block and
 * per-class counts (riscv64_profile.c). One hart: OpenMP pragmas are
 * ignored and <omp.h> is a one-thread stub (programs/riscv64_omp.h)
 * written next to the harness. The QEMU command line and the options that
 * shape it are riscv64_qemu.c.
 * docs/riscv64.md is the user's view.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *cross_cc(void)
{
	const char *cc = getenv("KCC_RISCV_CC");
	return cc && *cc ? cc : "riscv64-linux-gnu-gcc";
}

/* The project's preprocessor flags only (-I -D -U -iquote -isystem
 * -include): its other flags are for the host's compiler (-march=native
 * would not cross-compile). */
static const char *const *project_flags(Arena *a)
{
	const char *const *f = target_project()->cflags;
	static const char *const keep[] = {"-I", "-D", "-U", "-iquote", "-isystem", "-include"};
	Strvec v = STRVEC_INIT(a);
	for (int i = 0; f && f[i]; i++) {
		for (size_t k = 0; k < ARRAY_LEN(keep); k++) {
			size_t len = strlen(keep[k]);
			if (strncmp(f[i], keep[k], len))
				continue;
			strvec_push(&v, f[i]);
			if (!f[i][len] && f[i + 1]) /* "-I" "dir" */
				strvec_push(&v, f[++i]);
			break;
		}
	}
	return v.v;
}

/* Built here, whatever the runner: QEMU runs here too (rv_run). */
static int compile(Arena *a, const TargetBuild *b, bool clang, TargetBuilt *out)
{
	Strvec argv = STRVEC_INIT(a);
	if (clang)
		strvec_pushl(&argv, "clang-22", "--target=riscv64-linux-gnu", NULL);
	else
		strvec_push(&argv, cross_cc());
	strvec_pushl(&argv, "-std=gnu17", "-O2", "-march=rv64gcv", "-mabi=lp64d", "-static",
	             "-Wall", "-Wno-unknown-pragmas", "-Wno-unused-function", "-I", b->dir, NULL);
	target_build_tail(&argv, b, b->project ? project_flags(a) : NULL, "-lm");
	TargetBuild here = *b;
	here.put = NULL;
	return target_compile(a, &here, argv.v, NULL, PROC_PLAIN, out);
}

static int rv_build(const Target *t, Arena *a, const TargetBuild *b, TargetBuilt *out)
{
	(void)t;
	size_t len;
	const char *omp = target_program("riscv64_omp.h", &len);
	if (!omp || file_write_atomic(arena_printf(a, "%s/omp.h", b->dir), omp, len)) {
		*out = (TargetBuilt){.ok = false, .cmdline = "", .log = "cannot write omp.h"};
		return -1;
	}
	int rc = compile(a, b, false, out);
	/* GCC 12 has no riscv_vector.h: RVV intrinsics need clang. */
	if (rc != 0 && out->log && strstr(out->log, "riscv_vector.h")) {
		TargetBuilt gcc = *out;
		rc = compile(a, b, true, out);
		if (rc != 0)
			out->log = arena_printf(a, "%s\n(%s failed first: no riscv_vector.h)", out->log,
			                        gcc.cmdline);
	}
	return rc;
}

static int rv_run(const Target *t, Arena *a, const TargetRun *r, ProcResult *out)
{
	(void)t;
	const char *why = NULL;
	const char *cwd = r->cwd ? r->cwd : ".";
	const char *args = arena_printf(a, "window=%s/kcc_icount.window,on=KCC_icount_on,"
	                                   "off=KCC_icount_off",
	                                cwd);
	const char **argv = riscv64_qemu_argv(a, cwd, args, r->argv, &why);
	if (!argv) {
		memset(out, 0, sizeof *out);
		out->spawn_failed = true;
		out->exit_code = -1;
		out->err = (char *)why;
		out->out = "";
		return -1;
	}
	TargetRun qr = *r;
	qr.argv = argv;
	qr.cwd = cwd;
	/* riscv64 builds and runs here: QEMU and the plugin are local tools */
	qr.runner = NULL;
	qr.put = NULL;
	qr.get = NULL;
	/* RLIMIT_AS covers QEMU's own code buffer (1 GiB) as well as the guest */
	if (qr.mem_bytes)
		qr.mem_bytes += 2ull << 30;
	return target_run_proc(a, &qr, true, out);
}

/* The first line of a tool's --version, or NULL. */
static const char *tool_version(Arena *a, const char *tool, const char *flag)
{
	const char *argv[] = {tool, flag, NULL};
	ProcSpec ps = {.argv = argv, .timeout_s = 20};
	ProcResult r;
	if (proc_run(a, &ps, &r) != 0 || !proc_ok(&r))
		return NULL;
	return arena_strndup(a, r.out, strcspn(r.out, "\n"));
}

static int rv_describe(const Target *t, Arena *a, TargetInfo *out)
{
	(void)t;
	static TargetInfo cached;
	static int cached_vlen;
	int vlen_bits = riscv64_vlen();
	const char *cost_spec = riscv64_cost();
	if (cached.summary && cached_vlen == vlen_bits) {
		*out = cached;
		return 0;
	}
	memset(out, 0, sizeof *out);
	out->arch = "rv64gcv";
	out->cores = 1;
	out->mem = 4ull << 30;
	out->flush_bytes = 0;
	const char *cc = tool_version(a, cross_cc(), "-dumpversion");
	const char *qemu = tool_version(a, "qemu-riscv64", "--version");
	const char *why = NULL;
	const char *so = cc && qemu ? target_qemu_plugin(a, &why) : NULL;
	if (!cc || !qemu || !so) {
		out->present = false;
		out->model = !cc ? arena_printf(a, "%s not found (scripts/setup installs "
		                                   "gcc-riscv64-linux-gnu)", cross_cc())
		             : !qemu ? "qemu-riscv64 not found (scripts/setup installs qemu-user)"
		                     : why;
		out->summary = out->model;
		return 0;
	}
	out->present = true;
	out->model = arena_printf(a, "QEMU riscv64 user mode (rv64gcv, VLEN %d bits)", vlen_bits);
	const char *v = strstr(qemu, "version ");
	out->summary = arena_printf(
	    a, "riscv64 rv64gcv, VLEN %d bits (one hart), emulated by qemu-riscv64 %.*s; "
	       "measured in instructions executed%s (kcc's QEMU plugin: no caches, no "
	       "pipeline, one instruction = one unit whatever its vector length); "
	       "built with %s %s -static",
	    vlen_bits, v ? (int)strcspn(v + 8, " ") : 1, v ? v + 8 : "?",
	    cost_spec[0] ? arena_printf(a, ", weighted %s", cost_spec) : "", cross_cc(), cc);
	cached = *out;
	cached.model = strdup(out->model);
	cached.summary = strdup(out->summary);
	cached_vlen = vlen_bits;
	return 0;
}

static const char *const PARSE_ARGS[] = {"--target=riscv64-linux-gnu", "-march=rv64gcv",
                                         NULL};

/* Debug info for the profile's source lines. DWARF 4: Debian 12's
 * riscv64-linux-gnu-ld (binutils 2.40) crashes linking clang 22's DWARF 5. */
static const char *const PROFILE_FLAGS[] = {"-gdwarf-4", NULL};

const Target target_riscv64 = {
    .name = "riscv64",
    .about = "C kernels cross-built for rv64gcv, run under qemu-riscv64, measured in "
             "instructions",
    .lang = LANG_C,
    .src_ext = ".c",
    .runtime = "kcc_riscv.h",
    .unit = "instructions",
    .parse_args = PARSE_ARGS,
    .build = rv_build,
    .run = rv_run,
    .describe = rv_describe,
    .sanitize = NULL,
    .profile = riscv64_profile,
    .profile_flags = PROFILE_FLAGS,
    .profile_slow = true,
    .peaks = NULL,
};
