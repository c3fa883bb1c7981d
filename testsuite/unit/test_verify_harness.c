/*
 * test_verify_harness.c — harness generation from a Unit built by hand
 * (no front end involved): buffers bound by spec name, scalars by shape
 * name in signature order, casts to the declared types, the f32 store
 * switch for the fp64 reference; then the cpu target builds it with a tiny
 * kernel, runs a plan and the results parse back with the expected values.
 * Also the cpu target's description and the registry.
 */
#include "testsuite/unit/check.h"
#include "verify/templates/kcc_rt.h"
#include "verify/verify.h"

#include <string.h>
#include <stdlib.h>
#include <unistd.h>

static const char KERNEL[] =
    "void axpy(const float *x, float *y, int n, float a)\n"
    "{\n\tfor (int i = 0; i < n; i++)\n\t\ty[i] = a * x[i];\n}\n";

static Unit *unit(Arena *a)
{
	Unit *u = arena_alloc(a, sizeof *u);
	u->path = "axpy.c";
	u->text = KERNEL;
	u->len = strlen(KERNEL);
	u->lang = LANG_C;
	u->entry_ret = "void";
	u->entry.name = "axpy";
	u->spec.entry = "axpy";
	static CParam cp[] = {{.name = "x", .type = "const float *", .is_pointer = true},
	                      {.name = "y", .type = "float *", .is_pointer = true},
	                      {.name = "n", .type = "int"},
	                      {.name = "a", .type = "float"}};
	u->params = cp;
	u->nparams = 4;
	static Expr en = {.kind = EX_NAME, .name = "n"};
	static SpecParam sp[] = {{.name = "x", .role = ROLE_IN, .type = ET_F32, .extent = &en,
	                          .arg_index = 0},
	                         {.name = "y", .role = ROLE_OUT, .type = ET_F32, .extent = &en,
	                          .arg_index = 1}};
	u->spec.params = sp;
	u->spec.nparams = 2;
	static const char *names[] = {"n", "a"};
	static int64_t vals[] = {5, 3};
	static Shape sh = {.names = names, .values = vals, .n = 2};
	u->spec.check = &sh;
	u->spec.ncheck = 1;
	return u;
}

int main(void)
{
	Arena *a = arena_new();
	const Target *cpu = target_find("cpu");
	CHECK(cpu && target_find("cuda") && !target_find("tpu"));
	CHECK(target_for_lang(LANG_CUDA) == target_find("cuda"));
	TargetInfo info;
	CHECK(cpu->describe(cpu, a, &info) == 0);
	CHECK(info.present && info.cores >= 1 && info.flush_bytes > 0 && info.summary);

	Unit *u = unit(a);
	const char *why = NULL;
	char *src = verify_harness_source(a, u, cpu, "kernel.c", &why);
	CHECK(src != NULL);
	if (!src)
		return check_summary("test_verify_harness");
	CHECK(strstr(src, "#define KCC_NS 2") != NULL);
	CHECK(strstr(src, "(const float *)b[0]") && strstr(src, "(float *)b[1]"));
	CHECK(strstr(src, "(int)s[0]") && strstr(src, "(float)s[1]"));
	CHECK(strstr(src, "KCC_F32_STORE") != NULL);
	CHECK(strstr(src, "#include \"kernel.c\"") > strstr(src, "#include \"kcc_main.h\""));

	/* A pointer without a param pragma cannot be bound. */
	u->spec.nparams = 1;
	CHECK(verify_harness_source(a, u, cpu, "kernel.c", &why) == NULL && why);
	u->spec.nparams = 2;

	/* Build and run it: y = 3 * x, n = 5, one call with sentinel poison. */
	char dir[] = "/tmp/kcc-harness-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	const char *h = arena_printf(a, "%s/harness.c", dir), *exe = arena_printf(a, "%s/h", dir);
	CHECK(verify_write_runtime(a, dir) == 0);
	CHECK(file_write_atomic(arena_printf(a, "%s/kernel.c", dir), KERNEL, strlen(KERNEL)) == 0);
	CHECK(file_write_atomic(h, src, strlen(src)) == 0);
	TargetBuilt tb;
	TargetBuild b = {.dir = dir, .src = h, .exe = exe};
	CHECK(cpu->build(cpu, a, &b, &tb) == 0);
	if (!tb.ok)
		fprintf(stderr, "%s\n%s\n", tb.cmdline, tb.log);
	/* The plan on stdin, the results over a pipe at descriptor 123, the
	 * sandbox on, guard and poison seeds 5 and 7. */
	const char *plan = "KCCP 2 123 0 2 2 0 1 1 5 7\n0 77 0 1 0  5 0 0  5 0 0  5 3\n";
	ProcResult pr;
	TargetRun tr = {.argv = (const char *[]){exe, "-", NULL}, .timeout_s = 10,
	                .stdin_data = plan, .stdin_len = strlen(plan), .chan_fd = 123};
	CHECK(cpu->run(cpu, a, &tr, &pr) == 0 && proc_ok(&pr));
	if (!proc_ok(&pr))
		fprintf(stderr, "%s\n", pr.err);
	char *data = pr.chan;
	size_t len = pr.chan_len;
	/* magic, CALL, idx, np, then x: guard, esc, hb, ha, nbytes=0; y: ... 20 bytes */
	size_t xrec = 4 + 4 + 8 + 8 + 8, yrec = xrec + 20;
	CHECK(len == 4 + 12 + xrec + yrec + 4);
	if (len == 4 + 12 + xrec + yrec + 4) {
		const unsigned char *y = (const unsigned char *)data + 4 + 12 + xrec;
		uint32_t guard;
		memcpy(&guard, y, 4);
		CHECK(guard == 1);
		float got[5];
		memcpy(got, y + 32, sizeof got);
		for (int i = 0; i < 5; i++)
			CHECK(got[i] == 3 * (float)kcc_value(77, 0, (uint64_t)i, KCC_T_F32, 0, 0, 0));
	}
	const char *argv[] = {"rm", "-rf", dir, NULL};
	proc_run(a, &(ProcSpec){.argv = argv, .timeout_s = 10}, &pr);
	arena_free(a);
	return check_summary("test_verify_harness");
}
