/*
 * internal.h — what targets/'s files share and nobody else needs: each
 * target's profiler and peak measurement (the Target structs point at
 * them), the riscv64 target's QEMU command line, the embedded programs
 * and the build step every toolchain shares (tools.c).
 */
#ifndef KCC_TARGETS_INTERNAL_H
#define KCC_TARGETS_INTERNAL_H

#include "target.h"

/* ---- the shared steps (tools.c) ------------------------------------------------ */

/* Compile: argv (NULL-terminated) run in b->dir through runner (NULL:
 * here) with b->put, sandboxed as sandbox says; *out filled with the
 * command line, the compiler's output and its time. 0, or -1 when it
 * failed. */
int target_compile(Arena *a, const TargetBuild *b, const char *const *argv, Runner *runner,
                   ProcSandbox sandbox, TargetBuilt *out);
/* The flags after the compiler's fixed ones, as every target orders them:
 * -D defines, -I incdirs, the profile build's flags, the project's
 * (project_flags, NULL: none), the candidate's own, then -o exe src lib. */
void target_build_tail(Strvec *v, const TargetBuild *b, const char *const *project_flags,
                       const char *lib);
/* A profiler: pre (the tool and its options, NULL-terminated) in front of
 * r->argv, in r->cwd with env added, sandboxed; as proc_run. */
int target_run_tool(Arena *a, const TargetProfileRun *r, const char *const *pre,
                    const char *const *env, ProcResult *pr);

/* The cache dir (support's dir_cache(): --cache-dir, else
 * $XDG_CACHE_HOME/kcc, else ~/.cache/kcc). Where the targets keep what
 * outlives a run (the cuda description, the QEMU plugin). */
const char *target_cache_home(Arena *a);

/* ---- embedded programs (targets/programs/, cmake/embed.cmake) ------------------ */

/* The text of programs/NAME, or NULL. */
const char *target_program(const char *name, size_t *len);

/* ---- cpu -------------------------------------------------------------------- */

int perf_profile(Arena *a, const TargetProfileRun *r, Profile *out); /* perf.c */
bool perf_works(Arena *a);
int callgrind_profile(const Target *t, Arena *a, const TargetProfileRun *r, Profile *out);
int cpu_peaks(const Target *t, Arena *a, const char *cache_dir, ProfilePeaks *out);

/* ---- cuda ------------------------------------------------------------------- */

int cuda_profile(const Target *t, Arena *a, const TargetProfileRun *r, Profile *out);
int cuda_peaks(const Target *t, Arena *a, const char *cache_dir, ProfilePeaks *out);
extern const char *const CUDA_DIRS[]; /* where nvcc and ncu live besides PATH */

/* ---- riscv64 ---------------------------------------------------------------- */

int riscv64_profile(const Target *t, Arena *a, const TargetProfileRun *r, Profile *out);
/* kcc's QEMU plugin, built once (qemu_plugin.c); its path or NULL with *why. */
const char *target_qemu_plugin(Arena *a, const char **why);
/* The qemu-riscv64 command line up to and with prog: -cpu, a fresh copy of
 * the plugin in cwd and its arguments; NULL with *why (riscv64_qemu.c). */
const char **riscv64_qemu_argv(Arena *a, const char *cwd, const char *plugin_args,
                               const char *const *prog, const char **why);
int riscv64_vlen(void);          /* --riscv-vlen, 128 by default */
const char *riscv64_cost(void);  /* the plugin's cost spec, "" when none */

#endif
