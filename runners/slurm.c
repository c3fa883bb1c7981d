/*
 * slurm.c — the slurm runner: --runner=slurm[:PARTITION][,account=A][,qos=Q].
 *
 * Each run is a batch job, a batch of independent runs is one job array
 * (sbatch --array), and a timed run is an --exclusive job so nothing shares
 * the node's device with it. The job's script is runner_script() — the
 * same ulimit/timeout/env -i line the ssh runner sends — with its stdout,
 * stderr and exit status written to files next to the script; kcc waits
 * for the status file and reads the rest, so results come back as the
 * job's files. That needs a file system the nodes share with this machine:
 * kcc works in $KCC_SLURM_DIR (default ~/.cache/kcc/slurm), and checks at
 * start, with one small job, that a node reads what kcc wrote there and
 * kcc reads what the node wrote back.
 *
 * Limits: the job's --time is kcc's time limit plus a minute, rounded up
 * to minutes (the script's own `timeout` is the precise one); kcc's memory
 * limit is an address-space limit, enforced by `ulimit -v` in the script as
 * it is locally, and --mem reserves min(that, 4 GiB, a core's share of the
 * smallest node), so the tasks of an array run side by side. KCC_SBATCH_ARGS
 * (split like KCC_SSH) comes last, so the site's --gres, --constraint or
 * --mem win. Every job of a run has the name kcc-PID-N; cleanup and Ctrl-C
 * run `scancel --name` on it. A job that is cancelled, fails on its node,
 * or waits on a partition whose nodes are all drained or down is the
 * runner's failure, not the candidate's (runner_failed()).
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
	Arena *a;
	const char *partition, *account, *qos;
	const char **extra; /* KCC_SBATCH_ARGS */
	int nextra;
	const char *dir;    /* kcc-slurm-XXXXXX under the shared dir */
	const char *name;   /* the jobs' name */
	uint64_t node_mem;  /* MB, the smallest node's; 0 unknown */
	int seq;
	double poll_s;      /* squeue every this many seconds while waiting */
} Slurm;

/* A SLURM command (sinfo, squeue, scontrol, scancel, sbatch): its stdout,
 * or NULL with *err set to its complaint. */
static const char *slurm_cmd(Arena *a, const char *const *argv, const char **err)
{
	ProcSpec ps = {.argv = argv, .timeout_s = 60};
	ProcResult r;
	if (proc_run(a, &ps, &r) != 0) {
		*err = arena_printf(a, "cannot run '%s': %s", argv[0], strerror(r.spawn_errno));
		return NULL;
	}
	if (!proc_ok(&r)) {
		const char *t = proc_tail(r.err, 2);
		*err = arena_printf(a, "%s: %s", argv[0],
		                    *t ? arena_strndup(a, t, strcspn(t, "\n"))
		                       : proc_describe(a, &ps, &r));
		return NULL;
	}
	return r.out;
}

/* The node states of the partition ("idle", "drain", "down*", ...), one
 * per line; NULL when sinfo fails. */
static const char *node_states(Arena *a, Slurm *s, const char **err)
{
	const char *argv[] = {"sinfo", "-h", "-N", "-o", "%t %E", "-p", s->partition, NULL};
	if (!s->partition)
		argv[5] = NULL;
	return slurm_cmd(a, argv, err);
}

/* Why no job can start in the partition (every node drained, down or
 * failed), or NULL when one can. */
static const char *no_node_up(Arena *a, Slurm *s)
{
	const char *err = NULL;
	const char *st = node_states(a, s, &err);
	if (!st)
		return err;
	const char *p = st, *first = NULL;
	int n = 0;
	while (*p) {
		size_t len = strcspn(p, "\n");
		n++;
		if (!strncmp(p, "idle", 4) || !strncmp(p, "mix", 3) || !strncmp(p, "alloc", 5) ||
		    !strncmp(p, "comp", 4) || !strncmp(p, "plnd", 4) || !strncmp(p, "resv", 4))
			return NULL;
		if (!first)
			first = arena_strndup(a, p, len);
		p += len + (p[len] == '\n');
	}
	if (!n)
		return arena_printf(a, "the partition %s has no nodes",
		                    s->partition ? s->partition : "(default)");
	return arena_printf(a, "no node of partition %s can run jobs (%d node%s: %s)",
	                    s->partition ? s->partition : "(default)", n, n == 1 ? "" : "s",
	                    first);
}

/* The job's state from scontrol ("COMPLETED", "CANCELLED", ...) and its
 * reason; NULL when SLURM forgot the job. */
static const char *job_state(Arena *a, const char *id, const char **reason)
{
	const char *argv[] = {"scontrol", "-o", "show", "job", id, NULL};
	const char *err;
	const char *out = slurm_cmd(a, argv, &err);
	*reason = NULL;
	if (!out)
		return NULL;
	const char *st = strstr(out, "JobState="), *re = strstr(out, "Reason=");
	if (re)
		*reason = arena_strndup(a, re + 7, strcspn(re + 7, " \n"));
	return st ? arena_strndup(a, st + 9, strcspn(st + 9, " \n")) : NULL;
}

static void cancel_all(Arena *a, Slurm *s)
{
	const char *argv[] = {"scancel", "--name", s->name, NULL};
	const char *err;
	slurm_cmd(a, argv, &err);
}

/* ---- submitting and waiting --------------------------------------------------- */

static const char *shell_body(Arena *a, const ProcSpec *spec, const char *base)
{
	const char *o = runner_shq(a, arena_printf(a, "%s.out", base));
	const char *e = runner_shq(a, arena_printf(a, "%s.err", base));
	const char *t = runner_shq(a, arena_printf(a, "%s.st.tmp", base));
	const char *st = runner_shq(a, arena_printf(a, "%s.status", base));
	size_t cap = spec->max_output ? spec->max_output : (size_t)64 << 20;
	return arena_printf(a, "( %s ) </dev/null >%s 2>%s; echo $? >%s; %smv %s %s\n",
	                    runner_script(a, spec, spec->argv, spec->cwd), o, e, t,
	                    runner_cap_script(a, cap + 1, (const char *[]){o, e, NULL}), t, st);
}

/* Submit script (an array of n tasks when n > 0); the job id or NULL. */
static const char *submit(Runner *self, Arena *a, const char *script, const ProcSpec *specs,
                          int n)
{
	Slurm *s = self->state;
	double t = 0;
	uint64_t mem = 0;
	bool excl = false;
	for (int i = 0; i < (n ? n : 1); i++) {
		const ProcSpec *p = &specs[i];
		double ti = p->timeout_s > 0 ? p->timeout_s : 3600;
		t = ti > t ? ti : t;
		mem = p->mem_bytes >> 20 > mem ? p->mem_bytes >> 20 : mem;
		excl |= p->exclusive;
	}
	/* kcc's limit is on address space (ulimit -v in the script); the
	 * request is what the scheduler reserves: at most a core's share of a
	 * node, so the tasks of an array run side by side. */
	if (!mem || mem > 4096)
		mem = 4096;
	if (s->node_mem && mem > s->node_mem)
		mem = s->node_mem;
	Strvec argv = STRVEC_INIT(a);
	strvec_pushl(&argv, "sbatch", "--parsable", "--job-name", s->name, "--nodes=1",
	             "--ntasks=1", "--output=/dev/null",
	             /* the job sees none of kcc's environment but these */
	             "--export=PATH,HOME,USER,LD_LIBRARY_PATH", NULL);
	strvec_pushf(&argv, "--error=%s.slurm-err", script);
	strvec_pushf(&argv, "--time=%d", (int)ceil((t + 60) / 60));
	strvec_pushf(&argv, "--mem=%lluM", (unsigned long long)mem);
	strvec_pushf(&argv, "--chdir=%s", s->dir);
	if (s->partition)
		strvec_pushf(&argv, "--partition=%s", s->partition);
	if (s->account)
		strvec_pushf(&argv, "--account=%s", s->account);
	if (s->qos)
		strvec_pushf(&argv, "--qos=%s", s->qos);
	if (excl)
		strvec_push(&argv, "--exclusive");
	if (n)
		strvec_pushf(&argv, "--array=0-%d", n - 1);
	strvec_pushv(&argv, s->extra);
	strvec_push(&argv, script);
	/* A Ctrl-C while sbatch runs waits until its job has an id, so the
	 * handler's scancel finds the job (sbatch runs in its own process
	 * group and would submit it anyway). */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	const char *err;
	const char *out = slurm_cmd(a, argv.v, &err);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!out || !*out) {
		self->error = arena_printf(s->a, "sbatch refused the job: %s",
		                           out ? "no job id" : err);
		return NULL;
	}
	return arena_strndup(a, out, strspn(out, "0123456789"));
}

/* Wait until every base.status of bases exists. 0, or -1 with
 * self->error when the job ended without them or cannot start. */
static int wait_for(Runner *self, Arena *a, const char *id, const char *const *bases, int n)
{
	Slurm *s = self->state;
	double start = clock_now(), next_check = start + 1.0, gone_at = 0, pending_since = 0;
	useconds_t nap = 20000;
	for (;;) {
		int done = 0;
		for (int i = 0; i < n; i++)
			done += access(arena_printf(a, "%s.status", bases[i]), F_OK) == 0;
		if (done == n)
			return 0;
		double now = clock_now();
		if (now >= next_check) {
			next_check = now + s->poll_s;
			const char *reason;
			const char *st = job_state(a, id, &reason);
			bool running = st && (!strcmp(st, "PENDING") || !strcmp(st, "RUNNING") ||
			                      !strcmp(st, "CONFIGURING") || !strcmp(st, "COMPLETING") ||
			                      !strcmp(st, "REQUEUED") || !strcmp(st, "RESIZING"));
			if (st && !strcmp(st, "PENDING")) {
				if (!pending_since)
					pending_since = now;
				const char *why = now - pending_since > 2 ? no_node_up(a, s) : NULL;
				if (why) {
					cancel_all(a, s);
					self->error = arena_printf(s->a, "job %s cannot start: %s", id, why);
					return -1;
				}
			} else
				pending_since = 0;
			if (!running) {
				/* Ended: give a shared file system a few seconds to show
				 * the files, then say how it ended. */
				if (!gone_at)
					gone_at = now;
				else if (now - gone_at > 10 || (st && strcmp(st, "COMPLETED"))) {
					self->error = arena_printf(
					    s->a, "job %s ended %s%s%s without its results in %s", id,
					    st ? st : "(SLURM forgot it)", reason && strcmp(reason, "None")
					                                     ? ", reason: " : "",
					    reason && strcmp(reason, "None") ? reason : "", s->dir);
					cancel_all(a, s);
					return -1;
				}
			}
		}
		usleep(nap);
		if (nap < 200000)
			nap += nap / 2;
	}
}

static void read_result(Arena *a, const ProcSpec *spec, const char *base, double wall,
                        ProcResult *r)
{
	size_t cap = spec->max_output ? spec->max_output : (size_t)64 << 20;
	memset(r, 0, sizeof *r);
	char *text;
	size_t len;
	r->out = r->err = "";
	if (file_read(a, arena_printf(a, "%s.out", base), &text, &len) == 0) {
		r->truncated |= len > cap;
		r->out_len = len < cap ? len : cap;
		text[r->out_len] = 0;
		r->out = text;
	}
	if (file_read(a, arena_printf(a, "%s.err", base), &text, &len) == 0) {
		r->truncated |= len > cap;
		r->err_len = len < cap ? len : cap;
		text[r->err_len] = 0;
		r->err = text;
	}
	int code = -1;
	if (file_read(a, arena_printf(a, "%s.status", base), &text, &len) == 0)
		code = atoi(text);
	r->wall_s = wall;
	runner_status(spec, code, wall, r);
	unlink(arena_printf(a, "%s.out", base));
	unlink(arena_printf(a, "%s.err", base));
	unlink(arena_printf(a, "%s.status", base));
}

static int slurm_batch(Runner *self, Arena *a, const ProcSpec *specs, int n, ProcResult *rs)
{
	Slurm *s = self->state;
	if (self->error)
		return -1;
	int job = ++s->seq;
	const char *script = arena_printf(a, "%s/job%d.sh", s->dir, job);
	const char **bases = arena_alloc(a, sizeof *bases * (size_t)n);
	Strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "#!/bin/sh\n# kcc: one task per command; results as files next to this\n");
	if (n > 1)
		sb_adds(&sb, "case \"$SLURM_ARRAY_TASK_ID\" in\n");
	for (int i = 0; i < n; i++) {
		bases[i] = arena_printf(a, "%s/job%d.%d", s->dir, job, i);
		if (n > 1)
			sb_addf(&sb, "%d) ", i);
		sb_adds(&sb, shell_body(a, &specs[i], bases[i]));
		if (n > 1)
			sb_adds(&sb, ";;\n");
	}
	if (n > 1)
		sb_adds(&sb, "esac\n");
	int e = file_write_atomic(script, sb.buf, sb.len);
	sb_release(&sb);
	if (e) {
		self->error = arena_printf(s->a, "cannot write %s: %s", script, strerror(e));
		return -1;
	}
	double t0 = clock_now();
	const char *id = submit(self, a, script, specs, n > 1 ? n : 0);
	if (!id || wait_for(self, a, id, bases, n) != 0)
		return -1;
	double wall = clock_now() - t0;
	for (int i = 0; i < n; i++)
		read_result(a, &specs[i], bases[i], wall, &rs[i]);
	unlink(script);
	unlink(arena_printf(a, "%s.slurm-err", script));
	return 0;
}

static int slurm_run(Runner *self, Arena *a, const ProcSpec *spec, ProcResult *r)
{
	memset(r, 0, sizeof *r);
	if (slurm_batch(self, a, spec, 1, r) != 0) {
		r->spawn_failed = true;
		r->spawn_errno = ECANCELED;
		return -1;
	}
	return 0;
}

static void slurm_cleanup(Runner *self)
{
	Slurm *s = self->state;
	if (!s->dir)
		return;
	cancel_all(s->a, s);
	scratch_remove(s->dir);
	s->dir = NULL;
}

/* PARTITION[,account=A][,qos=Q] */
static int parse_spec(Arena *a, const char *spec, Slurm *s, const char **why)
{
	if (!spec)
		return 0;
	char *copy = arena_strdup(a, spec);
	int k = 0;
	for (char *p = copy, *next; p; p = next, k++) {
		next = strchr(p, ',');
		if (next)
			*next++ = 0;
		if (!strncmp(p, "account=", 8) && p[8])
			s->account = p + 8;
		else if (!strncmp(p, "qos=", 4) && p[4])
			s->qos = p + 4;
		else if (k == 0 && !strchr(p, '='))
			s->partition = *p ? p : NULL;
		else {
			*why = arena_printf(a, "'%s': expected slurm[:PARTITION][,account=A][,qos=Q]",
			                    spec);
			return -1;
		}
	}
	return 0;
}

/* Can a node read what kcc writes in the shared dir, and kcc read what the
 * node writes? One small job says. */
static int check_shared(Runner *self, Arena *a, const char **why)
{
	Slurm *s = self->state;
	char nonce[65];
	char seed[64];
	snprintf(seed, sizeof seed, "%d-%f", (int)getpid(), clock_now());
	sha256_hex(seed, strlen(seed), nonce);
	const char *probe = arena_printf(a, "%s/probe", s->dir);
	if (file_write_atomic(probe, nonce, 64) != 0) {
		*why = arena_printf(a, "cannot write in %s: %s", s->dir, strerror(errno));
		return -1;
	}
	const char *cat[] = {"cat", probe, NULL};
	ProcSpec ps = {.argv = cat, .timeout_s = 60};
	ProcResult r;
	if (slurm_batch(self, a, &ps, 1, &r) != 0) {
		*why = self->error;
		self->error = NULL;
		if (strstr(*why, "without its results"))
			*why = arena_printf(a, "a node does not see kcc's work dir %s (the probe job "
			                       "ended without writing there): %s", s->dir, *why);
		return -1;
	}
	if (!proc_ok(&r) || strcmp(r.out, nonce)) {
		*why = arena_printf(a, "a node cannot read kcc's work dir %s: %s", s->dir,
		                    proc_ok(&r) ? "it read other contents" : proc_tail(r.err, 2));
		return -1;
	}
	unlink(probe);
	return 0;
}

Runner *runner_slurm(Arena *a, const char *spec, const char *tmpdir, const char **why)
{
	(void)tmpdir; /* the jobs' files must be shared: KCC_SLURM_DIR, not $TMPDIR */
	Slurm *s = arena_alloc(a, sizeof *s);
	s->a = a;
	s->poll_s = 1.0;
	if (parse_spec(a, spec, s, why))
		return NULL;
	const char *extra = getenv("KCC_SBATCH_ARGS");
	if (extra && *extra && !(s->extra = runner_split(a, extra, &s->nextra, why))) {
		*why = arena_printf(a, "KCC_SBATCH_ARGS: %s", *why);
		return NULL;
	}
	const char *base = getenv("KCC_SLURM_DIR"), *home = getenv("HOME");
	if (!base || !*base)
		base = home ? arena_printf(a, "%s/.cache/kcc/slurm", home) : NULL;
	if (!base || file_mkdirs(base, 0700) != 0) {
		*why = arena_printf(a, "cannot make kcc's work dir %s: %s", base ? base : "(no HOME)",
		                    strerror(errno));
		return NULL;
	}
	char *dir = scratch_make(a, base, "kcc-slurm");
	if (!dir) {
		*why = arena_printf(a, "cannot make a dir in %s: %s", base, strerror(errno));
		return NULL;
	}
	s->dir = dir;
	s->name = arena_printf(a, "kcc-%d-%s", (int)getpid(), strrchr(dir, '-') + 1);
	Runner *r = arena_alloc(a, sizeof *r);
	r->name = "slurm";
	r->where = s->partition ? arena_printf(a, "slurm:%s", s->partition) : "slurm";
	r->workdir = dir;
	r->state = s;
	r->run = slurm_run;
	r->batch = slurm_batch;
	r->cleanup = slurm_cleanup;
	/* The controller answers, the partition has a node that can run. */
	const char *err = NULL;
	const char *mem_argv[] = {"sinfo", "-h", "-o", "%m %c", "-p", s->partition, NULL};
	if (!s->partition)
		mem_argv[4] = NULL;
	const char *mem = slurm_cmd(a, mem_argv, &err);
	const char *down = mem ? no_node_up(a, s) : NULL;
	if (!mem || down) {
		*why = mem ? down : err;
		slurm_cleanup(r);
		return NULL;
	}
	char *end;
	s->node_mem = strtoull(mem, &end, 10);
	unsigned long cpus = strtoul(end, NULL, 10);
	if (cpus > 1)
		s->node_mem /= cpus;
	Strvec scancel = STRVEC_INIT(a), rm = STRVEC_INIT(a);
	strvec_pushl(&scancel, "scancel", "--name", s->name, NULL);
	runner_on_signal(scancel.v);
	strvec_pushl(&rm, "rm", "-rf", dir, NULL);
	runner_on_signal(rm.v);
	if (check_shared(r, a, why)) {
		slurm_cleanup(r);
		return NULL;
	}
	return r;
}
