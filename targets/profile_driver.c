/*
 * profile_driver.c — the program a profiler runs, and running it. The
 * driver is generated from the spec (not the verifier's harness: no guard
 * zones, no plan file, nothing timed): it fills the inputs
 * (programs/profile_driver.h), then calls the entry once from
 * kcc_profile_calls(), a function the profiler can isolate (callgrind's
 * --toggle-collect), so the counts are the kernel's and not the input
 * filling's. target_profile writes it beside the kernel in a scratch dir,
 * builds it with the target's profile flags and runs t->profile.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the driver ------------------------------------------------------------------ */

typedef struct {
	const Unit *u;
	const Shape *shape;
	Strbuf *sb;
	const char **why;
	Arena *a;
} Gen;

static const SpecParam *param_of(const Unit *u, const char *name)
{
	for (int i = 0; i < u->spec.nparams; i++)
		if (!strcmp(u->spec.params[i].name, name))
			return &u->spec.params[i];
	return NULL;
}

static int fill_kind(ElemType t)
{
	if (t == ET_F32)
		return 0;
	if (t == ET_F64)
		return 1;
	return elem_is_float(t) ? 3 : 2;
}

/* Allocate and fill buffer p (kcc_bN) in main(). */
static int gen_buffer(Gen *g, int i)
{
	const SpecParam *p = &g->u->spec.params[i];
	int64_t n = 0, lo = 0, hi = 0;
	const char *why = NULL;
	if (spec_extent(p, g->shape, &n, &why) != 0) {
		*g->why = arena_printf(g->a, "extent of %s: %s", p->name, why ? why : "?");
		return -1;
	}
	if (p->lo && p->hi && (expr_eval(p->lo, g->shape, &lo, &why, NULL) != 0 ||
	                       expr_eval(p->hi, g->shape, &hi, &why, NULL) != 0)) {
		*g->why = arena_printf(g->a, "range of %s: %s", p->name, why ? why : "?");
		return -1;
	}
	if (!p->lo) /* no range: small non-negative values, safe as indices too */
		lo = 0, hi = 7;
	size_t es = elem_size(p->type);
	Strbuf *sb = g->sb;
	sb_addf(sb, "\t{\n\t\tsize_t bytes = (size_t)%lldLL * %zu + 64;\n", (long long)n, es);
	sb_addf(sb, "\t\tunsigned char *h = (unsigned char *)malloc(bytes);\n\t\tif (!h) return 5;\n");
	sb_addf(sb, "\t\tkcc_fill(h, %lldLL, %d, %zu, %lldLL, %lldLL);\n", (long long)n,
	        fill_kind(p->type), es, (long long)lo, (long long)hi);
	if (g->u->lang == LANG_CUDA)
		sb_addf(sb, "\t\tif (cudaMalloc(&kcc_b%d, bytes) != cudaSuccess) return 3;\n"
		            "\t\tcudaMemcpy(kcc_b%d, h, bytes, cudaMemcpyHostToDevice);\n"
		            "\t\tfree(h);\n",
		        i, i);
	else
		sb_addf(sb, "\t\tkcc_b%d = h;\n", i);
	sb_adds(sb, "\t}\n");
	return 0;
}

/* The entry's arguments: buffers by name, scalars from the shape. */
static int gen_call(Gen *g)
{
	const Unit *u = g->u;
	Strbuf *sb = g->sb;
	/* through a volatile pointer: the entry keeps its own name in the
	 * profile instead of being inlined into kcc_profile_calls */
	sb_addf(sb, "\t__typeof__(%s) *volatile kcc_fn = %s;\n\tkcc_fn(", u->spec.entry,
	        u->spec.entry);
	for (int i = 0; i < u->nparams; i++) {
		const CParam *c = &u->params[i];
		sb_adds(sb, i ? ", " : "");
		const SpecParam *p = param_of(u, c->name);
		if (c->is_pointer && p) {
			sb_addf(sb, "(%s)kcc_b%d", c->cast ? c->cast : c->type,
			        (int)(p - u->spec.params));
			continue;
		}
		bool found = false;
		int64_t v = shape_get(g->shape, c->name, &found);
		if (c->is_pointer || !found) {
			*g->why = arena_printf(g->a, "parameter %s is neither a buffer of the spec "
			                             "nor a name of the shape", c->name);
			return -1;
		}
		if (c->is_float_scalar)
			sb_addf(sb, "(%s)%.17g", c->type, shape_get_real(g->shape, c->name, &found));
		else
			sb_addf(sb, "(%s)%lldLL", c->type, (long long)v);
	}
	sb_adds(sb, ");\n");
	return 0;
}

char *target_profile_driver(Arena *a, const Unit *u, const Shape *shape,
                            const char *kernel_file, uint64_t flush_bytes, const char **why)
{
	size_t hlen;
	const char *head = target_program("profile_driver.h", &hlen);
	if (!head) {
		*why = "programs/profile_driver.h is not in this kcc";
		return NULL;
	}
	Strbuf body = STRBUF_INIT, sb = STRBUF_INIT;
	Gen g = {u, shape, &body, why, a};
	sb_addn(&sb, head, hlen);
	sb_addf(&sb, "#include \"%s\"\n", kernel_file);
	for (int i = 0; i < u->spec.nparams; i++)
		sb_addf(&sb, "static void *kcc_b%d;\n", i);
	sb_adds(&sb, "__attribute__((noinline)) void kcc_profile_calls(void)\n{\n");
	int rc = gen_call(&g);
	sb_addn(&sb, body.buf ? body.buf : "", body.len);
	sb_reset(&body);
	sb_adds(&sb, "}\n\nint main(void)\n{\n");
	for (int i = 0; rc == 0 && i < u->spec.nparams; i++)
		rc = gen_buffer(&g, i);
	sb_addn(&sb, body.buf ? body.buf : "", body.len);
	sb_release(&body);
	/* caches cold, as the timed runs have them (they flush before each) */
	sb_addf(&sb, "\t{\n\t\tsize_t n = %lluULL;\n"
	             "\t\tvolatile unsigned char *f = (volatile unsigned char *)malloc(n);\n"
	             "\t\tfor (size_t i = 0; f && i < n; i += 64) f[i] = (unsigned char)i;\n"
	             "\t\tfree((void *)f);\n\t}\n", (unsigned long long)flush_bytes);
	sb_adds(&sb, "\tkcc_profile_calls();\n");
	if (u->lang == LANG_CUDA)
		sb_adds(&sb, "\tif (cudaDeviceSynchronize() != cudaSuccess) return 3;\n");
	sb_adds(&sb, "\treturn 0;\n}\n");
	if (rc != 0) {
		sb_release(&sb);
		return NULL;
	}
	return sb_to_arena(&sb, a);
}

/* ---- running ---------------------------------------------------------------- */

double target_eval(const Expr *e, const Shape *sh)
{
	int64_t v = 0;
	const char *why;
	return e && expr_eval(e, sh, &v, &why, NULL) == 0 ? (double)v : 0;
}

/* A simulating profiler (callgrind) runs ~50x slower than native: the
 * bench shape only when that still fits a minute. */
const Shape *target_profile_shape(const Target *t, const Unit *u)
{
	const Spec *sp = &u->spec;
	if (sp->has_bench && !t->profile_slow)
		return &sp->bench;
	if (sp->has_bench) {
		double bytes = 0;
		for (int i = 0; i < sp->nparams; i++) {
			int64_t n = 0;
			const char *why;
			if (spec_extent(&sp->params[i], &sp->bench, &n, &why) == 0)
				bytes += (double)n * (double)elem_size(sp->params[i].type);
		}
		if (target_eval(sp->flops, &sp->bench) <= 3e8 && bytes <= 256e6)
			return &sp->bench;
	}
	const Shape *best = sp->ncheck ? &sp->check[0] : NULL;
	for (int i = 1; i < sp->ncheck; i++) {
		double a = 1, b = 1;
		for (int k = 0; k < sp->check[i].n; k++)
			a *= (double)sp->check[i].values[k];
		for (int k = 0; k < best->n; k++)
			b *= (double)best->values[k];
		if (a > b)
			best = &sp->check[i];
	}
	return best;
}

static char *shape_text(Arena *a, const Shape *s)
{
	Strbuf sb = STRBUF_INIT;
	for (int i = 0; i < s->n; i++)
		sb_addf(&sb, "%s%s=%lld", i ? " " : "", s->names[i], (long long)s->values[i]);
	return sb_to_arena(&sb, a);
}

int target_profile(const Target *t, Arena *a, const Unit *u, const Shape *shape,
                   const char *tmpdir, double timeout_s, Profile *out)
{
	return target_profile_ask(t, a, u, shape, tmpdir, timeout_s, NULL, out);
}

int target_profile_ask(const Target *t, Arena *a, const Unit *u, const Shape *shape,
                       const char *tmpdir, double timeout_s, const ProfileAsk *ask,
                       Profile *out)
{
	memset(out, 0, sizeof *out);
	out->ask = ask;
	out->shape = shape_text(a, shape);
	out->notes = "";
	if (!t->profile) {
		profile_note(a, out, "the %s target has no profiler", t->name);
		return -1;
	}
	char *dir = scratch_make(a, tmpdir ? tmpdir : "/tmp", "kcc-profile");
	if (!dir) {
		profile_note(a, out, "cannot make a directory under %s: %s", tmpdir, strerror(errno));
		return -1;
	}
	const char *kfile = arena_printf(a, "kernel%s", t->src_ext);
	const char *src = arena_printf(a, "%s/driver%s", dir, t->src_ext);
	const char *exe = arena_printf(a, "%s/driver", dir);
	const char *why = NULL;
	TargetInfo info;
	t->describe(t, a, &info);
	char *text = target_profile_driver(a, u, shape, kfile, info.flush_bytes, &why);
	if (!text || file_write_atomic(arena_printf(a, "%s/%s", dir, kfile), u->text, u->len) ||
	    file_write_atomic(src, text, strlen(text))) {
		profile_note(a, out, "no profile driver: %s", why ? why : strerror(errno));
		return -1;
	}
	TargetBuild b = {.dir = dir, .src = src, .exe = exe, .flags = t->profile_flags,
	                 .project = true, .cand_flags = u->build_flags};
	TargetBuilt tb;
	int rc = -1;
	if (t->build(t, a, &b, &tb) != 0) {
		profile_note(a, out, "the profile driver does not build (%s): %s", tb.cmdline,
		             proc_tail(tb.log ? tb.log : "", 5));
	} else {
		const char *argv[] = {exe, NULL};
		TargetProfileRun r = {.argv = argv, .cwd = dir, .timeout_s = timeout_s,
		                      .build_log = tb.log, .collect = "kcc_profile_calls",
		                      .keep = ask && ask->keep};
		rc = t->profile(t, a, &r, out);
	}
	if (ask && ask->keep) {
		out->kept = dir;
		return rc;
	}
	scratch_remove(dir);
	return rc;
}
