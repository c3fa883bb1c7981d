/*
 * test_profile_ncu.c — the cuda profile parsers on hand-written fixtures
 * (testsuite/profile/): ncu's long CSV layout with scaled units, the same
 * with --print-units base, thousands separators, "n/a" and two kernels,
 * the wide --page raw layout with a units row, missing metrics, text that
 * is not ncu's at all, and ptxas -v's resource report; and two CSVs
 * recorded on an H100 with ncu 2025.3.1 by `kcc --profile --keep-temps`
 * (scripts/gpu-run profile): the naive GEMM and the 3xTF32 wmma rewrite.
 */
#include "check.h"
#include "profile_check.h"

static Profile parse(Arena *a, const char *path, int *rc)
{
	Profile p = {0};
	size_t len;
	char *text = fixture(a, path, &len);
	*rc = text ? profile_parse_ncu(a, text, len, &p) : -2;
	return p;
}

static void long_layout(Arena *a)
{
	int rc;
	Profile p = parse(a, "profile/ncu-long.csv", &rc);
	CHECK(rc == 0);
	CHECK_STR(p.source, "ncu");
	CHECK(near(val(&p, "duration"), 1250));  /* 1.25 msecond in us */
	CHECK(near(val(&p, "SM throughput"), 78.9));
	CHECK(near(val(&p, "DRAM throughput"), 12.34));
	CHECK(near(val(&p, "achieved occupancy"), 96.2));
	CHECK(near(val(&p, "registers per thread"), 40));
	CHECK(near(val(&p, "shared memory per block"), 8190)); /* 8.19 Kbyte + 0 byte */
	CHECK(near(val(&p, "tensor pipe active"), 0));
	CHECK(near(val(&p, "L1 hit rate"), 87.5));
	CHECK(near(val(&p, "L2 hit rate"), 95.1));
	CHECK(near(val(&p, "local memory traffic"), 0));
	/* top stalls, largest first; the fourth (wait) is left out */
	CHECK(p.n >= 3);
	CHECK(near(val(&p, "stall mio_throttle"), 3.75));
	CHECK(near(val(&p, "stall long_scoreboard"), 1.52));
	CHECK(near(val(&p, "stall barrier"), 0.41));
	CHECK(isnan(val(&p, "stall wait")));
	CHECK(!p.notes || !strstr(p.notes, "not reported"));
	char *text = profile_text(a, &p);
	CHECK(strstr(text, "- DRAM throughput: 12.3% — ") != NULL);
	CHECK(strstr(text, "stall mio_throttle") != NULL);
}

static void base_units(Arena *a)
{
	int rc;
	Profile p = parse(a, "profile/ncu-base-units.csv", &rc);
	CHECK(rc == 0);
	/* two kernels: durations summed, metrics of the longest */
	CHECK(near(val(&p, "duration"), 1234.567 + 5.433));
	CHECK(near(val(&p, "DRAM throughput"), 3.05));
	CHECK(near(val(&p, "shared memory per block"), 1024));
	CHECK(near(val(&p, "local memory traffic"), 4096));
	CHECK(isnan(val(&p, "L2 hit rate"))); /* n/a */
	CHECK(p.notes && strstr(p.notes, "2 kernels launched") && strstr(p.notes, "rowsum_kernel"));
	CHECK(p.notes && strstr(p.notes, "not reported by ncu:") && strstr(p.notes, "L2 hit rate") &&
	      strstr(p.notes, "achieved occupancy"));
	CHECK(p.nhot == 2 && p.nhot > 0 && p.hot[0].share > 99);
}

static void wide_layout(Arena *a)
{
	int rc;
	Profile p = parse(a, "profile/ncu-wide.csv", &rc);
	CHECK(rc == 0);
	CHECK(near(val(&p, "duration"), 42.5));
	CHECK(near(val(&p, "DRAM throughput"), 88.3));
	CHECK(near(val(&p, "SM throughput"), 21.7));
	CHECK(near(val(&p, "registers per thread"), 22));
	CHECK(near(val(&p, "achieved occupancy"), 71.4));
	CHECK(near(val(&p, "stall long_scoreboard"), 18.5));
	CHECK(p.notes && strstr(p.notes, "L1 hit rate"));
}

static void not_ncu(Arena *a)
{
	Profile p = {0};
	const char *junk = "==PROF== No kernels were profiled.\nhello\n";
	CHECK(profile_parse_ncu(a, junk, strlen(junk), &p) == -1);
	CHECK(profile_parse_ncu(a, "", 0, &p) == -1);
	CHECK(strstr(profile_ncu_metrics(), "lts__t_sector_hit_rate.pct") != NULL);
	CHECK(strstr(profile_ncu_metrics(), "stalled_long_scoreboard") != NULL);
}

static void ptxas(Arena *a)
{
	char *text;
	size_t len;
	CHECK(file_read(a, "profile/ptxas.txt", &text, &len) == 0);
	Profile p = {0};
	CHECK(profile_parse_ptxas(a, text, &p) == 0);
	CHECK(near(val(&p, "registers per thread"), 255));
	CHECK(near(val(&p, "shared memory per block"), 8192));
	CHECK(near(val(&p, "spill bytes"), 20));
	Profile q = {0};
	CHECK(profile_parse_ptxas(a, "nvcc: no ptxas output\n", &q) == -1);
}

static void roofline(Arena *a)
{
	Profile p = {0};
	ProfilePeaks pk = {.gflops = 100, .gbps = 20, .source = "test"};
	profile_roofline(a, &p, 2e9, 4e8, 0.1, &pk, ET_F32);
	CHECK(near(val(&p, "achieved GFLOP/s"), 20));
	CHECK(near(val(&p, "% of peak FLOP/s"), 20));
	CHECK(near(val(&p, "achieved GB/s"), 4));
	CHECK(near(val(&p, "% of peak bandwidth"), 20));
	CHECK(near(val(&p, "arithmetic intensity"), 5));
	Profile q = {0};
	profile_roofline(a, &q, 0, 0, 0.1, &pk, ET_F32);
	CHECK(q.n == 0);
}

/* ncu 2025.3.1 on an H100, as kcc ran it: ==WARNING== and ==PROF== lines
 * first, the long layout, thousands separators in ns and bytes, "inst" as
 * the stalls' unit, and stalled_selected (issuing, not a stall) in the
 * list: it must not rank among the top stalls. */
static void recorded(Arena *a)
{
	int rc;
	Profile p = parse(a, "profile/ncu-2025.3-h100-gemm.csv", &rc);
	CHECK(rc == 0);
	CHECK(near(val(&p, "duration"), 25546.464));
	CHECK(near(val(&p, "DRAM throughput"), 13.29));
	CHECK(near(val(&p, "L1 hit rate"), 88.42));
	CHECK(near(val(&p, "registers per thread"), 32));
	CHECK(near(val(&p, "shared memory per block"), 0));
	CHECK(near(val(&p, "tensor pipe active"), 0));
	CHECK(near(val(&p, "local memory traffic"), 0));
	CHECK(val(&p, "stall long_scoreboard") > 20);
	CHECK(isnan(val(&p, "stall selected")));
	CHECK(!p.notes || !strstr(p.notes, "not reported"));

	p = parse(a, "profile/ncu-2025.3-h100-wmma.csv", &rc);
	CHECK(rc == 0);
	CHECK(near(val(&p, "duration"), 6827.04));
	CHECK(near(val(&p, "registers per thread"), 130));
	CHECK(near(val(&p, "shared memory per block"), 35328)); /* "35,328" static */
	CHECK(near(val(&p, "tensor pipe active"), 24.75));
	CHECK(near(val(&p, "achieved occupancy"), 18.09));
	/* wait 2.16 > selected 1 > not_selected 0.57 > long_scoreboard 0.52:
	 * without selected the top 3 are wait, not_selected, long_scoreboard */
	CHECK(near(val(&p, "stall wait"), 2.16));
	CHECK(near(val(&p, "stall not_selected"), 0.57));
	CHECK(near(val(&p, "stall long_scoreboard"), 0.52));
	CHECK(isnan(val(&p, "stall selected")));
}

int main(void)
{
	Arena *a = arena_new();
	long_layout(a);
	recorded(a);
	base_units(a);
	wide_layout(a);
	not_ncu(a);
	ptxas(a);
	roofline(a);
	arena_free(a);
	return check_summary("test_profile_ncu");
}
