/*
 * test_llm_cmd.c — the cmd: provider: the program gets an OpenAI
 * chat-completions body on stdin and its stdout is the answer; a non-zero
 * exit, a timeout, a missing program or an empty answer is a failed
 * request that says why; requests run `jobs` at a time; the program keeps
 * the API keys (it may call a hosted model itself).
 */
#include "testsuite/llm-server/harness.h"
#include "testsuite/unit/check.h"

static Arena *A;

static LlmClient *client(const char *spec, int jobs)
{
	LlmProvider *p;
	int n;
	if (llm_parse_providers(A, spec, "test", &p, &n) != LLM_OK)
		return NULL;
	LlmConfig cfg = {.providers = p, .nproviders = n, .jobs = jobs,
	                 .timeout_s = 1, .cache_dir = test_tmpdir(A, "cache"),
	                 .cache_mode = LLM_CACHE_REFRESH};
	return llm_client_new(A, &cfg);
}

static LlmResponse ask(const char *spec)
{
	LlmClient *c = client(spec, 2);
	LlmRequest r = user_request(A, "optimize this", 0);
	LlmResponse resp = {0};
	if (!c)
		return resp;
	llm_complete(c, &r, &resp);
	llm_client_free(c);
	return resp;
}

static void test_answer(void)
{
	const char *dir = test_tmpdir(A, "cmd");
	const char *saved = arena_printf(A, "%s/stdin.json", dir);
	LlmResponse r = ask(arena_printf(A, "cmd:sh llm-server/cmd_answer.sh '%s'", saved));
	CHECK(r.status == LLM_OK);
	CHECK(r.text && strstr(r.text, "return 4;"));
	CHECK_STR(r.provider, arena_printf(A, "cmd:sh llm-server/cmd_answer.sh '%s'", saved));
	char *text;
	size_t len;
	CHECK(file_read(A, saved, &text, &len) == 0);
	cJSON *j = cJSON_Parse(text);
	const cJSON *msgs = cJSON_GetObjectItemCaseSensitive(j, "messages");
	CHECK(cJSON_GetArraySize(msgs) == 2);
	const cJSON *m1 = cJSON_GetArrayItem(msgs, 1);
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(m1, "content")->valuestring, "optimize this");
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(m1, "role")->valuestring, "user");
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(j, "model")->valuestring, "sh");
	CHECK(cJSON_GetObjectItemCaseSensitive(j, "max_tokens")->valueint == 256);
	cJSON_Delete(j);
	rm_rf(dir);
}

static void test_failures(void)
{
	LlmResponse r = ask("cmd:sh llm-server/cmd_fail.sh");
	CHECK(r.status == LLM_EFAIL && r.error);
	CHECK(strstr(r.error, "'sh llm-server/cmd_fail.sh' exited with status 1"));
	CHECK(strstr(r.error, "model runner: out of memory"));

	r = ask("cmd:sleep 5");
	CHECK(r.status == LLM_EFAIL && strstr(r.error, "timed out after 1.0 s"));

	r = ask("cmd:/nonexistent/model-runner --fast");
	CHECK(r.status == LLM_EFAIL && strstr(r.error, "could not run '/nonexistent/model-runner'"));

	/* A program that exits without reading a request larger than a pipe
	 * buffer: an error, not SIGPIPE killing the test. */
	LlmClient *c = client("cmd:sh -c 'exit 1'", 1);
	char *big = arena_alloc(A, 300000);
	memset(big, 'x', 299999);
	LlmRequest req = user_request(A, big, 0);
	CHECK(llm_complete(c, &req, &r) == LLM_EFAIL && strstr(r.error, "status 1"));
	llm_client_free(c);

	r = ask("cmd:true");
	CHECK(r.status == LLM_EFAIL && strstr(r.error, "printed no answer"));

	r = ask("cmd:printf 'a\\000b'");
	CHECK(r.status == LLM_EFAIL && strstr(r.error, "NUL"));
}

/* Four 0.5 s programs, four at a time: ~0.5 s, not 2 s. */
static void test_parallel(void)
{
	LlmClient *c = client("cmd:sh -c 'cat >/dev/null; sleep 0.5; echo \"sample $0\"'", 4);
	LlmRequest reqs[4];
	LlmResponse resps[4];
	for (int i = 0; i < 4; i++)
		reqs[i] = user_request(A, "go", i);
	double t0 = now_mono();
	CHECK(llm_complete_batch(c, reqs, resps, 4) == LLM_OK);
	CHECK(now_mono() - t0 < 1.5);
	for (int i = 0; i < 4; i++)
		CHECK(resps[i].status == LLM_OK && resps[i].attempts == 1);
	LlmTotals t = llm_totals(c);
	CHECK(t.calls == 4 && t.answers == 4);
	llm_client_free(c);
}

static void test_keys_reach_program(void)
{
	setenv("KCC_TEST_API_KEY", "visible-to-cmd", 1);
	LlmResponse r = ask("cmd:sh -c 'cat >/dev/null; echo \"$KCC_TEST_API_KEY\"'");
	CHECK(r.status == LLM_OK && r.text && strstr(r.text, "visible-to-cmd"));
	unsetenv("KCC_TEST_API_KEY");
}

int main(void)
{
	A = arena_new();
	test_answer();
	test_failures();
	test_parallel();
	test_keys_reach_program();
	arena_free(A);
	return check_summary("test_llm_cmd");
}
