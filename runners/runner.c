/*
 * runner.c — choosing a runner from --runner, the calls the verifier makes
 * (NULL means local), and what the remote runners share: splitting KCC_SSH
 * into words, quoting for a remote shell, the script line that enforces
 * kcc's limits there, and the clean-up commands a Ctrl-C runs.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
	size_t n = 0;
	while (v[n])
		n++;
	const char **c = arena_alloc(a, (n + 1) * sizeof *c);
	for (size_t i = 0; i < n; i++)
		c[i] = arena_strdup(a, v[i]);
	return c;
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

/* ---- words and quoting ---------------------------------------------------- */

const char **runner_split(Arena *a, const char *cmd, int *n, const char **why)
{
	const char **v = NULL;
	size_t nv = 0, cap = 0;
	const char *p = cmd;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		Strbuf w = STRBUF_INIT;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			if (*p == '\'') {
				const char *e = strchr(p + 1, '\'');
				if (!e) {
					sb_release(&w);
					*why = "a single quote is not closed";
					return NULL;
				}
				sb_addn(&w, p + 1, (size_t)(e - p - 1));
				p = e + 1;
			} else if (*p == '"') {
				p++;
				while (*p && *p != '"') {
					if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
						p++;
					sb_addc(&w, *p++);
				}
				if (!*p) {
					sb_release(&w);
					*why = "a double quote is not closed";
					return NULL;
				}
				p++;
			} else if (*p == '\\' && p[1]) {
				sb_addc(&w, p[1]);
				p += 2;
			} else
				sb_addc(&w, *p++);
		}
		ARENA_PUSH(a, v, nv, cap, sb_to_arena(&w, a));
	}
	ARENA_PUSH(a, v, nv, cap, NULL);
	*n = (int)nv - 1;
	return v;
}

char *runner_shq(Arena *a, const char *s)
{
	Strbuf sb = STRBUF_INIT;
	sb_addc(&sb, '\'');
	for (; *s; s++)
		if (*s == '\'')
			sb_adds(&sb, "'\\''");
		else
			sb_addc(&sb, *s);
	sb_addc(&sb, '\'');
	return sb_to_arena(&sb, a);
}

char *runner_script(Arena *a, const ProcSpec *spec, const char *const *argv, const char *cwd)
{
	Strbuf sb = STRBUF_INIT;
	if (cwd)
		sb_addf(&sb, "cd %s || exit 126; ", runner_shq(a, cwd));
	sb_adds(&sb, "ulimit -c 0; ");
	if (spec->mem_bytes)
		sb_addf(&sb, "ulimit -v %llu || exit 126; ",
		        (unsigned long long)(spec->mem_bytes >> 10));
	if (spec->fsize_bytes) /* POSIX sh counts 512-byte blocks */
		sb_addf(&sb, "ulimit -f %llu || exit 126; ",
		        (unsigned long long)(spec->fsize_bytes >> 9));
	if (spec->cpu_s)
		sb_addf(&sb, "ulimit -t %llu || exit 126; ", (unsigned long long)spec->cpu_s);
	if (spec->timeout_s > 0)
		sb_addf(&sb, "timeout -k 2 %.3f ", spec->timeout_s);
	/* Nothing of this machine's environment: the remote's PATH and HOME,
	 * the CUDA toolkit's usual place, and what kcc adds for candidates. */
	sb_adds(&sb, "env -i PATH=\"$PATH:/usr/local/cuda/bin\" HOME=\"$HOME\" LC_ALL=C");
	for (int i = 0; spec->env_extra && spec->env_extra[i]; i++)
		sb_addf(&sb, " %s", runner_shq(a, spec->env_extra[i]));
	for (int i = 0; argv[i]; i++)
		sb_addf(&sb, " %s", runner_shq(a, argv[i]));
	return sb_to_arena(&sb, a);
}

char *runner_cap_script(Arena *a, size_t cap, const char *const *files)
{
	Strbuf sb = STRBUF_INIT;
	for (int i = 0; files[i]; i++)
		sb_addf(&sb, "if [ \"$(wc -c <%s)\" -gt %zu ]; then head -c %zu %s >%s.cut && "
		             "mv %s.cut %s; fi; ",
		        files[i], cap, cap, files[i], files[i], files[i], files[i]);
	return sb_to_arena(&sb, a);
}

void runner_status(const ProcSpec *spec, int code, double wall_s, ProcResult *r)
{
	r->exit_code = -1;
	r->term_signal = 0;
	if (code == 124 && spec->timeout_s > 0 && wall_s >= spec->timeout_s * 0.9)
		r->timed_out = true;
	else if (code > 128 && code <= 128 + 64)
		r->term_signal = code - 128;
	else
		r->exit_code = code;
}

/* ---- Ctrl-C --------------------------------------------------------------- */

/* Only a signal handler reads this; kcc has one runner per run. */
enum { MAX_ON_SIGNAL = 8 };
static const char *const *on_signal[MAX_ON_SIGNAL];
static volatile sig_atomic_t non_signal;

void runner_on_signal(const char *const *argv)
{
	if (non_signal < MAX_ON_SIGNAL)
		on_signal[non_signal++] = argv;
}

void runner_on_signal_clear(void)
{
	non_signal = 0;
}

static void run_on_signal(int sig)
{
	for (int i = 0; i < non_signal; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			setpgid(0, 0); /* away from the terminal's second Ctrl-C */
			execvp(on_signal[i][0], (char *const *)on_signal[i]);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	non_signal = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

void runner_cleanup_on_signal(Runner *r)
{
	if (!r || !strcmp(r->name, "local"))
		return;
	struct sigaction sa = {.sa_handler = run_on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
