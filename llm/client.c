/*
 * client.c — llm_complete_batch() and the client around it: for each
 * request pick the ensemble member, look in the cache, then send what is
 * left — HTTP requests through transfer.c's curl multi loop, cmd: requests
 * on a few worker threads (proc_run blocks) — and account for every answer.
 *
 * Everything but the cmd: workers runs on the caller's thread; the workers
 * touch only their job and, under the mutex, the totals. The cache, the
 * arena and the diagnostics are used from the caller's thread only.
 */
#include "internal.h"

#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void fill_defaults(LlmConfig *c)
{
	if (c->jobs <= 0)
		c->jobs = 4;
	if (c->timeout_s <= 0)
		c->timeout_s = 300;
	if (c->max_attempts <= 0)
		c->max_attempts = 4;
	if (c->backoff_s <= 0)
		c->backoff_s = 1;
	if (c->backoff_max_s <= 0)
		c->backoff_max_s = 30;
}

/* A dead cmd: program or a peer that closed its socket must give an error,
 * not kill kcc with SIGPIPE; leave any handler the program installed. */
static void ignore_sigpipe(void)
{
	struct sigaction sa;
	if (sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL)
		signal(SIGPIPE, SIG_IGN);
}

LlmClient *llm_client_new(Arena *a, const LlmConfig *cfg)
{
	static bool curl_ready;
	if (!curl_ready && curl_global_init(CURL_GLOBAL_DEFAULT) != 0) {
		diag_error("cannot initialise libcurl");
		return NULL;
	}
	curl_ready = true;
	LlmClient *c = arena_alloc(a, sizeof *c);
	c->a = a;
	c->cfg = *cfg;
	fill_defaults(&c->cfg);
	c->prices = llm_prices_load(a, cfg->prices_path);
	if (!c->prices)
		return NULL;
	c->cache = llm_cache_new(a, cfg->cache_dir, cfg->cache_mode);
	c->multi = curl_multi_init();
	c->t0 = clock_now();
	c->rng = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid();
	c->rng |= 1;
	pthread_mutex_init(&c->mu, NULL);
	ignore_sigpipe();
	return c;
}

void llm_client_free(LlmClient *c)
{
	if (!c)
		return;
	curl_multi_cleanup(c->multi);
	c->multi = NULL;
	pthread_mutex_destroy(&c->mu);
}

/* ---- accounting ---------------------------------------------------------- */

LlmTotals llm_totals(LlmClient *c)
{
	pthread_mutex_lock(&c->mu);
	LlmTotals t = c->tot;
	pthread_mutex_unlock(&c->mu);
	t.wall_s = clock_now() - c->t0;
	llm_cache_counts(c->cache, &t.cache_hits, &t.cache_misses, &t.cache_writes,
	                 &t.cache_errors);
	return t;
}

bool llm_price(LlmClient *c, const LlmProvider *p, const char *model,
               double *in_per_mtok, double *out_per_mtok)
{
	return llm_prices_lookup(c->prices, p, model ? model : p->model, in_per_mtok,
	                         out_per_mtok);
}

static void warn_no_price(LlmClient *c, const LlmProvider *p, const char *model)
{
	for (size_t i = 0; i < c->nwarned; i++)
		if (strcmp(c->warned[i], model) == 0)
			return;
	ARENA_PUSH(c->a, c->warned, c->nwarned, c->capwarned, model);
	if (c->cfg.budget.usd > 0 && p->kind != LLM_CMD) {
		diag_warning("no price for '%s' (%s) in the price table; its cost counts "
		             "as 0 and the usd budget cannot limit it", model, p->spec);
		diag_note("add it to a copy of llm/prices.json and pass that file");
	} else
		diag_trace("kcc: llm: no price for '%s'; cost counted as 0", model);
}

static double cost(LlmClient *c, const Job *j)
{
	double in, out;
	if (!llm_price(c, j->p, j->model, &in, &out)) {
		warn_no_price(c, j->p, j->model);
		return 0;
	}
	return ((double)j->ans.tokens_in * in + (double)j->ans.tokens_out * out) / 1e6;
}

const char *llm_cache_stats(LlmClient *c)
{
	LlmTotals t = llm_totals(c);
	return arena_printf(c->a, "llm cache: %ld hit%s, %ld miss%s, %ld write%s (%s)",
	                    t.cache_hits, t.cache_hits == 1 ? "" : "s", t.cache_misses,
	                    t.cache_misses == 1 ? "" : "es", t.cache_writes,
	                    t.cache_writes == 1 ? "" : "s", llm_cache_dir(c->cache));
}

/* ---- one job --------------------------------------------------------------- */

static const LlmProvider *pick(const LlmClient *c, const LlmRequest *r)
{
	int n = c->cfg.nproviders;
	if (r->provider > 0 && r->provider <= n)
		return &c->cfg.providers[r->provider - 1];
	int s = r->sample < 0 ? -r->sample : r->sample;
	return &c->cfg.providers[s % n];
}

static void prepare(LlmClient *c, Job *j, LlmRequest *req, LlmResponse *resp)
{
	memset(j, 0, sizeof *j);
	memset(resp, 0, sizeof *resp);
	j->req = req;
	j->resp = resp;
	j->p = pick(c, req);
	j->model = req->model ? req->model : j->p->model;
	j->canon = llm_cache_request_json(c->a, j->p, j->model, req);
	llm_cache_key(j->canon, j->key);
	resp->key = arena_strdup(c->a, j->key);
	resp->provider = j->p->spec;
	resp->status = LLM_EFAIL;
	j->state = JOB_WAIT;
	/* What is sent never holds a secret (support/redact.c). */
	if (j->p->kind == LLM_ANTHROPIC)
		j->body = redact_str(c->a, llm_anthropic_body(c->a, req, j->model));
	else
		j->body = redact_str(c->a, llm_openai_body(c->a, req, j->model));
}

/* Answer from the cache when the mode allows; offline, a miss is final. */
static void try_cache(LlmClient *c, Job *j)
{
	LlmCacheMode m = c->cfg.cache_mode;
	if (m == LLM_CACHE_REFRESH)
		return;
	if (llm_cache_get(c->cache, c->a, j->key, &j->ans)) {
		j->state = JOB_DONE;
		j->resp->status = LLM_OK;
		j->resp->cached = true;
		j->resp->text = j->ans.text;
		j->resp->tokens_in = j->ans.tokens_in;
		j->resp->tokens_out = j->ans.tokens_out;
		diag_trace("kcc: llm: cache hit %s (%s, sample %d)", j->key, j->p->spec,
		           j->req->sample);
		return;
	}
	if (m == LLM_CACHE_OFFLINE) {
		j->state = JOB_DONE;
		j->resp->error = arena_printf(c->a, "offline: no cached answer for this "
		                              "request to %s (key %.16s)", j->p->spec, j->key);
	}
}

/* The highest NNNN of dir's NNNN-KEY.json records (0 when none): a run
 * goes on numbering after the runs before it in the same state dir. */
static long last_record(const char *dir)
{
	long max = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		char *end;
		long n = strtol(e->d_name, &end, 10);
		if (end != e->d_name && *end == '-' && n > max)
			max = n;
	}
	if (d)
		closedir(d);
	return max;
}

/* Keep a record of the exchange under the state dir, if there is one.
 * Records are numbered in the order they were written, across runs (a
 * --resume, or a rebuild into the same state dir): a name is claimed with
 * O_EXCL before the record is written over it, so neither a later run nor
 * a concurrent one can overwrite an earlier record. */
static void record(LlmClient *c, const Job *j)
{
	if (!c->cfg.state_dir)
		return;
	const char *dir = arena_printf(c->a, "%s/llm", c->cfg.state_dir);
	if (file_mkdirs(dir, 0700) == 0 && c->records == 0)
		c->records = last_record(dir);
	const char *path;
	for (int tries = 0;; tries++) {
		path = arena_printf(c->a, "%s/%04ld-%.16s.json", dir, ++c->records, j->key);
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0) {
			close(fd);
			break;
		}
		if (errno != EEXIST || tries > 1000)
			break;
		c->records = last_record(dir);
	}
	LlmAnswer none = {.text = ""};
	char *s = llm_cache_entry(c->a, j->key, j->canon, j->p->spec,
	                          j->resp->status == LLM_OK ? &j->ans : &none);
	if (j->resp->error) {
		cJSON *o = cJSON_Parse(s);
		cJSON_AddStringToObject(o, "error", j->resp->error);
		s = llm_json_take(c->a, o);
	}
	int e = file_mkdirs(dir, 0700);
	if (!e)
		e = file_write_atomic(path, s, strlen(s));
	if (e)
		diag_trace("kcc: llm: cannot write %s: %s", path, strerror(e));
}

/* Account for an answer that came from a provider and cache it. */
static void settle(LlmClient *c, Job *j)
{
	LlmResponse *r = j->resp;
	if (r->cached || r->attempts == 0) /* nothing was sent */
		return;
	record(c, j);
	pthread_mutex_lock(&c->mu);
	if (r->status != LLM_OK) {
		c->tot.failures += r->status == LLM_EFAIL;
		pthread_mutex_unlock(&c->mu);
		return;
	}
	pthread_mutex_unlock(&c->mu);
	r->text = j->ans.text;
	r->tokens_in = j->ans.tokens_in;
	r->tokens_out = j->ans.tokens_out;
	r->cost_usd = cost(c, j);
	pthread_mutex_lock(&c->mu);
	c->tot.answers++;
	c->tot.tokens_in += r->tokens_in;
	c->tot.tokens_out += r->tokens_out;
	c->tot.usd += r->cost_usd;
	pthread_mutex_unlock(&c->mu);
	llm_cache_put(c->cache, j->key, j->canon, j->p->spec, &j->ans);
}

/* ---- cmd: workers ------------------------------------------------------------ */

typedef struct {
	LlmClient *c;
	Job **jobs;
	int n, next;
	pthread_mutex_t mu;
} CmdPool;

static void *cmd_worker(void *arg)
{
	CmdPool *pool = arg;
	for (;;) {
		pthread_mutex_lock(&pool->mu);
		int i = pool->next < pool->n ? pool->next++ : -1;
		pthread_mutex_unlock(&pool->mu);
		if (i < 0)
			return NULL;
		Job *j = pool->jobs[i];
		if (llm_claim_call(pool->c, j) != LLM_OK)
			continue;
		j->resp->attempts = 1;
		double t0 = clock_now();
		llm_cmd_run(j->p, j->body, llm_attempt_timeout(pool->c), &j->cmd_text, &j->cmd_err);
		j->resp->latency_s = clock_now() - t0;
	}
}

static void cmd_collect(LlmClient *c, Job *j)
{
	if (j->state == JOB_DONE) /* budget */
		return;
	j->state = JOB_DONE;
	if (j->cmd_text) {
		j->ans.text = arena_strdup(c->a, j->cmd_text);
		j->resp->status = LLM_OK;
	} else
		j->resp->error = arena_strdup(c->a, j->cmd_err ? j->cmd_err : "cmd: failed");
	free(j->cmd_text);
	free(j->cmd_err);
	j->cmd_text = j->cmd_err = NULL;
}

/* Start the workers; cmd_finish joins them. */
static int cmd_start(LlmClient *c, CmdPool *pool, pthread_t *th)
{
	int nt = pool->n < c->cfg.jobs ? pool->n : c->cfg.jobs, k = 0;
	pool->c = c;
	pthread_mutex_init(&pool->mu, NULL);
	for (; k < nt; k++)
		if (pthread_create(&th[k], NULL, cmd_worker, pool) != 0)
			break;
	if (k == 0 && pool->n) /* no thread at all: do the work here */
		cmd_worker(pool);
	return k;
}

static void cmd_finish(LlmClient *c, CmdPool *pool, pthread_t *th, int nt)
{
	for (int k = 0; k < nt; k++)
		pthread_join(th[k], NULL);
	pthread_mutex_destroy(&pool->mu);
	for (int i = 0; i < pool->n; i++)
		cmd_collect(c, pool->jobs[i]);
}

/* ---- the batch ---------------------------------------------------------------- */

int llm_complete_batch(LlmClient *c, LlmRequest *reqs, LlmResponse *resps, int n)
{
	if (n <= 0)
		return LLM_OK;
	if (c->cfg.nproviders <= 0) {
		for (int i = 0; i < n; i++)
			resps[i] = (LlmResponse){.status = LLM_EFAIL,
			                         .error = "no LLM provider configured"};
		return LLM_EFAIL;
	}
	Job *jobs = calloc((size_t)n, sizeof *jobs);
	Job **http = calloc((size_t)n, sizeof *http), **cmd = calloc((size_t)n, sizeof *cmd);
	pthread_t *th = calloc((size_t)c->cfg.jobs, sizeof *th);
	int nh = 0, ncmd = 0;
	for (int i = 0; i < n; i++) {
		prepare(c, &jobs[i], &reqs[i], &resps[i]);
		try_cache(c, &jobs[i]);
		if (jobs[i].state == JOB_DONE)
			continue;
		if (jobs[i].p->kind == LLM_CMD)
			cmd[ncmd++] = &jobs[i];
		else
			http[nh++] = &jobs[i];
	}
	CmdPool pool = {.jobs = cmd, .n = ncmd};
	int nt = ncmd ? cmd_start(c, &pool, th) : 0;
	if (nh)
		llm_http_run(c, http, nh);
	if (ncmd)
		cmd_finish(c, &pool, th, nt);
	int status = LLM_OK;
	for (int i = 0; i < n; i++) {
		settle(c, &jobs[i]);
		sb_release(&jobs[i].data);
		if (resps[i].status && !status)
			status = resps[i].status;
		if (resps[i].status)
			diag_trace("kcc: llm: %s", resps[i].error);
	}
	free(jobs);
	free(http);
	free(cmd);
	free(th);
	return status;
}

int llm_complete(LlmClient *c, LlmRequest *req, LlmResponse *resp)
{
	return llm_complete_batch(c, req, resp, 1);
}
