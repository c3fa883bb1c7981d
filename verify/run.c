/*
 * run.c — building a unit's harness and running it (DESIGN 5.9): through
 * the target (the compiler, the device) and the runner (here, over ssh, in
 * slurm's job arrays), with the results read back and the run's outcome
 * classified: crash, timeout, cuda-error, forbidden (the sandbox), or
 * results other than exactly the planned calls. Time limits derive from
 * the original's measured time.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *vr_build_unit(VerifyRef *r, const Unit *u, const char *sub, bool promote,
                          TargetBuilt *tb, const char **why)
{
	return vr_build_unit_flags(r, u, sub, promote, NULL, tb, why);
}

const char *vr_build_unit_flags(VerifyRef *r, const Unit *u, const char *sub, bool promote,
                                const char *const *flags, TargetBuilt *tb, const char **why)
{
	Arena *a = r->a;
	const char *d = sub[0] == '/' ? sub : arena_printf(a, "%s/%s", r->dir, sub);
	const char *kfile = arena_printf(a, "kernel%s", r->t->src_ext);
	const char *hfile = arena_printf(a, "%s/harness%s", d, r->t->src_ext);
	const char *exe = arena_printf(a, "%s/%s", d, promote ? "harness-f64"
	                                              : flags ? "harness-sanitize"
	                                                      : "harness");
	memset(tb, 0, sizeof *tb);
	if (file_mkdirs(d, 0700) || verify_write_runtime(a, d) ||
	    file_write_atomic(arena_printf(a, "%s/%s", d, kfile), u->text, u->len)) {
		*why = arena_printf(a, "cannot write into %s: %s", d, strerror(errno));
		return NULL;
	}
	const char *src = verify_harness_source(a, u, r->t, kfile, why);
	if (!src || file_write_atomic(hfile, src, strlen(src)))
		return NULL;
	const char *defs[] = {"KCC_PROMOTE", NULL};
	const char *put[] = {d, NULL};
	TargetBuild b = {.dir = d, .src = hfile, .exe = exe, .defines = promote ? defs : NULL,
	                 .project = true, .cand_flags = u->build_flags, .runner = r->o.runner,
	                 .put = put, .flags = flags};
	if (r->t->build(r->t, a, &b, tb) != 0) {
		*why = runner_failed(r->o.runner) ? runner_failed(r->o.runner) : "build failed";
		return NULL;
	}
	return exe;
}

static bool runs_here(const VerifyRef *r)
{
	return !r->o.runner || !strcmp(r->o.runner->name, "local");
}

/* Where a remote run's plan and results files go: named by the plan's
 * hash, so a run done ahead (prefetch) and its taker agree. */
static const char *remote_plan(VerifyRef *r, const char *plan)
{
	char h[65];
	sha256_hex(plan, strlen(plan), h);
	const char *path = arena_printf(r->a, "%s/plan-%.16s", r->dir, h);
	const char *text = arena_printf(r->a, "KCCP 2 -1 %s", plan);
	if (access(path, R_OK) != 0)
		file_write_atomic(path, text, strlen(text));
	return path;
}

static const char *results_file(VerifyRef *r, const char *plan, const char *tag)
{
	return arena_printf(r->a, "%s.%s.out", remote_plan(r, plan), tag);
}

/* Start exe on plan (text) through the target and the runner. Here: the
 * plan on stdin, the results over a pipe at a descriptor drawn per run
 * (a candidate cannot know where the channel is without looking, and
 * looking needs calls the sandbox denies). Elsewhere (ssh, slurm): the
 * runner puts the plan file there and brings the results file back.
 * Timed plans need the device alone. */
static int start_harness(VerifyRef *r, const char *exe, const char *plan, const char *tag,
                         double timeout, ProcResult *pr)
{
	Arena *a = r->a;
	char *cwd = arena_strdup(a, exe);
	*strrchr(cwd, '/') = 0;
	TargetRun tr = {.cwd = cwd, .timeout_s = timeout, .mem_bytes = r->o.mem_bytes,
	                .fsize_bytes = r->o.fsize_bytes, .runner = r->o.runner,
	                .exclusive = plan[0] == '1' /* mode 1: bench */};
	if (runs_here(r)) {
		int chan = 100 + (int)(kcc_mix(r->master ^ 0xc4a2 ^ ++r->nruns) % 900);
		const char *text = arena_printf(a, "KCCP 2 %d %s", chan, plan);
		const char **argv = arena_alloc(a, sizeof(char *) * 3);
		argv[0] = exe, argv[1] = "-", argv[2] = NULL;
		tr.argv = argv;
		tr.stdin_data = text;
		tr.stdin_len = strlen(text);
		tr.chan_fd = chan;
		return r->t->run(r->t, a, &tr, pr);
	}
	const char *pf = remote_plan(r, plan), *out = results_file(r, plan, tag);
	const char **argv = arena_alloc(a, sizeof(char *) * 4);
	argv[0] = exe, argv[1] = pf, argv[2] = out, argv[3] = NULL;
	const char **put = arena_alloc(a, sizeof(char *) * 2), **get = arena_alloc(a, sizeof(char *) * 2);
	put[0] = pf, put[1] = NULL, get[0] = out, get[1] = NULL;
	tr.argv = argv;
	tr.put = put;
	tr.get = get;
	unlink(out); /* a harness that dies early must not leave old results readable */
	return r->t->run(r->t, a, &tr, pr);
}

/* ---- batches: slurm's job arrays ------------------------------------------------ */

/* Forget runs done ahead that nobody took, and their results files. */
void vr_prefetch_drop(VerifyRef *r)
{
	for (int i = 0; i < r->npre; i++)
		if (r->pre[i].exe && !runs_here(r))
			unlink(results_file(r, r->pre[i].plan, r->pre[i].tag));
	r->npre = 0;
}

/* With a runner that runs batches at once, run every case of each exe
 * (tags[k]: "ref" and "f64" under the ceiling, "cand" under the limit from
 * the original's time at that case) ahead in one batch; vr_run_harness
 * takes the results. Nothing happens with other runners. */
void vr_prefetch(VerifyRef *r, const char *const *exes, const char *const *tags, int nexe)
{
	vr_prefetch_drop(r);
	if (!r->ncases || !runner_defer_begin(r->o.runner, r->a))
		return;
	r->pre = arena_alloc(r->a, sizeof *r->pre * (size_t)(nexe * r->ncases));
	for (int k = 0; k < nexe; k++)
		for (int i = 0; exes[k] && i < r->ncases; i++) {
			Prefetch *p = &r->pre[r->npre++];
			*p = (Prefetch){exes[k], r->cases[i].plan, tags[k], {0}};
			double limit = strcmp(tags[k], "cand") ? r->o.ceiling_s
			                                       : vr_limit(r, r->cases[i].ref_wall);
			start_harness(r, p->exe, p->plan, p->tag, limit, &p->pr);
		}
	if (runner_defer_end(r->o.runner, r->a) != 0)
		vr_prefetch_drop(r);
}

static bool prefetched(VerifyRef *r, const char *exe, const char *plan, const char *tag,
                       ProcResult *pr)
{
	for (int i = 0; i < r->npre; i++) {
		Prefetch *p = &r->pre[i];
		if (p->exe && !strcmp(p->exe, exe) && !strcmp(p->plan, plan) && !strcmp(p->tag, tag)) {
			*pr = p->pr;
			p->exe = NULL;
			return true;
		}
	}
	return false;
}

/* Run exe on plan (text); results, read from the pipe kcc created for
 * them (or, with a remote runner, the file it brought back), parsed into
 * *res. The reason for a run that did not finish cleanly (crash, timeout,
 * cuda-error, forbidden, or results other than exactly the planned
 * calls), else VR_OK. */
VerifyReason vr_run_harness(VerifyRef *r, const char *exe, const char *plan, const char *tag,
                            double timeout, Results *res, const char **log)
{
	Arena *a = r->a;
	int mode = -1, want = -1;
	sscanf(plan, "%d %*d %*d %*d %d", &mode, &want);
	if (mode == 1)
		want = 1;
	ProcResult pr;
	memset(res, 0, sizeof *res);
	bool pre = prefetched(r, exe, plan, tag, &pr);
	int started = pre ? (pr.spawn_failed ? -1 : 0)
	                  : start_harness(r, exe, plan, tag, timeout, &pr);
	res->wall_s = pr.wall_s;
	if (started != 0) {
		*log = runner_failed(r->o.runner)
		           ? runner_failed(r->o.runner)
		           : arena_printf(a, "cannot start %s: %s", exe, strerror(pr.spawn_errno));
		return VR_CRASH;
	}
	int np = r->u->spec.nparams ? r->u->spec.nparams : 1;
	if (runs_here(r)) {
		if (pr.chan_len)
			results_parse(a, pr.chan, pr.chan_len, np, res);
	} else {
		const char *out = results_file(r, plan, tag);
		char *data = NULL;
		size_t len = 0;
		if (file_read(a, out, &data, &len) == 0)
			results_parse(a, data, len, np, res);
		unlink(out);
	}
	res->wall_s = pr.wall_s;
	*log = proc_tail(pr.err, 20);
	/* A sanitizer's report: its first lines say what and where, the tail
	 * is the shadow-byte legend. */
	const char *rep = pr.err ? strstr(pr.err, "ERROR: AddressSanitizer") : NULL;
	if (!rep && pr.err)
		rep = strstr(pr.err, "runtime error:");
	if (rep) {
		while (rep > pr.err && rep[-1] != '\n')
			rep--;
		const char *end = rep;
		for (int k = 0; k < 12 && (end = strchr(end, '\n')); k++)
			end++;
		*log = end ? arena_strndup(a, rep, (size_t)(end - rep)) : rep;
	}
	if (pr.timed_out) {
		*log = arena_printf(a, "timed out after %.1f s\n%s", timeout, *log);
		return VR_TIMEOUT;
	}
	if (pr.exit_code == 3)
		return VR_CUDA_ERROR;
	if (pr.exit_code == KCC_EXIT_FORBIDDEN || pr.term_signal == SIGSYS) {
		*log = arena_printf(a, "%s%s\n%s", proc_describe(a, &(ProcSpec){0}, &pr),
		                    pr.term_signal == SIGSYS ? " (a denied system call with SIGSYS "
		                                               "blocked: thread creation, typically)"
		                                             : "",
		                    *log);
		return VR_FORBIDDEN;
	}
	if (!proc_ok(&pr)) {
		*log = arena_printf(a, "%s\n%s", proc_describe(a, &(ProcSpec){0}, &pr), *log);
		return VR_CRASH;
	}
	if (!res->complete || res->ncalls != want) {
		*log = arena_printf(a, "the harness's results hold %d of the %d planned calls%s\n%s",
		                    res->ncalls, want, res->complete ? "" : " and no valid end",
		                    *log);
		return VR_CRASH;
	}
	return VR_OK;
}

double vr_limit(const VerifyRef *r, double ref_wall)
{
	double l = r->o.limit_factor * (ref_wall > 0 ? ref_wall : 0) + r->o.timeout_s;
	return l < r->o.ceiling_s ? l : r->o.ceiling_s;
}

int vr_recalibrate(VerifyRef *r, const char *plan, double *ref_wall)
{
	Results again;
	const char *log;
	if (vr_run_harness(r, r->ref_exe, plan, "recal", r->o.ceiling_s, &again, &log) != VR_OK)
		return -1;
	if (!(again.wall_s > 1.5 * *ref_wall))
		return 0;
	vr_ref_note(r, arena_printf(r->a, "the machine got slower: the original took %.3g s "
	                                  "where it took %.3g s before; limits follow",
	                            again.wall_s, *ref_wall));
	*ref_wall = again.wall_s;
	return 1;
}
