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

/* Four programs, four at a time: each waits (up to 10 s) until all four
 * have started, so "saw 4" in every answer proves they ran together
 * without a wall-clock bound that a noisy machine could break. */
static void test_parallel(void)
{
	const char *dir = test_tmpdir(A, "barrier");
	const char *script = arena_printf(A, "%s.sh", dir);
	FILE *f = fopen(script, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fprintf(f, "cat >/dev/null\n"
	           "touch '%s'/$$\n"
	           "i=0\n"
	           "while [ $(ls '%s' | wc -l) -lt 4 ] && [ $i -lt 200 ]; do\n"
	           "  sleep 0.05; i=$((i+1))\n"
	           "done\n"
	           "echo \"saw $(ls '%s' | wc -l)\"\n", dir, dir, dir);
	fclose(f);
	LlmProvider *p;
	int n;
	CHECK(llm_parse_providers(A, arena_printf(A, "cmd:sh %s", script), "test", &p, &n) == LLM_OK);
	LlmConfig cfg = {.providers = p, .nproviders = n, .jobs = 4,
	                 .timeout_s = 30, .cache_dir = test_tmpdir(A, "cache"),
	                 .cache_mode = LLM_CACHE_REFRESH};
	LlmClient *c = llm_client_new(A, &cfg);
	LlmRequest reqs[4];
	LlmResponse resps[4];
	for (int i = 0; i < 4; i++)
		reqs[i] = user_request(A, "go", i);
	CHECK(llm_complete_batch(c, reqs, resps, 4) == LLM_OK);
	for (int i = 0; i < 4; i++)
		CHECK(resps[i].status == LLM_OK && resps[i].attempts == 1 &&
		      resps[i].text && strstr(resps[i].text, "saw 4"));
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
