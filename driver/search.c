/*
 * search.c — the driver's side of -O2 and -O-llm: turn options into a
 * SearchConfig (target, menu, LLM client, budget, state dir), run the
 * search (passes/), and decide what is written and which exit code says
 * so (docs/search.md):
 *
 *   gain found           OUT = header + best version, exit 0
 *   no gain              OUT = the input byte for byte, exit 0
 *                        (-Werror-no-gain: nothing written, exit 2)
 *   provider/tool failed the best verified version when it gains, exit 3
 *   Ctrl-C               the best verified version when it gains, the
 *                        resume command on stderr, exit 130
 */
#include "driver.h"

#include "../passes/passes.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	if (interrupted) /* a second Ctrl-C: the user means it */
		_exit(130);
	interrupted = 1;
}

const Target *driver_target(const Options *o, const Unit *u)
{
	return o->target ? target_find(o->target) : target_for_lang(u->lang);
}

int driver_device(Arena *a, const Target *t, const Unit *u)
{
	TargetInfo info;
	t->describe(t, a, &info);
	if (info.present)
		return EXIT_OK;
	diag_error("%s: cannot run the kernel here: %s", u->path,
	           info.model ? info.model : "no device found");
	diag_note("the %s target verifies, times and profiles kernels on the device; "
	          "-O0, --dump-ir and --suggest-spec work without one", t->name);
	return EXIT_TOOL;
}

/* Default: OUT.kcc-state next to OUT; for stdout, under $XDG_STATE_HOME. */
static const char *state_dir(Arena *a, const Options *o, const Unit *u, const char *out)
{
	const SearchOptions *s = &o->search;
	if (s->resume)
		return s->resume;
	if (s->state_dir)
		return s->state_dir;
	if (strcmp(out, "-"))
		return arena_printf(a, "%s.kcc-state", out);
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char h[65];
	sha256_hex(u->text, u->len, h);
	const char *base = xdg && *xdg ? xdg : arena_printf(a, "%s/.local/state", home ? home : "/tmp");
	return arena_printf(a, "%s/kcc/%.16s", base, h);
}

void driver_verify_options(Arena *a, const Options *o, const Target *t, VerifyOptions *vo)
{
	verify_options_default(vo);
	vo->target = t;
	if (t && t->unit) /* a deterministic count: any lower count is a gain */
		vo->delta = 0;
	vo->allow_libs = o->allow_libs;
	vo->paranoid = o->paranoid;
	vo->keep_temps = o->keep_temps;
	if (o->timeout_s > 0)
		vo->ceiling_s = o->timeout_s;
	vo->cache_dir = dir_cache();
}

/* --resume DIR must hold a run on this very input. */
static int check_resume(Arena *a, const char *dir, const Unit *u)
{
	char *text;
	size_t len;
	if (file_read(a, arena_printf(a, "%s/report.json", dir), &text, &len)) {
		diag_error("--resume %s: no saved search there (no report.json)", dir);
		diag_note("name the state dir an earlier run printed (default OUT.kcc-state)");
		return EXIT_USER;
	}
	char h[65];
	sha256_hex(u->text, u->len, h);
	if (!strstr(text, h)) {
		diag_error("--resume %s: the saved search is for another input", dir);
		diag_note("the input changed since; start a new run without --resume");
		return EXIT_USER;
	}
	return EXIT_OK;
}

static const char **split_passes(Arena *a, const char *list, const Menu *m, int *n)
{
	const char **v = NULL;
	size_t cap = 0;
	*n = 0;
	char *s = arena_strdup(a, list), *save = NULL;
	for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!menu_find(m, t)) {
			const char **names = arena_alloc(a, sizeof *names * (size_t)(m->nopts + 1));
			for (int i = 0; i < m->nopts; i++)
				names[i] = m->opts[i].name;
			diag_error("--passes: '%s' is not an option of the menu %s", t, m->path);
			const char *near = nearest_word(t, names, (size_t)m->nopts);
			if (near)
				diag_note("did you mean '%s'?", near);
			else
				diag_note("the menu's options are listed in %s", m->path);
			return NULL;
		}
		ARENA_PUSH(a, v, *n, cap, t);
	}
	return v;
}

/* One client for every stage: --llm's providers (or KCC_LLM's, the config
 * files') first, then --llm-plan's, then --llm-code's; cfg's ranges say
 * which members answer plans and which write code. */
static int make_llm(Arena *a, const Options *o, const char *state, SearchConfig *sc)
{
	const SearchOptions *s = &o->search;
	LlmProvider *lists[3] = {NULL, NULL, NULL};
	int counts[3] = {0, 0, 0}, st;
	if (s->llm_plan &&
	    (st = llm_parse_providers(a, s->llm_plan, "--llm-plan", &lists[1], &counts[1])))
		return st;
	if (s->llm_code &&
	    (st = llm_parse_providers(a, s->llm_code, "--llm-code", &lists[2], &counts[2])))
		return st;
	/* The default list answers the stages without a model of their own. */
	if (s->llm || !s->llm_plan || !s->llm_code) {
		if ((st = llm_resolve_providers(a, s->llm, &lists[0], &counts[0]))) {
			if (st == LLM_EFAIL && (s->llm_plan || s->llm_code))
				diag_note("%s names the model for %s only; %s needs --llm or %s",
				          s->llm_plan ? "--llm-plan" : "--llm-code",
				          s->llm_plan ? "planning" : "writing code",
				          s->llm_plan ? "writing code" : "planning",
				          s->llm_plan ? "--llm-code" : "--llm-plan");
			return st;
		}
	}
	int nprov = counts[0] + counts[1] + counts[2];
	LlmProvider *prov = arena_alloc(a, sizeof *prov * (size_t)nprov);
	for (int i = 0, k = 0; i < 3; k += counts[i], i++)
		if (counts[i])
			memcpy(prov + k, lists[i], sizeof *prov * (size_t)counts[i]);
	if (s->llm_plan || s->llm_code) {
		sc->plan_first = counts[1] ? counts[0] + 1 : 1;
		sc->plan_n = counts[1] ? counts[1] : counts[0];
		sc->code_first = counts[2] ? counts[0] + counts[1] + 1 : 1;
		sc->code_n = counts[2] ? counts[2] : counts[0];
	}
	LlmClient **out = &sc->llm;
	LlmBudget budget = {0};
	if (s->budget && (st = llm_parse_budget(s->budget, "--budget", &budget)))
		return st;
	LlmConfig cfg = {.providers = prov, .nproviders = nprov, .jobs = s->jobs,
	                 .timeout_s = s->llm_timeout_s,
	                 .cache_dir = dir_cache(), .state_dir = state, .budget = budget,
	                 .cache_mode = s->offline    ? LLM_CACHE_OFFLINE
	                               : s->no_cache ? LLM_CACHE_REFRESH
	                                             : LLM_CACHE_NORMAL};
	*out = llm_client_new(a, &cfg);
	return *out ? EXIT_OK : EXIT_TOOL;
}

/* The command to paste, each word shell-quoted (proc_cmdline). */
static void print_resume(Arena *a, const Options *o, const char *state)
{
	const char **argv = arena_alloc(a, (size_t)(o->argc + 3) * sizeof *argv);
	int n = 0;
	for (int i = 0; i < o->argc; i++) {
		if (!strcmp(o->argv[i], "--resume") && i + 1 < o->argc) {
			i++;
			continue;
		}
		if (!strncmp(o->argv[i], "--resume=", 9))
			continue;
		argv[n++] = o->argv[i];
	}
	argv[n++] = "--resume";
	argv[n++] = state;
	argv[n] = NULL;
	diag_note("the search's state is in %s; resume with: %s", state,
	          proc_cmdline(a, argv));
}

/* --report and the state dir are checked before the search spends
 * anything: finding out after an hour of search is too late. */
static int check_writable(Arena *a, const Options *o, const char *state)
{
	const SearchOptions *s = &o->search;
	for (int i = 0; i < s->nreport; i++) {
		int e = file_check_writable(s->report[i]);
		if (e) {
			diag_error("cannot write the report '%s': %s", s->report[i], strerror(e));
			return EXIT_USER;
		}
	}
	int e = file_mkdirs(state, 0755);
	if (!e && access(state, W_OK | X_OK) != 0)
		e = errno;
	if (e && (s->state_dir || s->resume)) {
		diag_error("cannot use the state dir '%s': %s", state, strerror(e));
		return EXIT_USER;
	}
	if (e) {
		diag_warning("cannot use the state dir '%s': %s; this run cannot be resumed",
		             state, strerror(e));
		diag_note("pass --state-dir=DIR to keep it elsewhere");
	}
	(void)a;
	return 0;
}

static int write_extras(Arena *a, const Options *o, const Unit *u, const SearchResult *r,
                        const Target *t, const char *out)
{
	const SearchOptions *s = &o->search;
	int e;
	for (int i = 0; i < s->nreport; i++)
		if ((e = report_write(a, s->report[i], r, u, t->name))) {
			diag_error("cannot write the report '%s': %s", s->report[i], strerror(e));
			return EXIT_USER;
		}
	const char *dir = s->emit_passes;
	if (!dir && s->save_temps)
		dir = arena_printf(a, "%s.passes", strcmp(out, "-") ? out : "stdout");
	if (dir && (e = passes_emit_dir(a, dir, r, u, t->src_ext))) {
		diag_error("cannot write the passes to '%s': %s", dir, strerror(e));
		return EXIT_USER;
	}
	if (s->md && (e = driver_depfile(a, o, u, out))) {
		diag_error("cannot write the dependency file: %s", strerror(e));
		return EXIT_USER;
	}
	return EXIT_OK;
}

/* What to write: header + best when it gains, else the input as it is. */
static int emit_result(Arena *a, const Options *o, const Unit *u, const SearchResult *r,
                       bool gain)
{
	if (!gain)
		return emit_output(o, u, u->text, u->len);
	const Candidate *b = &r->c[r->best];
	size_t n;
	const char *body = tune_strip(a, b->text, b->len, "header", &n);
	const char *text = arena_printf(a, "%s%s", search_header(a, r, u), body);
	return emit_output(o, u, text, strlen(text));
}

/* -O2's results as Kernel Tuner prints them: one line per configuration
 * measured, with its time, speed-up over the original (built with the
 * project's flags) and the verifier's verdict. */
static void results_table(const SearchResult *r)
{
	fprintf(stderr, "kcc: -O2 results at %s (speed-up over the original built with the "
	                "project's flags):\n", r->shape ? r->shape : "the bench shape");
	fprintf(stderr, "  %-44s %10s %9s  %s\n", "configuration", "time ms", "speed-up",
	        "verdict");
	for (int i = 0; i < r->n; i++) {
		const Candidate *c = &r->c[i];
		Strbuf cfg = STRBUF_INIT;
		if (i == 0)
			sb_adds(&cfg, "original");
		if (c->tune && *c->tune)
			sb_addf(&cfg, "%s%s", cfg.len ? " " : "", c->tune);
		if (c->cflags && *c->cflags)
			sb_addf(&cfg, "%s%s", cfg.len ? " " : "", c->cflags);
		else if (i > 0 && !strncmp(c->option, "flags:", 6))
			sb_addf(&cfg, "%s%s", cfg.len ? " " : "", c->option);
		if (!cfg.len)
			sb_adds(&cfg, c->option && *c->option ? c->option : "-");
		const char *verdict = !c->correct ? verify_reason_name(c->reason)
		                      : i == r->best && i > 0 ? "correct, best"
		                      : i == 0 ? "baseline"
		                      : c->gain ? "correct, faster"
		                                : "correct";
		if (c->measured)
			fprintf(stderr, "  %-44s %10.4g %8.2fx  %s\n", sb_str(&cfg), c->ms, c->speedup,
			        verdict);
		else
			fprintf(stderr, "  %-44s %10s %9s  %s\n", sb_str(&cfg), "-", "-", verdict);
		sb_release(&cfg);
	}
}

/* Why no candidate won, in a few words: the best correct one's speed-up and
 * the rejections by reason ("; the best correct one timed 1.04x, 95% CI
 * 0.98x-1.10x; rejected: 2 wrong, 1 timeout"). A user told only "no improvement" cannot tell a
 * noisy machine from a broken model. */
static void no_gain_why(Strbuf *sb, const SearchResult *r)
{
	const Candidate *best = NULL;
	int rejected[VR__COUNT] = {0};
	for (int i = 1; i < r->n; i++) {
		const Candidate *c = &r->c[i];
		if (c->correct && c->measured && (!best || c->speedup > best->speedup))
			best = c;
		else if (!c->correct && (int)c->reason >= 0 && c->reason < VR__COUNT)
			rejected[c->reason]++;
	}
	if (best)
		sb_addf(sb, "; the best correct one timed %.2fx, 95%% CI %.2fx-%.2fx", best->speedup,
		        best->lo, best->hi);
	const char *sep = "; rejected: ";
	for (int k = 0; k < VR__COUNT; k++)
		if (rejected[k]) {
			sb_addf(sb, "%s%d %s", sep, rejected[k], verify_reason_name((VerifyReason)k));
			sep = ", ";
		}
}

static void summary(const Options *o, const SearchResult *r, const char *out, bool gain,
                    bool write)
{
	if (o->level == OPT_O2)
		results_table(r);
	const Candidate *b = &r->c[r->best];
	if (!gain) {
		Strbuf why = STRBUF_INIT;
		no_gain_why(&why, r);
		diag_warning("no verified improvement over %s (%d candidates%s%s%s); %s",
		             o->input, r->n - 1, r->stop != STOP_DONE ? ", stopped: " : "",
		             r->stop != STOP_DONE ? search_stop_name(r->stop) : "", sb_str(&why),
		             write                     ? "the output is the input unchanged"
		             : o->search.werror_no_gain ? "nothing written (-Werror-no-gain)"
		                                        : "nothing written");
		sb_release(&why);
		return;
	}
	if (o->level == OPT_O2 || isatty(2) || diag_verbose())
		fprintf(stderr, "kcc: %s: %.2fx over the original (95%% CI %.2fx-%.2fx)%s%s, "
		        "%d candidates; wrote %s\n", o->input, b->speedup, b->lo, b->hi,
		        b->cflags && *b->cflags ? " with " : "", b->cflags ? b->cflags : "",
		        r->n - 1, out);
}

static int finish(Arena *a, const Options *o, const Unit *u, const SearchResult *r,
                  const Target *t, const char *state)
{
	const char *out = emit_output_path(a, o);
	bool gain = r->best > 0;
	int rc = EXIT_OK;
	bool write = gain || (r->stop == STOP_DONE || r->stop == STOP_BUDGET);
	if (!gain && o->search.werror_no_gain)
		write = false, rc = EXIT_NO_GAIN;
	summary(o, r, out, gain, write);
	if (write && (rc = emit_result(a, o, u, r, gain)) != EXIT_OK)
		return rc;
	/* The winning compiler flags (-O2's flag search) next to OUT, always
	 * (empty when kcc's and the project's own won), for make and CMake to
	 * build OUT with: a response file, cc @OUT.cflags */
	if (write && strcmp(out, "-") != 0) {
		const Candidate *b = &r->c[gain ? r->best : 0];
		const char *fl = b->cflags && *b->cflags ? arena_printf(a, "%s\n", b->cflags) : "";
		const char *path = arena_printf(a, "%s.cflags", out);
		int err = file_write_atomic(path, fl, strlen(fl));
		if (err) {
			diag_error("cannot write '%s': %s", path, strerror(err));
			return EXIT_TOOL;
		}
	}
	int e = write_extras(a, o, u, r, t, out);
	if (e != EXIT_OK)
		return e;
	if (r->stop == STOP_PROVIDER || r->stop == STOP_TOOL) {
		diag_error("the search stopped: %s", r->stop_detail ? r->stop_detail : "tool failure");
		diag_note(gain ? "the best verified version so far was written to %s"
		               : "nothing was written to %s", out);
		print_resume(a, o, state);
		return driver_exit(ST_TOOL);
	}
	if (r->stop == STOP_BUDGET)
		diag_trace("kcc: the %s budget is used up", r->stop_detail);
	if (r->stop == STOP_INTERRUPT) {
		diag_warning("interrupted; %s", gain ? "the best verified version so far was written"
		                                     : "nothing was written");
		print_resume(a, o, state);
		return driver_exit(ST_INTERRUPT);
	}
	return rc;
}

static int search_with(Arena *a, const Options *o, const Unit *u, const Target *t, Runner *rn);

int driver_search(Arena *a, const Options *o, const Unit *u)
{
	const Target *t = driver_target(o, u);
	if (!t) {
		diag_error("the target '%s' cannot run kernels yet", o->target);
		return EXIT_TOOL;
	}
	int drc = o->runner ? EXIT_OK : driver_device(a, t, u);
	if (drc)
		return drc;
	Runner *rn = NULL;
	if ((drc = driver_runner(a, o, &rn)))
		return drc;
	drc = search_with(a, o, u, t, rn);
	runner_cleanup(rn);
	return drc;
}

static int search_with(Arena *a, const Options *o, const Unit *u, const Target *t, Runner *rn)
{
	const SearchOptions *so = &o->search;
	Menu menu;
	if (menu_load(a, t->name, so->menu, &menu))
		return EXIT_USER;
	SearchConfig cfg = {.orig = u, .target = t, .menu = &menu, .seed = so->seed_set ? so->seed : 1,
	                    .steps = (int)o->llm_steps, .beam = so->beam, .plans = so->plans,
	                    .samples = so->samples, .dropout = so->dropout,
	                    .repairs = so->repairs, .tune = true, .flags = o->level == OPT_O2,
	                    .stop = &interrupted, .progress = isatty(2) && !diag_verbose()};
	IrOptions io = {.clang_args = (const char **)o->parse_args, .nclang_args = o->nparse_args,
	                .lang = u->lang, .lang_set = true, .target_args = t->parse_args};
	cfg.io = &io;
	if (so->passes && !(cfg.passes = split_passes(a, so->passes, &menu, &cfg.npasses)))
		return EXIT_USER;
	const char *out = emit_output_path(a, o);
	cfg.state_dir = state_dir(a, o, u, out);
	cfg.memo_dir = arena_printf(a, "%s/verdicts", dir_cache());
	cfg.memo_read = !so->no_cache;
	cfg.resume = so->resume != NULL;
	if (so->resume && check_resume(a, so->resume, u))
		return EXIT_USER;
	int rc;
	if ((rc = check_writable(a, o, cfg.state_dir)))
		return rc;
	if (o->level == OPT_OLLM && (rc = make_llm(a, o, cfg.state_dir, &cfg)))
		return rc;
	driver_verify_options(a, o, t, &cfg.vo);
	cfg.vo.runner = rn;
	struct sigaction sa = {.sa_handler = on_sigint, .sa_flags = SA_RESTART}, old;
	sigaction(SIGINT, &sa, &old);
	SearchResult r;
	status_take(ST_OK); /* what the search raises decides its exit code */
	rc = search_run(a, &cfg, &r);
	sigaction(SIGINT, &old, NULL);
	if (cfg.llm && so->cache_stats)
		fprintf(stderr, "kcc: %s\n", llm_cache_stats(cfg.llm));
	/* A search that could not start: the original does not build or run.
	 * Its fault, unless a tool was missing (a compiler that cannot be
	 * started: exit 3, not 1). */
	if (rc == 0)
		rc = finish(a, o, u, &r, t, cfg.state_dir);
	else
		rc = driver_exit(status_take(ST_USER));
	if (cfg.llm)
		llm_client_free(cfg.llm);
	return rc;
}
