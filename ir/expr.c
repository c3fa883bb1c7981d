/*
 * expr.c — the spec's integer expressions: extents (`M*K`), ranges, flops and
 * bytes, over the shape's names with + - * / % parentheses, min and max.
 *
 * Parsed once into a tree (so errors point at the exact column of the
 * pragma) and evaluated for each shape with overflow and division checks:
 * an extent that overflows int64 is a spec error, not a wrong allocation.
 *
 * The input may be hostile (a candidate's pragmas, a fuzzer): nesting is
 * limited to EXPR_MAX_DEPTH and the text to EXPR_MAX_LEN, so neither the
 * parser's recursion nor the tree's (evaluated and printed recursively)
 * can exhaust the stack.
 */
#include "ir.h"

#include <ctype.h>
#include <string.h>

enum { EXPR_MAX_DEPTH = 64, EXPR_MAX_LEN = 4096 };

typedef struct {
	Arena *a;
	const char *s, *p;
	Loc loc;
	bool failed;
	bool quiet; /* no diagnostics: the caller only asks whether it parses */
	int depth;
} P;

static Loc at(P *p, const char *where)
{
	Loc l = p->loc;
	l.col += (int)(where - p->s);
	return l;
}

static void fail(P *p, const char *where, const char *msg)
{
	if (!p->failed && !p->quiet)
		error_at(at(p, where), "%s", msg);
	p->failed = true;
}

static void skip(P *p)
{
	while (*p->p == ' ' || *p->p == '\t')
		p->p++;
}

static Expr *node(P *p, ExprKind k, const char *where, Expr *l, Expr *r)
{
	Expr *e = arena_alloc(p->a, sizeof *e);
	e->kind = k;
	e->lhs = l;
	e->rhs = r;
	e->loc = at(p, where);
	return e;
}

static Expr *parse_add(P *p);

/* After an operand: the character c, consumed; false (and msg at the
 * place) when the operand failed or c is not there. */
static bool expect(P *p, char c, const char *msg)
{
	skip(p);
	if (p->failed)
		return false;
	if (*p->p != c) {
		fail(p, p->p, msg);
		return false;
	}
	p->p++;
	return true;
}

static Expr *parse_primary(P *p)
{
	skip(p);
	const char *start = p->p;
	if (isdigit((unsigned char)*p->p)) {
		int64_t v = 0;
		while (isdigit((unsigned char)*p->p)) {
			if (__builtin_mul_overflow(v, 10, &v) ||
			    __builtin_add_overflow(v, *p->p - '0', &v)) {
				fail(p, start, "integer constant is too large");
				return NULL;
			}
			p->p++;
		}
		if (isalpha((unsigned char)*p->p) || *p->p == '_') {
			fail(p, p->p, "invalid suffix on integer constant");
			return NULL;
		}
		Expr *e = node(p, EX_NUM, start, NULL, NULL);
		e->num = v;
		return e;
	}
	if (isalpha((unsigned char)*p->p) || *p->p == '_') {
		while (isalnum((unsigned char)*p->p) || *p->p == '_')
			p->p++;
		size_t n = (size_t)(p->p - start);
		skip(p);
		bool is_min = n == 3 && !strncmp(start, "min", 3);
		bool is_max = n == 3 && !strncmp(start, "max", 3);
		if ((is_min || is_max) && *p->p == '(') {
			p->p++;
			Expr *l = parse_add(p);
			if (!expect(p, ',', is_min ? "expected ',' in min(a, b)"
			                           : "expected ',' in max(a, b)"))
				return NULL;
			Expr *r = parse_add(p);
			if (!expect(p, ')', "expected ')'"))
				return NULL;
			return node(p, is_min ? EX_MIN : EX_MAX, start, l, r);
		}
		Expr *e = node(p, EX_NAME, start, NULL, NULL);
		e->name = arena_strndup(p->a, start, n);
		return e;
	}
	if (*p->p == '(') {
		p->p++;
		Expr *e = parse_add(p);
		if (!expect(p, ')', "expected ')'"))
			return NULL;
		return e;
	}
	fail(p, p->p, *p->p ? "expected a number, a shape name or '('"
	                    : "expected an expression");
	return NULL;
}

static Expr *parse_unary(P *p)
{
	skip(p);
	if (++p->depth > EXPR_MAX_DEPTH) {
		fail(p, p->p, "expression is nested too deeply");
		return NULL;
	}
	Expr *e;
	if (*p->p == '-') {
		const char *start = p->p++;
		Expr *x = parse_unary(p);
		e = x ? node(p, EX_NEG, start, x, NULL) : NULL;
	} else if (*p->p == '+') {
		p->p++;
		e = parse_unary(p);
	} else
		e = parse_primary(p);
	p->depth--;
	return e;
}

static Expr *parse_mul(P *p)
{
	Expr *e = parse_unary(p);
	for (;;) {
		skip(p);
		char c = *p->p;
		if (p->failed || (c != '*' && c != '/' && c != '%'))
			return e;
		const char *op = p->p++;
		Expr *r = parse_unary(p);
		if (p->failed)
			return NULL;
		e = node(p, c == '*' ? EX_MUL : c == '/' ? EX_DIV : EX_MOD, op, e, r);
	}
}

static Expr *parse_add(P *p)
{
	Expr *e = parse_mul(p);
	for (;;) {
		skip(p);
		char c = *p->p;
		if (p->failed || (c != '+' && c != '-'))
			return e;
		const char *op = p->p++;
		Expr *r = parse_mul(p);
		if (p->failed)
			return NULL;
		e = node(p, c == '+' ? EX_ADD : EX_SUB, op, e, r);
	}
}

Expr *expr_parse(Arena *a, const char *text, Loc loc)
{
	P p = {a, text, text, loc, false, false, 0};
	if (strlen(text) > EXPR_MAX_LEN) {
		fail(&p, text, "expression is too long");
		return NULL;
	}
	Expr *e = parse_add(&p);
	skip(&p);
	if (!p.failed && *p.p)
		fail(&p, p.p, "unexpected character in expression");
	return p.failed ? NULL : e;
}

Expr *expr_parse_quiet(Arena *a, const char *text, Loc loc)
{
	P p = {a, text, text, loc, false, true, 0};
	if (strlen(text) > EXPR_MAX_LEN)
		return NULL;
	Expr *e = parse_add(&p);
	skip(&p);
	return p.failed || *p.p ? NULL : e;
}

int64_t shape_get(const Shape *s, const char *name, bool *found)
{
	for (int i = 0; s && i < s->n; i++)
		if (strcmp(s->names[i], name) == 0) {
			*found = true;
			return s->values[i];
		}
	*found = false;
	return 0;
}

double shape_get_real(const Shape *s, const char *name, bool *found)
{
	for (int i = 0; s && i < s->n; i++)
		if (strcmp(s->names[i], name) == 0) {
			*found = true;
			return s->real && s->real[i] ? s->reals[i] : (double)s->values[i];
		}
	*found = false;
	return 0;
}

bool shape_is_real(const Shape *s, const char *name)
{
	for (int i = 0; s && i < s->n; i++)
		if (strcmp(s->names[i], name) == 0)
			return s->real && s->real[i];
	return false;
}

int expr_eval(const Expr *e, const Shape *s, int64_t *out, const char **why,
              const Expr **bad)
{
	int64_t l = 0, r = 0;
	*why = NULL;
	switch (e->kind) {
	case EX_NUM:
		*out = e->num;
		return 0;
	case EX_NAME: {
		bool found;
		*out = shape_get(s, e->name, &found);
		if (!found || shape_is_real(s, e->name)) {
			*why = found ? "a real value where an integer is needed" : "unknown name";
			if (bad)
				*bad = e;
			return -1;
		}
		return 0;
	}
	default:
		break;
	}
	if (expr_eval(e->lhs, s, &l, why, bad))
		return -1;
	if (e->kind == EX_NEG) {
		if (l == INT64_MIN)
			goto overflow;
		*out = -l;
		return 0;
	}
	if (expr_eval(e->rhs, s, &r, why, bad))
		return -1;
	switch (e->kind) {
	case EX_ADD:
		if (__builtin_add_overflow(l, r, out))
			goto overflow;
		return 0;
	case EX_SUB:
		if (__builtin_sub_overflow(l, r, out))
			goto overflow;
		return 0;
	case EX_MUL:
		if (__builtin_mul_overflow(l, r, out))
			goto overflow;
		return 0;
	case EX_DIV:
	case EX_MOD:
		if (r == 0) {
			*why = "division by zero";
			if (bad)
				*bad = e;
			return -1;
		}
		if (l == INT64_MIN && r == -1)
			goto overflow;
		*out = e->kind == EX_DIV ? l / r : l % r;
		return 0;
	case EX_MIN:
		*out = l < r ? l : r;
		return 0;
	case EX_MAX:
		*out = l > r ? l : r;
		return 0;
	default:
		break;
	}
overflow:
	*why = "integer overflow";
	if (bad)
		*bad = e;
	return -1;
}

static int prec(ExprKind k)
{
	switch (k) {
	case EX_ADD:
	case EX_SUB:
		return 1;
	case EX_MUL:
	case EX_DIV:
	case EX_MOD:
		return 2;
	case EX_NEG:
		return 3;
	default:
		return 4;
	}
}

static void print(Strbuf *sb, const Expr *e, int outer, bool right)
{
	static const char ops[] = {[EX_ADD] = '+', [EX_SUB] = '-', [EX_MUL] = '*',
	                           [EX_DIV] = '/', [EX_MOD] = '%'};
	int pr = prec(e->kind);
	/* Parenthesize lower precedence, and equal precedence on the right
	 * of a left-associative operator: a-(b-c), a/(b*c). */
	bool paren = pr < outer || (right && pr == outer && pr < 3);
	if (paren)
		sb_addc(sb, '(');
	switch (e->kind) {
	case EX_NUM:
		sb_addf(sb, "%lld", (long long)e->num);
		break;
	case EX_NAME:
		sb_adds(sb, e->name);
		break;
	case EX_NEG:
		sb_addc(sb, '-');
		print(sb, e->lhs, 3, false);
		break;
	case EX_MIN:
	case EX_MAX:
		sb_adds(sb, e->kind == EX_MIN ? "min(" : "max(");
		print(sb, e->lhs, 0, false);
		sb_addc(sb, ',');
		print(sb, e->rhs, 0, false);
		sb_addc(sb, ')');
		break;
	default:
		print(sb, e->lhs, pr, false);
		sb_addc(sb, ops[e->kind]);
		print(sb, e->rhs, pr, true);
	}
	if (paren)
		sb_addc(sb, ')');
}

char *expr_print(Arena *a, const Expr *e)
{
	Strbuf sb = STRBUF_INIT;
	print(&sb, e, 0, false);
	return sb_to_arena(&sb, a);
}

void expr_names(const Expr *e, void (*fn)(const Expr *name, void *ctx), void *ctx)
{
	if (!e)
		return;
	if (e->kind == EX_NAME)
		fn(e, ctx);
	expr_names(e->lhs, fn, ctx);
	expr_names(e->rhs, fn, ctx);
}
