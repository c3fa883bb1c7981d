/*
 * proc.c — proc_run(): start one process from an argument vector, feed its
 * stdin, capture stdout and stderr, enforce a wall-clock limit and rlimits.
 *
 * The child gets its own process group so a timeout kills everything it
 * started, and an environment without secrets so an untrusted candidate (or
 * a compiler it drives) never sees the user's API keys. Output is read with
 * poll() so a child that writes a lot never blocks against a full pipe.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

bool proc_is_secret(const char *name)
{
	return secret_name(name);
}

/* What a candidate's environment may hold: the toolchain's and the
 * runtime's variables, nothing of the user's. */
static bool candidate_env_ok(const char *kv)
{
	static const char *const names[] = {"PATH=", "LD_LIBRARY_PATH=", "LANG=", "LC_",
	                                    "TZ=", "CUDA_", "NVIDIA_", "OMP_", "GOMP_",
	                                    "KMP_", "ASAN_OPTIONS=", "UBSAN_OPTIONS=",
	                                    "LSAN_OPTIONS=", "TERM="};
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		if (strncmp(kv, names[i], strlen(names[i])) == 0)
			return true;
	return false;
}

static char **build_env(Arena *a, const ProcSpec *spec)
{
	size_t n = 0, extra = 0;
	while (environ[n])
		n++;
	if (spec->env_extra)
		while (spec->env_extra[extra])
			extra++;
	char **env = arena_alloc(a, (n + extra + 3) * sizeof *env);
	size_t k = 0;
	bool cand = spec->sandbox == PROC_CANDIDATE;
	for (size_t i = 0; i < n; i++)
		if ((spec->keep_secrets || !proc_is_secret(environ[i])) &&
		    (!cand || candidate_env_ok(environ[i])))
			env[k++] = environ[i];
	if (cand) {
		const char *dir = spec->cwd ? spec->cwd : ".";
		env[k++] = arena_printf(a, "HOME=%s", dir);
		env[k++] = arena_printf(a, "TMPDIR=%s", dir);
	}
	for (size_t i = 0; i < extra; i++)
		env[k++] = (char *)spec->env_extra[i];
	env[k] = NULL;
	return env;
}

static void set_limit(int res, uint64_t v)
{
	if (!v)
		return;
	struct rlimit rl = {(rlim_t)v, (rlim_t)v};
	setrlimit(res, &rl);
}

/* In the child, between fork and exec: only async-signal-safe calls. */
static void child(const ProcSpec *spec, char **env, int in, int out, int err,
                  int report, const IsolateInfo *iso, int chan)
{
	setpgid(0, 0);
	dup2(in, 0);
	dup2(out, 1);
	dup2(err, 2);
	if (chan >= 0 && chan != spec->chan_fd)
		dup2(chan, spec->chan_fd); /* the copy does not close on exec */
	else if (chan >= 0)
		fcntl(chan, F_SETFD, 0);
	set_limit(RLIMIT_AS, spec->mem_bytes);
	set_limit(RLIMIT_FSIZE, spec->fsize_bytes);
	set_limit(RLIMIT_CPU, spec->cpu_s);
	struct rlimit core = {0, 0};
	setrlimit(RLIMIT_CORE, &core);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
	if (spec->sandbox != PROC_PLAIN)
		isolate_enter(iso, report);
	if (spec->cwd && chdir(spec->cwd) != 0) {
		int e = errno;
		(void)!write(report, &e, sizeof e);
		_exit(127);
	}
	environ = env;
	execvp(spec->argv[0], (char *const *)spec->argv);
	int e = errno;
	(void)!write(report, &e, sizeof e);
	_exit(127);
}

/* Stop a command at its time limit. A sandbox's supervisor gets SIGTERM
 * first so it kills the whole tree (setsid included) before it dies. */
static void stop(pid_t pid, const ProcSpec *spec)
{
	if (spec->sandbox != PROC_PLAIN) {
		kill(pid, SIGTERM);
		for (int i = 0; i < 1000; i++) {
			siginfo_t si = {0};
			if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 ||
			    si.si_pid == pid)
				break;
			usleep(2000);
		}
	}
	kill(-pid, SIGKILL);
}

/* Every command still running, so a fatal signal to kcc (SIGTERM from
 * make or CI) takes them down too: proc_kill_all(), async-signal-safe. */
enum { LIVE_MAX = 256 };
static volatile pid_t live[LIVE_MAX];

static void live_add(pid_t pid)
{
	for (int i = 0; i < LIVE_MAX; i++)
		if (__sync_bool_compare_and_swap(&live[i], 0, pid))
			return;
}

static void live_remove(pid_t pid)
{
	for (int i = 0; i < LIVE_MAX; i++)
		if (__sync_bool_compare_and_swap(&live[i], pid, 0))
			return;
}

void proc_kill_all(void)
{
	for (int i = 0; i < LIVE_MAX; i++) {
		pid_t p = live[i];
		if (p > 0) {
			kill(p, SIGTERM); /* a sandbox's supervisor takes its tree down */
			kill(-p, SIGKILL);
		}
	}
}

typedef struct {
	int fd;
	Strbuf sb;
	bool open;
} Sink;

int proc_run(Arena *a, const ProcSpec *spec, ProcResult *r)
{
	memset(r, 0, sizeof *r);
	r->exit_code = -1;
	size_t cap = spec->max_output ? spec->max_output : (size_t)64 << 20;
	int pin[2], pout[2], perr[2], prep[2], pch[2] = {-1, -1};
	if (pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) ||
	    pipe2(perr, O_CLOEXEC) || pipe2(prep, O_CLOEXEC) ||
	    (spec->chan_fd >= 3 && pipe2(pch, O_CLOEXEC))) {
		r->spawn_failed = true;
		r->spawn_errno = errno;
		return -1;
	}
	char **env = build_env(a, spec);
	IsolateInfo iso = {.home = getenv("HOME"), .hide_home = spec->sandbox == PROC_CANDIDATE};
	if (spec->cwd)
		iso.cwd = spec->cwd[0] == '/' ? spec->cwd : realpath(spec->cwd, NULL);
	const char *mode = getenv("KCC_SANDBOX");
	iso.no_namespaces = mode && strcmp(mode, "subreaper") == 0;
	if (diag_verbose())
		diag_trace("kcc: run: %s", proc_cmdline(a, spec->argv));
	double t0 = clock_now();
	pid_t pid = fork();
	if (pid == 0)
		child(spec, env, pin[0], pout[1], perr[1], prep[1], &iso, pch[1]);
	if (pch[1] >= 0)
		close(pch[1]);
	if (pid > 0)
		live_add(pid);
	if (iso.cwd && iso.cwd != spec->cwd)
		free((char *)iso.cwd);
	close(pin[0]);
	close(pout[1]);
	close(perr[1]);
	close(prep[1]);
	if (pid < 0) {
		r->spawn_failed = true;
		r->spawn_errno = errno;
		close(pin[1]), close(pout[0]), close(perr[0]), close(prep[0]);
		if (pch[0] >= 0)
			close(pch[0]);
		return -1;
	}
	setpgid(pid, pid); /* also in the parent, so kill(-pid) works at once */

	int e = 0;
	if (read(prep[0], &e, sizeof e) == (ssize_t)sizeof e) {
		/* exec failed: reap the child and report. */
		close(prep[0]), close(pin[1]), close(pout[0]), close(perr[0]);
		if (pch[0] >= 0)
			close(pch[0]);
		waitpid(pid, NULL, 0);
		live_remove(pid);
		r->spawn_failed = true;
		r->spawn_errno = e;
		status_raise(ST_TOOL); /* a program kcc needs is missing */
		return -1;
	}
	close(prep[0]);

	const char *in = spec->stdin_data;
	size_t inleft = in ? spec->stdin_len : 0;
	int infd = pin[1];
	if (!inleft) {
		close(infd);
		infd = -1;
	} else
		fcntl(infd, F_SETFL, O_NONBLOCK);
	Sink sinks[3] = {{pout[0], STRBUF_INIT, true}, {perr[0], STRBUF_INIT, true},
	                 {pch[0], STRBUF_INIT, pch[0] >= 0}};
	size_t caps[3] = {cap, cap, spec->chan_max ? spec->chan_max : (size_t)4 << 30};
	double deadline = spec->timeout_s > 0 ? t0 + spec->timeout_s : 0;
	bool killed = false;

	while (sinks[0].open || sinks[1].open || sinks[2].open || infd >= 0) {
		struct pollfd pf[4];
		int np = 0, idx[4];
		for (int i = 0; i < 3; i++)
			if (sinks[i].open) {
				pf[np] = (struct pollfd){sinks[i].fd, POLLIN, 0};
				idx[np++] = i;
			}
		if (infd >= 0) {
			pf[np] = (struct pollfd){infd, POLLOUT, 0};
			idx[np++] = 3;
		}
		int wait_ms = -1;
		if (deadline && !killed) {
			double left = deadline - clock_now();
			wait_ms = left <= 0 ? 0 : (int)(left * 1000) + 1;
		} else if (killed)
			wait_ms = 1000; /* grandchildren may hold the pipes: don't wait forever */
		int rc = poll(pf, (nfds_t)np, wait_ms);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0) {
			if (killed)
				break;
			stop(pid, spec);
			killed = true;
			r->timed_out = true;
			continue;
		}
		for (int k = 0; k < np; k++) {
			if (!pf[k].revents)
				continue;
			if (idx[k] == 3) {
				ssize_t n = write(infd, in, inleft);
				if (n > 0) {
					in += n;
					inleft -= (size_t)n;
				}
				if ((n < 0 && errno != EAGAIN && errno != EINTR) || !inleft) {
					close(infd);
					infd = -1;
				}
				continue;
			}
			Sink *s = &sinks[idx[k]];
			char buf[65536];
			ssize_t n = read(s->fd, buf, sizeof buf);
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n <= 0) {
				close(s->fd);
				s->open = false;
				continue;
			}
			size_t take = (size_t)n, c = caps[idx[k]];
			if (s->sb.len + take > c) {
				take = c > s->sb.len ? c - s->sb.len : 0;
				*(idx[k] == 2 ? &r->chan_truncated : &r->truncated) = true;
			}
			sb_addn(&s->sb, buf, take);
		}
	}
	for (int i = 0; i < 3; i++)
		if (sinks[i].open)
			close(sinks[i].fd);
	if (infd >= 0)
		close(infd);

	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, deadline && !killed ? WNOHANG : 0);
		if (w == pid)
			break;
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break;
		/* Still running with its pipes closed: wait until the deadline. */
		if (clock_now() >= deadline) {
			stop(pid, spec);
			killed = true;
			r->timed_out = true;
		} else
			usleep(2000);
	}
	kill(-pid, SIGKILL); /* anything it left behind in its group */
	live_remove(pid);
	r->wall_s = clock_now() - t0;
	if (WIFEXITED(status))
		r->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		r->term_signal = WTERMSIG(status);
	r->out_len = sinks[0].sb.len;
	r->out = sb_to_arena(&sinks[0].sb, a);
	r->err_len = sinks[1].sb.len;
	r->err = sb_to_arena(&sinks[1].sb, a);
	r->chan_len = sinks[2].sb.len;
	r->chan = sb_to_arena(&sinks[2].sb, a);
	return 0;
}

bool proc_ok(const ProcResult *r)
{
	return !r->spawn_failed && !r->timed_out && r->term_signal == 0 &&
	       r->exit_code == 0;
}

const char *proc_describe(Arena *a, const ProcSpec *spec, const ProcResult *r)
{
	if (r->spawn_failed)
		return arena_printf(a, "could not run '%s': %s", spec->argv[0],
		                    strerror(r->spawn_errno));
	if (r->timed_out)
		return arena_printf(a, "timed out after %.1f s", spec->timeout_s);
	if (r->term_signal)
		return arena_printf(a, "killed by signal %d (%s)", r->term_signal,
		                    strsignal(r->term_signal));
	return arena_printf(a, "exited with status %d", r->exit_code);
}

char *proc_cmdline(Arena *a, const char *const *argv)
{
	Strbuf sb = STRBUF_INIT;
	for (int i = 0; argv[i]; i++) {
		const char *s = argv[i];
		if (i)
			sb_addc(&sb, ' ');
		bool plain = *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		                             "0123456789-_./=:,+@%") == strlen(s);
		sb_adds(&sb, plain ? s : runner_shq(a, s));
	}
	return sb_to_arena(&sb, a);
}

char *runner_shq(Arena *a, const char *s)
{
	Strbuf sb = STRBUF_INIT;
	sb_addc(&sb, '\'');
	for (; *s; s++)
		if (*s == '\'')
			sb_adds(&sb, "'\\''");
		else
			sb_addc(&sb, *s);
	sb_addc(&sb, '\'');
	return sb_to_arena(&sb, a);
}

const char *proc_tail(const char *text, int n)
{
	if (!text)
		return "";
	const char *p = text + strlen(text);
	while (p > text && (p[-1] == '\n' || p[-1] == ' '))
		p--;
	int lines = 0;
	while (p > text) {
		if (p[-1] == '\n' && ++lines == n)
			break;
		p--;
	}
	return p;
}
