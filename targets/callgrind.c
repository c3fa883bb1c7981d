/*
 * callgrind.c — the cpu target's profiler. perf stat's hardware counters
 * when they work (`perf stat -e instructions true` answers with a number),
 * else valgrind's callgrind with its cache simulator, which works on any
 * VM and counts the same on every run: instructions, data reads and
 * writes, simulated D1 and last-level miss rates, and the functions with
 * the most instructions. Only kcc_profile_calls() of the driver is
 * collected (--toggle-collect), so filling the inputs does not count; the
 * run is single-threaded (OMP_NUM_THREADS=1) so OpenMP workers' work is
 * inside that function too; the simulated LL is sysfs's L3 (cpuid's can
 * be odd on VMs). The profile's notes say which tool ran.
 */
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- callgrind's output file -------------------------------------------------------- */

enum { EV_IR, EV_DR, EV_DW, EV_D1MR, EV_D1MW, EV_DLMR, EV_DLMW, EV_N };
static const char *const EV_NAMES[EV_N] = {"Ir", "Dr", "Dw", "D1mr", "D1mw", "DLmr", "DLmw"};

typedef struct {
	int col[EV_N];    /* column of each event in cost lines, -1 absent */
	int npos;         /* position columns before the costs */
	double tot[EV_N];
	bool have_tot;
	const char **fn;  /* compressed names: id -> name */
	int nfn;
	size_t fncap;
	const char **hot; /* self Ir per function name */
	double *self;
	int nhot;
	size_t hotcap, selfcap;
	int cur;          /* current function's index in hot, -1 none */
	bool skip_next;   /* the line after calls= is a call's inclusive cost */
} Cg;

static void cg_events(Cg *g, const char *line)
{
	for (int e = 0; e < EV_N; e++)
		g->col[e] = -1;
	int col = 0;
	for (const char *p = line; *p;) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, " \t\r\n");
		for (int e = 0; e < EV_N && n; e++)
			if (strlen(EV_NAMES[e]) == n && !strncmp(p, EV_NAMES[e], n))
				g->col[e] = col;
		if (n)
			col++;
		p += n;
		if (*p == '\r' || *p == '\n')
			break;
	}
}

static void cg_costs(const Cg *g, const char *p, double *v)
{
	double cols[64] = {0};
	int n = 0;
	for (; *p && *p != '\n' && n < 64;) {
		p += strspn(p, " \t");
		if (!*p || *p == '\n')
			break;
		cols[n++] = strtod(p, NULL);
		p += strcspn(p, " \t\n");
	}
	for (int e = 0; e < EV_N; e++)
		v[e] = g->col[e] >= 0 ? cols[g->col[e]] : 0;
}

/* "(12) name" defines id 12; "(12)" refers to it; "name" is uncompressed. */
static const char *cg_name(Arena *a, Cg *g, const char *p)
{
	p += strspn(p, " ");
	size_t len = strcspn(p, "\r\n");
	if (*p != '(')
		return arena_strndup(a, p, len);
	int id = atoi(p + 1);
	const char *close = strchr(p, ')');
	if (id < 0 || id > 1000000 || !close)
		return "?";
	const char *name = close + 1 + strspn(close + 1, " ");
	size_t nlen = strcspn(name, "\r\n");
	while (g->nfn <= id)
		ARENA_PUSH(a, g->fn, g->nfn, g->fncap, NULL);
	if (nlen)
		g->fn[id] = arena_strndup(a, name, nlen);
	return g->fn[id] ? g->fn[id] : "?";
}

static void cg_function(Arena *a, Cg *g, const char *name)
{
	for (int i = 0; i < g->nhot; i++)
		if (!strcmp(g->hot[i], name)) {
			g->cur = i;
			return;
		}
	int n = g->nhot;
	ARENA_PUSH(a, g->hot, g->nhot, g->hotcap, name);
	int m = n;
	ARENA_PUSH(a, g->self, m, g->selfcap, 0.0);
	g->cur = n;
}

static void cg_line(Arena *a, Cg *g, const char *line)
{
	char c = line[0];
	if (!strncmp(line, "events:", 7))
		cg_events(g, line + 7);
	else if (!strncmp(line, "positions:", 10))
		g->npos = strstr(line, "instr") && strstr(line, "line") ? 2 : 1;
	else if (!strncmp(line, "summary:", 8) || !strncmp(line, "totals:", 7)) {
		cg_costs(g, strchr(line, ':') + 1, g->tot);
		g->have_tot = true;
	} else if (!strncmp(line, "fn=", 3))
		cg_function(a, g, cg_name(a, g, line + 3));
	else if (!strncmp(line, "cfn=", 4))
		cg_name(a, g, line + 4); /* defines a name for later fn= lines */
	else if (!strncmp(line, "calls=", 6))
		g->skip_next = true;
	else if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*') {
		if (g->skip_next) {
			g->skip_next = false;
			return;
		}
		const char *p = line;
		for (int k = 0; k < g->npos; k++) {
			p += strspn(p, " \t");
			p += strcspn(p, " \t\n");
		}
		double v[EV_N];
		cg_costs(g, p, v);
		if (g->cur >= 0)
			g->self[g->cur] += v[EV_IR];
	}
}

static void cg_top(Arena *a, Cg *g, Profile *out)
{
	double total = g->tot[EV_IR];
	for (int k = 0; k < 5 && total > 0; k++) {
		int best = -1;
		for (int i = 0; i < g->nhot; i++)
			if (g->self[i] > 0 && (best < 0 || g->self[i] > g->self[best]))
				best = i;
		if (best < 0 || 100 * g->self[best] / total < 0.5)
			break;
		ProfileHot h = {g->hot[best], 100 * g->self[best] / total};
		ARENA_PUSH(a, out->hot, out->nhot, out->hotcap, h);
		g->self[best] = 0;
	}
}

static double pct(double x, double of)
{
	return of > 0 ? 100 * x / of : 0;
}

int profile_parse_callgrind(Arena *a, const char *text, size_t len, Profile *out)
{
	Cg g = {.npos = 1, .cur = -1};
	for (int e = 0; e < EV_N; e++)
		g.col[e] = -1;
	bool events = false;
	for (const char *p = text; p < text + len;) {
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(text + len - p);
		char *line = arena_strndup(a, p, n);
		events |= !strncmp(line, "events:", 7);
		cg_line(a, &g, line);
		p += n + 1;
	}
	if (!events || !g.have_tot || g.col[EV_IR] < 0)
		return -1;
	double *t = g.tot, acc = t[EV_DR] + t[EV_DW];
	out->source = "callgrind";
	profile_set(a, out, "instructions", t[EV_IR], "",
	            "instructions executed by the entry (Ir): the work the CPU does");
	if (g.col[EV_DR] >= 0) {
		profile_set(a, out, "data reads", t[EV_DR], "", "loads executed (Dr)");
		profile_set(a, out, "data writes", t[EV_DW], "", "stores executed (Dw)");
		profile_set(a, out, "loads+stores per instruction", t[EV_IR] > 0 ? acc / t[EV_IR] : 0,
		            "", "share of instructions that touch memory");
	}
	if (g.col[EV_D1MR] >= 0) {
		profile_set(a, out, "D1 miss rate", pct(t[EV_D1MR] + t[EV_D1MW], acc), "%",
		            "loads+stores that miss the simulated L1 data cache");
		profile_set(a, out, "LL miss rate", pct(t[EV_DLMR] + t[EV_DLMW], acc), "%",
		            "loads+stores that miss the simulated last-level cache (go to DRAM)");
		profile_set(a, out, "DRAM traffic", 64 * (t[EV_DLMR] + t[EV_DLMW]), "bytes",
		            "last-level misses x 64-byte lines");
	}
	cg_top(a, &g, out);
	return 0;
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

/* ---- running them -------------------------------------------------------------------- */

static int perf_state; /* 0 unknown, 1 works, -1 does not */

static bool perf_works(Arena *a)
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

static const char *const ONE_THREAD[] = {"OMP_NUM_THREADS=1", NULL};

static int run_tool(Arena *a, const TargetProfileRun *r, const char **pre, size_t npre,
                    const char *const *env, ProcResult *pr)
{
	const char **argv = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < npre; i++)
		ARENA_PUSH(a, argv, n, cap, pre[i]);
	for (int i = 0; r->argv[i]; i++)
		ARENA_PUSH(a, argv, n, cap, r->argv[i]);
	ARENA_PUSH(a, argv, n, cap, NULL);
	ProcSpec ps = {.argv = argv, .cwd = r->cwd, .env_extra = env,
	               .timeout_s = r->timeout_s > 0 ? r->timeout_s : 120, .max_output = 1 << 20,
	               .sandbox = PROC_SANDBOX};
	diag_trace("kcc: %s", proc_cmdline(a, argv));
	return proc_run(a, &ps, pr);
}

static int with_perf(Arena *a, const TargetProfileRun *r, Profile *out)
{
	const char *pre[] = {"perf", "stat", "-x,", "-e", PERF_EVENTS, "--"};
	ProcResult pr;
	int rc = run_tool(a, r, pre, ARRAY_LEN(pre), NULL, &pr);
	if (rc == 0)
		target_keep_raw(a, r, "perf.txt", pr.err, pr.err ? strlen(pr.err) : 0);
	if (rc != 0 || !proc_ok(&pr) || profile_parse_perf(a, pr.err, out) != 0) {
		profile_note(a, out, "perf stat failed: %s", proc_tail(pr.err, 3));
		return -1;
	}
	profile_note(a, out, "perf stat hardware counters of the whole driver run");
	return 0;
}

/* valgrind takes the LL from cpuid, which VMs fill oddly (one reported a
 * direct-mapped 320 MiB L3, simulated as 256 MiB): give it sysfs's size,
 * rounded down to a power of two, 16-way. */
static const char *ll_option(const Target *t, Arena *a)
{
	TargetInfo info;
	t->describe(t, a, &info);
	uint64_t ll = info.l3 ? info.l3 : info.l2, p = 1;
	if (ll < (1u << 20))
		return "--cache-sim=yes";
	while (p * 2 <= ll)
		p *= 2;
	return arena_printf(a, "--LL=%llu,16,64", (unsigned long long)p);
}

static int with_callgrind(const Target *t, Arena *a, const TargetProfileRun *r, Profile *out)
{
	const char *file = arena_printf(a, "%s/callgrind.out", r->cwd);
	const char *pre[] = {"valgrind", "--tool=callgrind", "--cache-sim=yes", ll_option(t, a),
	                     arena_printf(a, "--callgrind-out-file=%s", file),
	                     arena_printf(a, "--toggle-collect=%s", r->collect)};
	ProcResult pr;
	char *text = NULL;
	size_t len = 0;
	int rc = run_tool(a, r, pre, ARRAY_LEN(pre), ONE_THREAD, &pr);
	if (rc != 0 || !proc_ok(&pr) || file_read(a, file, &text, &len) != 0 ||
	    profile_parse_callgrind(a, text, len, out) != 0) {
		profile_note(a, out, "callgrind failed (%s): %s",
		             rc ? "not started" : proc_describe(a, &(ProcSpec){0}, &pr),
		             proc_tail(pr.err ? pr.err : "", 3));
		if (!r->keep)
			unlink(file);
		return -1;
	}
	if (!r->keep)
		unlink(file);
	profile_note(a, out, "perf's hardware counters are not available here, so callgrind "
	                     "(simulated caches, one thread, AVX-512 off for valgrind)");
	return 0;
}

int cpu_profile(const Target *t, Arena *a, const TargetProfileRun *r, Profile *out)
{
	if (perf_works(a))
		return with_perf(a, r, out);
	if (!target_which(a, "valgrind", NULL)) {
		profile_note(a, out, "neither perf's hardware counters nor valgrind are available: "
		                     "no profile, measurements only");
		return -1;
	}
	return with_callgrind(t, a, r, out);
}
