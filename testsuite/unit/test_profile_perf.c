/*
 * test_profile_perf.c — the perf stat parser on fixtures (testsuite/profile/)
 * written by hand from perf-stat(1)'s CSV layout (perf's counters do not
 * work on the development VMs, so none is recorded): a full run of the
 * events kcc asks for with user-space modifiers, one whose cache events
 * are <not supported> or <not counted> and one multiplexed, a hybrid cpu
 * (cpu_core and cpu_atom counts, each scaled by perf to the whole run),
 * the same when the run never left the big cores, and text that is not
 * perf's.
 */
#include "check.h"
#include "profile_check.h"

static Profile parse(Arena *a, const char *path, int *rc)
{
	Profile p = {0};
	char *text = fixture(a, path, NULL);
	*rc = text ? profile_parse_perf(a, text, &p) : -2;
	return p;
}

static bool noted(const Profile *p, const char *s)
{
	return p->notes && strstr(p->notes, s);
}

static void full_run(Arena *a)
{
	int rc;
	Profile p = parse(a, "profile/perf-stat.txt", &rc);
	CHECK(rc == 0);
	CHECK_STR(p.source, "perf");
	CHECK(p.n == 4);
	CHECK(near(val(&p, "instructions"), 1843906440));
	CHECK(near(val(&p, "IPC"), 2.4));            /* 1843906440 / 768294350 */
	CHECK(near(val(&p, "D1 miss rate"), 6.25));  /* 38250257 / 612004112 */
	CHECK(near(val(&p, "LL miss rate"), 25));    /* 1028301 / 4113204 */
	CHECK(!p.notes || !*p.notes);
	char *text = profile_text(a, &p);
	CHECK(strstr(text, "Profile (perf):\n- instructions: 1.84e+09 — ") != NULL);
	CHECK(strstr(text, "- IPC: 2.4 — instructions per cycle") != NULL);
	CHECK(strstr(text, "- D1 miss rate: 6.2% — L1 data loads that miss") != NULL);
	CHECK(strstr(text, "- LL miss rate: 25.0% — ") != NULL);
}

static void not_supported(Arena *a)
{
	int rc;
	Profile p = parse(a, "profile/perf-not-supported.txt", &rc);
	CHECK(rc == 0);
	CHECK(near(val(&p, "instructions"), 1843906440));
	CHECK(near(val(&p, "IPC"), 2.4));
	CHECK(isnan(val(&p, "D1 miss rate")));
	CHECK(isnan(val(&p, "LL miss rate"))); /* misses counted, loads not */
	CHECK(p.n == 2);
	CHECK(noted(&p, "perf could not count L1-dcache-loads (<not supported>), "
	                "L1-dcache-load-misses (<not supported>), LLC-loads (<not counted>)\n"));
	CHECK(noted(&p, "perf multiplexed the counters (LLC-load-misses counted 66.67% of the run)"));
	CHECK(!noted(&p, "hybrid"));
}

static void hybrid(Arena *a)
{
	int rc;
	Profile p = parse(a, "profile/perf-hybrid.txt", &rc);
	CHECK(rc == 0);
	/* Each core type's count as counted: perf's figure x its % of the run. */
	double ins = 1477086000 * 0.02 + 6648162100 * 0.98; /* 6544740578, not 8.1e9 */
	double cyc = 568100000 * 0.02 + 1600000000 * 0.98;  /* 1579362000 */
	CHECK(near(val(&p, "instructions"), 6544740578));
	CHECK(near(val(&p, "instructions"), ins));
	CHECK(near(val(&p, "IPC"), ins / cyc));
	CHECK(near(val(&p, "IPC"), 4.143914174204521));
	/* cpu_atom has no L1-dcache-load-misses: cpu_core's loads alone */
	CHECK(near(val(&p, "D1 miss rate"), 6.25));
	/* (100000 x 2% + 1250000 x 98%) / (2250000 x 2% + 5000000 x 98%) */
	CHECK(near(val(&p, "LL miss rate"), 100.0 * 1227000 / 4945000));
	CHECK(noted(&p, "D1 miss rate of cpu_core only (cpu_atom/L1-dcache-load-misses: "
	                "<not supported>)"));
	CHECK(noted(&p, "hybrid cpu (cpu_atom, cpu_core)"));
	CHECK(!noted(&p, "could not count"));
	CHECK(!noted(&p, "multiplexed"));
}

static void hybrid_core_only(Arena *a)
{
	int rc;
	Profile p = parse(a, "profile/perf-hybrid-core-only.txt", &rc);
	CHECK(rc == 0);
	CHECK(near(val(&p, "instructions"), 6648162100));
	CHECK(near(val(&p, "IPC"), 6648162100.0 / 1600000000));
	CHECK(near(val(&p, "D1 miss rate"), 6.25));
	CHECK(near(val(&p, "LL miss rate"), 25));
	CHECK(noted(&p, "hybrid cpu (cpu_atom, cpu_core)"));
	CHECK(!noted(&p, "only"));
	CHECK(!noted(&p, "could not count"));
}

static void not_perf(Arena *a)
{
	static const char *const junk[] = {
	    "",
	    "hello\n",
	    /* perf's answer when it may not count at all */
	    "Error:\nNo permission to enable instructions:u event.\n",
	    /* instructions not counted: nothing to show */
	    "<not supported>,,instructions:u,0,100.00,,\n768294350,,cycles:u,5033,100.00,,\n",
	    /* not the events kcc asks for, nor a whole number */
	    "1843906440,,instructions-retired,5033,100.00,,\n12x,,instructions,5033,100.00,,\n",
	    "1843906440,instructions\n,,,instructions\n",
	};
	for (size_t i = 0; i < ARRAY_LEN(junk); i++) {
		Profile p = {0};
		CHECK(profile_parse_perf(a, junk[i], &p) == -1);
		CHECK(p.n == 0 && !p.source && !p.notes);
	}
	/* CRLF line ends, no final newline, a line of the program's own */
	Profile p = {0};
	const char *crlf = "sum: 42\r\n1000,,instructions,5033,100.00,0.50,insn per cycle\r\n"
	                   "2000,,cycles,5033,100.00,,";
	CHECK(profile_parse_perf(a, crlf, &p) == 0);
	CHECK(near(val(&p, "instructions"), 1000));
	CHECK(near(val(&p, "IPC"), 0.5));
}

int main(void)
{
	Arena *a = arena_new();
	full_run(a);
	not_supported(a);
	hybrid(a);
	hybrid_core_only(a);
	not_perf(a);
	arena_free(a);
	return check_summary("test_profile_perf");
}
