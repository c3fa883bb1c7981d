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
 * The planner may ask for extra metrics by the profiler's names
 * (ProfileAsk); ncu takes them, checked against what it offers, and the
 * cpu profilers ignore them. docs/profiling.md is the user's view;
 * menus/metrics.md says what each metric means to the planner.
 */
#ifndef KCC_PROFILE_H
#define KCC_PROFILE_H

#include "../ir/ir.h"
#include "../support/support.h"

/* Extra metrics the planner asked for by the profiler's own names (ncu's:
 * `dram__bytes_read.sum`), on its plans' `Metrics: a, b` lines. The search
 * keeps one ProfileAsk for the whole run: the union of what was asked,
 * first asked first kept, at most PROFILE_ASK_MAX, so it is bounded and the
 * same on a rerun. A name goes onto the profiler's command line, so only
 * letters, digits, '_' and '.' are taken, and it must have ncu's "__"
 * (unit__counter); the first few tokens that are not names are kept, with
 * '?' for their odd characters, to tell the planner. */
#define PROFILE_ASK_MAX 8
#define PROFILE_ASK_BAD 4

typedef struct {
	const char *name[PROFILE_ASK_MAX];
	int n;
	bool full;                         /* more different names were asked for */
	const char *bad[PROFILE_ASK_BAD];  /* tokens that are not metric names */
	int nbad;
	const char *cache_dir; /* where the profiler keeps its metric list; NULL none */
	bool keep;             /* keep the work dir (kernel, driver, build, the
	                          tool's raw output): Profile.kept names it */
} ProfileAsk;

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
	/* in: the extra metrics asked for (set by verify_profile; NULL none).
	 * out: whose metric names the profiler takes as extra metrics ("ncu");
	 * NULL when it takes none (cpu; cuda without ncu), and then the plan
	 * prompt says nothing about asking. */
	const ProfileAsk *ask;
	const char *takes;
	const char *kept; /* the work dir left for the user (ask->keep); NULL none */
} Profile;

/* Peak rates of a device, per unit, for the roofline and the physical
 * floor (DESIGN 6). Measured by micro-benchmarks (targets/programs/) once
 * per device and cached; the datasheet rates come from the device's
 * properties. */
typedef enum {
	PEAK_FP32,        /* fp32 FMA (cpu: on the widest SIMD vectors) */
	PEAK_FP64,        /* fp64 FMA (cpu: SIMD); not measured on cuda */
	PEAK_FP32_SCALAR, /* cpu: fp32 FMA kept scalar */
	PEAK_TC_F16,      /* tensor cores: f16 x f16 + f32 (mma.sync) */
	PEAK_TC_BF16,     /* tensor cores: bf16 x bf16 + f32 */
	PEAK_TC_TF32,     /* tensor cores: tf32 x tf32 + f32 */
	PEAK__UNITS
} PeakUnit;

typedef struct {
	double gflops;      /* fp32 FMA (= unit[PEAK_FP32]) */
	double gbps;        /* memory bandwidth (DRAM) */
	const char *source; /* "measured on this device: ...", "estimated from ..." */
	double unit[PEAK__UNITS]; /* GFLOP/s measured per unit; 0 not measured */
	double cache_gbps;  /* L2 (cuda), a thread's cache (cpu); 0 not measured */
	const char *cache_name; /* "L2", "48 KiB a thread" */
	bool busy;          /* measured while the machine was busy (not cached) */
	double est_gflops;  /* the highest flop rate any unit has on the datasheet
	                       (cuda: tensor cores at the boost clock; cpu: cores x
	                       vector lanes x 2 FMA pipes x 2 x clock); 0 unknown */
	double est_gbps;    /* the same for bytes (DRAM; cpu: L1 loads) */
	double est_unit[PEAK__UNITS]; /* the datasheet's rate per unit, 0 unknown */
	const char *est_name;         /* the unit of est_gflops, for people */
	double est_dram_gbps;         /* the datasheet's DRAM bandwidth, 0 unknown */
	/* The physical floor's rates: no kernel does the spec's flops or moves its
	 * bytes faster than this; the larger of the datasheet rate and 1.5x the
	 * fastest measured unit (a micro-benchmark reaches 60-95% of a peak, and a
	 * busy machine measures less). 0: unknown, the floor does not apply. */
	double floor_gflops, floor_gbps;
} ProfilePeaks;

/* "fp32 FMA", "fp16 tensor cores (f32 accumulate)", ... */
const char *profile_peak_unit_name(PeakUnit u);
/* The compute peak a kernel whose arithmetic is in type t is measured
 * against: f16 -> the fp16 tensor cores (or fp32 FMA when they are not
 * measured), bf16 -> the bf16 tensor cores, f64 -> fp64, else fp32 FMA. The
 * unit it chose in *unit. 0 when unknown. */
double profile_peak_for(const ProfilePeaks *pk, ElemType t, PeakUnit *unit);
/* The peaks as the prompts show them: one line per measured unit, the
 * memory and cache bandwidths, the datasheet rates and the source. */
char *profile_peaks_text(Arena *a, const ProfilePeaks *pk);
/* Fill floor_gflops and floor_gbps from the measured and datasheet rates. */
void profile_peaks_floor(ProfilePeaks *pk);
/* The floating type a spec computes in: the narrowest floating type of its
 * in and inout buffers (ET_F32 when it has none). */
ElemType profile_compute_type(const Spec *sp);

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

/* Add the names on plan's `Metrics:` lines (any case, markdown bold or
 * backticks allowed around the word, names split by commas, the first word
 * of each item taken) to *ask. Returns how many new names were kept. */
int profile_ask_parse(Arena *a, const char *plan, ProfileAsk *ask);
/* Whether a and b ask for the same (NULL is an empty ask). */
bool profile_ask_same(const ProfileAsk *a, const ProfileAsk *b);

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
/* The same, keeping the extra metrics asked for as rows of their own
 * ("- NAME: VALUE UNIT — requested by the plan", the value and unit as ncu
 * reports them); a base name without a suffix keeps each of its rollups. */
int profile_parse_ncu_extra(Arena *a, const char *text, size_t len,
                            const char *const *extra, int nextra, Profile *out);
/* nvcc -Xptxas -v output: registers, shared memory, spills (worst kernel). */
int profile_parse_ptxas(Arena *a, const char *text, Profile *out);
/* kcc's QEMU plugin report (targets/qemu/kcc_icount.c) into instructions,
 * loads, stores, vector instructions, ..., the top functions and the hot
 * blocks (in the notes). 0, or -1 when it is not one. */
int profile_parse_icount(Arena *a, const char *text, size_t len, Profile *out);
/* The ncu --metrics list kcc asks for (comma-separated). */
const char *profile_ncu_metrics(void);
/* The base metric names in `ncu --query-metrics` output (the first word of
 * each line that has "__"), one a line; NULL when there are none. */
char *profile_ncu_offered(Arena *a, const char *query);
/* Check an ask against offered (profile_ncu_offered's list, or NULL when
 * ncu did not answer): a name is kept when its base name (up to the first
 * '.') is offered and kcc does not collect it already. Kept names go to
 * keep[] (PROFILE_ASK_MAX); the others, and the ask's own bad tokens, get
 * a note in out ("ncu does not offer metric 'X'"). Returns how many kept. */
int profile_ncu_check(Arena *a, const char *offered, const ProfileAsk *ask,
                      const char **keep, Profile *out);

/* ---- roofline ---------------------------------------------------------------- */

/* Achieved GFLOP/s and GB/s, and % of peaks, from work at the bench shape
 * and its measured median time; flops or bytes <= 0 are left out. */
void profile_roofline(Arena *a, Profile *p, double flops, double bytes, double seconds,
                      const ProfilePeaks *peaks, ElemType compute);

#endif
