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
	sb_addc(sb, ' ');
	for (; *s; s++) {
		if (*s == ' ' || *s == '#')
			sb_addc(sb, '\\');
		if (*s == '$')
			sb_addc(sb, '$');
		sb_addc(sb, *s);
	}
}

static void add_includes(Arena *a, Strbuf *sb, const Unit *u)
{
	const char *slash = strrchr(u->path, '/');
	const char *dir = slash ? arena_strndup(a, u->path, (size_t)(slash - u->path + 1)) : "";
	for (const char *p = u->text; (p = strstr(p, "#include")) != NULL; p += 8) {
		const char *q = p + 8 + strspn(p + 8, " \t");
		if (*q != '"')
			continue;
		const char *e = strchr(q + 1, '"');
		const char *nl = strchr(q, '\n');
		if (!e || (nl && e > nl))
			continue;
		const char *f = arena_printf(a, "%s%.*s", dir, (int)(e - q - 1), q + 1);
		if (access(f, R_OK) == 0)
			add_name(sb, f);
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
	add_name(&sb, u->path);
	add_includes(a, &sb, u);
	if (o->search.menu)
		add_name(&sb, o->search.menu);
	sb_addc(&sb, '\n');
	int e = file_write_atomic(depfile_path(a, o, out), sb.buf, sb.len);
	sb_release(&sb);
	return e;
}
