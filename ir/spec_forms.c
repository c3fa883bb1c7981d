/*
 * spec_forms.c — one small parser per form of `#pragma kcc` (DESIGN.md
 * section 2: entry, param, shape, tolerance, flops, bytes, tune), called by
 * spec.c's scanner for each pragma line. Every error points at the column
 * of the offending word and suggests the nearest valid word when there is
 * one.
 */
#include "spec.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static Loc here(Cur *c, const char *where)
{
	return (Loc){c->u->path, c->lineno, (int)(where - c->line) + 1};
}

static void skipws(Cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static bool at_end(Cur *c)
{
	skipws(c);
	return c->p >= c->end;
}

static bool is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* The next identifier, or NULL (cursor unmoved) if there is none. */
static char *word(Cur *c)
{
	skipws(c);
	const char *s = c->p;
	while (c->p < c->end && is_ident(*c->p))
		c->p++;
	return c->p > s ? arena_strndup(c->a, s, (size_t)(c->p - s)) : NULL;
}

static void err(Cur *c, const char *where, const char *fmt, const char *arg)
{
	error_at(here(c, where), fmt, arg);
	c->errors++;
}

static void suggest(const char *got, const char *const *cands, size_t n)
{
	const char *near = nearest_word(got, cands, n);
	if (near)
		diag_note("did you mean '%s'?", near);
}

/* Text up to the matching close bracket, nesting-aware; NULL if unclosed. */
static const char *until_close(Cur *c, char open, char close)
{
	int depth = 1;
	for (const char *q = c->p; q < c->end; q++) {
		if (*q == open)
			depth++;
		else if (*q == close && --depth == 0)
			return q;
	}
	return NULL;
}

static Expr *sub_expr(Cur *c, const char *s, const char *e)
{
	char *text = arena_strndup(c->a, s, (size_t)(e - s));
	Expr *x = expr_parse(c->a, text, here(c, s));
	if (!x)
		c->errors++;
	return x;
}

static void expect_end(Cur *c, const char *what)
{
	if (!at_end(c))
		err(c, c->p, "unexpected text after %s", what);
}

/* ---- the forms ------------------------------------------------------------- */

static void p_entry(Cur *c)
{
	Spec *s = &c->u->spec;
	const char *at = (skipws(c), c->p);
	char *name = word(c);
	if (!name) {
		err(c, at, "expected the entry function's name after '%s'", "entry");
		diag_note("write '#pragma kcc entry NAME' where NAME is the host function kcc calls");
		return;
	}
	if (s->entry) {
		err(c, at, "duplicate '%s' pragma", "entry");
		note_at(s->entry_loc, "the entry was first named here");
		return;
	}
	s->entry = name;
	s->entry_loc = here(c, at);
	expect_end(c, "the entry's name");
}

static void p_param(Cur *c)
{
	Spec *s = &c->u->spec;
	SpecParam p = {.arg_index = -1};
	const char *at = (skipws(c), c->p);
	p.name = word(c);
	if (!p.name) {
		err(c, at, "expected a parameter name after '%s'", "param");
		diag_note("write '#pragma kcc param NAME in|out|inout TYPE[EXTENT]'");
		return;
	}
	p.loc = here(c, at);
	for (int i = 0; i < s->nparams; i++)
		if (strcmp(s->params[i].name, p.name) == 0) {
			err(c, at, "duplicate 'param' line for '%s'", p.name);
			note_at(s->params[i].loc, "'%s' was first described here", p.name);
			return;
		}

	static const char *const roles[] = {"in", "out", "inout", "scratch"};
	at = (skipws(c), c->p);
	char *role = word(c);
	int r = -1;
	for (int i = 0; role && i < 4; i++)
		if (strcmp(role, roles[i]) == 0)
			r = i;
	if (r < 0) {
		if (role)
			err(c, at, "unknown role '%s'", role);
		else
			err(c, at, "expected a role (in, out, inout or scratch) for '%s'", p.name);
		if (role)
			suggest(role, roles, 4);
		diag_note("a role is 'in' (read only), 'out' (fully written), 'inout' or "
		          "'scratch' (a workspace: never compared)");
		return;
	}
	p.role = (Role)r;

	at = (skipws(c), c->p);
	char *type = word(c);
	p.type = type ? elem_parse(type) : ET_NONE;
	p.type_loc = here(c, at);
	if (p.type == ET_NONE) {
		static const char *const types[] = {"f64", "f32", "f16", "bf16", "i64",
		                                    "i32", "i16", "i8",  "u8"};
		if (type)
			err(c, at, "unknown element type '%s'", type);
		else
			err(c, at, "expected an element type for '%s'", p.name);
		if (type)
			suggest(type, types, ARRAY_LEN(types));
		diag_note("element types are f64 f32 f16 bf16 i64 i32 i16 i8 u8");
		return;
	}
	skipws(c);
	if (c->p >= c->end || *c->p != '[') {
		err(c, c->p, "expected '[EXTENT]' after the element type of '%s'", p.name);
		diag_note("for example: #pragma kcc param %s %s %s[M*K]", p.name, roles[r],
		          type);
		return;
	}
	const char *open = c->p++;
	const char *close = until_close(c, '[', ']');
	if (!close) {
		err(c, open, "unterminated '%s'", "[");
		return;
	}
	if (!(p.extent = sub_expr(c, c->p, close)))
		return;
	c->p = close + 1;

	skipws(c);
	if (c->p < c->end) {
		at = c->p;
		char *kw = word(c);
		if (!kw || strcmp(kw, "range") != 0) {
			err(c, at, "expected 'range(LO,HI)' or the end of the line, found '%s'",
			    kw ? kw : arena_strndup(c->a, at, 1));
			return;
		}
		p.range_loc = here(c, at);
		skipws(c);
		if (c->p >= c->end || *c->p != '(') {
			err(c, c->p, "expected '(' after '%s'", "range");
			return;
		}
		open = ++c->p;
		close = until_close(c, '(', ')');
		if (!close) {
			err(c, open - 1, "unterminated '%s'", "range(");
			return;
		}
		const char *comma = NULL;
		int depth = 0;
		for (const char *q = open; q < close; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')')
				depth--;
			else if (*q == ',' && depth == 0 && !comma)
				comma = q;
		}
		if (!comma) {
			err(c, open - 1, "expected 'range(LO,HI)' with two bounds%s", "");
			return;
		}
		if (!(p.lo = sub_expr(c, open, comma)) || !(p.hi = sub_expr(c, comma + 1, close)))
			return;
		c->p = close + 1;
		expect_end(c, "the range");
	}
	ARENA_PUSH(c->a, s->params, s->nparams, s->nparams_cap, p);
}

/* A real number (1.5, -0.5, 1e-3, 2.0): binds floating-point scalars only. */
static bool real_value(Cur *c, const char *vs, double *v, const char **endp)
{
	char *e;
	errno = 0;
	*v = strtod(vs, &e);
	*endp = e;
	if (e == vs || errno || (e < c->end && is_ident(*e)) || !isfinite(*v))
		return false;
	for (const char *q = vs; q < e; q++)
		if (*q == '.' || *q == 'e' || *q == 'E')
			return true;
	return false;
}

/* NAME=VALUE NAME=VALUE ... up to ';' or the end; returns false after an
 * error. A VALUE is an integer, or a real number for a floating-point
 * scalar. */
static bool parse_binding(Cur *c, Shape *sh, size_t *cap)
{
	sh->loc = (skipws(c), here(c, c->p));
	while (!at_end(c) && *c->p != ';') {
		const char *at = c->p;
		char *name = word(c);
		if (!name) {
			err(c, at, "expected NAME=VALUE in the shape, found '%s'",
			    arena_strndup(c->a, at, 1));
			return false;
		}
		skipws(c);
		if (c->p >= c->end || *c->p != '=') {
			err(c, c->p, "expected '=' after '%s'", name);
			return false;
		}
		c->p++;
		skipws(c);
		const char *vs = c->p;
		errno = 0;
		char *endp;
		long long v = strtoll(vs, &endp, 10);
		double rv = 0;
		const char *rend;
		bool real = real_value(c, vs, &rv, &rend);
		if (real) {
			v = 0;
			endp = (char *)rend;
		} else if (endp == vs || errno || (endp < c->end && is_ident(*endp))) {
			err(c, vs, "expected a number for '%s'", name);
			diag_note("an integer (a size) or a real number such as 1.5 (for a "
			          "floating-point scalar)");
			return false;
		}
		c->p = endp;
		for (int i = 0; i < sh->n; i++)
			if (strcmp(sh->names[i], name) == 0) {
				err(c, at, "'%s' is bound twice in this shape", name);
				return false;
			}
		if ((size_t)sh->n == *cap) {
			size_t nc = *cap ? 2 * *cap : 8;
			sh->names = arena_realloc(c->a, sh->names, *cap * sizeof(char *),
			                          nc * sizeof(char *));
			sh->values = arena_realloc(c->a, sh->values, *cap * sizeof(int64_t),
			                           nc * sizeof(int64_t));
			sh->reals = arena_realloc(c->a, sh->reals, *cap * sizeof(double),
			                          nc * sizeof(double));
			sh->real = arena_realloc(c->a, sh->real, *cap * sizeof(bool),
			                         nc * sizeof(bool));
			*cap = nc;
		}
		sh->names[sh->n] = name;
		sh->reals[sh->n] = real ? rv : (double)v;
		sh->real[sh->n] = real;
		sh->values[sh->n++] = (int64_t)v;
		skipws(c);
		if (c->p < c->end && *c->p == ',')
			c->p++; /* allow "M=1, N=2" */
	}
	if (sh->n == 0) {
		err(c, c->p, "empty shape%s", "");
		diag_note("write NAME=VALUE for every scalar parameter, e.g. M=127 N=129");
		return false;
	}
	return true;
}

static void p_shape(Cur *c)
{
	Spec *s = &c->u->spec;
	const char *at = (skipws(c), c->p);
	char *kind = word(c);
	bool bench = kind && strcmp(kind, "bench") == 0;
	if (!kind || (!bench && strcmp(kind, "check") != 0)) {
		static const char *const kinds[] = {"check", "bench"};
		if (kind)
			err(c, at, "unknown shape kind '%s'", kind);
		else
			err(c, at, "expected 'check' or 'bench' after '%s'", "shape");
		if (kind)
			suggest(kind, kinds, 2);
		diag_note("write '#pragma kcc shape check M=127 N=129; M=256 N=256' or "
		          "'#pragma kcc shape bench M=4096 N=4096'");
		return;
	}
	if (bench && s->has_bench) {
		err(c, at, "duplicate '%s' pragma", "shape bench");
		note_at(s->bench.loc, "the bench shape was first given here");
		return;
	}
	for (;;) {
		Shape sh = {0};
		size_t cap = 0;
		if (!parse_binding(c, &sh, &cap))
			return;
		if (bench) {
			s->bench = sh;
			s->has_bench = true;
			if (!at_end(c))
				err(c, c->p, "'shape bench' takes a single shape%s", "");
			return;
		}
		ARENA_PUSH(c->a, s->check, s->ncheck, s->ncheck_cap, sh);
		if (at_end(c))
			return;
		c->p++; /* ';' */
		if (at_end(c))
			return; /* a trailing ';' is fine */
	}
}

static void p_tolerance(Cur *c)
{
	Spec *s = &c->u->spec;
	const char *first = (skipws(c), c->p);
	if (s->has_tolerance) {
		err(c, first, "duplicate '%s' pragma", "tolerance");
		note_at(s->tolerance_loc, "the tolerance was first given here");
		return;
	}
	s->tolerance_loc = here(c, first);
	s->rtol = s->atol = -1;
	while (!at_end(c)) {
		const char *at = c->p;
		char *name = word(c);
		static const char *const keys[] = {"rtol", "atol"};
		bool r = name && strcmp(name, "rtol") == 0;
		if (!name || (!r && strcmp(name, "atol") != 0)) {
			err(c, at, "expected 'rtol=' or 'atol=', found '%s'",
			    name ? name : arena_strndup(c->a, at, 1));
			if (name)
				suggest(name, keys, 2);
			return;
		}
		skipws(c);
		if (c->p >= c->end || *c->p != '=') {
			err(c, c->p, "expected '=' after '%s'", name);
			return;
		}
		const char *vs = ++c->p;
		char *endp;
		errno = 0;
		double v = strtod(vs, &endp);
		if (endp == vs || errno || !(v >= 0) || v > 1e30 ||
		    (endp < c->end && !isspace((unsigned char)*endp))) {
			err(c, vs, "expected a non-negative number for '%s'", name);
			return;
		}
		c->p = endp;
		*(r ? &s->rtol : &s->atol) = v;
	}
	if (s->rtol < 0 && s->atol < 0) {
		err(c, first, "'tolerance' needs rtol=X, atol=Y or both%s", "");
		return;
	}
	if (s->rtol < 0)
		s->rtol = 0;
	if (s->atol < 0)
		s->atol = 0;
	s->has_tolerance = true;
}

static void p_count(Cur *c, Expr **slot, const char *what)
{
	const char *at = (skipws(c), c->p);
	if (*slot) {
		err(c, at, "duplicate '%s' pragma", what);
		return;
	}
	if (at >= c->end) {
		err(c, at, "expected an expression after '%s'", what);
		return;
	}
	*slot = sub_expr(c, at, c->end);
	c->p = c->end;
}

/* Bounds on `tune` (a candidate may add tune lines): more names or values
 * than any autotuner could build variants for is an error, and it keeps
 * the duplicate check below cheap. */
enum { SPEC_MAX_TUNE = 64, SPEC_MAX_TUNE_VALUES = 256 }; /* in the messages too */

static void p_tune(Cur *c)
{
	Spec *s = &c->u->spec;
	if (at_end(c)) {
		err(c, c->p, "expected NAME=V1,V2,... after '%s'", "tune");
		return;
	}
	while (!at_end(c)) {
		const char *at = c->p;
		TuneParam t = {.loc = here(c, at)};
		size_t cap = 0;
		t.name = word(c);
		if (!t.name || c->p >= c->end || *c->p != '=') {
			err(c, t.name ? c->p : at, "expected NAME=V1,V2,... in '%s'", "tune");
			return;
		}
		c->p++;
		for (;;) {
			const char *vs = c->p;
			while (c->p < c->end && *c->p != ',' && *c->p != ' ' && *c->p != '\t')
				c->p++;
			if (c->p == vs) {
				err(c, vs, "empty value in the list of '%s'", t.name);
				return;
			}
			if (t.nvalues == SPEC_MAX_TUNE_VALUES) {
				err(c, vs, "'%s' has more than 256 values", t.name);
				return;
			}
			ARENA_PUSH(c->a, t.values, t.nvalues, cap,
			           arena_strndup(c->a, vs, (size_t)(c->p - vs)));
			if (c->p < c->end && *c->p == ',') {
				c->p++;
				continue;
			}
			break;
		}
		for (int i = 0; i < s->ntune; i++)
			if (strcmp(s->tune[i].name, t.name) == 0) {
				err(c, at, "'%s' is tuned twice", t.name);
				return;
			}
		if (s->ntune == SPEC_MAX_TUNE) {
			err(c, at, "more than 64 tune parameters (at '%s')", t.name);
			return;
		}
		ARENA_PUSH(c->a, s->tune, s->ntune, s->ntune_cap, t);
	}
}

static const struct {
	const char *name;
	void (*fn)(Cur *);
} FORMS[] = {
    {"entry", p_entry}, {"param", p_param},         {"shape", p_shape},
    {"tolerance", p_tolerance}, {"flops", NULL},    {"bytes", NULL},
    {"tune", p_tune},
};

void spec_pragma(Cur *c)
{
	const char *at = (skipws(c), c->p);
	char *kind = word(c);
	if (!kind) {
		err(c, at, "expected a kcc pragma kind after '%s'", "#pragma kcc");
		diag_note("kinds are entry, param, shape, tolerance, flops, bytes, tune");
		return;
	}
	PragmaLine pl = {.line = c->lineno, .begin = (size_t)(c->line - c->u->text),
	                 .kind = kind};
	const char *eol = memchr(c->line, '\n', (size_t)(c->u->text + c->u->len - c->line));
	pl.end = (size_t)((eol ? eol : c->u->text + c->u->len) - c->u->text);
	Spec *s = &c->u->spec;
	ARENA_PUSH(c->a, s->lines, s->nlines, s->nlines_cap, pl);
	for (size_t i = 0; i < ARRAY_LEN(FORMS); i++) {
		if (strcmp(kind, FORMS[i].name) != 0)
			continue;
		if (!FORMS[i].fn)
			p_count(c, kind[0] == 'f' ? &s->flops : &s->bytes, kind);
		else
			FORMS[i].fn(c);
		return;
	}
	const char *names[ARRAY_LEN(FORMS)];
	for (size_t i = 0; i < ARRAY_LEN(FORMS); i++)
		names[i] = FORMS[i].name;
	err(c, at, "unknown kcc pragma '%s'", kind);
	suggest(kind, names, ARRAY_LEN(FORMS));
	diag_note("kinds are entry, param, shape, tolerance, flops, bytes, tune");
}
