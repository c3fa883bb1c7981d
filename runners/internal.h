/*
 * internal.h — what runners/'s files share and nobody else needs: words
 * split from a command in an environment variable, shell quoting for the
 * command lines that ssh and sbatch scripts hand to a remote shell, the
 * ustar streams that carry files over ssh, and the clean-up commands a
 * signal handler runs.
 */
#ifndef KCC_RUNNERS_INTERNAL_H
#define KCC_RUNNERS_INTERNAL_H

#include "runner.h"

/* Split a command the way a POSIX shell splits words (single and double
 * quotes, backslashes; no expansions), as git splits GIT_SSH_COMMAND.
 * NULL-terminated arena vector, *n words; NULL with *why on a quote left
 * open. */
const char **runner_split(Arena *a, const char *cmd, int *n, const char **why);
/* s quoted for a POSIX shell: 'it'\''s' (proc.c, as proc_cmdline quotes). */
char *runner_shq(Arena *a, const char *s);
/* The shell script line that runs spec with its limits (ulimit, timeout,
 * env -i with PATH and HOME from there plus spec->env_extra), in cwd.
 * Paths are used as given (the caller has mapped them). Exit codes: the
 * command's; 124 timeout; 128+N killed by signal N. */
char *runner_script(Arena *a, const ProcSpec *spec, const char *const *argv,
                    const char *cwd);
/* Shell text that cuts each of these files (shell words, already
 * quoted) to cap bytes, so a command that prints gigabytes there does not
 * make kcc read gigabytes here. */
char *runner_cap_script(Arena *a, size_t cap, const char *const *files);
/* Turn the status of such a script into r's fields. */
void runner_status(const ProcSpec *spec, int code, double wall_s, ProcResult *r);

/* ustar: an archive of these files (absolute local paths; directories are
 * walked), entry names without the leading '/'. 0, or errno. */
int tar_pack(Arena *a, const char *const *paths, Strbuf *out);
/* The regular files of an archive, in order (links, devices, directories
 * left out): names as stored ("./" stripped), bodies pointing into data.
 * Count, or -1 when the stream is malformed. */
typedef struct {
	const char *name;
	const char *data;
	size_t len;
} TarEntry;
int tar_list(Arena *a, const char *data, size_t len, TarEntry **out);
/* Write those entries whose names are among want (names as tar_pack makes
 * them) atomically to '/' + name, each once. Number written, -1 when a
 * write failed. Nothing else is ever written. */
int tar_unpack(const TarEntry *e, int n, const char *const *want);

/* Commands for a signal handler to run before kcc dies (fork+exec only). */
void runner_on_signal(const char *const *argv);
void runner_on_signal_clear(void);

#endif
