/*
 * test_llm_config.c — which provider kcc uses: shell-like word splitting
 * for cmd:, provider lists (ensembles, commas in quotes, typos), the order
 * flag > KCC_LLM > ./kcc.json > user config, and the messages for what is
 * missing (no provider at all, no key for a hosted endpoint).
 */
#include "testsuite/llm-server/harness.h"
#include "testsuite/unit/check.h"

#include <sys/stat.h>

static Arena *A;
static const char *logfile;
static int saved_fd = -1;

/* Send stderr to a file until captured() returns its text. */
static void capture(void)
{
	fflush(stderr);
	saved_fd = dup(2);
	freopen(logfile, "w", stderr);
}

static const char *captured(void)
{
	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	char *t;
	size_t n;
	return file_read(A, logfile, &t, &n) == 0 ? t : "";
}

static void test_split(void)
{
	const char *err = NULL;
	char **v = llm_split_words(A, "run  'a b' \"c \\\"d\\\" $e\" f\\ g '' h'i'j", &err);
	CHECK(v != NULL);
	if (!v)
		return;
	CHECK_STR(v[0], "run");
	CHECK_STR(v[1], "a b");
	CHECK_STR(v[2], "c \"d\" $e");
	CHECK_STR(v[3], "f g");
	CHECK_STR(v[4], "");
	CHECK_STR(v[5], "hij");
	CHECK(v[6] == NULL);
	CHECK(llm_split_words(A, "a 'b", &err) == NULL && strstr(err, "single quote"));
	CHECK(llm_split_words(A, "a \"b", &err) == NULL && strstr(err, "double quote"));
	CHECK(llm_split_words(A, "a \\", &err) == NULL);
	v = llm_split_words(A, "  ", &err);
	CHECK(v && v[0] == NULL);
	/* Not a shell: no expansion, no globbing, no operators. */
	v = llm_split_words(A, "echo $HOME *.c ; rm", &err);
	CHECK(v && !strcmp(v[1], "$HOME") && !strcmp(v[2], "*.c") && !strcmp(v[3], ";"));
}

static void test_lists(void)
{
	LlmProvider *p;
	int n;
	setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1/", 1);
	setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9", 1);
	CHECK(llm_parse_providers(A, "openai:m1,anthropic:m2, cmd:run 'x,y' z", "--llm", &p, &n) == LLM_OK);
	CHECK(n == 3);
	CHECK(p[0].kind == LLM_OPENAI && !strcmp(p[0].model, "m1"));
	CHECK_STR(p[0].url, "http://127.0.0.1:9/v1/chat/completions");
	CHECK(p[1].kind == LLM_ANTHROPIC && !strcmp(p[1].url, "http://127.0.0.1:9/v1/messages"));
	CHECK(p[2].kind == LLM_CMD && !strcmp(p[2].argv[1], "x,y") && !strcmp(p[2].argv[2], "z"));
	CHECK_STR(p[2].model, "run");
	CHECK(llm_parse_providers(A, "openai:vendor/model:7b", "--llm", &p, &n) == LLM_OK);
	CHECK_STR(p[0].model, "vendor/model:7b");

	capture();
	CHECK(llm_parse_providers(A, "opnai:gpt-4o", "--llm", &p, &n) == LLM_EUSER);
	CHECK(llm_parse_providers(A, "gpt-4o", "KCC_LLM", &p, &n) == LLM_EUSER);
	CHECK(llm_parse_providers(A, "openai:", "--llm", &p, &n) == LLM_EUSER);
	CHECK(llm_parse_providers(A, "openai:a,,openai:b", "--llm", &p, &n) == LLM_EUSER);
	CHECK(llm_parse_providers(A, "cmd:", "--llm", &p, &n) == LLM_EUSER);
	CHECK(llm_parse_providers(A, "cmd:run 'x", "--llm", &p, &n) == LLM_EUSER);
	const char *log = captured();
	CHECK(strstr(log, "error: bad LLM provider 'opnai:gpt-4o' in --llm") != NULL);
	CHECK(strstr(log, "note: did you mean 'openai:gpt-4o'?") != NULL);
	CHECK(strstr(log, "bad LLM provider 'gpt-4o' in KCC_LLM") != NULL);
	CHECK(strstr(log, "write openai:MODEL, anthropic:MODEL or cmd:PROGRAM") != NULL);
	CHECK(strstr(log, "empty LLM provider") != NULL);
	CHECK(strstr(log, "unterminated single quote") != NULL);
}

static void test_keys(void)
{
	LlmProvider *p;
	int n;
	unsetenv("OPENAI_BASE_URL");
	unsetenv("ANTHROPIC_BASE_URL");
	unsetenv("OPENAI_API_KEY");
	unsetenv("ANTHROPIC_API_KEY");
	capture();
	CHECK(llm_parse_providers(A, "openai:gpt-4o", "--llm", &p, &n) == LLM_EFAIL);
	CHECK(llm_parse_providers(A, "anthropic:claude-sonnet-4-5", "--llm", &p, &n) == LLM_EFAIL);
	const char *log = captured();
	CHECK(strstr(log, "error: OPENAI_API_KEY is not set; it is needed for "
	                  "'openai:gpt-4o' at https://api.openai.com/v1") != NULL);
	CHECK(strstr(log, "ANTHROPIC_API_KEY is not set") != NULL);
	CHECK(strstr(log, "OPENAI_BASE_URL") != NULL);
	setenv("OPENAI_API_KEY", "k", 1);
	CHECK(llm_parse_providers(A, "openai:gpt-4o", "--llm", &p, &n) == LLM_OK);
	CHECK_STR(p[0].url, "https://api.openai.com/v1/chat/completions");
	CHECK_STR(p[0].key_env, "OPENAI_API_KEY");
	unsetenv("OPENAI_API_KEY");
}

static void write_file(const char *path, const char *text)
{
	CHECK(file_write_atomic(path, text, strlen(text)) == 0);
}

/* Runs in a temp dir so ./kcc.json is ours. */
static void test_resolve(void)
{
	LlmProvider *p;
	int n;
	const char *dir = test_tmpdir(A, "cfg");
	char cwd[4096];
	CHECK(getcwd(cwd, sizeof cwd) != NULL);
	CHECK(chdir(dir) == 0);
	setenv("XDG_CONFIG_HOME", arena_printf(A, "%s/xdg", dir), 1);
	unsetenv("KCC_LLM");
	setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1", 1);

	capture();
	CHECK(llm_resolve_providers(A, NULL, &p, &n) == LLM_EFAIL);
	const char *log = captured();
	CHECK(strstr(log, "error: no LLM provider configured") != NULL);
	CHECK(strstr(log, "--llm=PROVIDER:MODEL or set KCC_LLM=openai:gpt-4o") != NULL);

	file_mkdirs(arena_printf(A, "%s/xdg/kcc", dir), 0700);
	write_file(arena_printf(A, "%s/xdg/kcc/config.json", dir), "{\"llm\": \"openai:from-user\"}");
	CHECK(llm_resolve_providers(A, "", &p, &n) == LLM_OK && !strcmp(p[0].model, "from-user"));
	write_file("kcc.json", "{\"llm\": [\"openai:from-project\", \"cmd:run\"]}");
	CHECK(llm_resolve_providers(A, NULL, &p, &n) == LLM_OK && n == 2);
	CHECK_STR(p[0].model, "from-project");
	setenv("KCC_LLM", "openai:from-env", 1);
	CHECK(llm_resolve_providers(A, NULL, &p, &n) == LLM_OK && !strcmp(p[0].model, "from-env"));
	CHECK(llm_resolve_providers(A, "openai:from-flag", &p, &n) == LLM_OK);
	CHECK_STR(p[0].model, "from-flag");
	unsetenv("KCC_LLM");

	write_file("kcc.json", "{\"llm\": ");
	capture();
	CHECK(llm_resolve_providers(A, NULL, &p, &n) == LLM_EUSER);
	write_file("kcc.json", "{\"llm\": 5}");
	CHECK(llm_resolve_providers(A, NULL, &p, &n) == LLM_EUSER);
	log = captured();
	CHECK(strstr(log, "kcc.json is not valid JSON") != NULL);
	CHECK(strstr(log, "\"llm\" must be a string") != NULL);

	CHECK(chdir(cwd) == 0);
	unsetenv("XDG_CONFIG_HOME");
	rm_rf(dir);
}

int main(void)
{
	A = arena_new();
	logfile = arena_printf(A, "%s/stderr", test_tmpdir(A, "cfglog"));
	test_split();
	test_lists();
	test_keys();
	test_resolve();
	arena_free(A);
	return check_summary("test_llm_config");
}
