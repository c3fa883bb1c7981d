/*
 * verify.h — the Verifier: differential execution of a candidate against the
 * original kernel (DESIGN.md section 5). Never an LLM.
 *
 * A verdict names one reason from a fixed vocabulary, so the search, the
 * report and the mutant corpus (testsuite/mutants/, each file tagged
 * `// kcc-mutant: expect=REASON`) all speak the same words.
 */
#ifndef KCC_VERIFY_H
#define KCC_VERIFY_H

#include "../ir/ir.h"
#include "../targets/target.h"

#include <stdio.h>

/* The reasons a candidate is rejected. The string names (verify_reason_name)
 * are stable: reports, tests and mutant tags use them. */
typedef enum {
	VR_OK = 0,
	VR_PARSE,          /* "parse": the candidate does not parse */
	VR_SIGNATURE,      /* "signature": entry missing or its signature changed */
	VR_PRAGMA,         /* "pragma": spec pragmas changed (other than adding tune) */
	VR_FORBIDDEN,      /* "forbidden": static scan found a forbidden call */
	VR_BUILD,          /* "build": the compiler rejected it */
	VR_CRASH,          /* "crash": died on a signal or returned an error */
	VR_TIMEOUT,        /* "timeout": exceeded its time limit */
	VR_CUDA_ERROR,     /* "cuda-error": a CUDA API or launch error */
	VR_UNWRITTEN,      /* "unwritten": an output element kept its poison */
	VR_WRONG,          /* "wrong": outputs differ beyond tolerance */
	VR_NAN,            /* "nan": NaN/Inf mask differs from the reference's */
	VR_INPUT_MODIFIED, /* "input-modified": an `in` buffer changed */
	VR_GUARD,          /* "guard": wrote outside a buffer (canary zone) */
	VR_STATEFUL,       /* "stateful": wrong on a later call in the same process */
	VR_NONDETERMINISTIC, /* "nondeterministic": results move between repeats */
	VR_BENCH_SHAPE,    /* "bench-shape": wrong at the timed shape only */
	VR_SANITIZER,      /* "sanitizer": compute-sanitizer reported an error */
	VR_ESCAPED,        /* "escaped": work finished after the harness's sync
	                      (another stream), or event time far below wall time */
	VR_PRECISION,      /* "precision": error above the reference's own error */
	VR_IMPLAUSIBLE,    /* "implausible": timed faster than the hardware's
	                      physical floor for the spec's flops or bytes */
	VR__COUNT
} VerifyReason;

const char *verify_reason_name(VerifyReason r);
VerifyReason verify_reason_parse(const char *name); /* VR__COUNT if unknown */

/* ---- options ------------------------------------------------------------- */

enum { VB_OFF = 0, VB_COMPARE, VB_SKIPPED /* --no-bench-shape: said in the verdict */ };

typedef struct {
	const Target *target;   /* NULL: from the reference's language */
	uint64_t seed;          /* 0: fresh from /dev/urandom, unseen by candidates */
	int nseeds;             /* random-input seeds per shape (>= 3) */
	int repeats;            /* runs of the first call (>= 3; 10 when paranoid) */
	bool paranoid;
	bool edge_shapes;       /* add kcc's own shapes: all ones, primes */
	bool exact_mode;        /* add a call with small-integer float inputs */
	bool fp64_reference;    /* build the original promoted to f64 (DESIGN 5.5) */
	bool sanitizer;         /* compute-sanitizer on the smallest shape, if installed */
	bool sandbox;           /* the harness's seccomp filter (docs/verifier.md) */
	int bench_shape;        /* VB_*: compare one call at the bench shape
	                           among the checks (kcc --check) */
	bool allow_libs;        /* --allow-libs: vendor kernel libraries permitted */
	bool keep_temps;        /* leave the temp dir (its path is in the verdict) */
	/* Time limits (DESIGN 5.9). The original's first run of each plan is its
	 * calibration, under ceiling_s (--timeout); every later run of that plan,
	 * the original's and the candidates', gets limit_factor x the original's
	 * measured time plus timeout_s (at most ceiling_s). */
	double timeout_s;       /* the slack added to every derived limit (10) */
	double ceiling_s;       /* --timeout (600) */
	double limit_factor;    /* (4) */
	const char *cache_dir;  /* measured peaks for the physical floor; NULL none */
	uint64_t mem_bytes;     /* RLIMIT_AS of cpu runs (16 GiB) */
	uint64_t fsize_bytes;   /* RLIMIT_FSIZE of every run (8 GiB) */
	const char *tmpdir;     /* NULL: the runner's workdir, $TMPDIR, else /tmp */
	Runner *runner;         /* where builds and runs happen (runners/); NULL: here */
	/* --bench */
	double delta;           /* a gain counts above 1 + delta (0.03) */
	int rounds;             /* A B alternations (3) */
	double warmup_s;        /* per round, >= 0.025 */
	double cap_s;           /* sampling time cap per round (1.0) */
	int min_samples;        /* per version, over all rounds (30) */
	int max_samples;        /* per round (2000) */
	double rel_se;          /* stop when stderr/mean is below (0.01) */
} VerifyOptions;

void verify_options_default(VerifyOptions *o);

/* ---- verdicts ------------------------------------------------------------ */

typedef struct {
	VerifyReason reason;  /* VR_OK: accepted */
	const char *summary;  /* one line for people: what failed, where */
	const char *check;    /* which check: "static", "build", "A", "B (same
	                         buffers, new inputs)", "A' (new buffers)", "exact",
	                         "repeat 2", "sanitizer", "bench", ... */
	const char *shape;    /* "M=37 N=53 K=29", NULL when not shape-specific */
	uint64_t seed;
	const char *param;    /* the buffer, NULL if none */
	int64_t index;        /* first failing element, -1 if none */
	double got, want;     /* at index */
	double max_abs;       /* worst over the compared outputs of the case */
	double max_rel;       /* max |c-r| / max|r| (normwise) */
	double rel_l2;        /* ||c-r|| / ||r|| */
	const char *log;      /* compiler output or the run's stderr tail */
	const char *tmpdir;   /* kept temp dir, when keep_temps */
	const char **notes;   /* things the user should know (degenerate cases,
	                         no fp64 reference, extra streams, ...) */
	int nnotes, capnotes;
	int ncalls;           /* calls compared */
	int bench_shape;      /* VB_COMPARE: the bench shape was compared too;
	                         VB_SKIPPED: it was not, on request */
} Verdict;

/* The reference, built (as written and promoted to f64) and run once over
 * the whole test matrix; reused for every candidate of a search. */
typedef struct VerifyRef VerifyRef;

/* Build and run the reference. 0 on success; -1 when the reference itself
 * cannot be verified against (it does not build, crashes, has no usable
 * shape), after diagnostics. */
int verify_ref_prepare(Arena *a, const Unit *ref, const VerifyOptions *o, VerifyRef **out);
/* Remove the temp dir (unless keep_temps). Memory is the arena's. */
void verify_ref_release(VerifyRef *r);

/* "kcc: check: accepted (...)" or "kcc: check: rejected: wrong: ...". */
void verify_print_verdict(FILE *f, const Verdict *v);

/* ---- timing (DESIGN 6) ----------------------------------------------------- */

typedef struct {
	int n;
	double median, q1, q3, min, max, mean;
	double wall_median; /* host wall time per call, cross-check of events */
} BenchStats;

typedef struct {
	Verdict verdict;      /* VR_OK, or why the timed runs disqualify it
	                         (bench-shape, escaped, crash, ...) */
	BenchStats ref, cand;
	double speedup;       /* median(ref) / median(cand) */
	double ci_lo, ci_hi;  /* 95% bootstrap interval of the speed-up */
	const char *call;     /* "gain", "regression" or "noise" */
	const char *shape;
	const char *device;   /* the target's one-line description */
	double gflops, gbps;  /* of the candidate, when the spec has flops/bytes */
	double load;          /* runnable tasks per cpu beside kcc while timing */
	int rounds;           /* processes per version when timed more than once
	                         (a gain on a busy machine, an undecided interval) */
	const char *unit;     /* NULL: samples are seconds; else the target's
	                         deterministic count ("instructions") */
} BenchResult;

/* Time the reference and the candidate alternately (A B A B ...) at the
 * bench shape, comparing the timed runs' outputs too. A candidate goes
 * through verify_source (which times it when asked); kcc --profile times
 * the original itself here. 0 when a result was reached. */
int verify_bench(VerifyRef *r, const Unit *cand, BenchResult *out);
void verify_print_bench(FILE *f, const BenchResult *b);

/* Profile u at shape with t's profiler (profile.c): the verifier's harness,
 * built with the target's profile flags and -DKCC_PROFILE, runs one call
 * (inputs filled as in the checks, the entry called from
 * kcc_profile_calls(), which the profiler isolates) in a fresh directory
 * under tmpdir. ask: extra metrics the plan asked for, and keep (the
 * directory stays, out->kept). 0 or -1 (out->notes says why). */
int verify_profile(const Target *t, Arena *a, const Unit *u, const Shape *shape,
                   const char *tmpdir, double timeout_s, const ProfileAsk *ask, Profile *out);
/* Whether a timing must be taken again (another round of original and
 * candidate): a gain when suspect (busy machine, old or noisy numbers of the
 * original), an undecided result whose point estimate is a gain or whose
 * interval is wide (hi > 1.25 lo); never a regression or a tight non-gain. */
bool verify_bench_again(const BenchResult *b, double delta, bool suspect);

/* ---- one candidate: the way to check it ----------------------------------------- */

/* A candidate as the LLM or the user wrote it. */
typedef struct {
	const char *path;     /* its name in diagnostics and verdicts */
	const char *text;
	size_t len;
	const IrOptions *io;  /* how to parse it (as the reference); NULL: defaults */
	const char *const *build_flags; /* this version's compiler flags (-O2's flag
	                                   search), after the project's; NULL none */
	bool bench;           /* time it against the original when it passes */
	bool quiet;           /* the front end's errors go to the verdict's log,
	                         not to stderr */
} VerifySource;

typedef struct {
	Verdict verdict;      /* the check's: equivalent, or why not */
	bool checked;         /* verdict was reached (false after a tool failure) */
	bool timed;           /* bench holds the timing (asked, and the check passed) */
	BenchResult bench;    /* with its own verdict: the timed runs can still
	                         reject it (bench-shape, escaped, implausible) */
	double verify_s, bench_s; /* wall time of the check and of the timing */
} VerifyResult;

/* The one way to check a candidate (kcc --check, the search, the mutant
 * corpus): parse its text without demanding a spec (a changed pragma or
 * signature then gets the exact reason; text the front end rejects gets
 * the most precise reason a lexical look allows: "pragma", "forbidden",
 * "signature", else "parse"), run every check, and, when src->bench is set
 * and it passed, time it. 0 when a verdict (and the timing, when asked)
 * was reached; -1 on a tool failure of kcc's own, after diagnostics
 * (out->checked says whether the check's verdict stands). */
int verify_source(VerifyRef *r, const VerifySource *src, VerifyResult *out);
/* The verdict that decides: the timed runs' when they reject, else the
 * check's. */
const Verdict *verify_result_verdict(const VerifyResult *res);
/* kcc --check's block for one candidate: the verdict; when timed, the
 * timing and, when the timed runs reject it, their verdict. */
void verify_print_result(FILE *f, const VerifyResult *res);

/* ---- the pieces, for the search and the tests ------------------------------- */

/* Static scan of a candidate's text (DESIGN 5.1). VR_OK or VR_FORBIDDEN
 * with *what naming the construct and *line its line. Sets *streams when the
 * code creates CUDA streams (reported as a note; the escaped check decides). */
VerifyReason verify_scan(const char *text, size_t len, Lang lang, bool allow_libs,
                         const char **what, int *line, bool *streams);

/* The inline-asm rules the scan applies, in words, for the prompts. */
char *verify_asm_rules(Arena *a, Lang lang);
/* How r compares each output, in words, for the prompts: the rule it
 * applies (spec tolerance, the fp64 reference at every check shape, or the
 * type's default) with its numbers, one "- NAME (TYPE): ..." line each. */
char *verify_tolerance_text(Arena *a, const VerifyRef *r);

/* How outputs are compared (DESIGN 5.5). */
typedef struct {
	bool elementwise;  /* |c-o| <= atol*S + rtol*|o| against the original (spec
	                      tolerance, or no fp64 reference) */
	double rtol, atol;
	bool atol_scaled;  /* S = max(1, max|o|) (defaults), else S = 1 (spec) */
	double floor_ulps; /* fp64-reference mode: floor in units of the type's
	                      epsilon times the output scale (256; docs/verifier.md
	                      says why not 32) */
} Tolerance;

/* The defaults for an element type (documented in docs/verifier.md). */
Tolerance verify_default_tolerance(ElemType t);

typedef struct {
	VerifyReason reason; /* VR_OK, VR_UNWRITTEN, VR_NAN, VR_WRONG, VR_PRECISION */
	int64_t index;       /* first failing element, -1 */
	double got, want;
	double max_abs, max_rel, rel_l2, mean_abs;
	double ref_max_abs;  /* the original's own error against y64 */
} Compare;

/* Compare n elements. cand and orig have type t; y64 (may be NULL) is the
 * promoted original, as f64; poison_kind (KCC_POISON_* of kcc_rt.h, 0 none)
 * is what the outputs held before the call. */
void verify_compare(ElemType t, size_t n, const void *cand, const void *orig,
                    const double *y64, int poison_kind, const Tolerance *tol,
                    Compare *out);
/* The same with the run's poison salt (kcc_poison_at of kcc_rt.h): the
 * poison differs per element and per run; salt 0 is verify_compare. */
void verify_compare_salted(ElemType t, size_t n, const void *cand, const void *orig,
                           const double *y64, int poison_kind, uint64_t salt,
                           const Tolerance *tol, Compare *out);

/* Bootstrap CI of median(a)/median(b). */
void verify_ratio_ci(const double *a, int na, const double *b, int nb, uint64_t seed,
                     double *ratio, double *lo, double *hi);
void verify_stats(const double *x, int n, BenchStats *out);

/* The generated harness for u on t, #including kernel_file. NULL and *why
 * when the entry cannot be bound (a scalar not named by the shapes, ...). */
char *verify_harness_source(Arena *a, const Unit *u, const Target *t,
                            const char *kernel_file, const char **why);
/* Write the embedded runtime headers (kcc_rt.h, ...) into dir. 0 or errno. */
int verify_write_runtime(Arena *a, const char *dir);

#endif
