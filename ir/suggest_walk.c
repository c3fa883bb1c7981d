/*
 * suggest_walk.c — the AST walk behind --suggest-spec (suggest.c says what
 * is inferred and how): the entry's parameters followed through calls
 * (aliases), the bounds that loops and guards put on variables, each
 * subscript's extent and use (read, write, read-modify-write), and the
 * floating-point operations times the trip counts of their loops.
 */
#include "suggest.h"

#include <stdlib.h>
#include <string.h>

#define str ir_clang_str

static int entry_param(const S *s, const char *name)
{
	for (int i = 0; i < s->u->nparams && i < MAXP; i++)
		if (!strcmp(s->u->params[i].name, name))
			return i;
	return -1;
}

static const char *alias_of(S *s, const char *fn, const char *local)
{
	for (int i = 0; i < s->nal; i++)
		if (!strcmp(s->al[i].fn, fn) && !strcmp(s->al[i].local, local))
			return s->al[i].entry;
	return NULL;
}

static void add_alias(S *s, const char *fn, const char *local, const char *entry)
{
	if (s->nal < MAXV && !alias_of(s, fn, local))
		s->al[s->nal++] = (Alias){fn, local, entry};
}

/* The innermost bound of var that holds at offset off (any, if none does). */
static const Bound *bound_at(S *s, const char *var, unsigned off)
{
	const Bound *best = NULL, *any = NULL;
	for (int i = 0; i < s->nbd; i++) {
		const Bound *b = &s->bd[i];
		if (strcmp(b->fn, s->cur_fn) || strcmp(b->var, var))
			continue;
		if (!any)
			any = b;
		if (off >= b->begin && off < b->end && (!best || b->end - b->begin < best->end - best->begin))
			best = b;
	}
	return best ? best : any;
}

static unsigned offset_of(CXCursor c)
{
	unsigned o;
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL,
	                          &o);
	return o;
}

static unsigned end_of(CXCursor c)
{
	unsigned o;
	clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), NULL, NULL, NULL, &o);
	return o;
}

static enum CXChildVisitResult first_child(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	*(CXCursor *)d = c;
	return CXChildVisit_Break;
}

static CXCursor child0(CXCursor c)
{
	CXCursor r = clang_getNullCursor();
	clang_visitChildren(c, first_child, &r);
	return r;
}

typedef struct {
	CXCursor k[4];
	int n;
} Kids;

static enum CXChildVisitResult collect(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	Kids *t = d;
	t->k[t->n++] = c;
	return t->n == 4 ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* The operands of an expression (libclang has no nth child). */
static Kids kids(CXCursor c)
{
	Kids t = {{clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor(),
	           clang_getNullCursor()}, 0};
	clang_visitChildren(c, collect, &t);
	return t;
}

static CXCursor strip(CXCursor c)
{
	for (int i = 0; i < 8 && !clang_Cursor_isNull(c); i++) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
		    k != CXCursor_CStyleCastExpr)
			break;
		c = child0(c);
	}
	return c;
}

static const char *ref_name(S *s, CXCursor c)
{
	c = strip(c);
	if (clang_Cursor_isNull(c) || clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return NULL;
	return str(s->a, clang_getCursorSpelling(c));
}

static bool is_scalar_param(S *s, const char *name, const char **entry)
{
	const char *e = alias_of(s, s->cur_fn, name);
	int ep = e ? entry_param(s, e) : -1;
	if (ep >= 0 && !s->u->params[ep].is_pointer) {
		*entry = e;
		return true;
	}
	return false;
}

/* ---- bounds ------------------------------------------------------------------ */

typedef struct {
	S *s;
	unsigned at;
	const char *found;
	int nfound;
	bool plain;
} Lim;

static enum CXChildVisitResult lim_names(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	Lim *l = d;
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	const char *n = str(l->s->a, clang_getCursorSpelling(c)), *e;
	const Bound *b;
	if (is_scalar_param(l->s, n, &e))
		;
	else if ((b = bound_at(l->s, n, l->at)))
		e = b->bound;
	else
		return CXChildVisit_Continue;
	if (!l->found || strcmp(l->found, e))
		l->nfound++;
	l->found = e;
	return CXChildVisit_Continue;
}

/* What a limit stands for: a scalar of the entry (n, n-1, n+1), or the
 * bound of a variable it names (j <= i). */
static const char *resolve_lim(S *s, CXCursor lim, unsigned at, bool *plain)
{
	Lim l = {s, at, NULL, 0, false};
	CXCursor c = strip(lim);
	*plain = clang_getCursorKind(c) == CXCursor_DeclRefExpr;
	if (*plain)
		lim_names(c, c, &l);
	else
		clang_visitChildren(c, lim_names, &l);
	if (*plain && l.nfound == 1) {
		const char *n = ref_name(s, c), *e;
		*plain = is_scalar_param(s, n, &e);
	}
	return l.nfound == 1 ? l.found : NULL;
}

static bool starts_at_zero(CXCursor loop)
{
	Kids k = kids(loop);
	if (k.n < 1)
		return true;
	CXCursor init = k.k[0];
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(loop);
	CXToken *toks;
	unsigned nt;
	clang_tokenize(tu, clang_getCursorExtent(init), &toks, &nt);
	/* `i = 0` or `int i = 0`: the token after the last '=' */
	bool zero = false;
	for (unsigned i = 0; i + 1 < nt; i++) {
		CXString t = clang_getTokenSpelling(tu, toks[i]);
		if (!strcmp(clang_getCString(t), "=")) {
			CXString v = clang_getTokenSpelling(tu, toks[i + 1]);
			zero = !strcmp(clang_getCString(v), "0");
			clang_disposeString(v);
		}
		clang_disposeString(t);
	}
	clang_disposeTokens(tu, toks, nt);
	return zero;
}

/* `v < S`, `S > v` (and <=, >=) bound v in the loop or guard around it. */
static enum CXChildVisitResult find_bounds(CXCursor c, CXCursor par, CXClientData d)
{
	S *s = d;
	if (clang_getCursorKind(c) != CXCursor_BinaryOperator)
		return CXChildVisit_Recurse;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
	if (op != CXBinaryOperator_LT && op != CXBinaryOperator_GT && op != CXBinaryOperator_LE &&
	    op != CXBinaryOperator_GE)
		return CXChildVisit_Recurse;
	Kids t = kids(c);
	bool lt = op == CXBinaryOperator_LT || op == CXBinaryOperator_LE;
	const char *var = ref_name(s, lt ? t.k[0] : t.k[1]);
	bool plain;
	const char *lim = var ? resolve_lim(s, lt ? t.k[1] : t.k[0], offset_of(c), &plain) : NULL;
	const char *e;
	if (!var || !lim || is_scalar_param(s, var, &e) || s->nbd >= MAXV ||
	    alias_of(s, s->cur_fn, var))
		return CXChildVisit_Recurse;
	bool loop = clang_getCursorKind(par) == CXCursor_ForStmt;
	s->bd[s->nbd++] = (Bound){.fn = s->cur_fn, .var = var, .bound = lim,
	                          .begin = offset_of(par), .end = end_of(par), .loop = loop,
	                          .partial = !plain || op == CXBinaryOperator_LE ||
	                                     op == CXBinaryOperator_GE ||
	                                     (loop && !starts_at_zero(par))};
	return CXChildVisit_Recurse;
}

/* ---- subscripts: extents and uses ----------------------------------------------- */

typedef struct {
	S *s;
	unsigned at;
	const char *b[8];  /* bounds of the loop variables in the index */
	int nb;
	const char *d[8];  /* scalars used directly */
	int nd;
	bool data;         /* an index read from memory: not a shape */
} Idx;

static enum CXChildVisitResult idx_names(CXCursor c, CXCursor par, CXClientData d)
{
	(void)par;
	Idx *x = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_CallExpr) {
		x->data = true;
		return CXChildVisit_Continue;
	}
	if (k != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	const char *n = str(x->s->a, clang_getCursorSpelling(c)), *e;
	const Bound *b;
	if (is_scalar_param(x->s, n, &e)) {
		if (x->nd < 8)
			x->d[x->nd++] = e;
	} else if ((b = bound_at(x->s, n, x->at))) {
		if (x->nb < 8)
			x->b[x->nb++] = b->bound;
	}
	return CXChildVisit_Continue;
}

static void index_of(S *s, CXCursor index, Idx *x)
{
	x->s = s;
	x->at = offset_of(index);
	if (clang_getCursorKind(strip(index)) == CXCursor_DeclRefExpr)
		idx_names(strip(index), index, x);
	else
		clang_visitChildren(index, idx_names, x);
}

/* One subscript of p (the outermost of a chain: for C[i][j], the index
 * nearest C sizes the first dimension). */
static void add_extent(S *s, int p, const Idx *x)
{
	if (x->data) {
		s->unknown[p] = true;
		return;
	}
	const char *const *v = x->nb ? x->b : x->d;
	int n = x->nb ? x->nb : (x->nd ? 1 : 0); /* direct scalars: a stride, once */
	if (n > s->next[p]) {
		for (int i = 0; i < n; i++)
			s->ext[p][i] = v[i];
		s->next[p] = n;
	}
}

static bool enclosed_partial(S *s, unsigned off)
{
	for (int i = 0; i < s->nbd; i++)
		if (s->bd[i].loop && s->bd[i].partial && !strcmp(s->bd[i].fn, s->cur_fn) &&
		    off >= s->bd[i].begin && off < s->bd[i].end)
			return true;
	return false;
}

static void add_access(S *s, int p, Access a)
{
	size_t n = (size_t)s->nacc[p];
	ARENA_PUSH(s->a, s->acc[p], n, s->acc_cap[p], a);
	s->nacc[p] = (int)n;
}

/* How an access of p is used: a plain store (a write at the end of the
 * assignment, its right side read first), a read-modify-write (+=, ++), or
 * a read. */
static void note_use(S *s, int p, CXCursor sub, CXCursor parent, bool consti)
{
	enum CXCursorKind pk = clang_getCursorKind(parent);
	unsigned at = offset_of(sub);
	bool lhs = offset_of(child0(parent)) == at;
	bool partial = consti || enclosed_partial(s, at);
	if (pk == CXCursor_BinaryOperator && lhs &&
	    clang_getCursorBinaryOperatorKind(parent) == CXBinaryOperator_Assign) {
		add_access(s, p, (Access){.at = end_of(parent), .lo = offset_of(parent),
		                          .hi = end_of(parent), .write = true, .partial = partial});
		return;
	}
	add_access(s, p, (Access){.at = at});
	if ((pk == CXCursor_CompoundAssignOperator && lhs) || pk == CXCursor_UnaryOperator)
		add_access(s, p, (Access){.at = end_of(parent), .lo = at, .hi = end_of(parent),
		                          .write = true, .partial = partial});
}

static void walk_fn(S *s, CXCursor fn, const char *usr);

static enum CXChildVisitResult find_uses(CXCursor c, CXCursor par, CXClientData d)
{
	S *s = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_ArraySubscriptExpr) {
		/* a row (C[i] of C[i][j]) is handled with the whole chain */
		enum CXTypeKind tk = clang_getCanonicalType(clang_getCursorType(c)).kind;
		if (tk == CXType_ConstantArray || tk == CXType_VariableArray ||
		    tk == CXType_IncompleteArray)
			return CXChildVisit_Recurse;
		CXCursor inner = c;
		bool consti = false;
		for (;;) {
			Kids kk = kids(inner);
			consti |= clang_getCursorKind(strip(kk.k[1])) == CXCursor_IntegerLiteral;
			CXCursor b = strip(kk.k[0]);
			if (clang_getCursorKind(b) != CXCursor_ArraySubscriptExpr)
				break;
			inner = b;
		}
		Kids t = kids(inner);
		const char *base = ref_name(s, t.k[0]);
		const char *e = base ? alias_of(s, s->cur_fn, base) : NULL;
		int ep = e ? entry_param(s, e) : -1;
		if (ep >= 0 && s->u->params[ep].is_pointer) {
			Idx x = {0};
			index_of(s, t.k[1], &x);
			add_extent(s, ep, &x);
			note_use(s, ep, c, par, consti);
		}
		return CXChildVisit_Recurse;
	}
	if (k == CXCursor_CallExpr) {
		CXCursor callee = clang_getCursorReferenced(c);
		CXCursor def = clang_getCursorDefinition(callee);
		if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_FunctionDecl)
			return CXChildVisit_Recurse;
		const char *usr = str(s->a, clang_getCursorUSR(def));
		int n = clang_Cursor_getNumArguments(c);
		for (int i = 0; i < n && i < clang_Cursor_getNumArguments(def); i++) {
			const char *arg = ref_name(s, clang_Cursor_getArgument(c, (unsigned)i));
			const char *e = arg ? alias_of(s, s->cur_fn, arg) : NULL;
			if (e)
				add_alias(s, usr, str(s->a, clang_getCursorSpelling(
				                          clang_Cursor_getArgument(def, (unsigned)i))), e);
		}
		walk_fn(s, def, usr);
	}
	return CXChildVisit_Recurse;
}

/* ---- flops ---------------------------------------------------------------------- */

static bool floating(CXCursor c)
{
	enum CXTypeKind k = clang_getCanonicalType(clang_getCursorType(c)).kind;
	return k == CXType_Float || k == CXType_Double || k == CXType_LongDouble ||
	       k == CXType_Half || k == CXType_Float16;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The product of the bounds of the for loops around off ("1" if none). */
static const char *trip_term(S *s, unsigned off)
{
	const char *f[16];
	int n = 0;
	for (int i = 0; i < s->nbd && n < 16; i++)
		if (s->bd[i].loop && !strcmp(s->bd[i].fn, s->cur_fn) && off >= s->bd[i].begin &&
		    off < s->bd[i].end)
			f[n++] = s->bd[i].bound;
	if (!n)
		return "1";
	qsort(f, (size_t)n, sizeof *f, cmp_str);
	Strbuf sb = STRBUF_INIT;
	for (int i = 0; i < n; i++)
		sb_addf(&sb, "%s%s", i ? "*" : "", f[i]);
	return sb_to_arena(&sb, s->a);
}

static enum CXChildVisitResult find_flops(CXCursor c, CXCursor par, CXClientData d)
{
	(void)par;
	S *s = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	bool op = false;
	if (k == CXCursor_CompoundAssignOperator)
		op = floating(c);
	else if (k == CXCursor_BinaryOperator) {
		enum CXBinaryOperatorKind b = clang_getCursorBinaryOperatorKind(c);
		op = (b == CXBinaryOperator_Add || b == CXBinaryOperator_Sub ||
		      b == CXBinaryOperator_Mul || b == CXBinaryOperator_Div) && floating(c);
	}
	if (op) {
		const char *t = trip_term(s, offset_of(c));
		int i = 0;
		while (i < s->nf && strcmp(s->fterm[i], t))
			i++;
		if (i == s->nf && s->nf < 64)
			s->fterm[s->nf++] = t;
		if (i < s->nf)
			s->fcount[i]++;
	}
	return CXChildVisit_Recurse;
}

static void walk_fn(S *s, CXCursor fn, const char *usr)
{
	for (int i = 0; i < s->nvisited; i++)
		if (!strcmp(s->visited[i], usr))
			return;
	if (s->nvisited == 64)
		return;
	s->visited[s->nvisited++] = usr;
	const char *saved = s->cur_fn;
	bool count = s->entry_walk; /* flops of the entry's own loops */
	s->entry_walk = false;
	s->cur_fn = usr;
	clang_visitChildren(fn, find_bounds, s);
	clang_visitChildren(fn, find_uses, s);
	if (count)
		clang_visitChildren(fn, find_flops, s);
	s->cur_fn = saved;
}

static enum CXChildVisitResult find_entry(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	void **x = d;
	const Unit *u = x[0];
	if (clang_getCursorKind(c) == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
		CXString n = clang_getCursorSpelling(c);
		if (!strcmp(clang_getCString(n), u->entry.name)) {
			*(CXCursor *)x[1] = c;
			x[2] = (void *)1;
		}
		clang_disposeString(n);
	}
	return CXChildVisit_Continue;
}

void suggest_walk(S *s, CXTranslationUnit tu)
{
	CXCursor entry = clang_getNullCursor();
	void *x[3] = {(void *)s->u, &entry, NULL};
	clang_visitChildren(clang_getTranslationUnitCursor(tu), find_entry, x);
	if (!x[2])
		return;
	const char *usr = str(s->a, clang_getCursorUSR(entry));
	for (int i = 0; i < s->u->nparams; i++)
		add_alias(s, usr, s->u->params[i].name, s->u->params[i].name);
	s->entry_walk = true;
	walk_fn(s, entry, usr);
}
