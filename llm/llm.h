/*
 * llm.h — the LLM client: kcc's only door to a language model.
 *
 * Three kinds of provider sit behind one request/response pair:
 * `openai:MODEL` (chat completions; also vLLM, llama.cpp, ollama),
 * `anthropic:MODEL` (messages API) and `cmd:PROGRAM ARGS` (a local program
 * that reads an OpenAI chat-completions body on stdin and prints the answer).
 * A comma-separated list of providers is an ensemble: samples are spread
 * over them round-robin.
 *
 * The client runs a batch of requests concurrently (curl multi), retries
 * what is worth retrying, answers from a content-addressed cache when it can
 * (so a rebuild with the same inputs makes no network call), counts tokens
 * and dollars against a budget, and pulls the code block out of an answer.
 * API keys are read from the environment when a request is sent and never
 * stored, logged, traced or cached.
 *
 * Library code: errors are reported through support.h's diagnostics and
 * status codes; nothing here calls exit(). The status codes double as kcc's
 * exit codes, so the driver can return them as they are.
 */
#ifndef KCC_LLM_H
#define KCC_LLM_H

#include "../support/support.h"

/* Status codes, equal to the exit code the driver should use. */
enum {
	LLM_OK = 0,
	LLM_EUSER = 1,   /* bad --llm / --budget value, malformed config file */
	LLM_EFAIL = 3,   /* no provider, no key, provider down, request failed */
	LLM_EBUDGET = 4, /* a request not sent because a budget ran out */
};

/* ---- providers ------------------------------------------------------------ */

typedef enum { LLM_OPENAI, LLM_ANTHROPIC, LLM_CMD } LlmKind;

typedef struct {
	LlmKind kind;
	const char *spec;     /* as written: "openai:gpt-4o", "cmd:./run.sh -q" */
	const char *model;    /* openai/anthropic: model; cmd: program name */
	const char *base_url; /* http: resolved base, no trailing '/'; cmd: NULL */
	const char *url;      /* http: the endpoint requests go to */
	const char *key_env;  /* "OPENAI_API_KEY", "ANTHROPIC_API_KEY"; cmd: NULL */
	const char *const *argv; /* cmd: the split command line, NULL-terminated */
} LlmProvider;

/* Parse a comma-separated provider list; origin names where it came from
 * ("--llm", "KCC_LLM", "kcc.json") for the messages. Commas inside quotes
 * or after a backslash (in a cmd: command line) do not separate. */
int llm_parse_providers(Arena *a, const char *list, const char *origin,
                        LlmProvider **out, int *n);
/* The provider list from, in order: flag_value (may be NULL), $KCC_LLM,
 * ./kcc.json, $XDG_CONFIG_HOME/kcc/config.json or ~/.config/kcc/config.json
 * (key "llm": a string or an array of strings). Emits diagnostics; returns
 * LLM_EFAIL when none is configured or a hosted endpoint lacks its key,
 * LLM_EUSER when a value is malformed. */
int llm_resolve_providers(Arena *a, const char *flag_value, LlmProvider **out,
                          int *n);
/* Split a command line into words as a POSIX shell would (quotes and
 * backslashes), without running a shell. NULL-terminated vector; on error
 * returns NULL and sets *err. */
char **llm_split_words(Arena *a, const char *s, const char **err);

/* ---- requests and responses ----------------------------------------------- */

typedef struct {
	const char *role; /* "system", "user", "assistant" */
	const char *content;
} LlmMessage;

typedef struct {
	const LlmMessage *messages;
	int nmessages;
	double temperature; /* sent as is (0 = greedy) */
	int max_tokens;     /* 0: provider default (anthropic: 4096) */
	long long seed;     /* sent only when use_seed (anthropic ignores it) */
	bool use_seed;
	int sample;         /* sample index: part of the cache key; picks the
	                       ensemble member sample % nproviders */
	int provider;       /* 0: round-robin by sample; k > 0: ensemble
	                       member k-1 (e.g. --llm-plan's model) */
	const char *model;  /* NULL: the provider's model */
	const char *purpose;/* "plan", "implement": for -v traces only */
} LlmRequest;

typedef struct {
	int status;          /* LLM_OK, LLM_EFAIL or LLM_EBUDGET */
	const char *text;    /* the answer (NULL on error) */
	const char *error;   /* what happened, e.g. "HTTP 401 from URL: ..." */
	const char *provider;/* spec of the member that answered */
	long tokens_in, tokens_out;
	double cost_usd;     /* 0 for a cached answer: it cost nothing now */
	bool cached;
	double latency_s;    /* of the final attempt, 0 when cached */
	int attempts;
	int http_status;     /* last HTTP status, 0 if none */
	const char *key;     /* cache key (hex sha256) */
} LlmResponse;

/* ---- client ---------------------------------------------------------------- */

typedef enum {
	LLM_CACHE_NORMAL,  /* read and write */
	LLM_CACHE_REFRESH, /* --no-cache: don't read, still write fresh answers */
	LLM_CACHE_OFFLINE, /* read only; a miss is an error, no network at all */
} LlmCacheMode;

typedef struct {
	long calls;    /* requests sent to a provider (cache hits are free) */
	double usd;
	double time_s; /* wall time since llm_client_new */
} LlmBudget;       /* 0 = no limit */

typedef struct {
	const LlmProvider *providers;
	int nproviders;
	int jobs;              /* requests in flight; 0: 4 */
	double timeout_s;      /* per attempt; 0: 300 */
	int max_attempts;      /* 0: 4 */
	double backoff_s;      /* first retry delay, doubled each time; 0: 1 */
	double backoff_max_s;  /* 0: 30 */
	const char *cache_dir; /* NULL: dir_cache() (support.h) */
	LlmCacheMode cache_mode;
	const char *prices_path; /* NULL: the table shipped as llm/prices.json */
	const char *state_dir;   /* NULL: none; else every exchange saved here */
	LlmBudget budget;
} LlmConfig;

typedef struct LlmClient LlmClient;

/* NULL (with a diagnostic) when the price table cannot be read. The client
 * lives in the arena; llm_client_free releases what curl holds. */
LlmClient *llm_client_new(Arena *a, const LlmConfig *cfg);
void llm_client_free(LlmClient *c);
/* Answer reqs[0..n) into resps[0..n). Returns LLM_OK when every one has an
 * answer, else the first failing status; each response says what happened. */
int llm_complete_batch(LlmClient *c, LlmRequest *reqs, LlmResponse *resps,
                       int n);
int llm_complete(LlmClient *c, LlmRequest *req, LlmResponse *resp);

/* ---- accounting and budgets ------------------------------------------------ */

typedef struct {
	long calls;        /* requests sent (first attempts) */
	long attempts;     /* including retries */
	long answers, failures;
	long tokens_in, tokens_out;
	double usd;
	double wall_s;
	long cache_hits, cache_misses, cache_writes, cache_errors;
} LlmTotals;

typedef enum {
	LLM_BUDGET_LEFT,
	LLM_BUDGET_CALLS,
	LLM_BUDGET_USD,
	LLM_BUDGET_TIME,
} LlmBudgetState;

/* "calls:200,usd:5,time:30m" (time units s, m, h; bare number = seconds).
 * LLM_EUSER with a diagnostic naming origin when malformed. */
int llm_parse_budget(const char *text, const char *origin, LlmBudget *out);
LlmTotals llm_totals(LlmClient *c);
/* Which budget, if any, is used up. */
LlmBudgetState llm_budget_state(LlmClient *c);
const char *llm_budget_name(LlmBudgetState s); /* "calls", "usd", "time" */
/* Price of tokens for a provider and model, per million tokens; false when
 * the table has no entry (the cost then counts as 0). */
bool llm_price(LlmClient *c, const LlmProvider *p, const char *model,
               double *in_per_mtok, double *out_per_mtok);
/* One line for --cache-stats: "llm cache: 3 hits, 1 miss, 1 write (DIR)". */
const char *llm_cache_stats(LlmClient *c);

/* ---- answers ----------------------------------------------------------------- */

#define LLM_MAX_ANSWER (1u << 20)

typedef struct {
	const char *code;  /* the chosen block (or whole answer), LF line ends */
	const char *lang;  /* its fence tag, "" when untagged or no fence */
	const char *plan;  /* the text outside code blocks, trimmed */
	int nblocks;       /* fenced blocks seen */
} LlmExtract;

/* Take the code out of an answer. lang is what the caller expects ("c",
 * "cuda", "cpp"); blocks tagged so, or untagged, are preferred, the largest
 * wins. Returns 0, or -1 with *err set ("no code block in the answer"). */
int llm_extract_code(Arena *a, const char *answer, size_t len,
                     const char *lang, LlmExtract *out, const char **err);
/* The plan text of an answer with its code blocks removed; NULL + *err on
 * bad input (NUL bytes, over LLM_MAX_ANSWER). */
const char *llm_extract_plan(Arena *a, const char *answer, size_t len,
                             const char **err);

#endif
