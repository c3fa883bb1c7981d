/*
 * profile.c — the Profiler stage (PRAGMA's): the search profiles the
 * versions the planner is shown (the beam's and the best so far), lazily,
 * once each, and memoizes the tool's answer next to the verdict
 * (CACHE/verdicts/HASH.profile.json) so a rerun shows the planner the same
 * numbers and hits the LLM cache. The roofline (spec flops and bytes at the
 * bench shape over the measured median, against the device's peaks) is
 * recomputed from the memoized time. The memo is memo.c's; what the
 * prompts say about a profile is prompts.c's.
 *
 * Plans may ask for extra metrics by name (`Metrics:` lines, gathered in
 * s->ask by the search). Profiles taken after that carry them; a version
 * shown again whose profile predates the ask is profiled again, when its
 * profiler takes extra metrics at all (ncu; not callgrind).
 */
#include "internal.h"

#include <string.h>

/* ---- where and at which shape ---------------------------------------------------- */

static const char *cache_root(Search *s)
{
	const char *m = s->cfg->memo_dir;
	size_t n = m ? strlen(m) : 0;
	if (n > 9 && !strcmp(m + n - 9, "/verdicts"))
		return arena_strndup(s->a, m, n - 9);
	return s->cfg->state_dir;
}

/* ---- taking one -------------------------------------------------------------------- */

void passes_peaks(Search *s)
{
	if (s->peaks_done)
		return;
	s->peaks_done = true;
	const Target *t = s->cfg->target;
	if (!t->peaks || t->peaks(t, s->a, cache_root(s), &s->peaks) != 0)
		memset(&s->peaks, 0, sizeof s->peaks);
}

static void roofline(Search *s, const Candidate *c, Profile *p)
{
	const Spec *sp = &s->cfg->orig->spec;
	if (!c->measured || !sp->has_bench || (!sp->flops && !sp->bytes) || s->r->unit)
		return; /* a count (riscv64) is no time: no roofline */
	passes_peaks(s);
	profile_roofline(s->a, p, target_eval(sp->flops, &sp->bench),
	                 target_eval(sp->bytes, &sp->bench), c->ms * 1e-3, &s->peaks,
	                 profile_compute_type(sp));
}

void profile_candidate(Search *s, int id)
{
	Candidate *c = &s->r->c[id];
	if (!c->correct || !c->text)
		return;
	if (c->profile && (!c->profile->takes || profile_ask_same(c->profile->ask, &s->ask)))
		return;
	ProfileAsk *ask = arena_alloc(s->a, sizeof *ask);
	*ask = s->ask; /* as it is now: later plans add to s->ask */
	ask->cache_dir = cache_root(s);
	Profile *p = arena_alloc(s->a, sizeof *p);
	if (!memo_profile_get(s, c, ask, p)) {
		Unit *pu = id == 0 ? NULL : ir_parse(s->a, c->file, c->text, c->len, s->cfg->io, false);
		if (pu && c->cflags && *c->cflags)
			pu->build_flags = passes_split_flags(s->a, c->cflags);
		const Unit *u = id == 0 ? s->cfg->orig : pu;
		const Shape *sh = u ? target_profile_shape(s->cfg->target, s->cfg->orig) : NULL;
		if (!u || !sh)
			profile_note(s->a, p, "no profile: the candidate has no usable shape");
		else
			verify_profile(s->cfg->target, s->a, u, sh, s->cfg->vo.tmpdir, 300, ask, p);
		if (!p->source)
			p->source = "none";
		memo_profile_put(s, c, ask, p);
	}
	p->ask = ask;
	roofline(s, c, p);
	c->profile = p;
}

