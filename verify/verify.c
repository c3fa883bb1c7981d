/*
 * verify.c — the verifier's protocol (DESIGN 5): the reference is built
 * twice (as written, and promoted to f64 where it builds that way) and run
 * over the test matrix once; each candidate is then scanned, built, run
 * over the same matrix in its own processes and compared here, in kcc.
 *
 * The matrix: every `shape check`, plus kcc's edge shapes (all names 1;
 * each name the next prime) where the original runs cleanly; per shape one
 * process runs the calls A (seed 1, sentinel poison), B (same buffers, new
 * inputs, NaN poison), A' (new buffers, A's inputs), one more random seed,
 * an exact-integer call, and repeats of A. A failure of B or A' where A
 * passed is "stateful" when B alone, in a fresh process, passes; any wrong
 * call whose outputs differ bitwise when the whole process is run again is
 * "nondeterministic" (a race), as long as the original repeats bitwise.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <ctype.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- small helpers ----------------------------------------------------------- */

static void add_note(Arena *a, const char ***v, int *n, int *cap, const char *note)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp((*v)[i], note))
			return;
	size_t nn = (size_t)*n, cc = (size_t)*cap;
	ARENA_PUSH(a, *v, nn, cc, note);
	*n = (int)nn;
	*cap = (int)cc;
}

void vr_ref_note(VerifyRef *r, const char *note)
{
	add_note(r->a, &r->notes, &r->nnotes, &r->capnotes, note);
}

void vr_verdict_note(Arena *a, Verdict *v, const char *note)
{
	add_note(a, &v->notes, &v->nnotes, &v->capnotes, note);
}

static uint64_t fresh_seed(void)
{
	uint64_t s = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (read(fd, &s, sizeof s) != (ssize_t)sizeof s)
			s = 0;
		close(fd);
	}
	return s ? s : (uint64_t)getpid() * 0x9e3779b97f4a7c15ull;
}

static uint64_t seed_n(const VerifyRef *r, int k)
{
	return kcc_mix(r->master + (uint64_t)k * 0x632be59bd9b4e019ull) >> 1;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rm_rf(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

char *vr_shape_text(Arena *a, const Shape *s)
{
	Strbuf sb = STRBUF_INIT;
	for (int i = 0; i < s->n; i++)
		if (s->real && s->real[i])
			sb_addf(&sb, "%s%s=%g", i ? " " : "", s->names[i], s->reals[i]);
		else
			sb_addf(&sb, "%s%s=%lld", i ? " " : "", s->names[i], (long long)s->values[i]);
	return sb_to_arena(&sb, a);
}

static int write_file(const char *path, const char *text)
{
	return file_write_atomic(path, text, strlen(text));
}

/* ---- the matrix ------------------------------------------------------------------ */

static int eval_or(const Expr *e, const Shape *s, int64_t dflt, int64_t *out)
{
	const char *why;
	const Expr *bad;
	if (!e) {
		*out = dflt;
		return 0;
	}
	return expr_eval(e, s, out, &why, &bad);
}

/* Fill a case from a shape; -1 (and *why) when the shape does not bind. */
int vr_make_case(VerifyRef *r, const Shape *sh, bool edge, Case *c, const char **why)
{
	const Spec *sp = &r->u->spec;
	memset(c, 0, sizeof *c);
	c->shape = *sh;
	c->edge = edge;
	c->text = vr_shape_text(r->a, sh);
	int np = sp->nparams;
	c->n = arena_alloc(r->a, sizeof(int64_t) * (size_t)(np + 1));
	c->lo = arena_alloc(r->a, sizeof(int64_t) * (size_t)(np + 1));
	c->hi = arena_alloc(r->a, sizeof(int64_t) * (size_t)(np + 1));
	c->s = arena_alloc(r->a, sizeof(int64_t) * (size_t)(r->bind.nscalars + 1));
	for (int p = 0; p < np; p++) {
		const SpecParam *pp = &sp->params[p];
		if (spec_extent(pp, sh, &c->n[p], why) != 0)
			return -1;
		if (eval_or(pp->lo, sh, 0, &c->lo[p]) || eval_or(pp->hi, sh, 0, &c->hi[p])) {
			*why = "range() does not evaluate";
			return -1;
		}
		if (pp->hi && c->hi[p] <= c->lo[p]) {
			*why = arena_printf(r->a, "empty range for '%s'", pp->name);
			return -1;
		}
		c->bytes += (uint64_t)c->n[p] * elem_size(pp->type);
	}
	for (int i = 0; i < r->bind.nscalars; i++) {
		bool found;
		c->s[i] = shape_get(sh, r->bind.scalars[i], &found);
		if (r->bind.fp[i]) { /* a double travels as its bits */
			double d = shape_get_real(sh, r->bind.scalars[i], &found);
			memcpy(&c->s[i], &d, sizeof d);
		}
		if (!found) {
			*why = arena_printf(r->a, "shape does not set '%s'", r->bind.scalars[i]);
			return -1;
		}
	}
	return 0;
}

static void push_call(VerifyRef *r, size_t *cap, int kind, int set, uint64_t seed, int fill,
                      int poison, const char *what)
{
	PlanCall c = {.set = set, .seed = seed, .fill = fill, .poison = poison, .what = what,
	              .base = kind, .pert = kind == CALL_PERTURB ? 3 : 0};
	size_t n = (size_t)r->ncalls;
	ARENA_PUSH(r->a, r->calls, n, *cap, c);
	r->ncalls = (int)n;
}

static void make_calls(VerifyRef *r)
{
	size_t cap = 0;
	uint64_t s1 = seed_n(r, 1);
	push_call(r, &cap, CALL_A, 0, s1, KCC_FILL_RANDOM, KCC_POISON_SENTINEL, "A");
	/* A memo keyed on a few sampled elements, the pointers or the sizes
	 * answers this one with A's outputs. */
	push_call(r, &cap, CALL_PERTURB, 0, s1, KCC_FILL_RANDOM, KCC_POISON_NAN,
	          "P (A's inputs with 3 elements per input redrawn)");
	push_call(r, &cap, CALL_B, 0, seed_n(r, 2), KCC_FILL_RANDOM, KCC_POISON_NAN,
	          "B (same buffers, new inputs)");
	push_call(r, &cap, CALL_A2, 1, s1, KCC_FILL_RANDOM, KCC_POISON_NAN,
	          "A' (new buffers, A's inputs)");
	for (int k = 3; k <= (r->o.nseeds > 3 ? r->o.nseeds : 3); k++)
		push_call(r, &cap, CALL_SEED, 0, seed_n(r, k), KCC_FILL_RANDOM,
		          k & 1 ? KCC_POISON_SENTINEL : KCC_POISON_NAN,
		          arena_printf(r->a, "seed %d", k));
	if (r->o.exact_mode)
		push_call(r, &cap, CALL_EXACT, 0, seed_n(r, 100), KCC_FILL_EXACT,
		          KCC_POISON_SENTINEL, "exact (small-integer inputs)");
	int reps = r->o.paranoid && r->o.repeats < 10 ? 10 : r->o.repeats;
	reps = reps < 4 ? 4 : reps; /* A and at least three repeats to compare */
	for (int k = 2; k <= reps; k++)
		push_call(r, &cap, CALL_REPEAT, 0, s1, KCC_FILL_RANDOM, KCC_POISON_SENTINEL,
		          arena_printf(r->a, "repeat %d of A", k));
}

void vr_plan_call(Strbuf *sb, const VerifyRef *r, const Case *c, const PlanCall *pc)
{
	sb_addf(sb, "%d %llu %d %d %d", pc->set, (unsigned long long)pc->seed, pc->fill,
	        pc->poison, pc->pert);
	for (int p = 0; p < r->u->spec.nparams; p++)
		sb_addf(sb, "  %lld %lld %lld", (long long)c->n[p], (long long)c->lo[p],
		        (long long)c->hi[p]);
	if (!r->u->spec.nparams)
		sb_adds(sb, "  0 0 0");
	sb_adds(sb, " ");
	for (int i = 0; i < r->bind.nscalars; i++)
		sb_addf(sb, " %lld", (long long)c->s[i]);
	sb_addc(sb, '\n');
}

/* A plan's text after "KCCP 2 CHAN" (vr_run_harness adds those): mode,
 * the harness's shape, the calls planned, the sandbox, the run's guard
 * and poison seeds. */
const char *vr_plan_header(Arena *a, const VerifyRef *r, int mode, int ncalls)
{
	return arena_printf(a, "%d %d %d %llu %d %d %llu %llu\n", mode,
	                    r->u->spec.nparams ? r->u->spec.nparams : 1, r->bind.nscalars,
	                    (unsigned long long)r->info.flush_bytes, ncalls, r->o.sandbox ? 1 : 0,
	                    (unsigned long long)(r->gseed >> 1), (unsigned long long)(r->psalt >> 1));
}

/* A check-mode plan of calls [from, to) of the matrix, as text (it goes
 * to the harness on stdin, never through the file system). */
const char *vr_write_plan(VerifyRef *r, const Case *c, int from, int to, const char *name)
{
	(void)name;
	Strbuf sb = STRBUF_INIT;
	sb_adds(&sb, vr_plan_header(r->a, r, 0, to - from));
	for (int i = from; i < to; i++)
		vr_plan_call(&sb, r, c, &r->calls[i]);
	return sb_to_arena(&sb, r->a);
}

/* ---- building and running ------------------------------------------------------- */

/* Write unit u's file and harness into dir/sub; build exe there. */
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
	if (!src || write_file(hfile, src))
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
	if (access(path, R_OK) != 0)
		write_file(path, arena_printf(r->a, "KCCP 2 -1 %s", plan));
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
static void prefetch_drop(VerifyRef *r)
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
static void prefetch(VerifyRef *r, const char *const *exes, const char *const *tags, int nexe)
{
	prefetch_drop(r);
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
		prefetch_drop(r);
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
VerifyReason vr_run_harness(VerifyRef *r, const char *exe, const char *plan,
                                const char *tag, double timeout, Results *res,
                                const char **log)
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

/* ---- the reference out of reach ------------------------------------------------- */

/* sha256 of a regular file (never through a symlink); -1 if unreadable. */
static int sha_file(const char *path, unsigned char out[32])
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	Sha256 s;
	sha256_init(&s);
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		sha256_update(&s, buf, (size_t)n);
	close(fd);
	if (n < 0)
		return -1;
	sha256_final(&s, out);
	return 0;
}

/* Keep the reference's executable as built: its bytes, its hash, and no
 * write permission on it (the sandbox denies chmod). */
static void ref_remember(VerifyRef *r, const char *path)
{
	if (!path || r->nrefexe >= 2)
		return;
	struct RefExe *e = &r->refexe[r->nrefexe];
	if (file_read(r->a, path, &e->bytes, &e->len) != 0 || sha_file(path, e->sha) != 0)
		return;
	e->path = path;
	chmod(path, 0500);
	r->nrefexe++;
}

int vr_ref_intact(VerifyRef *r)
{
	int changed = 0;
	for (int i = 0; i < r->nrefexe; i++) {
		struct RefExe *e = &r->refexe[i];
		unsigned char h[32];
		if (sha_file(e->path, h) == 0 && !memcmp(h, e->sha, 32))
			continue;
		changed = 1;
		unlink(e->path); /* whatever is there: a symlink, another binary */
		int fd = open(e->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0500);
		bool ok = fd >= 0 && write(fd, e->bytes, e->len) == (ssize_t)e->len;
		if (fd >= 0)
			close(fd);
		if (!ok || sha_file(e->path, h) != 0 || memcmp(h, e->sha, 32))
			return -1;
	}
	return changed;
}

const char *vr_cand_dir(VerifyRef *r)
{
	if (r->cand_dir && !r->o.keep_temps)
		rm_rf(r->cand_dir);
	r->cand_dir = arena_printf(r->a, "%s/kcc-cand-XXXXXX", r->tmproot);
	if (!mkdtemp(r->cand_dir))
		r->cand_dir = NULL;
	return r->cand_dir;
}

/* ---- the reference ------------------------------------------------------------ */

/* An element of b (sentinel-poisoned) still holding its poison, and
 * holding the other poison in b2 (the same inputs, NaN-poisoned; NULL when
 * there is no such call): with per-element random poison, one match alone
 * can be a coincidence for 8-bit outputs, both never (kcc_poison_at). */
static bool has_poison(const VerifyRef *r, ElemType t, const ResBuf *b, const ResBuf *b2)
{
	unsigned char pb[8];
	size_t es = elem_size(t);
	for (size_t i = 0; i + es <= b->nbytes; i += es) {
		kcc_poison_at(pb, (int)t, KCC_POISON_SENTINEL, r->psalt >> 1, i / es);
		if (memcmp(b->data + i, pb, es))
			continue;
		if (!b2 || b2->nbytes != b->nbytes)
			return true;
		kcc_poison_at(pb, (int)t, KCC_POISON_NAN, r->psalt >> 1, i / es);
		if (!memcmp(b2->data + i, pb, es))
			return true;
	}
	return false;
}

static int call_index(const VerifyRef *r, int kind)
{
	for (int i = 0; i < r->ncalls; i++)
		if (r->calls[i].base == kind)
			return i;
	return -1;
}

/* Why the original's own run of case c is unusable, or NULL. */
static const char *ref_problem(VerifyRef *r, const Case *c)
{
	const Spec *sp = &r->u->spec;
	if (c->ref.ncalls != r->ncalls)
		return "it did not complete the calls";
	for (int i = 0; i < r->ncalls; i++)
		for (int p = 0; p < sp->nparams; p++) {
			const ResBuf *b = &c->ref.calls[i][p];
			const SpecParam *pp = &sp->params[p];
			if (!b->guard_ok)
				return arena_printf(r->a, "it writes outside '%s'", pp->name);
			if (pp->role == ROLE_IN && b->hash_after != b->hash_before)
				return arena_printf(r->a, "it modifies the input '%s'", pp->name);
			int a2 = call_index(r, CALL_A2);
			if (pp->role == ROLE_OUT && r->calls[i].base == CALL_A &&
			    has_poison(r, pp->type, b, a2 >= 0 ? &c->ref.calls[a2][p] : NULL))
				return arena_printf(r->a, "it leaves part of '%s' unwritten (declare it "
				                          "inout?)", pp->name);
		}
	return NULL;
}

static bool all_equal(ElemType t, const ResBuf *b, bool zero)
{
	size_t es = elem_size(t), n = b->nbytes / es;
	for (size_t i = 0; i < n; i++) {
		double v = kcc_load(b->data, (int)t, i);
		if (zero ? !(fabs(v) <= 1e-30) : memcmp(b->data + i * es, b->data, es) != 0)
			return false;
	}
	return true;
}

/* DESIGN 5.3: outputs that cannot tell right from wrong. */
static void check_degenerate(VerifyRef *r, const Case *c)
{
	const Spec *sp = &r->u->spec;
	for (int p = 0; p < sp->nparams; p++) {
		const SpecParam *pp = &sp->params[p];
		if (pp->role == ROLE_IN || pp->role == ROLE_SCRATCH)
			continue;
		const ResBuf *a = &c->ref.calls[0][p], *b = &c->ref.calls[1][p];
		const char *kind = NULL;
		if (all_equal(pp->type, a, true))
			kind = "all zero";
		else if (a->nbytes > elem_size(pp->type) && all_equal(pp->type, a, false))
			kind = "constant";
		else if (pp->role == ROLE_OUT && a->nbytes == b->nbytes &&
		         !memcmp(a->data, b->data, a->nbytes))
			kind = "the same for every seed";
		if (kind && !c->edge)
			vr_ref_note(r, arena_printf(r->a, "the original's output '%s' is %s at shape %s: "
			                               "this case cannot tell right from wrong; only "
			                               "the other calls and shapes count",
			                         pp->name, kind, c->text));
	}
}

static int run_reference_case(VerifyRef *r, Case *c, int idx)
{
	const char *log;
	c->plan = vr_write_plan(r, c, 0, r->ncalls, arena_printf(r->a, "case%d.plan", idx));
	if (!c->plan)
		return -1;
	if (vr_ref_intact(r) != 0) {
		diag_error("%s: the reference's harness changed on disk while kcc prepared it",
		           r->u->path);
		return -1;
	}
	VerifyReason vr = vr_run_harness(r, r->ref_exe, c->plan, "ref", r->o.ceiling_s, &c->ref,
	                              &log);
	c->ref_wall = c->ref.wall_s;
	const char *problem = vr != VR_OK ? arena_printf(r->a, "%s: %s",
	                                                 verify_reason_name(vr), log)
	                                  : ref_problem(r, c);
	if (problem) {
		if (c->edge) {
			vr_ref_note(r, arena_printf(r->a, "edge shape %s dropped: the original fails "
			                               "there (%s)", c->text, proc_tail(problem, 1)));
			return 1;
		}
		if (vr == VR_TIMEOUT) {
			error_at(c->shape.loc, "the original kernel did not finish at shape %s within "
			                       "%.0f s", c->text, r->o.ceiling_s);
			diag_note("that is the ceiling of the original's calibration run; raise it "
			          "with --timeout=T (s, m or h)");
			return -1;
		}
		error_at(c->shape.loc, "the original kernel fails at shape %s: %s", c->text,
		         problem);
		return -1;
	}
	check_degenerate(r, c);
	if (r->y64_exe) {
		vr = vr_run_harness(r, r->y64_exe, c->plan, "f64", r->o.ceiling_s, &c->y64, &log);
		c->have_y64 = vr == VR_OK && c->y64.ncalls == r->ncalls;
		if (!c->have_y64)
			vr_ref_note(r, arena_printf(r->a, "no fp64 reference at shape %s (%s): fixed "
			                               "tolerances used there", c->text,
			                         verify_reason_name(vr)));
	}
	return 0;
}

static bool all_f32_floats(const Unit *u)
{
	bool any = false;
	for (int p = 0; p < u->spec.nparams; p++) {
		ElemType t = u->spec.params[p].type;
		if (t == ET_F16 || t == ET_BF16)
			return false;
		any |= t == ET_F32;
	}
	return any;
}

static void add_shape(VerifyRef *r, size_t *cap, const Shape *sh, bool edge)
{
	for (int i = 0; i < r->ncases; i++) {
		const Shape *o = &r->cases[i].shape;
		bool same = o->n == sh->n;
		for (int k = 0; same && k < sh->n; k++)
			same = o->values[k] == sh->values[k];
		if (same)
			return;
	}
	Case c;
	const char *why = "?";
	if (vr_make_case(r, sh, edge, &c, &why) != 0) {
		if (!edge)
			error_at(sh->loc, "shape %s: %s", vr_shape_text(r->a, sh), why);
		return;
	}
	size_t n = (size_t)r->ncases;
	ARENA_PUSH(r->a, r->cases, n, *cap, c);
	r->ncases = (int)n;
}

static int64_t next_prime(int64_t v)
{
	for (int64_t p = v + 1;; p++) {
		bool prime = p > 1;
		for (int64_t d = 2; prime && d * d <= p; d++)
			prime = p % d != 0;
		if (prime)
			return p;
	}
}

static void edge_shape(VerifyRef *r, size_t *cap, bool ones)
{
	const Shape *s0 = &r->u->spec.check[0];
	Shape e = *s0;
	e.values = arena_alloc(r->a, sizeof(int64_t) * (size_t)(s0->n + 1));
	for (int i = 0; i < s0->n; i++) {
		bool fp = s0->real && s0->real[i];
		for (int k = 0; k < r->bind.nscalars; k++)
			fp |= r->bind.fp[k] && !strcmp(r->bind.scalars[k], s0->names[i]);
		/* sizes only: alpha and beta keep their values */
		e.values[i] = fp ? s0->values[i] : ones ? 1 : next_prime(s0->values[i]);
	}
	add_shape(r, cap, &e, true);
}

static int make_cases(VerifyRef *r)
{
	size_t cap = 0;
	int errs = diag_error_count();
	for (int i = 0; i < r->u->spec.ncheck; i++)
		add_shape(r, &cap, &r->u->spec.check[i], false);
	if (diag_error_count() != errs)
		return -1;
	if (r->o.edge_shapes && r->u->spec.ncheck) {
		edge_shape(r, &cap, true);
		edge_shape(r, &cap, false);
	}
	if (!r->ncases) {
		diag_error("%s: no `#pragma kcc shape check` to verify with", r->u->path);
		return -1;
	}
	return 0;
}

/* ---- the sweep of class shapes (shapes.c) -------------------------------------- */

static bool known_shape(const VerifyRef *r, const Shape *sh)
{
	for (int i = 0; i < r->ncases; i++) {
		const Shape *o = &r->cases[i].shape;
		bool same = o->n == sh->n;
		for (int k = 0; same && k < sh->n; k++)
			same = o->values[k] == sh->values[k];
		if (same)
			return true;
	}
	return false;
}

/* The sweep case over subs[0..n): calls A and P of the matrix at each,
 * all in one harness process (buffers are reallocated as sizes change). */
static Case sweep_case(VerifyRef *r, Case *subs, int n)
{
	Case c;
	memset(&c, 0, sizeof c);
	c.shape = r->u->spec.check[0];
	c.edge = true;
	c.text = arena_printf(r->a, "(kcc's %d class shapes)", n);
	c.ncalls = 2 * n;
	c.calls = arena_alloc(r->a, sizeof(PlanCall) * (size_t)(c.ncalls + 1));
	c.call_case = arena_alloc(r->a, sizeof(Case *) * (size_t)(c.ncalls + 1));
	int ia = call_index(r, CALL_A), ip = call_index(r, CALL_PERTURB);
	Strbuf sb = STRBUF_INIT;
	sb_adds(&sb, vr_plan_header(r->a, r, 0, c.ncalls));
	for (int k = 0; k < n; k++)
		for (int j = 0; j < 2; j++) {
			PlanCall pc = r->calls[j ? ip : ia];
			pc.what = arena_printf(r->a, "%s, at kcc's class shape %s", j ? "P" : "A",
			                       subs[k].text);
			c.calls[2 * k + j] = pc;
			c.call_case[2 * k + j] = &subs[k];
			vr_plan_call(&sb, r, &subs[k], &pc);
			if (subs[k].bytes > c.bytes)
				c.bytes = subs[k].bytes;
		}
	c.plan = sb_to_arena(&sb, r->a);
	return c;
}

/* The class shape whose call made the original's sweep unusable, or -1. */
static int sweep_culprit(VerifyRef *r, const Case *c, VerifyReason vr)
{
	const Spec *sp = &r->u->spec;
	if (vr != VR_OK || c->ref.ncalls != c->ncalls)
		return c->ref.ncalls < c->ncalls ? c->ref.ncalls / 2 : c->ncalls / 2 - 1;
	for (int i = 0; i < c->ncalls; i++)
		for (int p = 0; p < sp->nparams; p++) {
			const ResBuf *b = &c->ref.calls[i][p];
			const SpecParam *pp = &sp->params[p];
			if (!b->guard_ok || (pp->role == ROLE_IN && b->hash_after != b->hash_before) ||
			    (pp->role == ROLE_OUT && c->calls[i].base == CALL_A &&
			     has_poison(r, pp->type, b, NULL)))
				return i / 2;
		}
	return -1;
}

/* Build the sweep and run the original over it; a class shape where the
 * original fails (crash, guard, unwritten) is dropped and the rest run
 * again, a few times at most. */
static void prepare_sweep(VerifyRef *r)
{
	Shape *shapes = NULL;
	int n = r->o.edge_shapes && r->u->spec.ncheck ? vr_class_shapes(r, &shapes) : 0;
	uint64_t most = 0;
	for (int i = 0; i < r->ncases; i++)
		most = r->cases[i].bytes > most ? r->cases[i].bytes : most;
	Case *subs = arena_alloc(r->a, sizeof(Case) * (size_t)(n + 1));
	int ns = 0, dropped = 0;
	for (int i = 0; i < n; i++) {
		const char *why;
		if (!known_shape(r, &shapes[i]) &&
		    vr_make_case(r, &shapes[i], true, &subs[ns], &why) == 0 && subs[ns].bytes <= most)
			ns++;
	}
	for (int attempt = 0; ns > 0 && attempt < 16; attempt++) {
		Case c = sweep_case(r, subs, ns);
		const char *log;
		VerifyReason vr = vr_run_harness(r, r->ref_exe, c.plan, "ref", r->o.ceiling_s, &c.ref,
		                                 &log);
		int bad = sweep_culprit(r, &c, vr);
		if (bad >= 0) {
			memmove(&subs[bad], &subs[bad + 1], sizeof(Case) * (size_t)(ns - bad - 1));
			ns--;
			dropped++;
			continue;
		}
		c.ref_wall = c.ref.wall_s;
		if (r->y64_exe) {
			vr = vr_run_harness(r, r->y64_exe, c.plan, "f64", r->o.ceiling_s, &c.y64, &log);
			c.have_y64 = vr == VR_OK && c.y64.ncalls == c.ncalls;
		}
		size_t k = (size_t)r->ncases, cap = k;
		ARENA_PUSH(r->a, r->cases, k, cap, c);
		r->ncases = (int)k;
		if (dropped)
			vr_ref_note(r, arena_printf(r->a, "%d of kcc's class shapes dropped: the "
			                                  "original fails there",
			                            dropped));
		return;
	}
	if (n)
		vr_ref_note(r, "kcc's class shapes not used: the original fails at too many");
}

static int build_reference(VerifyRef *r)
{
	TargetBuilt tb;
	const char *why = "";
	r->ref_exe = vr_build_unit(r, r->u, "ref", false, &tb, &why);
	if (!r->ref_exe) {
		diag_error("%s: the original does not build for %s: %s", r->u->path, r->t->name, why);
		if (tb.cmdline)
			diag_note("command: %s\n%s", tb.cmdline, proc_tail(tb.log ? tb.log : "", 20));
		return -1;
	}
	ref_remember(r, r->ref_exe);
	r->have_ref_elf = elf_inspect(r->a, r->ref_exe, &r->ref_elf) == 0;
	if (r->o.fp64_reference && all_f32_floats(r->u)) {
		r->y64_exe = vr_build_unit(r, r->u, "ref", true, &tb, &why);
		if (!r->y64_exe)
			vr_ref_note(r, "the original does not build promoted to f64 (float -> double): "
			            "outputs are compared with fixed tolerances");
		ref_remember(r, r->y64_exe);
	}
	/* Candidates get their own fresh dirs elsewhere (vr_cand_dir); this
	 * one is closed to them as far as permissions go. */
	chmod(arena_printf(r->a, "%s/ref", r->dir), 0500);
	return 0;
}

int verify_ref_prepare(Arena *a, const Unit *ref, const VerifyOptions *o, VerifyRef **out)
{
	VerifyRef *r = arena_alloc(a, sizeof *r);
	*out = r;
	r->a = a;
	r->o = *o;
	r->u = ref;
	r->t = o->target ? o->target : target_for_lang(ref->lang);
	if (r->t->unit) { /* a deterministic count: two rounds of two samples show it */
		r->o.rounds = 2;
		r->o.min_samples = 4;
	}
	r->master = o->seed ? o->seed : fresh_seed();
	r->gseed = kcc_mix(r->master ^ 0x67756172640a) | 2;
	r->psalt = kcc_mix(r->master ^ 0x706f69736f6e) | 2;
	const char *why = "";
	if (harness_bind(a, ref, &r->bind, &why) != 0) {
		diag_error("%s: cannot call the entry: %s", ref->path, why);
		return -1;
	}
	r->t->describe(r->t, a, &r->info);
	const char *tmp = o->tmpdir                         ? o->tmpdir
	                  : o->runner && o->runner->workdir ? o->runner->workdir
	                                                    : getenv("TMPDIR");
	r->tmproot = tmp && *tmp ? tmp : "/tmp";
	r->dir = arena_printf(a, "%s/kcc-verify-XXXXXX", r->tmproot);
	if (!mkdtemp(r->dir)) {
		diag_error("cannot create a temp dir under %s: %s", tmp, strerror(errno));
		r->dir = NULL;
		return -1;
	}
	make_calls(r);
	if (make_cases(r) || build_reference(r)) {
		if (runner_failed(r->o.runner))
			diag_error("%s", runner_failed(r->o.runner));
		return -1;
	}
	if (r->o.runner && r->o.runner->batch) { /* all cases as one batch (slurm) */
		for (int i = 0; i < r->ncases; i++) /* the plans run_reference_case writes */
			r->cases[i].plan = vr_write_plan(r, &r->cases[i], 0, r->ncalls,
			                                 arena_printf(r->a, "case%d.plan", i));
		prefetch(r, (const char *[]){r->ref_exe, r->y64_exe}, (const char *[]){"ref", "f64"},
		         2);
	}
	for (int i = 0; i < r->ncases; i++) {
		int rc = run_reference_case(r, &r->cases[i], i);
		if (rc < 0 || runner_failed(r->o.runner)) {
			if (runner_failed(r->o.runner))
				diag_error("%s", runner_failed(r->o.runner));
			return -1;
		}
		if (rc > 0) { /* dropped edge shape */
			memmove(&r->cases[i], &r->cases[i + 1],
			        sizeof(Case) * (size_t)(r->ncases - i - 1));
			r->ncases--;
			i--;
		}
	}
	prepare_sweep(r);
	return 0;
}

void verify_ref_release(VerifyRef *r)
{
	if (r && r->cand_dir && !r->o.keep_temps)
		rm_rf(r->cand_dir);
	if (r && r->dir && !r->o.keep_temps) {
		chmod(arena_printf(r->a, "%s/ref", r->dir), 0700);
		rm_rf(r->dir);
	}
	if (r)
		r->dir = NULL;
}

/* ---- a candidate ------------------------------------------------------------------ */

static void reject(Verdict *v, VerifyReason why, const char *summary)
{
	v->reason = why;
	v->summary = summary;
}

static void hash_pragmas(const Unit *u, char out[65])
{
	if (u->spec_hash[0]) {
		memcpy(out, u->spec_hash, 65);
		return;
	}
	Sha256 s;
	sha256_init(&s);
	for (int i = 0; i < u->spec.nlines; i++) {
		const PragmaLine *l = &u->spec.lines[i];
		if (!l->kind || strcmp(l->kind, "tune") != 0)
			sha256_update(&s, u->text + l->begin, l->end - l->begin + 1);
	}
	unsigned char d[32];
	sha256_final(&s, d);
	for (int i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* A parameter type as the caller sees it: restrict qualifiers and
 * top-level const do not change the interface (C11 6.7.6.3p15). */
static char *caller_type(Arena *a, const char *t)
{
	Strbuf sb = STRBUF_INIT;
	for (const char *p = t; *p;) {
		if (*p == ' ' || *p == '\t') {
			p++;
			continue;
		}
		size_t n = *p == '*' ? 1 : strcspn(p, " \t*");
		if (!(n == 8 && !strncmp(p, "restrict", 8)) &&
		    !(n == 12 && !strncmp(p, "__restrict__", 12)) &&
		    !(n == 10 && !strncmp(p, "__restrict", 10))) {
			if (sb.len)
				sb_addc(&sb, ' ');
			sb_addn(&sb, p, n);
		}
		p += n;
	}
	char *s = sb_to_arena(&sb, a);
	char *star = strrchr(s, '*');
	char *c = strstr(star ? star : s, "const");
	if (c && (!star || c > star)) /* top-level const: after the last '*' */
		memmove(c, c + 5, strlen(c + 5) + 1);
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = 0;
	while (*s == ' ')
		s++;
	return s;
}

static bool same_signature(Arena *a, const Unit *x, const Unit *y)
{
	const char *ex = x->spec.entry ? x->spec.entry : "", *ey = y->spec.entry ? y->spec.entry : "";
	if (strcmp(ex, ey) || x->nparams != y->nparams || !y->entry.name ||
	    strcmp(x->entry_ret ? x->entry_ret : "", y->entry_ret ? y->entry_ret : ""))
		return false;
	for (int i = 0; i < x->nparams; i++)
		if (strcmp(caller_type(a, x->params[i].type), caller_type(a, y->params[i].type)) ||
		    strcmp(x->params[i].name, y->params[i].name))
			return false;
	return true;
}

static int static_checks(VerifyRef *r, const Unit *c, Verdict *v)
{
	v->check = "static";
	if (!c) {
		reject(v, VR_PARSE, "the candidate does not parse");
		return -1;
	}
	if (!same_signature(r->a, r->u, c)) {
		reject(v, VR_SIGNATURE, arena_printf(r->a, "the entry '%s' is missing or its "
		                                           "signature changed",
		                                     r->u->spec.entry));
		return -1;
	}
	char h1[65], h2[65];
	hash_pragmas(r->u, h1);
	hash_pragmas(c, h2);
	if (strcmp(h1, h2)) {
		reject(v, VR_PRAGMA, "the `#pragma kcc` lines changed (only `tune` may be added)");
		return -1;
	}
	const char *what;
	int line;
	bool streams;
	if (verify_scan(c->text, c->len, c->lang, r->o.allow_libs, &what, &line, &streams) !=
	    VR_OK) {
		reject(v, VR_FORBIDDEN, arena_printf(r->a, "%s:%d: %s", c->path ? c->path : "",
		                                     line, what));
		return -1;
	}
	if (streams)
		vr_verdict_note(r->a, v, "the candidate creates CUDA streams; the escaped-work "
		                      "check applies");
	return 0;
}

static void describe_value(VerifyRef *r, Verdict *v, const SpecParam *pp, const Compare *cm,
                           const PlanCall *pc)
{
	v->param = pp->name;
	v->index = cm->index;
	v->got = cm->got;
	v->want = cm->want;
	const char *what = cm->reason == VR_UNWRITTEN ? "still holds the poison written before "
	                                                "the call"
	                   : cm->reason == VR_NAN ? "has a different NaN/Inf than the original"
	                                          : "differs from the reference";
	v->summary = arena_printf(r->a, "%s[%lld] = %.9g %s (%.9g) at call '%s'; max abs error "
	                                "%.3g, normwise %.3g, rel L2 %.3g",
	                          pp->name, (long long)cm->index, cm->got, what, cm->want,
	                          pc->what, cm->max_abs, cm->max_rel, cm->rel_l2);
}

static const double *y64_of(VerifyRef *r, const Case *c, int call, int p)
{
	if (!c->have_y64 || r->u->spec.params[p].type != ET_F32)
		return NULL;
	const ResBuf *b = &c->y64.calls[call][p];
	double *y = arena_alloc(r->a, b->nbytes + 8); /* the file's bytes may be unaligned */
	memcpy(y, b->data, b->nbytes);
	return y;
}

static Tolerance tolerance_for(const Unit *u, ElemType t)
{
	Tolerance tol = verify_default_tolerance(t);
	if (u->spec.has_tolerance && elem_is_float(t)) {
		tol.elementwise = true;
		tol.rtol = u->spec.rtol;
		tol.atol = u->spec.atol;
		tol.atol_scaled = false;
	}
	return tol;
}

char *verify_tolerance_text(Arena *a, const VerifyRef *r)
{
	bool y64 = r->y64_exe && r->ncases > 0;
	for (int i = 0; i < r->ncases; i++)
		y64 = y64 && r->cases[i].have_y64;
	Strbuf sb = STRBUF_INIT;
	const Spec *sp = &r->u->spec;
	for (int p = 0; p < sp->nparams; p++) {
		const SpecParam *pp = &sp->params[p];
		if (pp->role == ROLE_IN)
			continue;
		Tolerance tol = tolerance_for(r->u, pp->type);
		sb_addf(&sb, "- %s (%s): ", pp->name, elem_name(pp->type));
		if (!elem_is_float(pp->type))
			sb_adds(&sb, "exactly equal to the original's output\n");
		else if (tol.elementwise)
			sb_addf(&sb, "every element c within %g + %g*|o| of the original's o (the "
			        "spec's `#pragma kcc tolerance rtol=%g atol=%g`)\n", tol.atol, tol.rtol,
			        tol.rtol, tol.atol);
		else if (y64)
			sb_addf(&sb, "no less accurate than the original, both measured against an "
			        "fp64 run of the original (y64): max|c-y64| <= 2*max|o-y64| + "
			        "%g*eps*max|y64|, and the same for the mean error and for the "
			        "relative L2 error (eps = 2^-24). Reordering sums and using FMA is "
			        "fine; a narrower type for inputs or accumulators is not\n",
			        tol.floor_ulps);
		else
			sb_addf(&sb, "every element c within %g*max(1, max|o|) + %g*|o| of the "
			        "original's o (kcc's default for %s: the original has no fp64 "
			        "reference)\n", tol.atol, tol.rtol, elem_name(pp->type));
	}
	sb_adds(&sb, "- NaN and Inf exactly where the original's output has them\n");
	return sb_to_arena(&sb, a);
}

/* Compare one call's record; VR_OK or the reason (verdict filled). */
VerifyReason vr_compare_call(VerifyRef *r, const Case *c, int i, ResBuf *cb, Verdict *v)
{
	const Spec *sp = &r->u->spec;
	const ResBuf *rb = c->ref.calls[i];
	const PlanCall *pc = c->calls ? &c->calls[i] : &r->calls[i];
	for (int p = 0; p < sp->nparams; p++) {
		const SpecParam *pp = &sp->params[p];
		const char *msg = NULL;
		VerifyReason why = VR_OK;
		if (!cb[p].guard_ok)
			why = VR_GUARD, msg = "wrote into the guard zone around '%s' (out of bounds)";
		else if (cb[p].hash_before != rb[p].hash_before)
			why = VR_INPUT_MODIFIED, msg = "'%s' changed before the entry was called";
		else if (pp->role == ROLE_IN && cb[p].hash_after != cb[p].hash_before)
			why = VR_INPUT_MODIFIED, msg = "modified the input '%s'";
		else if (cb[p].escaped)
			why = VR_ESCAPED, msg = "'%s' changed after the harness's stream was "
			                        "synchronised (work escaped to another stream)";
		else if (cb[p].nbytes != rb[p].nbytes)
			why = VR_CRASH, msg = "malformed results for '%s'";
		if (why) {
			v->param = pp->name;
			reject(v, why, arena_printf(r->a, msg, pp->name));
			return why;
		}
	}
	for (int p = 0; p < sp->nparams; p++) {
		const SpecParam *pp = &sp->params[p];
		if (pp->role == ROLE_IN || pp->role == ROLE_SCRATCH)
			continue;
		Tolerance tol = tolerance_for(r->u, pp->type);
		Compare cm;
		verify_compare_salted(pp->type, cb[p].nbytes / elem_size(pp->type), cb[p].data,
		                      rb[p].data, y64_of(r, c, i, p),
		                      pp->role == ROLE_OUT ? pc->poison : 0, r->psalt >> 1, &tol, &cm);
		if (!(cm.max_abs <= v->max_abs))
			v->max_abs = cm.max_abs;
		if (!(cm.max_rel <= v->max_rel))
			v->max_rel = cm.max_rel;
		if (!(cm.rel_l2 <= v->rel_l2))
			v->rel_l2 = cm.rel_l2;
		if (cm.reason != VR_OK) {
			reject(v, cm.reason, NULL);
			describe_value(r, v, pp, &cm, pc);
			return cm.reason;
		}
	}
	return VR_OK;
}

static bool value_reason(VerifyReason why)
{
	return why == VR_WRONG || why == VR_UNWRITTEN || why == VR_NAN || why == VR_PRECISION;
}

/* B failed after A passed: stateful if B alone, in a fresh process, passes. */
static bool b_alone_passes(VerifyRef *r, const Case *c, const char *exe, int ci)
{
	PlanCall saved = r->calls[ci];
	r->calls[ci].set = 0;
	const char *plan = vr_write_plan(r, c, ci, ci + 1, "fresh.plan");
	r->calls[ci] = saved;
	Results res;
	const char *log;
	if (!plan ||
	    vr_run_harness(r, exe, plan, "cand", vr_limit(r, c->ref_wall), &res, &log) != VR_OK ||
	    res.ncalls != 1)
		return false;
	/* compare_call indexes the reference by call number: shift it. */
	Case shifted = *c;
	ResBuf *one[1] = {c->ref.calls[ci]};
	shifted.ref.calls = one;
	shifted.have_y64 = false;
	PlanCall *calls = r->calls;
	r->calls = &r->calls[ci];
	Verdict tmp = {0};
	VerifyReason why = vr_compare_call(r, &shifted, 0, res.calls[0], &tmp);
	r->calls = calls;
	return why == VR_OK;
}

/* A precision drop is confirmed when the exact small-integer call, where
 * any summation order and any reasonable precision is exact, passes. */
static bool exact_passes(VerifyRef *r, const Case *c, Results *res, int failed)
{
	if (c->calls)
		return true; /* the sweep has no exact call */
	for (int i = 0; i < r->ncalls && i < res->ncalls; i++)
		if (r->calls[i].base == CALL_EXACT) {
			Verdict tmp = {0};
			return i != failed && vr_compare_call(r, c, i, res->calls[i], &tmp) == VR_OK;
		}
	return true; /* no exact call: keep the magnitude's word */
}

static bool outputs_equal(const Unit *u, ResBuf *x, ResBuf *y)
{
	for (int p = 0; p < u->spec.nparams; p++)
		if (u->spec.params[p].role != ROLE_IN &&
		    (x[p].nbytes != y[p].nbytes || memcmp(x[p].data, y[p].data, x[p].nbytes)))
			return false;
	return true;
}

/* Results move: run the case again in a fresh process; a call whose
 * outputs differ bitwise between the two runs, where the original's repeats
 * agree, is nondeterminism (a race), not state kept between calls. */
static bool moves_between_runs(VerifyRef *r, const Case *c, const char *exe, Results *res)
{
	int first = -1, last = -1;
	for (int i = 0; !c->calls && i < r->ncalls && i < c->ref.ncalls; i++)
		if (r->calls[i].base == CALL_REPEAT)
			last = i, first = first < 0 ? i : first;
	if (first >= 0 && !outputs_equal(r->u, c->ref.calls[first], c->ref.calls[last]))
		return false; /* the original itself is not bitwise repeatable */
	Results again;
	const char *log;
	vr_run_harness(r, exe, c->plan, "again", vr_limit(r, c->ref_wall), &again, &log);
	for (int i = 0; i < res->ncalls && i < again.ncalls; i++)
		if (!outputs_equal(r->u, res->calls[i], again.calls[i]))
			return true;
	return false;
}

static int check_case(VerifyRef *r, Case *c, const char *exe, Verdict *v)
{
	Results res;
	const char *log;
	v->shape = c->text;
	/* The sweep's many small calls: an OpenMP candidate pays a fork-join per
	 * call that a serial original does not, and on a loaded machine that is
	 * milliseconds each: 0.1 s a call on top of the limit. */
	double extra = c->calls ? 0.1 * c->ncalls : 0;
	VerifyReason run = vr_run_harness(r, exe, c->plan, "cand", vr_limit(r, c->ref_wall) + extra,
	                                  &res, &log);
	/* Out of time: the limit came from the original's time, measured when
	 * the machine may have been quieter. If the original, run again now,
	 * is much slower too, the machine is: try once more with the new limit. */
	if (run == VR_TIMEOUT && vr_recalibrate(r, c->plan, &c->ref_wall) == 1)
		run = vr_run_harness(r, exe, c->plan, "cand", vr_limit(r, c->ref_wall) + extra, &res,
		                     &log);
	const PlanCall *calls = c->calls ? c->calls : r->calls;
	int ncalls = c->calls ? c->ncalls : r->ncalls;
	int n = res.ncalls < ncalls ? res.ncalls : ncalls;
	for (int i = 0; i < n; i++) {
		v->check = calls[i].what;
		v->seed = calls[i].seed;
		if (c->call_case)
			v->shape = c->call_case[i]->text;
		VerifyReason why = vr_compare_call(r, c, i, res.calls[i], v);
		v->ncalls++;
		if (why == VR_OK)
			continue;
		int kind = calls[i].base;
		if (why == VR_PRECISION && !exact_passes(r, c, &res, i))
			v->reason = VR_WRONG;
		if (value_reason(why) && moves_between_runs(r, c, exe, &res))
			v->reason = VR_NONDETERMINISTIC;
		else if (value_reason(why) && (kind == CALL_A2 || kind == CALL_PERTURB))
			v->reason = VR_STATEFUL;
		else if (value_reason(why) && kind == CALL_B && b_alone_passes(r, c, exe, i))
			v->reason = VR_STATEFUL;
		else if (value_reason(why) && kind == CALL_REPEAT)
			v->reason = VR_STATEFUL;
		if (v->reason == VR_STATEFUL)
			v->summary = arena_printf(r->a, "right on the first call, wrong on a later one "
			                                "in the same process: %s", v->summary);
		if (v->reason == VR_NONDETERMINISTIC)
			v->summary = arena_printf(r->a, "results move between repeats of the same "
			                                "call: %s", v->summary);
		return -1;
	}
	if (run != VR_OK) {
		v->check = n < ncalls ? calls[n].what : "exit";
		v->seed = n < ncalls ? calls[n].seed : 0;
		if (c->call_case && n < ncalls)
			v->shape = c->call_case[n]->text;
		v->log = log;
		reject(v, run, arena_printf(r->a, "%s during call '%s'",
		                            run == VR_TIMEOUT       ? "timed out"
		                            : run == VR_CUDA_ERROR ? "a CUDA error"
		                            : run == VR_FORBIDDEN  ? "a system call the harness's "
		                                                     "sandbox denies"
		                                                   : "the run failed",
		                            v->check));
		return -1;
	}
	return 0;
}

/* The smallest of the spec's own shapes. */
static int smallest_case(const VerifyRef *r)
{
	int small = -1;
	for (int i = 0; i < r->ncases; i++)
		if (!r->cases[i].edge && (small < 0 || r->cases[i].bytes < r->cases[small].bytes))
			small = i;
	return small < 0 ? 0 : small;
}

/* One run of a sanitizer build (no address-space limit: ASan reserves
 * terabytes of shadow it never touches). */
static VerifyReason run_sanitized(VerifyRef *r, const char *exe, const Case *c, const char **log)
{
	Results res;
	uint64_t mem = r->o.mem_bytes;
	r->o.mem_bytes = 0;
	VerifyReason vr = vr_run_harness(r, exe, c->plan, "san", vr_limit(r, c->ref_wall) * 4, &res,
	                                 log);
	r->o.mem_bytes = mem;
	return vr;
}

/* cpu's counterpart of compute-sanitizer: the candidate built with the
 * target's sanitizer flags (ASan + UBSan, guard zones poisoned, inputs
 * read-only during the call) runs the smallest case's calls once. The
 * original goes first, once: where it is not clean itself, the check is
 * skipped with a note rather than blamed on candidates. */
static int sanitize_build(VerifyRef *r, const Unit *cand, Verdict *v)
{
	const Case *c = &r->cases[smallest_case(r)];
	TargetBuilt tb;
	const char *why = "", *log;
	if (!r->san_state) {
		r->san_state = -1;
		const char *ref = vr_build_unit_flags(r, r->u, "ref-sanitize", false,
		                                      r->t->sanitize_flags, &tb, &why);
		VerifyReason vr = ref ? run_sanitized(r, ref, c, &log) : VR_BUILD;
		if (vr == VR_OK)
			r->san_state = 1;
		else
			vr_ref_note(r, arena_printf(r->a, "no sanitizer run: the original is not clean "
			                                  "under %s (%s)",
			                            r->t->sanitize_flags[0], verify_reason_name(vr)));
	}
	if (r->san_state != 1)
		return 0;
	const char *exe = vr_build_unit_flags(r, cand, r->cand_dir, false, r->t->sanitize_flags,
	                                      &tb, &why);
	VerifyReason vr = exe ? run_sanitized(r, exe, c, &log) : VR_BUILD;
	if (vr == VR_OK)
		return 0;
	v->check = "sanitizer";
	v->shape = c->text;
	v->log = exe ? log : tb.log;
	reject(v, VR_SANITIZER,
	       arena_printf(r->a, "the %s build %s", r->t->sanitize_flags[0],
	                    vr == VR_BUILD ? "does not build" : "reported an error (guard zones "
	                                                        "poisoned, inputs read-only)"));
	return -1;
}

static int sanitize(VerifyRef *r, const char *exe, Verdict *v)
{
	if (r->t->sanitize_flags && r->o.sanitizer && r->ncases && r->last_cand)
		return sanitize_build(r, r->last_cand, v);
	if (!r->t->sanitize || !r->o.sanitizer || !r->ncases)
		return 0;
	/* The smallest of the spec's own shapes: kcc's all-ones edge shape is
	 * one tile, where a missing barrier between tiles has nothing to race
	 * with (seen on the H100: racecheck silent at 1x1x1, a race at 37x53). */
	int small = -1;
	for (int i = 0; i < r->ncases; i++)
		if (!r->cases[i].edge && (small < 0 || r->cases[i].bytes < r->cases[small].bytes))
			small = i;
	if (small < 0)
		small = 0;
	/* compute-sanitizer launches the harness itself: the plan goes in a file
	 * in the candidate's own directory and the results nowhere (fd -1). */
	const char *body = vr_write_plan(r, &r->cases[small], 0, 1, "sanitize.plan");
	char *cwd = arena_strdup(r->a, exe);
	*strrchr(cwd, '/') = 0;
	const char *plan = arena_printf(r->a, "%s/sanitize.plan", cwd);
	if (write_file(plan, arena_printf(r->a, "KCCP 2 -1 %s", body)))
		return 0;
	const char *argv[] = {exe, plan, NULL};
	const char *put[] = {plan, NULL};
	TargetRun tr = {.argv = argv, .cwd = cwd, .timeout_s = vr_limit(r, r->cases[small].ref_wall),
	                .fsize_bytes = r->o.fsize_bytes, .runner = r->o.runner, .put = put};
	TargetSanitized s;
	if (!plan || r->t->sanitize(r->t, r->a, &tr, &s) != 0)
		return 0;
	if (!s.ran) {
		vr_verdict_note(r->a, v, "compute-sanitizer is not installed: not run");
		return 0;
	}
	if (s.clean)
		return 0;
	v->check = "sanitizer";
	v->shape = r->cases[small].text;
	v->log = s.log;
	reject(v, VR_SANITIZER, arena_printf(r->a, "compute-sanitizer %s reported errors",
	                                     s.tool));
	return -1;
}

/* The original's run of call A at the bench shape, once per reference. */
static int bench_case_ready(VerifyRef *r)
{
	if (r->bcase_state)
		return r->bcase_state;
	r->bcase_state = -1;
	Case *c = &r->bcase;
	const char *why = "", *log;
	if (vr_make_case(r, &r->u->spec.bench, false, c, &why) != 0) {
		vr_ref_note(r, arena_printf(r->a, "the bench shape is not compared: %s", why));
		return -1;
	}
	c->plan = vr_write_plan(r, c, 0, 1, "");
	VerifyReason vr = vr_run_harness(r, r->ref_exe, c->plan, "ref", r->o.ceiling_s, &c->ref,
	                                 &log);
	if (vr != VR_OK || c->ref.ncalls != 1) {
		vr_ref_note(r, arena_printf(r->a, "the bench shape is not compared: the original "
		                                  "fails there (%s)", verify_reason_name(vr)));
		return -1;
	}
	c->ref_wall = c->ref.wall_s;
	if (r->y64_exe) {
		vr = vr_run_harness(r, r->y64_exe, c->plan, "f64", r->o.ceiling_s, &c->y64, &log);
		c->have_y64 = vr == VR_OK && c->y64.ncalls == 1;
	}
	r->bcase_state = 1;
	return 1;
}

/* kcc --check keeps the search's promise (DESIGN 5.8, issue 17): one call
 * at the bench shape, compared like the others; a value failure there
 * only is "bench-shape". */
static int bench_shape_check(VerifyRef *r, const char *exe, Verdict *v)
{
	v->bench_shape = r->o.bench_shape == VB_SKIPPED ? VB_SKIPPED : VB_OFF;
	if (r->o.bench_shape != VB_COMPARE || !r->u->spec.has_bench)
		return 0;
	if (vr_ref_intact(r) != 0) {
		v->check = "bench shape";
		reject(v, VR_FORBIDDEN, "the candidate changed or replaced the reference's harness "
		                        "on disk (tampering; restored)");
		return -1;
	}
	if (bench_case_ready(r) != 1)
		return 0;
	const Case *c = &r->bcase;
	Results res;
	const char *log;
	v->shape = c->text;
	v->check = r->calls[0].what;
	v->seed = r->calls[0].seed;
	VerifyReason run = vr_run_harness(r, exe, c->plan, "cand", vr_limit(r, c->ref_wall), &res,
	                                  &log);
	if (res.ncalls >= 1) {
		VerifyReason why = vr_compare_call(r, c, 0, res.calls[0], v);
		v->ncalls++;
		if (value_reason(why)) {
			v->reason = VR_BENCH_SHAPE;
			v->summary = arena_printf(r->a, "wrong at the bench shape only: %s", v->summary);
			return -1;
		}
		if (why != VR_OK)
			return -1;
	}
	if (run != VR_OK) {
		v->log = log;
		reject(v, run, arena_printf(r->a, "%s at the bench shape", verify_reason_name(run)));
		return -1;
	}
	v->bench_shape = VB_COMPARE;
	return 0;
}

/* The built candidate, structurally: no code before main beyond the
 * reference harness's own, no definition of a function the harness calls. */
static int elf_check(VerifyRef *r, const char *exe, Verdict *v)
{
	ElfFacts f;
	if (!r->have_ref_elf || elf_inspect(r->a, exe, &f) != 0)
		return 0;
	const char *bad = elf_forbidden(&r->ref_elf, &f);
	v->check = "static (the built executable)";
	if (f.init_entries > r->ref_elf.init_entries) {
		reject(v, VR_FORBIDDEN, arena_printf(r->a, "the candidate adds code that runs before "
		                                           "main (%d .init_array/.ctors entries, the "
		                                           "reference has %d)",
		                                     f.init_entries, r->ref_elf.init_entries));
		return -1;
	}
	if (bad) {
		reject(v, VR_FORBIDDEN, arena_printf(r->a, "the candidate defines '%s', a function "
		                                           "the harness calls (interposition)",
		                                     bad));
		return -1;
	}
	return 0;
}

static int candidate_verdict(VerifyRef *r, const Unit *cand, Verdict *v);

/* A runner that failed (connection lost, job cancelled) is kcc's failure,
 * never the candidate's: no verdict then. */
int verify_candidate(VerifyRef *r, const Unit *cand, Verdict *v)
{
	int rc = candidate_verdict(r, cand, v);
	if (runner_failed(r->o.runner)) {
		diag_error("%s", runner_failed(r->o.runner));
		return -1;
	}
	return rc;
}

static int candidate_verdict(VerifyRef *r, const Unit *cand, Verdict *v)
{
	memset(v, 0, sizeof *v);
	v->index = -1;
	for (int i = 0; i < r->nnotes; i++)
		vr_verdict_note(r->a, v, r->notes[i]);
	if (!r->dir)
		return -1;
	if (static_checks(r, cand, v))
		return 0;
	if (vr_ref_intact(r) > 0)
		vr_verdict_note(r->a, v, "the reference's harness had been changed by an earlier "
		                         "candidate and was restored");
	TargetBuilt tb;
	const char *why = "cannot create a work dir";
	const char *sub = vr_cand_dir(r);
	r->ncand++;
	const char *exe = sub ? vr_build_unit(r, cand, sub, false, &tb, &why) : NULL;
	r->last_cand = cand;
	r->last_exe = exe;
	if (!exe) {
		v->check = "build";
		v->log = tb.log ? proc_tail(tb.log, 30) : why;
		reject(v, VR_BUILD, tb.cmdline ? arena_printf(r->a, "the compiler rejected it: %s",
		                                              tb.cmdline)
		                               : why);
		return 0;
	}
	if (elf_check(r, exe, v))
		return 0;
	prefetch(r, (const char *[]){exe}, (const char *[]){"cand"}, 1);
	for (int i = 0; i < r->ncases; i++)
		if (check_case(r, &r->cases[i], exe, v)) {
			prefetch_drop(r);
			return 0;
		}
	if (bench_shape_check(r, exe, v))
		return 0;
	if (sanitize(r, exe, v))
		return 0;
	v->reason = VR_OK;
	v->check = NULL;
	v->shape = NULL;
	v->summary = "equivalent";
	if (r->o.keep_temps)
		v->tmpdir = r->dir;
	return 0;
}

/* The `#pragma kcc` lines other than tune, whitespace-normalised. */
static char *pragma_lines(Arena *a, const char *text, size_t len)
{
	Strbuf sb = STRBUF_INIT;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		const char *q = p + strspn(p, " \t");
		if (q < e && !strncmp(q, "#pragma", 7)) {
			char *line = arena_strndup(a, q, (size_t)(e - q)), *tok, *save;
			Strbuf l = STRBUF_INIT;
			for (tok = strtok_r(line, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save))
				sb_addf(&l, "%s ", tok);
			if (!strncmp(sb_str(&l), "#pragma kcc ", 12) && strncmp(sb_str(&l) + 12, "tune ", 5))
				sb_addf(&sb, "%s\n", sb_str(&l));
			sb_release(&l);
		}
		p = e + 1;
	}
	return sb_to_arena(&sb, a);
}

static bool defines_entry(const char *text, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
		bool start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		const char *q = p + n;
		while (*q == ' ' || *q == '\t' || *q == '\n')
			q++;
		if (start && *q == '(')
			return true;
	}
	return false;
}

void verify_unparsed(VerifyRef *r, const char *path, const char *text, size_t len,
                     Verdict *v)
{
	memset(v, 0, sizeof *v);
	v->index = -1;
	v->check = "static";
	const char *what;
	int line;
	bool streams;
	const char *mine = pragma_lines(r->a, text, len);
	if (!*mine) /* not a kernel file at all (prose, a refusal) */
		reject(v, VR_PARSE, "the candidate does not parse (no `#pragma kcc` lines)");
	else if (strcmp(pragma_lines(r->a, r->u->text, r->u->len), mine))
		reject(v, VR_PRAGMA, "the `#pragma kcc` lines changed (only `tune` may be added)");
	else if (verify_scan(text, len, r->u->lang, r->o.allow_libs, &what, &line, &streams))
		reject(v, VR_FORBIDDEN, arena_printf(r->a, "%s:%d: %s", path, line, what));
	else if (!defines_entry(text, r->u->spec.entry))
		reject(v, VR_SIGNATURE, arena_printf(r->a, "the entry '%s' is missing",
		                                     r->u->spec.entry));
	else
		reject(v, VR_PARSE, "the candidate does not parse");
}

int verify_check(Arena *a, const Unit *ref, const Unit *cand, const VerifyOptions *o,
                 Verdict *out)
{
	VerifyRef *r;
	memset(out, 0, sizeof *out);
	int rc = verify_ref_prepare(a, ref, o, &r);
	if (rc == 0)
		rc = verify_candidate(r, cand, out);
	if (o->keep_temps && r->dir)
		out->tmpdir = r->dir;
	verify_ref_release(r);
	return rc;
}

