/*
 * test_profile_metrics.c — the extra metrics a plan may ask for: its
 * `Metrics:` lines (several, with junk, hostile names, duplicates, more
 * than fit), the check against what ncu offers (a --query-metrics answer
 * written by hand from ncu's documented layout,
 * testsuite/profile/ncu-query-metrics.txt), and ncu's CSV keeping the
 * requested ones as rows of their own (testsuite/profile/ncu-extra.csv).
 * No GPU and no ncu: the functions are the ones cuda_profile calls.
 */
#include "../../passes/passes.h"
#include "check.h"
#include "profile_check.h"

#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static bool has_note(const Profile *p, const char *s)
{
	return p->notes && strstr(p->notes, s);
}

static void parse_lines(Arena *a)
{
	ProfileAsk ask = {0};
	const char *plan =
	    "Option: shared-memory-tiling\n"
	    "1. Tile A and B into shared memory.\n"
	    "2. Check metrics: this line is a step, not a request\n"
	    "Metrics: dram__bytes_read.sum, `smsp__inst_executed.sum`\n"
	    "**Metrics:** l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld (bank conflicts)\n"
	    "metrics: dram__bytes_read.sum, none, see above\r\n";
	CHECK(profile_ask_parse(a, plan, &ask) == 3);
	CHECK(ask.n == 3);
	CHECK_STR(ask.name[0], "dram__bytes_read.sum");
	CHECK_STR(ask.name[1], "smsp__inst_executed.sum");
	CHECK_STR(ask.name[2], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld");
	CHECK(!ask.full);
	/* "see above" is not a name: kept to tell the planner */
	CHECK(ask.nbad == 1 && !strcmp(ask.bad[0], "see"));

	/* hostile names never become names; their odd characters are shown as '?' */
	ProfileAsk h = {0};
	const char *evil = "Metrics: dram__bytes.sum;rm -rf /, $(reboot), `id`__x, "
	                   "--metrics=regex:.*, group:memory__shared_table, ../__x, "
	                   "sm__warps_active.avg|tee, a__b\n";
	CHECK(profile_ask_parse(a, evil, &h) == 1);
	CHECK(h.n == 1 && !strcmp(h.name[0], "a__b"));
	CHECK(h.nbad == PROFILE_ASK_BAD); /* the first four only */
	CHECK_STR(h.bad[0], "dram__bytes.sum?rm");
	CHECK_STR(h.bad[1], "??reboot?");
	CHECK_STR(h.bad[2], "id?__x");
	for (int i = 0; i < h.nbad; i++)
		for (const char *c = h.bad[i]; *c; c++)
			CHECK(strchr(";$()|&<>` -=:/", *c) == NULL);
	/* a leading dot or an overlong name is refused too */
	ProfileAsk d = {0};
	char longname[200];
	memset(longname, 'a', sizeof longname - 1);
	longname[0] = 'x', longname[1] = '_', longname[2] = '_';
	longname[sizeof longname - 1] = 0;
	CHECK(profile_ask_parse(a, arena_printf(a, "Metrics: .x__y, %s\n", longname), &d) == 0);
	CHECK(d.n == 0 && d.nbad == 2 && strstr(d.bad[1], "...") && strlen(d.bad[1]) == 43);

	/* the union over plans: first come first kept, at most 8 */
	ProfileAsk u = {0};
	Strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "Metrics: m__0.sum, m__1.sum, m__2.sum\n");
	CHECK(profile_ask_parse(a, sb_str(&sb), &u) == 3);
	sb_reset(&sb);
	sb_adds(&sb, "Metrics:");
	for (int i = 1; i < 12; i++)
		sb_addf(&sb, " m__%d.sum,", i);
	CHECK(profile_ask_parse(a, sb_str(&sb), &u) == 5);
	sb_release(&sb);
	CHECK(u.n == PROFILE_ASK_MAX && u.full);
	CHECK_STR(u.name[0], "m__0.sum");
	CHECK_STR(u.name[7], "m__7.sum");
	CHECK(profile_ask_parse(a, "Metrics: m__3.sum\n", &u) == 0); /* a duplicate: no change */

	/* the same asks in the same order give the same set */
	ProfileAsk v = {0};
	CHECK(!profile_ask_same(&u, &v));
	CHECK(profile_ask_same(&v, NULL));
	profile_ask_parse(a, "Metrics: m__0.sum, m__1.sum, m__2.sum\n", &v);
	profile_ask_parse(a, "Metrics: m__1.sum, m__2.sum, m__3.sum, m__4.sum, m__5.sum, "
	                     "m__6.sum, m__7.sum, m__8.sum\n", &v);
	CHECK(profile_ask_same(&u, &v));
	CHECK(profile_ask_parse(a, "no request here\n", &v) == 0);
	CHECK(profile_ask_parse(a, "", &v) == 0);
}

static void check_offered(Arena *a)
{
	char *query = fixture(a, "profile/ncu-query-metrics.txt", NULL);
	CHECK(query != NULL);
	if (!query)
		return;
	char *offered = profile_ncu_offered(a, query);
	CHECK(offered != NULL);
	if (!offered)
		return;
	/* the header, the rules and the device line are not metrics */
	CHECK(strstr(offered, "Metric") == NULL && strstr(offered, "Device") == NULL);
	CHECK(strstr(offered, "dram__bytes_read\n") != NULL);
	CHECK(strstr(offered, "launch__occupancy_limit_registers\n") != NULL);
	CHECK(profile_ncu_offered(a, "no metrics\n---- ----\n") == NULL);

	ProfileAsk ask = {0};
	profile_ask_parse(a,
	                  "Metrics: dram__bytes_read.sum, smsp__inst_executed.sum, "
	                  "sm__warps_active.avg.pct_of_peak_sustained_active, "
	                  "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld, "
	                  "dram__bytes_rd.sum, made__up, launch__occupancy_limit_registers, "
	                  "dram__bytes_read_extra.sum, bad;name\n",
	                  &ask);
	CHECK(ask.n == 8 && ask.nbad == 1);
	const char *keep[PROFILE_ASK_MAX];
	Profile p = {0};
	int n = profile_ncu_check(a, offered, &ask, keep, &p);
	CHECK(n == 4);
	CHECK_STR(keep[0], "dram__bytes_read.sum");
	CHECK_STR(keep[1], "smsp__inst_executed.sum");
	CHECK_STR(keep[2], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld");
	CHECK_STR(keep[3], "launch__occupancy_limit_registers");
	/* the curated achieved occupancy is in the profile already */
	CHECK(has_note(&p, "metric 'sm__warps_active.avg.pct_of_peak_sustained_active' is in "
	                   "kcc's own set already"));
	CHECK(has_note(&p, "ncu does not offer metric 'dram__bytes_rd.sum'"));
	CHECK(has_note(&p, "ncu does not offer metric 'made__up'"));
	/* a base name that only starts like an offered one is not offered */
	CHECK(has_note(&p, "ncu does not offer metric 'dram__bytes_read_extra.sum'"));
	CHECK(has_note(&p, "'bad?name' is not a metric name"));

	/* ncu did not answer the query: nothing goes onto its command line */
	Profile q = {0};
	CHECK(profile_ncu_check(a, NULL, &ask, keep, &q) == 0);
	CHECK(has_note(&q, "ncu --query-metrics did not answer"));
	/* more than 8 asked: said so */
	ProfileAsk many = {0};
	for (int i = 0; i < 9; i++)
		profile_ask_parse(a, arena_printf(a, "Metrics: dram__bytes.m%d\n", i), &many);
	Profile r = {0};
	CHECK(profile_ncu_check(a, offered, &many, keep, &r) == PROFILE_ASK_MAX);
	CHECK(has_note(&r, "more than 8 extra metrics were asked for"));
	CHECK(profile_ncu_check(a, offered, NULL, keep, &r) == 0);
}

static const ProfileMetric *row(const Profile *p, const char *name)
{
	return profile_get(p, name);
}

static void csv_keeps_extras(Arena *a)
{
	char *csv = fixture(a, "profile/ncu-extra.csv", NULL);
	CHECK(csv != NULL);
	if (!csv)
		return;
	const char *extra[] = {"dram__bytes_read.sum", "smsp__inst_executed.sum",
	                       "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld",
	                       "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active"};
	Profile p = {0};
	CHECK(profile_parse_ncu_extra(a, csv, strlen(csv), extra, 4, &p) == 0);
	CHECK(row(&p, "duration") && fabs(row(&p, "duration")->value - 412.8) < 1e-9);
	const ProfileMetric *m = row(&p, "dram__bytes_read.sum");
	CHECK(m && m->value == 804.48 && !strcmp(m->unit, "Mbyte") &&
	      !strcmp(m->meaning, "requested by the plan"));
	m = row(&p, "smsp__inst_executed.sum");
	CHECK(m && m->value == 1234567 && !strcmp(m->unit, "inst"));
	/* a base name keeps each rollup ncu reported */
	CHECK(row(&p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") &&
	      row(&p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")->value == 8192);
	CHECK(row(&p, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.max") != NULL);
	/* what nobody asked for is not kept; n/a is noted as not reported */
	CHECK(row(&p, "lts__t_bytes.sum") == NULL);
	CHECK(row(&p, "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active") == NULL);
	CHECK(has_note(&p, "not reported by ncu:") &&
	      has_note(&p, "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active"));
	char *text = profile_text(a, &p);
	CHECK(strstr(text, "- dram__bytes_read.sum: 804.5 Mbyte — requested by the plan\n"));
	CHECK(strstr(text, "- smsp__inst_executed.sum: 1.23e+06 inst — requested by the plan\n"));

	/* without the ask the same CSV gives kcc's own set only */
	Profile q = {0};
	CHECK(profile_parse_ncu(a, csv, strlen(csv), &q) == 0);
	CHECK(row(&q, "dram__bytes_read.sum") == NULL && row(&q, "DRAM throughput") != NULL);

	/* the wide layout (--page raw) keeps them too */
	const char *wide = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\","
	                   "\"dram__bytes_read.sum\",\"lts__t_bytes.sum\"\n"
	                   "\"\",\"\",\"usecond\",\"Kbyte\",\"Kbyte\"\n"
	                   "\"0\",\"k\",\"10.5\",\"2,048\",\"4\"\n";
	Profile w = {0};
	CHECK(profile_parse_ncu_extra(a, wide, strlen(wide), extra, 1, &w) == 0);
	m = row(&w, "dram__bytes_read.sum");
	CHECK(m && m->value == 2048 && !strcmp(m->unit, "Kbyte"));
	CHECK(row(&w, "lts__t_bytes.sum") == NULL);
}

/* The cuda profiler end to end with a stand-in ncu first in PATH (a shell
 * script that logs its arguments, answers --query-metrics with the fixture
 * and a profile run with the CSV, and refuses a made-up suffix as the real
 * ncu does): the query is cached, the checked names reach --metrics, a
 * refused name costs the extras and not the profile. */
static void fake_ncu(Arena *a)
{
	char dir[] = "/tmp/kcc-test-ncu-XXXXXX";
	char cwd[4096];
	if (!mkdtemp(dir) || !getcwd(cwd, sizeof cwd)) {
		CHECK(!"temp dir");
		return;
	}
	const char *log = arena_printf(a, "%s/log", dir), *cache = arena_printf(a, "%s/cache", dir);
	const char *script = arena_printf(
	    a,
	    "#!/bin/sh\n"
	    "echo \"$*\" >> %s\n"
	    "if [ \"$1\" = --query-metrics ]; then\n"
	    "  [ $# = 1 ] || exit 1 # an ncu without --query-metrics-collection\n"
	    "  exec cat %s/profile/ncu-query-metrics.txt\n"
	    "fi\n"
	    "case \"$*\" in *bogus_suffix*) echo '==ERROR== Failed to find metric "
	    "dram__bytes_read.bogus_suffix' >&2; exit 1;; esac\n"
	    "exec cat %s/profile/ncu-extra.csv\n",
	    log, cwd, cwd);
	const char *ncu = arena_printf(a, "%s/ncu", dir);
	CHECK(file_write_atomic(ncu, script, strlen(script)) == 0 && chmod(ncu, 0755) == 0);
	const char *old = getenv("PATH");
	char *saved = arena_strdup(a, old ? old : "/usr/bin:/bin");
	setenv("PATH", arena_printf(a, "%s:%s", dir, saved), 1);

	const Target *t = target_find("cuda");
	const char *argv[] = {"/bin/true", NULL};
	TargetProfileRun r = {.argv = argv, .cwd = dir, .timeout_s = 30, .build_log = ""};
	ProfileAsk ask = {.cache_dir = cache};
	profile_ask_parse(a, "Metrics: dram__bytes_read.sum, made__up, smsp__inst_executed.sum\n",
	                  &ask);
	Profile p = {.ask = &ask};
	CHECK(t->profile(t, a, &r, &p) == 0);
	CHECK_STR(p.source, "ncu");
	CHECK_STR(p.takes, "ncu");
	CHECK(row(&p, "dram__bytes_read.sum") && row(&p, "smsp__inst_executed.sum"));
	CHECK(has_note(&p, "ncu does not offer metric 'made__up'"));
	char *text = NULL;
	size_t len = 0;
	CHECK(file_read(a, log, &text, &len) == 0);
	CHECK(text && strstr(text, ",dram__bytes_read.sum,smsp__inst_executed.sum "));
	CHECK(text && !strstr(text, "made__up"));
	/* three queries (default, launch, occupancy), one profile run */
	int queries = 0;
	for (const char *q = text; q && (q = strstr(q, "--query-metrics")); q++)
		queries += q == text || q[-1] == '\n';
	CHECK(queries == 3);

	/* the second profile reads the metric list from the cache; a suffix
	 * ncu refuses makes it run again without the extras */
	ProfileAsk ask2 = {.cache_dir = cache};
	profile_ask_parse(a, "Metrics: dram__bytes_read.bogus_suffix\n", &ask2);
	Profile q = {.ask = &ask2};
	unlink(log);
	CHECK(t->profile(t, a, &r, &q) == 0);
	CHECK_STR(q.takes, "ncu");
	CHECK(row(&q, "duration") && !row(&q, "dram__bytes_read.bogus_suffix"));
	CHECK(has_note(&q, "ncu failed with the extra metrics, so they are left out") &&
	      has_note(&q, "Failed to find metric"));
	CHECK(file_read(a, log, &text, &len) == 0);
	CHECK(text && !strstr(text, "--query-metrics"));

	/* no ask: kcc's own set, as before */
	Profile n = {0};
	CHECK(t->profile(t, a, &r, &n) == 0 && !row(&n, "dram__bytes_read.sum"));

	setenv("PATH", saved, 1);
	const char *rm[] = {"rm", "-rf", dir, NULL};
	ProcSpec ps = {.argv = rm, .timeout_s = 10};
	ProcResult pr;
	proc_run(a, &ps, &pr);
}

/* The words the planner gets: plan.txt has the slot, menus/metrics.md the
 * ncu paragraph (and nothing for the cpu profilers). */
static void prompt_text(void)
{
	const char *plan = passes_builtin("prompts/plan.txt", NULL);
	const char *doc = passes_builtin("menus/metrics.md", NULL);
	CHECK(plan && strstr(plan, "(no code).{{ASK_METRICS}}\n"));
	CHECK(doc && strstr(doc, "\n## Asking for metrics: ncu\nOptionally, as the last line, "
	                         "`Metrics: NAME, NAME`"));
	CHECK(doc && !strstr(doc, "## Asking for metrics: callgrind") &&
	      !strstr(doc, "## Asking for metrics: perf"));
}

int main(void)
{
	Arena *a = arena_new();
	parse_lines(a);
	check_offered(a);
	csv_keeps_extras(a);
	fake_ncu(a);
	prompt_text();
	arena_free(a);
	return check_summary("test_profile_metrics");
}
