/*
 * internal.h — what verify/'s files share and nobody else needs: the
 * binding of the entry's parameters, the plan kcc writes for a harness run,
 * and the records it reads back.
 */
#ifndef KCC_VERIFY_INTERNAL_H
#define KCC_VERIFY_INTERNAL_H

#include "verify.h"
#include "templates/kcc_rt.h"

/* The entry's scalar parameters, in signature order, bound by name from
 * the shape. */
typedef struct {
	const char **scalars;
	bool *fp; /* floating-point: the plan carries the double's bits */
	int nscalars;
} Binding;

int harness_bind(Arena *a, const Unit *u, Binding *b, const char **why);

/* One call of a check-mode plan. */
typedef struct PlanCall {
	int set;          /* buffer set 0 or 1 */
	uint64_t seed;
	int fill;         /* KCC_FILL_* */
	int poison;       /* KCC_POISON_* */
	int pert;         /* inputs: this many elements per buffer redrawn */
	const char *what; /* "A", "B (same buffers, new inputs)", ... */
	int shape;        /* index into the case list */
	int base;         /* for repeats and A': the call whose results it repeats, -1 */
} PlanCall;

/* One buffer in one result record. */
typedef struct {
	bool guard_ok, escaped;
	uint64_t hash_before, hash_after;
	size_t nbytes;
	const unsigned char *data; /* outputs only */
} ResBuf;

typedef struct {
	int ncalls;
	ResBuf **calls;     /* calls[i][p] */
	int nsamples;
	double *ev, *wall;  /* bench samples */
	bool complete;      /* END tag seen */
	double wall_s;      /* the harness process's wall time */
} Results;

enum { CALL_A, CALL_B, CALL_A2, CALL_SEED, CALL_EXACT, CALL_REPEAT, CALL_PERTURB };

typedef struct Case {
	Shape shape;
	const char *text;
	bool edge;
	int64_t *n, *lo, *hi; /* per spec param */
	int64_t *s;           /* scalars, in binding order */
	uint64_t bytes;       /* all buffers */
	/* The calls its plan runs: the matrix's (vr_make_case's default), a
	 * prefix of them, or the sweep's own. */
	const PlanCall *calls;
	int ncalls;
	/* The sweep of kcc's class shapes (shapes.c): the case whose shape
	 * each call runs at; NULL for every other case. */
	const struct Case **call_case;
	const char *plan;     /* check-mode plan (sent on stdin) */
	Results ref, y64;     /* the original's records, call by call */
	bool have_y64;
	double ref_wall;      /* the original's run of plan, in s: the calibration */
} Case;

typedef struct {
	double *ev, *wall;
	int n, cap;
} Samples;

/* The original at the bench shape, measured once per run (bench.c). */
typedef struct {
	bool done;
	Case c;
	const char *plan;
	int nsets, check;
	Samples ref;    /* the original's samples (its calibration run, and the
	                   runs that confirmed gains) */
	Results ref0;   /* the outputs of its timed calls */
	double wall;    /* its process's wall time: the limits derive from it */
	double load;    /* the busiest machine_load() seen while timing it */
	double when;    /* monotonic time of its last measurement */
} BenchMemo;

/* What a built harness says about itself (elf.c). */
typedef struct {
	int init_entries;       /* .preinit_array + .init_array + .ctors */
	const char **defined;   /* global and weak symbols it defines */
	int ndefined;
	const char **undef;     /* symbols it imports */
	int nundef;
} ElfFacts;

int elf_inspect(Arena *a, const char *path, ElfFacts *f);
/* A symbol cand defines that the harness imports (ref's imports or a fixed
 * list of clock, I/O and process calls), or NULL. */
const char *elf_forbidden(const ElfFacts *ref, const ElfFacts *cand);

/* A harness run done ahead in a batch (a job array), waiting to be taken. */
typedef struct {
	const char *exe, *plan, *tag; /* exe NULL: taken */
	ProcResult pr;
} Prefetch;

struct VerifyRef {
	Arena *a;
	VerifyOptions o;
	const Target *t;
	const Unit *u;
	TargetInfo info;
	char *dir;
	Binding bind;
	Case *cases;
	int ncases;
	PlanCall *calls;
	int ncalls;
	const char *ref_exe, *y64_exe;
	uint64_t master;
	uint64_t gseed, psalt; /* guard bytes and poison of this run (kcc_rt.h) */
	uint64_t nruns;        /* harness runs so far (draws the channel's fd) */
	/* The reference's executables, as built: checked before every use and
	 * restored when a candidate changed them (tampering). */
	struct RefExe {
		const char *path;
		char *bytes;
		size_t len;
		unsigned char sha[32];
	} refexe[2];
	int nrefexe;
	ElfFacts ref_elf;
	bool have_ref_elf;
	const char *tmproot;   /* where the work dirs go */
	Case bcase;            /* --check's one call at the bench shape */
	int bcase_state;       /* 0 not run yet, 1 ready, -1 not usable */
	int san_state;         /* the original under the sanitizer build: 0 not
	                          run yet, 1 clean, -1 not (no sanitizer runs) */
	char *cand_dir;        /* the last candidate's own fresh dir */
	int ncand;
	const char **notes;
	int nnotes, capnotes;
	Prefetch *pre;         /* runs done ahead (runners/: slurm's arrays) */
	int npre;
	const Unit *last_cand; /* the last candidate built, for verify_bench */
	const char *last_exe;
	BenchMemo bench;
	ProfilePeaks peaks;    /* for the physical floor, fetched on first use */
	bool peaks_done;
};

/* ---- matrix.c: the test matrix ------------------------------------------- */

/* The matrix's calls (A, P, B, A', seeds, exact, repeats) into r->calls. */
void vr_make_calls(VerifyRef *r);
/* The first of r's matrix calls of kind CALL_*, or -1. */
int vr_call_index(const VerifyRef *r, int kind);
/* The cases: every `shape check`, then kcc's edge shapes. -1 after
 * diagnostics. */
int vr_make_cases(VerifyRef *r);
/* Fill a case from a shape, running the matrix's calls; -1 (and *why)
 * when the shape does not bind. */
int vr_make_case(VerifyRef *r, const Shape *sh, bool edge, Case *c, const char **why);
/* A case of r has sh's values already. */
bool vr_known_shape(const VerifyRef *r, const Shape *sh);
char *vr_shape_text(Arena *a, const Shape *s);
/* A plan's text after "KCCP 2 CHAN" (vr_run_harness adds those). */
const char *vr_plan_header(Arena *a, const VerifyRef *r, int mode, int ncalls);
void vr_plan_call(Strbuf *sb, const VerifyRef *r, const Case *c, const PlanCall *pc);
/* A check-mode plan of calls[0, n) at case c's shape. */
const char *vr_write_plan(VerifyRef *r, const Case *c, const PlanCall *calls, int n);

/* ---- run.c: building and running -------------------------------------------- */

/* Write unit u's file and harness into dir/sub (or the absolute sub) and
 * build it there; the executable, or NULL with *why and tb's log. */
const char *vr_build_unit(VerifyRef *r, const Unit *u, const char *sub, bool promote,
                          TargetBuilt *tb, const char **why);
const char *vr_build_unit_flags(VerifyRef *r, const Unit *u, const char *sub, bool promote,
                                const char *const *flags, TargetBuilt *tb, const char **why);
/* Run exe on plan: VR_OK with *res, or why the run did not finish cleanly. */
VerifyReason vr_run_harness(VerifyRef *r, const char *exe, const char *plan, const char *tag,
                            double timeout, Results *res, const char **log);
/* The time limit of a run whose plan the original ran in ref_wall s. */
double vr_limit(const VerifyRef *r, double ref_wall);
/* Run the original on plan again (limit: the ceiling) after a run of it
 * timed out: 1 when it is now much slower than *ref_wall (the machine is
 * busier; *ref_wall is updated), 0 when it is not, -1 when it fails. */
int vr_recalibrate(VerifyRef *r, const char *plan, double *ref_wall);
/* With a batch runner (slurm), run every case's plan on each exe ahead
 * (tags "ref", "f64": under the ceiling; "cand": under the derived
 * limit); vr_prefetch_drop forgets what nobody took. */
void vr_prefetch(VerifyRef *r, const char *const *exes, const char *const *tags, int nexe);
void vr_prefetch_drop(VerifyRef *r);

/* ---- reference.c: the reference --------------------------------------------- */

/* The reference's executables are as built (sha256), restoring them if
 * not. 0 intact, 1 changed (and restored), -1 cannot restore. */
int vr_ref_intact(VerifyRef *r);
/* A fresh work dir for one candidate (the last one's removed). */
const char *vr_cand_dir(VerifyRef *r);
/* The original's run of call A at the bench shape (r->bcase), once per
 * reference: 1 ready, -1 not usable (with a note). */
int vr_bench_case(VerifyRef *r);

/* ---- shapes.c: kcc's class shapes and their sweep ------------------------------ */

/* kcc's class shapes: arena array, its length returned. */
int vr_class_shapes(VerifyRef *r, Shape **out);
/* The sweep case over the class shapes, run on the original and added to
 * r->cases; shapes where the original fails are dropped (a note). */
void vr_prepare_sweep(VerifyRef *r);

/* ---- classify.c: comparing calls, classifying failures ------------------------ */

/* An output element of b (sentinel-poisoned) still holding its poison,
 * and the NaN poison in b2 (the same inputs; NULL when there is none). */
bool vr_has_poison(const VerifyRef *r, ElemType t, const ResBuf *b, const ResBuf *b2);

/* Compare the candidate's record cb of call pc with the original's record
 * i of case c; VR_OK or the reason (v filled). */
VerifyReason vr_compare_call(VerifyRef *r, const Case *c, int i, const PlanCall *pc,
                             const ResBuf *cb, Verdict *v);
/* A reason about the output values (wrong, unwritten, nan, precision). */
bool vr_value_reason(VerifyReason why);
/* Run exe over case c and compare every call; 0 when all pass, -1 with
 * the verdict classified (stateful, nondeterministic, ...). */
int vr_check_case(VerifyRef *r, Case *c, const char *exe, Verdict *v);

/* ---- signature.c, unparsed.c, sanitize.c: a candidate's other checks --------- */

/* Signature, pragmas and the static scan of a parsed candidate (NULL: it
 * did not parse); 0 when they pass, -1 with the verdict. */
int vr_static_checks(VerifyRef *r, const Unit *c, Verdict *v);
/* A candidate the front end could not parse: the reason as precisely as a
 * lexical look allows ("pragma", "forbidden", "signature", else "parse"). */
void vr_unparsed(VerifyRef *r, const char *path, const char *text, size_t len, Verdict *v);
/* The sanitizer run of the built candidate: 0 clean or not run, -1 with
 * the verdict. */
int vr_sanitize(VerifyRef *r, const char *exe, Verdict *v);

/* ---- reason.c, compare.c ----------------------------------------------------------- */

/* A note for every verdict of this reference (once each). */
void vr_ref_note(VerifyRef *r, const char *note);
void vr_reject(Verdict *v, VerifyReason why, const char *summary);
void vr_verdict_note(Arena *a, Verdict *v, const char *note);
/* How u's outputs of type t are compared: the spec's tolerance, else the
 * type's default. */
Tolerance vr_tolerance_for(const Unit *u, ElemType t);

/* Parse a results file (arena-owned). 0 on success, -1 if malformed. */
int results_parse(Arena *a, const char *data, size_t len, int nparams, Results *r);

/* The embedded templates (templates_embed.c). */
extern const EmbeddedFile verify_templates[];

#endif
