/*
 * test_verify_scan.c — the static scan: forbidden calls, headers, vendor
 * libraries (and --allow-libs), asm allow-lists, harness-name macros,
 * streams noted; comments and strings never trigger it, member names and
 * ordinary kernels pass.
 */
#include "testsuite/unit/check.h"
#include "verify/verify.h"

#include <string.h>

static VerifyReason scan(const char *s, Lang lang, bool libs, int *line, bool *streams)
{
	const char *what;
	int l;
	bool st;
	VerifyReason r = verify_scan(s, strlen(s), lang, libs, &what, &l, &st);
	if (line)
		*line = l;
	if (streams)
		*streams = st;
	return r;
}

#define OK_C(s) CHECK(scan((s), LANG_C, false, NULL, NULL) == VR_OK)
#define BAD_C(s) CHECK(scan((s), LANG_C, false, NULL, NULL) == VR_FORBIDDEN)
#define OK_CU(s) CHECK(scan((s), LANG_CUDA, false, NULL, NULL) == VR_OK)
#define BAD_CU(s) CHECK(scan((s), LANG_CUDA, false, NULL, NULL) == VR_FORBIDDEN)

int main(void)
{
	OK_C("#include <math.h>\nvoid f(float *x, int n) { for (int i = 0; i < n; i++) "
	     "x[i] = sqrtf(x[i]); }\n");
	OK_C("// system(\"rm -rf /\") in a comment\n/* fork() */ const char *s = \"popen(\";\n");
	OK_C("struct S { int open; } s; int g(void) { return s.open + (&s)->open; }");
	OK_C("#pragma omp parallel for\nvoid f(void) { asm volatile(\"\" ::: \"memory\"); }");
	BAD_C("#include <stdlib.h>\nvoid f(void) { system(\"ls\"); }");
	BAD_C("void f(void) { fopen (\"x\", \"w\"); }");
	BAD_C("#include <pthread.h>\n");
	BAD_C("void f(void) { thrd_create(0, 0, 0); }");
	OK_C("#include <stdlib.h>\nvoid f(void) { exit(0); }"); /* a crash, not forbidden */
	BAD_C("void f(void) { struct timespec t; clock_gettime(1, &t); }");
	BAD_C("#define memcmp(a, b, n) 0\n");
	BAD_C("int kcc_call;\n");
	BAD_C("__attribute__((constructor)) static void early(void) {}\n");
	BAD_C("void f(void) { asm(\"rdtsc\"); }");
	BAD_C("#include <cblas.h>\n");
	BAD_C("void f(void) { cblas_sgemm(0); }");
	CHECK(scan("#include <cblas.h>\nvoid f(void) { cblas_sgemm(0); }", LANG_C, true, NULL,
	           NULL) == VR_OK);
	int line = 0;
	CHECK(scan("int a;\n\nvoid f(void) {\n\tpopen(0, 0);\n}\n", LANG_C, false, &line, NULL) ==
	      VR_FORBIDDEN);
	CHECK(line == 4);

	OK_CU("__global__ void k(float *x) { asm volatile(\"mma.sync.aligned.m16n8k8.row.col."
	      "f32.f16.f16.f32 {%0}, {%1}, {%2}, {%3};\" : \"=f\"(x[0]) : \"r\"(0)); }");
	OK_CU("__global__ void k(unsigned *x) { asm(\"cp.async.ca.shared.global [%0], [%1], 16;\\n"
	      "\\tcp.async.commit_group;\" :: \"r\"(x[0]), \"l\"(x)); }");
	BAD_CU("__global__ void k(long *x) { asm volatile(\"mov.u64 %0, %%globaltimer;\" : "
	       "\"=l\"(x[0])); }");
	BAD_CU("#include <cublas_v2.h>\n");
	BAD_CU("void f(void) { cublasSgemm(0); }");
	BAD_CU("#include <thread>\n");
	BAD_CU("void f() { std::thread t; }");
	BAD_CU("#define cudaDeviceSynchronize() cudaSuccess\n");
	BAD_CU("void f() { cudaEventElapsedTime(0, 0, 0); }");
	bool streams = false;
	CHECK(scan("void f() { cudaStream_t s; cudaStreamCreateWithFlags(&s, 1); }", LANG_CUDA,
	           false, NULL, &streams) == VR_OK);
	CHECK(streams);
	return check_summary("test_verify_scan");
}
