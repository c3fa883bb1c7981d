/*
 * test_llm_faults.c — the client against every fault the scripted server
 * injects: 429 with Retry-After then success, 500s then success, 500
 * forever (bounded attempts), a slow answer past the timeout, a truncated
 * body, malformed JSON, a reset connection, a dead port, 4xx without
 * retry; and that `jobs` requests really run at once.
 */
#include "testsuite/llm-server/harness.h"
#include "testsuite/unit/check.h"

#include <netinet/in.h>
#include <sys/socket.h>

static Arena *A;
static LlmProvider *prov;

static LlmClient *client(int attempts, double timeout)
{
	LlmConfig cfg = {.providers = prov, .nproviders = 1, .jobs = 4,
	                 .timeout_s = timeout, .max_attempts = attempts,
	                 .backoff_s = 0.05, .backoff_max_s = 0.2,
	                 .cache_dir = test_tmpdir(A, "cache"),
	                 .cache_mode = LLM_CACHE_REFRESH};
	return llm_client_new(A, &cfg);
}

/* One request with the given marker through a fresh client. */
static LlmResponse ask(const char *marker, int attempts, double timeout)
{
	LlmClient *c = client(attempts, timeout);
	LlmRequest r = user_request(A, arena_printf(A, "write f [[fixture:%s]]", marker), 0);
	LlmResponse resp;
	llm_complete(c, &r, &resp);
	llm_client_free(c);
	if (resp.error)
		printf("  %s: %s\n", marker, resp.error);
	return resp;
}

static bool has(const char *s, const char *sub)
{
	return s && strstr(s, sub);
}

/* A port on which nothing listens (bound, read, closed). */
static int dead_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t n = sizeof sa;
	bind(fd, (struct sockaddr *)&sa, sizeof sa);
	getsockname(fd, (struct sockaddr *)&sa, &n);
	close(fd);
	return ntohs(sa.sin_port);
}

int main(void)
{
	A = arena_new();
	if (server_start(A) < 0)
		return 1;
	server_env();
	int n;
	CHECK(llm_parse_providers(A, "openai:test-model", "test", &prov, &n) == LLM_OK);
	const char *url = arena_printf(A, "http://127.0.0.1:%d/v1/chat/completions", server_port);

	double t0 = now_mono();
	LlmResponse r = ask("retry429#a", 4, 2);
	CHECK(r.status == LLM_OK && r.attempts == 2);
	CHECK(now_mono() - t0 >= 0.95); /* Retry-After: 1 was honoured */
	CHECK(has(r.text, "answer from test-model"));
	CHECK(r.tokens_in == 100 && r.tokens_out == 50);

	r = ask("retry500#a", 4, 2);
	CHECK(r.status == LLM_OK && r.attempts == 3);

	int before = server_requests(A);
	r = ask("500", 3, 2);
	CHECK(r.status == LLM_EFAIL && r.attempts == 3 && r.http_status == 500);
	CHECK(has(r.error, arena_printf(A, "HTTP 500 from %s: the server is overloaded", url)));
	CHECK(has(r.error, "gave up after 3 attempts"));
	CHECK(server_requests(A) - before == 3);

	t0 = now_mono();
	r = ask("slow", 1, 1);
	CHECK(r.status == LLM_EFAIL && has(r.error, "timeout") && has(r.error, url));
	CHECK(now_mono() - t0 < 6); /* the fixture answers after 8 s */

	r = ask("truncated", 2, 2);
	CHECK(r.status == LLM_EFAIL && has(r.error, "truncated answer from") && r.attempts == 2);
	r = ask("retrytrunc#a", 4, 2);
	CHECK(r.status == LLM_OK && r.attempts == 2);

	r = ask("malformed", 4, 2);
	CHECK(r.status == LLM_EFAIL && r.attempts == 1);
	CHECK(has(r.error, arena_printf(A, "bad answer from %s: malformed JSON", url)));

	r = ask("reset", 2, 2);
	CHECK(r.status == LLM_EFAIL && has(r.error, "lost without an answer"));
	r = ask("retryreset#a", 4, 2);
	CHECK(r.status == LLM_OK && r.attempts == 2);

	r = ask("401", 4, 2);
	CHECK(r.status == LLM_EFAIL && r.attempts == 1 && r.http_status == 401);
	CHECK(has(r.error, arena_printf(A, "HTTP 401 from %s: invalid key", url)));
	r = ask("400", 4, 2);
	CHECK(r.status == LLM_EFAIL && r.attempts == 1);

	/* 503 with Retry-After: 0 is retried at once, to the bound. */
	r = ask("503", 2, 2);
	CHECK(r.status == LLM_EFAIL && r.attempts == 2);

	/* Eight 0.3 s answers with jobs = 4: the server sees them
	 * overlap, never more than four at once (counted by the server, not
	 * timed: this machine is too noisy for a wall-clock bound). */
	LlmClient *c = client(1, 10);
	LlmRequest reqs[8];
	LlmResponse resps[8];
	for (int i = 0; i < 8; i++)
		reqs[i] = user_request(A, "[[fixture:delay]]", i);
	server_reset(A);
	CHECK(llm_complete_batch(c, reqs, resps, 8) == LLM_OK);
	int peak = server_stat(A, "peak_inflight");
	CHECK(peak >= 2 && peak <= 4);
	for (int i = 0; i < 8; i++)
		CHECK(resps[i].status == LLM_OK && has(resps[i].text, "slow"));
	LlmTotals t = llm_totals(c);
	CHECK(t.calls == 8 && t.answers == 8 && t.tokens_in == 80 && t.tokens_out == 40);
	llm_client_free(c);

	/* Nothing listening: a clear error naming the endpoint. */
	char base[64];
	int dp = dead_port();
	snprintf(base, sizeof base, "http://127.0.0.1:%d/v1", dp);
	setenv("OPENAI_BASE_URL", base, 1);
	CHECK(llm_parse_providers(A, "openai:test-model", "test", &prov, &n) == LLM_OK);
	r = ask("ok", 2, 1);
	CHECK(r.status == LLM_EFAIL && r.attempts == 2);
	CHECK(has(r.error, arena_printf(A, "cannot connect to http://127.0.0.1:%d/v1/chat/completions", dp)));

	server_stop();
	arena_free(A);
	return check_summary("test_llm_faults");
}
