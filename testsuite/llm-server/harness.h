/*
 * harness.h — for the llm unit tests: start the scripted server
 * (server.py) in the background, read its port, query /stats and
 * /requests, and make sure it dies with the test whatever happens.
 *
 * proc_run() waits for its child, so it cannot run a server next to the
 * test; this test-only code forks and execs it itself. The child asks the
 * kernel for SIGTERM when the test dies (PR_SET_PDEATHSIG), and an atexit
 * handler stops it on a normal exit, so a failed CHECK or a sanitizer
 * abort never leaves a server behind. Tests run in testsuite/ (ctest's
 * working directory), hence the relative paths.
 */
#ifndef KCC_LLM_TEST_HARNESS_H
#define KCC_LLM_TEST_HARNESS_H

#include "llm/llm.h"

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SERVER_PY "llm-server/server.py"
#define FIXTURES "llm-server/fixtures"

static pid_t server_pid;
static int server_port;
static char server_dir[64];

static inline void server_stop(void)
{
	if (server_pid > 0) {
		kill(server_pid, SIGTERM);
		waitpid(server_pid, NULL, 0);
	}
	server_pid = 0;
}

static char tmp_root[64];
static inline void rm_rf(const char *dir);

static inline void tmp_root_remove(void)
{
	if (tmp_root[0] && !getenv("KCC_TEST_KEEP"))
		rm_rf(tmp_root);
}

/* A fresh temp dir; all of them live under one root removed at exit
 * (kept when KCC_TEST_KEEP is set, to look at what a test wrote). */
static inline const char *test_tmpdir(Arena *a, const char *tag)
{
	if (!tmp_root[0]) {
		snprintf(tmp_root, sizeof tmp_root, "/tmp/kcc-llm-test-XXXXXX");
		if (!mkdtemp(tmp_root))
			return NULL;
		atexit(tmp_root_remove);
	}
	char *d = arena_printf(a, "%s/%s-XXXXXX", tmp_root, tag);
	return mkdtemp(d);
}

/* Start server.py on a free port; returns the port or -1. */
static inline int server_start(Arena *a)
{
	snprintf(server_dir, sizeof server_dir, "%s", test_tmpdir(a, "srv"));
	char *pf = arena_printf(a, "%s/port", server_dir);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1); /* "PORT n" goes to the port file instead */
		execlp("python3", "python3", SERVER_PY, "--fixtures", FIXTURES,
		       "--port-file", pf, (char *)NULL);
		_exit(127);
	}
	server_pid = pid;
	atexit(server_stop);
	for (int i = 0; i < 200; i++) { /* up to 10 s for python to start */
		FILE *f = fopen(pf, "r");
		if (f) {
			int ok = fscanf(f, "%d", &server_port) == 1;
			fclose(f);
			if (ok)
				return server_port;
		}
		usleep(50000);
	}
	fprintf(stderr, "harness: server.py did not start\n");
	server_stop();
	return -1;
}

static inline size_t harness_sink(char *p, size_t s, size_t n, void *ud)
{
	sb_addn(ud, p, s * n);
	return s * n;
}

/* GET or POST (post != 0) a path of the server; the body, or "" on error. */
static inline char *server_http(Arena *a, const char *path, int post)
{
	CURL *e = curl_easy_init();
	Strbuf sb = STRBUF_INIT;
	char *url = arena_printf(a, "http://127.0.0.1:%d%s", server_port, path);
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, harness_sink);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &sb);
	curl_easy_setopt(e, CURLOPT_TIMEOUT, 5L);
	if (post)
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, "");
	curl_easy_perform(e);
	curl_easy_cleanup(e);
	return sb_to_arena(&sb, a);
}

/* A number from /stats, or -1. */
static inline int server_stat(Arena *a, const char *key)
{
	cJSON *j = cJSON_Parse(server_http(a, "/stats", 0));
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(j, key);
	int r = cJSON_IsNumber(n) ? n->valueint : -1;
	cJSON_Delete(j);
	return r;
}

/* Number of model requests the server has received. */
static inline int server_requests(Arena *a)
{
	return server_stat(a, "requests");
}

static inline void server_reset(Arena *a)
{
	server_http(a, "/reset", 1);
}

/* The recorded requests (a JSON array; the caller frees). */
static inline cJSON *server_recorded(Arena *a)
{
	return cJSON_Parse(server_http(a, "/requests", 0));
}

/* Point both providers at the server and build a client config. */
static inline void server_env(void)
{
	char buf[64];
	snprintf(buf, sizeof buf, "http://127.0.0.1:%d/v1", server_port);
	setenv("OPENAI_BASE_URL", buf, 1);
	snprintf(buf, sizeof buf, "http://127.0.0.1:%d", server_port);
	setenv("ANTHROPIC_BASE_URL", buf, 1);
}

/* A one-message user request. */
static inline LlmRequest user_request(Arena *a, const char *text, int sample)
{
	LlmMessage *m = arena_alloc(a, 2 * sizeof *m);
	m[0] = (LlmMessage){"system", "You write C."};
	m[1] = (LlmMessage){"user", arena_strdup(a, text)};
	return (LlmRequest){.messages = m, .nmessages = 2, .temperature = 0.5,
	                    .max_tokens = 256, .sample = sample};
}

static inline double now_mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Remove a temp dir tree (test cleanup only). */
static inline void rm_rf(const char *dir)
{
	pid_t p = fork();
	if (p == 0) {
		execlp("rm", "rm", "-rf", dir, (char *)NULL);
		_exit(127);
	}
	if (p > 0)
		waitpid(p, NULL, 0);
}

#endif
