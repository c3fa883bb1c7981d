/*
 * test_target_cuda_build.c — every generated CUDA harness must at least
 * compile with nvcc here, where no GPU runs it: the harness for CUDA
 * kernels of testsuite/kernels (as written and promoted to f64 for the
 * reference) is generated and built with the cuda target; so are the
 * scripted tensor-core answer of scripts/gpu-search and the profile driver
 * (targets/profile.c) of examples/gemm.cu, whose profile here, with no GPU
 * to run it, is ptxas's resource report. Prints SKIP and passes when nvcc
 * is not installed. Set KCC_TEST_CUDA_ALL=1 to build every
 * kernel and rewrite (minutes); by default a representative few.
 */
#include "ir/ir.h"
#include "targets/target.h"
#include "testsuite/unit/check.h"
#include "verify/verify.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The kernel file at path, parsed; NULL (said why) when it cannot be read
 * or parsed. */
static Unit *load(Arena *a, const char *path)
{
	char *text;
	size_t len;
	if (file_read(a, path, &text, &len) != 0) {
		fprintf(stderr, "%s: cannot be read\n", path);
		return NULL;
	}
	diag_source(path, text, len);
	Unit *u = ir_parse(a, path, text, len, &(IrOptions){0}, true);
	if (!u)
		fprintf(stderr, "%s: does not parse\n", path);
	return u;
}

static bool build(Arena *a, const Target *t, const char *dir, const char *path, bool promote)
{
	Unit *u = load(a, path);
	if (!u)
		return false;
	const char *text = u->text;
	size_t len = u->len;
	const char *why = "";
	const char *kfile = arena_printf(a, "%s/kernel.cu", dir);
	const char *hfile = arena_printf(a, "%s/harness.cu", dir);
	char *src = verify_harness_source(a, u, t, "kernel.cu", &why);
	if (!src || file_write_atomic(kfile, text, len) || file_write_atomic(hfile, src, strlen(src)) ||
	    verify_write_runtime(a, dir)) {
		fprintf(stderr, "%s: no harness: %s\n", path, why);
		return false;
	}
	const char *defs[] = {"KCC_PROMOTE", NULL};
	TargetBuild b = {.dir = dir, .src = hfile, .exe = arena_printf(a, "%s/h", dir),
	                 .defines = promote ? defs : NULL};
	TargetBuilt out;
	int rc = t->build(t, a, &b, &out);
	if (rc != 0)
		fprintf(stderr, "%s%s: nvcc failed:\n%s\n%s\n", path, promote ? " (promoted)" : "",
		        out.cmdline, out.log);
	else
		printf("built %s%s (%.1f s)\n", path, promote ? " promoted to f64" : "", out.wall_s);
	return rc == 0;
}

/* The profile program (the harness built with -DKCC_PROFILE) builds as
 * CUDA C++; without a GPU (or ncu) the profile falls back to ptxas's report
 * of the same build. */
static void profile_driver(Arena *a, const Target *t)
{
	const char *path = "../examples/gemm.cu";
	Unit *u = load(a, path);
	CHECK(u != NULL);
	if (!u)
		return;
	Profile p;
	/* keep: the work dir stays with the tool's raw output (--keep-temps) */
	ProfileAsk ask = {.keep = true};
	int rc = verify_profile(t, a, u, &u->spec.check[0], NULL, 120, &ask, &p);
	CHECK(p.kept != NULL);
	if (p.kept) {
		const char *raw = arena_printf(a, "%s/%s", p.kept,
		                               p.source && !strcmp(p.source, "ncu") ? "ncu.csv" : "ptxas.txt");
		CHECK(access(raw, R_OK) == 0);
		CHECK(access(arena_printf(a, "%s/harness.cu", p.kept), R_OK) == 0);
		if (system(arena_printf(a, "rm -rf '%s'", p.kept)) != 0)
			fprintf(stderr, "cannot remove %s\n", p.kept);
	}
	if (rc != 0 || strstr(p.notes, "does not build"))
		fprintf(stderr, "profile of %s: %s\n", path, p.notes);
	CHECK(rc == 0);
	CHECK(p.notes && !strstr(p.notes, "does not build"));
	CHECK_STR(p.shape, "M=127 N=129 K=65");
	const ProfileMetric *regs = profile_get(&p, "registers per thread");
	if (!strcmp(p.source, "ptxas+events"))
		CHECK(regs && regs->value > 0 && regs->value <= 255);
	else
		CHECK_STR(p.source, "ncu");
	printf("profile of %s: %s\n%s", path, p.source, profile_text(a, &p));
}

/* KCC_TEST_CUDA_ALL=1: every kernel's harness builds in profile mode too
 * (without a GPU, the profile is ptxas's report of that build). */
static void profile_builds(Arena *a, const Target *t, const char *path)
{
	Unit *u = load(a, path);
	CHECK(u != NULL);
	if (!u)
		return;
	Profile p;
	int rc = verify_profile(t, a, u, target_profile_shape(t, u), NULL, 120, NULL, &p);
	if (rc != 0 || strstr(p.notes, "does not build"))
		fprintf(stderr, "profile of %s: %s\n", path, p.notes);
	CHECK(rc == 0 && !strstr(p.notes, "does not build"));
}

int main(void)
{
	Arena *a = arena_new();
	const Target *t = target_find("cuda");
	CHECK(t != NULL);
	if (!target_which(a, "nvcc", (const char *[]){"/usr/local/cuda/bin", NULL})) {
		printf("SKIP: nvcc not found\n");
		return 0;
	}
	TargetInfo info;
	CHECK(t->describe(t, a, &info) == 0);
	CHECK(info.arch && !strncmp(info.arch, "sm_", 3));
	printf("cuda target: %s\n", info.summary);
	char dir[] = "/tmp/kcc-cuda-build-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	static const char *const few[] = {"kernels/gemm_f32.cu", "kernels/gemm_f16.cu",
	                                  "kernels/histogram.fast.cu"};
	static const char *const all[] = {
	    "attention_decode", "conv1d", "gather", "gemm_f16", "gemm_f32", "histogram",
	    "layernorm", "matvec_f64", "rowsum", "softmax", "stencil2d", "transpose"};
	const char *env = getenv("KCC_TEST_CUDA_ALL");
	if (env && *env == '1') {
		for (size_t i = 0; i < ARRAY_LEN(all); i++) {
			const char *k = arena_printf(a, "kernels/%s.cu", all[i]);
			CHECK(build(a, t, dir, k, false));
			CHECK(build(a, t, dir, k, true));
			CHECK(build(a, t, dir, arena_printf(a, "kernels/%s.fast.cu", all[i]), false));
			profile_builds(a, t, k);
			profile_builds(a, t, arena_printf(a, "kernels/%s.fast.cu", all[i]));
		}
	} else {
		for (size_t i = 0; i < ARRAY_LEN(few); i++)
			CHECK(build(a, t, dir, few[i], false));
		CHECK(build(a, t, dir, few[0], true));
	}
	CHECK(build(a, t, dir, "search/fixtures/gemm.wmma.cu", false));
	profile_driver(a, t);
	char *rm = arena_printf(a, "%s", dir);
	const char *argv[] = {"rm", "-rf", rm, NULL};
	ProcResult r;
	proc_run(a, &(ProcSpec){.argv = argv, .timeout_s = 30}, &r);
	arena_free(a);
	return check_summary("test_target_cuda_build");
}
