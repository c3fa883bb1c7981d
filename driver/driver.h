/*
 * driver.h — the kcc command: its options (one table that also makes
 * --help and the man page), and the emit step every output goes through.
 * main.c runs the pipeline; read it first.
 */
#ifndef KCC_DRIVER_H
#define KCC_DRIVER_H

#include "../ir/ir.h"
#include "../targets/target.h"
#include "../verify/verify.h"

/* Exit codes (DESIGN.md section 3), stable for scripts and make; what
 * each means is in exit.c's table, which --help and the man page print. */
enum {
	EXIT_OK = 0,
	EXIT_USER = 1,
	EXIT_NO_GAIN = 2,
	EXIT_TOOL = 3,
	EXIT_INTERRUPT = 130, /* as shells expect of SIGINT */
};

/* The exit code of a failure's category (exit.c). */
int driver_exit(Status s);
/* The exit codes' meanings, for --help and the man page (roff escapes). */
void exit_print_help(void);
void exit_print_man(void (*roff)(const char *));

typedef enum {
	MODE_COMPILE,      /* -O0 / -O2 / -O-llm: parse, (search), emit */
	MODE_DUMP_IR,
	MODE_SUGGEST_SPEC,
	MODE_CHECK,        /* --check REF CAND... */
	MODE_PROFILE,      /* --profile FILE */
	MODE_HELP,
	MODE_VERSION,
	MODE_MAN,
} Mode;

typedef enum { OPT_O0, OPT_O2, OPT_OLLM } OptLevel;

/* The search's options (-O2, -O-llm); driver/search.c uses them. */
typedef struct {
	const char *passes;     /* --passes=a,b,c */
	const char *llm;        /* --llm; NULL: KCC_LLM, config files */
	const char *llm_plan;   /* --llm-plan: the planner's model(s); NULL: llm's */
	const char *llm_code;   /* --llm-code: the coder's (implement, repair); NULL: llm's */
	int beam, plans, samples, repairs, jobs; /* 0 / -1: defaults */
	double llm_timeout_s;   /* --llm-timeout; 0: the client's default */
	double dropout;         /* -1: default */
	uint64_t seed;
	bool seed_set;
	const char *budget;
	const char *resume, *state_dir, *menu;
	bool werror_no_gain;
	const char *emit_passes;
	bool save_temps;
	const char *report[4]; /* --report, repeatable (.json and .html) */
	int nreport;
	bool md;
	const char *mf, *mt;
	bool mp;                /* -MP: phony rules for the headers */
	const char *cache_dir;
	bool no_cache, offline, cache_stats;
} SearchOptions;

typedef struct {
	Mode mode;
	OptLevel level;
	long llm_steps;       /* -O-llm=N; 0 = default budget */
	const char *input;    /* the kernel file (or REF for --check) */
	const char **cands;   /* the CANDs of --check, in order */
	int ncands;
	const char *output;   /* -o; NULL = default name */
	const char *target;   /* --target; NULL = from the file */
	const char **clang_args; /* -I, -D, -U as given */
	int nclang_args;
	const char **xcc, **xnvcc; /* -Xcc=FLAG, -Xnvcc=FLAG, in order */
	int nxcc, nxnvcc;
	const char *compdb;      /* -p DIR: DIR/compile_commands.json */
	const char *const *parse_args; /* what libclang gets: -I -D -U (absolute
	                                  paths), and those of -Xcc, KCC_CFLAGS
	                                  and the compile command (project.c) */
	int nparse_args;
	ColorMode color;
	int verbose;
	bool bench;           /* --check ... --bench */
	double timeout_s;     /* --timeout: the original's calibration ceiling; 0 default */
	bool allow_libs, paranoid, keep_temps; /* verification */
	const char *runner;   /* --runner; NULL = local */
	bool no_bench_shape;                   /* --check without the bench shape */
	SearchOptions search;
	int argc;             /* the command line, for "resume with: ..." */
	const char *const *argv;
} Options;

/* Parse argv. Returns -1 to go on, or an exit code after diagnostics. */
int options_parse(int argc, char **argv, Options *o);
/* --help, --version and --print-man (help.c): EXIT_OK after printing;
 * -1 for every other mode. */
int options_print(const Options *o);
void options_print_help(void);
void options_print_man(void);

/* -O2 / -O-llm: search, then emit OUT (with its header), the passes dir,
 * the report and the dependency file. Returns an exit code. */
int driver_search(Arena *a, const Options *o, const Unit *u);
/* -MD: the make rule "TARGET: FILE HEADERS..." for this run. 0 or errno. */
int driver_depfile(Arena *a, const Options *o, const Unit *u, const char *out);

/* kcc --check REF CAND... [--bench]; returns the worst candidate's exit
 * code. */
int driver_check(Arena *a, const Options *o);
/* kcc --profile FILE: time, profile and print; returns an exit code. */
int driver_profile(Arena *a, const Options *o, const Unit *u);
/* The target: --target, else from the file's language; NULL if unknown. */
const Target *driver_target(const Options *o, const Unit *u);
/* Whether t's device is here (cuda: a GPU answered) for anything that runs
 * u: EXIT_OK, or EXIT_TOOL with an error saying so — a missing GPU is not
 * the kernel's fault, and must not read like one. */
int driver_device(Arena *a, const Target *t, const Unit *u);
/* --runner, opened (runner.c); EXIT_TOOL with a message when it cannot be. */
int driver_runner(Arena *a, const Options *o, Runner **out);
/* The verifier's options as the command line sets them (--check,
 * --profile and the search share them). */
void driver_verify_options(Arena *a, const Options *o, const Target *t, VerifyOptions *vo);
/* The project's compiler and flags (project.c): handed to the targets for
 * every build, and to libclang through o->parse_args. -1 to go on, or an
 * exit code after diagnostics. */
int driver_project(Arena *a, Options *o);
/* Read and parse one kernel file; NULL (and *rc set) after diagnostics
 * (load.c). */
Unit *driver_load(Arena *a, const Options *o, const char *path, bool need_spec, int *rc);
/* What the parser gets from the command line: its flags, and the language
 * and target flags --target implies. */
IrOptions driver_ir_options(const Options *o);

/* Write text to the output path atomically; the input is never opened for
 * writing. Returns an exit code. */
int emit_output(const Options *o, const Unit *u, const char *text, size_t len);
/* The output path: -o, else NAME.kcc.EXT in the current directory. */
const char *emit_output_path(Arena *a, const Options *o);

#endif
