/*
 * ncu.c — the cuda target's profiler. With Nsight Compute installed:
 * `ncu --clock-control none --csv --metrics LIST harness profile.plan`, its CSV parsed by
 * ncu_csv.c. Without ncu: ptxas's resource report (-Xptxas -v: registers,
 * shared memory, spills) and the event timings the search already has,
 * and the notes say so.
 *
 * The planner may ask for extra metrics by name (ProfileAsk). Each is
 * checked against what ncu offers on this GPU (`ncu --query-metrics`,
 * cached in the cache dir like the peaks) before it goes onto the command
 * line, and kept in the profile as a row of its own. A name ncu refuses at
 * run time costs the extras, not the profile: ncu runs again without them.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	Strvec argv = STRVEC_INIT(a);
	strvec_pushl(&argv, ncu, "--clock-control", "none", "--csv", "--target-processes", "all",
	             "--metrics", sb_to_arena(&list, a), NULL);
	strvec_pushv(&argv, r->argv);
	ProcSpec ps = {.argv = argv.v, .cwd = r->cwd,
	               .timeout_s = r->timeout_s > 0 ? r->timeout_s : 300,
	               .sandbox = PROC_SANDBOX};
	ProcResult pr;
	diag_trace("kcc: %s", proc_cmdline(a, argv.v));
	int rc = proc_run(a, &ps, &pr);
	if (rc == 0)
		target_keep_raw(a, r, "ncu.csv", pr.out, pr.out_len);
	if (rc != 0 || !proc_ok(&pr) ||
	    profile_parse_ncu_extra(a, pr.out, pr.out_len, extra, nextra, out) != 0) {
		const char *err = pr.err && *pr.err ? pr.err : pr.out ? pr.out : "";
		*why = arena_printf(a, "%s: %s", proc_cmdline(a, argv.v), proc_tail(err, 3));
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
