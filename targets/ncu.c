/*
 * ncu.c — the cuda target's profiler. With Nsight Compute installed:
 * `ncu --clock-control none --csv --metrics LIST driver`, parsed into the
 * curated set below (duration, SM and DRAM throughput, occupancy,
 * registers, shared memory, tensor pipe, L1/L2 hit rates, the top warp
 * stall reasons, local-memory traffic). ncu's CSV comes in a long layout
 * (one row per kernel and metric: "ID",...,"Metric Name","Metric Unit",
 * "Metric Value") and a wide one (--page raw: a header of metric names, a
 * row of units, one row per kernel); values may carry thousands separators
 * ("1,234.5") or be "n/a", and units depend on --print-units. Without ncu:
 * ptxas's resource report (-Xptxas -v: registers, shared memory, spills)
 * and the event timings the search already has, and the notes say so.
 *
 * The planner may ask for extra metrics by name (ProfileAsk). Each is
 * checked against what ncu offers on this GPU (`ncu --query-metrics`,
 * cached in the cache dir like the peaks) before it goes onto the command
 * line, and kept in the profile as a row of its own. A name ncu refuses at
 * run time costs the extras, not the profile: ncu runs again without them.
 */
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ---- what ncu offers --------------------------------------------------------------- */

/* `ncu --query-metrics` prints a device line, a table header between
 * dashed rules ("Metric Name  Metric Type  Metric Unit  Metric
 * Description"; older versions: name and description only), then one
 * base metric a line, its name first. Every ncu metric name has "__". */
char *profile_ncu_offered(Arena *a, const char *query)
{
	Strbuf sb = STRBUF_INIT;
	for (const char *p = query; p && *p;) {
		size_t eol = strcspn(p, "\r\n"), n = strcspn(p, " \t\r\n");
		bool ok = n > 0, unit = false;
		for (size_t i = 0; ok && i < n; i++) {
			ok = (p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
			     (p[i] >= '0' && p[i] <= '9') || p[i] == '_';
			unit = unit || (i > 0 && p[i] == '_' && p[i - 1] == '_');
		}
		if (ok && unit) {
			sb_addn(&sb, p, n);
			sb_addc(&sb, '\n');
		}
		p += eol;
		p += strspn(p, "\r\n");
	}
	return sb.len ? sb_to_arena(&sb, a) : (sb_release(&sb), NULL);
}

static bool offers(const char *offered, const char *name)
{
	size_t n = strcspn(name, ".");
	for (const char *p = offered; p && *p; p += strcspn(p, "\n"), p += *p == '\n')
		if (!strncmp(p, name, n) && (p[n] == '\n' || p[n] == 0))
			return true;
	return false;
}

/* Already in kcc's own --metrics list: its row is there under kcc's name. */
static bool collected(const char *name)
{
	const char *list = profile_ncu_metrics();
	size_t n = strlen(name);
	for (const char *p = list; *p; p += strcspn(p, ","), p += *p == ',')
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == 0))
			return true;
	return false;
}

int profile_ncu_check(Arena *a, const char *offered, const ProfileAsk *ask,
                      const char **keep, Profile *out)
{
	int nkeep = 0;
	if (!ask)
		return 0;
	for (int i = 0; i < ask->nbad; i++)
		profile_note(a, out, "'%s' is not a metric name (ncu's names have only letters, "
		             "digits, '_' and '.', and a '__')", ask->bad[i]);
	if (ask->full)
		profile_note(a, out, "more than %d extra metrics were asked for: the first %d "
		             "are kept", PROFILE_ASK_MAX, PROFILE_ASK_MAX);
	if (ask->n && !offered) {
		profile_note(a, out, "ncu --query-metrics did not answer, so the extra metrics "
		             "are left out");
		return 0;
	}
	for (int i = 0; i < ask->n; i++) {
		const char *m = ask->name[i];
		if (collected(m))
			profile_note(a, out, "metric '%s' is in kcc's own set already", m);
		else if (!offers(offered, m))
			profile_note(a, out, "ncu does not offer metric '%s'", m);
		else if (nkeep < PROFILE_ASK_MAX)
			keep[nkeep++] = m;
	}
	return nkeep;
}

/* ---- ptxas -v ------------------------------------------------------------------------ */

int profile_parse_ptxas(Arena *a, const char *text, Profile *out)
{
	double regs = -1, smem = 0, spill = 0;
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *u = strstr(p, "Used ");
		const char *nl = strchr(p, '\n');
		if (u && (!nl || u < nl) && strstr(u, "registers")) {
			double r = strtod(u + 5, NULL);
			regs = r > regs ? r : regs;
			const char *s = strstr(u, "bytes smem");
			if (s && (!nl || s < nl)) {
				const char *q = s;
				while (q > u && q[-1] == ' ')
					q--;
				while (q > u && q[-1] >= '0' && q[-1] <= '9')
					q--;
				double v = strtod(q, NULL);
				smem = v > smem ? v : smem;
			}
		}
		const char *st = strstr(p, "bytes spill stores");
		if (st && (!nl || st < nl)) {
			const char *q = strstr(p, "stack frame,");
			double sv = q ? strtod(q + 12, NULL) : 0;
			const char *ld = strstr(st, "spill stores,");
			spill += sv + (ld ? strtod(ld + 13, NULL) : 0);
		}
	}
	if (regs < 0)
		return -1;
	profile_set(a, out, "registers per thread", regs, "", "above ~128 limits occupancy");
	profile_set(a, out, "shared memory per block", smem, "bytes", "static shared memory");
	profile_set(a, out, "spill bytes", spill, "bytes",
	            "register spills to local memory (stores + loads): should be 0");
	return 0;
}

/* ---- running ------------------------------------------------------------------------- */

static const char *const CUDA_DIRS[] = {"/usr/local/cuda/bin", NULL};

/* The metric list of this GPU (profile_ncu_offered of `ncu --query-metrics`
 * and of its launch and occupancy collections, which the default query
 * leaves out; an ncu without --query-metrics-collection answers the first
 * only), cached as CACHE/ncu-metrics-HASH.txt (HASH: of the device and
 * ncu's path). NULL when ncu does not answer. */
static const char *offered(const Target *t, Arena *a, const char *ncu, const char *cache_dir)
{
	const char *path = NULL;
	if (cache_dir) {
		TargetInfo info;
		t->describe(t, a, &info);
		char *key = arena_printf(a, "%s\n%s", info.summary ? info.summary : "", ncu);
		char h[65];
		sha256_hex(key, strlen(key), h);
		path = arena_printf(a, "%s/ncu-metrics-%.16s.txt", cache_dir, h);
		char *text;
		size_t n;
		if (file_read(a, path, &text, &n) == 0 && n)
			return text;
	}
	static const char *const coll[] = {NULL, "launch", "occupancy"};
	Strbuf all = STRBUF_INIT;
	for (size_t i = 0; i < ARRAY_LEN(coll); i++) {
		const char *argv[] = {ncu, "--query-metrics", coll[i] ? "--query-metrics-collection"
		                                                      : NULL, coll[i], NULL};
		ProcSpec ps = {.argv = argv, .timeout_s = 60};
		ProcResult pr;
		diag_trace("kcc: %s", proc_cmdline(a, argv));
		if (proc_run(a, &ps, &pr) == 0 && proc_ok(&pr) && pr.out)
			sb_addn(&all, pr.out, pr.out_len);
	}
	char *list = profile_ncu_offered(a, sb_str(&all));
	sb_release(&all);
	if (list && path && file_mkdirs(cache_dir, 0755) == 0)
		file_write_atomic(path, list, strlen(list));
	return list;
}

/* One ncu run with kcc's metrics and the extra ones; 0, or -1 with *why. */
static int run_ncu(Arena *a, const char *ncu, const TargetProfileRun *r, const char **extra,
                   int nextra, Profile *out, const char **why)
{
	Strbuf list = STRBUF_INIT;
	sb_adds(&list, profile_ncu_metrics());
	for (int i = 0; i < nextra; i++)
		sb_addf(&list, ",%s", extra[i]);
	const char **argv = NULL;
	size_t n = 0, cap = 0;
	const char *pre[] = {ncu, "--clock-control", "none", "--csv", "--target-processes", "all",
	                     "--metrics", sb_to_arena(&list, a)};
	for (size_t i = 0; i < ARRAY_LEN(pre); i++)
		ARENA_PUSH(a, argv, n, cap, pre[i]);
	for (int i = 0; r->argv[i]; i++)
		ARENA_PUSH(a, argv, n, cap, r->argv[i]);
	ARENA_PUSH(a, argv, n, cap, NULL);
	ProcSpec ps = {.argv = argv, .cwd = r->cwd,
	               .timeout_s = r->timeout_s > 0 ? r->timeout_s : 300,
	               .sandbox = PROC_SANDBOX};
	ProcResult pr;
	diag_trace("kcc: %s", proc_cmdline(a, argv));
	int rc = proc_run(a, &ps, &pr);
	if (rc == 0)
		target_keep_raw(a, r, "ncu.csv", pr.out, pr.out_len);
	if (rc != 0 || !proc_ok(&pr) ||
	    profile_parse_ncu_extra(a, pr.out, pr.out_len, extra, nextra, out) != 0) {
		const char *err = pr.err && *pr.err ? pr.err : pr.out ? pr.out : "";
		*why = arena_printf(a, "%s: %s", proc_cmdline(a, argv), proc_tail(err, 3));
		return -1;
	}
	return 0;
}

static int with_ncu(const Target *t, Arena *a, const char *ncu, const TargetProfileRun *r,
                    Profile *out)
{
	const ProfileAsk *ask = out->ask;
	const char *keep[PROFILE_ASK_MAX], *why = "";
	int nkeep = 0;
	if (ask && ask->n)
		nkeep = profile_ncu_check(a, offered(t, a, ncu, ask->cache_dir), ask, keep, out);
	else if (ask)
		profile_ncu_check(a, NULL, ask, keep, out); /* notes on bad tokens only */
	if (nkeep && run_ncu(a, ncu, r, keep, nkeep, out, &why) != 0) {
		profile_note(a, out, "ncu failed with the extra metrics, so they are left out (%s)",
		             why);
		nkeep = -1;
	}
	if (nkeep <= 0 && run_ncu(a, ncu, r, NULL, 0, out, &why) != 0) {
		profile_note(a, out, "ncu failed (%s)", why);
		return -1;
	}
	out->takes = "ncu";
	return 0;
}

int cuda_profile(const Target *t, Arena *a, const TargetProfileRun *r, Profile *out)
{
	const char *ncu = target_which(a, "ncu", CUDA_DIRS);
	if (ncu && with_ncu(t, a, ncu, r, out) == 0)
		return 0;
	out->source = "ptxas+events";
	if (!ncu)
		profile_note(a, out, "ncu not installed: event timings and ptxas's resource report only");
	target_keep_raw(a, r, "ptxas.txt", r->build_log, r->build_log ? strlen(r->build_log) : 0);
	return profile_parse_ptxas(a, r->build_log ? r->build_log : "", out) == 0 ? 0 : -1;
}
