/*
 * tempdir.c — one temp root per kcc run, removed on every way out.
 *
 * temp_root_init() makes $TMPDIR/kcc-PID-XXXXXX and points TMPDIR at it,
 * so every temp dir kcc (or a compiler it runs) makes lands inside. The
 * root is removed at exit (atexit), and on SIGTERM, SIGHUP, SIGQUIT and
 * SIGINT (the search installs its own SIGINT handler while it runs)
 * before the signal takes its default course — a failed reference, an
 * error return, a kill from make or a CI timeout all leave nothing behind.
 * --keep-temps keeps it (temp_root_keep).
 *
 * The removal runs inside a signal handler, so it uses only
 * async-signal-safe calls: openat, getdents64, unlinkat, on a fixed stack
 * budget (temp trees are shallow; deeper than TEMP_MAX_DEPTH is left).
 */
#define _GNU_SOURCE
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { TEMP_MAX_DEPTH = 24 };

static char root[4096];
static char parent[4096];
static pid_t owner;
static volatile sig_atomic_t keep;

int dir_each(int fd, void (*fn)(const char *name, void *arg), void *arg)
{
	char buf[2048];
	int seen = 0;
	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			struct {
				unsigned long long ino;
				long long off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (void *)(buf + off);
			off += d->reclen;
			if (strcmp(d->name, ".") == 0 || strcmp(d->name, "..") == 0)
				continue;
			seen++;
			fn(d->name, arg);
		}
	}
	return seen;
}

static int rm_tree_at(int dirfd, const char *name, int depth);

typedef struct {
	int fd, depth, gone;
} RmPass;

static void rm_entry(const char *name, void *arg)
{
	RmPass *p = arg;
	p->gone += rm_tree_at(p->fd, name, p->depth + 1);
}

/* Remove dirfd/name and everything under it; 1 when it is gone. */
static int rm_tree_at(int dirfd, const char *name, int depth)
{
	if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
		return 1;
	if (depth >= TEMP_MAX_DEPTH)
		return 0;
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* Read the directory again from the start after each pass that
	 * removed something; stop when a pass finds nothing left (or removes
	 * nothing: what cannot go stays). */
	for (int pass = 0; pass < 64; pass++) {
		RmPass p = {.fd = fd, .depth = depth};
		lseek(fd, 0, SEEK_SET);
		int seen = dir_each(fd, rm_entry, &p);
		if (!seen || !p.gone)
			break;
	}
	close(fd);
	return unlinkat(dirfd, name, AT_REMOVEDIR) == 0;
}

void temp_root_remove(void)
{
	/* Only the process that made it (not a forked child) removes it. */
	if (!root[0] || keep || getpid() != owner)
		return;
	rm_tree_at(AT_FDCWD, root, 0);
	root[0] = 0;
}

static void (*volatile fatal_hook)(void);

void temp_root_on_fatal(void (*fn)(void))
{
	fatal_hook = fn;
}

static void on_fatal(int sig)
{
	if (fatal_hook)
		fatal_hook();
	temp_root_remove();
	signal(sig, SIG_DFL);
	raise(sig);
}

const char *temp_root_init(void)
{
	const char *t = temp_base();
	int n = snprintf(root, sizeof root, "%s/kcc-%ld-XXXXXX", t, (long)getpid());
	if (n <= 0 || (size_t)n >= sizeof root || !mkdtemp(root)) {
		root[0] = 0;
		return NULL;
	}
	owner = getpid();
	snprintf(parent, sizeof parent, "%s", t);
	setenv("TMPDIR", root, 1);
	atexit(temp_root_remove);
	static const int sigs[] = {SIGTERM, SIGHUP, SIGQUIT, SIGINT};
	for (size_t i = 0; i < ARRAY_LEN(sigs); i++) {
		struct sigaction sa, old;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_fatal;
		/* Leave a signal the user's shell set to be ignored ignored. */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	return root;
}

const char *temp_base(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t ? t : "/tmp";
}

const char *temp_root_parent(void)
{
	return parent[0] ? parent : temp_base();
}

void temp_root_keep(void)
{
	keep = 1;
}
