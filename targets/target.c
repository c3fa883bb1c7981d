/*
 * target.c — the registry of targets and what they share: running a built
 * harness through proc_run with the limits every candidate gets, and
 * finding tools in PATH.
 */
#include "target.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const Target target_cpu, target_cuda, target_riscv64;

static const Target *const TARGETS[] = {&target_cpu, &target_cuda, &target_riscv64};

const Target *target_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(TARGETS); i++)
		if (strcmp(TARGETS[i]->name, name) == 0)
			return TARGETS[i];
	return NULL;
}

const Target *target_for_lang(Lang lang)
{
	for (size_t i = 0; i < ARRAY_LEN(TARGETS); i++)
		if (TARGETS[i]->lang == lang)
			return TARGETS[i];
	return NULL;
}

const char *const *target_names(void)
{
	static const char *const names[] = {"cpu", "cuda", "riscv64", NULL};
	return names;
}

/* Candidates get a fixed OpenMP placement so timings do not wander with the
 * OS scheduler ("pinned when possible", DESIGN 6), and never the user's
 * secrets (proc_run scrubs those). */
static const char *const RUN_ENV[] = {"OMP_PROC_BIND=close", "OMP_PLACES=cores",
                                      "CUDA_DEVICE_MAX_CONNECTIONS=32", NULL};

int target_run_proc(Arena *a, const TargetRun *r, bool limit_as, ProcResult *out)
{
	ProcSpec ps = {
	    .argv = r->argv,
	    .cwd = r->cwd,
	    .timeout_s = r->timeout_s > 0 ? r->timeout_s : 10.0,
	    .mem_bytes = limit_as ? r->mem_bytes : 0,
	    .fsize_bytes = r->fsize_bytes,
	    .env_extra = RUN_ENV,
	    .max_output = 1 << 20,
	    .exclusive = r->exclusive,
	    .sandbox = PROC_CANDIDATE,
	    .stdin_data = r->stdin_data,
	    .stdin_len = r->stdin_len,
	    .chan_fd = r->chan_fd,
	    .chan_max = r->fsize_bytes,
	};
	return runner_exec(r->runner, a, &ps, r->put, r->get, out);
}

const char *target_which(Arena *a, const char *prog, const char *const *extra_dirs)
{
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0 ? prog : NULL;
	const char *path = getenv("PATH");
	Strbuf dirs = STRBUF_INIT;
	sb_adds(&dirs, path ? path : "/usr/bin:/bin");
	for (int i = 0; extra_dirs && extra_dirs[i]; i++)
		sb_addf(&dirs, ":%s", extra_dirs[i]);
	const char *found = NULL;
	for (char *p = dirs.buf; p && *p && !found;) {
		char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char *cand = arena_printf(a, "%.*s/%s", (int)n, p, prog);
		if (n && access(cand, X_OK) == 0)
			found = cand;
		p = colon ? colon + 1 : NULL;
	}
	sb_release(&dirs);
	return found;
}
