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

/* ---- argument vectors (strvec.c) -------------------------------------------- */

/* An argument vector built a word at a time, as git's strvec: v is
 * NULL-terminated after every push (an argv for ProcSpec at any moment);
 * words and array live in the arena. Strvec v = STRVEC_INIT(arena). */
typedef struct {
	Arena *a;
	const char **v;
	size_t n, cap;
} Strvec;
#define STRVEC_INIT(arena) {.a = (arena)}

void strvec_push(Strvec *v, const char *s);
void strvec_pushf(Strvec *v, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Each argument up to a NULL. */
void strvec_pushl(Strvec *v, ...);
/* Each word of a NULL-terminated list (NULL: none). */
void strvec_pushv(Strvec *v, const char *const *words);
/* Each word with prefix in front: ("-I", dirs) -> -Idir ... */
void strvec_pushv_prefix(Strvec *v, const char *prefix, const char *const *words);
/* Empty it (the words stay in the arena). */
void strvec_clear(Strvec *v);
/* The vector, NULL-terminated even when nothing was pushed (v.v is NULL
 * then). */
const char **strvec_detach(Strvec *v);

/* ---- scratch directories (scratch.c) ----------------------------------------- */

/* A fresh directory PREFIX-XXXXXX (mode 0700) under dir (NULL: $TMPDIR,
 * else /tmp): the one way kcc makes a working directory. Its arena path,
 * or NULL with errno set. */
char *scratch_make(Arena *a, const char *dir, const char *prefix);
/* Remove it and everything in it (links are removed, never followed). */
void scratch_remove(const char *path);

/* How far a command is fenced off from the user (isolate.c). */
typedef enum {
	PROC_PLAIN,     /* kcc's own tools on kcc's own files (diff, nvidia-smi) */
	PROC_SANDBOX,   /* a tool reading candidate code (the compiler, ncu):
	                   own PID and mount namespaces, a fresh /proc, the
	                   user's secret files (~/.ssh, ~/.aws, …) hidden, every
	                   process it starts killed when it ends */
	PROC_CANDIDATE, /* candidate code itself: PROC_SANDBOX, all of HOME
	                   hidden, HOME=cwd, only an allow-listed environment,
	                   a process-count limit */
} ProcSandbox;

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
	bool exclusive;               /* a timed run: it needs the device alone
	                                 (slurm: an --exclusive job) */
	ProcSandbox sandbox;          /* PROC_PLAIN unless it reads or is candidate code */
	int chan_fd;                  /* >= 3: the write end of a pipe kcc created
	                                 appears at this descriptor in the child
	                                 and everything written to it is captured
	                                 (ProcResult.chan); 0 = none. The verifier's
	                                 results channel: nothing in the file system. */
	size_t chan_max;              /* cap on the channel; 0 = 4 GiB */
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
	char *chan;        /* what the child wrote to spec->chan_fd (arena-owned) */
	size_t chan_len;
	bool chan_truncated;
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
/* Kill every command proc_run is running now (from a fatal signal
 * handler: async-signal-safe). */
void proc_kill_all(void);
/* Is this environment variable name a secret to scrub? (secret_name) */
bool proc_is_secret(const char *name);
/* Make kcc's own /proc files (environ above all) unreadable to other
 * processes of the same user: PR_SET_DUMPABLE 0. Call once at start-up. */
bool proc_protect_self(void);

/* isolate.c, for proc.c: what the sandbox needs, computed before fork. */
typedef struct {
	const char *home;   /* the user's HOME, whose secrets are hidden */
	const char *cwd;    /* the command's directory (never hidden) */
	bool hide_home;     /* PROC_CANDIDATE: all of HOME */
	bool no_namespaces; /* KCC_SANDBOX=subreaper: test the fallback */
} IsolateInfo;
/* In the forked child: enter the sandbox. Returns only in the process that
 * must exec; the supervisors above it never return. */
void isolate_enter(const IsolateInfo *info, int report_fd);

/* ---- timed runs one at a time (devlock.c) ---------------------------------------- */

/* Take the cross-process lock for timed runs on device (a name such as
 * "cpu" or "cuda0"), a file under CACHE_DIR/locks; blocks until free.
 * *waited_s says how long another kcc held it. The fd, or -1 on failure
 * (time anyway: the lock is a courtesy, not a correctness condition). */
int proc_device_lock(Arena *a, const char *cache_dir, const char *device, double *waited_s);
void proc_device_unlock(int fd);

/* ---- runners: where commands run -------------------------------------------- */

/* A Runner is a place where kcc's builds and harness runs happen: this
 * machine ("local"), a machine behind ssh ("ssh://[user@]host[:port]") or
 * the nodes of a SLURM cluster ("slurm[:PARTITION]"). As QBE's Target, it
 * is a struct of function pointers, and the verifier never asks which one
 * it holds: it puts the files a command needs there, runs the command
 * there with kcc's limits, brings the files it wrote back, and at the end
 * removes everything it made there. Comparison of outputs stays in kcc, on
 * this machine: what comes back are files.
 *
 * Paths: the caller names files by their absolute local paths. A runner
 * whose files live elsewhere (ssh) keeps a mirror of them under its own
 * root there and rewrites every local path in an argv or cwd that lies
 * under something it was given with put(); slurm assumes (and checks at
 * start) a file system shared with the nodes, so its put/get are no-ops.
 *
 * Failures of the runner itself (the ssh connection lost, a job cancelled
 * or stuck on a drained node) are not the candidate's: run() then returns
 * -1 with r->spawn_failed, and runner_failed() says why, so the verifier
 * reports a tool failure instead of rejecting the candidate. */
typedef struct Runner Runner;
struct Runner {
	const char *name;  /* "local", "ssh", "slurm" */
	const char *where; /* for messages: "this machine", "ssh://gpu1", "slurm:gpu" */
	/* Where work dirs must be made so the runner can reach them (slurm: a
	 * dir on the shared file system); NULL: anywhere ($TMPDIR). */
	const char *workdir;
	/* Make these local files or directories (absolute paths, NULL-ended)
	 * available there. 0, or -1 (runner_failed() says why). */
	int (*put)(Runner *self, Arena *a, const char *const *paths);
	/* Run spec there, with its limits enforced there. Like proc_run: 0 when
	 * it ran, whatever its status; -1 when it could not be run. */
	int (*run)(Runner *self, Arena *a, const ProcSpec *spec, ProcResult *r);
	/* Run n commands that do not depend on each other, at once where the
	 * runner can (slurm: one job array). rs[i] as run() fills it; -1 when
	 * the runner failed (runner_failed() says why). */
	int (*batch)(Runner *self, Arena *a, const ProcSpec *specs, int n, ProcResult *rs);
	/* Bring these files (absolute local paths) back: each one that exists
	 * there as a regular file replaces the local one; the others are
	 * removed here. 0, or -1 when the runner failed. */
	int (*get)(Runner *self, Arena *a, const char *const *paths);
	/* put, run, get in one trip where the runner can (ssh: one round trip
	 * over the connection); NULL: the three calls. put and get may be NULL. */
	int (*exec)(Runner *self, Arena *a, const ProcSpec *spec, const char *const *put,
	            const char *const *get, ProcResult *r);
	/* Remove what the runner made there, close connections, cancel jobs.
	 * Safe to call twice. */
	void (*cleanup)(Runner *self);
	const char *error; /* set when the runner itself failed; NULL while fine */
	void *state;
	struct RunnerDeferred *deferred; /* between runner_defer_begin and _end */
};

/* "local", "ssh://[user@]host[:port]" or "slurm[:PARTITION]" (NULL or ""
 * means local). tmpdir is kcc's local temp dir for the runner's own files
 * (ssh control socket, slurm job scripts; NULL: $TMPDIR). The runner is
 * ready to use, or NULL with *why set. */
Runner *runner_open(Arena *a, const char *spec, const char *tmpdir, const char **why);
Runner *runner_local(Arena *a);
Runner *runner_ssh(Arena *a, const char *url, const char *tmpdir, const char **why);
Runner *runner_slurm(Arena *a, const char *partition, const char *tmpdir, const char **why);

/* The verifier's calls: NULL means the local runner. */
int runner_put(Runner *r, Arena *a, const char *const *paths);
int runner_run(Runner *r, Arena *a, const ProcSpec *spec, ProcResult *out);
int runner_batch(Runner *r, Arena *a, const ProcSpec *specs, int n, ProcResult *rs);
int runner_get(Runner *r, Arena *a, const char *const *paths);
/* put (NULL: nothing), run, get (NULL: nothing): -1 when the runner
 * failed or the command could not start, as proc_run. */
int runner_exec(Runner *r, Arena *a, const ProcSpec *spec, const char *const *put,
                const char *const *get, ProcResult *out);
void runner_cleanup(Runner *r);
/* Batches through code that runs one command at a time (a Target's run):
 * when r runs batches at once (slurm), runner_defer_begin() returns true
 * and until runner_defer_end() every runner_run/runner_exec only records
 * its command (argv, env and cwd copied) and where its result goes; _end
 * runs them all as one batch (one job array) and fills those results. A
 * caller reads no result before _end. false: r has no batches, and
 * nothing is deferred. _end: 0, or -1 when the runner failed. */
bool runner_defer_begin(Runner *r, Arena *a);
int runner_defer_end(Runner *r, Arena *a);
/* Why the runner failed, or NULL while it works. */
const char *runner_failed(const Runner *r);
/* A signal handler for SIGINT/SIGTERM while r works: it runs r's prepared
 * clean-up commands (remove the remote dir, cancel the jobs), then dies of
 * the signal. Only for modes without a handler of their own (--check). */
void runner_cleanup_on_signal(Runner *r);

/* Runnable tasks beside kcc's own, per cpu (from /proc/loadavg's
 * running count): 0 on an idle machine, 1 with a busy loop on every cpu. */
double proc_load(void);

#endif
