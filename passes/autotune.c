/*
 * autotune.c — empirical tuning without an LLM. The macros a
 * `#pragma kcc tune NAME=V1,V2,...` line names are tried by writing each
 * combination into the source (tune_apply) and putting every variant
 * through the verifier and the timer like any candidate: a value can make
 * code wrong (a tile that does not divide), so each is verified. Small
 * spaces are searched exhaustively, larger ones one parameter at a time
 * (coordinate descent from the first values). Compiler flags are variants
 * too, from the menu's [flags] sections, written into the file.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#define MAX_EXHAUSTIVE 16

static const Spec *tune_spec(Search *s, const Candidate *c)
{
	Unit *u = arena_alloc(s->a, sizeof *u);
	u->path = c->file;
	u->text = c->text;
	u->len = c->len;
	/* The candidate verified, so its pragmas parse; should spec_parse
	 * report a problem all the same, the report goes to the diagnostics
	 * sink like any other and here means only "nothing to tune". */
	int errs = diag_error_count();
	if (spec_parse(s->a, u) != 0 || diag_error_count() != errs)
		return NULL;
	return &u->spec;
}

static const char *values_text(Search *s, const TuneValue *v, int n)
{
	Strbuf sb = STRBUF_INIT;
	for (int i = 0; i < n; i++)
		sb_addf(&sb, "%s%s=%s", i ? " " : "", v[i].name, v[i].value);
	return sb_to_arena(&sb, s->a);
}

/* Add and evaluate one variant; its index, or -1 on a tool failure. */
static int try_variant(Search *s, int id, const TuneValue *v, int nv, int step)
{
	Candidate *c = &s->r->c[id];
	/* A variant is a sibling of the candidate it tunes (the same plan, with
	 * values), except for the original, whose variants are its children. */
	Candidate k = {.parent = id == 0 ? 0 : c->parent, .step = step,
	               .option = id == 0 ? "tune" : c->option,
	               .plan = c->plan, .provider = c->provider, .repair_of = -1};
	k.text = tune_apply(s->a, c->text, c->len, v, nv, NULL, &k.len);
	k.tune = values_text(s, v, nv);
	int at = store_add(s, &k);
	if (eval_candidate(s, at, true) != 0)
		return -1;
	const Candidate *r = &s->r->c[at];
	diag_trace("kcc: tune %s: %s%s", r->tune, r->correct ? "" : verify_reason_name(r->reason),
	           r->measured ? arena_printf(s->a, "%.3fx", r->speedup) : "");
	return at;
}

static double score(const Search *s, int at)
{
	const Candidate *r = &s->r->c[at];
	return r->correct && r->measured ? r->speedup : 0;
}

static int exhaustive(Search *s, int id, const Spec *sp, int step)
{
	int total = 1, added = 0;
	for (int i = 0; i < sp->ntune; i++)
		total *= sp->tune[i].nvalues;
	TuneValue *v = arena_alloc(s->a, sizeof *v * (size_t)sp->ntune);
	for (int k = 0; k < total; k++) {
		int rest = k;
		for (int i = sp->ntune - 1; i >= 0; i--) {
			v[i].name = sp->tune[i].name;
			v[i].value = sp->tune[i].values[rest % sp->tune[i].nvalues];
			rest /= sp->tune[i].nvalues;
		}
		if (s->cfg->stop && *s->cfg->stop)
			break;
		if (try_variant(s, id, v, sp->ntune, step) < 0)
			return -1;
		added++;
	}
	return added;
}

static int descent(Search *s, int id, const Spec *sp, int step)
{
	TuneValue *v = arena_alloc(s->a, sizeof *v * (size_t)sp->ntune);
	for (int i = 0; i < sp->ntune; i++)
		v[i] = (TuneValue){sp->tune[i].name, sp->tune[i].values[0]};
	int added = 0;
	double best = 0;
	for (int i = 0; i < sp->ntune; i++) {
		const char *keep = v[i].value;
		for (int j = 0; j < sp->tune[i].nvalues; j++) {
			if (s->cfg->stop && *s->cfg->stop)
				return added;
			if (i > 0 && j == 0)
				continue; /* measured already as the previous best */
			v[i].value = sp->tune[i].values[j];
			int at = try_variant(s, id, v, sp->ntune, step);
			if (at < 0)
				return -1;
			added++;
			if (score(s, at) > best) {
				best = score(s, at);
				keep = v[i].value;
			}
		}
		v[i].value = keep;
	}
	return added;
}

int tune_variants(Search *s, int id, int step)
{
	const Spec *sp = tune_spec(s, &s->r->c[id]);
	if (!sp || sp->ntune == 0)
		return 0;
	int total = 1;
	for (int i = 0; i < sp->ntune && total <= MAX_EXHAUSTIVE; i++)
		total *= sp->tune[i].nvalues;
	return total <= MAX_EXHAUSTIVE ? exhaustive(s, id, sp, step) : descent(s, id, sp, step);
}

int flag_variants(Search *s, int id, int step)
{
	const Menu *m = s->cfg->menu;
	int added = 0;
	for (int f = 0; f < m->nflags; f++) {
		if (s->cfg->stop && *s->cfg->stop)
			break;
		Candidate *c = &s->r->c[id];
		Candidate k = {.parent = id, .step = step, .repair_of = -1,
		               .option = arena_printf(s->a, "flags:%s", m->flags[f].name),
		               .plan = m->flags[f].description, .provider = "", .tune = c->tune};
		if (*m->flags[f].cflags) {
			/* the compiler's own flags: the same text, another build */
			k.text = c->text;
			k.len = c->len;
			k.cflags = m->flags[f].cflags;
		} else
			k.text = tune_apply(s->a, c->text, c->len, NULL, 0, &m->flags[f], &k.len);
		int at = store_add(s, &k);
		if (eval_candidate(s, at, true) != 0)
			return -1;
		added++;
	}
	return added;
}
