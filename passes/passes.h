/*
 * passes.h — the search: menus, prompts, plan → implement → verify →
 * measure → select, autotuning of `#pragma kcc tune` parameters and of the
 * compiler's flags, the run's state dir, and the reports.
 *
 * The search is target-agnostic: it calls the Target only through the
 * verifier (build, run, time) and describe (the hardware for the prompts),
 * and it reads what it may propose from the target's menu (menus/NAME.menu,
 * docs/menus.md). Only plan, implement and repair call the LLM; the verifier
 * alone decides what is correct and the timings what is faster.
 *
 * Library code: problems go to the diagnostics sink and functions return a
 * status; the driver picks the exit code from SearchResult.status.
 */
#ifndef KCC_PASSES_H
#define KCC_PASSES_H

#include "../llm/llm.h"
#include "../verify/verify.h"

#include <signal.h>

/* ---- menus ------------------------------------------------------------------ */

/* One condition of a `keep:` line: NAME OP VALUE (docs/menus.md). */
typedef enum { MC_EQ, MC_NE, MC_LT, MC_LE, MC_GT, MC_GE } MenuOp;
typedef struct {
	const char *name;  /* "type", "bound", "arch" or a profile metric's name */
	MenuOp op;
	const char *value; /* as written; '|' separates alternatives of = and != */
	double num;        /* value as a number (< <= > >=) */
} MenuCond;
typedef struct {
	const char *text;  /* the line as written, for the prompt */
	MenuCond *c;       /* all must hold */
	int n;
	size_t cap;
} MenuKeep;

/* One optimization a plan may choose. */
typedef struct {
	const char *name;        /* "shared-memory-tiling" */
	const char *description; /* what it does */
	const char *applies;     /* when it applies */
	const char *signals;     /* which measurements point to it (for the planner) */
	MenuKeep *keep;          /* `keep:` lines: when one holds for the current
	                            code, dropout never removes the option */
	int nkeep;
	size_t keep_cap;
} MenuOption;

/* What a `keep:` line is tested against: facts about the kernel and the
 * device, and the current version's profile. NULL: unknown (a condition on
 * it does not hold). */
typedef struct {
	const char *type;       /* the spec's compute type: "f16", "f32", ... */
	const char *bound;      /* "compute" or "memory": the spec's flops/bytes
	                           against the device's ridge point */
	const char *arch;       /* "sm_90a", "x86_64" */
	const Profile *profile; /* metrics by name, with the roofline's */
} MenuFacts;

/* One compiler-flag variant for -O2: source lines put at the top and the
 * bottom of the file, so the emitted file carries its flags. */
typedef struct {
	const char *name;
	const char *top, *bottom; /* "" when none; each ends in '\n' */
	const char *description;
	const char *cflags;       /* `cflags:` the compiler flags themselves
	                             ("-O3 -floop-nest-optimize"), given to the
	                             build after the project's; "" when none */
} MenuFlag;

typedef struct {
	const char *path;  /* where it was read from ("menus/cpu.menu" when built in) */
	const char *about; /* the file's [menu] description */
	MenuOption *opts;
	int nopts;
	MenuFlag *flags;
	int nflags;
	size_t opts_cap, flags_cap;
} Menu;

/* Parse a menu's text; diagnostics at path:line and -1 on a malformed file. */
int menu_parse(Arena *a, const char *path, const char *text, size_t len, Menu *out);
/* The menu for a target: file (when not NULL, the user's --menu), else the
 * one built into kcc from menus/TARGET.menu. */
int menu_load(Arena *a, const char *target, const char *file, Menu *out);
const MenuOption *menu_find(const Menu *m, const char *name);
/* The first of o's `keep:` lines that holds for f (its text), or NULL. */
const char *menu_keeps(const MenuOption *o, const MenuFacts *f);

/* ---- prompt templates (the .txt files in passes/prompts/, built in) ------------ */

/* The text of a built-in file ("prompts/plan.txt", "menus/cpu.menu"); NULL
 * if there is none. */
const char *passes_builtin(const char *name, size_t *len);
/* Fill {{NAME}} placeholders from names[i] → values[i]; an unknown
 * placeholder is left as it is. */
char *prompt_fill(Arena *a, const char *tmpl, const char *const *names,
                  const char *const *values, int n);
/* The body of doc's section "## NAME" (to the next "## " heading, trailing
 * blank lines trimmed); NULL when there is none. */
const char *prompt_section(Arena *a, const char *doc, const char *name);

/* ---- duplicates (dedup.c) ------------------------------------------------------ */

/* text without comments, with whitespace kept only where it separates
 * tokens and preprocessor lines kept as lines: two candidates with the same
 * normal form are the same code. */
char *passes_normalize(Arena *a, const char *text, size_t len, size_t *outlen);
/* sha256 (hex) of the normal form. */
void passes_text_key(Arena *a, const char *text, size_t len, char out[65]);

/* ---- tuning: `#pragma kcc tune` values written into the source -------------- */

typedef struct {
	const char *name;
	const char *value;
} TuneValue;

/* text without the blocks kcc added before: from a line that starts a
 * comment with "kcc:begin WHICH" to the next line holding "kcc:end"
 * (WHICH "header", "tune", "flags"; NULL: all). */
char *tune_strip(Arena *a, const char *text, size_t len, const char *which,
                 size_t *outlen);
/* text with a `#ifndef NAME / #define NAME V / #endif` block for the values
 * (replacing an earlier tune block when nv > 0) and the flag's lines
 * (replacing earlier ones when flag is set), after text's leading comment. */
char *tune_apply(Arena *a, const char *text, size_t len, const TuneValue *v, int nv,
                 const MenuFlag *flag, size_t *outlen);

/* ---- candidates and the search ------------------------------------------------ */

typedef struct {
	int id;              /* 0 is the original */
	int parent;          /* -1 for the original */
	int step;
	const char *option;  /* menu option the plan chose ("" for the original) */
	const char *plan;    /* the plan's text */
	const char *provider;/* who wrote it */
	const char *text;    /* the source as checked (tune values included) */
	size_t len;
	char sha[65];
	const char *file;    /* its copy in the state dir */
	bool correct;        /* the verifier accepted it */
	VerifyReason reason;
	const char *why;     /* the verdict's summary (or the extraction error) */
	const char *log;     /* build log tail, for repair prompts and the report */
	int repairs;         /* repair rounds it took */
	int repair_of;       /* the rejected candidate it repairs, -1 none */
	bool duplicate;      /* the same code as candidate dup_of (after normalising
	                        whitespace and comments): its verdict is reused */
	int dup_of;
	char key[65];        /* hash of the normalised text; "" until judged */
	bool measured;
	double ms, ms_q1, ms_q3;    /* its median time and IQR at the bench shape */
	double speedup, lo, hi;     /* over the original, 95% CI */
	bool gain;           /* faster than its parent beyond the noise gate */
	bool accepted;       /* entered the beam */
	const char *tune;    /* "BM=64 BN=32" chosen by the tuner, "" none */
	const char *cflags;  /* compiler flags it is built with (-O2's flag
	                        search), "" or NULL none */
	long tokens_in, tokens_out;
	double usd;
	double verify_s, bench_s;
	Profile *profile;    /* taken for the versions the planner saw; NULL none */
} Candidate;

typedef struct {
	const Unit *orig;         /* the input, parsed */
	const Target *target;
	const IrOptions *io;      /* for parsing candidates */
	const Menu *menu;
	LlmClient *llm;           /* NULL: -O2 (no LLM) */
	/* The members of llm's provider list that answer each stage: 1-based
	 * first and count, round-robin by sample within them; count 0: all of
	 * them (--llm's ensemble). Set by --llm-plan / --llm-code. */
	int plan_first, plan_n;   /* plan requests */
	int code_first, code_n;   /* implement and repair requests */
	VerifyOptions vo;
	int steps;                /* search steps (0: 3) */
	int beam, plans, samples; /* 0: 2, 2, 2 */
	double dropout;           /* < 0: 0.7 */
	uint64_t seed;
	int repairs;              /* repair rounds per candidate (< 0: 1) */
	const char *const *passes;/* --passes: one plan per named option, in order */
	int npasses;
	bool tune;                /* autotune `tune` parameters of candidates */
	bool flags;               /* -O2: also try the menu's flag variants */
	const char *state_dir;    /* required: the run's records live here */
	bool resume;              /* --resume: state_dir holds the search's earlier
	                             runs; the report's LLM totals add theirs */
	const char *memo_dir;     /* verdicts and measurements by text hash
	                             (CACHE/verdicts); NULL: STATE/memo */
	bool memo_read;           /* false (--no-cache): measure afresh */
	volatile sig_atomic_t *stop; /* set by SIGINT: finish cleanly */
	bool progress;            /* a progress line on stderr (a TTY) */
} SearchConfig;

typedef enum {
	STOP_DONE,       /* all steps ran */
	STOP_BUDGET,     /* a budget ran out */
	STOP_INTERRUPT,  /* SIGINT */
	STOP_PROVIDER,   /* the provider failed */
	STOP_TOOL,       /* kcc's own tools failed (reference, verifier) */
} StopReason;

typedef struct {
	Candidate *c;        /* c[0] is the original */
	int n;
	size_t cap;
	int best;            /* index of the best verified candidate (0: none better) */
	StopReason stop;
	const char *stop_detail;
	const char *device;  /* the hardware, one line */
	const char *shape;   /* the bench shape, "M=384 N=384 K=384" */
	const char *unit;    /* NULL: Candidate.ms are milliseconds; else they hold
	                        the target's count in this unit (riscv64) */
	const char *target;  /* the target's name */
	double delta;        /* the noise gate's margin */
	int duplicates;      /* candidates that repeated one already judged */
	LlmTotals totals;    /* the whole search's: this run's plus, with
	                        --resume, the earlier runs'; zero without an LLM */
	LlmTotals run_totals;/* this run's alone */
	int runs;            /* runs the totals cover (1 + earlier ones) */
	double wall_s;
} SearchResult;

/* Run the search. 0 when it ran to a stop (any StopReason); -1 when it
 * could not start (the reference does not verify), after diagnostics. */
int search_run(Arena *a, const SearchConfig *cfg, SearchResult *out);
const char *search_stop_name(StopReason s);
/* Whether a repair request may cure c's rejection: not when c is correct,
 * a duplicate (its code had its verdict and its repair), or rejected for a
 * reason no code change cures (implausible). */
bool search_repairable(const Candidate *c);
/* The chain of accepted candidates from the original to c[id]: ids in
 * order, original first. */
int search_chain(const SearchResult *r, int id, int *ids, int max);

/* ---- outputs ------------------------------------------------------------------ */

/* The header comment an output starts with (version, passes, device,
 * hashes, speed-up with CI). */
char *search_header(Arena *a, const SearchResult *r, const Unit *orig);
/* --report=FILE.json or FILE.html (by suffix). 0 or errno. */
int report_write(Arena *a, const char *path, const SearchResult *r, const Unit *orig,
                 const char *target);
/* --emit-passes=DIR: 00-input.EXT, NN-OPTION.EXT, .diff and .plan.md for
 * the accepted chain. 0 or errno. */
int passes_emit_dir(Arena *a, const char *dir, const SearchResult *r, const Unit *orig,
                    const char *ext);
/* Unified diff of two texts (via diff -u); "" when equal. */
char *passes_diff(Arena *a, const char *tmpdir, const char *name_a, const char *a_text,
                  const char *name_b, const char *b_text);

#endif
