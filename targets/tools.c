/*
 * tools.c — what the targets share: finding a tool in PATH, the programs
 * kcc builds for itself (targets/programs/, embedded), the compile
 * step (flags in the order every toolchain takes them, the compiler run
 * where the build happens, its output kept for the report), running a
 * built harness with the limits and environment every candidate gets, and
 * running a profiler in front of a profile driver.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const CUDA_DIRS[] = {"/usr/local/cuda/bin", NULL};

extern const EmbeddedFile target_programs[];

const char *target_program(const char *name, size_t *len)
{
	return embedded_find(target_programs, name, len);
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

const char *target_cache_home(Arena *a)
{
	(void)a;
	return dir_cache(); /* --cache-dir, as the driver set it */
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

void target_build_tail(Strvec *v, const TargetBuild *b, const char *const *project_flags,
                       const char *lib)
{
	strvec_pushv_prefix(v, "-D", b->defines);
	strvec_pushv_prefix(v, "-I", b->incdirs);
	strvec_pushv(v, b->flags);
	/* the project's flags after kcc's: its -O3 or -march wins, as on a
	 * command line; then the candidate's own (-O2's flag search) */
	strvec_pushv(v, project_flags);
	strvec_pushv(v, b->cand_flags);
	strvec_pushl(v, "-o", b->exe, b->src, lib, NULL);
}

int target_compile(Arena *a, const TargetBuild *b, const char *const *argv, Runner *runner,
                   ProcSandbox sandbox, TargetBuilt *out)
{
	ProcSpec ps = {.argv = argv, .cwd = b->dir,
	               .timeout_s = b->timeout_s > 0 ? b->timeout_s : 300, .sandbox = sandbox};
	ProcResult r;
	runner_exec(runner, a, &ps, b->put, NULL, &r);
	out->ok = proc_ok(&r);
	out->cmdline = proc_cmdline(a, argv);
	out->log = arena_printf(a, "%s%s%s", r.err, r.out,
	                        out->ok || r.exit_code > 0 ? "" : proc_describe(a, &ps, &r));
	out->wall_s = r.wall_s;
	return out->ok ? 0 : -1;
}

int target_run_tool(Arena *a, const TargetProfileRun *r, const char *const *pre,
                    const char *const *env, ProcResult *pr)
{
	Strvec argv = STRVEC_INIT(a);
	strvec_pushv(&argv, pre);
	strvec_pushv(&argv, r->argv);
	ProcSpec ps = {.argv = argv.v, .cwd = r->cwd, .env_extra = env,
	               .timeout_s = r->timeout_s > 0 ? r->timeout_s : 120, .max_output = 1 << 20,
	               .sandbox = PROC_SANDBOX};
	diag_trace("kcc: %s", proc_cmdline(a, argv.v));
	return proc_run(a, &ps, pr);
}
