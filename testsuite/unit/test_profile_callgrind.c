/*
 * test_profile_callgrind.c — the cpu profiler for real: valgrind's
 * callgrind (scripts/setup installs it; this test never skips) on a tiny C
 * program, its output file parsed into instructions, data accesses, miss
 * rates and hot functions; then verify_profile on a kernel with a spec
 * (the verifier's harness in profile mode, built, run under callgrind with only the entry
 * collected). Counts are checked against what the code must do, with
 * generous bounds: no timings.
 */
#include "check.h"
#include "targets/target.h"
#include "verify/verify.h"

#include <stdlib.h>
#include <unistd.h>

static const char TINY[] =
    "#include <stdlib.h>\n"
    "__attribute__((noinline)) double walk(const double *x, long n, long stride)\n"
    "{\n\tdouble s = 0;\n\tfor (long k = 0; k < stride; k++)\n"
    "\t\tfor (long i = k; i < n; i += stride) s += x[i];\n\treturn s;\n}\n"
    "int main(void)\n{\n\tlong n = 1L << 20;\n\tdouble *x = calloc(n, 8);\n"
    "\treturn walk(x, n, 16) != 0;\n}\n";

static const char *tmpdir(Arena *a)
{
	char *d = arena_printf(a, "%s/kcc-cg-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(d);
}

static void tiny_program(Arena *a)
{
	const char *d = tmpdir(a);
	CHECK(d != NULL);
	const char *src = arena_printf(a, "%s/t.c", d), *exe = arena_printf(a, "%s/t", d);
	const char *out = arena_printf(a, "%s/cg.out", d);
	CHECK(file_write_atomic(src, TINY, sizeof TINY - 1) == 0);
	const char *cc[] = {"cc", "-O1", "-g", "-o", exe, src, NULL};
	ProcSpec ps = {.argv = cc, .timeout_s = 60};
	ProcResult r;
	CHECK(proc_run(a, &ps, &r) == 0 && proc_ok(&r));
	const char *vg[] = {"valgrind", "--tool=callgrind", "--cache-sim=yes",
	                    arena_printf(a, "--callgrind-out-file=%s", out), exe, NULL};
	ProcSpec vs = {.argv = vg, .timeout_s = 120};
	CHECK(proc_run(a, &vs, &r) == 0);
	if (!proc_ok(&r))
		fprintf(stderr, "valgrind: %s\n%s", proc_describe(a, &vs, &r), r.err);
	char *text;
	size_t len;
	CHECK(file_read(a, out, &text, &len) == 0);
	Profile p = {0};
	CHECK(profile_parse_callgrind(a, text, len, &p) == 0);
	const ProfileMetric *ir = profile_get(&p, "instructions"), *dr = profile_get(&p, "data reads");
	const ProfileMetric *d1 = profile_get(&p, "D1 miss rate");
	CHECK(ir && ir->value > 2e6);          /* 1M loads, plus loop overhead */
	CHECK(dr && dr->value >= 1 << 20);
	/* stride 16 doubles = 128 bytes: every access misses the 64-byte lines */
	CHECK(d1 && d1->value > 50);
	CHECK(p.nhot >= 1 && !strcmp(p.hot[0].name, "walk") && p.hot[0].share > 50);
	CHECK(profile_parse_callgrind(a, "hello\n", 6, &(Profile){0}) == -1);
	unlink(out), unlink(src), unlink(exe), rmdir(d);
}

static const char KERNEL[] =
    "#pragma kcc entry rowsum\n"
    "#pragma kcc param X in f32[R*N]\n"
    "#pragma kcc param S out f32[R]\n"
    "#pragma kcc shape check R=64 N=256\n"
    "#pragma kcc shape bench R=64 N=256\n"
    "void rowsum(const float *X, float *S, int R, int N)\n{\n"
    "\tfor (int r = 0; r < R; r++) {\n\t\tfloat s = 0.0f;\n"
    "\t\tfor (int j = 0; j < N; j++)\n\t\t\ts += X[r * N + j];\n\t\tS[r] = s;\n\t}\n}\n";

static void driver(Arena *a)
{
	IrOptions io = {0};
	Unit *u = ir_parse(a, "rowsum.c", KERNEL, sizeof KERNEL - 1, &io, true);
	CHECK(u != NULL);
	if (!u)
		return;
	Profile p;
	int rc = verify_profile(target_find("cpu"), a, u, &u->spec.check[0], NULL, 120, NULL, &p);
	if (rc)
		fprintf(stderr, "profile: %s\n", p.notes);
	CHECK(rc == 0);
	CHECK_STR(p.shape, "R=64 N=256");
	const ProfileMetric *ir = profile_get(&p, "instructions"), *dr = profile_get(&p, "data reads");
	/* 16384 float loads; only the entry is collected, so no filling */
	CHECK(dr && dr->value >= 16384 && dr->value < 200000);
	CHECK(ir && ir->value >= 16384 && ir->value < 1000000);
	CHECK(p.nhot >= 1 && !strcmp(p.hot[0].name, "rowsum"));
	CHECK(p.notes && (strstr(p.notes, "callgrind") || strstr(p.notes, "perf")));
	char *text = profile_text(a, &p);
	CHECK(strstr(text, "- D1 miss rate: ") && strstr(text, "- instructions: "));
}

int main(void)
{
	Arena *a = arena_new();
	tiny_program(a);
	driver(a);
	arena_free(a);
	return check_summary("test_profile_callgrind");
}
