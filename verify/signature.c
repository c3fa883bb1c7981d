/*
 * signature.c — the static checks of a parsed candidate (DESIGN 5.1): the
 * entry and its signature as the caller sees it, the spec's pragmas (only
 * `tune` lines may be added: Unit.spec_hash), and the lexical scan for
 * forbidden constructs (scan.c).
 */
#include "internal.h"

#include <string.h>

/* A parameter type as the caller sees it: restrict qualifiers and
 * top-level const do not change the interface (C11 6.7.6.3p15). */
static char *caller_type(Arena *a, const char *t)
{
	Strbuf sb = STRBUF_INIT;
	for (const char *p = t; *p;) {
		if (*p == ' ' || *p == '\t') {
			p++;
			continue;
		}
		size_t n = *p == '*' ? 1 : strcspn(p, " \t*");
		if (!(n == 8 && !strncmp(p, "restrict", 8)) &&
		    !(n == 12 && !strncmp(p, "__restrict__", 12)) &&
		    !(n == 10 && !strncmp(p, "__restrict", 10))) {
			if (sb.len)
				sb_addc(&sb, ' ');
			sb_addn(&sb, p, n);
		}
		p += n;
	}
	char *s = sb_to_arena(&sb, a);
	char *star = strrchr(s, '*');
	char *c = strstr(star ? star : s, "const");
	if (c && (!star || c > star)) /* top-level const: after the last '*' */
		memmove(c, c + 5, strlen(c + 5) + 1);
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = 0;
	while (*s == ' ')
		s++;
	return s;
}

static bool same_signature(Arena *a, const Unit *x, const Unit *y)
{
	const char *ex = x->spec.entry ? x->spec.entry : "", *ey = y->spec.entry ? y->spec.entry : "";
	if (strcmp(ex, ey) || x->nparams != y->nparams || !y->entry.name ||
	    strcmp(x->entry_ret ? x->entry_ret : "", y->entry_ret ? y->entry_ret : ""))
		return false;
	for (int i = 0; i < x->nparams; i++)
		if (strcmp(caller_type(a, x->params[i].type), caller_type(a, y->params[i].type)) ||
		    strcmp(x->params[i].name, y->params[i].name))
			return false;
	return true;
}

int vr_static_checks(VerifyRef *r, const Unit *c, Verdict *v)
{
	v->check = "static";
	if (!c) {
		vr_reject(v, VR_PARSE, "the candidate does not parse");
		return -1;
	}
	if (!same_signature(r->a, r->u, c)) {
		vr_reject(v, VR_SIGNATURE, arena_printf(r->a, "the entry '%s' is missing or its "
		                                              "signature changed",
		                                        r->u->spec.entry));
		return -1;
	}
	if (strcmp(r->u->spec_hash, c->spec_hash)) {
		vr_reject(v, VR_PRAGMA, "the `#pragma kcc` lines changed (only `tune` may be added)");
		return -1;
	}
	const char *what;
	int line;
	bool streams;
	if (verify_scan(c->text, c->len, c->lang, r->o.allow_libs, &what, &line, &streams) !=
	    VR_OK) {
		vr_reject(v, VR_FORBIDDEN, arena_printf(r->a, "%s:%d: %s", c->path ? c->path : "",
		                                        line, what));
		return -1;
	}
	if (streams)
		vr_verdict_note(r->a, v, "the candidate creates CUDA streams; the escaped-work "
		                      "check applies");
	return 0;
}
