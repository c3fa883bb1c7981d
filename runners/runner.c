/*
 * runner.c — choosing a runner from --runner and the calls the verifier
 * makes (NULL means local), batches deferred into one included. What the
 * remote runners share is remote.c.
 */
#include "internal.h"

#include <string.h>

Runner *runner_open(Arena *a, const char *spec, const char *tmpdir, const char **why)
{
	if (!spec || !*spec || !strcmp(spec, "local"))
		return runner_local(a);
	if (!strncmp(spec, "ssh://", 6))
		return runner_ssh(a, spec, tmpdir, why);
	if (!strcmp(spec, "slurm"))
		return runner_slurm(a, NULL, tmpdir, why);
	if (!strncmp(spec, "slurm:", 6) || !strncmp(spec, "slurm,", 6))
		return runner_slurm(a, spec + (spec[5] == ':' ? 6 : 5), tmpdir, why);
	*why = arena_printf(a, "unknown runner '%s' (expected local, ssh://[user@]host[:port] "
	                       "or slurm[:PARTITION])", spec);
	return NULL;
}

int runner_put(Runner *r, Arena *a, const char *const *paths)
{
	return r && r->put ? r->put(r, a, paths) : 0;
}

struct RunnerDeferred {
	ProcSpec *specs;
	ProcResult **outs;
	const char *const **gets; /* brought back after the batch; NULL entries */
	size_t n, cap, capo, capg;
};

static const char *const *copy_vec(Arena *a, const char *const *v)
{
	if (!v)
		return NULL;
	Strvec c = STRVEC_INIT(a);
	for (size_t i = 0; v[i]; i++)
		strvec_push(&c, arena_strdup(a, v[i]));
	return strvec_detach(&c);
}

static int defer(Runner *r, Arena *a, const ProcSpec *spec, const char *const *get,
                 ProcResult *out)
{
	struct RunnerDeferred *d = r->deferred;
	ProcSpec c = *spec;
	c.argv = copy_vec(a, spec->argv);
	c.env_extra = copy_vec(a, spec->env_extra);
	c.cwd = spec->cwd ? arena_strdup(a, spec->cwd) : NULL;
	c.stdin_data = spec->stdin_data ? arena_strndup(a, spec->stdin_data, spec->stdin_len)
	                                : NULL;
	size_t n = d->n, m = d->n;
	ARENA_PUSH(a, d->specs, d->n, d->cap, c);
	ARENA_PUSH(a, d->outs, n, d->capo, out);
	ARENA_PUSH(a, d->gets, m, d->capg, copy_vec(a, get));
	memset(out, 0, sizeof *out);
	return 0;
}

bool runner_defer_begin(Runner *r, Arena *a)
{
	if (!r || !r->batch || r->error)
		return false;
	r->deferred = arena_alloc(a, sizeof *r->deferred);
	return true;
}

int runner_defer_end(Runner *r, Arena *a)
{
	struct RunnerDeferred *d = r ? r->deferred : NULL;
	if (!d)
		return 0;
	r->deferred = NULL;
	if (!d->n)
		return 0;
	ProcResult *rs = arena_alloc(a, d->n * sizeof *rs);
	int rc = r->batch(r, a, d->specs, (int)d->n, rs);
	for (size_t i = 0; i < d->n && rc == 0; i++)
		if (d->gets[i] && runner_get(r, a, d->gets[i]) != 0)
			rc = -1;
	for (size_t i = 0; i < d->n; i++) {
		*d->outs[i] = rs[i];
		if (rc != 0)
			d->outs[i]->spawn_failed = true;
	}
	return rc;
}

int runner_run(Runner *r, Arena *a, const ProcSpec *spec, ProcResult *out)
{
	if (r && r->deferred)
		return defer(r, a, spec, NULL, out);
	return r ? r->run(r, a, spec, out) : proc_run(a, spec, out);
}

int runner_batch(Runner *r, Arena *a, const ProcSpec *specs, int n, ProcResult *rs)
{
	if (r && r->batch)
		return r->batch(r, a, specs, n, rs);
	for (int i = 0; i < n; i++)
		if (runner_run(r, a, &specs[i], &rs[i]) != 0 && runner_failed(r))
			return -1;
	return 0;
}

int runner_get(Runner *r, Arena *a, const char *const *paths)
{
	return r && r->get ? r->get(r, a, paths) : 0;
}

int runner_exec(Runner *r, Arena *a, const ProcSpec *spec, const char *const *put,
                const char *const *get, ProcResult *out)
{
	if (r && r->deferred) { /* put now, get after the batch */
		if (put && runner_put(r, a, put) != 0) {
			memset(out, 0, sizeof *out);
			out->spawn_failed = true;
			return -1;
		}
		return defer(r, a, spec, get, out);
	}
	if (r && r->exec)
		return r->exec(r, a, spec, put, get, out);
	if (put && runner_put(r, a, put) != 0) {
		memset(out, 0, sizeof *out);
		out->spawn_failed = true;
		return -1;
	}
	int rc = runner_run(r, a, spec, out);
	if (rc == 0 && get && runner_get(r, a, get) != 0)
		rc = -1;
	return rc;
}

void runner_cleanup(Runner *r)
{
	if (r && r->cleanup)
		r->cleanup(r);
	runner_on_signal_clear();
}

const char *runner_failed(const Runner *r)
{
	return r ? r->error : NULL;
}
