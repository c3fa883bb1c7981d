/*
 * target.h — what kcc needs from a kind of hardware: how to build a
 * generated harness with the target's compiler and flags, how to run it
 * (time limits, rlimits), how to run its timing mode, how to describe the
 * hardware and, where there is one, how to run its sanitizer.
 *
 * A Target is a struct of function pointers, as QBE's: the verifier and the
 * search call through it and never ask which one they hold. Adding a target
 * (riscv64 under QEMU, say) is a new file here plus a harness runtime header
 * in verify/templates/ and a line in target.c's table, and touches no core
 * code.
 *
 * The files: target.c the table; tools.c what the targets share (finding
 * tools, the compile step, running a harness, the embedded programs/);
 * project.c the project's compiler and flags; cpu.c, cuda.c, riscv64.c the
 * targets (riscv64_qemu.c its QEMU command line, qemu_plugin.c its plugin);
 * perf.c, callgrind.c, ncu.c (ncu_csv.c), riscv64_profile.c the profilers;
 * peaks.c the peak rates; profile.c the Profile, its text, the roofline and
 * the shape profiled; profile_ask.c the plan's extra metrics. The program a
 * profiler runs is the verifier's harness in profile mode (verify/profile.c).
 * internal.h is what they share with each other only.
 */
#ifndef KCC_TARGET_H
#define KCC_TARGET_H

#include "../ir/ir.h"
#include "../runners/runner.h"
#include "profile.h"

typedef struct Target Target;

/* One compilation: the harness source (which #includes the kernel file)
 * into an executable, inside dir. */
typedef struct {
	const char *dir;              /* working directory (a fresh temp dir) */
	const char *src;              /* harness source path */
	const char *exe;              /* executable to produce */
	const char *const *defines;   /* "NAME" or "NAME=V"; NULL-terminated or NULL */
	const char *const *incdirs;   /* NULL-terminated or NULL */
	double timeout_s;             /* 0: 300 s (nvcc is slow) */
	const char *const *flags;     /* extra compiler flags (profile builds); NULL */
	bool project;                 /* a build of the user's kernel: the project's
	                                 compiler and flags apply (project.c) */
	const char *const *cand_flags; /* flags of this one candidate (-O2's flag
	                                  search), after the project's; NULL */
	Runner *runner;               /* where it builds; NULL: here */
	const char *const *put;       /* what the runner must put there first; NULL */
} TargetBuild;

/* The project's compiler and flags (project.c), set once by the driver. */
typedef struct {
	const char *cc;                 /* C compiler; NULL: $KCC_CC, $CC, cc */
	const char *nvcc;               /* NULL: $NVCC, nvcc in PATH or CUDA's bin */
	const char *const *cflags;      /* C builds, after kcc's own; NULL-terminated */
	const char *const *nvcc_flags;  /* cuda builds, after kcc's own */
} TargetProject;
void target_project_set(const TargetProject *p);
const TargetProject *target_project(void); /* never NULL */

typedef struct {
	bool ok;
	const char *cmdline; /* the compiler command, quoted for a shell */
	const char *log;     /* compiler output (warnings kept for the report) */
	double wall_s;
} TargetBuilt;

/* One run of a built harness. */
typedef struct {
	const char *const *argv;  /* argv[0] is the executable */
	const char *cwd;
	double timeout_s;         /* 0: 10 s */
	uint64_t mem_bytes;       /* RLIMIT_AS where the target allows it */
	uint64_t fsize_bytes;     /* RLIMIT_FSIZE */
	Runner *runner;           /* where it runs; NULL: here */
	bool exclusive;           /* a timed run: the device alone */
	const char *const *put;   /* files the runner puts there first; NULL */
	const char *const *get;   /* files it brings back after; NULL */
	const char *stdin_data;   /* the plan, sent on stdin; NULL: none */
	size_t stdin_len;
	int chan_fd;              /* >= 3: the results pipe's number in the child
	                             (ProcSpec.chan_fd); 0: none */
} TargetRun;

/* The hardware, as the prompts and the report show it. Sizes in bytes;
 * 0 means unknown. */
typedef struct {
	bool present;          /* a device answered (cuda: a GPU was found) */
	const char *model;     /* "AMD EPYC 9654", "NVIDIA H100 80GB HBM3" */
	const char *arch;      /* "x86_64", "sm_90" */
	int cores;             /* CPU cores, or SMs */
	uint64_t l1d, l2, l3;  /* per core L1d, L2 (GPU: device L2), L3 */
	uint64_t flush_bytes;  /* what the timing loop writes to flush caches */
	uint64_t mem;          /* RAM, or device memory */
	double peak_gflops;    /* fp32 peak estimate, 0 unknown */
	double peak_gbps;      /* memory bandwidth estimate, 0 unknown */
	double clock_ghz;      /* the highest (boost) clock, 0 unknown */
	/* cuda: the limits a kernel is written against (0 unknown): shared
	 * memory per block by default and with the opt-in attribute, per SM;
	 * 32-bit registers per block and per SM; resident threads per SM. */
	uint64_t smem_block, smem_block_optin, smem_sm;
	int regs_block, regs_sm, threads_sm;
	const char *build_line; /* how kcc compiles a kernel for it: the compiler
	                           and its fixed flags, for the prompts */
	const char *summary;   /* one line with all of the above */
} TargetInfo;

/* Sanitizer findings: which tool reported, and its output's tail. */
typedef struct {
	bool ran;          /* false: the tool is not installed */
	bool clean;
	const char *tool;  /* "memcheck", ... the first that reported */
	const char *log;
} TargetSanitized;

/* One profiler run of a built profile program (verify_profile builds it:
 * the verifier's harness in profile mode). */
typedef struct {
	const char *const *argv;  /* the program; argv[0] is the executable */
	const char *cwd;          /* its directory: the profiler's files go here */
	double timeout_s;
	const char *build_log;    /* the compiler's output (ptxas -v on cuda) */
	const char *collect;      /* the program's function that calls the entry */
	bool keep;                /* leave the tool's raw output in cwd (ncu.csv or
	                             ptxas.txt, callgrind.out, perf.txt) for the user */
} TargetProfileRun;

/* With r->keep, the tool's raw output goes to r->cwd/NAME for the user;
 * nothing otherwise, or without data. */
void target_keep_raw(Arena *a, const TargetProfileRun *r, const char *name, const char *data,
                     size_t len);

struct Target {
	const char *name;      /* "cpu", "cuda" */
	const char *about;     /* one line for --help: what it builds, runs, measures */
	Lang lang;             /* the kernels it runs */
	const char *src_ext;   /* ".c", ".cu" */
	const char *runtime;   /* harness runtime header in verify/templates/ */
	/* What a sample measures: NULL, seconds (noisy: a gain must clear the
	 * noise margin); else a deterministic count named by this unit
	 * ("instructions" on riscv64), where any lower count is a gain. */
	const char *unit;
	/* libclang flags that parse its kernels as its compiler sees them
	 * (riscv64: --target=riscv64-linux-gnu -march=rv64gcv, for
	 * <riscv_vector.h>); NULL-terminated, or NULL for the host's. */
	const char *const *parse_args;
	int (*build)(const Target *t, Arena *a, const TargetBuild *b, TargetBuilt *out);
	/* Run once; 0 when it ran (whatever its status), -1 if it could not start. */
	int (*run)(const Target *t, Arena *a, const TargetRun *r, ProcResult *out);
	/* Fill *out (cached after the first call); 0 on success. Never fails
	 * hard: unknown fields are 0 and present says whether a device answered. */
	int (*describe)(const Target *t, Arena *a, TargetInfo *out);
	/* Run the harness under the target's sanitizers; NULL when none. */
	int (*sanitize)(const Target *t, Arena *a, const TargetRun *r, TargetSanitized *out);
	/* Or: flags of a sanitizer build of the harness (cpu: ASan + UBSan),
	 * which the verifier builds and runs once per candidate; NULL: none. */
	const char *const *sanitize_flags;
	/* Profile one run (cpu: perf or callgrind; cuda: ncu, else ptxas and
	 * events). 0 with *out filled, its notes saying what is missing; -1
	 * when no profile could be taken (out->notes says why). NULL: none. */
	int (*profile)(const Target *t, Arena *a, const TargetProfileRun *r, Profile *out);
	const char *const *profile_flags; /* extra build flags of profile programs */
	/* The profiler may simulate (callgrind, ~50x slower than native): the
	 * search profiles the bench shape only when its work is modest. false:
	 * always the bench shape (ncu replays the real kernel). */
	bool profile_slow;
	/* The device's peak rates, measured once and cached under cache_dir
	 * (NULL: not cached) or estimated; 0 with *out filled, -1 unknown. */
	int (*peaks)(const Target *t, Arena *a, const char *cache_dir, ProfilePeaks *out);
};

/* riscv64's options: the vector length in bits (--riscv-vlen, 0 keeps
 * it) and the cost model (--riscv-cost "load=4,branch=2", NULL keeps it).
 * 0, or -1 with *why. */
int target_riscv64_config(int vlen_bits, const char *cost, const char **why);

/* The registry (target.c): the one list --target accepts, --help shows
 * and a language's default comes from; NULL-terminated, in that order. */
const Target *const *target_table(void);
/* "cuda", "cpu", "riscv64"; NULL if unknown. */
const Target *target_find(const char *name);
/* The default target for a language: the first in the table that runs
 * it (LANG_C: cpu, LANG_CUDA: cuda). */
const Target *target_for_lang(Lang lang);
/* The names, NULL-terminated, in the table's order (--target's errors). */
const char *const *target_names(void);

/* Shared by the targets (tools.c): run through the run's runner with the
 * given limits, with the environment kcc gives every candidate. */
int target_run_proc(Arena *a, const TargetRun *r, bool limit_as, ProcResult *out);
/* Look a program up in PATH and in extra dirs; arena path or NULL. */
const char *target_which(Arena *a, const char *prog, const char *const *extra_dirs);

/* A spec expression (flops, bytes) at a shape; 0 when it does not evaluate. */
double target_eval(const Expr *e, const Shape *sh);
/* The shape to profile u at: the bench shape, unless t->profile_slow and
 * its work is large (spec flops > 3e8 or buffers > 256 MB): then the
 * largest check shape. NULL when the spec has neither. */
const Shape *target_profile_shape(const Target *t, const Unit *u);
#endif
