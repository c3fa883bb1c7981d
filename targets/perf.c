/*
 * perf.c — the cpu target's profiler where the hardware counters work
 * (`perf stat -e instructions true` answers with a number): `perf stat -x,`
 * on the whole profile run, its CSV parsed into instructions, IPC and the
 * D1 and last-level miss rates, with notes on what perf could not count,
 * on multiplexed counters and on hybrid cpus' core types.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double pct(double x, double of)
{
	return of > 0 ? 100 * x / of : 0;
}

/* ---- perf stat -x, ------------------------------------------------------------------ */

/* perf's CSV (perf-stat(1), "CSV FORMAT"): value, unit, event, run time
 * (ns), % of the time the counter ran, then an optional metric and its
 * unit. The value is "<not supported>" or "<not counted>" when there is
 * none. Events carry modifiers ("instructions:u" when perf counts user
 * space only); a hybrid cpu reports each event once per core type
 * ("cpu_core/instructions/u", "cpu_atom/instructions/u"). */
enum { PE_INS, PE_CYC, PE_L1, PE_L1M, PE_LL, PE_LLM, PE_N };
static const char *const PE_NAMES[PE_N] = {
    "instructions", "cycles", "L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads",
    "LLC-load-misses"};
/* What kcc asks perf for: PE_NAMES. */
static const char PERF_EVENTS[] =
    "instructions,cycles,L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses";

/* One PMU's counts ("" when the cpu is not hybrid). */
typedef struct {
	const char *pmu;
	double n[PE_N];        /* as perf printed it: scaled to the whole run */
	double ran[PE_N];      /* % of the run the counter was counting */
	bool have[PE_N];
	const char *why[PE_N]; /* "<not supported>", "<not counted>" */
} PerfPmu;

typedef struct {
	PerfPmu *pmu;
	int n;
	size_t cap;
} Perf;

/* Field k of the CSV line [s, e), its length in *len; NULL past the end. */
static const char *csv_field(const char *s, const char *e, int k, size_t *len)
{
	for (; k > 0; k--) {
		const char *c = memchr(s, ',', (size_t)(e - s));
		if (!c)
			return NULL;
		s = c + 1;
	}
	const char *c = memchr(s, ',', (size_t)(e - s));
	*len = (size_t)((c ? c : e) - s);
	return s;
}

/* A number filling the whole field; false for "<not counted>", "". */
static bool csv_number(const char *s, size_t len, double *x)
{
	char *end;
	if (!len || *s < '0' || *s > '9')
		return false;
	*x = strtod(s, &end);
	return end == s + len;
}

/* The event's PMU entry: "cpu_core/LLC-loads/u" is cpu_core's LLC-loads,
 * "instructions:u" the one PMU's instructions. NULL: not an event kcc
 * asks for; *ev its index. */
static PerfPmu *perf_event(Arena *a, Perf *pf, const char *s, size_t len, int *ev)
{
	const char *e = s + len, *pmu = s, *slash = memchr(s, '/', len), *c;
	size_t plen = 0;
	if (slash) {
		plen = (size_t)(slash - s);
		s = slash + 1;
		if ((c = memchr(s, '/', (size_t)(e - s))))
			e = c;
	}
	if ((c = memchr(s, ':', (size_t)(e - s))))
		e = c;
	for (*ev = 0; *ev < PE_N; ++*ev)
		if (strlen(PE_NAMES[*ev]) == (size_t)(e - s) && !memcmp(PE_NAMES[*ev], s, (size_t)(e - s)))
			break;
	if (*ev == PE_N)
		return NULL;
	for (int k = 0; k < pf->n; k++)
		if (strlen(pf->pmu[k].pmu) == plen && !memcmp(pf->pmu[k].pmu, pmu, plen))
			return &pf->pmu[k];
	ARENA_PUSH(a, pf->pmu, pf->n, pf->cap, ((PerfPmu){.pmu = arena_strndup(a, pmu, plen)}));
	return &pf->pmu[pf->n - 1];
}

static void perf_line(Arena *a, Perf *pf, const char *s, const char *e)
{
	if (e > s && e[-1] == '\r')
		e--;
	size_t vlen = 0, nlen = 0, rlen = 0;
	const char *name = csv_field(s, e, 2, &nlen), *ran = csv_field(s, e, 4, &rlen);
	int ev;
	PerfPmu *u = name && *s != '#' ? perf_event(a, pf, name, nlen, &ev) : NULL;
	if (!u)
		return;
	const char *v = csv_field(s, e, 0, &vlen);
	double x, r;
	if (csv_number(v, vlen, &x)) {
		u->n[ev] = x;
		u->ran[ev] = ran && csv_number(ran, rlen, &r) ? r : 100;
		u->have[ev] = true;
	} else if (*v == '<' && !u->have[ev]) {
		u->why[ev] = arena_strndup(a, v, vlen);
	}
}

/* A hybrid cpu's counts are taken as counted, perf's figure times the
 * share of the run the counter ran: perf scales each core type's count up
 * to the whole run as if the program had run there all along, which would
 * count the run about twice. Elsewhere a share under 100% means perf
 * multiplexed the counters, and its scaled figure is the best estimate. */
static double perf_count(const Perf *pf, const PerfPmu *u, int ev)
{
	return pf->n > 1 ? u->n[ev] * u->ran[ev] / 100 : u->n[ev];
}

/* Over the PMUs that counted both events x and y (y < 0: x alone), the
 * sums of their counts; how many PMUs that was. A core type that counted
 * one event of a pair but not the other (cpu_atom has no
 * L1-dcache-load-misses) is left out, and the notes say so under `what`. */
static int perf_sum(Arena *a, const Perf *pf, int x, int y, double *sx, double *sy,
                    const char *what, Profile *out)
{
	Strbuf used = STRBUF_INIT, left = STRBUF_INIT;
	int n = 0;
	*sx = *sy = 0;
	for (int k = 0; k < pf->n; k++) {
		const PerfPmu *u = &pf->pmu[k];
		bool hx = u->have[x], hy = y < 0 || u->have[y];
		if (hx && hy) {
			*sx += perf_count(pf, u, x);
			*sy += y >= 0 ? perf_count(pf, u, y) : 0;
			sb_addf(&used, "%s%s", n++ ? ", " : "", u->pmu);
		} else if (y >= 0 && pf->n > 1 && (hx || hy)) {
			int miss = hx ? y : x;
			sb_addf(&left, "%s%s/%s: %s", left.len ? ", " : "", u->pmu, PE_NAMES[miss],
			        u->why[miss] ? u->why[miss] : "not in perf's output");
		}
	}
	if (left.len && n)
		profile_note(a, out, "%s of %s only (%s)", what, sb_str(&used), sb_str(&left));
	else if (left.len)
		profile_note(a, out, "no %s (%s)", what, sb_str(&left));
	sb_release(&used);
	sb_release(&left);
	return n;
}

int profile_parse_perf(Arena *a, const char *text, Profile *out)
{
	Perf pf = {0};
	for (const char *p = text, *e; p && *p; p = *e ? e + 1 : NULL) {
		e = strchr(p, '\n');
		e = e ? e : p + strlen(p);
		perf_line(a, &pf, p, e);
	}
	double ins, cyc, x, y;
	if (perf_sum(a, &pf, PE_INS, -1, &ins, &y, "instructions", out) == 0)
		return -1;
	out->source = "perf";
	profile_set(a, out, "instructions", ins, "", "instructions retired by the whole run");
	if (perf_sum(a, &pf, PE_INS, PE_CYC, &x, &cyc, "IPC", out) && cyc > 0)
		profile_set(a, out, "IPC", x / cyc, "", "instructions per cycle (4+ is good)");
	if (perf_sum(a, &pf, PE_L1M, PE_L1, &x, &y, "D1 miss rate", out))
		profile_set(a, out, "D1 miss rate", pct(x, y), "%", "L1 data loads that miss");
	if (perf_sum(a, &pf, PE_LLM, PE_LL, &x, &y, "LL miss rate", out))
		profile_set(a, out, "LL miss rate", pct(x, y), "%",
		            "last-level cache loads that miss (go to DRAM)");

	/* What is missing, and how far the counts are perf's estimates. */
	Strbuf miss = STRBUF_INIT;
	int low = -1; /* the counter that ran the least of the run, when not all of it */
	for (int ev = 0; ev < PE_N; ev++) {
		const char *why = NULL;
		bool have = false;
		for (int k = 0; k < pf.n; k++) {
			have |= pf.pmu[k].have[ev];
			why = why ? why : pf.pmu[k].why[ev];
		}
		const PerfPmu *u = pf.pmu;
		if (pf.n == 1 && u->have[ev] && u->ran[ev] < 100 && (low < 0 || u->ran[ev] < u->ran[low]))
			low = ev;
		if (!have)
			sb_addf(&miss, "%s%s (%s)", miss.len ? ", " : "", PE_NAMES[ev],
			        why ? why : "not in perf's output");
	}
	if (miss.len)
		profile_note(a, out, "perf could not count %s", sb_str(&miss));
	sb_release(&miss);
	if (pf.n > 1) {
		Strbuf pmus = STRBUF_INIT;
		for (int k = 0; k < pf.n; k++)
			sb_addf(&pmus, "%s%s", k ? ", " : "", pf.pmu[k].pmu);
		profile_note(a, out, "hybrid cpu (%s): each core type's count is taken for the share "
		             "of the run it counted, and they are summed", sb_str(&pmus));
		sb_release(&pmus);
	} else if (low >= 0) {
		profile_note(a, out, "perf multiplexed the counters (%s counted %.2f%% of the run): "
		             "those counts are perf's estimates for the whole run",
		             PE_NAMES[low], pf.pmu[0].ran[low]);
	}
	return 0;
}

/* ---- running it ------------------------------------------------------------------- */

static int perf_state; /* 0 unknown, 1 works, -1 does not */

bool perf_works(Arena *a)
{
	if (perf_state == 0) {
		const char *perf = target_which(a, "perf", NULL);
		const char *argv[] = {perf ? perf : "perf", "stat", "-x,", "-e", "instructions",
		                      "true", NULL};
		ProcSpec ps = {.argv = argv, .timeout_s = 10};
		ProcResult r;
		perf_state = perf && proc_run(a, &ps, &r) == 0 && proc_ok(&r) &&
		                     !strstr(r.err, "<not") && profile_parse_perf(a, r.err, &(Profile){0}) == 0
		                 ? 1
		                 : -1;
	}
	return perf_state > 0;
}

int perf_profile(Arena *a, const TargetProfileRun *r, Profile *out)
{
	const char *pre[] = {"perf", "stat", "-x,", "-e", PERF_EVENTS, "--", NULL};
	ProcResult pr;
	int rc = target_run_tool(a, r, pre, NULL, &pr);
	if (rc == 0)
		target_keep_raw(a, r, "perf.txt", pr.err, pr.err ? strlen(pr.err) : 0);
	if (rc != 0 || !proc_ok(&pr) || profile_parse_perf(a, pr.err, out) != 0) {
		profile_note(a, out, "perf stat failed: %s", proc_tail(pr.err, 3));
		return -1;
	}
	profile_note(a, out, "perf stat hardware counters of the whole profile run");
	return 0;
}
