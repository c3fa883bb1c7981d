/*
 * store.c — the candidate store: the search's candidates in SearchResult,
 * each one's text in STATE/candidates/NNNN.EXT, the chain from the original
 * to a candidate, whether a candidate gained on its parent, and the run's
 * record, STATE/report.json (the JSON report's form), saved after each step
 * so an interrupted run keeps it and read back when a search resumes. The
 * loop, the tuner, the reports and --emit-passes all go through it.
 */
#include "internal.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* ---- candidates ------------------------------------------------------------- */

int store_add(Search *s, const Candidate *c)
{
	SearchResult *r = s->r;
	Candidate k = *c;
	k.id = r->n;
	const char *dir = arena_printf(s->a, "%s/candidates", s->cfg->state_dir);
	file_mkdirs(dir, 0755);
	k.file = arena_printf(s->a, "%s/%04d%s", dir, k.id, s->ext);
	if (k.text)
		file_write_atomic(k.file, k.text, k.len);
	if (!k.tune)
		k.tune = "";
	ARENA_PUSH(s->a, r->c, r->n, r->cap, k);
	return k.id;
}

int search_chain(const SearchResult *r, int id, int *ids, int max)
{
	int n = 0;
	for (int k = id; k >= 0 && n < max; k = r->c[k].parent)
		ids[n++] = k;
	for (int i = 0; i < n / 2; i++) {
		int t = ids[i];
		ids[i] = ids[n - 1 - i];
		ids[n - 1 - i] = t;
	}
	return n;
}

bool store_gain(const Search *s, const Candidate *c)
{
	if (!c->correct || !c->measured || c->parent < 0 || c->duplicate)
		return false;
	const Candidate *p = &s->r->c[c->parent];
	double base = p->measured ? p->speedup : 1.0, top = p->measured ? p->hi : 1.0;
	return c->lo > base * (1.0 + s->r->delta) && c->lo > top;
}

/* Can a new version of the code cure this rejection? Not when the
 * verifier doubts the measurement itself (implausible: the time is below
 * the device's floor), and not for a duplicate: its code already had its
 * verdict and its own repair. docs/search.md, "Repairs". */
bool search_repairable(const Candidate *c)
{
	return !c->correct && !c->duplicate && c->reason != VR_IMPLAUSIBLE;
}

const char *search_stop_name(StopReason st)
{
	static const char *const n[] = {"done", "budget", "interrupted", "provider", "tool"};
	return n[st];
}

/* ---- the record ------------------------------------------------------------ */

static cJSON *candidate_json(const Candidate *c)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "id", c->id);
	cJSON_AddNumberToObject(o, "parent", c->parent);
	cJSON_AddNumberToObject(o, "step", c->step);
	cJSON_AddStringToObject(o, "option", c->option ? c->option : "");
	cJSON_AddStringToObject(o, "plan", c->plan ? c->plan : "");
	cJSON_AddStringToObject(o, "provider", c->provider ? c->provider : "");
	cJSON_AddStringToObject(o, "tune", c->tune ? c->tune : "");
	cJSON_AddStringToObject(o, "cflags", c->cflags ? c->cflags : "");
	cJSON_AddStringToObject(o, "sha256", c->sha);
	cJSON_AddStringToObject(o, "file", c->file ? c->file : "");
	cJSON_AddStringToObject(o, "verdict", c->correct ? "correct" : "rejected");
	cJSON_AddStringToObject(o, "reason", verify_reason_name(c->reason));
	cJSON_AddStringToObject(o, "why", c->why ? c->why : "");
	cJSON_AddNumberToObject(o, "repairs", c->repairs);
	cJSON_AddNumberToObject(o, "repair_of", c->repair_of);
	if (c->duplicate)
		cJSON_AddNumberToObject(o, "duplicate_of", c->dup_of);
	cJSON_AddBoolToObject(o, "measured", c->measured);
	if (c->measured) {
		cJSON_AddNumberToObject(o, "ms", c->ms);
		cJSON_AddNumberToObject(o, "ms_q1", c->ms_q1);
		cJSON_AddNumberToObject(o, "ms_q3", c->ms_q3);
		cJSON_AddNumberToObject(o, "speedup", c->speedup);
		cJSON_AddNumberToObject(o, "ci_lo", c->lo);
		cJSON_AddNumberToObject(o, "ci_hi", c->hi);
	}
	cJSON_AddBoolToObject(o, "gain", c->gain);
	cJSON_AddBoolToObject(o, "accepted", c->accepted);
	cJSON_AddNumberToObject(o, "tokens_in", (double)c->tokens_in);
	cJSON_AddNumberToObject(o, "tokens_out", (double)c->tokens_out);
	cJSON_AddNumberToObject(o, "cost_usd", c->usd);
	cJSON_AddNumberToObject(o, "verify_s", c->verify_s);
	cJSON_AddNumberToObject(o, "bench_s", c->bench_s);
	if (c->profile)
		cJSON_AddItemToObject(o, "profile", profile_json(c->profile));
	return o;
}

static void totals_json(cJSON *t, const LlmTotals *x)
{
	cJSON_AddNumberToObject(t, "calls", (double)x->calls);
	cJSON_AddNumberToObject(t, "tokens_in", (double)x->tokens_in);
	cJSON_AddNumberToObject(t, "tokens_out", (double)x->tokens_out);
	cJSON_AddNumberToObject(t, "cost_usd", x->usd);
	cJSON_AddNumberToObject(t, "cache_hits", (double)x->cache_hits);
}

static cJSON *result_json(const SearchResult *r, const Unit *orig, const char *target)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kcc", KCC_VERSION);
	cJSON_AddStringToObject(o, "input", orig->path);
	char h[65];
	sha256_hex(orig->text, orig->len, h);
	cJSON_AddStringToObject(o, "input_sha256", h);
	cJSON_AddStringToObject(o, "spec_sha256", orig->spec_hash);
	cJSON_AddStringToObject(o, "target", target);
	cJSON_AddStringToObject(o, "device", r->device ? r->device : "");
	cJSON_AddStringToObject(o, "bench_shape", r->shape ? r->shape : "");
	/* what the candidates' "ms" fields hold: "ms", or a count (riscv64) */
	cJSON_AddStringToObject(o, "unit", r->unit ? r->unit : "ms");
	cJSON_AddStringToObject(o, "stop", search_stop_name(r->stop));
	cJSON_AddStringToObject(o, "stop_detail", r->stop_detail ? r->stop_detail : "");
	cJSON_AddNumberToObject(o, "best", r->best);
	cJSON_AddNumberToObject(o, "speedup", r->n ? r->c[r->best].speedup : 1.0);
	cJSON_AddNumberToObject(o, "duplicates", r->duplicates);
	cJSON *chain = cJSON_AddArrayToObject(o, "chain");
	int ids[256];
	int n = r->n ? search_chain(r, r->best, ids, 256) : 0;
	for (int i = 0; i < n; i++)
		cJSON_AddItemToArray(chain, cJSON_CreateNumber(ids[i]));
	cJSON *t = cJSON_AddObjectToObject(o, "llm");
	totals_json(t, &r->totals);
	cJSON_AddNumberToObject(t, "runs", r->runs > 0 ? r->runs : 1);
	totals_json(cJSON_AddObjectToObject(t, "this_run"), &r->run_totals);
	cJSON_AddNumberToObject(o, "wall_s", r->wall_s);
	cJSON *cs = cJSON_AddArrayToObject(o, "candidates");
	for (int i = 0; i < r->n; i++)
		cJSON_AddItemToArray(cs, candidate_json(&r->c[i]));
	return o;
}

static int write_json(const char *path, cJSON *o)
{
	char *j = cJSON_Print(o);
	size_t n = strlen(j);
	j = realloc(j, n + 2);
	j[n] = '\n';
	j[n + 1] = 0;
	int e = file_write_atomic(path, j, n + 1);
	free(j);
	return e;
}

static double num(cJSON *o, const char *k)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

void state_load_totals(Search *s)
{
	char *text;
	size_t len;
	memset(&s->prior, 0, sizeof s->prior);
	s->prior_runs = 0;
	if (file_read(s->a, arena_printf(s->a, "%s/report.json", s->cfg->state_dir), &text,
	              &len))
		return;
	cJSON *o = cJSON_Parse(text);
	cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "llm");
	if (cJSON_IsObject(t)) {
		s->prior.calls = (long)num(t, "calls");
		s->prior.tokens_in = (long)num(t, "tokens_in");
		s->prior.tokens_out = (long)num(t, "tokens_out");
		s->prior.usd = num(t, "cost_usd");
		s->prior.cache_hits = (long)num(t, "cache_hits");
		s->prior_runs = num(t, "runs") > 0 ? (int)num(t, "runs") : 1;
	}
	cJSON_Delete(o);
}

/* This run's totals and the whole search's (the earlier runs' added). */
static void totals_now(Search *s)
{
	SearchResult *r = s->r;
	r->runs = s->prior_runs + 1;
	r->run_totals = s->cfg->llm ? llm_totals(s->cfg->llm) : (LlmTotals){0};
	r->totals = r->run_totals;
	r->totals.calls += s->prior.calls;
	r->totals.tokens_in += s->prior.tokens_in;
	r->totals.tokens_out += s->prior.tokens_out;
	r->totals.usd += s->prior.usd;
	r->totals.cache_hits += s->prior.cache_hits;
}

int store_write(const char *path, const SearchResult *r, const Unit *orig, const char *target)
{
	cJSON *o = result_json(r, orig, target);
	int e = write_json(path, o);
	cJSON_Delete(o);
	return e;
}

void state_save(Search *s)
{
	totals_now(s);
	store_write(arena_printf(s->a, "%s/report.json", s->cfg->state_dir), s->r, s->cfg->orig,
	            s->cfg->target->name);
}
