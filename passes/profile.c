/*
 * profile.c — the Profiler stage (PRAGMA's): the search profiles the
 * versions the planner is shown (the beam's and the best so far), lazily,
 * once each, and memoizes the tool's answer next to the verdict
 * (CACHE/verdicts/HASH.profile.json) so a rerun shows the planner the same
 * numbers and hits the LLM cache. The roofline (spec flops and bytes at the
 * bench shape over the measured median, against the device's peaks) is
 * recomputed from the memoized time. The prompt text lives here too: the
 * profile with each metric's meaning, a "best so far vs current" table,
 * and the part of menus/metrics.md for the target.
 *
 * Plans may ask for extra metrics by name (`Metrics:` lines, gathered in
 * s->ask by the search). Profiles taken after that carry them; a version
 * shown again whose profile predates the ask is profiled again, when its
 * profiler takes extra metrics at all (ncu; not callgrind).
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
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
			target_profile_ask(s->cfg->target, s->a, u, sh, s->cfg->vo.tmpdir, 300, ask, p);
		if (!p->source)
			p->source = "none";
		memo_profile_put(s, c, ask, p);
	}
	p->ask = ask;
	roofline(s, c, p);
	c->profile = p;
}

/* ---- prompt text --------------------------------------------------------------------- */

const char *profile_prompt(Search *s, int id)
{
	profile_candidate(s, id);
	const Profile *p = s->r->c[id].profile;
	return p ? profile_text(s->a, p) : "No profile (the version did not verify).";
}

/* "| metric | best so far | current |" over the current's metrics. */
const char *profile_compare(Search *s, int current)
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
const char *profile_asking(Search *s, int id)
{
	const Profile *p = s->r->c[id].profile;
	const char *doc = passes_builtin("menus/metrics.md", NULL);
	if (!p || !p->takes || !doc)
		return "";
	const char *h = strstr(doc, arena_printf(s->a, "## Asking for metrics: %s\n", p->takes));
	if (!h)
		return "";
	h = strchr(h, '\n') + 1;
	const char *end = strstr(h, "\n## ");
	size_t n = end ? (size_t)(end - h) : strlen(h);
	while (n && (h[n - 1] == '\n' || h[n - 1] == ' '))
		n--;
	return arena_printf(s->a, "\n%.*s", (int)n, h);
}

/* The sections "## Roofline" and "## TARGET" of menus/metrics.md. */
const char *profile_meanings(Search *s)
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
