/*
 * rules.c — what the plan and implement prompts say about the machine and
 * the rules, filled from the same data the rest of kcc acts on, so a prompt
 * never promises what the verifier does not do: the device and its peak
 * rates per unit (measured; the roofline's), this kernel's place on the
 * roofline against the peak of its compute type (the tensor cores' for an
 * fp16 GEMM), the limits a kernel is written against (shared memory per
 * block with the opt-in, registers), the exact build line, the inline-asm
 * rules as the scan applies them (verify_asm_rules), how each output is
 * compared (verify_tolerance_text) and what the verifier checks. The words
 * live in passes/prompts/hardware.txt and rules.txt.
 */
#include "internal.h"

#include <string.h>

static const char *tmpl(const char *name)
{
	const char *t = passes_builtin(name, NULL);
	return t ? t : "";
}

static const char *kib(Arena *a, uint64_t b)
{
	return arena_printf(a, "%llu KiB", (unsigned long long)(b >> 10));
}

/* cuda: shared memory and registers (cpu: the summary has the caches). */
static const char *limits(Search *s)
{
	const TargetInfo *i = &s->info;
	Strbuf sb = STRBUF_INIT;
	if (i->smem_block) {
		sb_addf(&sb, "- shared memory: %s per block as declared (static or dynamic)",
		        kib(s->a, i->smem_block));
		if (i->smem_block_optin > i->smem_block)
			sb_addf(&sb, "; up to %s per block as dynamic shared memory after "
			        "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, "
			        "bytes) in the entry before the launch",
			        kib(s->a, i->smem_block_optin));
		if (i->smem_sm)
			sb_addf(&sb, "; %s per SM, shared by the blocks resident on it",
			        kib(s->a, i->smem_sm));
		sb_adds(&sb, "\n");
	}
	if (i->regs_sm || i->regs_block)
		sb_addf(&sb, "- registers: at most 255 per thread; %d per block, %d per SM (registers "
		        "per thread x threads per SM above that lowers occupancy; "
		        "__launch_bounds__ caps them)\n", i->regs_block, i->regs_sm);
	if (i->threads_sm)
		sb_addf(&sb, "- threads: at most 1024 per block, %d resident per SM\n", i->threads_sm);
	return sb.len ? sb_to_arena(&sb, s->a) : "";
}

/* Where this kernel sits: the spec's intensity against the ridge point of
 * its compute type's peak. */
static const char *roofline(Search *s)
{
	const Spec *sp = &s->cfg->orig->spec;
	ElemType t = profile_compute_type(sp);
	PeakUnit unit;
	double pf = profile_peak_for(&s->peaks, t, &unit), pb = s->peaks.gbps;
	if (!(pf > 0) || !(pb > 0))
		return "";
	const char *line = arena_printf(s->a, "This kernel computes in %s: its roofline is "
	                                "%s at %.0f GFLOP/s and DRAM at %.0f GB/s (ridge "
	                                "point %.1f flop/byte)", elem_name(t),
	                                profile_peak_unit_name(unit), pf, pb, pf / pb);
	double flops = sp->has_bench ? target_eval(sp->flops, &sp->bench) : 0;
	double bytes = sp->has_bench ? target_eval(sp->bytes, &sp->bench) : 0;
	if (flops > 0 && bytes > 0) {
		double ai = flops / bytes;
		line = arena_printf(s->a, "%s; the spec's flops over its bytes at the bench shape "
		                    "are %.3g flop/byte, so it is %s-bound at best: the floor time "
		                    "is %.3g ms", line, ai, ai >= pf / pb ? "compute" : "memory",
		                    (ai >= pf / pb ? flops / (pf * 1e9) : bytes / (pb * 1e9)) * 1e3);
	}
	return arena_printf(s->a, "%s.\n", line);
}

const char *rules_hardware(Search *s)
{
	passes_peaks(s);
	const char *peaks = s->peaks.gflops > 0 || s->peaks.gbps > 0
	                        ? profile_peaks_text(s->a, &s->peaks)
	                        : "";
	/* the target's line may end in a note for people, "(the harness ...)" */
	const char *build = s->info.build_line ? s->info.build_line : "(not known)";
	const char *note = strstr(build, " (");
	if (note && build[strlen(build) - 1] == ')')
		build = arena_strndup(s->a, build, (size_t)(note - build));
	const char *names[] = {"DEVICE", "PEAKS", "ROOFLINE", "LIMITS", "BUILD"};
	const char *vals[] = {s->r->device, peaks, roofline(s), limits(s), build};
	char *h = prompt_fill(s->a, tmpl("prompts/hardware.txt"), names, vals, 5);
	size_t n = strlen(h);
	while (n && h[n - 1] == '\n')
		h[--n] = 0;
	return h;
}

const char *rules_text(Search *s)
{
	const Target *t = s->cfg->target;
	const char *san = "";
	if (t->sanitize && s->cfg->vo.sanitizer)
		san = t->lang == LANG_CUDA
		          ? "; compute-sanitizer (memcheck, racecheck, initcheck, synccheck) on "
		            "the smallest shape reports nothing"
		          : "; the target's sanitizer on the smallest shape reports nothing";
	const char *names[] = {"ASM", "TOLERANCE", "SANITIZER", "LIBS", "DELTA"};
	Strbuf tol = STRBUF_INIT; /* its "- " lines nested under the rules' item */
	const char *tt = verify_tolerance_text(s->a, s->ref);
	for (const char *l = tt; *l;) {
		size_t n = strcspn(l, "\n");
		sb_addf(&tol, "    %.*s\n", (int)n, l);
		l += n + (l[n] == '\n');
	}
	const char *vals[] = {
	    verify_asm_rules(s->a, s->cfg->orig->lang), sb_to_arena(&tol, s->a), san,
	    s->cfg->vo.allow_libs ? "vendor kernel libraries are allowed (--allow-libs)"
	                          : "no vendor kernel libraries (cuBLAS, cuDNN, CUTLASS, MKL, "
	                            "OpenBLAS, ...)",
	    arena_printf(s->a, "%.0f%%", (s->r->delta > 0 ? s->r->delta : 0.03) * 100)};
	return prompt_fill(s->a, tmpl("prompts/rules.txt"), names, vals, 5);
}
