/*
 * reference.c — the reference (DESIGN 5.2-5.4): the original, built as
 * written and promoted to f64 (where it builds that way), run once over
 * the whole matrix in its own processes; its records are what every
 * candidate is compared with. A shape where the original fails is the
 * user's error (an edge shape of kcc's own is dropped instead); outputs
 * that cannot tell right from wrong get a note. Its executables are kept
 * out of the candidates' reach: their bytes and hashes are remembered and
 * restored if a candidate changed them.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Why the original's own run of case c is unusable, or NULL. */
static const char *ref_problem(VerifyRef *r, const Case *c)
{
	const Spec *sp = &r->u->spec;
	if (c->ref.ncalls != c->ncalls)
		return "it did not complete the calls";
	int a2 = vr_call_index(r, CALL_A2);
	for (int i = 0; i < c->ncalls; i++)
		for (int p = 0; p < sp->nparams; p++) {
			const ResBuf *b = &c->ref.calls[i][p];
			const SpecParam *pp = &sp->params[p];
			if (!b->guard_ok)
				return arena_printf(r->a, "it writes outside '%s'", pp->name);
			if (pp->role == ROLE_IN && b->hash_after != b->hash_before)
				return arena_printf(r->a, "it modifies the input '%s'", pp->name);
			if (pp->role == ROLE_OUT && c->calls[i].base == CALL_A &&
			    vr_has_poison(r, pp->type, b, a2 >= 0 ? &c->ref.calls[a2][p] : NULL))
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

static int run_reference_case(VerifyRef *r, Case *c)
{
	const char *log;
	c->plan = vr_write_plan(r, c, c->calls, c->ncalls);
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
		c->have_y64 = vr == VR_OK && c->y64.ncalls == c->ncalls;
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
	vr_make_calls(r);
	if (vr_make_cases(r) || build_reference(r)) {
		if (runner_failed(r->o.runner))
			diag_error("%s", runner_failed(r->o.runner));
		return -1;
	}
	if (r->o.runner && r->o.runner->batch) { /* all cases as one batch (slurm) */
		for (int i = 0; i < r->ncases; i++) /* the plans run_reference_case writes */
			r->cases[i].plan = vr_write_plan(r, &r->cases[i], r->cases[i].calls,
			                                 r->cases[i].ncalls);
		vr_prefetch(r, (const char *[]){r->ref_exe, r->y64_exe}, (const char *[]){"ref", "f64"},
		         2);
	}
	for (int i = 0; i < r->ncases; i++) {
		int rc = run_reference_case(r, &r->cases[i]);
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
	vr_prepare_sweep(r);
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

int vr_bench_case(VerifyRef *r)
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
	c->ncalls = 1; /* call A */
	c->plan = vr_write_plan(r, c, c->calls, c->ncalls);
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
