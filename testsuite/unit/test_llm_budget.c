/*
 * test_llm_budget.c — accounting and budgets: the --budget syntax and its
 * errors, the price table (built-in, prefix entries, a user's file, a
 * broken file), cost per answer and per run, and requests refused once
 * the calls, usd or time budget is used up.
 */
#include "testsuite/llm-server/harness.h"
#include "testsuite/unit/check.h"

static Arena *A;

static void test_parse(void)
{
	LlmBudget b;
	CHECK(llm_parse_budget("calls:200,usd:5,time:30m", "--budget", &b) == LLM_OK);
	CHECK(b.calls == 200 && b.usd == 5 && b.time_s == 1800);
	CHECK(llm_parse_budget("time:2h", "--budget", &b) == LLM_OK && b.time_s == 7200);
	CHECK(llm_parse_budget("time:90", "--budget", &b) == LLM_OK && b.time_s == 90);
	CHECK(llm_parse_budget("time:1.5m,usd:0.25", "--budget", &b) == LLM_OK);
	CHECK(b.time_s == 90 && b.usd == 0.25 && b.calls == 0);
	CHECK(llm_parse_budget("time:45s", "--budget", &b) == LLM_OK && b.time_s == 45);

	/* Errors go to stderr; capture them to check one message. */
	fflush(stderr);
	int saved = dup(2);
	const char *dir = test_tmpdir(A, "budget");
	const char *log = arena_printf(A, "%s/stderr", dir);
	freopen(log, "w", stderr);
	b = (LlmBudget){.calls = 7};
	CHECK(llm_parse_budget("call:5", "--budget", &b) == LLM_EUSER);
	CHECK(b.calls == 7); /* untouched on error */
	CHECK(llm_parse_budget("usd:-1", "--budget", &b) == LLM_EUSER);
	CHECK(llm_parse_budget("calls:1.5", "--budget", &b) == LLM_EUSER);
	CHECK(llm_parse_budget("time:5x", "--budget", &b) == LLM_EUSER);
	CHECK(llm_parse_budget("time:", "--budget", &b) == LLM_EUSER);
	CHECK(llm_parse_budget("", "--budget", &b) == LLM_EUSER);
	CHECK(llm_parse_budget("calls:5,,usd:1", "--budget", &b) == LLM_EUSER);
	CHECK(llm_parse_budget("usd:nan", "--budget", &b) == LLM_EUSER);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	char *text;
	size_t len;
	CHECK(file_read(A, log, &text, &len) == 0);
	CHECK(strstr(text, "error: unknown budget 'call' in --budget") != NULL);
	CHECK(strstr(text, "note: did you mean 'calls'?") != NULL);
	CHECK(strstr(text, "bad time budget '5x'") != NULL);
	CHECK(strstr(text, "time:30m") != NULL);
	rm_rf(dir);
}

static void test_prices(void)
{
	LlmProvider *p;
	int n;
	setenv("OPENAI_API_KEY", "x", 1);
	setenv("ANTHROPIC_API_KEY", "x", 1);
	unsetenv("OPENAI_BASE_URL");
	unsetenv("ANTHROPIC_BASE_URL");
	CHECK(llm_parse_providers(A, "openai:gpt-4o,anthropic:claude-sonnet-4-5-20250929,"
	                             "openai:gpt-4o-mini,openai:no-such",
	                          "test", &p, &n) == LLM_OK);
	LlmConfig cfg = {.providers = p, .nproviders = n, .cache_dir = "/nonexistent"};
	LlmClient *c = llm_client_new(A, &cfg);
	double in, out;
	CHECK(llm_price(c, &p[0], NULL, &in, &out) && in == 2.5 && out == 10);
	CHECK(llm_price(c, &p[1], NULL, &in, &out) && in == 3 && out == 15);
	CHECK(llm_price(c, &p[2], NULL, &in, &out) && in == 0.15 && out == 0.6);
	CHECK(!llm_price(c, &p[3], NULL, &in, &out));
	llm_client_free(c);

	/* A broken table is an error, not a silent zero. */
	const char *dir = test_tmpdir(A, "prices");
	const char *bad = arena_printf(A, "%s/bad.json", dir);
	file_write_atomic(bad, "{\"prices\": 3}", 13);
	cfg.prices_path = bad;
	fflush(stderr);
	int saved = dup(2);
	freopen("/dev/null", "w", stderr);
	CHECK(llm_client_new(A, &cfg) == NULL);
	cfg.prices_path = "/nonexistent/prices.json";
	CHECK(llm_client_new(A, &cfg) == NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rm_rf(dir);
	unsetenv("OPENAI_API_KEY");
	unsetenv("ANTHROPIC_API_KEY");
}

static LlmClient *priced_client(LlmProvider *p, LlmBudget b, const char *prices)
{
	LlmConfig cfg = {.providers = p, .nproviders = 1, .timeout_s = 2,
	                 .max_attempts = 1, .cache_dir = test_tmpdir(A, "cache"),
	                 .cache_mode = LLM_CACHE_REFRESH, .prices_path = prices,
	                 .budget = b};
	return llm_client_new(A, &cfg);
}

static void test_budgets(void)
{
	server_env();
	LlmProvider *p;
	int n;
	CHECK(llm_parse_providers(A, "openai:test-model", "test", &p, &n) == LLM_OK);
	const char *dir = test_tmpdir(A, "prices");
	const char *prices = arena_printf(A, "%s/prices.json", dir);
	/* $1 per input token, $2 per output token: ok.txt costs 100 + 100. */
	const char *table = "{\"prices\": {\"openai:test-model\": "
	                    "{\"input\": 1000000, \"output\": 2000000}}}";
	CHECK(file_write_atomic(prices, table, strlen(table)) == 0);

	LlmClient *c = priced_client(p, (LlmBudget){.usd = 250}, prices);
	LlmRequest r = user_request(A, "[[fixture:ok]]", 0);
	LlmResponse resp;
	CHECK(llm_complete(c, &r, &resp) == LLM_OK && resp.cost_usd == 200);
	CHECK(llm_budget_state(c) == LLM_BUDGET_LEFT);
	r.sample = 1;
	CHECK(llm_complete(c, &r, &resp) == LLM_OK);
	CHECK(llm_budget_state(c) == LLM_BUDGET_USD);
	CHECK_STR(llm_budget_name(llm_budget_state(c)), "usd");
	int before = server_requests(A);
	r.sample = 2;
	CHECK(llm_complete(c, &r, &resp) == LLM_EBUDGET);
	CHECK(resp.status == LLM_EBUDGET && strstr(resp.error, "usd budget"));
	CHECK(server_requests(A) == before);
	LlmTotals t = llm_totals(c);
	CHECK(t.usd == 400 && t.calls == 2 && t.answers == 2);
	CHECK(t.tokens_in == 200 && t.tokens_out == 100);
	llm_client_free(c);

	/* calls:2 and a batch of three: two answers, one refusal. */
	c = priced_client(p, (LlmBudget){.calls = 2}, NULL);
	LlmRequest reqs[3];
	LlmResponse resps[3];
	for (int i = 0; i < 3; i++)
		reqs[i] = user_request(A, "[[fixture:ok]]", i);
	CHECK(llm_complete_batch(c, reqs, resps, 3) == LLM_EBUDGET);
	int ok = 0, refused = 0;
	for (int i = 0; i < 3; i++) {
		ok += resps[i].status == LLM_OK;
		refused += resps[i].status == LLM_EBUDGET;
	}
	CHECK(ok == 2 && refused == 1);
	CHECK(llm_budget_state(c) == LLM_BUDGET_CALLS);
	llm_client_free(c);

	/* time: measured from the client's creation. */
	c = priced_client(p, (LlmBudget){.time_s = 1.0}, NULL);
	CHECK(llm_budget_state(c) == LLM_BUDGET_LEFT);
	usleep(1100000);
	CHECK(llm_budget_state(c) == LLM_BUDGET_TIME);
	CHECK(llm_complete(c, &r, &resp) == LLM_EBUDGET && strstr(resp.error, "time"));
	llm_client_free(c);
	rm_rf(dir);
}

int main(void)
{
	A = arena_new();
	test_parse();
	test_prices();
	if (server_start(A) < 0)
		return 1;
	test_budgets();
	server_stop();
	arena_free(A);
	return check_summary("test_llm_budget");
}
