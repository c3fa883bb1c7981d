/*
 * runner.h — the only way kcc starts a process.
 *
 * proc_run() runs one argument vector (never a shell string built from
 * data) with a time limit, rlimits, a working directory and an environment
 * scrubbed of secrets (every *_API_KEY, *_TOKEN, *_SECRET, *_PASSWORD
 * variable is removed), and captures its output. It never calls exit() and
 * never lets a child outlive its time limit: the child runs in its own
 * process group and the whole group is killed on timeout.
 *
 * A Runner ("local", later "ssh://host" and "slurm") is a struct of function
 * pointers, as QBE's Target: it runs a batch of such commands somewhere and
 * brings back named files. The search never asks which one it has.
 */
#ifndef KCC_RUNNER_H
#define KCC_RUNNER_H

#include "../support/support.h"

typedef struct {
	const char *const *argv;      /* NULL-terminated; argv[0] looked up in PATH */
	const char *cwd;              /* NULL: inherit */
	const char *stdin_data;       /* NULL: /dev/null */
	size_t stdin_len;
	double timeout_s;             /* wall-clock limit; 0 = none */
	uint64_t mem_bytes;           /* RLIMIT_AS; 0 = none (CUDA needs none) */
	uint64_t fsize_bytes;         /* RLIMIT_FSIZE; 0 = none */
	uint64_t cpu_s;               /* RLIMIT_CPU; 0 = none */
	const char *const *env_extra; /* NULL-terminated "K=V" added after scrubbing */
	bool keep_secrets;            /* true only for kcc's own tools that need a key
	                                 (the cmd: provider); never for candidates */
	size_t max_output;            /* cap on captured stdout and stderr each;
	                                 0 = 64 MiB. Excess is dropped, flagged. */
} ProcSpec;

typedef struct {
	int exit_code;     /* exit status when exited normally, else -1 */
	int term_signal;   /* signal that ended it, else 0 */
	bool timed_out;    /* killed by kcc at timeout_s */
	bool spawn_failed; /* could not start: spawn_errno says why */
	int spawn_errno;
	bool truncated;    /* output exceeded max_output */
	char *out, *err;   /* arena-owned, NUL-terminated */
	size_t out_len, err_len;
	double wall_s;
} ProcResult;

/* Run and wait. Returns 0 when it ran (whatever its status), -1 when it
 * could not be started (r->spawn_failed set). */
int proc_run(Arena *a, const ProcSpec *spec, ProcResult *r);
/* True when it ran and exited with status 0. */
bool proc_ok(const ProcResult *r);
/* One line describing how it ended: "exited with status 2",
 * "killed by signal 11 (Segmentation fault)", "timed out after 5.0 s". */
const char *proc_describe(Arena *a, const ProcSpec *spec, const ProcResult *r);
/* The command line, quoted for a human to paste into a shell (-v, reports). */
char *proc_cmdline(Arena *a, const char *const *argv);
/* The last n lines of text (for tool failures). */
const char *proc_tail(const char *text, int n);
/* Is this environment variable name a secret to scrub? */
bool proc_is_secret(const char *name);

/* ---- runners: where a batch of commands runs --------------------------------- */

typedef struct Runner Runner;
struct Runner {
	const char *name; /* "local", "ssh", "slurm" */
	/* Run spec in directory dir (created by the runner on its side). */
	int (*run)(Runner *self, Arena *a, const ProcSpec *spec, ProcResult *r);
	void *state;
};

Runner *runner_local(Arena *a);

/* Runnable tasks beside kcc's own, per cpu (from /proc/loadavg's
 * running count): 0 on an idle machine, 1 with a busy loop on every cpu. */
double proc_load(void);

#endif
