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
 * ignored and <omp.h> is a one-thread stub written next to the harness.
 * docs/riscv64.md is the user's view.
 */
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *target_qemu_plugin(Arena *a, const char **why);
int riscv64_profile(const Target *t, Arena *a, const TargetProfileRun *r, Profile *out);

static int vlen_bits = 128;
static char cost_spec[256]; /* the plugin's form: "load:4/store:2" */

int target_riscv64_config(int vlen, const char *cost, const char **why)
{
	if (vlen) {
		if (vlen < 128 || vlen > 1024 || (vlen & (vlen - 1))) {
			*why = "the vector length must be a power of two from 128 to 1024 bits "
			       "(QEMU 7.2's range)";
			return -1;
		}
		vlen_bits = vlen;
	}
	if (cost) {
		static const char *const classes[] = {"load", "store", "vector", "vload",
		                                      "vstore", "vsetvl", "branch", "fp",
		                                      "muldiv", "int", "other"};
		if (strlen(cost) >= sizeof cost_spec) {
			*why = "the cost model is too long";
			return -1;
		}
		char buf[sizeof cost_spec];
		strcpy(buf, cost);
		cost_spec[0] = 0;
		for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');
			bool known = false;
			for (size_t i = 0; eq && i < ARRAY_LEN(classes); i++)
				known |= strlen(classes[i]) == (size_t)(eq - tok) &&
				         !strncmp(classes[i], tok, (size_t)(eq - tok));
			char *end = NULL;
			long w = eq ? strtol(eq + 1, &end, 10) : -1;
			if (!known || !end || end == eq + 1 || *end || w < 0 || w > 1000000) {
				*why = "the cost model is CLASS=WEIGHT,... with classes load, store, "
				       "vector, vload, vstore, vsetvl, branch, fp, muldiv, int, other "
				       "and integer weights";
				return -1;
			}
			*eq = ':';
			if (cost_spec[0])
				strcat(cost_spec, "/");
			strcat(cost_spec, tok);
		}
	}
	return 0;
}

static const char *cross_cc(void)
{
	const char *cc = getenv("KCC_RISCV_CC");
	return cc && *cc ? cc : "riscv64-linux-gnu-gcc";
}

/* <omp.h> for one hart: the kernels' OpenMP calls answer as a team of one. */
static const char OMP_STUB[] =
    "/* kcc riscv64: one hart, OpenMP pragmas are ignored (targets/riscv64.c). */\n"
    "#ifndef KCC_OMP_STUB_H\n#define KCC_OMP_STUB_H\n"
    "static inline int omp_get_num_threads(void) { return 1; }\n"
    "static inline int omp_get_max_threads(void) { return 1; }\n"
    "static inline int omp_get_thread_num(void) { return 0; }\n"
    "static inline int omp_get_num_procs(void) { return 1; }\n"
    "static inline int omp_in_parallel(void) { return 0; }\n"
    "static inline void omp_set_num_threads(int n) { (void)n; }\n"
    "#endif\n";

static void add_flags(Arena *a, const char ***argv, size_t *n, size_t *cap,
                      const char *pre, const char *const *vals)
{
	for (int i = 0; vals && vals[i]; i++)
		ARENA_PUSH(a, *argv, *n, *cap, arena_printf(a, "%s%s", pre, vals[i]));
}

/* The project's preprocessor flags only (-I -D -U -iquote -isystem
 * -include): its other flags are for the host's compiler (-march=native
 * would not cross-compile). */
static void add_project(Arena *a, const char ***argv, size_t *n, size_t *cap)
{
	const char *const *f = target_project()->cflags;
	static const char *const keep[] = {"-I", "-D", "-U", "-iquote", "-isystem", "-include"};
	for (int i = 0; f && f[i]; i++) {
		for (size_t k = 0; k < ARRAY_LEN(keep); k++) {
			size_t len = strlen(keep[k]);
			if (strncmp(f[i], keep[k], len))
				continue;
			ARENA_PUSH(a, *argv, *n, *cap, f[i]);
			if (!f[i][len] && f[i + 1]) /* "-I" "dir" */
				ARENA_PUSH(a, *argv, *n, *cap, f[++i]);
			break;
		}
	}
}

static int compile(Arena *a, const TargetBuild *b, bool clang, TargetBuilt *out)
{
	const char **argv = NULL;
	size_t n = 0, cap = 0;
	const char *gcc[] = {cross_cc(), "-std=gnu17", "-O2", "-march=rv64gcv", "-mabi=lp64d"};
	const char *llvm[] = {"clang-22", "--target=riscv64-linux-gnu", "-std=gnu17", "-O2",
	                      "-march=rv64gcv", "-mabi=lp64d"};
	for (size_t i = 0; i < (clang ? ARRAY_LEN(llvm) : ARRAY_LEN(gcc)); i++)
		ARENA_PUSH(a, argv, n, cap, clang ? llvm[i] : gcc[i]);
	const char *common[] = {"-static", "-Wall", "-Wno-unknown-pragmas",
	                        "-Wno-unused-function", "-I", b->dir};
	for (size_t i = 0; i < ARRAY_LEN(common); i++)
		ARENA_PUSH(a, argv, n, cap, common[i]);
	add_flags(a, &argv, &n, &cap, "-D", b->defines);
	add_flags(a, &argv, &n, &cap, "-I", b->incdirs);
	add_flags(a, &argv, &n, &cap, "", b->flags);
	if (b->project)
		add_project(a, &argv, &n, &cap);
	add_flags(a, &argv, &n, &cap, "", b->cand_flags); /* -O2's flag variants */
	const char *tail[] = {"-o", b->exe, b->src, "-lm", NULL};
	for (size_t i = 0; i < ARRAY_LEN(tail); i++)
		ARENA_PUSH(a, argv, n, cap, tail[i]);
	ProcSpec ps = {.argv = argv, .cwd = b->dir,
	               .timeout_s = b->timeout_s > 0 ? b->timeout_s : 300};
	ProcResult r;
	proc_run(a, &ps, &r);
	out->ok = proc_ok(&r);
	out->cmdline = proc_cmdline(a, argv);
	out->log = arena_printf(a, "%s%s%s", r.err, r.out,
	                        proc_ok(&r) || r.exit_code > 0 ? ""
	                                                       : proc_describe(a, &ps, &r));
	out->wall_s = r.wall_s;
	return out->ok ? 0 : -1;
}

static int rv_build(const Target *t, Arena *a, const TargetBuild *b, TargetBuilt *out)
{
	(void)t;
	if (file_write_atomic(arena_printf(a, "%s/omp.h", b->dir), OMP_STUB, sizeof OMP_STUB - 1)) {
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

/* The qemu-riscv64 command line up to the program: -cpu, the plugin and
 * its arguments; NULL with *why when the plugin cannot be built. */
static const char **qemu_argv(Arena *a, const char *cwd, const char *plugin_args,
                              const char *const *prog, const char **why)
{
	const char *built = target_qemu_plugin(a, why);
	if (!built)
		return NULL;
	/* A fresh copy in the run's directory: candidates run with $HOME (the
	 * cache) hidden, and a copy of kcc's own each time cannot have been
	 * tampered with by an earlier run. */
	char *data;
	size_t len;
	const char *so = arena_printf(a, "%s/kcc_icount.so", cwd ? cwd : ".");
	if (file_read(a, built, &data, &len) != 0 || file_write_atomic(so, data, len) != 0 ||
	    chmod(so, 0500) != 0) {
		*why = arena_printf(a, "cannot copy the QEMU plugin into %s", cwd ? cwd : ".");
		return NULL;
	}
	const char **argv = NULL;
	size_t n = 0, cap = 0;
	const char *head[] = {
	    "qemu-riscv64", "-cpu",
	    arena_printf(a, "rv64,v=true,vlen=%d,vext_spec=v1.0", vlen_bits), "-plugin",
	    arena_printf(a, "%s,%s%s%s", so, plugin_args, cost_spec[0] ? ",cost=" : "",
	                 cost_spec),
	    "-E", arena_printf(a, "KCC_ICOUNT_WINDOW=%s/kcc_icount.window", cwd ? cwd : ".")};
	for (size_t i = 0; i < ARRAY_LEN(head); i++)
		ARENA_PUSH(a, argv, n, cap, head[i]);
	for (int i = 0; prog[i]; i++)
		ARENA_PUSH(a, argv, n, cap, prog[i]);
	ARENA_PUSH(a, argv, n, cap, NULL);
	return argv;
}

static int rv_run(const Target *t, Arena *a, const TargetRun *r, ProcResult *out)
{
	(void)t;
	const char *why = NULL;
	const char *cwd = r->cwd ? r->cwd : ".";
	const char *args = arena_printf(a, "window=%s/kcc_icount.window,on=KCC_icount_on,"
	                                   "off=KCC_icount_off",
	                                cwd);
	const char **argv = qemu_argv(a, cwd, args, r->argv, &why);
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

/* For riscv64_profile.c: the qemu command line of a profile run. */
const char **riscv64_qemu_argv(Arena *a, const char *cwd, const char *plugin_args,
                               const char *const *prog, const char **why)
{
	return qemu_argv(a, cwd, plugin_args, prog, why);
}
