/*
 * test_runners.c — the pieces the remote runners share: --runner values
 * refused before anything is contacted, KCC_SSH split into words as a
 * shell would, the script line that enforces kcc's limits there
 * (run here by a real sh: timeout, signals, exit codes, a scrubbed
 * environment), and the ustar streams: what tar_pack makes GNU tar reads,
 * what GNU tar makes tar_list reads (long names too), and tar_unpack
 * writes only the regular files asked for — never a link. Also the
 * argument-vector builder and the scratch directories every runner and
 * target uses.
 */
#include "runners/internal.h"
#include "testsuite/unit/check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static ProcResult script(Arena *a, const ProcSpec *spec, const char *const *argv)
{
	const char *sh[] = {"sh", "-c", runner_script(a, spec, argv, "/"), NULL};
	ProcSpec ps = {.argv = sh, .timeout_s = 30};
	ProcResult r;
	proc_run(a, &ps, &r);
	runner_status(spec, r.exit_code, r.wall_s, &r);
	return r;
}

int main(void)
{
	Arena *a = arena_new();
	int n;
	const char *why = "";
	const char **w = runner_split(a, " ssh -F 'my cfg'  -o \"A=b \\\"c\\\"\" x\\ y ", &n, &why);
	CHECK(w && n == 6);
	if (w && n == 6) {
		CHECK_STR(w[0], "ssh");
		CHECK_STR(w[2], "my cfg");
		CHECK_STR(w[4], "A=b \"c\"");
		CHECK_STR(w[3], "-o");
		CHECK_STR(w[5], "x y");
		CHECK(w[6] == NULL);
	}
	w = runner_split(a, "ssh -o 'open", &n, &why);
	CHECK(!w && strstr(why, "single quote"));
	CHECK_STR(runner_shq(a, "it's"), "'it'\\''s'");
	w = runner_split(a, "  ", &n, &why);
	CHECK(w && n == 0 && w[0] == NULL);

	/* strvec: NULL-terminated after every push, empty or not. */
	Strvec v = STRVEC_INIT(a);
	CHECK(strvec_detach(&v) && v.v[0] == NULL && v.n == 0);
	strvec_pushl(&v, "cc", "-O2", NULL);
	strvec_pushv_prefix(&v, "-I", (const char *[]){"a", "b c", NULL});
	strvec_pushv(&v, NULL);
	for (int i = 0; i < 40; i++)
		strvec_pushf(&v, "-DN%d=%s", i, "x");
	strvec_push(&v, "src.c");
	CHECK(v.n == 45 && v.v[45] == NULL);
	CHECK_STR(v.v[3], "-Ib c");
	CHECK_STR(v.v[43], "-DN39=x");
	CHECK(strstr(proc_cmdline(a, v.v), "cc -O2 -Ia '-Ib c' -DN0=x"));
	strvec_clear(&v);
	CHECK(v.n == 0 && v.v[0] == NULL);

	/* scratch dirs: made fresh, removed with what is in them. */
	char *sd = scratch_make(a, NULL, "kcc-test-scratch");
	CHECK(sd && strstr(sd, "/kcc-test-scratch-"));
	if (sd) {
		const char *sub = arena_printf(a, "%s/d", sd);
		CHECK(mkdir(sub, 0700) == 0);
		CHECK(file_write_atomic(arena_printf(a, "%s/f", sub), "x", 1) == 0);
		CHECK(symlink("/", arena_printf(a, "%s/root", sd)) == 0);
		scratch_remove(sd);
		CHECK(access(sd, F_OK) != 0 && access("/", F_OK) == 0);
	}

	/* --runner values refused before anything is contacted. */
	Runner *rn = runner_open(a, "ssh://", NULL, &why);
	CHECK(!rn && strstr(why, "expected ssh://[user@]host[:port]"));
	rn = runner_open(a, "ssh://me@host:22x", NULL, &why);
	CHECK(!rn && strstr(why, "the port must be a number"));
	rn = runner_open(a, "ssh://host/path", NULL, &why);
	CHECK(!rn && strstr(why, "expected ssh://"));
	setenv("KCC_SSH", "ssh -o 'open", 1);
	rn = runner_open(a, "ssh://host", NULL, &why);
	CHECK(!rn && strstr(why, "KCC_SSH: a single quote is not closed"));
	unsetenv("KCC_SSH");
	rn = runner_open(a, "slurm:gpu,acount=x", NULL, &why);
	CHECK(!rn && strstr(why, "expected slurm[:PARTITION][,account=A][,qos=Q]"));
	rn = runner_open(a, "slurn", NULL, &why);
	CHECK(!rn && strstr(why, "unknown runner 'slurn'"));
	rn = runner_open(a, "local", NULL, &why);
	CHECK(rn && !strcmp(rn->name, "local") && !rn->batch && !runner_defer_begin(rn, a));

	/* The limits, enforced by the script itself. */
	setenv("KCC_CANARY", "local-only", 1);
	ProcSpec spec = {.timeout_s = 0.5};
	ProcResult r = script(a, &spec, (const char *[]){"sleep", "5", NULL});
	CHECK(r.timed_out && r.wall_s < 4);
	spec.timeout_s = 10;
	r = script(a, &spec, (const char *[]){"sh", "-c", "kill -SEGV $$", NULL});
	CHECK(r.term_signal == 11 && !r.timed_out);
	r = script(a, &spec, (const char *[]){"sh", "-c", "exit 124", NULL});
	CHECK(r.exit_code == 124 && !r.timed_out); /* its own 124, well before the limit */
	const char *extra[] = {"KCC_EXTRA=yes", NULL};
	spec.env_extra = extra;
	r = script(a, &spec,
	           (const char *[]){"sh", "-c", "echo ${KCC_CANARY-unset} $KCC_EXTRA", NULL});
	CHECK(r.exit_code == 0);
	CHECK_STR(r.out, "unset yes\n");
	spec.env_extra = NULL;
	spec.fsize_bytes = 4096;
	r = script(a, &spec, (const char *[]){"sh", "-c", "head -c 100000 /dev/zero > big", NULL});
	CHECK(r.exit_code != 0 || r.term_signal != 0);

	/* Output cut there before it comes back. */
	char capdir[] = "/tmp/kcc-test-cap-XXXXXX";
	CHECK(mkdtemp(capdir) != NULL);
	const char *big = arena_printf(a, "%s/out", capdir), *small = arena_printf(a, "%s/err", capdir);
	const char *cut = arena_printf(
	    a, "head -c 100000 /dev/zero >%s; echo hi >%s; %s", runner_shq(a, big),
	    runner_shq(a, small),
	    runner_cap_script(a, 1001, (const char *[]){runner_shq(a, big), runner_shq(a, small), NULL}));
	ProcSpec cs = {.argv = (const char *[]){"sh", "-c", cut, NULL}, .timeout_s = 30};
	proc_run(a, &cs, &r);
	struct stat cst;
	CHECK(proc_ok(&r) && stat(big, &cst) == 0 && cst.st_size == 1001);
	CHECK(stat(small, &cst) == 0 && cst.st_size == 3);
	unlink(big);
	unlink(small);
	rmdir(capdir);

	/* tar_pack → GNU tar. */
	char dir[] = "/tmp/kcc-test-runners-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	const char *sub = arena_printf(a, "%s/d", dir);
	CHECK(mkdir(sub, 0700) == 0);
	const char *f1 = arena_printf(a, "%s/one.txt", sub);
	const char *f2 = arena_printf(a, "%s/two.bin", sub);
	CHECK(file_write_atomic(f1, "hello\n", 6) == 0);
	char bin[1000];
	for (int i = 0; i < 1000; i++)
		bin[i] = (char)i;
	CHECK(file_write_atomic(f2, bin, sizeof bin) == 0);
	Strbuf tar = STRBUF_INIT;
	CHECK(tar_pack(a, (const char *[]){sub, NULL}, &tar) == 0);
	const char *out = arena_printf(a, "%s/x", dir);
	CHECK(mkdir(out, 0700) == 0);
	const char *untar[] = {"tar", "-C", out, "-xf", "-", NULL};
	ProcSpec us = {.argv = untar, .stdin_data = tar.buf, .stdin_len = tar.len, .timeout_s = 30};
	proc_run(a, &us, &r);
	CHECK(proc_ok(&r));
	char *text;
	size_t len;
	CHECK(file_read(a, arena_printf(a, "%s%s", out, f2), &text, &len) == 0 && len == 1000 &&
	      memcmp(text, bin, 1000) == 0);

	/* tar_list/tar_unpack: only what was asked for comes back. */
	TarEntry *e;
	n = tar_list(a, tar.buf, tar.len, &e);
	CHECK(n == 2);
	unlink(f1);
	unlink(f2);
	const char *want[] = {f1 + 1, NULL};
	CHECK(tar_unpack(e, n, want) == 1);
	CHECK(access(f1, F_OK) == 0 && access(f2, F_OK) != 0);
	sb_release(&tar);

	/* GNU tar's archive: a long name, a symlink named as a wanted file. */
	const char *deep = arena_printf(a, "%s/%s", sub,
	                                "a-rather-long-directory-name-that-goes-on-and-on-and-on-"
	                                "past-one-hundred-characters-of-path");
	CHECK(mkdir(deep, 0700) == 0);
	const char *f3 = arena_printf(a, "%s/results.out", deep);
	CHECK(file_write_atomic(f3, "R", 1) == 0);
	const char *link = arena_printf(a, "%s/link.out", sub);
	CHECK(symlink("/etc/passwd", link) == 0);
	const char *mk[] = {"tar", "-C", "/", "-cf", "-", f3 + 1, link + 1, NULL};
	ProcSpec ms = {.argv = mk, .timeout_s = 30};
	proc_run(a, &ms, &r);
	CHECK(proc_ok(&r));
	n = tar_list(a, r.out, r.out_len, &e);
	CHECK(n == 1 && n > 0 && !strcmp(e[0].name, f3 + 1));
	unlink(f3);
	unlink(link);
	CHECK(tar_unpack(e, n, (const char *[]){f3 + 1, link + 1, NULL}) == 1);
	struct stat st;
	CHECK(lstat(link, &st) != 0); /* the link was not recreated */
	CHECK(file_read(a, f3, &text, &len) == 0 && len == 1 && text[0] == 'R');
	CHECK(tar_list(a, r.out, 700, &e) < 0); /* cut short: malformed */

	const char *rm[] = {"rm", "-rf", dir, NULL};
	ProcSpec rs = {.argv = rm, .timeout_s = 30};
	proc_run(a, &rs, &r);
	arena_free(a);
	return check_summary("test_runners");
}
