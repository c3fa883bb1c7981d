/*
 * test_proc.c — proc_run(): exit codes, signals, timeouts that kill the
 * whole process group, stdin larger than a pipe, output caps, rlimits and
 * the scrubbed environment.
 */
#include "runners/runner.h"
#include "testsuite/unit/check.h"

#include <stdlib.h>
#include <string.h>

static ProcResult run(Arena *a, const char *const *argv, double timeout)
{
	ProcSpec s = {.argv = argv, .timeout_s = timeout};
	ProcResult r;
	proc_run(a, &s, &r);
	return r;
}

int main(void)
{
	Arena *a = arena_new();

	ProcResult r = run(a, (const char *[]){"sh", "-c", "echo hi; echo err >&2; exit 3", NULL}, 5);
	CHECK(r.exit_code == 3);
	CHECK_STR(r.out, "hi\n");
	CHECK_STR(r.err, "err\n");
	CHECK(!proc_ok(&r));

	r = run(a, (const char *[]){"sh", "-c", "kill -SEGV $$", NULL}, 5);
	CHECK(r.term_signal == 11);
	CHECK(strstr(proc_describe(a, &(ProcSpec){0}, &r), "signal 11") != NULL);

	/* A timeout kills the grandchild too: the sleep must not keep us 30 s. */
	r = run(a, (const char *[]){"sh", "-c", "sleep 30 & sleep 30", NULL}, 0.5);
	CHECK(r.timed_out);
	CHECK(r.wall_s < 5);

	r = run(a, (const char *[]){"/nonexistent/prog", NULL}, 1);
	CHECK(r.spawn_failed);

	/* stdin bigger than a pipe buffer, echoed back. */
	size_t n = 1 << 20;
	char *big = malloc(n);
	for (size_t i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	ProcSpec cat = {.argv = (const char *[]){"cat", NULL}, .stdin_data = big,
	                .stdin_len = n, .timeout_s = 10};
	CHECK(proc_run(a, &cat, &r) == 0);
	CHECK(r.out_len == n && memcmp(r.out, big, n) == 0);
	cat.max_output = 1000;
	proc_run(a, &cat, &r);
	CHECK(r.truncated && r.out_len == 1000);
	free(big);

	/* Secrets never reach the child; other variables do. */
	setenv("OPENAI_API_KEY", "sk-secret", 1);
	setenv("GITHUB_TOKEN", "ghp-secret", 1);
	setenv("KCC_VISIBLE", "yes", 1);
	r = run(a, (const char *[]){"env", NULL}, 5);
	CHECK(strstr(r.out, "sk-secret") == NULL);
	CHECK(strstr(r.out, "ghp-secret") == NULL);
	CHECK(strstr(r.out, "KCC_VISIBLE=yes") != NULL);
	CHECK(proc_is_secret("ANTHROPIC_API_KEY") && !proc_is_secret("PATH"));

	/* A memory limit makes a big allocation fail inside the child. */
	ProcSpec mem = {.argv = (const char *[]){"sh", "-c", "x=$(head -c 300000000 /dev/zero | tr '\\0' a); echo ${#x}", NULL},
	                .timeout_s = 20, .mem_bytes = 64 << 20};
	proc_run(a, &mem, &r);
	CHECK(!proc_ok(&r));

	CHECK_STR(proc_cmdline(a, (const char *[]){"gcc", "-O2", "a b.c", "it's", NULL}),
	          "gcc -O2 'a b.c' 'it'\\''s'");
	CHECK_STR(proc_tail("a\nb\nc\n", 2), "b\nc\n");

	arena_free(a);
	return check_summary("test_proc");
}
