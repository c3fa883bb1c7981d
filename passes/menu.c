/*
 * menu.c — reading an optimization menu (menus/TARGET.menu, format in
 * docs/menus.md): `[option NAME]` sections with description / applies /
 * signals, and `[flags NAME]` sections with the source lines that set
 * compiler flags from inside the file. Menus are data a person edits, so a
 * malformed one is a diagnostic at its line, never a guess.
 */
#include "passes.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	Arena *a;
	const char *path;
	int line;
	Menu *m;
	enum { SEC_NONE, SEC_MENU, SEC_OPTION, SEC_FLAGS } sec;
	const char **last; /* the value a continuation line extends */
} MenuParser;

static int bad(MenuParser *p, const char *what)
{
	error_at((Loc){p->path, p->line, 1}, "%s", what);
	diag_note("docs/menus.md describes the menu format");
	return -1;
}

static char *trim(Arena *a, const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	return arena_strndup(a, s, n);
}

static int section(MenuParser *p, const char *s, size_t n)
{
	const char *close = memchr(s, ']', n);
	if (!close)
		return bad(p, "unterminated section header");
	char *head = trim(p->a, s + 1, (size_t)(close - s - 1));
	char *sp = strchr(head, ' ');
	const char *name = sp ? trim(p->a, sp + 1, strlen(sp + 1)) : "";
	if (sp)
		*sp = 0;
	p->last = NULL;
	if (!strcmp(head, "menu")) {
		p->sec = SEC_MENU;
	} else if (!strcmp(head, "option") || !strcmp(head, "flags")) {
		if (!*name)
			return bad(p, "a section needs a name: [option NAME] or [flags NAME]");
		if (!strcmp(head, "option")) {
			if (menu_find(p->m, name))
				return bad(p, "duplicate option name");
			MenuOption o = {.name = name, .description = "", .applies = "", .signals = ""};
			ARENA_PUSH(p->a, p->m->opts, p->m->nopts, p->m->opts_cap, o);
			p->sec = SEC_OPTION;
		} else {
			MenuFlag f = {.name = name, .top = "", .bottom = "", .description = "",
			              .cflags = ""};
			ARENA_PUSH(p->a, p->m->flags, p->m->nflags, p->m->flags_cap, f);
			p->sec = SEC_FLAGS;
		}
	} else
		return bad(p, "unknown section (use [menu], [option NAME] or [flags NAME])");
	return 0;
}

static const char **field(MenuParser *p, const char *key)
{
	if (p->sec == SEC_MENU && !strcmp(key, "about"))
		return &p->m->about;
	if (p->sec == SEC_OPTION) {
		MenuOption *o = &p->m->opts[p->m->nopts - 1];
		if (!strcmp(key, "description"))
			return &o->description;
		if (!strcmp(key, "applies"))
			return &o->applies;
		if (!strcmp(key, "signals"))
			return &o->signals;
	}
	if (p->sec == SEC_FLAGS && !strcmp(key, "description"))
		return &p->m->flags[p->m->nflags - 1].description;
	if (p->sec == SEC_FLAGS && !strcmp(key, "cflags"))
		return &p->m->flags[p->m->nflags - 1].cflags;
	return NULL;
}

/* The number in "sm_90a", "90", "1e3"; false when there is none. */
static bool number(const char *v, double *out)
{
	char *end;
	if (!strncmp(v, "sm_", 3))
		v += 3;
	*out = strtod(v, &end);
	return end != v && (!*end || (end[0] >= 'a' && end[0] <= 'z' && !end[1]));
}

/* One condition of a keep: line, "NAME OP VALUE". */
static int cond(MenuParser *p, const char *s, size_t n, MenuCond *c)
{
	static const struct {
		const char *op;
		MenuOp code;
	} ops[] = {{"!=", MC_NE}, {"<=", MC_LE}, {">=", MC_GE}, {"=", MC_EQ}, {"<", MC_LT},
	           {">", MC_GT}};
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < ARRAY_LEN(ops); k++) {
			size_t m = strlen(ops[k].op);
			if (i + m > n || strncmp(s + i, ops[k].op, m))
				continue;
			c->name = trim(p->a, s, i);
			c->value = trim(p->a, s + i + m, n - i - m);
			c->op = ops[k].code;
			bool ordered = c->op != MC_EQ && c->op != MC_NE;
			if (!*c->name || !*c->value)
				return bad(p, "a keep: condition is 'NAME OP VALUE' (e.g. 'type = f16')");
			if (ordered && !number(c->value, &c->num))
				return bad(p, arena_printf(p->a, "'%s' is not a number to compare with",
				                           c->value));
			if ((!strcmp(c->name, "type") || !strcmp(c->name, "bound")) && ordered)
				return bad(p, arena_printf(p->a, "'%s' takes = or != only", c->name));
			if (!strcmp(c->name, "bound"))
				for (const char *v = c->value; *v;) {
					size_t w = strcspn(v, "|");
					if (!((w == 7 && !strncmp(v, "compute", 7)) ||
					      (w == 6 && !strncmp(v, "memory", 6))))
						return bad(p, "bound is 'compute' or 'memory'");
					v += w + (v[w] == '|');
				}
			if (!strcmp(c->name, "type"))
				for (const char *v = c->value; *v;) {
					size_t w = strcspn(v, "|");
					if (elem_parse(arena_strndup(p->a, v, w)) == ET_NONE)
						return bad(p, arena_printf(p->a, "'%.*s' is not an element type "
						                                 "(f64 f32 f16 bf16 i64 ...)",
						                           (int)w, v));
					v += w + (v[w] == '|');
				}
			if (!ordered) /* metrics compare = and != as numbers */
				number(c->value, &c->num);
			return 0;
		}
	return bad(p, "a keep: condition is 'NAME OP VALUE' with OP one of = != < <= > >=");
}

/* keep: lines accumulate (any one may hold); each is a list of conditions
 * separated by commas, all of which must hold. */
static int keep_line(MenuParser *p, const char *val)
{
	MenuOption *o = &p->m->opts[p->m->nopts - 1];
	MenuKeep k = {.text = val};
	for (const char *s = val; *s;) {
		size_t n = strcspn(s, ",");
		MenuCond c;
		if (cond(p, s, n, &c))
			return -1;
		ARENA_PUSH(p->a, k.c, k.n, k.cap, c);
		s += n + (s[n] == ',');
	}
	if (!k.n)
		return bad(p, "an empty keep: line");
	ARENA_PUSH(p->a, o->keep, o->nkeep, o->keep_cap, k);
	p->last = NULL;
	return 0;
}

/* top: and bottom: lines accumulate, one source line each. */
static int flag_line(MenuParser *p, const char *key, const char *val)
{
	MenuFlag *f = &p->m->flags[p->m->nflags - 1];
	const char **dst = !strcmp(key, "top") ? &f->top : &f->bottom;
	*dst = arena_printf(p->a, "%s%s\n", *dst, val);
	p->last = NULL;
	return 0;
}

static int keyval(MenuParser *p, const char *s, size_t n)
{
	const char *colon = memchr(s, ':', n);
	if (!colon || p->sec == SEC_NONE)
		return bad(p, p->sec == SEC_NONE ? "text before the first section"
		                                 : "expected 'key: value'");
	char *key = trim(p->a, s, (size_t)(colon - s));
	char *val = trim(p->a, colon + 1, (size_t)(s + n - colon - 1));
	if (p->sec == SEC_FLAGS && (!strcmp(key, "top") || !strcmp(key, "bottom")))
		return flag_line(p, key, val);
	if (p->sec == SEC_OPTION && !strcmp(key, "keep"))
		return keep_line(p, val);
	const char **dst = field(p, key);
	if (!dst)
		return bad(p, arena_printf(p->a, "unknown key '%s' in this section", key));
	*dst = val;
	p->last = dst;
	return 0;
}

static int line(MenuParser *p, const char *s, size_t n)
{
	size_t lead = strspn(s, " \t");
	if (lead >= n || s[lead] == '#' || s[lead] == '\r')
		return 0;
	if (lead > 0) {
		if (!p->last)
			return bad(p, "continuation line with no value to continue");
		*p->last = arena_printf(p->a, "%s %s", *p->last, trim(p->a, s, n));
		return 0;
	}
	if (s[0] == '[')
		return section(p, s, n);
	return keyval(p, s, n);
}

int menu_parse(Arena *a, const char *path, const char *text, size_t len, Menu *out)
{
	memset(out, 0, sizeof *out);
	out->path = path;
	out->about = "";
	MenuParser p = {.a = a, .path = path, .m = out};
	diag_source(path, text, len);
	const char *s = text, *end = text + len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
		p.line++;
		if (line(&p, s, n))
			return -1;
		s += n + (nl != NULL);
	}
	if (out->nopts == 0 && out->nflags == 0) {
		p.line = 0;
		return bad(&p, "the menu has no [option NAME] or [flags NAME] section");
	}
	return 0;
}

int menu_load(Arena *a, const char *target, const char *file, Menu *out)
{
	if (file) {
		char *text;
		size_t len;
		int e = file_read_max(a, file, KCC_INPUT_MAX, &text, &len);
		if (e) {
			diag_error("cannot read the menu '%s': %s", file, file_error(e));
			return -1;
		}
		return menu_parse(a, file, text, len, out);
	}
	const char *name = arena_printf(a, "menus/%s.menu", target);
	size_t len;
	const char *text = passes_builtin(name, &len);
	if (!text) {
		diag_error("no menu for the target '%s'", target);
		diag_note("write one (docs/menus.md) and pass it with --menu=FILE");
		return -1;
	}
	return menu_parse(a, name, text, len, out);
}

const MenuOption *menu_find(const Menu *m, const char *name)
{
	for (int i = 0; i < m->nopts; i++)
		if (!strcmp(m->opts[i].name, name))
			return &m->opts[i];
	return NULL;
}

/* ---- keep: lines against the facts -------------------------------------------- */

static bool one_of(const char *have, const char *alts)
{
	size_t n = strlen(have);
	for (const char *v = alts; *v;) {
		size_t w = strcspn(v, "|");
		if (w == n && !strncmp(v, have, n))
			return true;
		v += w + (v[w] == '|');
	}
	return false;
}

static bool compare(double x, MenuOp op, double y)
{
	switch (op) {
	case MC_EQ: return x == y;
	case MC_NE: return x != y;
	case MC_LT: return x < y;
	case MC_LE: return x <= y;
	case MC_GT: return x > y;
	case MC_GE: return x >= y;
	}
	return false;
}

static bool holds(const MenuCond *c, const MenuFacts *f)
{
	const char *fact = !strcmp(c->name, "type")    ? f->type
	                   : !strcmp(c->name, "bound") ? f->bound
	                   : !strcmp(c->name, "arch")  ? f->arch
	                                               : NULL;
	bool named = !strcmp(c->name, "type") || !strcmp(c->name, "bound") ||
	             !strcmp(c->name, "arch");
	if (named) {
		if (!fact)
			return false;
		if (c->op == MC_EQ || c->op == MC_NE)
			return one_of(fact, c->value) == (c->op == MC_EQ);
		double x;
		return number(fact, &x) && compare(x, c->op, c->num);
	}
	const ProfileMetric *m = f->profile ? profile_get(f->profile, c->name) : NULL;
	return m && compare(m->value, c->op, c->num);
}

const char *menu_keeps(const MenuOption *o, const MenuFacts *f)
{
	for (int i = 0; i < o->nkeep; i++) {
		int k = 0;
		while (k < o->keep[i].n && holds(&o->keep[i].c[k], f))
			k++;
		if (k == o->keep[i].n)
			return o->keep[i].text;
	}
	return NULL;
}
