/*
 * riscv64_profile.c — the riscv64 target's profiler: the profile program
 * runs under qemu-riscv64 with kcc's plugin counting only inside
 * kcc_profile_calls() (the window opens when it runs and closes when main
 * runs again), and the plugin's report becomes the profile: instructions
 * executed, loads and stores, vector instructions, vsetvl, branches, fp and
 * mul/div, the functions with the most instructions, and the hottest
 * blocks with their source lines (riscv64-linux-gnu-addr2line on the
 * harness's debug info). Every number is an exact count of one run: the
 * same on every run, and what the search compares.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { C_LOAD, C_STORE, C_VARITH, C_VLOAD, C_VSTORE, C_VSETVL,
       C_BRANCH, C_FP, C_MULDIV, C_INT, C_OTHER, NCLASS };
static const char *const CLASS_NAME[NCLASS] = {
    "load", "store", "vector", "vload", "vstore", "vsetvl",
    "branch", "fp", "muldiv", "int", "other"};

typedef struct {
	unsigned long long vaddr, n, execs, cls[NCLASS];
	const char *sym;
} IcBlock;

static double pct(double x, double of)
{
	return of > 0 ? 100.0 * x / of : 0;
}

/* Split "a b c" into at most max words; returns the count. */
static int words(char *line, char **w, int max)
{
	int n = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t && n < max;
	     t = strtok_r(NULL, " \t\r", &save))
		w[n++] = t;
	return n;
}

int profile_parse_icount(Arena *a, const char *text, size_t len, Profile *out)
{
	char *copy = arena_strndup(a, text, len);
	unsigned long long insns = 0, cost = 0, windows = 0, cls[NCLASS] = {0},
	                   weight[NCLASS] = {0};
	bool magic = false, have_insns = false;
	IcBlock *blocks = NULL;
	size_t nb = 0, capb = 0;
	for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *w[6 + NCLASS];
		int n = words(line, w, 6 + NCLASS);
		if (n == 0)
			continue;
		if (!strcmp(w[0], "kcc-icount") && n == 2)
			magic = true;
		else if (!strcmp(w[0], "windows") && n == 2)
			windows = strtoull(w[1], NULL, 10);
		else if (!strcmp(w[0], "insns") && n == 2)
			insns = strtoull(w[1], NULL, 10), have_insns = true;
		else if (!strcmp(w[0], "cost") && n == 2)
			cost = strtoull(w[1], NULL, 10);
		else if (!strcmp(w[0], "class") && n == 4) {
			for (int c = 0; c < NCLASS; c++)
				if (!strcmp(w[1], CLASS_NAME[c])) {
					cls[c] = strtoull(w[2], NULL, 10);
					weight[c] = strtoull(w[3], NULL, 10);
				}
		} else if (!strcmp(w[0], "func") && n == 3 + NCLASS) {
			double v = strtod(w[1], NULL);
			ARENA_PUSH(a, out->hot, out->nhot, out->hotcap,
			           ((ProfileHot){arena_strdup(a, w[2 + NCLASS]), v}));
		} else if (!strcmp(w[0], "block") && n == 5 + NCLASS) {
			IcBlock b = {.vaddr = strtoull(w[1], NULL, 16), .n = strtoull(w[2], NULL, 10),
			             .execs = strtoull(w[3], NULL, 10),
			             .sym = arena_strdup(a, w[4 + NCLASS])};
			for (int c = 0; c < NCLASS; c++)
				b.cls[c] = strtoull(w[4 + c], NULL, 10);
			ARENA_PUSH(a, blocks, nb, capb, b);
		}
	}
	if (!magic || !have_insns)
		return -1;
	double I = (double)insns;
	for (int i = 0; i < out->nhot; i++)
		out->hot[i].share = pct(out->hot[i].share, I);
	profile_set(a, out, "instructions", I, "instructions",
	            "riscv64 instructions the entry executed (exact, the same on every run): "
	            "what kcc measures and minimizes");
	bool weighted = false;
	for (int c = 0; c < NCLASS; c++)
		weighted |= weight[c] != 1;
	if (weighted)
		profile_set(a, out, "weighted cost", (double)cost, "instructions",
		            "instructions weighted by class (--riscv-cost): what kcc minimizes");
	double loads = (double)(cls[C_LOAD] + cls[C_VLOAD]);
	double stores = (double)(cls[C_STORE] + cls[C_VSTORE]);
	double vec = (double)(cls[C_VARITH] + cls[C_VLOAD] + cls[C_VSTORE] + cls[C_VSETVL]);
	profile_set(a, out, "loads", loads, "instructions",
	            "load instructions, scalar and vector (a vector load counts once "
	            "whatever its length)");
	profile_set(a, out, "stores", stores, "instructions", "store instructions, scalar and vector");
	profile_set(a, out, "memory share", pct(loads + stores, I), "%",
	            "loads and stores over all instructions");
	profile_set(a, out, "vector instructions", vec, "instructions",
	            "RVV instructions: arithmetic, vector loads/stores and vsetvl; 0 means "
	            "the kernel is scalar");
	profile_set(a, out, "vector share", pct(vec, I), "%",
	            "vector instructions over all instructions");
	profile_set(a, out, "vsetvl", (double)cls[C_VSETVL], "instructions",
	            "vsetvli/vsetivli: one per strip-mined iteration; many per element "
	            "means short vectors or an LMUL change in the loop");
	profile_set(a, out, "branches", (double)cls[C_BRANCH], "instructions",
	            "branches and jumps: loop overhead; unrolling and longer vectors cut it");
	profile_set(a, out, "fp instructions", (double)cls[C_FP], "instructions",
	            "scalar floating-point operations (fma counts once)");
	profile_set(a, out, "mul/div", (double)cls[C_MULDIV], "instructions",
	            "integer multiplies and divides: index arithmetic that strength "
	            "reduction removes");
	if (windows != 1)
		profile_note(a, out, "the counting window opened %llu times (expected once)",
		             windows);
	/* hot blocks: kept in the notes, source lines added by the caller */
	for (size_t i = 0; i < nb && i < 5; i++) {
		IcBlock *b = &blocks[i];
		double tot = (double)b->n * (double)b->execs;
		Strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "hot block %d: 0x%llx in %s, %llu instructions x %llu runs = %.1f%%",
		        (int)i + 1, b->vaddr, b->sym, b->n, b->execs, pct(tot, I));
		const char *sep = " (";
		for (int c = 0; c < NCLASS; c++)
			if (b->cls[c]) {
				sb_addf(&sb, "%s%llu %s", sep, b->cls[c], CLASS_NAME[c]);
				sep = ", ";
			}
		sb_adds(&sb, *sep == ',' ? ")" : "");
		profile_note(a, out, "%s", sb.buf);
		sb_release(&sb);
	}
	return 0;
}

/* "0x10abc" in the notes -> "0x10abc (kernel.c:12)" from addr2line. */
static void add_lines(Arena *a, const char *exe, const char *cwd, Profile *out)
{
	Strvec argv = STRVEC_INIT(a);
	strvec_pushl(&argv, "riscv64-linux-gnu-addr2line", "-e", exe, NULL);
	const char *addrs[8];
	int na = 0;
	for (const char *p = out->notes; p && (p = strstr(p, ": 0x")) && na < 8; p++)
		addrs[na++] = arena_strndup(a, p + 2, strcspn(p + 2, " "));
	for (int i = 0; i < na; i++)
		strvec_push(&argv, addrs[i]);
	if (!na)
		return;
	ProcSpec ps = {.argv = argv.v, .cwd = cwd, .timeout_s = 30};
	ProcResult r;
	if (proc_run(a, &ps, &r) != 0 || !proc_ok(&r))
		return;
	char *notes = arena_strdup(a, out->notes);
	const char *line = r.out;
	for (int i = 0; i < na && *line; i++) {
		size_t len = strcspn(line, "\n");
		/* "/tmp/kcc-profile-x/harness.c:27 (discriminator 3)": the line is the
		 * kernel's (the harness #includes it), the file name means nothing */
		const char *colon = memchr(line, ':', len);
		char *where = colon && colon[1] != '?' && colon[1] != '0'
		                  ? arena_printf(a, "line %.*s", (int)strcspn(colon + 1, " \n"),
		                                 colon + 1)
		                  : "??";
		char *at = strstr(notes, addrs[i]);
		if (at && strncmp(where, "??", 2)) {
			size_t k = (size_t)(at - notes) + strlen(addrs[i]);
			notes = arena_printf(a, "%.*s (%s)%s", (int)k, notes, where, notes + k);
		}
		line += len + (line[len] == '\n');
	}
	out->notes = notes;
}

int riscv64_profile(const Target *t, Arena *a, const TargetProfileRun *r, Profile *out)
{
	(void)t;
	out->source = "qemu-riscv64 + kcc_icount";
	const char *report = arena_printf(a, "%s/kcc_icount.report", r->cwd);
	const char *window = arena_printf(a, "%s/kcc_icount.window", r->cwd);
	const char *args = arena_printf(a, "out=%s,window=%s,on=%s,off=main,top=12", report,
	                                window, r->collect ? r->collect : "kcc_profile_calls");
	const char *why = NULL;
	const char **argv = riscv64_qemu_argv(a, r->cwd, args, r->argv, &why);
	if (!argv) {
		profile_note(a, out, "%s", why);
		return -1;
	}
	ProcSpec ps = {.argv = argv, .cwd = r->cwd,
	               .timeout_s = r->timeout_s > 0 ? r->timeout_s : 300, .max_output = 1 << 20};
	ProcResult pr;
	proc_run(a, &ps, &pr);
	char *text = NULL;
	size_t len = 0;
	int rc = -1;
	if (!proc_ok(&pr))
		profile_note(a, out, "the profile program failed under qemu-riscv64: %s",
		             proc_describe(a, &ps, &pr));
	else if (file_read(a, report, &text, &len) != 0)
		profile_note(a, out, "the QEMU plugin wrote no report");
	else if (profile_parse_icount(a, text, len, out) != 0)
		profile_note(a, out, "the QEMU plugin's report does not parse");
	else
		rc = 0;
	if (rc == 0)
		add_lines(a, r->argv[0], r->cwd, out);
	if (text)
		target_keep_raw(a, r, "kcc_icount.txt", text, len);
	unlink(report);
	unlink(window);
	unlink(arena_printf(a, "%s/kcc_icount.so", r->cwd));
	unlink(arena_printf(a, "%s/omp.h", r->cwd));
	return rc;
}
