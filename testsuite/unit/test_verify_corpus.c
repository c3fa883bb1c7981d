/*
 * test_verify_corpus.c — the verifier against the corpora, and kcc's
 * standalone check tool until (and besides) `kcc --check`.
 *
 *   test_verify_corpus                      cpu corpus: every testsuite/kernels
 *                                           NAME.c vs NAME.fast.c accepted, every
 *                                           testsuite/mutants/ *.c rejected with
 *                                           exactly its tagged reason
 *   test_verify_corpus --corpus [--target=cuda] [--bench] [--table=FILE]
 *   test_verify_corpus --check REF CAND [--bench] [--keep] [--seed=N]
 *   test_verify_corpus --throughput [--target=T]   (bench/verify)
 *
 * Paths are relative to testsuite/ (ctest's working directory) unless
 * --root=DIR says otherwise. Exit status: 0 when everything matched.
 */
#include "ir/ir.h"
#include "targets/target.h"
#include "testsuite/unit/check.h"
#include "verify/verify.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

typedef struct {
	const char *root;
	const Target *target;
	bool bench, keep;
	bool no_fast, no_mutants; /* --no-fast, --no-mutants */
	bool no_sanitizer;        /* --no-sanitizer (a second, timing-only pass) */
	const char *only;         /* --only=A,B: cases whose name contains A or B */
	int part, nparts;         /* --part=K/N: every Nth kernel from K (sharding) */
	uint64_t seed;
	const char *table;
	FILE *tf;
	int accepted, rejected, mismatches, total;
} Opts;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Candidates are parsed without validating their spec against their
 * entry (need_spec = false): verify_candidate compares the interface and
 * the pragmas with the reference's, which names the reason precisely. */
static Unit *load_as(Arena *a, const char *path, bool need_spec)
{
	char *text;
	size_t len;
	if (file_read(a, path, &text, &len) != 0) {
		fprintf(stderr, "cannot read %s\n", path);
		return NULL;
	}
	diag_source(path, text, len);
	return ir_parse(a, path, text, len, &(IrOptions){0}, need_spec);
}

static Unit *load(Arena *a, const char *path)
{
	return load_as(a, path, true);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir ending in ext (".c", ".cu"), without ".fast." ones
 * when plain is set. */
static char **list(Arena *a, const char *dir, const char *ext, bool plain, int *n)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t k = 0, cap = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t l = strlen(e->d_name), x = strlen(ext);
		if (l <= x || strcmp(e->d_name + l - x, ext))
			continue;
		if (plain && strstr(e->d_name, ".fast."))
			continue;
		ARENA_PUSH(a, v, k, cap, arena_strdup(a, e->d_name));
	}
	if (d)
		closedir(d);
	if (k)
		qsort(v, k, sizeof *v, cmp_str);
	*n = (int)k;
	return v;
}

static void options(Opts *o, VerifyOptions *vo)
{
	verify_options_default(vo);
	vo->target = o->target;
	vo->seed = o->seed;
	vo->keep_temps = o->keep;
	vo->bench_shape = VB_COMPARE; /* as `kcc --check` */
	if (o->no_sanitizer)
		vo->sanitizer = false;
	vo->rounds = 2;
	vo->cap_s = 0.3;
	vo->min_samples = 20;
}

static void row(Opts *o, const char *name, const char *expect, const Verdict *v,
                const BenchResult *b, bool ok)
{
	char sp[64] = "-";
	if (b && b->verdict.reason == VR_OK && b->ref.n)
		snprintf(sp, sizeof sp, "%.2fx [%.2f,%.2f] %s", b->speedup, b->ci_lo, b->ci_hi,
		         b->call);
	char times[64] = "-";
	if (b && b->ref.n)
		snprintf(times, sizeof times, "%.4f/%.4f ms", b->ref.median * 1e3,
		         b->cand.median * 1e3);
	const char *got = verify_reason_name(v->reason);
	if (b && b->verdict.reason != VR_OK)
		got = verify_reason_name(b->verdict.reason);
	char line[1024];
	snprintf(line, sizeof line, "%-44s %-18s %-18s %-5s %-24s %s\n", name, expect, got,
	         ok ? "ok" : "FAIL", times, sp);
	fputs(line, stdout);
	if (o->tf)
		fputs(line, o->tf);
	if (!ok) {
		verify_print_verdict(stdout, v);
		if (b)
			verify_print_bench(stdout, b);
	}
}

/* A tag's expectation: one reason, or several joined by '|' for races whose
 * first visible symptom varies from run to run. */
static bool expect_has(const char *expect, const char *reason)
{
	size_t n = strlen(reason);
	for (const char *p = expect; p && *p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL)
		if (!strncmp(p, reason, n) && (p[n] == 0 || p[n] == '|'))
			return true;
	return false;
}

static bool selected(const Opts *o, const char *name)
{
	if (!o->only)
		return true;
	char *list = strdup(o->only);
	bool hit = false;
	for (char *save = NULL, *t = strtok_r(list, ",", &save); t && !hit;
	     t = strtok_r(NULL, ",", &save))
		hit = strstr(name, t) != NULL;
	free(list);
	return hit;
}

/* One candidate through the verifier, as kcc --check does. */
static int judge(Arena *a, VerifyRef *r, const char *path, bool bench, VerifyResult *res)
{
	char *text;
	size_t len;
	memset(res, 0, sizeof *res);
	if (file_read(a, path, &text, &len) != 0) {
		fprintf(stderr, "cannot read %s\n", path);
		return -1;
	}
	VerifySource src = {.path = path, .text = text, .len = len, .bench = bench};
	return verify_source(r, &src, res);
}

/* The kernels of one language: original vs rewrite, then its mutants. */
static void kernel(Opts *o, Arena *a, const char *name, char **mutants, int nmut)
{
	const char *ext = o->target->src_ext;
	const char *refp = arena_printf(a, "%s/kernels/%s", o->root, name);
	char *base = arena_strndup(a, name, strlen(name) - strlen(ext));
	const char *fastp = arena_printf(a, "%s/kernels/%s.fast%s", o->root, base, ext);
	bool any = selected(o, name); /* --only: no reference for kernels without a case */
	for (int i = 0; i < nmut && !any; i++)
		any = !strncmp(mutants[i], base, strlen(base)) && selected(o, mutants[i]);
	if (!any)
		return;
	Unit *ref = load(a, refp);
	VerifyOptions vo;
	options(o, &vo);
	VerifyRef *r = NULL;
	if (!ref || verify_ref_prepare(a, ref, &vo, &r) != 0) {
		printf("%-44s reference unusable\n", name);
		o->mismatches++;
		o->total++;
		CHECK(!"reference prepares");
		verify_ref_release(r);
		return;
	}
	if (!o->no_fast && selected(o, name) && access(fastp, R_OK) == 0) {
		VerifyResult res;
		judge(a, r, fastp, o->bench, &res);
		bool ok = verify_result_verdict(&res)->reason == VR_OK;
		o->total++;
		o->accepted += ok;
		o->mismatches += !ok;
		CHECK(ok);
		row(o, arena_printf(a, "%s.fast%s", base, ext), "ok", &res.verdict,
		    res.timed ? &res.bench : NULL, ok);
	}
	size_t bl = strlen(base);
	for (int i = 0; i < nmut && !o->no_mutants; i++) {
		if (strncmp(mutants[i], base, bl) || strncmp(mutants[i] + bl, "--", 2) ||
		    !selected(o, mutants[i]))
			continue;
		const char *mp = arena_printf(a, "%s/mutants/%s", o->root, mutants[i]);
		char *text;
		size_t len;
		if (file_read(a, mp, &text, &len))
			continue;
		const char *tag = strstr(text, "expect=");
		char expect[80] = "?";
		if (tag)
			sscanf(tag + 7, "%79[a-z|-]", expect);
		VerifyResult res;
		judge(a, r, mp, expect_has(expect, "bench-shape") || expect_has(expect, "escaped") ||
		                    expect_has(expect, "implausible"), &res);
		VerifyReason got = verify_result_verdict(&res)->reason;
		bool ok = expect_has(expect, verify_reason_name(got));
		o->total++;
		o->rejected += got != VR_OK;
		o->mismatches += !ok;
		if (!ok)
			fprintf(stderr, "mismatch: %s: expected %s, got %s\n", mutants[i], expect,
			        verify_reason_name(got));
		CHECK(ok);
		row(o, mutants[i], expect, &res.verdict, res.timed ? &res.bench : NULL, ok);
	}
	verify_ref_release(r);
}

/* One arena for the whole run: diagnostics keep pointers to the files. */
static int corpus(Opts *o)
{
	Arena *a = arena_new();
	int nk, nm;
	const char *ext = o->target->src_ext;
	char **ks = list(a, arena_printf(a, "%s/kernels", o->root), ext, true, &nk);
	char **ms = list(a, arena_printf(a, "%s/mutants", o->root), ext, false, &nm);
	if (o->table && !(o->tf = fopen(o->table, "w")))
		fprintf(stderr, "cannot write %s\n", o->table);
	/* Line-buffered: a run cut off at its time limit keeps its rows. */
	if (o->tf)
		setvbuf(o->tf, NULL, _IOLBF, 0);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("%-44s %-18s %-18s %-5s %-24s %s\n", "case", "expect", "verdict", "", "ref/cand",
	       "speed-up");
	double t0 = now();
	for (int i = 0; i < nk; i++)
		if (o->nparts <= 1 || i % o->nparts == o->part)
			kernel(o, a, ks[i], ms, nm);
	printf("%s corpus: %d cases, %d rewrites accepted, %d mutants rejected, %d mismatches "
	       "(%.1f s)\n",
	       o->target->name, o->total, o->accepted, o->rejected, o->mismatches, now() - t0);
	if (o->tf)
		fclose(o->tf);
	CHECK(nk > 0);
	arena_free(a);
	return o->mismatches != 0;
}

static int check_pair(Opts *o, const char *refp, const char *candp)
{
	Arena *a = arena_new();
	Unit *ref = load(a, refp);
	if (!ref)
		return 3;
	VerifyOptions vo;
	options(o, &vo);
	vo.target = o->target ? o->target : target_for_lang(ref->lang);
	vo.rounds = 3;
	vo.cap_s = 1.0;
	vo.min_samples = 30;
	VerifyRef *r;
	int rc = 3;
	if (verify_ref_prepare(a, ref, &vo, &r) == 0) {
		VerifyResult res;
		if (judge(a, r, candp, o->bench, &res) == 0) {
			verify_print_result(stdout, &res);
			rc = verify_result_verdict(&res)->reason == VR_OK ? 0 : 2;
		}
	}
	verify_ref_release(r);
	arena_free(a);
	return rc;
}

/* bench/verify: candidates per minute, and kcc's own share of the time
 * (its CPU time over the wall time; the compiler and the harness runs are
 * children, counted apart). */
static int throughput(Opts *o)
{
	struct tms t0, t1;
	long hz = sysconf(_SC_CLK_TCK);
	double w0 = now();
	times(&t0);
	int before = o->total;
	corpus(o);
	times(&t1);
	double wall = now() - w0;
	double self = (double)(t1.tms_utime - t0.tms_utime + t1.tms_stime - t0.tms_stime) / hz;
	double kids = (double)(t1.tms_cutime - t0.tms_cutime + t1.tms_cstime - t0.tms_cstime) / hz;
	int n = o->total - before;
	printf("throughput: %d candidates in %.1f s = %.1f candidates/minute\n", n, wall,
	       wall > 0 ? n * 60.0 / wall : 0);
	printf("kcc's own time: %.2f s CPU = %.3f of wall (compilers and harness runs: %.1f s "
	       "CPU)\n", self, wall > 0 ? self / wall : 0, kids);
	return 0;
}

int main(int argc, char **argv)
{
	Opts o = {.root = ".", .target = target_find("cpu")};
	const char *mode = "corpus", *p1 = NULL, *p2 = NULL;
	diag_init(COLOR_NEVER);
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "--check") || !strcmp(s, "--corpus") || !strcmp(s, "--throughput"))
			mode = s + 2;
		else if (!strncmp(s, "--target=", 9))
			o.target = target_find(s + 9);
		else if (!strncmp(s, "--root=", 7))
			o.root = s + 7;
		else if (!strncmp(s, "--table=", 8))
			o.table = s + 8;
		else if (!strncmp(s, "--seed=", 7))
			o.seed = strtoull(s + 7, NULL, 0);
		else if (!strcmp(s, "--bench"))
			o.bench = true;
		else if (!strcmp(s, "--keep"))
			o.keep = true;
		else if (!strcmp(s, "--no-fast"))
			o.no_fast = true;
		else if (!strcmp(s, "--no-mutants"))
			o.no_mutants = true;
		else if (!strcmp(s, "--no-sanitizer"))
			o.no_sanitizer = true;
		else if (!strncmp(s, "--only=", 7))
			o.only = s + 7;
		else if (!strncmp(s, "--part=", 7) &&
		         sscanf(s + 7, "%d/%d", &o.part, &o.nparts) != 2) {
			fprintf(stderr, "--part=K/N\n");
			return 3;
		}
		else if (!p1)
			p1 = s;
		else
			p2 = s;
	}
	if (!o.target) {
		fprintf(stderr, "unknown target\n");
		return 3;
	}
	if (!strcmp(mode, "check")) {
		if (!p1 || !p2) {
			fprintf(stderr, "usage: test_verify_corpus --check REF CAND [--bench]\n");
			return 3;
		}
		o.target = NULL;
		return check_pair(&o, p1, p2);
	}
	if (!strcmp(mode, "throughput"))
		return throughput(&o);
	corpus(&o);
	return check_summary("test_verify_corpus");
}
