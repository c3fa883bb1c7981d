/*
 * test_llm_cache.c — the answer cache: two identical runs make one request
 * (the server's counter proves it), any change to what determines an
 * answer (sample, temperature, messages, model) misses, --no-cache still
 * refreshes the entry, offline answers from the cache or fails without a
 * request, failures are not cached, and the state dir keeps a record.
 */
#include "testsuite/llm-server/harness.h"
#include "testsuite/unit/check.h"

#include <dirent.h>
#include <sys/stat.h>

static Arena *A;
static LlmProvider *prov;
static const char *cache;

static LlmResponse run(LlmCacheMode mode, LlmRequest r, const char *state,
                       LlmTotals *tot)
{
	LlmConfig cfg = {.providers = prov, .nproviders = 1, .timeout_s = 2,
	                 .max_attempts = 1, .cache_dir = cache, .cache_mode = mode,
	                 .state_dir = state};
	LlmClient *c = llm_client_new(A, &cfg);
	LlmResponse resp;
	llm_complete(c, &r, &resp);
	if (tot)
		*tot = llm_totals(c);
	llm_client_free(c);
	return resp;
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

int main(void)
{
	A = arena_new();
	if (server_start(A) < 0)
		return 1;
	server_env();
	int n;
	CHECK(llm_parse_providers(A, "openai:cache-model", "test", &prov, &n) == LLM_OK);
	cache = test_tmpdir(A, "cache");
	LlmRequest r = user_request(A, "[[fixture:ok]] make it fast", 0);
	LlmTotals t;

	int before = server_requests(A);
	LlmResponse a1 = run(LLM_CACHE_NORMAL, r, NULL, &t);
	CHECK(a1.status == LLM_OK && !a1.cached);
	CHECK(t.cache_misses == 1 && t.cache_writes == 1 && t.cache_hits == 0);
	LlmResponse a2 = run(LLM_CACHE_NORMAL, r, NULL, &t);
	CHECK(a2.status == LLM_OK && a2.cached && a2.cost_usd == 0);
	CHECK_STR(a2.text, a1.text);
	CHECK(a2.tokens_in == 100 && a2.tokens_out == 50);
	CHECK(t.cache_hits == 1 && t.calls == 0);
	CHECK(server_requests(A) - before == 1); /* the second run asked no one */
	CHECK_STR(a2.key, a1.key);
	const char *entry = arena_printf(A, "%s/llm/%.2s/%s.json", cache, a1.key, a1.key);
	CHECK(exists(entry));
	char *text;
	size_t len;
	CHECK(file_read(A, entry, &text, &len) == 0);
	CHECK(strstr(text, "make it fast") && strstr(text, "answer from cache-model"));

	/* Whatever changes the answer changes the key. */
	LlmRequest v = r;
	v.sample = 1;
	CHECK(run(LLM_CACHE_NORMAL, v, NULL, NULL).cached == false);
	v = r;
	v.temperature = 0.9;
	CHECK(run(LLM_CACHE_NORMAL, v, NULL, NULL).cached == false);
	v = r;
	v.model = "other-model";
	CHECK(run(LLM_CACHE_NORMAL, v, NULL, NULL).cached == false);
	v = user_request(A, "[[fixture:ok]] make it faster", 0);
	CHECK(run(LLM_CACHE_NORMAL, v, NULL, NULL).cached == false);
	CHECK(run(LLM_CACHE_NORMAL, r, NULL, NULL).cached == true);

	/* --no-cache: asks again and rewrites the entry. */
	before = server_requests(A);
	LlmResponse a3 = run(LLM_CACHE_REFRESH, r, NULL, &t);
	CHECK(a3.status == LLM_OK && !a3.cached && t.cache_writes == 1 && t.cache_hits == 0);
	CHECK(server_requests(A) - before == 1);

	/* Offline: a hit works, a miss fails without a request. */
	before = server_requests(A);
	CHECK(run(LLM_CACHE_OFFLINE, r, NULL, NULL).cached);
	v = user_request(A, "[[fixture:ok]] never asked", 0);
	LlmResponse a4 = run(LLM_CACHE_OFFLINE, v, NULL, &t);
	CHECK(a4.status == LLM_EFAIL && strstr(a4.error, "offline: no cached answer"));
	CHECK(t.cache_writes == 0);
	CHECK(server_requests(A) - before == 0);

	/* Failures are not cached. */
	v = user_request(A, "[[fixture:400]]", 0);
	before = server_requests(A);
	CHECK(run(LLM_CACHE_NORMAL, v, NULL, NULL).status == LLM_EFAIL);
	CHECK(run(LLM_CACHE_NORMAL, v, NULL, &t).status == LLM_EFAIL);
	CHECK(server_requests(A) - before == 2 && t.cache_writes == 0);

	/* The state dir keeps every exchange, failed ones included. */
	const char *state = test_tmpdir(A, "state");
	run(LLM_CACHE_REFRESH, r, state, NULL);
	run(LLM_CACHE_REFRESH, v, state, NULL);
	CHECK(exists(arena_printf(A, "%s/llm/0001-%.16s.json", state, a1.key)));
	CHECK(file_read(A, arena_printf(A, "%s/llm/0001-%.16s.json", state, a1.key), &text, &len) == 0);
	CHECK(strstr(text, "answer from cache-model") != NULL);
	/* Each run (a client) numbers its records after the earlier runs'
	 * in the same state dir: the same request sent again is a new record
	 * and the first one is still there. */
	run(LLM_CACHE_REFRESH, r, state, NULL);
	CHECK(exists(arena_printf(A, "%s/llm/0001-%.16s.json", state, a1.key)));
	CHECK(exists(arena_printf(A, "%s/llm/0003-%.16s.json", state, a1.key)));
	int nrec = 0;
	DIR *d = opendir(arena_printf(A, "%s/llm", state));
	for (struct dirent *e; d && (e = readdir(d)) != NULL;)
		nrec += e->d_name[0] != '.';
	if (d)
		closedir(d);
	CHECK(nrec == 3);

	/* --cache-stats line. */
	LlmConfig cfg = {.providers = prov, .nproviders = 1, .cache_dir = cache};
	LlmClient *c = llm_client_new(A, &cfg);
	LlmResponse resp;
	llm_complete(c, &r, &resp);
	CHECK_STR(llm_cache_stats(c),
	          arena_printf(A, "llm cache: 1 hit, 0 misses, 0 writes (%s/llm)", cache));
	llm_client_free(c);

	rm_rf(cache);
	rm_rf(state);
	server_stop();
	arena_free(A);
	return check_summary("test_llm_cache");
}
