/*
 * test_llm_wire.c — what goes over the wire: the OpenAI body and headers
 * (bearer key, optional for local servers), the Anthropic body (system
 * moved to "system", max_tokens, x-api-key, anthropic-version), answers
 * parsed from both, and ensembles spreading samples round-robin.
 */
#include "testsuite/llm-server/harness.h"
#include "testsuite/unit/check.h"

static Arena *A;

static LlmClient *client(LlmProvider *p, int n)
{
	LlmConfig cfg = {.providers = p, .nproviders = n, .timeout_s = 2,
	                 .max_attempts = 1, .cache_dir = test_tmpdir(A, "cache"),
	                 .cache_mode = LLM_CACHE_REFRESH};
	return llm_client_new(A, &cfg);
}

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = get(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void test_openai(void)
{
	setenv("OPENAI_API_KEY", "sk-wire-test", 1);
	LlmProvider *p;
	int n;
	CHECK(llm_parse_providers(A, "openai:gpt-test", "test", &p, &n) == LLM_OK);
	LlmClient *c = client(p, n);
	LlmRequest r = user_request(A, "hello [[fixture:ok]]", 3);
	r.use_seed = true;
	r.seed = 42;
	LlmResponse resp;
	server_reset(A);
	CHECK(llm_complete(c, &r, &resp) == LLM_OK);
	CHECK(strstr(resp.text, "answer from gpt-test") != NULL);
	CHECK(resp.tokens_in == 100 && resp.tokens_out == 50 && !resp.cached);
	CHECK_STR(resp.provider, "openai:gpt-test");
	cJSON *rec = server_recorded(A);
	const cJSON *r0 = cJSON_GetArrayItem(rec, 0);
	const cJSON *h = get(r0, "headers"), *b = get(r0, "body");
	CHECK_STR(str(r0, "path"), "/v1/chat/completions");
	CHECK_STR(str(h, "authorization"), "Bearer sk-wire-test");
	CHECK_STR(str(h, "content-type"), "application/json");
	CHECK_STR(str(b, "model"), "gpt-test");
	const cJSON *msgs = get(b, "messages");
	CHECK(cJSON_GetArraySize(msgs) == 2);
	CHECK_STR(str(cJSON_GetArrayItem(msgs, 0), "role"), "system");
	CHECK_STR(str(cJSON_GetArrayItem(msgs, 1), "content"), "hello [[fixture:ok]]");
	CHECK(get(b, "max_tokens")->valueint == 256);
	CHECK(get(b, "seed")->valueint == 42);
	CHECK(get(b, "temperature")->valuedouble == 0.5);
	cJSON_Delete(rec);
	llm_client_free(c);

	/* A local server needs no key: no Authorization header at all. */
	unsetenv("OPENAI_API_KEY");
	CHECK(llm_parse_providers(A, "openai:local", "test", &p, &n) == LLM_OK);
	c = client(p, n);
	server_reset(A);
	CHECK(llm_complete(c, &r, &resp) == LLM_OK);
	rec = server_recorded(A);
	CHECK(get(get(cJSON_GetArrayItem(rec, 0), "headers"), "authorization") == NULL);
	cJSON_Delete(rec);
	llm_client_free(c);
}

static void test_anthropic(void)
{
	setenv("ANTHROPIC_API_KEY", "ak-wire-test", 1);
	LlmProvider *p;
	int n;
	CHECK(llm_parse_providers(A, "anthropic:claude-test", "test", &p, &n) == LLM_OK);
	CHECK_STR(p->url, arena_printf(A, "http://127.0.0.1:%d/v1/messages", server_port));
	LlmClient *c = client(p, n);
	LlmMessage m[3] = {{"system", "rule one"}, {"system", "rule two"},
	                   {"user", "go [[fixture:ok]]"}};
	LlmRequest r = {.messages = m, .nmessages = 3, .temperature = 0.2};
	LlmResponse resp;
	server_reset(A);
	CHECK(llm_complete(c, &r, &resp) == LLM_OK);
	CHECK(strstr(resp.text, "answer from claude-test") != NULL);
	CHECK(resp.tokens_in == 100 && resp.tokens_out == 50);
	cJSON *rec = server_recorded(A);
	const cJSON *r0 = cJSON_GetArrayItem(rec, 0);
	const cJSON *h = get(r0, "headers"), *b = get(r0, "body");
	CHECK_STR(str(h, "x-api-key"), "ak-wire-test");
	CHECK_STR(str(h, "anthropic-version"), "2023-06-01");
	CHECK(get(h, "authorization") == NULL);
	CHECK_STR(str(b, "system"), "rule one\n\nrule two");
	CHECK(cJSON_GetArraySize(get(b, "messages")) == 1);
	CHECK_STR(str(cJSON_GetArrayItem(get(b, "messages"), 0), "role"), "user");
	CHECK(get(b, "max_tokens")->valueint == 4096);
	cJSON_Delete(rec);
	llm_client_free(c);
	unsetenv("ANTHROPIC_API_KEY");
}

/* Two members: even samples to the first, odd to the second. */
static void test_ensemble(void)
{
	setenv("ANTHROPIC_API_KEY", "ak-wire-test", 1);
	LlmProvider *p;
	int n;
	CHECK(llm_parse_providers(A, "openai:model-a, anthropic:model-b", "test", &p, &n) == LLM_OK);
	CHECK(n == 2);
	LlmClient *c = client(p, n);
	LlmRequest reqs[6];
	LlmResponse resps[6];
	for (int i = 0; i < 6; i++)
		reqs[i] = user_request(A, "[[fixture:ok]]", i);
	reqs[5].provider = 1; /* pinned to the first member */
	server_reset(A);
	CHECK(llm_complete_batch(c, reqs, resps, 6) == LLM_OK);
	for (int i = 0; i < 5; i++)
		CHECK(strstr(resps[i].text, i % 2 ? "model-b" : "model-a") != NULL);
	CHECK(strstr(resps[5].text, "model-a") != NULL);
	CHECK_STR(resps[1].provider, "anthropic:model-b");
	cJSON *st = cJSON_Parse(server_http(A, "/stats", 0));
	const cJSON *bp = get(st, "by_path");
	CHECK(get(bp, "/v1/chat/completions")->valueint == 4);
	CHECK(get(bp, "/v1/messages")->valueint == 2);
	cJSON_Delete(st);
	llm_client_free(c);
	unsetenv("ANTHROPIC_API_KEY");
}

int main(void)
{
	A = arena_new();
	if (server_start(A) < 0)
		return 1;
	server_env();
	test_openai();
	test_anthropic();
	test_ensemble();
	server_stop();
	arena_free(A);
	return check_summary("test_llm_wire");
}
