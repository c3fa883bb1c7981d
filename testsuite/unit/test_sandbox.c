/*
 * test_sandbox.c — proc_run's sandboxes (runners/isolate.c) against a
 * hostile command: with a canary key in kcc's environment and in
 * ~/.ssh, a candidate that reads /proc/PPID/environ, every /proc/N/environ,
 * its own environment and ~/.ssh sees no canary; a daemon that setsid()s
 * away and writes a file 2 s later never writes it, in the namespace
 * sandbox and in the subreaper fallback (KCC_SANDBOX=subreaper); statuses
 * pass through the supervisors unchanged. The same probes without the
 * sandbox do see the canary and do write the file, so the checks can fire.
 */
#define _GNU_SOURCE
#include "runners/runner.h"
#include "testsuite/unit/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CANARY "kcc-canary-5f1e2d3c4b"

static ProcResult run(Arena *a, ProcSandbox mode, const char *cwd, const char *script,
                      double timeout)
{
	const char *argv[] = {"sh", "-c", script, NULL};
	ProcSpec s = {.argv = argv, .cwd = cwd, .timeout_s = timeout, .sandbox = mode};
	ProcResult r;
	proc_run(a, &s, &r);
	return r;
}

static bool has(const ProcResult *r, const char *s)
{
	return memmem(r->out, r->out_len, s, strlen(s)) || memmem(r->err, r->err_len, s, strlen(s));
}

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

int main(int argc, char **argv)
{
	(void)argc;
	/* /proc/PID/environ shows the environment a process started with, so
	 * the canary must be there from exec on, as a user's key is. */
	if (!getenv("KCC_CANARY_API_KEY")) {
		setenv("KCC_CANARY_API_KEY", CANARY, 1);
		setenv("KCC_CANARY_PLAIN", CANARY, 1);
		execv("/proc/self/exe", argv);
		perror("exec");
		return 1;
	}
	Arena *a = arena_new();
	char tmpl[] = "/tmp/kcc-sandbox-XXXXXX";
	char *root = mkdtemp(tmpl);
	CHECK(root != NULL);
	const char *home = arena_printf(a, "%s/home", root);
	const char *work = arena_printf(a, "%s/work", root);
	CHECK(file_mkdirs(arena_printf(a, "%s/.ssh", home), 0700) == 0);
	CHECK(file_mkdirs(work, 0700) == 0);
	const char *key = arena_printf(a, "%s/.ssh/id_canary", home);
	CHECK(file_write_atomic(key, CANARY "\n", strlen(CANARY) + 1) == 0);
	setenv("HOME", home, 1);
	CHECK(proc_protect_self());

	const char *probe = arena_printf(
	    a,
	    "cat /proc/$PPID/environ; for f in /proc/[0-9]*/environ; do echo \"== $f\"; cat $f; done; "
	    "env; cat %s; cat $HOME/.ssh/id_canary; ls -a %s/.ssh; true",
	    key, home);
	for (int m = PROC_SANDBOX; m <= PROC_CANDIDATE; m++) {
		ProcResult r = run(a, (ProcSandbox)m, work, probe, 10);
		CHECK(proc_ok(&r));
		/* A compiler keeps the environment less the keys: the canary
		 * shows only as KCC_CANARY_PLAIN's value, in its own environ. */
		if (m == PROC_SANDBOX) {
			int seen = 0, bad = 0;
			const char *p = r.out, *end = r.out + r.out_len;
			while ((p = memmem(p, (size_t)(end - p), CANARY, strlen(CANARY)))) {
				seen++;
				bad += p - r.out < 17 || memcmp(p - 17, "KCC_CANARY_PLAIN=", 17) != 0;
				p++;
			}
			CHECK(seen > 0 && bad == 0);
		} else
			CHECK(!has(&r, CANARY));
		CHECK(!has(&r, "KCC_CANARY_API_KEY"));
		if (m == PROC_CANDIDATE) {
			CHECK(has(&r, arena_printf(a, "HOME=%s", work)));
			CHECK(!has(&r, "KCC_CANARY_PLAIN"));
		}
	}
	/* A compiler's view: ~/.ssh is hidden, the canary file unreadable. */
	ProcResult r = run(a, PROC_SANDBOX, work, arena_printf(a, "cat %s", key), 10);
	CHECK(!has(&r, CANARY) && !proc_ok(&r));
	/* Without a sandbox the same file is read: the probe works. */
	r = run(a, PROC_PLAIN, work, arena_printf(a, "cat %s", key), 10);
	CHECK(has(&r, CANARY));
	if (getuid() == 0) { /* root reads even a non-dumpable kcc's environ */
		r = run(a, PROC_PLAIN, work, "cat /proc/$PPID/environ", 10);
		CHECK(has(&r, "KCC_CANARY_API_KEY=" CANARY));
	}

	/* Statuses pass through the supervisors. */
	for (int fallback = 0; fallback < 2; fallback++) {
		if (fallback)
			setenv("KCC_SANDBOX", "subreaper", 1);
		r = run(a, PROC_CANDIDATE, work, "echo out; exit 3", 10);
		CHECK(r.exit_code == 3 && r.term_signal == 0);
		CHECK_STR(r.out, "out\n");
		r = run(a, PROC_CANDIDATE, work, "kill -SEGV $$", 10);
		CHECK(r.term_signal == 11);
		const char *nope[] = {"/nonexistent/kcc-prog", NULL};
		ProcSpec s = {.argv = nope, .cwd = work, .timeout_s = 5, .sandbox = PROC_CANDIDATE};
		CHECK(proc_run(a, &s, &r) == -1 && r.spawn_failed);
		r = run(a, PROC_CANDIDATE, work, "sleep 30", 0.5);
		CHECK(r.timed_out && r.wall_s < 10);
	}
	unsetenv("KCC_SANDBOX");

	/* Daemons: setsid, then write a file 2 s later. The run ends at once. */
	const char *files[5];
	for (int i = 0; i < 5; i++)
		files[i] = arena_printf(a, "%s/daemon%d", root, i);
	const char *fmt = "(setsid sh -c 'sleep 2; touch %s' </dev/null >/dev/null 2>&1 &); %s";
	r = run(a, PROC_PLAIN, work, arena_printf(a, fmt, files[0], "sleep 0.5; exit 0"), 10);
	CHECK(proc_ok(&r));
	r = run(a, PROC_CANDIDATE, work, arena_printf(a, fmt, files[1], "sleep 0.5; exit 0"), 10);
	CHECK(proc_ok(&r));
	r = run(a, PROC_SANDBOX, work, arena_printf(a, fmt, files[2], "sleep 0.5; exit 0"), 10);
	CHECK(proc_ok(&r));
	/* ... and one that is still running at its time limit. */
	r = run(a, PROC_CANDIDATE, work, arena_printf(a, fmt, files[3], "sleep 30"), 0.5);
	CHECK(r.timed_out);
	setenv("KCC_SANDBOX", "subreaper", 1);
	r = run(a, PROC_CANDIDATE, work, arena_printf(a, fmt, files[4], "sleep 0.5; exit 0"), 10);
	CHECK(proc_ok(&r));
	unsetenv("KCC_SANDBOX");
	sleep(4);
	CHECK(exists(files[0])); /* the unsandboxed daemon did escape */
	for (int i = 1; i < 5; i++)
		if (exists(files[i]))
			fprintf(stderr, "daemon %d escaped\n", i);
	for (int i = 1; i < 5; i++)
		CHECK(!exists(files[i]));

	const char *rm[] = {"rm", "-rf", root, NULL};
	ProcSpec rs = {.argv = rm, .timeout_s = 30};
	proc_run(a, &rs, &r);
	arena_free(a);
	return check_summary("test_sandbox");
}
