/*
 * provider_cmd.c — `cmd:PROGRAM ARGS`: any local program acts as the LLM.
 * It gets the request as an OpenAI chat-completions body on stdin and
 * prints the answer text on stdout; a non-zero exit is a failed request.
 *
 * The program is kcc's own tool chosen by the user, so it keeps the
 * environment's API keys (it may call a hosted model itself). It runs
 * through proc_run like every process kcc starts. This function is called
 * from worker threads, so it works in a private arena and hands back
 * malloc'd copies.
 */
#include "internal.h"
#include "../runners/runner.h"

#include <stdlib.h>
#include <string.h>

static char *dup_str(const char *s)
{
	size_t n = strlen(s);
	char *d = malloc(n + 1);
	if (d)
		memcpy(d, s, n + 1);
	return d;
}

/* "could not run 'x': ..." or "'x -q' exited with status 1: <stderr tail>" */
static char *failure(Arena *a, const ProcSpec *s, const ProcResult *r)
{
	const char *why = proc_describe(a, s, r);
	if (r->spawn_failed)
		return dup_str(arena_printf(a, "cmd: %s", why));
	const char *tail = proc_tail(r->err, 5);
	return dup_str(arena_printf(a, "cmd: '%s' %s%s%s", proc_cmdline(a, s->argv),
	                            why, *tail ? ": " : "", tail));
}

int llm_cmd_run(const LlmProvider *p, const char *body, double timeout_s,
                char **text, char **err)
{
	Arena *a = arena_new();
	ProcSpec s = {.argv = p->argv, .stdin_data = body, .stdin_len = strlen(body),
	              .timeout_s = timeout_s, .keep_secrets = true,
	              .max_output = LLM_MAX_ANSWER + 1};
	ProcResult r;
	*text = *err = NULL;
	if (proc_run(a, &s, &r) != 0 || !proc_ok(&r))
		*err = failure(a, &s, &r);
	else if (r.truncated || r.out_len > LLM_MAX_ANSWER)
		*err = dup_str(arena_printf(a, "cmd: '%s' printed more than %u bytes",
		                            proc_cmdline(a, s.argv), LLM_MAX_ANSWER));
	else if (memchr(r.out, 0, r.out_len))
		*err = dup_str(arena_printf(a, "cmd: '%s' printed a NUL byte",
		                            proc_cmdline(a, s.argv)));
	else if (r.out_len == 0)
		*err = dup_str(arena_printf(a, "cmd: '%s' printed no answer",
		                            proc_cmdline(a, s.argv)));
	else
		*text = dup_str(r.out);
	arena_free(a);
	return *text ? 0 : -1;
}
