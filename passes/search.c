/*
 * search.c — the search (Autocomp's loop, PRAGMA's roles as stages):
 *
 *   for each step, for each version in the beam:
 *     plan      N requests: the menu after dropout, the current code and
 *               its measurements, the best so far, what regressed or failed
 *     implement K requests per plan: the whole new file, one fenced block
 *     verify    verify_source (the lexical reason when it does not parse),
 *               with up to R repair requests fed the build error or reason
 *     tune      its `tune` values, each variant verified and measured
 *     measure   verify_source timing it against the original: ratio, 95% CI
 *     select    the B fastest correct candidates that beat their parent
 *               beyond the noise gate form the next beam
 *
 * `--passes=a,b` is the same loop with one forced option per step. -O2 is
 * the loop without an LLM: tune the input's `tune` values, then the menu's
 * compiler flags. Requests are batched (the client runs them concurrently);
 * every sample has its own index, so the cache tells samples apart and a
 * rerun with the same measurements is answered from the cache.
 *
 * This file is the loop alone: the requests and the parsers of their
 * answers are prompts.c's, the candidates live in the store (store.c),
 * verify and measure are eval.c's, tune is autotune.c's and the profiles
 * the plans are shown profile.c's.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

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

/* ---- the LLM ------------------------------------------------------------------ */

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

static int tool_failed(Search *s)
{
	s->r->stop = STOP_TOOL;
	s->r->stop_detail = "the verifier failed";
	return -1;
}

/* ---- the stages of one step ------------------------------------------------------ */

typedef struct {
	int parent;
	const char *option, *plan;
	const LlmResponse *pa;
} Plan;

/* plan: N requests per version in the beam. Count of plans, or -1. */
static int plan(Search *s, const int *beam, int nbeam, const char *forced, Plan **out)
{
	int nplans = forced ? 1 : (s->cfg->plans > 0 ? s->cfg->plans : 2);
	int n = nbeam * nplans;
	LlmRequest *q = arena_alloc(s->a, sizeof *q * (size_t)n);
	LlmResponse *a = arena_alloc(s->a, sizeof *a * (size_t)n);
	for (int b = 0; b < nbeam; b++)
		for (int j = 0; j < nplans; j++)
			prompt_plan(s, &q[b * nplans + j], beam[b], forced);
	llm_complete_batch(s->cfg->llm, q, a, n);
	if (batch_status(s, a, n) != 0)
		return -1;
	Plan *p = arena_alloc(s->a, sizeof *p * (size_t)n);
	for (int i = 0; i < n; i++) {
		p[i] = (Plan){.parent = beam[i / nplans], .pa = &a[i]};
		p[i].plan = answer_plan(s, a[i].text, forced, &p[i].option);
	}
	*out = p;
	return n;
}

/* implement: K requests per plan, each answer a candidate (or why there
 * is none) in the store. Count of candidates, or -1. */
static int implement(Search *s, const Plan *p, int np, int step, int **out)
{
	int k = s->cfg->samples > 0 ? s->cfg->samples : 2, n = np * k;
	LlmRequest *q = arena_alloc(s->a, sizeof *q * (size_t)n);
	LlmResponse *a = arena_alloc(s->a, sizeof *a * (size_t)n);
	for (int i = 0; i < n; i++)
		prompt_implement(s, &q[i], p[i / k].parent, p[i / k].option, p[i / k].plan);
	if (!budget_left(s))
		return -1;
	llm_complete_batch(s->cfg->llm, q, a, n);
	if (batch_status(s, a, n) != 0)
		return -1;
	int *ids = arena_alloc(s->a, sizeof *ids * (size_t)n);
	for (int i = 0; i < n; i++) {
		const Plan *pl = &p[i / k];
		Candidate c = {.parent = pl->parent, .step = step, .option = pl->option,
		               .plan = pl->plan, .repair_of = -1};
		account(&c, &a[i]);
		if (i % k == 0) /* the plan's cost goes with its first sample */
			account(&c, pl->pa);
		answer_code(s, &c, a[i].text);
		ids[i] = store_add(s, &c);
	}
	*out = ids;
	return n;
}

/* Repair requests for the candidates cur[0..n): the repairs, in the store. */
static int repair(Search *s, int *cur, int n, int step, int round)
{
	LlmRequest *q = arena_alloc(s->a, sizeof *q * (size_t)n);
	LlmResponse *a = arena_alloc(s->a, sizeof *a * (size_t)n);
	for (int i = 0; i < n; i++)
		prompt_repair(s, &q[i], &s->r->c[cur[i]]);
	llm_complete_batch(s->cfg->llm, q, a, n);
	if (batch_status(s, a, n) != 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const Candidate *c = &s->r->c[cur[i]];
		Candidate k = {.parent = c->parent, .step = step, .option = c->option,
		               .plan = c->plan, .repairs = round, .repair_of = c->id};
		account(&k, &a[i]);
		answer_code(s, &k, a[i].text);
		cur[i] = store_add(s, &k);
	}
	return 0;
}

/* verify (and measure) the candidates ids[0..n), then send one batch of
 * repair requests for those rejected that a repair can cure, verify the
 * repairs, and so on for up to R rounds. All it verified go to *out: their
 * count, or -1 on a tool failure or a stop. */
static int verify(Search *s, const int *ids, int n, int step, int **out)
{
	int repairs = s->cfg->repairs < 0 ? 1 : s->cfg->repairs;
	int *all = arena_alloc(s->a, sizeof *all * (size_t)n * (size_t)(repairs + 1));
	int nall = 0;
	int *cur = arena_alloc(s->a, sizeof *cur * (size_t)n);
	memcpy(cur, ids, sizeof *cur * (size_t)n);
	*out = all;
	for (int round = 0; n > 0; round++) {
		int need = 0;
		for (int i = 0; i < n && !stopped(s); i++) {
			int id = cur[i];
			if (s->r->c[id].text && eval_candidate(s, id, true) != 0)
				return tool_failed(s);
			all[nall++] = id;
			if (search_repairable(&s->r->c[id]))
				cur[need++] = id;
			progress(s, step, s->cfg->npasses ? s->cfg->npasses : s->cfg->steps);
		}
		if (stopped(s)) {
			for (int i = 0; i < n; i++)
				if (!s->r->c[cur[i]].key[0] && s->r->c[cur[i]].text)
					s->r->c[cur[i]].why = "not checked: the search was stopped first";
			return nall;
		}
		if (!need || round >= repairs || !budget_left(s))
			break;
		if (repair(s, cur, need, step, round + 1) != 0)
			return -1;
		n = need;
	}
	return nall;
}

/* tune: the `tune` values of the new versions that verified. 0 or -1. */
static int tune(Search *s, const int *ids, int n, int step)
{
	for (int i = 0; i < n && s->cfg->tune; i++) {
		if (stopped(s))
			break;
		const Candidate *c = &s->r->c[ids[i]];
		if (c->correct && !c->duplicate && tune_variants(s, ids[i], step) < 0)
			return tool_failed(s);
	}
	return 0;
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

/* One step of the loop: its stages in order (measure is part of verify,
 * select is the loop's). 0, or -1 to stop. */
static int one_step(Search *s, const int *beam, int nbeam, const char *forced, int step)
{
	Plan *p;
	int *ids, *all, n;
	if ((n = plan(s, beam, nbeam, forced, &p)) < 0)
		return -1;
	if ((n = implement(s, p, n, step, &ids)) < 0)
		return -1;
	if ((n = verify(s, ids, n, step, &all)) < 0)
		return -1;
	return tune(s, all, n, step);
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
		int rc = one_step(s, beam, nbeam, forced, step);
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
	            .t0 = clock_now()};
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
	out->wall_s = clock_now() - s.t0;
	state_save(&s); /* sets out->totals */
	if (cfg->progress)
		fputc('\n', stderr);
	verify_ref_release(s.ref);
	return 0;
}
