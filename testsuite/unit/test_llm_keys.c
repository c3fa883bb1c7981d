/*
 * test_llm_keys.c — key hygiene: with unique canary keys in the
 * environment, verbose traces on and stderr captured to a file, requests
 * that succeed and fail (including a server that echoes the key back in
 * its error) must leave no trace of a key in the output, the errors, the
 * cache or the state dir — while the server did receive the keys.
 */
#define _GNU_SOURCE
#include "testsuite/llm-server/harness.h"
#include "testsuite/unit/check.h"

#include <ftw.h>

#define OPENAI_CANARY "sk-canary-openai-5c1f0e7b9a"
#define ANTHROPIC_CANARY "ak-canary-anthropic-d24e8f61"

static Arena *A;
static int leaks, files_seen;

static bool leaked(const char *text)
{
	return strstr(text, OPENAI_CANARY) || strstr(text, ANTHROPIC_CANARY) ||
	       strstr(text, "canary-openai") || strstr(text, "canary-anthropic");
}

static int scan_file(const char *path, const struct stat *st, int type, struct FTW *f)
{
	char *text;
	size_t len;
	if (type != FTW_F || file_read(A, path, &text, &len) != 0)
		return 0;
	files_seen++;
	if (memmem(text, len, "canary-", 7)) {
		fprintf(stderr, "key leaked into %s\n", path);
		leaks++;
	}
	return 0;
}

static void run_requests(const char *cache, const char *state)
{
	LlmProvider *p;
	int n;
	CHECK(llm_parse_providers(A, "openai:key-model,anthropic:key-model", "test", &p, &n) == LLM_OK);
	LlmConfig cfg = {.providers = p, .nproviders = n, .timeout_s = 2,
	                 .max_attempts = 2, .backoff_s = 0.01, .cache_dir = cache,
	                 .state_dir = state};
	LlmClient *c = llm_client_new(A, &cfg);
	const char *markers[] = {"ok", "401", "500", "malformed", "reset", "ok#2"};
	enum { N = 12 };
	LlmRequest reqs[N];
	LlmResponse resps[N];
	for (int i = 0; i < N; i++)
		reqs[i] = user_request(A, arena_printf(A, "[[fixture:%s]]", markers[i / 2]), i);
	llm_complete_batch(c, reqs, resps, N);
	/* What a driver would print. */
	for (int i = 0; i < N; i++)
		if (resps[i].error)
			diag_error("%s", resps[i].error);
	CHECK(resps[0].status == LLM_OK && resps[1].status == LLM_OK);
	CHECK(resps[2].status == LLM_EFAIL && strstr(resps[2].error, "[redacted]"));
	CHECK(resps[3].status == LLM_EFAIL && strstr(resps[3].error, "[redacted]"));
	fprintf(stderr, "%s\n", llm_cache_stats(c));
	llm_client_free(c);
	/* Again, now from the cache. */
	c = llm_client_new(A, &cfg);
	llm_complete_batch(c, reqs, resps, 2);
	CHECK(resps[0].cached && resps[1].cached);
	llm_client_free(c);
	/* A missing key is reported by its name only. */
	unsetenv("OPENAI_BASE_URL");
	llm_parse_providers(A, "anthropic:x,openai:y", "test", &p, &n);
	server_env();
}

int main(void)
{
	A = arena_new();
	if (server_start(A) < 0)
		return 1;
	server_env();
	setenv("OPENAI_API_KEY", OPENAI_CANARY, 1);
	setenv("ANTHROPIC_API_KEY", ANTHROPIC_CANARY, 1);
	const char *cache = test_tmpdir(A, "keycache");
	const char *state = test_tmpdir(A, "keystate");
	const char *log = arena_printf(A, "%s/stderr.txt", state);

	fflush(stderr);
	int saved = dup(2);
	freopen(log, "w", stderr);
	diag_set_verbose(2);
	run_requests(cache, state);
	diag_set_verbose(0);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);

	char *text;
	size_t len;
	CHECK(file_read(A, log, &text, &len) == 0);
	CHECK(strstr(text, "kcc: llm: POST") != NULL); /* traces were on */
	CHECK(strstr(text, "HTTP 401") != NULL);
	CHECK(!leaked(text));
	nftw(cache, scan_file, 16, FTW_PHYS);
	nftw(state, scan_file, 16, FTW_PHYS);
	CHECK(files_seen >= 4);
	CHECK(leaks == 0);

	/* The keys did reach the server, so the checks above mean something. */
	cJSON *rec = server_recorded(A);
	char *all = cJSON_PrintUnformatted(rec);
	CHECK(all && strstr(all, "Bearer " OPENAI_CANARY) && strstr(all, ANTHROPIC_CANARY));
	cJSON_free(all);
	cJSON_Delete(rec);

	rm_rf(cache);
	rm_rf(state);
	server_stop();
	arena_free(A);
	return check_summary("test_llm_keys");
}
