/*
 * options.c — every option of kcc in one table, as curl's tool does: the
 * parser, `--help` and the man page (docs/kcc.1, from `kcc --print-man`)
 * all read it, so they cannot disagree. Options of stages that have not
 * landed yet are in the table already and say so (exit 3) when used.
 */
#include "driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
	O_OUTPUT, O_O0, O_O2, O_OLLM, O_TARGET, O_DUMP_IR, O_SUGGEST, O_PROFILE, O_CHECK, O_BENCH,
	O_ALLOW_LIBS, O_PARANOID, O_NO_BENCH_SHAPE, O_KEEP_TEMPS, O_INCLUDE, O_DEFINE, O_UNDEF, O_VERBOSE, O_VERSION, O_HELP, O_MAN, O_COLOR,
	O_PASSES, O_LLM, O_LLM_PLAN, O_LLM_CODE, O_BEAM, O_PLANS, O_SAMPLES, O_DROPOUT, O_SEED, O_BUDGET, O_RESUME,
	O_STATE_DIR, O_MENU, O_REPAIRS, O_NO_GAIN, O_EMIT_PASSES, O_SAVE_TEMPS, O_REPORT, O_MD,
	O_MF, O_MT, O_LLM_JOBS, O_LLM_TIMEOUT, O_CACHE_DIR, O_NO_CACHE, O_OFFLINE, O_CACHE_STATS, O_TIMEOUT,
	O_XCC, O_XNVCC, O_COMPDB, O_OSIZE, O_MP, O_RUNNER,
	O_RISCV_VLEN, O_RISCV_COST,
	O_LATER, /* accepted, belongs to a later stage */
} OptId;

typedef enum { ARG_NONE, ARG_REQ, ARG_OPT } ArgKind;

typedef struct {
	OptId id;
	const char *name;  /* as typed, e.g. "-o", "--target", "-O-llm" */
	ArgKind arg;
	const char *meta;  /* "FILE" */
	const char *help;
	const char *section;
} Opt;

static const Opt OPTS[] = {
    {O_OUTPUT, "-o", ARG_REQ, "FILE", "Write the result to FILE ('-' for stdout). Default: "
     "NAME.kcc.EXT in the current directory. Never the input file.", "General"},
    {O_O0, "-O0", ARG_NONE, NULL, "Parse, check the spec and re-emit the file unchanged "
     "(no search): proves the setup works.", "General"},
    {O_O2, "-O2", ARG_NONE, NULL, "Offline: autotune 'tune' parameters and compiler flags, "
     "no LLM.", "General"},
    {O_O2, "-O1", ARG_NONE, NULL, "Same as -O2: kcc has no cheaper offline level.", "General"},
    {O_O2, "-O3", ARG_NONE, NULL, "Same as -O2 (offline, no LLM): the LLM search costs money "
     "and is never implied; ask for it with -O-llm.", "General"},
    {O_O2, "-O", ARG_NONE, NULL, "Same as -O2.", "General"},
    {O_O0, "-Og", ARG_NONE, NULL, "Same as -O0 (the file as written).", "General"},
    {O_OSIZE, "-Os", ARG_NONE, NULL, "Refused with a note: kcc optimizes for time, never for "
     "size (-Oz too).", "General"},
    {O_OSIZE, "-Oz", ARG_NONE, NULL, "Refused, as -Os.", "General"},
    {O_OLLM, "-O-llm", ARG_OPT, "N", "LLM search with the default budget, or N search steps.",
     "General"},
    {O_TARGET, "--target", ARG_REQ, "cuda|cpu|riscv64", "The target. Default: from the "
     "file name (.cu is cuda, .c is cpu).", "General"},
    {O_RISCV_VLEN, "--riscv-vlen", ARG_REQ, "N", "riscv64: the vector length in bits that "
     "qemu-riscv64 emulates (vlen=N; 128 to 1024, a power of two; default 128).", "General"},
    {O_RISCV_COST, "--riscv-cost", ARG_REQ, "CLASS=W,...", "riscv64: measure a weighted "
     "instruction cost instead of the count (classes load, store, vector, vload, vstore, "
     "vsetvl, branch, fp, muldiv, int, other; weight 1 unless given; docs/riscv64.md).",
     "General"},
    {O_INCLUDE, "-I", ARG_REQ, "DIR", "Add DIR to the include path (parsing and every "
     "build: reference, candidates, profile).", "Build"},
    {O_DEFINE, "-D", ARG_REQ, "NAME[=VALUE]", "Define a macro (parsing and every build).",
     "Build"},
    {O_UNDEF, "-U", ARG_REQ, "NAME", "Undefine a macro (parsing and every build).", "Build"},
    {O_XCC, "-Xcc", ARG_REQ, "FLAG", "Pass FLAG to the C compiler in every build of the "
     "kernel, after kcc's own flags (repeatable). Env: KCC_CFLAGS (split at spaces); the "
     "compiler: KCC_CC, else CC, else cc.", "Build"},
    {O_XNVCC, "-Xnvcc", ARG_REQ, "FLAG", "Pass FLAG to nvcc in every build of the kernel "
     "(repeatable). Env: KCC_NVCCFLAGS; the compiler: NVCC, else nvcc.", "Build"},
    {O_COMPDB, "-p", ARG_REQ, "DIR", "Take the file's flags from DIR/compile_commands.json, "
     "as clang tools do (its -I -D -U -std -O -f -m flags).", "Build"},
    {O_DUMP_IR, "--dump-ir", ARG_NONE, NULL, "Print what kcc understood of the file "
     "(entry, functions, parameters, spec, shapes) as JSON.", "Inspection"},
    {O_SUGGEST, "--suggest-spec", ARG_NONE, NULL, "Print a spec inferred from the code, "
     "for you to check and paste into the file.", "Inspection"},
    {O_PROFILE, "--profile", ARG_NONE, NULL, "Time the kernel at its bench shape and print "
     "its profile (ncu, perf or callgrind) with the roofline, as the planner sees it.",
     "Inspection"},
    {O_CHECK, "--check", ARG_NONE, NULL, "kcc --check REF CAND: only the equivalence "
     "check; exit 0 if CAND is equivalent to REF, 1 with the reason if not.",
     "Verification"},
    {O_BENCH, "--bench", ARG_NONE, NULL, "With --check: also time both (alternating) and "
     "print the speed-up with its confidence interval.", "Verification"},
    {O_PASSES, "--passes", ARG_REQ, "LIST", "Apply a fixed pipeline instead of the "
     "search: one plan per named menu option, in order (e.g. "
     "cache-blocking,openmp-threads), each pass verified.", "Search"},
    {O_LLM, "--llm", ARG_REQ, "PROVIDER:MODEL[,...]", "The model(s); several make an "
     "ensemble. Env: KCC_LLM.", "Search"},
    {O_LLM_PLAN, "--llm-plan", ARG_REQ, "PROVIDER:MODEL[,...]", "The model(s) for "
     "planning, instead of --llm's.", "Search"},
    {O_LLM_CODE, "--llm-code", ARG_REQ, "PROVIDER:MODEL[,...]", "The model(s) for "
     "writing and repairing code, instead of --llm's.", "Search"},
    {O_BEAM, "--beam", ARG_REQ, "B", "Beam width: correct candidates faster than "
     "their parent kept per step (default 2).", "Search"},
    {O_PLANS, "--plans", ARG_REQ, "N", "Plans per beam entry and step (default 2).", "Search"},
    {O_SAMPLES, "--samples", ARG_REQ, "K", "Implementations per plan (default 2).", "Search"},
    {O_DROPOUT, "--dropout", ARG_REQ, "P", "Menu dropout: each option is left out "
     "of a planning prompt with probability P (default 0.7).", "Search"},
    {O_SEED, "--seed", ARG_REQ, "S", "Seed of the search's random choices "
     "(default 1, so reruns are reproducible and hit the cache).", "Search"},
    {O_BUDGET, "--budget", ARG_REQ, "calls:N,usd:X,time:T", "Stop the search at this spend; "
     "time in s, m or h.", "Search"},
    {O_RUNNER, "--runner", ARG_REQ, "local|ssh://[USER@]HOST[:PORT]|slurm[:PART][,account=A][,qos=Q]",
     "Where builds and runs happen: this machine (default), a machine behind ssh "
     "(command from KCC_SSH) or SLURM jobs (extra sbatch arguments from KCC_SBATCH_ARGS). "
     "See docs/runners.md.", "Verification"},
    {O_RESUME, "--resume", ARG_REQ, "DIR", "Continue the search saved in DIR "
     "(the state dir of an earlier run on the same input).", "Search"},
    {O_STATE_DIR, "--state-dir", ARG_REQ, "DIR", "Keep the run's state (requests, answers, "
     "candidates, verdicts, measurements) in DIR. Default: OUT.kcc-state.", "Search"},
    {O_MENU, "--menu", ARG_REQ, "FILE", "Use this menu instead of the target's built-in "
     "one (docs/menus.md).", "Search"},
    {O_REPAIRS, "--repairs", ARG_REQ, "R", "Repair requests per rejected candidate "
     "(default 1).", "Search"},
    {O_ALLOW_LIBS, "--allow-libs", ARG_NONE, NULL, "Let candidates call vendor kernel "
     "libraries (cuBLAS, cuDNN, CUTLASS, MKL, OpenBLAS).", "Verification"},
    {O_TIMEOUT, "--timeout", ARG_REQ, "T", "The ceiling of one run of the original while "
     "kcc calibrates it (s, m or h; default 10m). Every later run's time limit, the "
     "original's and the candidates', derives from the original's measured time.",
     "Verification"},
    {O_PARANOID, "--paranoid", ARG_NONE, NULL, "Repeat each verification case 10 times.",
     "Verification"},
    {O_NO_BENCH_SHAPE, "--no-bench-shape", ARG_NONE, NULL, "--check: do not compare the "
     "outputs at the bench shape (quicker; the verdict says so).", "Verification"},
    {O_KEEP_TEMPS, "--keep-temps", ARG_NONE, NULL, "Keep the verifier's temp dir (harnesses, "
     "builds, outputs) and print its path.", "Verification"},
    {O_NO_GAIN, "-Werror-no-gain", ARG_NONE, NULL, "Exit 2, writing nothing, when no verified "
     "improvement was found (otherwise the input is written unchanged).", "Search"},
    {O_EMIT_PASSES, "--emit-passes", ARG_REQ, "DIR", "Save every accepted pass as source, diff "
     "and plan.", "Output"},
    {O_SAVE_TEMPS, "-save-temps", ARG_NONE, NULL, "Same as --emit-passes=NAME.passes.", "Output"},
    {O_REPORT, "--report", ARG_REQ, "FILE.json|FILE.html", "Write the search's report: every "
     "candidate as JSON, or the search tree and a chart as HTML (by suffix); may be "
     "given twice.", "Output"},
    {O_MD, "-MD", ARG_NONE, NULL, "Write a make dependency file, like gcc.", "Output"},
    {O_MF, "-MF", ARG_REQ, "FILE", "The dependency file's name.", "Output"},
    {O_MP, "-MP", ARG_NONE, NULL, "With -MD: a rule with no prerequisites for each header, "
     "like gcc, so a renamed or deleted header does not break make.", "Output"},
    {O_MT, "-MT", ARG_REQ, "TARGET", "The target named in the dependency file.",
     "Output"},
    {O_LLM_JOBS, "--llm-jobs", ARG_REQ, "N", "LLM requests in flight.", "LLM"},
    {O_LLM_TIMEOUT, "--llm-timeout", ARG_REQ, "T", "Time limit of one LLM request (default "
     "300s); a time budget also ends requests in flight.", "LLM"},
    {O_CACHE_DIR, "--cache-dir", ARG_REQ, "DIR", "The LLM answer cache.", "LLM"},
    {O_NO_CACHE, "--no-cache", ARG_NONE, NULL, "Do not read the LLM answer cache.", "LLM"},
    {O_OFFLINE, "--offline", ARG_NONE, NULL, "Use only cached LLM answers.", "LLM"},
    {O_CACHE_STATS, "--cache-stats", ARG_NONE, NULL, "Print the cache's hits and misses.", "LLM"},
    {O_COLOR, "-fdiagnostics-color", ARG_OPT, "auto|always|never", "Colour in diagnostics "
     "(default: auto, on a terminal; never when NO_COLOR is set).", "Diagnostics"},
    {O_VERBOSE, "-v", ARG_NONE, NULL, "Show each command kcc runs.", "Diagnostics"},
    {O_VERSION, "--version", ARG_NONE, NULL, "Print the version.", "Diagnostics"},
    {O_HELP, "--help", ARG_NONE, NULL, "Print this help.", "Diagnostics"},
    {O_HELP, "-h", ARG_NONE, NULL, "Same as --help.", "Diagnostics"},
    {O_MAN, "--print-man", ARG_NONE, NULL, "Print the manual page (troff); docs/kcc.1 is "
     "made from it.", "Diagnostics"},
};

static const char *const SECTIONS[] = {"General", "Build", "Inspection", "Verification", "Search",
                                       "Output", "LLM", "Diagnostics"};

/* Match argv[*i] against opt; sets *val for options with arguments.
 * Forms: "--name", "--name=V", "--name V", "-xV", "-x V". */
static bool match(const Opt *opt, int argc, char **argv, int *i, const char **val,
                  bool *missing)
{
	const char *s = argv[*i];
	size_t n = strlen(opt->name);
	*val = NULL;
	if (strncmp(s, opt->name, n) != 0)
		return false;
	const char *rest = s + n;
	bool long_opt = opt->name[1] == '-' || n > 2;
	if (opt->arg == ARG_NONE)
		return *rest == 0;
	if (*rest == '=' && (long_opt || opt->arg == ARG_OPT)) {
		*val = rest + 1;
		return true;
	}
	if (*rest && !long_opt) {
		*val = rest; /* -oFILE, -IDIR */
		return true;
	}
	if (*rest)
		return false;
	if (opt->arg == ARG_OPT)
		return true;
	if (*i + 1 >= argc) {
		*missing = true;
		return true;
	}
	*val = argv[++*i];
	return true;
}

static int unknown(const char *arg)
{
	const char *names[ARRAY_LEN(OPTS)];
	char *key = strdup(arg);
	char *eq = strchr(key, '=');
	if (eq)
		*eq = 0;
	for (size_t k = 0; k < ARRAY_LEN(OPTS); k++)
		names[k] = OPTS[k].name;
	diag_error("unknown option '%s'", arg);
	const char *near = nearest_word(key, names, ARRAY_LEN(OPTS));
	if (near)
		diag_note("did you mean '%s'?", near);
	else
		diag_note("'kcc --help' lists the options");
	free(key);
	return EXIT_USER;
}

static int set_positional(Options *o, const char *arg)
{
	if (!o->input)
		o->input = arg;
	else if (o->mode == MODE_CHECK && !o->cand)
		o->cand = arg;
	else {
		diag_error("more than one input file ('%s' and '%s')", o->input, arg);
		diag_note("kcc optimizes one kernel file per run");
		return EXIT_USER;
	}
	return -1;
}

static int bad_number(const Opt *opt, const char *val, const char *want)
{
	diag_error("invalid value '%s' for %s", val, opt->name);
	diag_note("%s takes %s", opt->name, want);
	return EXIT_USER;
}

/* Upper bounds keep a typo (--samples=1000000000) from asking for more
 * memory or requests than any search could use (docs/security.md). */
static int int_value_max(const Opt *opt, const char *val, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(val, &end, 10);
	if (!*val || *end || errno || v < lo || v > hi) {
		char want[96];
		snprintf(want, sizeof want, "a whole number from %ld to %ld", lo, hi);
		return bad_number(opt, val, want);
	}
	*out = v;
	return -1;
}

static int int_value(const Opt *opt, const char *val, long lo, long *out)
{
	return int_value_max(opt, val, lo, 64, out);
}

/* The search's options: values checked here, used by driver/search.c. */
static int apply_search(Options *o, const Opt *opt, const char *val)
{
	long v;
	int rc = -1;
	SearchOptions *s = &o->search;
	switch (opt->id) {
	case O_PASSES: s->passes = val; break;
	case O_LLM: s->llm = val; break;
	case O_LLM_PLAN: s->llm_plan = val; break;
	case O_LLM_CODE: s->llm_code = val; break;
	case O_BEAM: if ((rc = int_value(opt, val, 1, &v)) < 0) s->beam = (int)v; break;
	case O_PLANS: if ((rc = int_value(opt, val, 1, &v)) < 0) s->plans = (int)v; break;
	case O_SAMPLES: if ((rc = int_value(opt, val, 1, &v)) < 0) s->samples = (int)v; break;
	case O_REPAIRS: if ((rc = int_value(opt, val, 0, &v)) < 0) s->repairs = (int)v; break;
	case O_LLM_JOBS: if ((rc = int_value_max(opt, val, 1, 256, &v)) < 0) s->jobs = (int)v; break;
	case O_LLM_TIMEOUT:
		if (!parse_seconds(val, &s->llm_timeout_s) || !(s->llm_timeout_s >= 1))
			return bad_number(opt, val, "a duration of at least 1 s (90, 90s, 10m, 1h)");
		break;
	case O_SEED: {
		char *end;
		s->seed = strtoull(val, &end, 10);
		s->seed_set = true;
		if (!*val || *end)
			rc = bad_number(opt, val, "a whole number");
		break;
	}
	case O_DROPOUT: {
		char *end;
		s->dropout = strtod(val, &end);
		if (!*val || *end || !(s->dropout >= 0 && s->dropout < 1))
			rc = bad_number(opt, val, "a probability P with 0 <= P < 1");
		break;
	}
	case O_BUDGET: s->budget = val; break;
	case O_RESUME: s->resume = val; break;
	case O_STATE_DIR: s->state_dir = val; break;
	case O_MENU: s->menu = val; break;
	case O_NO_GAIN: s->werror_no_gain = true; break;
	case O_EMIT_PASSES: s->emit_passes = val; break;
	case O_SAVE_TEMPS: s->save_temps = true; break;
	case O_REPORT:
		if (s->nreport == (int)ARRAY_LEN(s->report)) {
			diag_error("too many --report options (at most %d)", (int)ARRAY_LEN(s->report));
			return EXIT_USER;
		}
		s->report[s->nreport++] = val;
		break;
	case O_MD: s->md = true; break;
	case O_MF: s->mf = val; break;
	case O_MT: s->mt = val; break;
	case O_MP: s->mp = true; break;
	case O_CACHE_DIR: s->cache_dir = val; break;
	case O_NO_CACHE: s->no_cache = true; break;
	case O_OFFLINE: s->offline = true; break;
	case O_CACHE_STATS: s->cache_stats = true; break;
	default: break;
	}
	return rc;
}

static int apply(Options *o, const Opt *opt, const char *val)
{
	switch (opt->id) {
	case O_OUTPUT:
		o->output = val;
		break;
	case O_O0:
		o->level = OPT_O0;
		break;
	case O_O2:
		o->level = OPT_O2;
		break;
	case O_OLLM:
		o->level = OPT_OLLM;
		if (val) {
			char *end;
			o->llm_steps = strtol(val, &end, 10);
			if (!*val || *end || o->llm_steps <= 0 || o->llm_steps > 10000) {
				diag_error("invalid step count '%s' in '-O-llm=%s'", val, val);
				diag_note("write -O-llm for the default budget or -O-llm=N with 0 < N <= 10000");
				return EXIT_USER;
			}
		}
		break;
	case O_TARGET:
		if (!target_find(val)) {
			const char *const *t = target_names();
			size_t n = 0;
			while (t[n])
				n++;
			diag_error("unknown target '%s'", val);
			const char *near = nearest_word(val, t, n);
			Strbuf all = STRBUF_INIT;
			for (size_t i = 0; i < n; i++)
				sb_addf(&all, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " and ", t[i]);
			diag_note(near ? "did you mean '%s'?" : "targets are %s", near ? near : sb_str(&all));
			sb_release(&all);
			return EXIT_USER;
		}
		o->target = val;
		break;
	case O_RISCV_VLEN:
	case O_RISCV_COST: {
		const char *why = NULL;
		char *end = NULL;
		long n = opt->id == O_RISCV_VLEN ? strtol(val, &end, 10) : 0;
		if (opt->id == O_RISCV_VLEN && (!*val || *end || n <= 0))
			return bad_number(opt, val, "a number of bits");
		if (target_riscv64_config((int)n, opt->id == O_RISCV_COST ? val : NULL, &why)) {
			diag_error("invalid argument '%s' to %s", val, opt->name);
			diag_note("%s", why);
			return EXIT_USER;
		}
		break;
	}
	case O_INCLUDE:
	case O_DEFINE:
	case O_UNDEF: {
		const char *flag = opt->id == O_INCLUDE ? "-I" : opt->id == O_DEFINE ? "-D" : "-U";
		size_t n = strlen(flag) + strlen(val) + 1;
		char *s = malloc(n); /* lives until exit, like argv */
		snprintf(s, n, "%s%s", flag, val);
		o->clang_args = realloc(o->clang_args, (size_t)(o->nclang_args + 1) * sizeof(char *));
		o->clang_args[o->nclang_args++] = s;
		break;
	}
	case O_XCC:
	case O_XNVCC: {
		const char ***v = opt->id == O_XCC ? &o->xcc : &o->xnvcc;
		int *n = opt->id == O_XCC ? &o->nxcc : &o->nxnvcc;
		*v = realloc(*v, (size_t)(*n + 1) * sizeof(char *));
		(*v)[(*n)++] = val; /* argv lives until exit */
		break;
	}
	case O_COMPDB:
		o->compdb = val;
		break;
	case O_OSIZE:
		diag_error("'%s' is not supported: kcc optimizes for time, not size", opt->name);
		diag_note("use -O2 (offline autotuning) or -O-llm (LLM search); to keep the file "
		          "as written, -O0");
		return EXIT_USER;
	case O_DUMP_IR:
		o->mode = MODE_DUMP_IR;
		break;
	case O_SUGGEST:
		o->mode = MODE_SUGGEST_SPEC;
		break;
	case O_PROFILE:
		o->mode = MODE_PROFILE;
		break;
	case O_CHECK:
		o->mode = MODE_CHECK;
		break;
	case O_BENCH:
		o->bench = true;
		break;
	case O_TIMEOUT:
		if (!parse_seconds(val, &o->timeout_s) || !(o->timeout_s >= 1))
			return bad_number(opt, val, "a duration of at least 1 s (90, 90s, 10m, 1h)");
		break;
	case O_ALLOW_LIBS:
		o->allow_libs = true;
		break;
	case O_NO_BENCH_SHAPE:
		o->no_bench_shape = true;
		break;
	case O_PARANOID:
		o->paranoid = true;
		break;
	case O_KEEP_TEMPS:
		o->keep_temps = true;
		break;
	case O_VERBOSE:
		o->verbose++;
		break;
	case O_VERSION:
		o->mode = MODE_VERSION;
		break;
	case O_HELP:
		o->mode = MODE_HELP;
		break;
	case O_MAN:
		o->mode = MODE_MAN;
		break;
	case O_COLOR:
		if (!val || !strcmp(val, "always"))
			o->color = COLOR_ALWAYS;
		else if (!strcmp(val, "never"))
			o->color = COLOR_NEVER;
		else if (!strcmp(val, "auto"))
			o->color = COLOR_AUTO;
		else {
			diag_error("invalid argument '%s' to -fdiagnostics-color", val);
			diag_note("use auto, always or never");
			return EXIT_USER;
		}
		break;
	case O_PASSES: case O_LLM: case O_LLM_PLAN: case O_LLM_CODE: case O_BEAM: case O_PLANS: case O_SAMPLES: case O_DROPOUT:
	case O_SEED: case O_BUDGET: case O_RESUME: case O_STATE_DIR: case O_MENU: case O_REPAIRS:
	case O_NO_GAIN: case O_EMIT_PASSES: case O_SAVE_TEMPS: case O_REPORT: case O_MD: case O_MF:
	case O_MT: case O_MP: case O_LLM_JOBS: case O_LLM_TIMEOUT: case O_CACHE_DIR: case O_NO_CACHE: case O_OFFLINE:
	case O_CACHE_STATS:
		return apply_search(o, opt, val);
	case O_RUNNER:
		if (strcmp(val, "local") && strncmp(val, "ssh://", 6) && strcmp(val, "slurm") &&
		    strncmp(val, "slurm:", 6) && strncmp(val, "slurm,", 6)) {
			diag_error("invalid argument '%s' to --runner", val);
			diag_note("use local, ssh://[user@]host[:port] or slurm[:PARTITION]");
			return EXIT_USER;
		}
		o->runner = strcmp(val, "local") ? val : NULL;
		break;
	case O_LATER:
		if (!o->unimplemented)
			o->unimplemented = opt->name;
		break;
	}
	return -1;
}

int options_parse(int argc, char **argv, Options *o)
{
	memset(o, 0, sizeof *o);
	o->search.dropout = -1;
	o->search.repairs = -1;
	o->argc = argc;
	o->argv = (const char *const *)argv;
	bool only_files = false;
	/* Colour settles first so errors about the other options use it. */
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "-fdiagnostics-color", 19)) {
			const char *v = argv[i][19] == '=' ? argv[i] + 20 : "always";
			o->color = !strcmp(v, "never") ? COLOR_NEVER
			           : !strcmp(v, "auto") ? COLOR_AUTO
			                                : COLOR_ALWAYS;
		}
	diag_init(o->color);
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (only_files || arg[0] != '-' || !strcmp(arg, "-")) {
			int rc = set_positional(o, arg);
			if (rc >= 0)
				return rc;
			continue;
		}
		if (!strcmp(arg, "--")) {
			only_files = true;
			continue;
		}
		const Opt *hit = NULL;
		const char *val = NULL;
		bool missing = false;
		/* Longest name first, so -O-llm is not read as -O... */
		size_t best = 0;
		for (size_t k = 0; k < ARRAY_LEN(OPTS); k++) {
			int j = i;
			const char *v;
			bool m = false;
			if (strlen(OPTS[k].name) > best && match(&OPTS[k], argc, argv, &j, &v, &m)) {
				hit = &OPTS[k];
				best = strlen(hit->name);
			}
		}
		if (!hit)
			return unknown(arg);
		match(hit, argc, argv, &i, &val, &missing);
		if (missing) {
			diag_error("option '%s' needs an argument (%s)", hit->name, hit->meta);
			return EXIT_USER;
		}
		int rc = apply(o, hit, val);
		if (rc >= 0)
			return rc;
	}
	diag_set_verbose(o->verbose);
	if (o->mode == MODE_HELP) {
		options_print_help();
		return EXIT_OK;
	}
	if (o->mode == MODE_VERSION) {
		printf("kcc %s\n", KCC_VERSION);
		return EXIT_OK;
	}
	if (o->mode == MODE_MAN) {
		options_print_man();
		return EXIT_OK;
	}
	if (!o->input) {
		diag_error("no input file");
		diag_note("usage: kcc [options] FILE -o OUT; 'kcc --help' lists the options");
		return EXIT_USER;
	}
	if (o->mode == MODE_CHECK && !o->cand) {
		diag_error("--check needs two files: kcc --check REF CAND");
		return EXIT_USER;
	}
	return -1;
}

static void usage_name(const Opt *o, char *buf, size_t n)
{
	const char *sep = o->arg == ARG_OPT ? "[=" : o->name[1] == '-' ? "=" : " ";
	if (o->arg == ARG_NONE)
		snprintf(buf, n, "%s", o->name);
	else
		snprintf(buf, n, "%s%s%s%s", o->name, sep, o->meta, o->arg == ARG_OPT ? "]" : "");
}

void options_print_help(void)
{
	printf("usage: kcc [options] FILE -o OUT\n"
	       "       kcc --check REF CAND [--bench]\n\n"
	       "kcc optimizes a C or CUDA kernel, one verified pass at a time.\n");
	for (size_t s = 0; s < ARRAY_LEN(SECTIONS); s++) {
		printf("\n%s:\n", SECTIONS[s]);
		for (size_t k = 0; k < ARRAY_LEN(OPTS); k++) {
			if (strcmp(OPTS[k].section, SECTIONS[s]))
				continue;
			char name[96];
			usage_name(&OPTS[k], name, sizeof name);
			printf("  %-30s %s%s\n", name, OPTS[k].help,
			       OPTS[k].id == O_LATER ? " [not implemented yet]" : "");
			for (const Target *const *t = target_table(); OPTS[k].id == O_TARGET && *t; t++)
				printf("  %-30s   %-8s %s\n", "", (*t)->name, (*t)->about);
		}
	}
	printf("\nExit status: 0 output written, 1 bad input or options, 2 no verified gain\n"
	       "(with -Werror-no-gain), 3 a tool failed or a feature is missing.\n");
}

static void roff(const char *s)
{
	/* Escape what troff would read as requests or escapes. */
	if (*s == '.' || *s == '\'')
		fputs("\\&", stdout);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

void options_print_man(void)
{
	printf(".\\\" Generated by 'kcc --print-man' from driver/options.c; do not edit.\n"
	       ".TH KCC 1 \"\" \"kcc %s\" \"User Commands\"\n"
	       ".SH NAME\nkcc \\- optimize a C or CUDA kernel with verified passes\n"
	       ".SH SYNOPSIS\n.B kcc\n[\\fIoptions\\fR] \\fIFILE\\fR \\-o \\fIOUT\\fR\n.br\n"
	       ".B kcc \\-\\-check\n\\fIREF CAND\\fR [\\-\\-bench]\n"
	       ".SH DESCRIPTION\nkcc reads a kernel file whose \\fB#pragma kcc\\fR lines say "
	       "how to call it, searches for a faster version one optimization at a time, "
	       "proves every candidate equivalent to the original by differential "
	       "execution, and writes the fastest verified source. The input file is never "
	       "modified; the output is written atomically and only ever holds a verified "
	       "version.\n",
	       KCC_VERSION);
	for (size_t s = 0; s < ARRAY_LEN(SECTIONS); s++) {
		printf(".SH %s OPTIONS\n", SECTIONS[s]);
		for (size_t k = 0; k < ARRAY_LEN(OPTS); k++) {
			if (strcmp(OPTS[k].section, SECTIONS[s]))
				continue;
			char name[96];
			usage_name(&OPTS[k], name, sizeof name);
			printf(".TP\n.B ");
			roff(name);
			printf("\n");
			roff(OPTS[k].help);
			if (OPTS[k].id == O_LATER)
				printf(" (Not implemented yet.)");
			printf("\n");
		}
	}
	printf(".SH EXIT STATUS\n.TP\n0\nOutput written.\n.TP\n1\nBad input, spec or "
	       "options.\n.TP\n2\nNo verified improvement (with \\-Werror\\-no\\-gain).\n.TP\n3\n"
	       "A tool failed (compiler, provider) or a feature is not implemented yet.\n"
	       ".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nWhen set and not empty, diagnostics are "
	       "never coloured.\n.TP\n.B KCC_LLM\nThe default for \\-\\-llm.\n"
	       ".SH SEE ALSO\nThe spec reference: docs/spec.md in kcc's sources.\n");
}
