/*
 * remote.c — what the remote runners (ssh.c, slurm.c) share: splitting
 * KCC_SSH or KCC_SBATCH_ARGS into words, quoting for a remote shell, the
 * script line that enforces kcc's limits there, and the clean-up commands
 * a Ctrl-C runs.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- words and quoting ---------------------------------------------------- */

const char **runner_split(Arena *a, const char *cmd, int *n, const char **why)
{
	Strvec v = STRVEC_INIT(a);
	const char *p = cmd;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		Strbuf w = STRBUF_INIT;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			if (*p == '\'') {
				const char *e = strchr(p + 1, '\'');
				if (!e) {
					sb_release(&w);
					*why = "a single quote is not closed";
					return NULL;
				}
				sb_addn(&w, p + 1, (size_t)(e - p - 1));
				p = e + 1;
			} else if (*p == '"') {
				p++;
				while (*p && *p != '"') {
					if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
						p++;
					sb_addc(&w, *p++);
				}
				if (!*p) {
					sb_release(&w);
					*why = "a double quote is not closed";
					return NULL;
				}
				p++;
			} else if (*p == '\\' && p[1]) {
				sb_addc(&w, p[1]);
				p += 2;
			} else
				sb_addc(&w, *p++);
		}
		strvec_push(&v, sb_to_arena(&w, a));
	}
	*n = (int)v.n;
	return strvec_detach(&v);
}

char *runner_script(Arena *a, const ProcSpec *spec, const char *const *argv, const char *cwd)
{
	Strbuf sb = STRBUF_INIT;
	if (cwd)
		sb_addf(&sb, "cd %s || exit 126; ", runner_shq(a, cwd));
	sb_adds(&sb, "ulimit -c 0; ");
	if (spec->mem_bytes)
		sb_addf(&sb, "ulimit -v %llu || exit 126; ",
		        (unsigned long long)(spec->mem_bytes >> 10));
	if (spec->fsize_bytes) /* POSIX sh counts 512-byte blocks */
		sb_addf(&sb, "ulimit -f %llu || exit 126; ",
		        (unsigned long long)(spec->fsize_bytes >> 9));
	if (spec->cpu_s)
		sb_addf(&sb, "ulimit -t %llu || exit 126; ", (unsigned long long)spec->cpu_s);
	if (spec->timeout_s > 0)
		sb_addf(&sb, "timeout -k 2 %.3f ", spec->timeout_s);
	/* Nothing of this machine's environment: the remote's PATH and HOME,
	 * the CUDA toolkit's usual place, and what kcc adds for candidates. */
	sb_adds(&sb, "env -i PATH=\"$PATH:/usr/local/cuda/bin\" HOME=\"$HOME\" LC_ALL=C");
	for (int i = 0; spec->env_extra && spec->env_extra[i]; i++)
		sb_addf(&sb, " %s", runner_shq(a, spec->env_extra[i]));
	for (int i = 0; argv[i]; i++)
		sb_addf(&sb, " %s", runner_shq(a, argv[i]));
	return sb_to_arena(&sb, a);
}

char *runner_cap_script(Arena *a, size_t cap, const char *const *files)
{
	Strbuf sb = STRBUF_INIT;
	for (int i = 0; files[i]; i++)
		sb_addf(&sb, "if [ \"$(wc -c <%s)\" -gt %zu ]; then head -c %zu %s >%s.cut && "
		             "mv %s.cut %s; fi; ",
		        files[i], cap, cap, files[i], files[i], files[i], files[i]);
	return sb_to_arena(&sb, a);
}

void runner_status(const ProcSpec *spec, int code, double wall_s, ProcResult *r)
{
	r->exit_code = -1;
	r->term_signal = 0;
	if (code == 124 && spec->timeout_s > 0 && wall_s >= spec->timeout_s * 0.9)
		r->timed_out = true;
	else if (code > 128 && code <= 128 + 64)
		r->term_signal = code - 128;
	else
		r->exit_code = code;
}

/* ---- Ctrl-C --------------------------------------------------------------- */

/* Only a signal handler reads this; kcc has one runner per run. */
enum { MAX_ON_SIGNAL = 8 };
static const char *const *on_signal[MAX_ON_SIGNAL];
static volatile sig_atomic_t non_signal;

void runner_on_signal(const char *const *argv)
{
	if (non_signal < MAX_ON_SIGNAL)
		on_signal[non_signal++] = argv;
}

void runner_on_signal_clear(void)
{
	non_signal = 0;
}

static void run_on_signal(int sig)
{
	for (int i = 0; i < non_signal; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			setpgid(0, 0); /* away from the terminal's second Ctrl-C */
			execvp(on_signal[i][0], (char *const *)on_signal[i]);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	non_signal = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

void runner_cleanup_on_signal(Runner *r)
{
	if (!r || !strcmp(r->name, "local"))
		return;
	struct sigaction sa = {.sa_handler = run_on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}
