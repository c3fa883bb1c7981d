/*
 * internal.h — what the files of passes/ share and nobody else sees: the
 * running search's state and, file by file from the bottom up, what each
 * gives the files above it: a file calls only those listed before it.
 * search.c, the loop, is at the top, and nothing in passes/ calls it.
 */
#ifndef KCC_PASSES_INTERNAL_H
#define KCC_PASSES_INTERNAL_H

#include "passes.h"

typedef struct {
	Arena *a;
	const SearchConfig *cfg;
	SearchResult *r;
	VerifyRef *ref;
	const char *fence;   /* "c", "cuda" */
	const char *ext;     /* ".c", ".cu" */
	char orig_sha[65];
	uint64_t rng;
	int nreq;            /* requests built so far: each one's sample index */
	double t0;
	TargetInfo info;     /* the device's description */
	ProfilePeaks peaks;  /* the device's, for the roofline */
	bool peaks_done;
	ProfileAsk ask;      /* extra metrics the plans asked for, all steps */
	LlmTotals prior;     /* --resume: the earlier runs' LLM totals */
	int prior_runs;
} Search;

/* ---- util.c: depends on nothing else in passes/ ------------------------------ */

uint64_t passes_rand(uint64_t *state);
/* "-O3 -floop-nest-optimize" as a NULL-terminated argv (split at spaces). */
const char *const *passes_split_flags(Arena *a, const char *flags);

/* ---- memo.c: verdicts and profiles remembered by hash ------------------------- */

/* c's verdict and measurement (by c->sha) into c; false when the memo has
 * none, or none that measured when bench asks for timing. */
bool memo_verdict_get(Search *s, Candidate *c, bool bench);
void memo_verdict_put(Search *s, const Candidate *c);
/* c's profile taken with ask into p; false when the memo has none. */
bool memo_profile_get(Search *s, const Candidate *c, const ProfileAsk *ask, Profile *p);
void memo_profile_put(Search *s, const Candidate *c, const ProfileAsk *ask, const Profile *p);
struct cJSON;
struct cJSON *profile_json(const Profile *p);

/* ---- store.c: the candidates and the run's record ----------------------------- */

/* Append a candidate (copied); returns its index. Texts are written to
 * STATE/candidates/NNNN.EXT. */
int store_add(Search *s, const Candidate *c);
/* Did c gain on its parent beyond the noise gate? */
bool store_gain(const Search *s, const Candidate *c);
/* The record (the JSON report) to path. 0 or errno. */
int store_write(const char *path, const SearchResult *r, const Unit *orig, const char *target);
/* STATE/report.json, with the LLM totals so far (set in s->r): after each
 * step. */
void state_save(Search *s);
/* The LLM totals and run count of the report.json in state_dir (earlier
 * runs of a resumed search); zero when there is none. */
void state_load_totals(Search *s);

/* ---- eval.c, autotune.c: candidates through the verifier --------------------- */

/* Verify c (already in r->c) and, when correct and bench, measure it
 * against the original; memoized by text. 0, or -1 on a tool failure. */
int eval_candidate(Search *s, int id, bool bench);
/* Variants of candidate id with its `tune` values written in: new
 * candidates (parent: id's parent, option: id's), verified and measured.
 * Returns how many were added, -1 on a tool failure. */
int tune_variants(Search *s, int id, int step);
/* Variants of candidate id with each of the menu's compiler-flag blocks
 * (children of id, option "flags:NAME"). Count added, or -1. */
int flag_variants(Search *s, int id, int step);

/* ---- profile.c: the Profiler stage --------------------------------------------- */

/* Profile candidate id once (memoized with its verdict), roofline added;
 * only correct candidates. Again when the plans asked for extra metrics
 * since and its profiler takes them. */
void profile_candidate(Search *s, int id);
/* The device's peaks in s->peaks, measured (cached) on first use. */
void passes_peaks(Search *s);

/* ---- prompts.c: requests to the LLM and its answers ---------------------------- */

/* The plan, implement and repair requests (each one's sample index the
 * next of s->nreq). */
void prompt_plan(Search *s, LlmRequest *q, int parent, const char *forced);
void prompt_implement(Search *s, LlmRequest *q, int parent, const char *option,
                      const char *plan);
void prompt_repair(Search *s, LlmRequest *q, const Candidate *c);
/* The prompts' hardware section (device, peaks per unit, this kernel's
 * roofline, limits, build line) and rules (what the verifier checks, the
 * asm rules, each output's tolerance). */
const char *rules_hardware(Search *s);
const char *rules_text(Search *s);
/* A plan answer: the plan's text, its option (forced for --passes), and
 * its `Metrics:` lines added to s->ask. */
const char *answer_plan(Search *s, const char *answer, const char *forced, const char **option);
/* A code answer: k's text, or k rejected (VR_PARSE) with the reason. */
void answer_code(Search *s, Candidate *k, const char *answer);

#endif
