/*
 * transfer.c — HTTP requests to the providers with curl's multi interface:
 * up to `jobs` transfers in flight from one thread, a time limit per
 * attempt, and retries where another attempt may succeed.
 *
 * Retried: 408, 429 and 5xx answers, and transport failures (no
 * connection, reset, truncated body, timeout), with exponential backoff and
 * jitter so that parallel kcc runs do not retry in lock-step; a server's
 * Retry-After (seconds) wins over the backoff. Not retried: other 4xx (a
 * bad key or model will not get better) and 2xx bodies we cannot parse.
 *
 * Keys: read from the environment while the headers are built, copied only
 * into curl's header list, and scrubbed from any error text a server sends
 * back. CURLOPT_VERBOSE is never set, since it would print the headers.
 */
#include "internal.h"

#include <curl/curl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MAX_RETRY_AFTER 300.0

_Static_assert(sizeof(((Job *)0)->errbuf) >= CURL_ERROR_SIZE,
               "Job.errbuf must hold CURL_ERROR_SIZE bytes");

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *ud)
{
	Job *j = ud;
	size_t n = size * nmemb;
	if (j->data.len + n > LLM_MAX_BODY) {
		j->too_big = true;
		return 0; /* makes curl fail the transfer with CURLE_WRITE_ERROR */
	}
	sb_addn(&j->data, ptr, n);
	return n;
}

static size_t on_header(char *ptr, size_t size, size_t nmemb, void *ud)
{
	Job *j = ud;
	size_t n = size * nmemb;
	static const char name[] = "retry-after:";
	if (n > sizeof name - 1 && strncasecmp(ptr, name, sizeof name - 1) == 0) {
		char buf[32];
		size_t k = n - (sizeof name - 1);
		k = k < sizeof buf - 1 ? k : sizeof buf - 1;
		memcpy(buf, ptr + sizeof name - 1, k);
		buf[k] = 0;
		char *end;
		double v = strtod(buf, &end);
		/* Only the delay-seconds form; an HTTP date falls back to backoff. */
		if (end != buf && (*end == '\r' || *end == '\n' || *end == ' ' || !*end) &&
		    v >= 0 && isfinite(v))
			j->retry_after = v < MAX_RETRY_AFTER ? v : MAX_RETRY_AFTER;
	}
	return n;
}

/* Append "Name: value" to the list without leaving the key in our memory. */
static struct curl_slist *add_secret_header(struct curl_slist *h,
                                            const char *name, const char *key)
{
	Strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s%s", name, key);
	h = curl_slist_append(h, sb.buf);
	memset(sb.buf, 0, sb.len);
	sb_release(&sb);
	return h;
}

static struct curl_slist *headers(const LlmProvider *p)
{
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
	h = curl_slist_append(h, "Expect:"); /* no 100-continue round trip */
	const char *key = getenv(p->key_env);
	if (p->kind == LLM_ANTHROPIC) {
		h = curl_slist_append(h, "anthropic-version: 2023-06-01");
		if (key && *key)
			h = add_secret_header(h, "x-api-key: ", key);
	} else if (key && *key)
		h = add_secret_header(h, "Authorization: Bearer ", key);
	return h;
}

static int start(LlmClient *c, Job *j)
{
	CURL *e = curl_easy_init();
	if (!e)
		return -1;
	j->resp->attempts++;
	sb_reset(&j->data);
	j->too_big = false;
	j->retry_after = -1;
	j->errbuf[0] = 0;
	j->hdrs = headers(j->p);
	long tmo = (long)(llm_attempt_timeout(c) * 1000);
	curl_easy_setopt(e, CURLOPT_URL, j->p->url);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(e, CURLOPT_POSTFIELDS, j->body);
	curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(j->body));
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, (struct curl_slist *)j->hdrs);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, j);
	curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(e, CURLOPT_HEADERDATA, j);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, tmo);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, tmo < 30000 ? tmo : 30000L);
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_ERRORBUFFER, j->errbuf);
	curl_easy_setopt(e, CURLOPT_PRIVATE, j);
	curl_easy_setopt(e, CURLOPT_USERAGENT, "kcc/" KCC_VERSION);
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	j->easy = e;
	j->started = clock_now();
	j->state = JOB_ACTIVE;
	diag_trace("kcc: llm: POST %s (%s, %s%ssample %d, attempt %d)", j->p->url,
	           j->p->spec, j->req->purpose ? j->req->purpose : "",
	           j->req->purpose ? " " : "", j->req->sample, j->resp->attempts);
	curl_multi_add_handle(c->multi, e);
	return 0;
}

/* Replace every occurrence of the provider's key in msg (servers do echo
 * keys back in "invalid key" messages). */
static const char *redact(Arena *a, const LlmProvider *p, const char *msg)
{
	const char *key = p->key_env ? getenv(p->key_env) : NULL;
	if (!key || strlen(key) < 4 || !strstr(msg, key))
		return msg;
	Strbuf sb = STRBUF_INIT;
	size_t kn = strlen(key);
	for (const char *s = msg, *hit; *s; s = hit + kn) {
		hit = strstr(s, key);
		if (!hit) {
			sb_adds(&sb, s);
			break;
		}
		sb_addn(&sb, s, (size_t)(hit - s));
		sb_adds(&sb, "[redacted]");
	}
	return sb_to_arena(&sb, a);
}

static bool retryable_curl(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_PARTIAL_FILE:
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return true;
	default:
		return false;
	}
}

static const char *curl_failure(LlmClient *c, Job *j, CURLcode rc)
{
	Arena *a = c->a;
	const char *url = j->p->url;
	const char *why = j->errbuf[0] ? j->errbuf : curl_easy_strerror(rc);
	switch (rc) {
	case CURLE_OPERATION_TIMEDOUT:
		return arena_printf(a, "no answer from %s within %.1f s (timeout)", url,
		                    c->cfg.timeout_s);
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
		return arena_printf(a, "cannot connect to %s: %s", url, why);
	case CURLE_PARTIAL_FILE:
		return arena_printf(a, "truncated answer from %s: %s", url, why);
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
		return arena_printf(a, "connection to %s lost without an answer: %s",
		                    url, why);
	case CURLE_WRITE_ERROR:
		if (j->too_big)
			return arena_printf(a, "answer from %s is larger than %zu MiB", url,
			                    LLM_MAX_BODY >> 20);
		/* fall through */
	default:
		return arena_printf(a, "request to %s failed: %s", url, why);
	}
}

static int parse_answer(LlmClient *c, Job *j)
{
	const char *err = NULL;
	int rc = j->p->kind == LLM_ANTHROPIC
	                 ? llm_anthropic_parse(c->a, sb_str(&j->data), j->data.len,
	                                       &j->ans, &err)
	                 : llm_openai_parse(c->a, sb_str(&j->data), j->data.len,
	                                    &j->ans, &err);
	if (rc)
		j->resp->error = arena_printf(c->a, "bad answer from %s: %s",
		                              j->p->url, err);
	return rc;
}

/* Delay before attempt number `attempts + 1`. */
static double backoff(LlmClient *c, Job *j)
{
	if (j->retry_after >= 0)
		return j->retry_after;
	double d = c->cfg.backoff_s * pow(2, j->resp->attempts - 1);
	if (d > c->cfg.backoff_max_s)
		d = c->cfg.backoff_max_s;
	c->rng ^= c->rng << 13, c->rng ^= c->rng >> 7, c->rng ^= c->rng << 17;
	return d * (0.5 + 0.5 * (double)(c->rng >> 11) / 9007199254740992.0);
}

/* A transfer ended: success, a retry scheduled, or a final error. */
static void finish(LlmClient *c, Job *j, CURLcode rc)
{
	CURL *e = j->easy;
	long code = 0;
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &code);
	curl_multi_remove_handle(c->multi, e);
	curl_easy_cleanup(e);
	curl_slist_free_all(j->hdrs);
	j->easy = j->hdrs = NULL;
	LlmResponse *r = j->resp;
	r->latency_s = clock_now() - j->started;
	r->http_status = (int)code;
	bool retry;
	if (rc == CURLE_OK && code >= 200 && code < 300) {
		j->state = JOB_DONE;
		r->status = parse_answer(c, j) ? LLM_EFAIL : LLM_OK;
		r->error = r->status ? redact(c->a, j->p, r->error) : NULL;
		return;
	}
	if (rc == CURLE_OK) {
		const char *msg = llm_error_message(c->a, sb_str(&j->data), j->data.len);
		r->error = arena_printf(c->a, "HTTP %ld from %s: %s", code, j->p->url, msg);
		retry = code == 408 || code == 429 || code >= 500;
	} else {
		r->error = curl_failure(c, j, rc);
		retry = retryable_curl(rc);
	}
	r->error = redact(c->a, j->p, r->error);
	/* No retry once a time budget is spent: it ends requests in flight. */
	if (retry && r->attempts < c->cfg.max_attempts &&
	    llm_budget_state(c) != LLM_BUDGET_TIME) {
		double d = backoff(c, j);
		diag_trace("kcc: llm: %s; retrying in %.2f s", r->error, d);
		j->not_before = clock_now() + d;
		j->state = JOB_WAIT;
		return;
	}
	if (r->attempts > 1)
		r->error = arena_printf(c->a, "%s (gave up after %d attempts)", r->error,
		                        r->attempts);
	j->state = JOB_DONE;
	r->status = LLM_EFAIL;
}

/* Start what may start now; returns the time of the next scheduled start. */
static double start_ready(LlmClient *c, Job **jobs, int n, int *active)
{
	double now = clock_now(), next = INFINITY;
	for (int i = 0; i < n; i++) {
		Job *j = jobs[i];
		if (j->state != JOB_WAIT)
			continue;
		if (j->not_before > now) {
			next = fmin(next, j->not_before);
			continue;
		}
		if (*active >= c->cfg.jobs)
			continue;
		if (j->resp->attempts == 0 && llm_claim_call(c, j) != LLM_OK)
			continue;
		if (start(c, j) != 0) {
			j->state = JOB_DONE;
			j->resp->error = "cannot start a transfer (out of memory?)";
			continue;
		}
		pthread_mutex_lock(&c->mu);
		c->tot.attempts++;
		pthread_mutex_unlock(&c->mu);
		(*active)++;
	}
	return next;
}

static int count_pending(Job **jobs, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += jobs[i]->state != JOB_DONE;
	return k;
}

void llm_http_run(LlmClient *c, Job **jobs, int n)
{
	int active = 0;
	while (count_pending(jobs, n) > 0) {
		double next = start_ready(c, jobs, n, &active);
		int running;
		curl_multi_perform(c->multi, &running);
		CURLMsg *m;
		int left, ended = 0;
		while ((m = curl_multi_info_read(c->multi, &left))) {
			if (m->msg != CURLMSG_DONE)
				continue;
			Job *j;
			curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&j);
			CURLcode rc = m->data.result;
			finish(c, j, rc);
			active--;
			ended++;
		}
		if (!count_pending(jobs, n))
			break;
		if (ended) /* slots are free and retries scheduled: start again */
			continue;
		double wait = isfinite(next) ? next - clock_now() : 1.0;
		int ms = wait <= 0 ? 0 : wait > 1.0 ? 1000 : (int)(wait * 1000) + 1;
		if (active)
			curl_multi_poll(c->multi, NULL, 0, ms, NULL);
		else if (ms)
			usleep((useconds_t)ms * 1000);
	}
}
