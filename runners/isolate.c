/*
 * isolate.c — the sandbox a candidate (or a compiler reading a candidate's
 * source) runs in: it cannot read kcc's environment or the user's secrets,
 * and nothing it starts outlives it.
 *
 * proc_run's child calls isolate_enter() just before exec. Where Linux
 * allows it (root, or any user with unprivileged user namespaces) the child
 * unshares a PID and a mount namespace (and a user namespace when not
 * root), forks the namespace's init, which mounts a fresh /proc (only the
 * sandbox's own processes are visible, so no /proc/PID/environ of kcc or of
 * the user's shell), hides the user's secret files (~/.ssh, ~/.aws, …, or
 * all of HOME for a candidate run), and forks the process that execs. When
 * that process ends, the init exits and the kernel kills every process left
 * in the namespace, setsid() daemons included.
 *
 * Without namespaces the child becomes a child subreaper instead: orphans
 * of the command are re-parented to it, and it kills them all when the
 * command ends. kcc itself is marked non-dumpable (proc_protect_self), so
 * its /proc files belong to root and another process of the same user
 * cannot read its environment either way.
 *
 * The supervising processes look, to proc_run, exactly like the command:
 * they exit with its status or die of its signal. On SIGTERM (proc_run's
 * timeout) the supervisor kills the whole tree before dying itself.
 *
 * Everything between fork and exec is async-signal-safe: raw syscalls, no
 * malloc (kcc runs worker threads).
 */
#define _GNU_SOURCE
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Processes a sandbox may hold at once (RLIMIT_NPROC, counted per user
 * namespace, so it binds where kcc made one). */
enum { SANDBOX_NPROC = 256 };

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	(void)sig;
	got_term = 1;
}

bool proc_protect_self(void)
{
	/* Also stops core dumps of kcc holding the keys. */
	return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0;
}

/* ---- small async-signal-safe helpers ---------------------------------------- */

static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	*p = 0;
	return p;
}

static char *put_num(char *p, unsigned long v)
{
	char tmp[24];
	int n = 0;
	do
		tmp[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n)
		*p++ = tmp[--n];
	*p = 0;
	return p;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Die the way the command died, so proc_run sees its status. */
static void mirror(int status)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		signal(sig, SIG_DFL);
		sigset_t all;
		sigemptyset(&all);
		sigaddset(&all, sig);
		sigprocmask(SIG_UNBLOCK, &all, NULL);
		kill(getpid(), sig);
		_exit(128 + sig);
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 127);
}

/* path (a /proc/N/stat) read into buf; the text after the ')' that ends
 * the command's name (which may itself hold ')' and spaces), or NULL. */
static char *stat_after_name(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ssize_t m = read(fd, buf, size - 1);
	close(fd);
	if (m <= 0)
		return NULL;
	buf[m] = 0;
	return strrchr(buf, ')');
}

typedef struct {
	pid_t me;
	int killed;
} Children;

/* One /proc entry: killed if it is a process whose parent (the fourth
 * field of its stat) is us. */
static void kill_if_child(const char *name, void *arg)
{
	Children *c = arg;
	if (name[0] < '1' || name[0] > '9')
		return;
	char path[64], *p = put_str(path, "/proc/");
	p = put_str(p, name);
	put_str(p, "/stat");
	char st[512];
	char *q = stat_after_name(path, st, sizeof st);
	if (!q || q[1] != ' ' || !q[2] || q[3] != ' ')
		return;
	long ppid = 0;
	for (q += 4; *q >= '0' && *q <= '9'; q++)
		ppid = ppid * 10 + (*q - '0');
	if (ppid != c->me)
		return;
	long pid = 0;
	for (const char *s = name; *s >= '0' && *s <= '9'; s++)
		pid = pid * 10 + (*s - '0');
	kill((pid_t)pid, SIGKILL);
	c->killed++;
}

/* Our direct children, from /proc/N/stat's fourth field. */
static int kill_children(void)
{
	int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return 0;
	Children c = {.me = getpid()};
	dir_each(dir, kill_if_child, &c);
	close(dir);
	return c.killed;
}

/* The subreaper's end of run: kill every descendant, reap them all. Each
 * killed process's children come to us and are found on the next pass. */
static void kill_all_descendants(void)
{
	for (;;) {
		kill_children();
		pid_t w = waitpid(-1, NULL, 0);
		if (w < 0 && errno == ECHILD)
			return;
	}
}

/* Wait for pid, reaping any other child that ends meanwhile; on SIGTERM
 * kill pid (and, as subreaper, everything) at once. */
static int wait_for(pid_t pid, bool subreaper)
{
	int status = 0;
	for (;;) {
		if (got_term) {
			kill(pid, SIGKILL);
			if (subreaper)
				kill_children();
		}
		int s;
		pid_t w = waitpid(-1, &s, 0);
		if (w == pid)
			return s;
		if (w < 0 && errno == ECHILD)
			return status;
	}
}

/* Zero [env_start, env_end) from /proc/self/stat (fields 50 and 51). */
static void wipe_start_env(void)
{
	char st[2048];
	char *q = stat_after_name("/proc/self/stat", st, sizeof st);
	if (!q)
		return;
	unsigned long f[52] = {0};
	int field = 2; /* ')' ends field 2 */
	for (q++; *q && field < 51;) {
		while (*q == ' ')
			q++;
		field++;
		unsigned long v = 0;
		if (*q == '-')
			q++;
		for (; *q >= '0' && *q <= '9'; q++)
			v = v * 10 + (unsigned long)(*q - '0');
		while (*q && *q != ' ')
			q++;
		f[field] = v;
	}
	if (field == 51 && f[50] && f[51] > f[50] && f[51] - f[50] < (1ul << 24))
		memset((void *)f[50], 0, f[51] - f[50]);
}

/* ---- inside the namespaces ------------------------------------------------------ */

static void mask_dir(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode))
		mount("kcc-sandbox", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY,
		      "size=4k,mode=0555");
	else if (S_ISREG(st.st_mode))
		mount("/dev/null", path, NULL, MS_BIND, NULL);
}

/* Is path (absolute) inside dir? */
static bool inside(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 0 && dir[n - 1] == '/')
		n--;
	if (n == 0) /* dir is "/" */
		return true;
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == 0);
}

static void hide_secrets(const IsolateInfo *info)
{
	static const char *const secret_files[] = {
	    ".ssh", ".gnupg", ".aws", ".azure", ".config/gcloud", ".kube", ".docker",
	    ".netrc", ".git-credentials", ".pgpass", ".config/kcc", ".config/gh",
	    ".password-store", ".local/share/keyrings", NULL};
	if (!info->home || info->home[0] != '/')
		return;
	/* A candidate run sees nothing of HOME unless it runs inside it (a
	 * HOME of "/" contains everything, so it is never hidden whole). */
	if (info->hide_home && !(info->cwd && inside(info->cwd, info->home)) &&
	    !inside("/usr", info->home)) {
		if (mount("kcc-sandbox", info->home, "tmpfs",
		          MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, "size=4k,mode=0555") == 0)
			return;
	}
	for (int i = 0; secret_files[i]; i++) {
		char path[4096];
		if (strlen(info->home) + strlen(secret_files[i]) + 2 > sizeof path)
			return;
		char *p = put_str(path, info->home);
		p = put_str(p, "/");
		put_str(p, secret_files[i]);
		mask_dir(path);
	}
}

static void map_ids(uid_t uid, gid_t gid)
{
	char line[64], *p;
	write_file("/proc/self/setgroups", "deny");
	p = put_num(line, uid);
	p = put_str(p, " ");
	p = put_num(p, uid);
	put_str(p, " 1\n");
	write_file("/proc/self/uid_map", line);
	p = put_num(line, gid);
	p = put_str(p, " ");
	p = put_num(p, gid);
	put_str(p, " 1\n");
	write_file("/proc/self/gid_map", line);
}

void isolate_enter(const IsolateInfo *info, int report_fd)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	bool root = geteuid() == 0;
	bool ns = false;
	/* A user namespace also for root's candidates: they keep no capability
	 * over kcc's processes (no reading their memory or environment). Not
	 * for root's tools: ncu needs CAP_SYS_ADMIN for the GPU's counters. */
	bool userns = !root || info->hide_home;
	if (!info->no_namespaces) {
		int flags = CLONE_NEWPID | CLONE_NEWNS;
		ns = unshare(flags | (userns ? CLONE_NEWUSER : 0)) == 0;
		if (!ns && userns && root) { /* user namespaces off: root can do without */
			userns = false;
			ns = unshare(flags) == 0;
		}
		if (ns && userns)
			map_ids(uid, gid);
	}

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	if (!ns)
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);

	/* ns: this fork makes the namespace's init; else the command itself. */
	int st[2] = {-1, -1};
	if (ns && pipe2(st, O_CLOEXEC) != 0)
		_exit(127);
	pid_t child = fork();
	if (child < 0)
		_exit(127);
	if (child > 0) {
		/* The supervisor, outside the namespaces. */
		close(report_fd);
		if (ns)
			close(st[1]);
		int s = wait_for(child, !ns);
		if (!ns) {
			kill_all_descendants();
			mirror(s);
		}
		int cs = 0;
		if (got_term || read(st[0], &cs, sizeof cs) != (ssize_t)sizeof cs)
			mirror(SIGKILL); /* the status of a command killed */
		mirror(cs);
	}
	signal(SIGTERM, SIG_DFL);
	if (!ns)
		return; /* exec the command, as the subreaper's child */

	/* The namespace's init (pid 1). */
	close(st[0]);
	mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
	mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	hide_secrets(info);
	pid_t cmd = fork();
	if (cmd < 0)
		_exit(127);
	if (cmd == 0) {
		close(st[1]);
		struct rlimit rl = {SANDBOX_NPROC, SANDBOX_NPROC};
		if (!root)
			setrlimit(RLIMIT_NPROC, &rl);
		return; /* exec the command */
	}
	close(report_fd);
	/* A copy of kcc: wipe the environment kcc started with, which
	 * /proc/1/environ would show (the command got its own at fork). */
	wipe_start_env();
	int s = 0;
	for (;;) {
		int x;
		pid_t w = waitpid(-1, &x, 0);
		if (w == cmd) {
			s = x;
			break;
		}
		if (w < 0 && errno == ECHILD)
			break;
	}
	(void)!write(st[1], &s, sizeof s);
	_exit(0); /* the kernel now kills what is left in the namespace */
}
