/*
 * prompts.c — what kcc says to the LLM and how it reads the answers: the
 * plan, implement and repair requests, filled from the templates in
 * passes/prompts/ (template.c), and the parsers of a plan answer (its
 * option and its `Metrics:` lines) and of a code answer (one fenced
 * block). The prompts say what the current code measured, the best so far,
 * what its siblings did, the menu after dropout, the profile with each
 * metric's meaning, the hardware section and the rules. The hardware
 * section and the rules are filled from the same data the rest of kcc acts
 * on, so a prompt never promises what the verifier does not do: the device
 * and its peak rates per unit (measured; the roofline's), this kernel's
 * place on the roofline against the peak of its compute type (the tensor
 * cores' for an fp16 GEMM), the limits a kernel is written against (shared
 * memory per block with the opt-in, registers), the exact build line, the
 * inline-asm rules as the scan applies them (verify_asm_rules), how each
 * output is compared (verify_tolerance_text) and what the verifier checks.
 */
#include "internal.h"

#include <string.h>

static const char *tmpl(const char *name)
{
	const char *t = passes_builtin(name, NULL);
	return t ? t : "";
}

/* ---- what the code measured, what its siblings did --------------------------- */

static const char *measure_text(Search *s, const Candidate *c)
{
	if (!c->measured)
		return "not measured";
	if (s->r->unit)
		return arena_printf(s->a, "%.0f %s at %s (exact: any lower count is a gain); %.4fx "
		                    "fewer than the original", c->ms, s->r->unit,
		                    s->r->shape ? s->r->shape : "the bench shape", c->speedup);
	return arena_printf(s->a, "median %.4g ms (IQR %.4g-%.4g ms) at %s; %.2fx over the "
	                    "original (95%% CI %.2fx-%.2fx)", c->ms, c->ms_q1, c->ms_q3,
	                    s->r->shape ? s->r->shape : "the bench shape", c->speedup, c->lo,
	                    c->hi);
}

static const char *best_text(Search *s, int parent)
{
	const Candidate *b = &s->r->c[s->r->best];
	if (b->id == parent)
		return "The current code is the best verified version so far.";
	return arena_printf(s->a, "%s (%s): %s\n\n```%s\n%s```", b->id ? b->option : "the original",
	                    b->id ? arena_printf(s->a, "candidate %d", b->id) : "input",
	                    measure_text(s, b), s->fence, b->text);
}

/* Children of parent so far: regressions named as such, failures with
 * their reason, so the planner does not repeat them. Each distinct line
 * once: the same code sent back (a duplicate) or the same rejection of
 * another answer is counted on the first line, not listed again. */
static const char *history_text(Search *s, int parent)
{
	const Candidate *p = &s->r->c[parent];
	const char **line = arena_alloc(s->a, sizeof *line * (size_t)s->r->n);
	int *count = arena_alloc(s->a, sizeof *count * (size_t)s->r->n), n = 0;
	for (int i = 1; i < s->r->n; i++) {
		const Candidate *c = &s->r->c[i];
		if (c->parent != parent || *c->tune || !c->why)
			continue;
		const Candidate *k = c->duplicate ? &s->r->c[c->dup_of] : c;
		const char *l;
		if (!c->correct)
			l = arena_printf(s->a, "- %s: REJECTED by the verifier (%s: %s)", c->option,
			                 verify_reason_name(k->reason), k->why ? k->why : "");
		else if (c->measured && p->measured && c->hi < p->speedup)
			l = arena_printf(s->a, "- %s: REGRESSION, %.2fx against this code's %.2fx",
			                 c->option, c->speedup, p->speedup);
		else if (c->gain)
			l = arena_printf(s->a, "- %s: gain, %.2fx over the original", c->option,
			                 c->speedup);
		else if (c->duplicate && c->dup_of == parent)
			l = arena_printf(s->a, "- %s: the answer was this code unchanged", c->option);
		else
			l = arena_printf(s->a, "- %s: no measurable gain (%.2fx, inside the noise)",
			                 c->option, c->speedup);
		int j = 0;
		while (j < n && strcmp(line[j], l))
			j++;
		if (j == n)
			line[n] = l, count[n++] = 0;
		count[j]++;
	}
	if (!n)
		return "Nothing yet.";
	Strbuf sb = STRBUF_INIT;
	for (int j = 0; j < n; j++) {
		sb_adds(&sb, line[j]);
		if (count[j] > 1)
			sb_addf(&sb, " [%d answers]", count[j]);
		sb_addc(&sb, '\n');
	}
	return sb_to_arena(&sb, s->a);
}

/* What the menu's keep: lines are tested against, for version id. The
 * type is profile_compute_type's; the bound is the algorithm's (spec flops
 * over spec bytes against the ridge point of the peak the roofline uses for
 * that type: the tensor cores' for f16), not the current version's: a
 * naive GEMM may measure memory-bound, but what it can become is
 * compute-bound. */
static MenuFacts menu_facts(Search *s, int id)
{
	const Spec *sp = &s->cfg->orig->spec;
	ElemType t = profile_compute_type(sp);
	MenuFacts f = {.type = elem_name(t), .arch = s->info.arch,
	               .profile = s->r->c[id].profile};
	double flops = sp->has_bench ? target_eval(sp->flops, &sp->bench) : 0;
	double bytes = sp->has_bench ? target_eval(sp->bytes, &sp->bench) : 0;
	PeakUnit unit;
	double pf = profile_peak_for(&s->peaks, t, &unit);
	if (!(pf > 0))
		pf = s->info.peak_gflops;
	double pb = s->peaks.gbps > 0 ? s->peaks.gbps : s->info.peak_gbps;
	if (flops > 0 && bytes > 0 && pf > 0 && pb > 0)
		f.bound = flops / bytes >= pf / pb ? "compute" : "memory";
	return f;
}

/* The menu after dropout: each option left out with probability p, except
 * those a keep: line holds for (the current code's facts and profile point
 * to them), which are always shown and say why. */
static const char *menu_text(Search *s, int parent, const char *forced)
{
	const Menu *m = s->cfg->menu;
	Strbuf sb = STRBUF_INIT;
	bool *keep = arena_alloc(s->a, (size_t)m->nopts + 1);
	const char **why = arena_alloc(s->a, sizeof *why * ((size_t)m->nopts + 1));
	int kept = 0;
	double p = s->cfg->dropout < 0 ? 0.7 : s->cfg->dropout;
	MenuFacts f = menu_facts(s, parent);
	for (int i = 0; i < m->nopts; i++) {
		/* draw for every option, so the dropout of the others does not
		 * depend on which are kept */
		bool drawn = (double)(passes_rand(&s->rng) >> 11) / 9007199254740992.0 >= p;
		why[i] = forced ? NULL : menu_keeps(&m->opts[i], &f);
		if (forced)
			keep[i] = !strcmp(m->opts[i].name, forced);
		else
			keep[i] = drawn || why[i];
		kept += keep[i];
	}
	if (!kept && m->nopts && !forced)
		keep[passes_rand(&s->rng) % (uint64_t)m->nopts] = true;
	for (int i = 0; i < m->nopts; i++) {
		if (!keep[i])
			continue;
		sb_addf(&sb, "- **%s**: %s\n  Applies: %s\n  Signals: %s\n", m->opts[i].name,
		        m->opts[i].description, m->opts[i].applies, m->opts[i].signals);
		if (why[i])
			sb_addf(&sb, "  This code matches: %s\n", why[i]);
	}
	return sb_to_arena(&sb, s->a);
}

/* ---- the profile -------------------------------------------------------------- */

static const char *profile_prompt(Search *s, int id)
{
	profile_candidate(s, id);
	const Profile *p = s->r->c[id].profile;
	return p ? profile_text(s->a, p) : "No profile (the version did not verify).";
}

/* "| metric | best so far | current |" over the current's metrics. */
static const char *profile_compare(Search *s, int current)
{
	int best = s->r->best;
	profile_candidate(s, best);
	const Profile *c = s->r->c[current].profile, *b = s->r->c[best].profile;
	if (best == current)
		return "The current code is the best so far: no comparison.";
	if (!c || !b)
		return "No profiles to compare.";
	Strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "| metric | best so far (%s) | current |\n|---|---|---|\n",
	        best ? arena_printf(s->a, "candidate %d", best) : "the original");
	for (int i = 0; i < c->n; i++)
		sb_addf(&sb, "| %s | %s | %s |\n", c->m[i].name,
		        profile_value(s->a, profile_get(b, c->m[i].name)),
		        profile_value(s->a, &c->m[i]));
	return sb_to_arena(&sb, s->a);
}

/* The body of menus/metrics.md's "## Asking for metrics: TOOL" when the
 * current version's profiler (TOOL) takes extra metrics; it ends the plan
 * prompt's answer format, so it starts with a newline. */
static const char *profile_asking(Search *s, int id)
{
	const Profile *p = s->r->c[id].profile;
	const char *body = p && p->takes
	                       ? prompt_section(s->a, passes_builtin("menus/metrics.md", NULL),
	                                        arena_printf(s->a, "Asking for metrics: %s",
	                                                     p->takes))
	                       : NULL;
	return body ? arena_printf(s->a, "\n%s", body) : "";
}

/* The sections "## Roofline" and "## TARGET" of menus/metrics.md. */
static const char *profile_meanings(Search *s)
{
	const char *doc = passes_builtin("menus/metrics.md", NULL);
	if (!doc)
		return "";
	Strbuf sb = STRBUF_INIT;
	const char *want[] = {"## Roofline", arena_printf(s->a, "## %s", s->cfg->target->name)};
	for (size_t i = 0; i < ARRAY_LEN(want); i++) {
		const char *p = strstr(doc, want[i]);
		if (!p)
			continue;
		const char *end = strstr(p + 3, "\n## ");
		sb_addc(&sb, '#'); /* a subsection of the prompt's "What the metrics mean" */
		sb_addn(&sb, p, end ? (size_t)(end - p + 1) : strlen(p));
		sb_addc(&sb, '\n');
	}
	return sb_to_arena(&sb, s->a);
}

/* ---- the hardware and the rules ----------------------------------------------- */

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
		                    "are %.3g flop/byte, so it is %s-bound at best: at these rates "
		                    "the roofline's time is %.3g ms (data the caches hold can beat "
		                    "it; the physical floor in the rules is lower)",
		                    line, ai, ai >= pf / pb ? "compute" : "memory",
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
	/* the floor bench.c applies: the spec's work at the floor's rates
	 * (t->peaks fills them) */
	const Spec *sp = &s->cfg->orig->spec;
	passes_peaks(s);
	const ProfilePeaks *pk = &s->peaks;
	double flops = sp->has_bench ? target_eval(sp->flops, &sp->bench) : 0;
	double bytes = sp->has_bench ? target_eval(sp->bytes, &sp->bench) : 0;
	double fl = 0;
	if (flops > 0 && pk->floor_gflops > 0)
		fl = flops / (pk->floor_gflops * 1e9);
	if (bytes > 0 && pk->floor_gbps > 0 && bytes / (pk->floor_gbps * 1e9) > fl)
		fl = bytes / (pk->floor_gbps * 1e9);
	const char *floor = t->unit ? "(a count has no floor)"
	                    : fl > 0 ? arena_printf(s->a, "(the spec's work at the fastest any "
	                                                  "unit of the device can go: %.3g ms at "
	                                                  "the bench shape)",
	                                            fl * 1e3)
	                             : "(the spec's work at the fastest unit's peak)";
	const char *names[] = {"ASM", "TOLERANCE", "SANITIZER", "LIBS", "DELTA", "ALIGN", "FLOOR"};
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
	    arena_printf(s->a, "%.0f%%", (s->r->delta > 0 ? s->r->delta : 0.03) * 100),
	    /* the harness's allocation (cudaMalloc's 256, aligned_alloc(64)) plus
	     * a guard zone of 4096 bytes */
	    t->lang == LANG_CUDA ? "256" : "64", floor};
	return prompt_fill(s->a, tmpl("prompts/rules.txt"), names, vals, 7);
}

/* ---- requests ---------------------------------------------------------------- */

static LlmMessage *messages(Search *s, const char *user)
{
	LlmMessage *m = arena_alloc(s->a, 2 * sizeof *m);
	const char *names[] = {"LANG", "TARGET"};
	const char *vals[] = {s->cfg->orig->lang == LANG_CUDA ? "CUDA" : "C",
	                      s->cfg->target->name};
	m[0] = (LlmMessage){"system", prompt_fill(s->a, tmpl("prompts/system.txt"), names, vals, 2)};
	m[1] = (LlmMessage){"user", user};
	return m;
}

static void request(Search *s, LlmRequest *q, const char *user, const char *purpose)
{
	memset(q, 0, sizeof *q);
	q->messages = messages(s, user);
	q->nmessages = 2;
	q->temperature = 0.7;
	q->seed = (long long)s->cfg->seed;
	q->use_seed = true;
	q->sample = s->nreq++;
	q->purpose = purpose;
	bool plan = !strcmp(purpose, "plan");
	int first = plan ? s->cfg->plan_first : s->cfg->code_first;
	int n = plan ? s->cfg->plan_n : s->cfg->code_n;
	if (n > 0)
		q->provider = first + q->sample % n;
}

void prompt_plan(Search *s, LlmRequest *q, int parent, const char *forced)
{
	const Candidate *p = &s->r->c[parent];
	const char *names[] = {"HARDWARE", "CURRENT_NAME", "CURRENT_MEASURE", "FENCE",
	                       "CURRENT_CODE", "BEST", "HISTORY", "MENU", "CURRENT_PROFILE",
	                       "COMPARE", "METRICS", "ASK_METRICS", "RULES"};
	/* the profile first: the menu's keep: lines read it */
	const char *prof = profile_prompt(s, parent);
	const char *menu = menu_text(s, parent, forced);
	const char *vals[] = {rules_hardware(s), parent ? arena_printf(s->a, "candidate %d", parent)
	                                                : "the original",
	                      measure_text(s, p), s->fence, p->text, best_text(s, parent),
	                      history_text(s, parent), menu, prof,
	                      profile_compare(s, parent), profile_meanings(s),
	                      profile_asking(s, parent), rules_text(s)};
	request(s, q, prompt_fill(s->a, tmpl("prompts/plan.txt"), names, vals, 13), "plan");
}

void prompt_implement(Search *s, LlmRequest *q, int parent, const char *option,
                      const char *plan)
{
	const char *names[] = {"OPTION", "PLAN", "FENCE", "CODE", "HARDWARE", "RULES"};
	const char *vals[] = {option, plan, s->fence, s->r->c[parent].text, rules_hardware(s),
	                      rules_text(s)};
	request(s, q, prompt_fill(s->a, tmpl("prompts/implement.txt"), names, vals, 6),
	        "implement");
}

/* The repair prompt names the reason and shows what the failing step
 * printed; when it printed nothing (a comparison, the static scan) it says
 * so rather than show an empty block. passes/prompts/reasons.txt says what
 * each check does. */
void prompt_repair(Search *s, LlmRequest *q, const Candidate *c)
{
	const char *reason = verify_reason_name(c->reason);
	const char *log = c->log ? proc_tail(c->log, 30) : "";
	const char *details;
	if (log[strspn(log, " \t\r\n")])
		details = arena_printf(s->a, "What it printed (the last lines):\n\n```\n%s%s```",
		                       log, log[strlen(log) - 1] == '\n' ? "" : "\n");
	else
		details = "No compiler or run output goes with this rejection: the line above "
		          "is the verifier's whole finding.";
	const char *advice = prompt_section(s->a, tmpl("prompts/reasons.txt"), reason);
	const char *names[] = {"REASON", "DETAILS", "ADVICE", "FENCE", "CODE", "OPTION", "PLAN"};
	const char *vals[] = {arena_printf(s->a, "%s: %s", reason, c->why ? c->why : ""),
	                      details, advice ? advice : "(no description of this check)",
	                      s->fence, c->text ? c->text : "(no code block)", c->option,
	                      c->plan};
	request(s, q, prompt_fill(s->a, tmpl("prompts/repair.txt"), names, vals, 7), "repair");
}

/* ---- answers ----------------------------------------------------------------- */

/* "Option: NAME" on a line of the plan; the forced option for --passes. */
static const char *plan_option(Search *s, const char *plan, const char *forced)
{
	if (forced)
		return forced;
	const char *p = plan;
	while ((p = strstr(p, "ption:")) != NULL) {
		p += 6;
		p += strspn(p, " \t*`");
		size_t n = strcspn(p, " \t\r\n*`.,");
		const char *name = arena_strndup(s->a, p, n);
		if (menu_find(s->cfg->menu, name))
			return name;
	}
	return "unlisted";
}

/* A plan answer: the plan (its block, or the whole answer), its option
 * into *option, and its `Metrics:` lines into s->ask (the next profiles of
 * the versions the planner is shown take them, when the profiler does). */
const char *answer_plan(Search *s, const char *answer, const char *forced, const char **option)
{
	const char *err;
	const char *text = llm_extract_plan(s->a, answer, strlen(answer), &err);
	*option = plan_option(s, answer, forced);
	profile_ask_parse(s->a, answer, &s->ask);
	return text ? text : answer;
}

/* A code answer into k: its one fenced block as k's text, or why there is
 * none (a parse rejection). */
void answer_code(Search *s, Candidate *k, const char *answer)
{
	LlmExtract x;
	const char *err;
	if (llm_extract_code(s->a, answer, strlen(answer), s->fence, &x, &err) == 0)
		k->text = x.code, k->len = strlen(x.code);
	else
		k->reason = VR_PARSE, k->why = arena_printf(s->a, "%s", err);
}
