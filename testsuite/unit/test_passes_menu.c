/*
 * test_passes_menu.c — the search's text pieces without a kernel run: the
 * built-in menus parse and hold the options docs/menus.md promises, bad
 * menus are refused, prompt templates fill, and tune/flag blocks are
 * written into a source and replaced (not stacked) on the next pass.
 */
#include "../../passes/passes.h"
#include "check.h"

static void builtin_menus(Arena *a)
{
	Menu m;
	CHECK(menu_load(a, "cpu", NULL, &m) == 0);
	const char *cpu[] = {"loop-interchange", "cache-blocking", "simd-vectorization",
	                     "openmp-threads", "unrolling", "prefetching"};
	for (size_t i = 0; i < ARRAY_LEN(cpu); i++)
		CHECK(menu_find(&m, cpu[i]) != NULL);
	CHECK(m.nflags >= 1);
	const MenuOption *o = menu_find(&m, "cache-blocking");
	CHECK(o && *o->description && *o->applies && *o->signals);
	CHECK(menu_load(a, "cuda", NULL, &m) == 0);
	const char *cuda[] = {"shared-memory-tiling", "register-blocking", "double-buffering",
	                      "cp-async-pipelining", "vectorized-access", "unrolling",
	                      "tensor-cores", "warp-reductions", "launch-configuration",
	                      "split-k", "fusion", "smem-swizzle-ldmatrix", "tma-pipeline",
	                      "wgmma-warp-specialization", "block-swizzle", "stream-k"};
	for (size_t i = 0; i < ARRAY_LEN(cuda); i++)
		CHECK(menu_find(&m, cuda[i]) != NULL);
	CHECK(menu_load(a, "riscv64", NULL, &m) == 0);
	const char *rv[] = {"rvv-intrinsics", "rvv-autovectorize", "lmul-choice", "strip-mining",
	                    "unrolling", "register-blocking", "strength-reduction",
	                    "avoid-gathers"};
	for (size_t i = 0; i < ARRAY_LEN(rv); i++)
		CHECK(menu_find(&m, rv[i]) != NULL);
	CHECK(menu_load(a, "sparc", NULL, &m) != 0);
}

static void bad_menus(Arena *a)
{
	Menu m;
	const char *cases[] = {
	    "description: before any section\n",
	    "[option]\n",
	    "[opt x]\n",
	    "[option a]\ncolour: red\n",
	    "[option a]\n[option a]\n",
	    "  continuation\n",
	    "# only a comment\n",
	    "[option a]\nkeep: type\n",
	    "[option a]\nkeep: type < 3\n",
	    "[option a]\nkeep: type = f17\n",
	    "[option a]\nkeep: bound = fast\n",
	    "[option a]\nkeep: L2 hit rate < high\n",
	    "[option a]\nkeep: = 3\n",
	    "[flags f]\nkeep: bound = compute\n",
	};
	for (size_t i = 0; i < ARRAY_LEN(cases); i++)
		CHECK(menu_parse(a, "bad.menu", cases[i], strlen(cases[i]), &m) != 0);
	const char *ok = "[option a]\ndescription: one\n  two\n[flags f]\ntop: #x\ntop: #y\n"
	                 "bottom: #z\n";
	CHECK(menu_parse(a, "ok.menu", ok, strlen(ok), &m) == 0);
	CHECK_STR(m.opts[0].description, "one two");
	CHECK_STR(m.flags[0].top, "#x\n#y\n");
	CHECK_STR(m.flags[0].bottom, "#z\n");
}

/* keep: lines: parsed into conditions, tested against facts and metrics. */
static void keep_lines(Arena *a)
{
	Menu m;
	const char *t = "[option t]\nkeep: type = f16|bf16, bound = compute\n"
	                "keep: L2 hit rate < 60\n[option w]\nkeep: arch >= 90\n"
	                "[option n]\nkeep: type != f32\n";
	CHECK(menu_parse(a, "k.menu", t, strlen(t), &m) == 0);
	CHECK(m.opts[0].nkeep == 2 && m.opts[0].keep[0].n == 2);
	Profile p = {0};
	MenuFacts f = {.type = "f16", .bound = "compute", .arch = "sm_90a", .profile = &p};
	CHECK_STR(menu_keeps(&m.opts[0], &f), "type = f16|bf16, bound = compute");
	CHECK(menu_keeps(&m.opts[1], &f) != NULL);
	CHECK(menu_keeps(&m.opts[2], &f) != NULL);
	f.bound = "memory";
	CHECK(menu_keeps(&m.opts[0], &f) == NULL); /* no metric either */
	profile_set(a, &p, "L2 hit rate", 80, "%", "");
	CHECK(menu_keeps(&m.opts[0], &f) == NULL);
	profile_set(a, &p, "L2 hit rate", 40, "%", "");
	CHECK_STR(menu_keeps(&m.opts[0], &f), "L2 hit rate < 60");
	f.arch = "sm_80";
	CHECK(menu_keeps(&m.opts[1], &f) == NULL);
	f.arch = "x86_64";
	CHECK(menu_keeps(&m.opts[1], &f) == NULL);
	f.type = "f32";
	CHECK(menu_keeps(&m.opts[2], &f) == NULL);
	f.type = NULL; /* unknown: a condition on it does not hold */
	CHECK(menu_keeps(&m.opts[2], &f) == NULL);
}

/* The built-in cuda menu on the flagship case: a compute-bound fp16 GEMM
 * on an H100 always keeps tensor cores and shared-memory tiling; once its
 * profile shows the tensor pipe in use, the Hopper options too; a
 * memory-bound f32 kernel keeps neither. */
static void flagship_menu(Arena *a)
{
	Menu m;
	CHECK(menu_load(a, "cuda", NULL, &m) == 0);
	Profile p = {0};
	MenuFacts f = {.type = "f16", .bound = "compute", .arch = "sm_90a", .profile = &p};
	CHECK(menu_keeps(menu_find(&m, "tensor-cores"), &f) != NULL);
	CHECK(menu_keeps(menu_find(&m, "shared-memory-tiling"), &f) != NULL);
	CHECK(menu_keeps(menu_find(&m, "wgmma-warp-specialization"), &f) == NULL);
	profile_set(a, &p, "tensor pipe active", 35, "%", "");
	CHECK(menu_keeps(menu_find(&m, "wgmma-warp-specialization"), &f) != NULL);
	CHECK(menu_keeps(menu_find(&m, "tma-pipeline"), &f) != NULL);
	CHECK(menu_keeps(menu_find(&m, "smem-swizzle-ldmatrix"), &f) != NULL);
	CHECK(menu_keeps(menu_find(&m, "cp-async-pipelining"), &f) != NULL);
	f.arch = "sm_80";
	CHECK(menu_keeps(menu_find(&m, "wgmma-warp-specialization"), &f) == NULL);
	MenuFacts mem = {.type = "f32", .bound = "memory", .arch = "sm_90a"};
	CHECK(menu_keeps(menu_find(&m, "tensor-cores"), &mem) == NULL);
	CHECK(menu_keeps(menu_find(&m, "shared-memory-tiling"), &mem) == NULL);
	CHECK(menu_keeps(menu_find(&m, "vectorized-access"), &mem) != NULL);
	/* every new option says what it does, when it applies and its signals */
	const char *fast[] = {"smem-swizzle-ldmatrix", "tma-pipeline", "wgmma-warp-specialization",
	                      "block-swizzle", "stream-k"};
	for (size_t i = 0; i < ARRAY_LEN(fast); i++) {
		const MenuOption *o = menu_find(&m, fast[i]);
		CHECK(o && *o->description && *o->applies && *o->signals);
	}
}

static void prompts(Arena *a)
{
	const char *names[] = {"A", "B"};
	const char *vals[] = {"1", "two"};
	CHECK_STR(prompt_fill(a, "x{{A}}y{{B}}{{C}}z{{", names, vals, 2), "x1ytwo{{C}}z{{");
	const char *need[] = {"prompts/system.txt", "prompts/plan.txt", "prompts/implement.txt",
	                      "prompts/repair.txt"};
	for (size_t i = 0; i < ARRAY_LEN(need); i++)
		CHECK(passes_builtin(need[i], NULL) != NULL);
	CHECK(strstr(passes_builtin("prompts/plan.txt", NULL), "{{MENU}}") != NULL);
}

static void tune_blocks(Arena *a)
{
	const char *src = "/* about */\n#pragma kcc entry f\nint x;\n";
	TuneValue v[] = {{"BM", "64"}, {"BN", "32"}};
	MenuFlag f = {.name = "O3", .top = "#pragma T\n", .bottom = "#pragma B\n"};
	size_t n;
	char *t = tune_apply(a, src, strlen(src), v, 2, &f, &n);
	CHECK(strncmp(t, "/* about */\n/* kcc:begin flags O3 */\n#pragma T\n", 47) == 0);
	CHECK(strstr(t, "#ifndef BM\n#define BM 64\n#endif\n#ifndef BN\n#define BN 32\n") != NULL);
	CHECK(strstr(t, "int x;\n/* kcc:begin flags O3 (end) */\n#pragma B\n") != NULL);
	TuneValue w[] = {{"BM", "128"}};
	char *t2 = tune_apply(a, t, n, w, 1, NULL, &n);
	CHECK(strstr(t2, "#define BM 128") && !strstr(t2, "#define BM 64") &&
	      !strstr(t2, "#define BN"));
	CHECK(strstr(t2, "#pragma T") != NULL);
	char *plain = tune_strip(a, t2, n, NULL, &n);
	CHECK_STR(plain, src);
}

int main(void)
{
	diag_init(COLOR_NEVER);
	Arena *a = arena_new();
	builtin_menus(a);
	bad_menus(a);
	keep_lines(a);
	flagship_menu(a);
	prompts(a);
	tune_blocks(a);
	arena_free(a);
	return check_summary("test_passes_menu");
}
