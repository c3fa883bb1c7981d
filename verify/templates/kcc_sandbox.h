/*
 * kcc_sandbox.h — the seccomp filter the harness installs after its own
 * setup (plan read, results channel open, OpenMP pool or CUDA context up)
 * and before the entry runs (issue 17, docs/verifier.md "The sandbox").
 *
 * Raw BPF through prctl, no libseccomp. Denied system calls trap
 * (SECCOMP_RET_TRAP): the SIGSYS handler installed just before the filter
 * writes "kcc-harness: forbidden system call NAME" and exits with
 * KCC_EXIT_FORBIDDEN, which kcc reports as the reason "forbidden". Since
 * rt_sigaction itself is denied afterwards, the candidate cannot replace
 * the handler; a blocked or ignored SIGSYS still kills the process (the
 * kernel forces it), and kcc reports death by SIGSYS the same way.
 *
 * Denied everywhere: exec, process creation (clone without CLONE_THREAD,
 * fork, vfork; clone3 answers ENOSYS so libc falls back to clone, whose
 * flags the filter can read), sockets, ptrace and cross-process memory,
 * setting clocks, signals to other processes, changing signal handlers,
 * file-system changes (unlink, rename, link, chmod, mkdir, truncate),
 * io_uring (it would bypass the filter), perf counters, bpf, namespaces.
 * Strict level (cpu): also every open and every thread creation (the
 * OpenMP pool exists already). Runtime level (cuda, and cpu's sanitizer
 * build): the CUDA runtime may start threads later, so threads stay
 * allowed, and opens fail with EACCES instead of killing (a dlopen of
 * cuBLAS, a read of the reference's files: refused either way).
 */
#ifndef KCC_SANDBOX_H
#define KCC_SANDBOX_H


#define KCC_SANDBOX_OFF 0
#define KCC_SANDBOX_RUNTIME 1
#define KCC_SANDBOX_STRICT 2

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define KCC_AUDIT_ARCH AUDIT_ARCH_X86_64
#else
#define KCC_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

typedef struct {
	int nr;
	const char *name;
	int opens; /* an open: traps at the strict level, fails with EACCES at
	              the runtime level (the CUDA runtime copes with a failed
	              open; it could not cope with being killed for one) */
} KccDeny;

/* -1 where the architecture lacks the call (aarch64 has no open, fork...). */
#ifdef SYS_open
#define KCC_SYS_open SYS_open
#else
#define KCC_SYS_open -1
#endif
#ifdef SYS_creat
#define KCC_SYS_creat SYS_creat
#else
#define KCC_SYS_creat -1
#endif
#ifdef SYS_fork
#define KCC_SYS_fork SYS_fork
#else
#define KCC_SYS_fork -1
#endif
#ifdef SYS_vfork
#define KCC_SYS_vfork SYS_vfork
#else
#define KCC_SYS_vfork -1
#endif
#ifdef SYS_unlink
#define KCC_SYS_unlink SYS_unlink
#define KCC_SYS_rename SYS_rename
#define KCC_SYS_link SYS_link
#define KCC_SYS_symlink SYS_symlink
#define KCC_SYS_chmod SYS_chmod
#define KCC_SYS_mkdir SYS_mkdir
#define KCC_SYS_rmdir SYS_rmdir
#else
#define KCC_SYS_unlink -1
#define KCC_SYS_rename -1
#define KCC_SYS_link -1
#define KCC_SYS_symlink -1
#define KCC_SYS_chmod -1
#define KCC_SYS_mkdir -1
#define KCC_SYS_rmdir -1
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#endif
#ifndef SYS_io_uring_enter
#define SYS_io_uring_enter 426
#endif
#ifndef SYS_io_uring_register
#define SYS_io_uring_register 427
#endif
#ifndef SYS_execveat
#define SYS_execveat 322
#endif

static const KccDeny kcc_deny[] = {
    {SYS_execve, "execve", 0},
    {SYS_execveat, "execveat", 0},
    {KCC_SYS_fork, "fork", 0},
    {KCC_SYS_vfork, "vfork", 0},
    {SYS_socket, "socket", 0},
    {SYS_socketpair, "socketpair", 0},
    {SYS_connect, "connect", 0},
    {SYS_bind, "bind", 0},
    {SYS_listen, "listen", 0},
    {SYS_accept, "accept", 0},
    {SYS_accept4, "accept4", 0},
    {SYS_ptrace, "ptrace", 0},
    {SYS_process_vm_readv, "process_vm_readv", 0},
    {SYS_process_vm_writev, "process_vm_writev", 0},
    {SYS_clock_settime, "clock_settime", 0},
    {SYS_clock_adjtime, "clock_adjtime", 0},
    {SYS_adjtimex, "adjtimex", 0},
    {SYS_settimeofday, "settimeofday", 0},
    {SYS_tkill, "tkill", 0},
    {SYS_rt_sigaction, "rt_sigaction", 0},
    {KCC_SYS_unlink, "unlink", 0},
    {SYS_unlinkat, "unlinkat", 0},
    {KCC_SYS_rename, "rename", 0},
    {SYS_renameat, "renameat", 0},
    {SYS_renameat2, "renameat2", 0},
    {KCC_SYS_link, "link", 0},
    {SYS_linkat, "linkat", 0},
    {KCC_SYS_symlink, "symlink", 0},
    {SYS_symlinkat, "symlinkat", 0},
    {KCC_SYS_chmod, "chmod", 0},
    {SYS_fchmod, "fchmod", 0},
    {SYS_fchmodat, "fchmodat", 0},
    {KCC_SYS_mkdir, "mkdir", 0},
    {SYS_mkdirat, "mkdirat", 0},
    {KCC_SYS_rmdir, "rmdir", 0},
    {SYS_truncate, "truncate", 0},
    {SYS_ftruncate, "ftruncate", 0},
    {SYS_io_uring_setup, "io_uring_setup", 0},
    {SYS_io_uring_enter, "io_uring_enter", 0},
    {SYS_io_uring_register, "io_uring_register", 0},
    {SYS_perf_event_open, "perf_event_open", 0},
    {SYS_bpf, "bpf", 0},
    {SYS_unshare, "unshare", 0},
    {SYS_setns, "setns", 0},
    {SYS_mount, "mount", 0},
    {SYS_chroot, "chroot", 0},
    {SYS_setsid, "setsid", 0},
    {SYS_setpgid, "setpgid", 0},
    {KCC_SYS_open, "open", 1},
    {SYS_openat, "openat", 1},
    {SYS_openat2, "openat2", 1},
    {KCC_SYS_creat, "creat", 1},
};

static void kcc_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	char msg[96] = "kcc-harness: forbidden system call ";
	size_t n = strlen(msg);
	const char *name = "?";
	int nr = si->si_syscall;
	for (size_t i = 0; i < sizeof kcc_deny / sizeof kcc_deny[0]; i++)
		if (kcc_deny[i].nr == nr)
			name = kcc_deny[i].name;
	if (nr == SYS_clone)
		name = "clone (a new process or thread)";
	if (nr == SYS_kill || nr == SYS_tgkill)
		name = "kill (a signal to another process)";
	for (const char *p = name; *p && n < sizeof msg - 2; p++)
		msg[n++] = *p;
	msg[n++] = '\n';
	(void)!write(2, msg, n);
	_exit(KCC_EXIT_FORBIDDEN);
}

static void kcc_bpf(struct sock_filter *f, int *n, unsigned code, unsigned k, unsigned jt,
                    unsigned jf)
{
	f[*n].code = (unsigned short)code;
	f[*n].jt = (unsigned char)jt;
	f[*n].jf = (unsigned char)jf;
	f[*n].k = k;
	(*n)++;
}

#define KCC_BPF_STMT(c, k) kcc_bpf(f, &n, (c), (unsigned)(k), 0, 0)
#define KCC_BPF_JUMP(c, k, jt, jf) kcc_bpf(f, &n, (c), (unsigned)(k), (jt), (jf))
#define KCC_LD_ARG_LO(i) KCC_BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[i]))
#define KCC_LD_ARG_HI(i) KCC_BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[i]) + 4)
#define KCC_LD_NR KCC_BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))

/* Install the filter; level KCC_SANDBOX_*. Returns 0, or -1 (and the harness
 * fails with exit 2) when the kernel refuses: a verifier that silently ran
 * without its sandbox would be worse than one that says it cannot. */
static int kcc_sandbox(int level)
{
	if (level == KCC_SANDBOX_OFF)
		return 0;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = kcc_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) != 0)
		return -1;
	enum { CAP = 200 };
	struct sock_filter f[CAP];
	int n = 0;
	unsigned pid = (unsigned)getpid();
	/* Wrong architecture (x32 and 32-bit calls included): kill. */
	KCC_BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	                                          offsetof(struct seccomp_data, arch));
	KCC_BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, KCC_AUDIT_ARCH, 1, 0);
	KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	KCC_LD_NR;
#if defined(__x86_64__)
	KCC_BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
	KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
#endif
	for (size_t i = 0; i < sizeof kcc_deny / sizeof kcc_deny[0]; i++) {
		if (kcc_deny[i].nr < 0)
			continue;
		KCC_BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)kcc_deny[i].nr, 0, 1);
		if (kcc_deny[i].opens && level != KCC_SANDBOX_STRICT)
			KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES);
		else
			KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
	}
	/* clone3's flags live in memory the filter cannot read: ENOSYS makes
	 * libc fall back to clone. */
	KCC_BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1);
	KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 38);
	/* clone: threads only (cuda), nothing at the strict level. */
	KCC_BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 5);
	if (level == KCC_SANDBOX_STRICT) {
		KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
		KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
		KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
		KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
		KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
	} else {
		KCC_LD_ARG_LO(0);
		KCC_BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 1, 0);
		KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
		KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	/* kill and tgkill: only to this process (abort() raises SIGABRT). */
	KCC_BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kill, 1, 0);
	KCC_BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_tgkill, 0, 5);
	KCC_LD_ARG_HI(0);
	KCC_BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2);
	KCC_LD_ARG_LO(0);
	KCC_BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, pid, 1, 0);
	KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
	KCC_BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog;
	prog.len = (unsigned short)n;
	prog.filter = f;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0 ? 0 : -1;
}

#else
static int kcc_sandbox(int level)
{
	(void)level;
	return 0; /* no seccomp here: docs/verifier.md says what that leaves open */
}
#endif

#endif
