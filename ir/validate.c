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
	bool *fp;             /* ... and whether each is floating-point */
	int nscalars;
	size_t scalars_cap, fp_cap;
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
		if (sp->lo && (sp->role == ROLE_OUT || sp->role == ROLE_SCRATCH)) {
			error_at(sp->range_loc, "range() on '%s' parameter '%s' has no effect",
			         role_name(sp->role), sp->name);
			diag_note("a range says how to fill inputs; remove it");
			v->errors++;
		}
		if (!sp->lo && (sp->role == ROLE_IN || sp->role == ROLE_INOUT) &&
		    !elem_is_float(sp->type)) {
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
		if (!cp->is_integer_scalar && !cp->is_float_scalar) {
			error_at(cp->loc, "scalar parameter '%s' has type '%s', which a shape cannot "
			         "bind", cp->name, cp->type);
			diag_note("shapes bind integers and floating-point scalars (float, double) "
			          "by name; pass anything else through a pointer with a 'param' "
			          "line");
			v->errors++;
			continue;
		}
		int n = v->nscalars;
		ARENA_PUSH(v->a, v->fp, n, v->fp_cap, cp->is_float_scalar);
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
		if (found && !v->fp[i] && shape_is_real(sh, v->scalars[i])) {
			error_at(sh->loc, "integer parameter '%s' is bound to a real value in this %s "
			         "shape", v->scalars[i], kind);
			diag_note("write an integer; real values bind float and double parameters");
			v->errors++;
			continue;
		}
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
	if (bad && bad->kind == EX_NAME && shape_is_real(sh, bad->name)) {
		error_at(at, "'%s' in %s is a real value at this shape; %s needs integers",
		         bad->name, what, what);
		note_at(sh->loc, "evaluated at this shape");
	} else if (bad && bad->kind == EX_NAME) {
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

/* T a[n][m]: the extent must be n*m elements; T (*a)[m] or T a[][m]: a
 * whole number of rows of m. Dimensions kcc cannot evaluate from the shape
 * (a global, a macro that is not a constant) are left unchecked. */
static void check_dims(V *v, const SpecParam *p, const Shape *sh, int64_t n)
{
	if (p->arg_index < 0)
		return;
	const CParam *cp = &v->u->params[p->arg_index];
	if (!cp->is_array)
		return;
	int64_t inner = 1, outer = -1;
	Strbuf dims = STRBUF_INIT;
	for (int d = 0; d < cp->ndims; d++) {
		int64_t x;
		const char *why;
		if (!cp->dims[d] || expr_eval(cp->dims[d], sh, &x, &why, NULL) != 0) {
			if (d > 0) {
				sb_release(&dims);
				return;
			}
			continue;
		}
		sb_addf(&dims, "%s%lld", dims.len ? "*" : "", (long long)x);
		if (d == 0)
			outer = x;
		else if (__builtin_mul_overflow(inner, x, &inner)) {
			sb_release(&dims);
			return;
		}
	}
	int64_t want;
	bool bad = outer >= 0 ? __builtin_mul_overflow(outer, inner, &want) || n != want
	                      : inner <= 0 || n % inner != 0;
	if (bad) {
		if (outer >= 0)
			error_at(expr_start(p->extent), "the extent of '%s' is %lld at this shape, but "
			         "its declaration '%s' has %s = %lld elements", p->name, (long long)n,
			         cp->type, sb_str(&dims), (long long)want);
		else
			error_at(expr_start(p->extent), "the extent of '%s' is %lld at this shape, not "
			         "a whole number of rows of %lld elements as declared '%s'", p->name,
			         (long long)n, (long long)inner, cp->type);
		note_at(sh->loc, "evaluated at this shape");
		note_at(cp->loc, "'%s' is declared here", p->name);
		v->errors++;
	}
	sb_release(&dims);
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
		} else if (p->extent && n > 0)
			check_dims(v, p, sh, n);
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

/* A return value kcc can compare is an output named 'return'; void, and an
 * enum (a status such as cudaError_t: non-zero fails the call), are not. */
static void check_return(V *v)
{
	Unit *u = v->u;
	if (!u->entry_ret || !strcmp(u->entry_ret, "void") || u->ret_elem != ET_NONE ||
	    u->ret_is_status)
		return;
	error_at(u->entry.loc, "the entry '%s' returns '%s', which kcc cannot compare",
	         u->entry.name, u->entry_ret);
	diag_note("return void or a number (compared like an output), or return results "
	          "through a pointer with a 'param' line");
	v->errors++;
}

/* The return value as the output 'return' of one element: poisoned,
 * compared and required written like any output. */
void spec_add_return(Unit *u, Arena *a)
{
	if (u->ret_elem == ET_NONE)
		return;
	Spec *s = &u->spec;
	Expr *one = arena_alloc(a, sizeof *one);
	*one = (Expr){.kind = EX_NUM, .num = 1, .loc = u->entry.loc};
	SpecParam p = {.name = "return", .role = ROLE_OUT, .type = u->ret_elem,
	               .extent = one, .loc = u->entry.loc, .type_loc = u->entry.loc,
	               .arg_index = -2};
	ARENA_PUSH(a, s->params, s->nparams, s->nparams_cap, p);
}

int spec_validate(Unit *u)
{
	Spec *s = &u->spec;
	Arena *a = arena_new();
	V v = {.u = u, .a = a};
	check_param_lines(&v);
	check_scalars(&v);
	check_return(&v);
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
