/*
 * internal.h — what the files of llm/ share with each other (and with the
 * fuzz targets), but not with the rest of kcc: the wire formats of the two
 * HTTP providers, the cmd: provider, the cache and the price table. llm.h
 * stays the folder's public API.
 */
#ifndef KCC_LLM_INTERNAL_H
#define KCC_LLM_INTERNAL_H

#include "llm.h"

#include <cjson/cJSON.h>
#include <stdio.h>

/* What a provider's answer boils down to. */
typedef struct {
	char *text;
	long tokens_in, tokens_out;
} LlmAnswer;

/* Responses larger than this are refused before parsing. */
#define LLM_MAX_BODY ((size_t)16 << 20)

/* ---- wire formats (provider_openai.c, provider_anthropic.c) --------------- */

/* JSON body of a request; model is the resolved model name. */
char *llm_openai_body(Arena *a, const LlmRequest *r, const char *model);
char *llm_anthropic_body(Arena *a, const LlmRequest *r, const char *model);
/* Parse a 2xx body. 0 or -1 with *err (arena-owned) saying why. */
int llm_openai_parse(Arena *a, const char *body, size_t len, LlmAnswer *out,
                     const char **err);
int llm_anthropic_parse(Arena *a, const char *body, size_t len,
                        LlmAnswer *out, const char **err);
/* The human part of an error body ({"error":{"message":...}} in both
 * formats, else the start of the body made printable); never NULL. */
const char *llm_error_message(Arena *a, const char *body, size_t len);
/* Arena copy of a cJSON string item, or NULL when it is not a string. */
char *llm_json_str(Arena *a, const cJSON *item);
/* Print a cJSON tree compactly into the arena and free the tree. */
char *llm_json_take(Arena *a, cJSON *root);
/* A token count from a provider's usage object: 0 unless a sane number. */
long llm_json_count(const cJSON *usage, const char *name);

/* ---- cmd: provider (provider_cmd.c) ----------------------------------------- */

/* Run the provider's program with body on stdin. Thread-safe: uses only
 * its own temporary arena and copies the result with malloc (the caller
 * frees *text / *err). Returns 0 or -1. */
int llm_cmd_run(const LlmProvider *p, const char *body, double timeout_s,
                char **text, char **err);

/* ---- cache (cache.c) ---------------------------------------------------------- */

typedef struct LlmCache LlmCache;

LlmCache *llm_cache_new(Arena *a, const char *dir, LlmCacheMode mode);
/* Canonical serialization of what determines an answer (never the key),
 * and its sha256. */
char *llm_cache_request_json(Arena *a, const LlmProvider *p, const char *model,
                             const LlmRequest *r);
void llm_cache_key(const char *canon, char out[65]);
/* Look up key; true and *ans filled on a hit. */
bool llm_cache_get(LlmCache *c, Arena *a, const char *key, LlmAnswer *ans);
/* Store an answer (atomically); failures are counted and warned once. */
void llm_cache_put(LlmCache *c, const char *key, const char *canon,
                   const char *provider, const LlmAnswer *ans);
/* The entry's JSON, also used for the state dir's records. */
char *llm_cache_entry(Arena *a, const char *key, const char *canon,
                      const char *provider, const LlmAnswer *ans);
void llm_cache_counts(const LlmCache *c, long *hits, long *misses,
                      long *writes, long *errors);
const char *llm_cache_dir(const LlmCache *c);

typedef struct LlmPrices LlmPrices;

/* ---- the client's state (client.c), budgets (budget.c), transfers (transfer.c) */

#include <pthread.h>

typedef enum { JOB_WAIT, JOB_ACTIVE, JOB_DONE } JobState;

/* One request of a batch on its way to an answer. */
typedef struct {
	LlmRequest *req;
	LlmResponse *resp;
	const LlmProvider *p;
	const char *model;
	const char *canon; /* canonical request: cache key and records */
	char key[65];
	const char *body;  /* what is sent */
	JobState state;
	double not_before; /* earliest start of the next attempt */
	double started;
	/* http: the transfer in flight */
	void *easy;        /* CURL * */
	void *hdrs;        /* struct curl_slist * */
	Strbuf data;
	bool too_big;
	double retry_after; /* seconds from the last answer, < 0 when none */
	char errbuf[256];  /* CURL_ERROR_SIZE */
	/* cmd: filled by a worker thread, malloc'd */
	char *cmd_text, *cmd_err;
	LlmAnswer ans;     /* the answer once there is one */
} Job;

struct LlmClient {
	Arena *a;
	LlmConfig cfg;     /* defaults filled in */
	LlmCache *cache;
	LlmPrices *prices;
	void *multi;       /* CURLM * */
	double t0;
	uint64_t rng;
	pthread_mutex_t mu; /* guards tot against the cmd: workers */
	LlmTotals tot;
	long records;      /* files written to the state dir */
	const char **warned; /* models already warned about (no price) */
	size_t nwarned, capwarned;
};

/* Count a call against the budget; LLM_EBUDGET (and resp->error set) when
 * a budget is used up. Thread-safe (budget.c). */
int llm_claim_call(LlmClient *c, Job *j);
/* The time limit of one attempt: --llm-timeout, cut to what is left of a
 * time budget, so the budget also ends requests in flight. */
double llm_attempt_timeout(LlmClient *c);
/* Run the HTTP jobs among jobs[0..n) to completion (transfer.c). On
 * success a job has j->ans and resp->status LLM_OK; else resp->error. */
void llm_http_run(LlmClient *c, Job **jobs, int n);

/* ---- price table (accounting.c) ---------------------------------------------- */

/* path NULL: the built-in table (llm/prices.json compiled in). */
LlmPrices *llm_prices_load(Arena *a, const char *path);
bool llm_prices_lookup(const LlmPrices *t, const LlmProvider *p,
                       const char *model, double *in, double *out);
extern const char llm_default_prices[]; /* generated from prices.json */

#endif
