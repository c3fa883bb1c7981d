/*
 * depfile.c — `-MD [-MF FILE] [-MT TARGET]`, as gcc writes them: one make
 * rule naming OUT (or -MT's target) and what it was made from — the input,
 * the local headers it includes with `#include "..."` that exist, and the
 * --menu file — so `make` reruns kcc when one of them changes. The file
 * goes to -MF, else OUT with its suffix replaced by .d.
 */
#include "driver.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

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

/* The headers the file includes that exist: "quoted" ones next to the
 * file, then (both kinds) in the project's -I directories, as the
 * compiler searches them; system headers are not dependencies. */
static void find_includes(Arena *a, const Options *o, const Unit *u, const char ***deps,
                          size_t *n, size_t *cap)
{
	const char *slash = strrchr(u->path, '/');
	const char *dir = slash ? arena_strndup(a, u->path, (size_t)(slash - u->path + 1)) : "";
	for (const char *p = u->text; (p = strstr(p, "#include")) != NULL; p += 8) {
		const char *q = p + 8 + strspn(p + 8, " \t");
		if (*q != '"' && *q != '<')
			continue;
		const char *e = strchr(q + 1, *q == '"' ? '"' : '>');
		const char *nl = strchr(q, '\n');
		if (!e || (nl && e > nl))
			continue;
		const char *name = arena_strndup(a, q + 1, (size_t)(e - q - 1));
		const char *f = arena_printf(a, "%s%s", dir, name);
		bool found = *q == '"' && access(f, R_OK) == 0;
		for (int i = 0; !found && i < o->nparse_args; i++) {
			const char *arg = o->parse_args[i];
			if (strncmp(arg, "-I", 2) != 0 || !arg[2])
				continue;
			f = arena_printf(a, "%s/%s", arg + 2, name);
			found = access(f, R_OK) == 0;
		}
		if (found)
			ARENA_PUSH(a, *deps, *n, *cap, f);
	}
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
	const char **deps = NULL;
	size_t n = 0, cap = 0;
	find_includes(a, o, u, &deps, &n, &cap);
	if (o->search.menu)
		ARENA_PUSH(a, deps, n, cap, o->search.menu);
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
