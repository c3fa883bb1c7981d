/*
 * search.c — the search (Autocomp's loop, PRAGMA's roles as stages):
 *
 *   for each step, for each version in the beam:
 *     plan      N requests: the menu after dropout, the current code and
 *               its measurements, the best so far, what regressed or failed
 *     implement K requests per plan: the whole new file, one fenced block
 *     verify    verify_candidate (verify_unparsed when it does not parse),
 *               with up to R repair requests fed the build error or reason
 *     tune      its `tune` values, each variant verified and measured
 *     measure   verify_bench against the original: ratio with a 95% CI
 *     select    the B fastest correct candidates that beat their parent
 *               beyond the noise gate form the next beam
 *
 * `--passes=a,b` is the same loop with one forced option per step. -O2 is
 * the loop without an LLM: tune the input's `tune` values, then the menu's
 * compiler flags. Requests are batched (the client runs them concurrently);
 * every sample has its own index, so the cache tells samples apart and a
 * rerun with the same measurements is answered from the cache.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool stopped(Search *s)
{
	return s->cfg->stop && *s->cfg->stop;
}

static void progress(Search *s, int step, int steps)
{
	if (!s->cfg->progress)
		return;
	const Candidate *b = &s->r->c[s->r->best];
	LlmTotals t = s->cfg->llm ? llm_totals(s->cfg->llm) : (LlmTotals){0};
	t.calls += s->prior.calls, t.usd += s->prior.usd; /* the whole search's */
	fprintf(stderr, "\r\033[Kkcc: step %d/%d, %d candidates (%d duplicate%s), best %.2fx, "
	        "%ld calls, $%.2f", step, steps, s->r->n - 1, s->r->duplicates,
	        s->r->duplicates == 1 ? "" : "s", b->measured ? b->speedup : 1.0, t.calls, t.usd);
	fflush(stderr);
}

/* ---- prompts ------------------------------------------------------------------ */

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

static const char *tmpl(const char *name)
{
	const char *t = passes_builtin(name, NULL);
	return t ? t : "";
}

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

static void plan_request(Search *s, LlmRequest *q, int parent, const char *forced)
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

static void code_request(Search *s, LlmRequest *q, int parent, const char *option,
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
static void repair_request(Search *s, LlmRequest *q, const Candidate *c)
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

/* ---- answers -------------------------------------------------------------------- */

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

static void account(Candidate *c, const LlmResponse *r)
{
	c->tokens_in += r->tokens_in;
	c->tokens_out += r->tokens_out;
	c->usd += r->cost_usd;
	if (!c->provider && r->provider)
		c->provider = r->provider;
}

/* How a batch ended for the search: go on, or stop and why. */
static int batch_status(Search *s, const LlmResponse *rs, int n)
{
	int ok = 0, budget = 0;
	const char *err = NULL;
	for (int i = 0; i < n; i++) {
		ok += rs[i].status == LLM_OK;
		budget += rs[i].status == LLM_EBUDGET;
		if (rs[i].status == LLM_EFAIL && !err)
			err = rs[i].error;
	}
	if (budget) {
		s->r->stop = STOP_BUDGET;
		s->r->stop_detail = llm_budget_name(llm_budget_state(s->cfg->llm));
		return -1;
	}
	if (err) {
		s->r->stop = STOP_PROVIDER;
		s->r->stop_detail = err;
		return -1;
	}
	return ok == n ? 0 : -1;
}

static bool budget_left(Search *s)
{
	LlmBudgetState b = llm_budget_state(s->cfg->llm);
	if (b == LLM_BUDGET_LEFT)
		return true;
	s->r->stop = STOP_BUDGET;
	s->r->stop_detail = llm_budget_name(b);
	return false;
}

/* Evaluate the candidates ids[0..n) (verify, measure), then send one batch
 * of repair requests for those rejected that a repair can cure, evaluate
 * the repairs, and so on for up to R rounds; then tune what verified.
 * Returns -1 on a tool failure or a stop, else 0. */
static int evaluate_all(Search *s, const int *ids, int n, int step)
{
	int repairs = s->cfg->repairs < 0 ? 1 : s->cfg->repairs;
	int *all = arena_alloc(s->a, sizeof *all * (size_t)n * (size_t)(repairs + 1));
	int nall = 0;
	int *cur = arena_alloc(s->a, sizeof *cur * (size_t)n);
	memcpy(cur, ids, sizeof *cur * (size_t)n);
	for (int round = 0; n > 0; round++) {
		int need = 0;
		for (int i = 0; i < n && !stopped(s); i++) {
			int id = cur[i];
			if (s->r->c[id].text && eval_candidate(s, id, true) != 0) {
				s->r->stop = STOP_TOOL;
				s->r->stop_detail = "the verifier failed";
				return -1;
			}
			all[nall++] = id;
			if (search_repairable(&s->r->c[id]))
				cur[need++] = id;
			progress(s, step, s->cfg->npasses ? s->cfg->npasses : s->cfg->steps);
		}
		if (stopped(s)) {
			for (int i = 0; i < n; i++)
				if (!s->r->c[cur[i]].key[0] && s->r->c[cur[i]].text)
					s->r->c[cur[i]].why = "not checked: the search was stopped first";
			return 0;
		}
		if (!need || round >= repairs || !budget_left(s))
			break;
		LlmRequest *q = arena_alloc(s->a, sizeof *q * (size_t)need);
		LlmResponse *a = arena_alloc(s->a, sizeof *a * (size_t)need);
		for (int i = 0; i < need; i++)
			repair_request(s, &q[i], &s->r->c[cur[i]]);
		llm_complete_batch(s->cfg->llm, q, a, need);
		if (batch_status(s, a, need) != 0)
			return -1;
		for (int i = 0; i < need; i++) {
			const Candidate *c = &s->r->c[cur[i]];
			Candidate k = {.parent = c->parent, .step = step, .option = c->option,
			               .plan = c->plan, .repairs = round + 1, .repair_of = c->id};
			account(&k, &a[i]);
			LlmExtract x;
			const char *err;
			if (llm_extract_code(s->a, a[i].text, strlen(a[i].text), s->fence, &x,
			                     &err) == 0)
				k.text = x.code, k.len = strlen(x.code);
			else
				k.reason = VR_PARSE, k.why = err;
			cur[i] = store_add(s, &k);
		}
		n = need;
	}
	for (int i = 0; i < nall && s->cfg->tune; i++) {
		if (stopped(s))
			break;
		const Candidate *c = &s->r->c[all[i]];
		if (c->correct && !c->duplicate && tune_variants(s, all[i], step) < 0) {
			s->r->stop = STOP_TOOL;
			s->r->stop_detail = "the verifier failed";
			return -1;
		}
	}
	return 0;
}

/* Make a candidate from an implement answer (or record why there is none). */
static int from_answer(Search *s, int parent, int step, const char *option, const char *plan,
                       const LlmResponse *a, const LlmResponse *pa)
{
	Candidate k = {.parent = parent, .step = step, .option = option, .plan = plan,
	               .repair_of = -1};
	account(&k, a);
	if (pa)
		account(&k, pa);
	LlmExtract x;
	const char *err;
	if (llm_extract_code(s->a, a->text, strlen(a->text), s->fence, &x, &err) == 0)
		k.text = x.code, k.len = strlen(x.code);
	else
		k.reason = VR_PARSE, k.why = arena_printf(s->a, "%s", err);
	return store_add(s, &k);
}

/* ---- one step -------------------------------------------------------------------- */

typedef struct {
	int parent;
	const char *option, *plan;
	const LlmResponse *pa;
} Plan;

static int plan_all(Search *s, const int *beam, int nbeam, const char *forced, Plan **out)
{
	int nplans = forced ? 1 : (s->cfg->plans > 0 ? s->cfg->plans : 2);
	int n = nbeam * nplans;
	LlmRequest *q = arena_alloc(s->a, sizeof *q * (size_t)n);
	LlmResponse *a = arena_alloc(s->a, sizeof *a * (size_t)n);
	for (int b = 0; b < nbeam; b++)
		for (int j = 0; j < nplans; j++)
			plan_request(s, &q[b * nplans + j], beam[b], forced);
	llm_complete_batch(s->cfg->llm, q, a, n);
	if (batch_status(s, a, n) != 0)
		return -1;
	Plan *p = arena_alloc(s->a, sizeof *p * (size_t)n);
	for (int i = 0; i < n; i++) {
		const char *err;
		const char *text = llm_extract_plan(s->a, a[i].text, strlen(a[i].text), &err);
		p[i] = (Plan){beam[i / nplans], plan_option(s, a[i].text, forced),
		              text ? text : a[i].text, &a[i]};
		/* `Metrics:` lines: the next profiles (of the versions the
		 * planner is shown) take them, when the profiler does */
		profile_ask_parse(s->a, a[i].text, &s->ask);
	}
	*out = p;
	return n;
}

static int implement_all(Search *s, const Plan *p, int np, int step)
{
	int k = s->cfg->samples > 0 ? s->cfg->samples : 2, n = np * k;
	LlmRequest *q = arena_alloc(s->a, sizeof *q * (size_t)n);
	LlmResponse *a = arena_alloc(s->a, sizeof *a * (size_t)n);
	for (int i = 0; i < n; i++)
		code_request(s, &q[i], p[i / k].parent, p[i / k].option, p[i / k].plan);
	if (!budget_left(s))
		return -1;
	llm_complete_batch(s->cfg->llm, q, a, n);
	if (batch_status(s, a, n) != 0)
		return -1;
	int *ids = arena_alloc(s->a, sizeof *ids * (size_t)n);
	for (int i = 0; i < n; i++) {
		const Plan *pl = &p[i / k];
		ids[i] = from_answer(s, pl->parent, step, pl->option, pl->plan, &a[i],
		                     i % k == 0 ? pl->pa : NULL);
	}
	return evaluate_all(s, ids, n, step);
}

/* Fastest first; ties keep their order (a beam is a handful of ids). */
static void sort_by_speed(const Candidate *c, int *ids, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && c[ids[j]].speedup > c[ids[j - 1]].speedup; j--) {
			int t = ids[j];
			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
}

/* The next beam: the fastest candidates of this step that gained on their
 * parent; the old beam stays when none did. */
static int select_beam(Search *s, int from, int *beam, int nbeam)
{
	int width = s->cfg->beam > 0 ? s->cfg->beam : 2;
	int *ids = arena_alloc(s->a, sizeof *ids * (size_t)(s->r->n - from + 1));
	int n = 0;
	for (int i = from; i < s->r->n; i++) {
		Candidate *c = &s->r->c[i];
		c->gain = store_gain(s, c);
		if (c->gain)
			ids[n++] = i;
	}
	if (n == 0)
		return nbeam;
	sort_by_speed(s->r->c, ids, n);
	n = n < width ? n : width;
	for (int i = 0; i < n; i++) {
		beam[i] = ids[i];
		s->r->c[ids[i]].accepted = true;
		if (s->r->c[ids[i]].speedup > s->r->c[s->r->best].speedup || s->r->best == 0)
			s->r->best = ids[i];
	}
	return n;
}

static void llm_loop(Search *s)
{
	int steps = s->cfg->npasses ? s->cfg->npasses : (s->cfg->steps > 0 ? s->cfg->steps : 3);
	int width = s->cfg->beam > 0 ? s->cfg->beam : 2;
	int *beam = arena_alloc(s->a, sizeof *beam * (size_t)width);
	int nbeam = 1;
	beam[0] = 0;
	for (int step = 1; step <= steps; step++) {
		if (stopped(s) || !budget_left(s))
			break;
		const char *forced = s->cfg->npasses ? s->cfg->passes[step - 1] : NULL;
		int from = s->r->n;
		Plan *p;
		int np = plan_all(s, beam, nbeam, forced, &p);
		int rc = np < 0 ? -1 : implement_all(s, p, np, step);
		nbeam = select_beam(s, from, beam, nbeam);
		state_save(s);
		progress(s, step, steps);
		if (rc != 0)
			break;
	}
}

/* -O2: the input's tune values, then the menu's compiler flags. */
static void offline_loop(Search *s)
{
	int width = s->cfg->beam > 0 ? s->cfg->beam : 2;
	int *beam = arena_alloc(s->a, sizeof *beam * (size_t)width);
	int from = s->r->n;
	if (tune_variants(s, 0, 1) < 0)
		s->r->stop = STOP_TOOL;
	select_beam(s, from, beam, 1);
	state_save(s);
	progress(s, 1, 2);
	if (!s->cfg->flags || stopped(s) || s->r->stop == STOP_TOOL)
		return;
	from = s->r->n;
	if (flag_variants(s, s->r->best, 2) < 0)
		s->r->stop = STOP_TOOL;
	select_beam(s, from, beam, 1);
	state_save(s);
	progress(s, 2, 2);
}

static int start(Search *s)
{
	const SearchConfig *cfg = s->cfg;
	if (verify_ref_prepare(s->a, cfg->orig, &cfg->vo, &s->ref) != 0)
		return -1;
	cfg->target->describe(cfg->target, s->a, &s->info);
	s->r->device = s->info.summary ? s->info.summary : cfg->target->name;
	s->r->delta = cfg->vo.delta;
	s->r->target = cfg->target->name;
	s->r->unit = cfg->target->unit;
	Candidate o = {.parent = -1, .option = "", .plan = "", .provider = "",
	               .text = cfg->orig->text, .len = cfg->orig->len, .repair_of = -1};
	store_add(s, &o);
	if (eval_candidate(s, 0, true) != 0 || !s->r->c[0].correct) {
		diag_error("%s: the input does not verify against itself (%s)", cfg->orig->path,
		           s->r->c[0].why ? s->r->c[0].why : "tool failure");
		return -1;
	}
	Candidate *c = &s->r->c[0];
	c->speedup = c->lo = c->hi = 1.0;
	c->accepted = true;
	return 0;
}

int search_run(Arena *a, const SearchConfig *cfg, SearchResult *out)
{
	memset(out, 0, sizeof *out);
	Search s = {.a = a, .cfg = cfg, .r = out, .rng = cfg->seed ^ 0x6b6363ull,
	            .t0 = passes_now()};
	s.fence = cfg->orig->lang == LANG_CUDA ? "cuda" : "c";
	s.ext = cfg->target->src_ext;
	sha256_hex(cfg->orig->text, cfg->orig->len, s.orig_sha);
	file_mkdirs(cfg->state_dir, 0755);
	if (cfg->resume)
		state_load_totals(&s);
	if (start(&s) != 0) {
		if (s.ref)
			verify_ref_release(s.ref);
		return -1;
	}
	if (cfg->llm)
		llm_loop(&s);
	else
		offline_loop(&s);
	if (stopped(&s))
		out->stop = STOP_INTERRUPT;
	out->wall_s = passes_now() - s.t0;
	state_save(&s); /* sets out->totals */
	if (cfg->progress)
		fputc('\n', stderr);
	verify_ref_release(s.ref);
	return 0;
}
