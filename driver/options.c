/*
 * options.c — every option of kcc in one typed table, as curl's tool does:
 * each entry says where its value goes (an offset into Options) and as
 * what (a flag, a string, a bounded number, a duration, a mode), so one
 * function, apply(), sets them all; the few that need more say so with a
 * function of their own. The parser, `--help` and the man page (docs/kcc.1,
 * from `kcc --print-man`) all read the table, so they cannot disagree.
 */
#include "options.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad_value(const Opt *opt, const char *val, const char *want)
{
	diag_error("invalid value '%s' for %s", val, opt->name);
	diag_note("%s takes %s", opt->name, want);
	return EXIT_USER;
}

/* ---- the options that need more than a type ------------------------------------ */

static int refuse_size(Options *o, const Opt *opt, const char *val)
{
	(void)o, (void)val;
	diag_error("'%s' is not supported: kcc optimizes for time, not size", opt->name);
	diag_note("use -O2 (offline autotuning) or -O-llm (LLM search); to keep the file "
	          "as written, -O0");
	return EXIT_USER;
}

static int set_llm_steps(Options *o, const Opt *opt, const char *val)
{
	(void)opt;
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
	return -1;
}

static int set_target(Options *o, const Opt *opt, const char *val)
{
	(void)opt;
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
	return -1;
}

static int set_riscv(Options *o, const Opt *opt, const char *val)
{
	(void)o;
	const char *why = NULL;
	char *end = NULL;
	bool vlen = !strcmp(opt->name, "--riscv-vlen");
	long n = vlen ? strtol(val, &end, 10) : 0;
	if (vlen && (!*val || *end || n <= 0))
		return bad_value(opt, val, "a number of bits");
	if (target_riscv64_config((int)n, vlen ? NULL : val, &why)) {
		diag_error("invalid argument '%s' to %s", val, opt->name);
		diag_note("%s", why);
		return EXIT_USER;
	}
	return -1;
}

/* -I, -D, -U: the flag as libclang and the compilers get it. */
static int add_clang_arg(Options *o, const Opt *opt, const char *val)
{
	size_t n = strlen(opt->name) + strlen(val) + 1;
	char *s = malloc(n); /* lives until exit, like argv */
	snprintf(s, n, "%s%s", opt->name, val);
	o->clang_args = realloc(o->clang_args, (size_t)(o->nclang_args + 1) * sizeof(char *));
	o->clang_args[o->nclang_args++] = s;
	return -1;
}

static int add_xflag(Options *o, const Opt *opt, const char *val)
{
	bool cc = !strcmp(opt->name, "-Xcc");
	const char ***v = cc ? &o->xcc : &o->xnvcc;
	int *n = cc ? &o->nxcc : &o->nxnvcc;
	*v = realloc(*v, (size_t)(*n + 1) * sizeof(char *));
	(*v)[(*n)++] = val; /* argv lives until exit */
	return -1;
}

static int set_seed(Options *o, const Opt *opt, const char *val)
{
	char *end;
	o->search.seed = strtoull(val, &end, 10);
	o->search.seed_set = true;
	return !*val || *end ? bad_value(opt, val, "a whole number") : -1;
}

static int set_dropout(Options *o, const Opt *opt, const char *val)
{
	char *end;
	double *p = &o->search.dropout;
	*p = strtod(val, &end);
	if (!*val || *end || !(*p >= 0 && *p < 1))
		return bad_value(opt, val, "a probability P with 0 <= P < 1");
	return -1;
}

static int add_report(Options *o, const Opt *opt, const char *val)
{
	(void)opt;
	SearchOptions *s = &o->search;
	if (s->nreport == (int)ARRAY_LEN(s->report)) {
		diag_error("too many --report options (at most %d)", (int)ARRAY_LEN(s->report));
		return EXIT_USER;
	}
	s->report[s->nreport++] = val;
	return -1;
}

static int set_runner(Options *o, const Opt *opt, const char *val)
{
	(void)opt;
	if (strcmp(val, "local") && strncmp(val, "ssh://", 6) && strcmp(val, "slurm") &&
	    strncmp(val, "slurm:", 6) && strncmp(val, "slurm,", 6)) {
		diag_error("invalid argument '%s' to --runner", val);
		diag_note("use local, ssh://[user@]host[:port] or slurm[:PARTITION]");
		return EXIT_USER;
	}
	o->runner = strcmp(val, "local") ? val : NULL;
	return -1;
}

static ColorMode color_mode(const char *val, bool *ok)
{
	*ok = true;
	if (!val || !strcmp(val, "always"))
		return COLOR_ALWAYS;
	if (!strcmp(val, "never"))
		return COLOR_NEVER;
	*ok = !strcmp(val, "auto");
	return COLOR_AUTO;
}

static int set_color(Options *o, const Opt *opt, const char *val)
{
	(void)opt;
	bool ok;
	o->color = color_mode(val, &ok);
	if (!ok) {
		diag_error("invalid argument '%s' to -fdiagnostics-color", val);
		diag_note("use auto, always or never");
		return EXIT_USER;
	}
	return -1;
}

#define OFF(field) offsetof(Options, field)

const Opt OPTS[] = {
    {"General", "-o", ARG_REQ, T_STR, OFF(output), .meta = "FILE",
     .help = "Write the result to FILE ('-' for stdout). Default: NAME.kcc.EXT in the current "
     "directory. Never the input file."},
    {"General", "-O0", ARG_NONE, T_LEVEL, .val = OPT_O0,
     .help = "Parse, check the spec and re-emit the file unchanged (no search): proves the setup "
     "works."},
    {"General", "-O2", ARG_NONE, T_LEVEL, .val = OPT_O2,
     .help = "Offline: autotune 'tune' parameters and compiler flags, no LLM."},
    {"General", "-O1", ARG_NONE, T_LEVEL, .val = OPT_O2,
     .help = "Same as -O2: kcc has no cheaper offline level."},
    {"General", "-O3", ARG_NONE, T_LEVEL, .val = OPT_O2,
     .help = "Same as -O2 (offline, no LLM): the LLM search costs money and is never implied; ask "
     "for it with -O-llm."},
    {"General", "-O", ARG_NONE, T_LEVEL, .val = OPT_O2,
     .help = "Same as -O2."},
    {"General", "-Og", ARG_NONE, T_LEVEL, .val = OPT_O0,
     .help = "Same as -O0 (the file as written)."},
    {"General", "-Os", ARG_NONE, T_FN, .fn = refuse_size,
     .help = "Refused with a note: kcc optimizes for time, never for size (-Oz too)."},
    {"General", "-Oz", ARG_NONE, T_FN, .fn = refuse_size,
     .help = "Refused, as -Os."},
    {"General", "-O-llm", ARG_OPT, T_FN, .fn = set_llm_steps, .meta = "N",
     .help = "LLM search with the default budget, or N search steps."},
    {"General", "--target", ARG_REQ, T_FN, .fn = set_target, .meta = "cuda|cpu|riscv64",
     .help = "The target. Default: from the file name (.cu is cuda, .c is cpu)."},
    {"General", "--riscv-vlen", ARG_REQ, T_FN, .fn = set_riscv, .meta = "N",
     .help = "riscv64: the vector length in bits that qemu-riscv64 emulates (vlen=N; 128 to 1024, "
     "a power of two; default 128)."},
    {"General", "--riscv-cost", ARG_REQ, T_FN, .fn = set_riscv, .meta = "CLASS=W,...",
     .help = "riscv64: measure a weighted instruction cost instead of the count (classes load, "
     "store, vector, vload, vstore, vsetvl, branch, fp, muldiv, int, other; weight 1 "
     "unless given; docs/riscv64.md)."},
    {"Build", "-I", ARG_REQ, T_FN, .fn = add_clang_arg, .meta = "DIR",
     .help = "Add DIR to the include path (parsing and every build: reference, candidates, "
     "profile)."},
    {"Build", "-D", ARG_REQ, T_FN, .fn = add_clang_arg, .meta = "NAME[=VALUE]",
     .help = "Define a macro (parsing and every build)."},
    {"Build", "-U", ARG_REQ, T_FN, .fn = add_clang_arg, .meta = "NAME",
     .help = "Undefine a macro (parsing and every build)."},
    {"Build", "-Xcc", ARG_REQ, T_FN, .fn = add_xflag, .meta = "FLAG",
     .help = "Pass FLAG to the C compiler in every build of the kernel, after kcc's own flags "
     "(repeatable). Env: KCC_CFLAGS (split at spaces); the compiler: KCC_CC, else CC, else"
     " cc."},
    {"Build", "-Xnvcc", ARG_REQ, T_FN, .fn = add_xflag, .meta = "FLAG",
     .help = "Pass FLAG to nvcc in every build of the kernel (repeatable). Env: KCC_NVCCFLAGS; the"
     " compiler: NVCC, else nvcc."},
    {"Build", "-p", ARG_REQ, T_STR, OFF(compdb), .meta = "DIR",
     .help = "Take the file's flags from DIR/compile_commands.json, as clang tools do (its -I -D "
     "-U -std -O -f -m flags)."},
    {"Inspection", "--dump-ir", ARG_NONE, T_MODE, .val = MODE_DUMP_IR,
     .help = "Print what kcc understood of the file (entry, functions, parameters, spec, shapes) "
     "as JSON."},
    {"Inspection", "--suggest-spec", ARG_NONE, T_MODE, .val = MODE_SUGGEST_SPEC,
     .help = "Print a spec inferred from the code, for you to check and paste into the file."},
    {"Inspection", "--profile", ARG_NONE, T_MODE, .val = MODE_PROFILE,
     .help = "Time the kernel at its bench shape and print its profile (ncu, perf or callgrind) "
     "with the roofline, as the planner sees it."},
    {"Verification", "--check", ARG_NONE, T_MODE, .val = MODE_CHECK,
     .help = "kcc --check REF CAND...: only the equivalence check, one verdict block per CAND "
     "(headed '==> CAND <==' when there are several); exit 0 if every CAND is equivalent to "
     "REF, 1 with the reason if one is not, 3 if kcc's own tools failed (the worst of the "
     "candidates')."},
    {"Verification", "--bench", ARG_NONE, T_FLAG, OFF(bench),
     .help = "With --check: also time both (alternating) and print the speed-up with its "
     "confidence interval."},
    {"Search", "--passes", ARG_REQ, T_STR, OFF(search.passes), .meta = "LIST",
     .help = "Apply a fixed pipeline instead of the search: one plan per named menu option, in "
     "order (e.g. cache-blocking,openmp-threads), each pass verified."},
    {"Search", "--llm", ARG_REQ, T_STR, OFF(search.llm), .meta = "PROVIDER:MODEL[,...]",
     .help = "The model(s); several make an ensemble. Env: KCC_LLM."},
    {"Search", "--llm-plan", ARG_REQ, T_STR, OFF(search.llm_plan), .meta = "PROVIDER:MODEL[,...]",
     .help = "The model(s) for planning, instead of --llm's."},
    {"Search", "--llm-code", ARG_REQ, T_STR, OFF(search.llm_code), .meta = "PROVIDER:MODEL[,...]",
     .help = "The model(s) for writing and repairing code, instead of --llm's."},
    {"Search", "--beam", ARG_REQ, T_INT, OFF(search.beam), .lo = 1, .hi = 64, .meta = "B",
     .help = "Beam width: correct candidates faster than their parent kept per step (default 2)."},
    {"Search", "--plans", ARG_REQ, T_INT, OFF(search.plans), .lo = 1, .hi = 64, .meta = "N",
     .help = "Plans per beam entry and step (default 2)."},
    {"Search", "--samples", ARG_REQ, T_INT, OFF(search.samples), .lo = 1, .hi = 64, .meta = "K",
     .help = "Implementations per plan (default 2)."},
    {"Search", "--dropout", ARG_REQ, T_FN, .fn = set_dropout, .meta = "P",
     .help = "Menu dropout: each option is left out of a planning prompt with probability P "
     "(default 0.7)."},
    {"Search", "--seed", ARG_REQ, T_FN, .fn = set_seed, .meta = "S",
     .help = "Seed of the search's random choices (default 1, so reruns are reproducible and hit "
     "the cache)."},
    {"Search", "--budget", ARG_REQ, T_STR, OFF(search.budget), .meta = "calls:N,usd:X,time:T",
     .help = "Stop the search at this spend; time in s, m or h."},
    {"Verification", "--runner", ARG_REQ, T_FN, .fn = set_runner, .meta = "local|ssh://[USER@]HOST[:PORT]|slurm[:PART][,account=A][,qos=Q]",
     .help = "Where builds and runs happen: this machine (default), a machine behind ssh (command "
     "from KCC_SSH) or SLURM jobs (extra sbatch arguments from KCC_SBATCH_ARGS). See "
     "docs/runners.md."},
    {"Search", "--resume", ARG_REQ, T_STR, OFF(search.resume), .meta = "DIR",
     .help = "Continue the search saved in DIR (the state dir of an earlier run on the same "
     "input)."},
    {"Search", "--state-dir", ARG_REQ, T_STR, OFF(search.state_dir), .meta = "DIR",
     .help = "Keep the run's state (requests, answers, candidates, verdicts, measurements) in DIR."
     " Default: OUT.kcc-state."},
    {"Search", "--menu", ARG_REQ, T_STR, OFF(search.menu), .meta = "FILE",
     .help = "Use this menu instead of the target's built-in one (docs/menus.md)."},
    {"Search", "--repairs", ARG_REQ, T_INT, OFF(search.repairs), .lo = 0, .hi = 64, .meta = "R",
     .help = "Repair requests per rejected candidate (default 1)."},
    {"Verification", "--allow-libs", ARG_NONE, T_FLAG, OFF(allow_libs),
     .help = "Let candidates call vendor kernel libraries (cuBLAS, cuDNN, CUTLASS, MKL, OpenBLAS)."},
    {"Verification", "--timeout", ARG_REQ, T_SECONDS, OFF(timeout_s), .meta = "T",
     .help = "The ceiling of one run of the original while kcc calibrates it (s, m or h; default "
     "10m). Every later run's time limit, the original's and the candidates', derives from"
     " the original's measured time."},
    {"Verification", "--paranoid", ARG_NONE, T_FLAG, OFF(paranoid),
     .help = "Repeat each verification case 10 times."},
    {"Verification", "--no-bench-shape", ARG_NONE, T_FLAG, OFF(no_bench_shape),
     .help = "--check: do not compare the outputs at the bench shape (quicker; the verdict says "
     "so)."},
    {"Verification", "--keep-temps", ARG_NONE, T_FLAG, OFF(keep_temps),
     .help = "Keep the verifier's temp dir (harnesses, builds, outputs) and print its path."},
    {"Search", "-Werror-no-gain", ARG_NONE, T_FLAG, OFF(search.werror_no_gain),
     .help = "Exit 2, writing nothing, when no verified improvement was found (otherwise the input"
     " is written unchanged)."},
    {"Output", "--emit-passes", ARG_REQ, T_STR, OFF(search.emit_passes), .meta = "DIR",
     .help = "Save every accepted pass as source, diff and plan."},
    {"Output", "-save-temps", ARG_NONE, T_FLAG, OFF(search.save_temps),
     .help = "Same as --emit-passes=NAME.passes."},
    {"Output", "--report", ARG_REQ, T_FN, .fn = add_report, .meta = "FILE.json|FILE.html",
     .help = "Write the search's report: every candidate as JSON, or the search tree and a chart "
     "as HTML (by suffix); may be given twice."},
    {"Output", "-MD", ARG_NONE, T_FLAG, OFF(search.md),
     .help = "Write a make dependency file, like gcc -MMD: the input, the project headers it "
     "includes directly or through others (not system headers) and the --menu file."},
    {"Output", "-MF", ARG_REQ, T_STR, OFF(search.mf), .meta = "FILE",
     .help = "The dependency file's name."},
    {"Output", "-MP", ARG_NONE, T_FLAG, OFF(search.mp),
     .help = "With -MD: a rule with no prerequisites for each header, like gcc, so a renamed or "
     "deleted header does not break make."},
    {"Output", "-MT", ARG_REQ, T_STR, OFF(search.mt), .meta = "TARGET",
     .help = "The target named in the dependency file."},
    {"LLM", "--llm-jobs", ARG_REQ, T_INT, OFF(search.jobs), .lo = 1, .hi = 256, .meta = "N",
     .help = "LLM requests in flight."},
    {"LLM", "--llm-timeout", ARG_REQ, T_SECONDS, OFF(search.llm_timeout_s), .meta = "T",
     .help = "Time limit of one LLM request (default 300s); a time budget also ends requests in "
     "flight."},
    {"LLM", "--cache-dir", ARG_REQ, T_STR, OFF(search.cache_dir), .meta = "DIR",
     .help = "The LLM answer cache."},
    {"LLM", "--no-cache", ARG_NONE, T_FLAG, OFF(search.no_cache),
     .help = "Do not read the LLM answer cache."},
    {"LLM", "--offline", ARG_NONE, T_FLAG, OFF(search.offline),
     .help = "Use only cached LLM answers."},
    {"LLM", "--cache-stats", ARG_NONE, T_FLAG, OFF(search.cache_stats),
     .help = "Print the cache's hits and misses."},
    {"Diagnostics", "-fdiagnostics-color", ARG_OPT, T_FN, .fn = set_color, .meta = "auto|always|never",
     .help = "Colour in diagnostics (default: auto, on a terminal; never when NO_COLOR is set)."},
    {"Diagnostics", "-v", ARG_NONE, T_COUNT, OFF(verbose),
     .help = "Show each command kcc runs."},
    {"Diagnostics", "--version", ARG_NONE, T_MODE, .val = MODE_VERSION,
     .help = "Print the version."},
    {"Diagnostics", "--help", ARG_NONE, T_MODE, .val = MODE_HELP,
     .help = "Print this help."},
    {"Diagnostics", "-h", ARG_NONE, T_MODE, .val = MODE_HELP,
     .help = "Same as --help."},
    {"Diagnostics", "--print-man", ARG_NONE, T_MODE, .val = MODE_MAN,
     .help = "Print the manual page (troff); docs/kcc.1 is made from it."},
};

const size_t NOPTS = ARRAY_LEN(OPTS);

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
	else if (o->mode == MODE_CHECK) {
		o->cands = realloc(o->cands, (size_t)(o->ncands + 1) * sizeof(char *));
		o->cands[o->ncands++] = arg; /* argv lives until exit */
	}
	else {
		diag_error("more than one input file ('%s' and '%s')", o->input, arg);
		diag_note("kcc optimizes one kernel file per run");
		return EXIT_USER;
	}
	return -1;
}

/* Set what opt says from val: -1 to go on, or an exit code after
 * diagnostics. Upper bounds on numbers keep a typo (--samples=1000000000)
 * from asking for more memory or requests than any search could use
 * (docs/security.md). */
static int apply(Options *o, const Opt *opt, const char *val)
{
	char *field = (char *)o + opt->off;
	switch (opt->type) {
	case T_FLAG:
		*(bool *)field = true;
		break;
	case T_COUNT:
		++*(int *)field;
		break;
	case T_STR:
		*(const char **)field = val;
		break;
	case T_INT: {
		char *end;
		errno = 0;
		long v = strtol(val, &end, 10);
		if (!*val || *end || errno || v < opt->lo || v > opt->hi) {
			char want[96];
			snprintf(want, sizeof want, "a whole number from %ld to %ld", opt->lo, opt->hi);
			return bad_value(opt, val, want);
		}
		*(int *)field = (int)v;
		break;
	}
	case T_SECONDS:
		if (!parse_seconds(val, (double *)field) || !(*(double *)field >= 1))
			return bad_value(opt, val, "a duration of at least 1 s (90, 90s, 10m, 1h)");
		break;
	case T_MODE:
		o->mode = (Mode)opt->val;
		break;
	case T_LEVEL:
		o->level = (OptLevel)opt->val;
		break;
	case T_FN:
		return opt->fn(o, opt, val);
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
			bool ok;
			o->color = color_mode(argv[i][19] == '=' ? argv[i] + 20 : NULL, &ok);
			if (!ok) /* the error about it comes in colour */
				o->color = COLOR_ALWAYS;
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
	if (o->mode == MODE_HELP || o->mode == MODE_VERSION || o->mode == MODE_MAN)
		return -1; /* main.c prints them (help.c) */
	if (!o->input) {
		diag_error("no input file");
		diag_note("usage: kcc [options] FILE -o OUT; 'kcc --help' lists the options");
		return EXIT_USER;
	}
	if (o->mode == MODE_CHECK && !o->ncands) {
		diag_error("--check needs two files: kcc --check REF CAND...");
		return EXIT_USER;
	}
	return -1;
}
