/*
 * ssh.c — the ssh runner: --runner=ssh://[user@]host[:port].
 *
 * Builds and runs happen on the remote machine, with its own toolchain and
 * its own device; kcc keeps only the comparison. The ssh command is the
 * user's: KCC_SSH (default "ssh"), split into words as git splits
 * GIT_SSH_COMMAND, so their config, keys, agent and jump hosts apply. kcc
 * adds one ControlMaster connection with its socket in kcc's own temp dir,
 * reused by every call of the run, and BatchMode (no password prompts:
 * keys, an agent or a master the user opened).
 *
 * Files travel as ustar streams over that connection (tar.c) into a remote
 * temp dir made at start, which mirrors the local paths kcc puts there
 * (/tmp/kcc-verify-X/cand3 → $ROOT/tmp/kcc-verify-X/cand3); argv and cwd
 * are rewritten to match. The remote dir is removed at the end and on
 * Ctrl-C. Local ssh runs under `env -i` with only what ssh itself needs
 * (HOME, USER, PATH, SSH_AUTH_SOCK, KRB5CCNAME), so no API key and no
 * other local variable reaches the remote, and the remote command runs
 * under `env -i` there too (runner_script). A connection that drops is
 * re-opened up to three times; then the runner fails with a clear reason
 * and the driver prints the resume command.
 */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
	const char *url;
	const char **words; /* KCC_SSH */
	int nwords;
	const char *dest, *port;
	const char *ctldir, *ctl;
	const char *root;   /* remote temp dir */
	const char **roots; /* local prefixes mirrored there */
	size_t nroots, caproots;
	Arena *a;
	int tries;
	bool lost; /* the connection is gone: nothing can be cleaned up there */
} Ssh;

static const char **ssh_argv(Arena *a, Ssh *s, bool control_only, const char *op,
                             const char *remote)
{
	Strvec v = STRVEC_INIT(a);
	strvec_pushl(&v, "env", "-i", NULL);
	static const char *const keep[] = {"HOME", "USER", "LOGNAME", "PATH", "SSH_AUTH_SOCK",
	                                   "KRB5CCNAME"};
	for (size_t i = 0; i < ARRAY_LEN(keep); i++) {
		const char *val = getenv(keep[i]);
		if (val)
			strvec_pushf(&v, "%s=%s", keep[i], val);
	}
	strvec_pushv(&v, s->words);
	strvec_pushl(&v, "-o", arena_printf(a, "ControlPath=%s", s->ctl), "-o",
	             "ControlMaster=auto", "-o", "ControlPersist=120", "-o", "BatchMode=yes", "-o",
	             "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3", "-o",
	             "ConnectTimeout=15", NULL);
	if (s->port)
		strvec_pushl(&v, "-p", s->port, NULL);
	if (op)
		strvec_pushl(&v, "-O", op, NULL);
	strvec_push(&v, s->dest);
	if (!control_only)
		strvec_pushl(&v, "--", arena_printf(a, "sh -c %s", runner_shq(a, remote)), NULL);
	return v.v;
}

static int ssh_raw(Arena *a, Ssh *s, const char *script, const char *in, size_t inlen,
                   double timeout, size_t max_out, ProcResult *r)
{
	ProcSpec ps = {.argv = ssh_argv(a, s, false, NULL, script), .stdin_data = in,
	               .stdin_len = inlen, .timeout_s = timeout, .max_output = max_out};
	return proc_run(a, &ps, r);
}

static bool master_alive(Arena *a, Ssh *s)
{
	ProcSpec ps = {.argv = ssh_argv(a, s, true, "check", NULL), .timeout_s = 10};
	ProcResult r;
	return proc_run(a, &ps, &r) == 0 && proc_ok(&r);
}

static const char *ssh_reason(Arena *a, const ProcResult *r)
{
	if (r->timed_out)
		return "no answer (timed out)";
	const char *t = proc_tail(r->err, 2);
	return *t ? arena_strndup(a, t, strcspn(t, "\n")) : "the connection closed";
}

/* One call over the connection; re-opened when it dropped. 0 with *r
 * filled by the remote command, -1 when the runner failed (self->error). */
static int ssh_call(Runner *self, Arena *a, const char *script, const char *in, size_t inlen,
                    double timeout, size_t max_out, ProcResult *r)
{
	Ssh *s = self->state;
	if (self->error)
		return -1;
	for (int attempt = 0;;) {
		if (ssh_raw(a, s, script, in, inlen, timeout, max_out, r) != 0) {
			self->error = arena_printf(s->a, "cannot run ssh (%s): %s", s->words[0],
			                           strerror(r->spawn_errno));
			return -1;
		}
		if (!r->timed_out && r->exit_code != 255)
			return 0;
		if (!r->timed_out && master_alive(a, s))
			return 0; /* the remote command's own status 255 */
		const char *last = ssh_reason(a, r);
		/* Re-open the connection (ControlMaster=auto makes a new master)
		 * and check that the remote dir survived, then run it again. */
		for (bool back = false; !back;) {
			if (attempt++ >= s->tries) {
				s->lost = true;
				self->error = arena_printf(s->a, "lost the connection to %s: %s (%d tries)",
				                           s->url, last, s->tries);
				return -1;
			}
			diag_trace("kcc: ssh: lost the connection to %s (%s); try %d of %d", s->url,
			           last, attempt, s->tries);
			sleep(1u << (attempt < 4 ? attempt - 1 : 3));
			ProcResult pr;
			ssh_raw(a, s, arena_printf(a, "test -d %s", runner_shq(a, s->root)), NULL, 0, 30,
			        0, &pr);
			back = proc_ok(&pr);
			if (!back && pr.exit_code == 1) {
				self->error = arena_printf(s->a, "the remote dir %s on %s is gone", s->root,
				                           s->url);
				return -1;
			}
			if (!back)
				last = ssh_reason(a, &pr);
		}
	}
}

/* ---- paths ------------------------------------------------------------------ */

static void add_root(Ssh *s, const char *path)
{
	char *d = arena_strdup(s->a, path);
	char *slash = strrchr(d, '/');
	if (slash && slash != d)
		*slash = 0; /* the parent: the files next to it go along */
	for (size_t i = 0; i < s->nroots; i++)
		if (!strcmp(s->roots[i], d))
			return;
	ARENA_PUSH(s->a, s->roots, s->nroots, s->caproots, d);
}

/* A local path (or an argument holding one: -I/tmp/x) as seen there. */
static const char *map(Arena *a, Ssh *s, const char *arg)
{
	for (size_t i = 0; i < s->nroots; i++) {
		size_t n = strlen(s->roots[i]);
		const char *p = strstr(arg, s->roots[i]);
		if (p && (p[n] == '/' || p[n] == 0))
			return arena_printf(a, "%.*s%s%s", (int)(p - arg), arg, s->root, p);
	}
	return arg;
}

static int ssh_put(Runner *self, Arena *a, const char *const *paths)
{
	Ssh *s = self->state;
	Strbuf tar = STRBUF_INIT;
	int e = tar_pack(a, paths, &tar);
	if (e) {
		sb_release(&tar);
		self->error = arena_printf(s->a, "cannot pack %s for %s: %s", paths[0], s->url,
		                           strerror(e));
		return -1;
	}
	for (int i = 0; paths[i]; i++)
		add_root(s, paths[i]);
	ProcResult r;
	const char *script = arena_printf(a, "cd %s && tar -xof -", runner_shq(a, s->root));
	int rc = ssh_call(self, a, script, tar.buf, tar.len, 120, 0, &r);
	sb_release(&tar);
	if (rc == 0 && !proc_ok(&r)) {
		self->error = arena_printf(s->a, "cannot unpack files on %s: %s", s->url,
		                           proc_tail(r.err, 3));
		return -1;
	}
	return rc;
}

/* argv and cwd as seen there: the script line that runs spec. */
static const char *run_script(Arena *a, Ssh *s, const ProcSpec *spec)
{
	Strvec argv = STRVEC_INIT(a);
	for (int i = 0; spec->argv[i]; i++) {
		const char *m = map(a, s, spec->argv[i]);
		/* A tool found here (/usr/local/cuda/bin/nvcc) is the remote's own. */
		if (i == 0 && m == spec->argv[i] && strchr(m, '/'))
			m = strrchr(m, '/') + 1;
		strvec_push(&argv, m);
	}
	return runner_script(a, spec, argv.v, spec->cwd ? map(a, s, spec->cwd) : s->root);
}

static int ssh_run(Runner *self, Arena *a, const ProcSpec *spec, ProcResult *r)
{
	Ssh *s = self->state;
	const char *script = run_script(a, s, spec);
	double timeout = spec->timeout_s > 0 ? spec->timeout_s + 60 : 0;
	memset(r, 0, sizeof *r);
	if (ssh_call(self, a, script, spec->stdin_data, spec->stdin_len, timeout,
	             spec->max_output, r) != 0) {
		r->spawn_failed = true;
		r->spawn_errno = ECONNRESET;
		return -1;
	}
	runner_status(spec, r->exit_code, r->wall_s, r);
	return 0;
}

/* The shell words that archive the files of paths that exist there as
 * regular files (not links), after the names already in "$@"; fills want
 * with their entry names and removes the local copies. */
static void get_script(Arena *a, Strbuf *sb, const char *const *paths, const char ***want)
{
	Strvec names = STRVEC_INIT(a);
	sb_adds(sb, "for f in");
	for (int i = 0; paths && paths[i]; i++) {
		const char *name = paths[i] + strspn(paths[i], "/");
		sb_addf(sb, " %s", runner_shq(a, name));
		strvec_push(&names, name);
		unlink(paths[i]);
	}
	*want = strvec_detach(&names);
	sb_adds(sb, "; do if [ -f \"$f\" ] && [ ! -h \"$f\" ]; then set -- \"$@\" \"$f\"; fi; "
	            "done; ");
}

static int ssh_get(Runner *self, Arena *a, const char *const *paths)
{
	Ssh *s = self->state;
	Strbuf sb = STRBUF_INIT;
	const char **want = NULL;
	sb_addf(&sb, "cd %s || exit 3; set --; ", runner_shq(a, s->root));
	get_script(a, &sb, paths, &want);
	sb_adds(&sb, "[ $# -eq 0 ] || exec tar -cf - -- \"$@\"");
	ProcResult r;
	int rc = ssh_call(self, a, sb_str(&sb), NULL, 0, 300, (size_t)1 << 31, &r);
	sb_release(&sb);
	if (rc)
		return -1;
	TarEntry *e;
	int n = !proc_ok(&r) ? -1 : r.out_len ? tar_list(a, r.out, r.out_len, &e) : 0;
	if (n < 0 || (n > 0 && tar_unpack(e, n, want) < 0)) {
		self->error = arena_printf(s->a, "cannot bring files back from %s: %s", s->url,
		                           proc_ok(&r) ? "a malformed archive" : proc_tail(r.err, 3));
		return -1;
	}
	return 0;
}

/* One round trip: the files to put go as the archive on stdin, the
 * command runs with its output in a scratch dir there, and one archive
 * comes back with its stdout, stderr, status and the files to get. */
static int ssh_exec(Runner *self, Arena *a, const ProcSpec *spec, const char *const *put,
                    const char *const *get, ProcResult *r)
{
	Ssh *s = self->state;
	memset(r, 0, sizeof *r);
	if (spec->stdin_data) { /* stdin is the command's: three trips */
		if (put && ssh_put(self, a, put) != 0)
			goto failed;
		if (ssh_run(self, a, spec, r) != 0)
			return -1;
		return get && ssh_get(self, a, get) != 0 ? -1 : 0;
	}
	Strbuf tar = STRBUF_INIT, sb = STRBUF_INIT;
	int e = put ? tar_pack(a, put, &tar) : 0;
	if (e) {
		sb_release(&tar);
		self->error = arena_printf(s->a, "cannot pack %s for %s: %s", put[0], s->url,
		                           strerror(e));
		goto failed;
	}
	for (int i = 0; put && put[i]; i++)
		add_root(s, put[i]);
	const char **want = NULL;
	sb_addf(&sb, "cd %s || exit 3; ", runner_shq(a, s->root));
	if (put)
		sb_adds(&sb, "tar -xof - || exit 3; ");
	size_t cap = spec->max_output ? spec->max_output : (size_t)64 << 20;
	sb_addf(&sb, "o=.kcc-run.$$; mkdir $o || exit 3; ( %s ) </dev/null >$o/out 2>$o/err; "
	             "echo $? >$o/status; cd %s || exit 3; %sset -- $o/out $o/err $o/status; ",
	        run_script(a, s, spec), runner_shq(a, s->root),
	        runner_cap_script(a, cap + 1, (const char *[]){"$o/out", "$o/err", NULL}));
	get_script(a, &sb, get, &want);
	sb_adds(&sb, "tar -cf - -- \"$@\"; s=$?; rm -rf $o; exit $s");
	double timeout = spec->timeout_s > 0 ? spec->timeout_s + 120 : 0;
	ProcResult pr;
	int rc = ssh_call(self, a, sb_str(&sb), tar.len ? tar.buf : NULL, tar.len, timeout,
	                  (size_t)1 << 31, &pr);
	sb_release(&tar);
	sb_release(&sb);
	if (rc)
		goto failed;
	TarEntry *te;
	int n = proc_ok(&pr) ? tar_list(a, pr.out, pr.out_len, &te) : -1;
	const TarEntry *out = NULL, *err = NULL, *status = NULL;
	for (int i = 0; i < n; i++) {
		const char *slash = strchr(te[i].name, '/');
		if (!slash || strncmp(te[i].name, ".kcc-run.", 9))
			continue;
		if (!strcmp(slash, "/out"))
			out = &te[i];
		else if (!strcmp(slash, "/err"))
			err = &te[i];
		else if (!strcmp(slash, "/status"))
			status = &te[i];
	}
	if (!status || !out || !err || tar_unpack(te, n, want) < 0) {
		self->error = arena_printf(s->a, "%s did not send the run's results back: %s",
		                           s->url, *pr.err ? proc_tail(pr.err, 3) : "no archive");
		goto failed;
	}
	r->out_len = out->len < cap ? out->len : cap;
	r->err_len = err->len < cap ? err->len : cap;
	r->truncated = out->len > cap || err->len > cap;
	r->out = arena_strndup(a, out->data, r->out_len);
	r->err = arena_strndup(a, err->data, r->err_len);
	r->wall_s = pr.wall_s;
	runner_status(spec, atoi(arena_strndup(a, status->data, status->len)), pr.wall_s, r);
	return 0;
failed:
	r->spawn_failed = true;
	r->spawn_errno = ECONNRESET;
	return -1;
}

static void ssh_cleanup(Runner *self)
{
	Ssh *s = self->state;
	if (!s->ctl)
		return;
	Arena *a = s->a;
	ProcResult r;
	if (s->root && !s->lost)
		ssh_raw(a, s, arena_printf(a, "rm -rf %s", runner_shq(a, s->root)), NULL, 0, 60, 0,
		        &r);
	ProcSpec ps = {.argv = ssh_argv(a, s, true, "exit", NULL), .timeout_s = 10};
	proc_run(a, &ps, &r);
	scratch_remove(s->ctldir);
	s->ctl = NULL;
}

/* ssh://[user@]host[:port]; IPv6 as [addr]:port. */
static int parse_url(Arena *a, const char *url, Ssh *s, const char **why)
{
	const char *p = url + 6, *end = p + strcspn(p, "/?#");
	const char *at = memchr(p, '@', (size_t)(end - p));
	const char *host = at ? at + 1 : p, *colon;
	if (*host == '[') {
		const char *rb = memchr(host, ']', (size_t)(end - host));
		colon = rb && rb[1] == ':' ? rb + 1 : NULL;
	} else
		colon = memchr(host, ':', (size_t)(end - host));
	const char *hend = colon ? colon : end;
	if (hend == host || *end) {
		*why = arena_printf(a, "'%s': expected ssh://[user@]host[:port]", url);
		return -1;
	}
	char *h = arena_strndup(a, host, (size_t)(hend - host));
	if (*h == '[' && h[strlen(h) - 1] == ']') {
		h++;
		h[strlen(h) - 1] = 0;
	}
	s->dest = at ? arena_printf(a, "%.*s@%s", (int)(at - p), p, h) : h;
	if (colon) {
		s->port = arena_strndup(a, colon + 1, (size_t)(end - colon - 1));
		if (!*s->port || strspn(s->port, "0123456789") != strlen(s->port)) {
			*why = arena_printf(a, "'%s': the port must be a number", url);
			return -1;
		}
	}
	return 0;
}

Runner *runner_ssh(Arena *a, const char *url, const char *tmpdir, const char **why)
{
	Ssh *s = arena_alloc(a, sizeof *s);
	s->a = a;
	s->url = url;
	s->tries = 3;
	if (parse_url(a, url, s, why))
		return NULL;
	const char *cmd = getenv("KCC_SSH");
	if (!(s->words = runner_split(a, cmd && *cmd ? cmd : "ssh", &s->nwords, why)) ||
	    !s->nwords) {
		*why = arena_printf(a, "KCC_SSH: %s", s->words ? "no command" : *why);
		return NULL;
	}
	char *dir = scratch_make(a, tmpdir, "kcc-ssh");
	if (!dir) {
		*why = arena_printf(a, "cannot make a temp dir in %s: %s",
		                    tmpdir ? tmpdir : getenv("TMPDIR"), strerror(errno));
		return NULL;
	}
	s->ctldir = dir;
	s->ctl = arena_printf(a, "%s/cm", dir);
	Runner *r = arena_alloc(a, sizeof *r);
	r->name = "ssh";
	r->where = url;
	r->state = s;
	r->put = ssh_put;
	r->run = ssh_run;
	r->get = ssh_get;
	r->exec = ssh_exec;
	r->cleanup = ssh_cleanup;
	/* The remote needs a POSIX sh, tar and coreutils' timeout. */
	ProcResult pr;
	const char *probe = "for t in tar timeout mktemp; do command -v $t >/dev/null || "
	                    "{ echo \"kcc: '$t' is not installed there\" >&2; exit 3; }; done; "
	                    "mktemp -d \"${TMPDIR:-/tmp}/kcc-XXXXXX\"";
	if (ssh_raw(a, s, probe, NULL, 0, 60, 0, &pr) != 0 || !proc_ok(&pr) || pr.out[0] != '/') {
		*why = pr.spawn_failed
		           ? arena_printf(a, "cannot run '%s': %s", s->words[0],
		                          strerror(pr.spawn_errno))
		           : arena_printf(a, "cannot reach %s: %s", url, ssh_reason(a, &pr));
		ssh_cleanup(r);
		return NULL;
	}
	s->root = arena_strndup(a, pr.out, strcspn(pr.out, "\n"));
	/* What a Ctrl-C runs: remove the remote dir, close the connection. */
	runner_on_signal(ssh_argv(a, s, false, NULL,
	                          arena_printf(a, "rm -rf %s", runner_shq(a, s->root))));
	runner_on_signal(ssh_argv(a, s, true, "exit", NULL));
	Strvec rm = STRVEC_INIT(a);
	strvec_pushl(&rm, "rm", "-rf", s->ctldir, NULL);
	runner_on_signal(rm.v);
	return r;
}
