/*
 * profile.h — what a profiler says about one run of a kernel, in a form the
 * planner can read: named metrics, each with a value, a unit and a short
 * meaning, the functions (or kernels) that cost the most, which tool
 * produced them and notes on what could not be measured.
 *
 * The parsers are plain functions over the tools' text (callgrind's output
 * file, ncu's CSV, ptxas's -v report) so they are tested on fixtures; the
 * targets run the tools (cpu: perf or callgrind, cuda: ncu or ptxas + event
 * timings) through Target.profile. The roofline turns the spec's flops and
 * bytes and a measured time into % of the device's peaks, measured once per
 * device by micro-benchmarks (cpu) or estimated from its properties (cuda).
 * docs/profiling.md is the user's view; menus/metrics.md says what each
 * metric means to the planner.
 */
#ifndef KCC_PROFILE_H
#define KCC_PROFILE_H

#include "../support/support.h"

typedef struct {
	const char *name;    /* "instructions", "D1 miss rate", "DRAM throughput" */
	double value;
	const char *unit;    /* "%", "us", "bytes", "" */
	const char *meaning; /* one line for the planner */
} ProfileMetric;

typedef struct {
	const char *name; /* function or kernel */
	double share;     /* % of the run's instructions (or time) */
} ProfileHot;

typedef struct {
	const char *source; /* "callgrind", "perf", "ncu", "ptxas+events" */
	const char *shape;  /* the shape it ran at, "M=256 N=256 K=256" */
	const char *notes;  /* what is missing and why; "" none */
	ProfileMetric *m;
	int n;
	size_t cap;
	ProfileHot *hot;
	int nhot;
	size_t hotcap;
} Profile;

/* Peak rates of a device, for the roofline. */
typedef struct {
	double gflops;      /* fp32 (cpu: the FMA loop's single-precision rate) */
	double gbps;        /* memory bandwidth */
	const char *source; /* "measured (triad, FMA loop)", "estimated from ..." */
} ProfilePeaks;

/* Append (or replace, by name) a metric. Strings are kept as given. */
void profile_set(Arena *a, Profile *p, const char *name, double value, const char *unit,
                 const char *meaning);
const ProfileMetric *profile_get(const Profile *p, const char *name);
/* Append a line to p->notes. */
void profile_note(Arena *a, Profile *p, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* The profile as the plan prompt shows it: one "- name: value unit — meaning"
 * line per metric, the hot list, the source and notes. */
char *profile_text(Arena *a, const Profile *p);
/* A metric's value with its unit, "12.3%", "4.1e+08", "n/a" for NULL. */
char *profile_value(Arena *a, const ProfileMetric *m);

/* ---- parsers (fixtures in testsuite/profile/) ----------------------------------- */

/* A callgrind output file (--cache-sim=yes): totals of Ir, Dr, Dw and the
 * miss events into instructions, data reads/writes, D1 and LL miss rates,
 * and the top functions by self Ir. 0, or -1 when it is not one. */
int profile_parse_callgrind(Arena *a, const char *text, size_t len, Profile *out);
/* `perf stat -x,` output (stderr) of the events kcc asks for. 0 or -1. */
int profile_parse_perf(Arena *a, const char *text, Profile *out);
/* `ncu --csv` output, long ("Metric Name","Metric Unit","Metric Value") or
 * wide (--page raw: a header of metric names, a units row) layout, any
 * --print-units, thousands separators, "n/a". Metrics of the longest
 * kernel; durations summed. 0, or -1 when no metric was found. */
int profile_parse_ncu(Arena *a, const char *text, size_t len, Profile *out);
/* nvcc -Xptxas -v output: registers, shared memory, spills (worst kernel). */
int profile_parse_ptxas(Arena *a, const char *text, Profile *out);
/* The ncu --metrics list kcc asks for (comma-separated). */
const char *profile_ncu_metrics(void);

/* ---- roofline ---------------------------------------------------------------- */

/* Achieved GFLOP/s and GB/s, and % of peaks, from work at the bench shape
 * and its measured median time; flops or bytes <= 0 are left out. */
void profile_roofline(Arena *a, Profile *p, double flops, double bytes, double seconds,
                      const ProfilePeaks *peaks);

#endif
