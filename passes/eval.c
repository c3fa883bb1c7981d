/*
 * eval.c — one candidate through the Verifier and the timer: verify_source
 * parses it without demanding a spec (so a changed pragma gets the
 * verifier's exact reason), checks it and, when correct, times it against
 * the original. Verdicts are remembered in the
 * memo (memo.c) by text, and the same code under another text (dedup.c)
 * takes the verdict of the candidate that had it first.
 */
#include "internal.h"

#include <string.h>

static void take_verdict(Search *s, Candidate *c, const Verdict *v)
{
	c->reason = v->reason;
	c->correct = v->reason == VR_OK;
	c->why = v->summary ? arena_strdup(s->a, v->summary) : verify_reason_name(v->reason);
	/* the planner and the repair need the shape a rejection happened at */
	if (v->reason != VR_OK && v->shape && !strstr(c->why, v->shape))
		c->why = arena_printf(s->a, "%s; shape %s", c->why, v->shape);
	if (v->log && *v->log)
		c->log = v->log;
}

static void take_measure(Search *s, Candidate *c, const BenchResult *b)
{
	c->measured = true;
	double k = b->unit ? 1 : 1e3; /* a count stays a count */
	c->ms = b->cand.median * k, c->ms_q1 = b->cand.q1 * k, c->ms_q3 = b->cand.q3 * k;
	c->speedup = b->speedup, c->lo = b->ci_lo, c->hi = b->ci_hi;
	if (!s->r->shape && b->shape)
		s->r->shape = arena_strdup(s->a, b->shape);
}

/* The earlier judged candidate with c's normal form, or -1. The memo
 * answers the same bytes; this answers the same code. */
static int same_code(Search *s, const Candidate *c)
{
	for (int i = 0; i < c->id; i++) {
		const Candidate *k = &s->r->c[i];
		if (k->key[0] && !k->duplicate && !strcmp(k->key, c->key))
			return i;
	}
	return -1;
}

static void take_duplicate(Search *s, Candidate *c, const Candidate *k)
{
	c->duplicate = true;
	c->dup_of = k->id;
	c->correct = k->correct;
	c->reason = k->reason;
	c->why = arena_printf(s->a, "the same code as candidate %d (%s)", k->id,
	                      k->why ? k->why : verify_reason_name(k->reason));
	c->log = k->log;
	c->measured = k->measured;
	c->ms = k->ms, c->ms_q1 = k->ms_q1, c->ms_q3 = k->ms_q3;
	c->speedup = k->speedup, c->lo = k->lo, c->hi = k->hi;
	c->profile = k->profile;
	if (k->id == 0) /* the original sent back: no faster than itself */
		c->speedup = c->lo = c->hi = 1.0;
	s->r->duplicates++;
}

int eval_candidate(Search *s, int id, bool bench)
{
	Candidate *c = &s->r->c[id];
	if (c->cflags && *c->cflags) { /* the same text built another way */
		Strbuf sb = STRBUF_INIT;
		sb_addn(&sb, c->text, c->len);
		sb_addf(&sb, "\n/* kcc cflags: %s */\n", c->cflags);
		sha256_hex(sb.buf, sb.len, c->sha);
		sb_release(&sb);
	} else
		sha256_hex(c->text, c->len, c->sha);
	passes_text_key(s->a, c->text, c->len, c->key);
	if (c->cflags && *c->cflags) { /* the same code built another way is not */
		const char *k2 = arena_printf(s->a, "%s\ncflags %s", c->key, c->cflags);
		sha256_hex(k2, strlen(k2), c->key);
	}
	int k = same_code(s, c);
	if (k >= 0 && (k == 0 || !bench || !s->r->c[k].correct || s->r->c[k].measured)) {
		take_duplicate(s, c, &s->r->c[k]);
		diag_trace("kcc: candidate %d: the same code as candidate %d (%s)", id, k,
		           c->correct ? "correct" : verify_reason_name(c->reason));
		return 0;
	}
	if (memo_verdict_get(s, c, bench)) {
		diag_trace("kcc: candidate %d: %s (remembered)", id,
		           c->correct ? "correct" : verify_reason_name(c->reason));
		return 0;
	}
	VerifySource src = {.path = c->file, .text = c->text, .len = c->len, .io = s->cfg->io,
	                    .bench = bench, .quiet = true};
	if (c->cflags && *c->cflags)
		src.build_flags = passes_split_flags(s->a, c->cflags);
	VerifyResult res;
	if (verify_source(s->ref, &src, &res) != 0)
		return -1;
	take_verdict(s, c, verify_result_verdict(&res));
	c->verify_s = res.verify_s;
	c->bench_s = res.bench_s;
	if (res.timed && res.bench.verdict.reason == VR_OK)
		take_measure(s, c, &res.bench);
	memo_verdict_put(s, c);
	return 0;
}
