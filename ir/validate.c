/*
 * validate.c — spec_validate(): the spec checked against the entry's
 * signature, so that every later stage can trust it.
 *
 * Every pointer parameter has exactly one `param` line whose element type
 * matches its pointee; every scalar is bound by every shape; integer inputs
 * have a range; every extent, range, flops and bytes evaluates at every
 * shape, and extents are positive. Each error points at the pragma (or the
 * parameter) and says how to fix it, suggesting the nearest name for typos.
 */
#include "ir.h"

#include <ctype.h>
#include <string.h>

typedef struct {
	Unit *u;
	Arena *a;
	int errors;
	const char **scalars; /* names of the entry's scalar parameters */
	int nscalars;
	size_t scalars_cap;
} V;

static const CParam *cparam(const Unit *u, const char *name, int *index)
{
	for (int i = 0; i < u->nparams; i++)
		if (strcmp(u->params[i].name, name) == 0) {
			if (index)
				*index = i;
			return &u->params[i];
		}
	return NULL;
}

static const char *const *param_names(V *v)
{
	const char **names = arena_alloc(v->a, (size_t)(v->u->nparams + 1) * sizeof *names);
	for (int i = 0; i < v->u->nparams; i++)
		names[i] = v->u->params[i].name;
	return names;
}

static const char *role_for(const CParam *p)
{
	return p->pointee_const ? "in" : "out";
}

static void check_param_lines(V *v)
{
	Unit *u = v->u;
	Spec *s = &u->spec;
	for (int i = 0; i < s->nparams; i++) {
		SpecParam *sp = &s->params[i];
		int idx;
		const CParam *cp = cparam(u, sp->name, &idx);
		if (!cp) {
			error_at(sp->loc, "'%s' is not a parameter of '%s'", sp->name, s->entry);
			const char *near = nearest_word(sp->name, param_names(v), (size_t)u->nparams);
			if (near)
				diag_note("did you mean '%s'?", near);
			v->errors++;
			continue;
		}
		sp->arg_index = idx;
		if (!cp->is_pointer) {
			error_at(sp->loc, "'%s' is a scalar parameter; 'param' describes pointers",
			         sp->name);
			diag_note("scalars are bound by name in 'shape' lines: remove this line");
			v->errors++;
			continue;
		}
		if (cp->elem == ET_NONE) {
			error_at(cp->loc, "'%s' has type '%s', which kcc cannot fill or compare",
			         cp->name, cp->type);
			diag_note("element types are f64 f32 f16 bf16 i64 i32 i16 i8 u8");
			v->errors++;
			continue;
		}
		if (cp->elem != sp->type) {
			error_at(sp->type_loc, "'%s' is declared '%s' but the spec says %s",
			         sp->name, cp->type, elem_name(sp->type));
			diag_note("write %s, or change the parameter's type", elem_name(cp->elem));
			v->errors++;
		}
		if (cp->pointee_const && sp->role != ROLE_IN) {
			error_at(sp->loc, "'%s' points to const but its role is '%s'", sp->name,
			         role_name(sp->role));
			diag_note("a const pointer can only be an 'in' parameter");
			v->errors++;
		}
		if (sp->lo && sp->role == ROLE_OUT) {
			error_at(sp->range_loc, "range() on 'out' parameter '%s' has no effect",
			         sp->name);
			diag_note("a range says how to fill inputs; remove it");
			v->errors++;
		}
		if (!sp->lo && sp->role != ROLE_OUT && !elem_is_float(sp->type)) {
			error_at(sp->loc, "integer input '%s' needs a range", sp->name);
			diag_note("say which values are valid, e.g. '#pragma kcc param %s %s %s[...] "
			          "range(0,N)' (lo inclusive, hi exclusive)",
			          sp->name, role_name(sp->role), elem_name(sp->type));
			v->errors++;
		}
	}
	for (int i = 0; i < u->nparams; i++) {
		const CParam *cp = &u->params[i];
		if (!cp->is_pointer)
			continue;
		bool found = false;
		for (int k = 0; k < s->nparams; k++)
			found |= strcmp(s->params[k].name, cp->name) == 0;
		if (!found) {
			error_at(cp->loc, "pointer parameter '%s' has no '#pragma kcc param' line",
			         cp->name);
			diag_note("add '#pragma kcc param %s %s %s[EXTENT]'", cp->name, role_for(cp),
			          cp->elem ? elem_name(cp->elem) : "TYPE");
			v->errors++;
		}
	}
}

static void check_scalars(V *v)
{
	Unit *u = v->u;
	for (int i = 0; i < u->nparams; i++) {
		const CParam *cp = &u->params[i];
		if (cp->is_pointer)
			continue;
		if (!cp->is_integer_scalar) {
			error_at(cp->loc, "scalar parameter '%s' has type '%s'; shapes bind integers",
			         cp->name, cp->type);
			diag_note("make it an integer size, or a compile-time constant in the file");
			v->errors++;
			continue;
		}
		ARENA_PUSH(v->a, v->scalars, v->nscalars, v->scalars_cap, cp->name);
	}
}

/* Does any expression of the spec use name? */
static void find_name(const Expr *e, void *ctx)
{
	const char **want = ctx;
	if (*want && strcmp(e->name, *want) == 0)
		*want = NULL;
}

static bool used_in_exprs(const Spec *s, const char *name)
{
	const char *want = name;
	for (int i = 0; i < s->nparams && want; i++) {
		expr_names(s->params[i].extent, find_name, &want);
		expr_names(s->params[i].lo, find_name, &want);
		expr_names(s->params[i].hi, find_name, &want);
	}
	expr_names(s->flops, find_name, &want);
	expr_names(s->bytes, find_name, &want);
	return want == NULL;
}

static void check_shape(V *v, const Shape *sh, const char *kind)
{
	Spec *s = &v->u->spec;
	for (int i = 0; i < v->nscalars; i++) {
		bool found;
		shape_get(sh, v->scalars[i], &found);
		if (found)
			continue;
		error_at(sh->loc, "this %s shape does not bind '%s'", kind, v->scalars[i]);
		/* A typo is a name the shape binds that is not a scalar. */
		const char **extra = arena_alloc(v->a, (size_t)(sh->n + 1) * sizeof *extra);
		int nextra = 0;
		for (int k = 0; k < sh->n; k++) {
			bool scalar = false;
			for (int j = 0; j < v->nscalars; j++)
				scalar |= strcmp(v->scalars[j], sh->names[k]) == 0;
			if (!scalar)
				extra[nextra++] = sh->names[k];
		}
		const char *near = nearest_word(v->scalars[i], extra, (size_t)nextra);
		if (near)
			diag_note("did you mean '%s' instead of '%s'?", v->scalars[i], near);
		else
			diag_note("add %s=VALUE: every scalar parameter of '%s' is bound by every "
			          "shape", v->scalars[i], s->entry);
		v->errors++;
	}
	for (int i = 0; i < sh->n; i++) {
		bool scalar = false;
		for (int k = 0; k < v->nscalars; k++)
			scalar |= strcmp(v->scalars[k], sh->names[i]) == 0;
		if (scalar || used_in_exprs(s, sh->names[i]))
			continue;
		error_at(sh->loc, "'%s' is neither a parameter of '%s' nor used by the spec",
		         sh->names[i], s->entry);
		const char *near = nearest_word(sh->names[i], v->scalars, (size_t)v->nscalars);
		if (near)
			diag_note("did you mean '%s'?", near);
		v->errors++;
	}
}

/* Where an expression's text begins (a binary node's loc is its operator). */
static Loc expr_start(const Expr *e)
{
	Loc l = e->loc;
	for (; e; e = e->lhs)
		if (e->kind != EX_MIN && e->kind != EX_MAX && e->loc.col < l.col)
			l = e->loc;
	return l;
}

static bool eval_at(V *v, const Expr *e, const Shape *sh, int64_t *out, const char *what)
{
	const char *why;
	const Expr *bad = NULL;
	if (expr_eval(e, sh, out, &why, &bad) == 0)
		return true;
	Loc at = bad ? bad->loc : e->loc;
	if (bad && bad->kind == EX_NAME) {
		error_at(at, "'%s' in %s is not bound by the shape", bad->name, what);
		const char *near = nearest_word(bad->name, sh->names, (size_t)sh->n);
		if (near)
			diag_note("did you mean '%s'?", near);
		else
			note_at(sh->loc, "the shape is given here");
	} else {
		error_at(at, "%s in %s", why, what);
		note_at(sh->loc, "evaluated at this shape");
	}
	v->errors++;
	return false;
}

static void check_exprs(V *v, const Shape *sh)
{
	Spec *s = &v->u->spec;
	for (int i = 0; i < s->nparams; i++) {
		SpecParam *p = &s->params[i];
		const char *what = arena_printf(v->a, "the extent of '%s'", p->name);
		int64_t n;
		if (p->extent && eval_at(v, p->extent, sh, &n, what) && n <= 0) {
			error_at(expr_start(p->extent), "the extent of '%s' is %lld at this shape; it must be "
			         "positive", p->name, (long long)n);
			note_at(sh->loc, "evaluated at this shape");
			v->errors++;
		}
		int64_t lo, hi;
		if (p->lo && eval_at(v, p->lo, sh, &lo, "the range") &&
		    eval_at(v, p->hi, sh, &hi, "the range") && lo >= hi) {
			error_at(p->range_loc, "empty range [%lld, %lld) for '%s'", (long long)lo,
			         (long long)hi, p->name);
			diag_note("range(LO,HI) includes LO and excludes HI; HI must be above LO");
			v->errors++;
		}
	}
	int64_t n;
	if (s->flops && eval_at(v, s->flops, sh, &n, "'flops'") && n < 0) {
		error_at(s->flops->loc, "'flops' is negative at this shape");
		v->errors++;
	}
	if (s->bytes && eval_at(v, s->bytes, sh, &n, "'bytes'") && n < 0) {
		error_at(s->bytes->loc, "'bytes' is negative at this shape");
		v->errors++;
	}
}

static bool ident_char(char c)
{
	return c == '_' || isalnum((unsigned char)c);
}

static bool in_pragma(const Unit *u, size_t off)
{
	for (int k = 0; k < u->spec.nlines; k++)
		if (off >= u->spec.lines[k].begin && off < u->spec.lines[k].end)
			return true;
	return false;
}

/* Is name used as an identifier in the code (not in comments, strings or
 * the kcc pragmas)? */
static bool code_uses(const Unit *u, const char *name)
{
	size_t n = strlen(name);
	const char *p = u->text, *end = u->text + u->len;
	while (p < end) {
		if (p[0] == '/' && p + 1 < end && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else if (p[0] == '/' && p + 1 < end && p[1] == '*') {
			const char *close = strstr(p + 2, "*/");
			p = close ? close + 2 : end;
		} else if (*p == '"' || *p == '\'') {
			char q = *p++;
			while (p < end && *p != q && *p != '\n')
				p += *p == '\\' ? 2 : 1;
			p++;
		} else if (ident_char(*p)) {
			const char *w = p;
			while (p < end && ident_char(*p))
				p++;
			if ((size_t)(p - w) == n && !strncmp(w, name, n) &&
			    !in_pragma(u, (size_t)(w - u->text)))
				return true;
		} else
			p++;
	}
	return false;
}

static void check_tune(V *v)
{
	const Unit *u = v->u;
	for (int i = 0; i < u->spec.ntune; i++) {
		const TuneParam *t = &u->spec.tune[i];
		if (!code_uses(u, t->name))
			warning_at(t->loc, "tune parameter '%s' is not used in the code", t->name);
	}
}

int spec_validate(Unit *u)
{
	Spec *s = &u->spec;
	Arena *a = arena_new();
	V v = {.u = u, .a = a};
	check_param_lines(&v);
	check_scalars(&v);
	if (s->ncheck == 0) {
		error_at((Loc){u->path, s->entry_loc.line, 0}, "no '#pragma kcc shape check' line");
		diag_note("give the shapes used to prove equivalence, awkward sizes included: "
		          "'#pragma kcc shape check M=127 N=129; M=256 N=256'");
		v.errors++;
	}
	if (!s->has_bench) {
		error_at((Loc){u->path, s->entry_loc.line, 0}, "no '#pragma kcc shape bench' line");
		diag_note("give the size that is timed: '#pragma kcc shape bench M=4096 N=4096'");
		v.errors++;
	}
	for (int i = 0; i < s->ncheck; i++)
		check_shape(&v, &s->check[i], "check");
	if (s->has_bench)
		check_shape(&v, &s->bench, "bench");
	if (!v.errors) {
		for (int i = 0; i < s->ncheck; i++)
			check_exprs(&v, &s->check[i]);
		if (s->has_bench)
			check_exprs(&v, &s->bench);
	}
	check_tune(&v);
	int errors = v.errors;
	arena_free(a);
	return errors;
}

int spec_extent(const SpecParam *p, const Shape *s, int64_t *n, const char **why)
{
	return expr_eval(p->extent, s, n, why, NULL);
}
