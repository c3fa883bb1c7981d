/*
 * emitdir.c — `--emit-passes=DIR` (and -save-temps): the accepted chain as
 * files a person reads with diff or git: 00-input.EXT, then for each pass
 * NN-OPTION.EXT (the source after it), NN-OPTION.diff (unified diff from
 * the previous file, made by `diff -u` through proc_run) and
 * NN-OPTION.plan.md (the plan, verdict and measurement).
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

char *passes_diff(Arena *a, const char *tmpdir, const char *name_a, const char *a_text,
                  const char *name_b, const char *b_text)
{
	const char *fa = arena_printf(a, "%s/.kcc-diff-a", tmpdir);
	const char *fb = arena_printf(a, "%s/.kcc-diff-b", tmpdir);
	if (file_write_atomic(fa, a_text, strlen(a_text)) ||
	    file_write_atomic(fb, b_text, strlen(b_text)))
		return NULL;
	const char *argv[] = {"diff", "-u", "--label", name_a, "--label", name_b, fa, fb, NULL};
	ProcSpec ps = {.argv = argv, .timeout_s = 60};
	ProcResult r;
	int rc = proc_run(a, &ps, &r);
	remove(fa);
	remove(fb);
	if (rc != 0 || (r.exit_code != 0 && r.exit_code != 1))
		return NULL;
	return r.out;
}

/* A file name from a menu option: letters, digits, '-' and '_' only. */
static const char *slug(Arena *a, const char *option)
{
	char *s = arena_strdup(a, *option ? option : "pass");
	for (char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			*p = '-';
	return s;
}

static const char *plan_md(Arena *a, const Candidate *c, const Candidate *prev,
                           const SearchResult *r)
{
	Strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "# Pass %d: %s\n\n", c->step, c->option);
	if (*c->tune)
		sb_addf(&sb, "Tuned values: `%s`\n\n", c->tune);
	if (c->provider && *c->provider)
		sb_addf(&sb, "Written by: %s\n\n", c->provider);
	sb_addf(&sb, "## Plan\n\n%s\n\n## Result\n\nVerified correct; %.2fx over the "
	        "original (95%% CI %.2fx-%.2fx), %.4g %s; the previous version was %.2fx.\n",
	        c->plan && *c->plan ? c->plan : "(no plan text)", c->speedup, c->lo, c->hi, c->ms,
	        r->unit ? r->unit : "ms", prev->speedup);
	return sb_to_arena(&sb, a);
}

/* Files of an earlier run (NN-...) would read as part of this chain. */
static void remove_old(Arena *a, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9' && de->d_name[1] >= '0' &&
		    de->d_name[1] <= '9' && de->d_name[2] == '-')
			remove(arena_printf(a, "%s/%s", dir, de->d_name));
	closedir(d);
}

int passes_emit_dir(Arena *a, const char *dir, const SearchResult *r, const Unit *orig,
                    const char *ext)
{
	int e = file_mkdirs(dir, 0755);
	if (e)
		return e;
	remove_old(a, dir);
	int ids[256];
	int n = search_chain(r, r->best, ids, 256);
	const char *prev_name = arena_printf(a, "00-input%s", ext);
	const char *prev_text = orig->text;
	if ((e = file_write_atomic(arena_printf(a, "%s/%s", dir, prev_name), orig->text,
	                           orig->len)))
		return e;
	for (int i = 1; i < n; i++) {
		const Candidate *c = &r->c[ids[i]];
		const char *base = arena_printf(a, "%02d-%s", i, slug(a, c->option));
		const char *name = arena_printf(a, "%s%s", base, ext);
		const char *d = passes_diff(a, dir, prev_name, prev_text, name, c->text);
		const char *md = plan_md(a, c, &r->c[ids[i - 1]], r);
		if ((e = file_write_atomic(arena_printf(a, "%s/%s", dir, name), c->text, c->len)) ||
		    (e = file_write_atomic(arena_printf(a, "%s/%s.diff", dir, base), d ? d : "",
		                           d ? strlen(d) : 0)) ||
		    (e = file_write_atomic(arena_printf(a, "%s/%s.plan.md", dir, base), md,
		                           strlen(md))))
			return e;
		prev_name = name;
		prev_text = c->text;
	}
	return 0;
}
