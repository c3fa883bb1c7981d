/*
 * depfile.c — `-MD [-MF FILE] [-MT TARGET]`, as gcc writes them: one make
 * rule naming OUT (or -MT's target) and what it was made from — the input,
 * the project headers it includes, directly or through another, and the
 * --menu file — so `make` reruns kcc when one of them changes. The file
 * goes to -MF, else OUT with its suffix replaced by .d.
 */
#include "driver.h"

#include <string.h>

/* Make's escaping of a file name in a rule: spaces, '#' and '$'. */
static void add_name(Strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == ' ' || *s == '#')
			sb_addc(sb, '\\');
		if (*s == '$')
			sb_addc(sb, '$');
		sb_addc(sb, *s);
	}
}

/* The headers the file includes, and those they include, found as the
 * compiler finds them (ir_each_include: the one include walker); system
 * headers are not dependencies (gcc's -MMD). Each once. */
typedef struct {
	Arena *a;
	const char **deps;
	size_t n, cap;
} Deps;

static int add_dep(void *ctx, const IrInclude *inc)
{
	Deps *d = ctx;
	if (inc->system || !inc->regular)
		return 0;
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->deps[i], inc->path))
			return 0;
	ARENA_PUSH(d->a, d->deps, d->n, d->cap, inc->path);
	return 0;
}

static const char *depfile_path(Arena *a, const Options *o, const char *out)
{
	if (o->search.mf)
		return o->search.mf;
	const char *base = strcmp(out, "-") ? out : o->input;
	const char *slash = strrchr(base, '/');
	const char *dot = strrchr(slash ? slash : base, '.');
	if (!dot || dot == (slash ? slash + 1 : base))
		return arena_printf(a, "%s.d", base);
	return arena_printf(a, "%.*s.d", (int)(dot - base), base);
}

int driver_depfile(Arena *a, const Options *o, const Unit *u, const char *out)
{
	Strbuf sb = STRBUF_INIT;
	const char *target = o->search.mt ? o->search.mt : strcmp(out, "-") ? out : "-";
	for (const char *s = target; *s; s++) {
		if (*s == ' ' || *s == '#')
			sb_addc(&sb, '\\');
		sb_addc(&sb, *s);
	}
	sb_addc(&sb, ':');
	sb_addc(&sb, ' ');
	add_name(&sb, u->path);
	Deps d = {.a = a};
	IrOptions io = {.clang_args = (const char **)o->parse_args, .nclang_args = o->nparse_args};
	ir_each_include(a, u, &io, add_dep, &d);
	if (o->search.menu)
		ARENA_PUSH(a, d.deps, d.n, d.cap, o->search.menu);
	const char **deps = d.deps;
	size_t n = d.n;
	for (size_t i = 0; i < n; i++) {
		sb_addc(&sb, ' ');
		add_name(&sb, deps[i]);
	}
	sb_addc(&sb, '\n');
	/* -MP: a rule with no prerequisites for each header, as gcc writes, so
	 * a header that was renamed or deleted does not stop make */
	for (size_t i = 0; o->search.mp && i < n; i++) {
		sb_addc(&sb, '\n');
		add_name(&sb, deps[i]);
		sb_adds(&sb, ":\n");
	}
	int e = file_write_atomic(depfile_path(a, o, out), sb.buf, sb.len);
	sb_release(&sb);
	return e;
}
