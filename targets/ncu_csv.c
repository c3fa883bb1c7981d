/*
 * ncu_csv.c — Nsight Compute's CSV (`ncu --csv --metrics LIST`) as a
 * Profile: the curated set kcc asks for (duration, SM and DRAM throughput,
 * occupancy, registers, shared memory, tensor pipe, L1/L2 hit rates, the
 * top warp stall reasons, local-memory traffic) and the extra metrics the
 * plan asked for. ncu's CSV comes in a long layout (one row per kernel and
 * metric: "ID",...,"Metric Name","Metric Unit","Metric Value") and a wide
 * one (--page raw: a header of metric names, a row of units, one row per
 * kernel); values may carry thousands separators ("1,234.5") or be "n/a",
 * and units depend on --print-units. Running ncu is ncu.c.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { U_RAW, U_TIME, U_BYTES, U_PCT } UnitKind;

typedef struct {
	const char *ncu, *name;
	UnitKind kind;
	const char *meaning;
} NcuMetric;

static const NcuMetric NCU[] = {
    {"gpu__time_duration.sum", "duration", U_TIME, "GPU time of the kernel(s)"},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM throughput", U_PCT,
     "busiest SM unit, % of its peak: high means compute-bound"},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM throughput", U_PCT,
     "% of peak DRAM bandwidth: high means memory-bound"},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy", U_PCT,
     "active warps per SM, % of the maximum"},
    {"launch__registers_per_thread", "registers per thread", U_RAW,
     "above ~128 limits occupancy"},
    {"launch__shared_mem_per_block_static", "shared memory per block", U_BYTES,
     "static + dynamic shared memory per block"},
    {"launch__shared_mem_per_block_dynamic", "shared memory per block", U_BYTES,
     "static + dynamic shared memory per block"},
    {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
     "tensor pipe active", U_PCT, "tensor-core (HMMA) pipe busy, % of peak"},
    {"l1tex__t_sector_hit_rate.pct", "L1 hit rate", U_PCT, "L1/tex sector hit rate"},
    {"lts__t_sector_hit_rate.pct", "L2 hit rate", U_PCT, "L2 sector hit rate"},
    {"l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum", "local memory traffic", U_BYTES,
     "register spills and local arrays (loads + stores): should be 0"},
    {"l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum", "local memory traffic", U_BYTES,
     "register spills and local arrays (loads + stores): should be 0"},
};

static const char *const STALLS[] = {"long_scoreboard", "short_scoreboard", "barrier",
                                     "mio_throttle", "math_pipe_throttle", "wait",
                                     "not_selected", "lg_throttle", "membar",
                                     "branch_resolving", "no_instruction", "tex_throttle",
                                     "dispatch_stall", "drain", "imc_miss"};
static const char STALL_PRE[] = "smsp__average_warps_issue_stalled_";
static const char STALL_PRE2[] = "smsp__average_warp_latency_issue_stalled_";

const char *profile_ncu_metrics(void)
{
	static char *list;
	if (!list) {
		Strbuf sb = STRBUF_INIT;
		for (size_t i = 0; i < ARRAY_LEN(NCU); i++)
			sb_addf(&sb, "%s%s", i ? "," : "", NCU[i].ncu);
		for (size_t i = 0; i < ARRAY_LEN(STALLS); i++)
			sb_addf(&sb, ",%s%s_per_issue_active.ratio", STALL_PRE, STALLS[i]);
		list = strdup(sb_str(&sb));
		sb_release(&sb);
	}
	return list;
}

/* ---- CSV --------------------------------------------------------------------------- */

typedef struct {
	char **f;
	int n;
	size_t cap;
} Row;

/* One CSV line (quotes, "" escapes) from *p; advances *p. */
static Row csv_row(Arena *a, const char **p, const char *end)
{
	Row r = {0};
	const char *s = *p;
	while (s < end && *s != '\n') {
		Strbuf f = STRBUF_INIT;
		if (*s == '"') {
			for (s++; s < end && !(*s == '"' && (s + 1 >= end || s[1] != '"')); s++) {
				if (*s == '"')
					s++;
				sb_addc(&f, *s);
			}
			s++;
		}
		while (s < end && *s != ',' && *s != '\n' && *s != '\r')
			sb_addc(&f, *s++);
		ARENA_PUSH(a, r.f, r.n, r.cap, sb_to_arena(&f, a));
		if (s < end && *s == ',')
			s++;
		else {
			s += strspn(s, "\r");
			break;
		}
	}
	*p = s < end ? s + 1 : end;
	return r;
}

static int col(const Row *r, const char *name)
{
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->f[i], name))
			return i;
	return -1;
}

/* "1,234.5" -> 1234.5; "n/a", "" -> false. */
static bool ncu_number(const char *s, double *v)
{
	char buf[64];
	size_t n = 0;
	for (; *s && n + 1 < sizeof buf; s++)
		if (*s != ',' && *s != ' ')
			buf[n++] = *s;
	buf[n] = 0;
	char *end;
	*v = strtod(buf, &end);
	return n && end != buf && *end == 0;
}

static double scale(UnitKind k, const char *u)
{
	if (!u)
		return 1;
	if (k == U_TIME) {
		if (!strcmp(u, "nsecond") || !strcmp(u, "ns"))
			return 1e-3;
		if (!strcmp(u, "msecond") || !strcmp(u, "ms"))
			return 1e3;
		if (!strcmp(u, "second") || !strcmp(u, "s"))
			return 1e6;
		return 1; /* usecond */
	}
	if (k == U_BYTES) {
		char c = u[0];
		return c == 'K' ? 1e3 : c == 'M' ? 1e6 : c == 'G' ? 1e9 : c == 'T' ? 1e12 : 1;
	}
	return 1;
}

/* ---- kernels and their metrics ------------------------------------------------------- */

typedef struct {
	const char *id, *name;
	const char **mn, **mu;
	double *mv;
	int nm;
	size_t mncap, mucap, mvcap;
} Kern;

typedef struct {
	Kern *k;
	int n;
	size_t cap;
} Kerns;

static Kern *kern(Arena *a, Kerns *ks, const char *id, const char *name)
{
	for (int i = 0; i < ks->n; i++)
		if (!strcmp(ks->k[i].id, id))
			return &ks->k[i];
	ARENA_PUSH(a, ks->k, ks->n, ks->cap, ((Kern){.id = id, .name = name}));
	return &ks->k[ks->n - 1];
}

static void kern_add(Arena *a, Kern *k, const char *m, const char *u, const char *v)
{
	double x;
	if (!ncu_number(v, &x))
		return; /* n/a: the metric stays missing */
	int n = k->nm;
	ARENA_PUSH(a, k->mn, n, k->mncap, m);
	n = k->nm;
	ARENA_PUSH(a, k->mu, n, k->mucap, u);
	ARENA_PUSH(a, k->mv, k->nm, k->mvcap, x);
}

static bool get(const Kern *k, const char *m, const char **u, double *v)
{
	for (int i = 0; i < k->nm; i++)
		if (!strcmp(k->mn[i], m)) {
			*u = k->mu[i], *v = k->mv[i];
			return true;
		}
	return false;
}

static void read_long(Arena *a, const Row *h, const char *p, const char *end, Kerns *ks)
{
	int cid = col(h, "ID"), ckn = col(h, "Kernel Name"), cmn = col(h, "Metric Name"),
	    cmu = col(h, "Metric Unit"), cmv = col(h, "Metric Value");
	while (p < end) {
		Row r = csv_row(a, &p, end);
		if (r.n <= cmn || r.n <= cmv)
			continue;
		const char *id = cid >= 0 && cid < r.n ? r.f[cid] : "0";
		Kern *k = kern(a, ks, id, ckn >= 0 && ckn < r.n ? r.f[ckn] : id);
		kern_add(a, k, r.f[cmn], cmu >= 0 && cmu < r.n ? r.f[cmu] : NULL, r.f[cmv]);
	}
}

static void read_wide(Arena *a, const Row *h, const char *p, const char *end, Kerns *ks)
{
	int cid = col(h, "ID"), ckn = col(h, "Kernel Name");
	Row units = {0};
	for (int line = 0; p < end; line++) {
		Row r = csv_row(a, &p, end);
		if (r.n < h->n)
			continue;
		if (line == 0 && (cid < 0 || !*r.f[cid])) {
			units = r; /* the units row: the ID column is empty */
			continue;
		}
		const char *id = cid >= 0 ? r.f[cid] : arena_printf(a, "%d", line);
		Kern *k = kern(a, ks, id, ckn >= 0 ? r.f[ckn] : id);
		for (int i = 0; i < h->n; i++)
			if (strstr(h->f[i], "__"))
				kern_add(a, k, h->f[i], units.n > i ? units.f[i] : NULL, r.f[i]);
	}
}

static double metric(const Kern *k, const NcuMetric *m, bool *have)
{
	const char *u;
	double v;
	*have = get(k, m->ncu, &u, &v);
	return *have ? v * scale(m->kind, u) : 0;
}

static void curated(Arena *a, const Kern *k, Profile *out, Strbuf *missing)
{
	for (size_t i = 0; i < ARRAY_LEN(NCU); i++) {
		bool have, seen = profile_get(out, NCU[i].name) != NULL;
		double v = metric(k, &NCU[i], &have);
		if (have) {
			const ProfileMetric *old = profile_get(out, NCU[i].name);
			double base = old && i > 0 && !strcmp(NCU[i - 1].name, NCU[i].name) ? old->value : 0;
			const char *unit = NCU[i].kind == U_PCT ? "%" : NCU[i].kind == U_TIME ? "us"
			                   : NCU[i].kind == U_BYTES ? "bytes" : "";
			profile_set(a, out, NCU[i].name, base + v, unit, NCU[i].meaning);
		} else if (!seen && (i + 1 == ARRAY_LEN(NCU) || strcmp(NCU[i + 1].name, NCU[i].name)))
			sb_addf(missing, "%s%s", missing->len ? ", " : "", NCU[i].name);
	}
}

/* The reason in a stall metric's name ("long_scoreboard"), its length in
 * *n; NULL when the metric is not a stall reason. "selected" is the warp
 * being issued, not a stall (about 1 cycle per instruction on any
 * kernel): it is not a reason either. */
static const char *stall_reason(const char *m, size_t *n)
{
	const char *r = !strncmp(m, STALL_PRE, sizeof STALL_PRE - 1)    ? m + sizeof STALL_PRE - 1
	                : !strncmp(m, STALL_PRE2, sizeof STALL_PRE2 - 1) ? m + sizeof STALL_PRE2 - 1
	                                                                 : NULL;
	if (!r)
		return NULL;
	*n = strcspn(r, ".");
	const char *suf = strstr(r, "_per_issue_active");
	if (suf && (size_t)(suf - r) < *n)
		*n = (size_t)(suf - r);
	return *n == 8 && !strncmp(r, "selected", 8) ? NULL : r;
}

static void stalls(Arena *a, const Kern *k, Profile *out)
{
	for (int top = 0; top < 3; top++) {
		int best = -1;
		size_t n;
		for (int i = 0; i < k->nm; i++)
			if (stall_reason(k->mn[i], &n) && k->mv[i] > 0 &&
			    (best < 0 || k->mv[i] > k->mv[best]))
				best = i;
		if (best < 0)
			return;
		const char *r = stall_reason(k->mn[best], &n);
		profile_set(a, out, arena_printf(a, "stall %.*s", (int)n, r), k->mv[best], "",
		            "warp stall reason, cycles per issued instruction (top 3)");
		((Kern *)k)->mv[best] = 0;
	}
}

/* The extra metrics asked for, as ncu reported them; a base name without
 * a suffix matches each of its rollups. */
static void extras(Arena *a, const Kern *k, const char *const *extra, int nextra,
                   Profile *out, Strbuf *missing)
{
	for (int e = 0; e < nextra; e++) {
		size_t n = strlen(extra[e]);
		bool base = !strchr(extra[e], '.'), have = false;
		for (int i = 0; i < k->nm; i++) {
			const char *m = k->mn[i];
			if (strcmp(m, extra[e]) && !(base && !strncmp(m, extra[e], n) && m[n] == '.'))
				continue;
			profile_set(a, out, m, k->mv[i], k->mu[i] ? k->mu[i] : "",
			            "requested by the plan");
			have = true;
		}
		if (!have)
			sb_addf(missing, "%s%s", missing->len ? ", " : "", extra[e]);
	}
}

int profile_parse_ncu(Arena *a, const char *text, size_t len, Profile *out)
{
	return profile_parse_ncu_extra(a, text, len, NULL, 0, out);
}

int profile_parse_ncu_extra(Arena *a, const char *text, size_t len,
                            const char *const *extra, int nextra, Profile *out)
{
	const char *p = text, *end = text + len;
	Row h = {0};
	bool wide = false;
	while (p < end) { /* skip ==PROF== lines up to the header */
		Row r = csv_row(a, &p, end);
		if (col(&r, "Metric Name") >= 0 || (wide = col(&r, "gpu__time_duration.sum") >= 0 ||
		                                           (r.n > 1 && col(&r, "ID") >= 0))) {
			h = r;
			break;
		}
	}
	if (!h.n)
		return -1;
	Kerns ks = {0};
	if (wide)
		read_wide(a, &h, p, end, &ks);
	else
		read_long(a, &h, p, end, &ks);
	int dom = -1;
	double total = 0, dmax = -1;
	for (int i = 0; i < ks.n; i++) {
		bool have;
		double d = metric(&ks.k[i], &NCU[0], &have);
		total += d;
		if (ks.k[i].nm && d > dmax)
			dmax = d, dom = i;
	}
	if (dom < 0)
		return -1;
	out->source = "ncu";
	Strbuf missing = STRBUF_INIT;
	curated(a, &ks.k[dom], out, &missing);
	if (ks.n > 1) {
		profile_set(a, out, "duration", total, "us", "GPU time of all kernels launched");
		profile_note(a, out, "%d kernels launched; metrics are those of the longest, %s", ks.n,
		             ks.k[dom].name);
		for (int i = 0; i < ks.n && total > 0; i++) {
			bool have;
			ProfileHot hh = {ks.k[i].name, 100 * metric(&ks.k[i], &NCU[0], &have) / total};
			ARENA_PUSH(a, out->hot, out->nhot, out->hotcap, hh);
		}
	}
	stalls(a, &ks.k[dom], out);
	extras(a, &ks.k[dom], extra, nextra, out, &missing);
	if (missing.len)
		profile_note(a, out, "not reported by ncu: %s", sb_str(&missing));
	sb_release(&missing);
	return 0;
}
