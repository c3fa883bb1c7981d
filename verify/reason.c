/*
 * reason.c — the verdict vocabulary, options defaults and the printing of
 * verdicts: the words reports, tests and mutant tags share.
 */
#include "internal.h"

#include <string.h>

static const char *const NAMES[VR__COUNT] = {
    [VR_OK] = "ok",
    [VR_PARSE] = "parse",
    [VR_SIGNATURE] = "signature",
    [VR_PRAGMA] = "pragma",
    [VR_FORBIDDEN] = "forbidden",
    [VR_BUILD] = "build",
    [VR_CRASH] = "crash",
    [VR_TIMEOUT] = "timeout",
    [VR_CUDA_ERROR] = "cuda-error",
    [VR_UNWRITTEN] = "unwritten",
    [VR_WRONG] = "wrong",
    [VR_NAN] = "nan",
    [VR_INPUT_MODIFIED] = "input-modified",
    [VR_GUARD] = "guard",
    [VR_STATEFUL] = "stateful",
    [VR_NONDETERMINISTIC] = "nondeterministic",
    [VR_BENCH_SHAPE] = "bench-shape",
    [VR_SANITIZER] = "sanitizer",
    [VR_ESCAPED] = "escaped",
    [VR_PRECISION] = "precision",
    [VR_IMPLAUSIBLE] = "implausible",
};

const char *verify_reason_name(VerifyReason r)
{
	return r < VR__COUNT && NAMES[r] ? NAMES[r] : "unknown";
}

VerifyReason verify_reason_parse(const char *name)
{
	for (int i = 0; i < VR__COUNT; i++)
		if (NAMES[i] && !strcmp(NAMES[i], name))
			return (VerifyReason)i;
	return VR__COUNT;
}

void verify_options_default(VerifyOptions *o)
{
	memset(o, 0, sizeof *o);
	o->nseeds = 3;
	o->repeats = 3;
	o->edge_shapes = true;
	o->exact_mode = true;
	o->fp64_reference = true;
	o->sanitizer = true;
	o->sandbox = true;
	o->timeout_s = 10;
	o->ceiling_s = 600;
	o->limit_factor = 4;
	o->mem_bytes = 16ull << 30;
	o->fsize_bytes = 8ull << 30;
	o->delta = 0.03;
	o->rounds = 3;
	o->warmup_s = 0.025;
	o->cap_s = 1.0;
	o->min_samples = 30;
	o->max_samples = 2000;
	o->rel_se = 0.01;
}

void verify_print_verdict(FILE *f, const Verdict *v)
{
	if (v->reason == VR_OK)
		fprintf(f, "kcc: check: equivalent (%d calls compared%s; max abs error %.3g, "
		           "normwise %.3g, rel L2 %.3g)\n",
		        v->ncalls,
		        v->bench_shape == VB_COMPARE   ? ", the bench shape's included"
		        : v->bench_shape == VB_SKIPPED ? "; bench shape NOT compared (--no-bench-shape)"
		                                       : "",
		        v->max_abs, v->max_rel, v->rel_l2);
	else
		fprintf(f, "kcc: check: rejected: %s: %s\n", verify_reason_name(v->reason),
		        v->summary ? v->summary : "");
	if (v->reason != VR_OK && v->shape)
		fprintf(f, "kcc: note: check '%s' at shape %s, seed 0x%016llx\n",
		        v->check ? v->check : "?", v->shape, (unsigned long long)v->seed);
	for (int i = 0; i < v->nnotes; i++)
		fprintf(f, "kcc: note: %s\n", v->notes[i]);
	if (v->log && *v->log && v->reason != VR_OK)
		fprintf(f, "%s%s", v->log, v->log[strlen(v->log) - 1] == '\n' ? "" : "\n");
	if (v->tmpdir)
		fprintf(f, "kcc: note: files kept in %s\n", v->tmpdir);
}

void vr_reject(Verdict *v, VerifyReason why, const char *summary)
{
	v->reason = why;
	v->summary = summary;
}

void vr_verdict_note(Arena *a, Verdict *v, const char *note)
{
	for (int i = 0; i < v->nnotes; i++)
		if (!strcmp(v->notes[i], note))
			return;
	size_t n = (size_t)v->nnotes, cap = (size_t)v->capnotes;
	ARENA_PUSH(a, v->notes, n, cap, note);
	v->nnotes = (int)n;
	v->capnotes = (int)cap;
}

void vr_ref_note(VerifyRef *r, const char *note)
{
	for (int i = 0; i < r->nnotes; i++)
		if (!strcmp(r->notes[i], note))
			return;
	size_t n = (size_t)r->nnotes, cap = (size_t)r->capnotes;
	ARENA_PUSH(r->a, r->notes, n, cap, note);
	r->nnotes = (int)n;
	r->capnotes = (int)cap;
}
