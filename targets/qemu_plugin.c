/*
 * qemu_plugin.c — kcc's QEMU plugin (targets/qemu/kcc_icount.c), built
 * from the copy embedded in kcc with the host's C compiler the first time
 * the riscv64 target needs it, and kept in the cache directory
 * (--cache-dir, else $XDG_CACHE_HOME/kcc or ~/.cache/kcc; a fresh
 * temporary directory when it is not writable) under a name with the
 * source's hash, so an upgraded
 * kcc never loads an old plugin. The build goes to a temporary name and is
 * renamed into place, so concurrent kcc processes never see half a file.
 */
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const EmbeddedFile target_qemu_files[];

static char plugin_path[PATH_MAX];

/* A directory of ours to build in: the cache, else a fresh temp dir. */
static const char *work_dir(Arena *a, const char *hash)
{
	const char *base = target_cache_home(a);
	if (base) {
		const char *d = arena_printf(a, "%s/qemu-plugin-%.16s", base, hash);
		struct stat st;
		if (file_mkdirs(d, 0700) == 0 && stat(d, &st) == 0 && st.st_uid == getuid() &&
		    access(d, W_OK) == 0)
			return d;
	}
	return scratch_make(a, NULL, "kcc-qemu-plugin");
}

const char *target_qemu_plugin(Arena *a, const char **why)
{
	if (plugin_path[0] && access(plugin_path, R_OK) == 0)
		return plugin_path;
	Strbuf all = STRBUF_INIT;
	for (int i = 0; target_qemu_files[i].name; i++)
		sb_addn(&all, target_qemu_files[i].text, target_qemu_files[i].len);
	char hash[65];
	sha256_hex(all.buf ? all.buf : "", all.len, hash);
	sb_release(&all);
	const char *dir = work_dir(a, hash);
	if (!dir) {
		*why = arena_printf(a, "no directory to build the QEMU plugin in: %s", strerror(errno));
		return NULL;
	}
	const char *so = arena_printf(a, "%s/kcc_icount.so", dir);
	if (access(so, R_OK) != 0) {
		const char *p = NULL;
		if (embedded_write(a, target_qemu_files, dir, &p) != 0) {
			*why = arena_printf(a, "cannot write %s: %s", p, strerror(errno));
			return NULL;
		}
		const char *cc = getenv("KCC_HOST_CC");
		const char *tmp = arena_printf(a, "%s/kcc_icount.so.%ld", dir, (long)getpid());
		const char *argv[] = {cc && *cc ? cc : "cc", "-std=gnu17", "-O2", "-shared", "-fPIC",
		                      "-fvisibility=hidden", "-Wall", "-I", dir, "-o", tmp,
		                      arena_printf(a, "%s/kcc_icount.c", dir), "-lpthread", NULL};
		ProcSpec ps = {.argv = argv, .cwd = dir, .timeout_s = 120};
		ProcResult r;
		proc_run(a, &ps, &r);
		if (!proc_ok(&r) || rename(tmp, so) != 0) {
			unlink(tmp);
			*why = arena_printf(a, "the QEMU plugin does not build (%s): %s%s",
			                    proc_cmdline(a, argv), proc_tail(r.err, 5),
			                    proc_ok(&r) ? "" : proc_describe(a, &ps, &r));
			return NULL;
		}
	}
	if (strlen(so) >= sizeof plugin_path) {
		*why = "the cache path is too long";
		return NULL;
	}
	strcpy(plugin_path, so);
	return plugin_path;
}
