/*
 * eval.c — one candidate through the Verifier and the timer. A candidate
 * is parsed without demanding a spec (so a changed pragma gets the
 * verifier's exact reason), checked with verify_candidate (or
 * verify_unparsed when the front end rejects it) and, when correct, timed
 * against the original with verify_bench. Verdicts are remembered in the
 * memo (memo.c) by text, and the same code under another text (dedup.c)
 * takes the verdict of the candidate that had it first.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The front end reports a candidate's errors through the diagnostics
 * sink: they belong in the record (and the repair prompt), not on the
 * user's terminal, so the sink writes them into a buffer meanwhile. */
typedef struct {
	Strbuf sb;
	Strbuf *prev;
} Capture;

static void capture_begin(Capture *c)
{
	c->sb = (Strbuf)STRBUF_INIT;
	c->prev = diag_capture(&c->sb);
}

static const char *capture_end(Capture *c, Arena *a)
{
	diag_capture(c->prev);
	if (c->sb.len > 65536)
		c->sb.buf[c->sb.len = 65536] = 0;
	const char *errs = sb_to_arena(&c->sb, a); /* releases the buffer */
	return *errs ? errs : "";
}

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

static int measure(Search *s, Candidate *c, const Unit *u)
{
	double t = clock_now();
	BenchResult b;
	memset(&b, 0, sizeof b);
	if (verify_bench(s->ref, u, &b) != 0)
		return -1;
	c->bench_s = clock_now() - t;
	if (b.verdict.reason != VR_OK) {
		take_verdict(s, c, &b.verdict);
		return 0;
	}
	c->measured = true;
	double k = b.unit ? 1 : 1e3; /* a count stays a count */
	c->ms = b.cand.median * k, c->ms_q1 = b.cand.q1 * k, c->ms_q3 = b.cand.q3 * k;
	c->speedup = b.speedup, c->lo = b.ci_lo, c->hi = b.ci_hi;
	if (!s->r->shape && b.shape)
		s->r->shape = arena_strdup(s->a, b.shape);
	return 0;
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
	double t = clock_now();
	Capture cap;
	capture_begin(&cap);
	Unit *u = ir_parse(s->a, c->file, c->text, c->len, s->cfg->io, false);
	const char *errs = capture_end(&cap, s->a);
	if (u && c->cflags && *c->cflags)
		u->build_flags = passes_split_flags(s->a, c->cflags);
	Verdict v;
	memset(&v, 0, sizeof v);
	if (!u)
		verify_unparsed(s->ref, c->file, c->text, c->len, &v);
	else if (verify_candidate(s->ref, u, &v) != 0)
		return -1;
	take_verdict(s, c, &v);
	if (!u && *errs)
		c->log = errs;
	c->verify_s = clock_now() - t;
	if (c->correct && bench && measure(s, c, u) != 0)
		return -1;
	memo_verdict_put(s, c);
	return 0;
}
