/*
 * callgrind.c — the cpu target's profiler where perf's hardware counters do
 * not work (perf.c): valgrind's callgrind with its cache simulator, which
 * works on any VM and counts the same on every run: instructions, data
 * reads and writes, simulated D1 and last-level miss rates, and the
 * functions with the most instructions. Only kcc_profile_calls() of the
 * profiled harness is collected (--toggle-collect), so filling the inputs does not
 * count; the run is single-threaded (OMP_NUM_THREADS=1) so OpenMP workers'
 * work is inside that function too; the simulated LL is sysfs's L3 (cpuid's
 * can be odd on VMs).
 */
#include "internal.h"

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

/* ---- running it ------------------------------------------------------------------- */

static const char *const ONE_THREAD[] = {"OMP_NUM_THREADS=1", NULL};

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

int callgrind_profile(const Target *t, Arena *a, const TargetProfileRun *r, Profile *out)
{
	const char *file = arena_printf(a, "%s/callgrind.out", r->cwd);
	const char *pre[] = {"valgrind", "--tool=callgrind", "--cache-sim=yes", ll_option(t, a),
	                     arena_printf(a, "--callgrind-out-file=%s", file),
	                     arena_printf(a, "--toggle-collect=%s", r->collect), NULL};
	ProcResult pr;
	char *text = NULL;
	size_t len = 0;
	int rc = target_run_tool(a, r, pre, ONE_THREAD, &pr);
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
