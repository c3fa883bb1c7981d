/*
 * suggest.c — ir_suggest_spec(): a spec inferred from the AST, printed for
 * the user to check and paste (`kcc --suggest-spec FILE`). It is a
 * starting point, never used by kcc itself: where kcc cannot tell, it
 * writes '?' so the line cannot be used unread.
 *
 * - Extents: a parameter declared with its dimensions (T a[n][m]) has their
 *   product; otherwise subscripts say: each loop or guard `v < S` bounds a
 *   variable by a scalar S (or by another bounded variable: j <= i), and the
 *   bounds of the variables in a subscript multiply (`A[i*n + j]` with
 *   i, j < n gives n*n); the subscript with the most factors wins. The
 *   entry's parameters are followed through calls into kernels and helpers.
 * - Roles: const is in; an array whose old values are read — read before
 *   its first write, read in the statement that writes it (x[i] = x[i-1]
 *   + ...), written with += and friends, or written only by loops that
 *   skip its edges — is inout; written first and fully: out.
 * - flops: every floating-point + - * / (and +=, ...) times the bounds of
 *   the loops around it.
 * - Shapes: awkward check sizes; floating-point scalars get real values;
 *   an integer that only counts repetitions (a time-step loop) stays small;
 *   the bench shape is sized from the flops (and bytes) so the original
 *   runs about 0.1-1 s.
 */
#include "clang.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define str ir_clang_str
#define MAXV 256
#define MAXP 64

typedef struct {
	const char *fn;    /* USR of the function */
	const char *local; /* its parameter or variable */
	const char *entry; /* the entry's parameter it stands for */
} Alias;

typedef struct {
	const char *fn, *var, *bound;
	unsigned begin, end; /* the loop (or guard) it holds in */
	bool loop;           /* a for loop (counts for flops) */
	bool partial;        /* it skips edges: starts above 0, or S-1, <= */
} Bound;

typedef struct {
	unsigned at;   /* offset where it happens */
	unsigned lo, hi; /* write: the assignment's range */
	bool write, partial; /* partial: in a loop that skips edges, or at a
	                        constant index (row 0) */
} Access;

typedef struct {
	Arena *a;
	const Unit *u;
	Alias al[MAXV];
	int nal;
	Bound bd[MAXV];
	int nbd;
	const char *cur_fn; /* USR being walked */
	/* per pointer parameter of the entry */
	const char *ext[MAXP][8];
	int next[MAXP];
	bool unknown[MAXP];
	Access *acc[MAXP];
	int nacc[MAXP];
	size_t acc_cap[MAXP];
	const char *visited[64];
	int nvisited;
	/* flops: terms "n*n*k" -> count of ops */
	const char *fterm[64];
	int fcount[64];
	int nf;
	bool entry_walk; /* counting flops only in the entry itself */
} S;

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

/* ---- the lines ------------------------------------------------------------------ */

static const char *extent_text(S *s, int p)
{
	const CParam *cp = &s->u->params[p];
	Strbuf sb = STRBUF_INIT;
	bool known = true;
	if (cp->is_array) {
		for (int d = 0; d < cp->ndims; d++) {
			const char *t = cp->dims[d] ? expr_print(s->a, cp->dims[d])
			                : d == 0 && s->next[p] == 1 && !s->unknown[p] ? s->ext[p][0]
			                                                              : NULL;
			if (!t) {
				known = false;
				break;
			}
			bool paren = cp->dims[d] && cp->dims[d]->kind != EX_NAME && cp->dims[d]->kind != EX_NUM &&
			             cp->dims[d]->kind != EX_MUL;
			sb_addf(&sb, paren ? "%s(%s)" : "%s%s", d ? "*" : "", t);
		}
	} else if (s->next[p] && !s->unknown[p]) {
		for (int i = 0; i < s->next[p]; i++)
			sb_addf(&sb, "%s%s", i ? "*" : "", s->ext[p][i]);
	} else
		known = false;
	if (!known) {
		sb_release(&sb);
		return "?";
	}
	return sb_to_arena(&sb, s->a);
}

/* in, out or inout from the accesses (DESIGN: out must be fully written):
 * out when the first access is a clear write (its statement does not read
 * the old value) that covers the array (no edge-skipping loop, no constant
 * index); inout when old values are read first or the first write is not
 * such a write. */
static const char *role_of(S *s, int p, const char **why)
{
	const CParam *cp = &s->u->params[p];
	*why = NULL;
	if (cp->pointee_const)
		return "in";
	const Access *fr = NULL, *fw = NULL;
	for (int i = 0; i < s->nacc[p]; i++) {
		const Access *a = &s->acc[p][i];
		const Access **f = a->write ? &fw : &fr;
		if (!*f || a->at < (*f)->at)
			*f = a;
	}
	if (!fw) {
		*why = "never written: consider 'const'";
		return "in";
	}
	bool clear = true;
	for (int j = 0; j < s->nacc[p]; j++) {
		const Access *r = &s->acc[p][j];
		clear &= r->write || !(r->at >= fw->lo && r->at < fw->hi);
	}
	if (fr && fr->at < fw->lo) {
		*why = "its old values are read";
		return "inout";
	}
	if (!clear) {
		*why = "read and written";
		return "inout";
	}
	if (fw->partial) {
		*why = "not all of it is written";
		return "inout";
	}
	return "out";
}

/* A scalar that sizes a buffer (in an extent), one that counts
 * repetitions (only a loop bound), or a floating-point one. */
typedef enum { SC_SIZE, SC_STEPS, SC_REAL } ScKind;

static bool in_text(const char *text, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = text; (p = strstr(p, name)) != NULL; p += n) {
		bool l = p == text || !(p[-1] == '_' || isalnum((unsigned char)p[-1]));
		bool r = !(p[n] == '_' || isalnum((unsigned char)p[n]));
		if (l && r)
			return true;
	}
	return false;
}

static double eval_text(Arena *a, const char *text, const Shape *sh)
{
	Expr *e = expr_parse_quiet(a, text, (Loc){0});
	int64_t v;
	const char *why;
	return e && expr_eval(e, sh, &v, &why, NULL) == 0 ? (double)v : -1;
}

static void add_shapes(S *s, Strbuf *out, const char **exts, const char *flops,
                       const char *bytes)
{
	static const int primes[] = {37, 41, 29, 43, 31, 23, 47, 19};
	static const char *const reals[] = {"1.5", "-0.5", "0.25", "2.5"};
	const Unit *u = s->u;
	int np = u->nparams;
	ScKind *kind = arena_alloc(s->a, sizeof *kind * (size_t)(np + 1));
	Shape sh = {.names = arena_alloc(s->a, sizeof(char *) * (size_t)(np + 1)),
	            .values = arena_alloc(s->a, sizeof(int64_t) * (size_t)(np + 1))};
	for (int i = 0; i < np; i++) {
		const CParam *p = &u->params[i];
		if (p->is_pointer)
			continue;
		bool sized = false;
		for (int k = 0; k < np; k++)
			sized |= exts[k] && in_text(exts[k], p->name);
		kind[i] = p->is_float_scalar ? SC_REAL : sized || !in_text(flops, p->name) ? SC_SIZE
		                                                                           : SC_STEPS;
		sh.names[sh.n++] = p->name;
	}
	/* bench: one size N for every size, the largest whose flops (at ~1
	 * GFLOP/s) and bytes (at ~5 GB/s) stay within about 0.3 s, and whose
	 * buffers fit in 1 GiB */
	int64_t best = 16;
	for (int64_t n = 16; n <= (int64_t)1 << 24; n = n + (n >> 3) + 1) {
		int j = 0;
		for (int i = 0; i < np; i++)
			if (!u->params[i].is_pointer)
				sh.values[j++] = kind[i] == SC_STEPS ? 20 : n;
		double f = *flops ? eval_text(s->a, flops, &sh) : 0;
		double b = *bytes ? eval_text(s->a, bytes, &sh) : 0;
		if (f < 0 || b < 0 || b > 1073741824.0 || f / 1e9 + b / 5e9 > 0.3)
			break;
		best = n;
	}
	if (best > 100)
		best = best / 100 * 100;
	/* check: awkward sizes (distinct primes), then a power of two; bench */
	for (int pass = 0; pass < 3; pass++) {
		sb_adds(out, pass == 0   ? "#pragma kcc shape check"
		             : pass == 1 ? ";"
		                         : "#pragma kcc shape bench");
		int k = 0, r = 0;
		for (int i = 0; i < np; i++) {
			const CParam *p = &u->params[i];
			if (p->is_pointer)
				continue;
			if (kind[i] == SC_REAL)
				sb_addf(out, " %s=%s", p->name, reals[r++ % 4]);
			else if (kind[i] == SC_STEPS)
				sb_addf(out, " %s=%d", p->name, pass == 2 ? 20 : 3);
			else if (pass == 2)
				sb_addf(out, " %s=%lld", p->name, (long long)best);
			else
				sb_addf(out, " %s=%d", p->name, pass ? 64 : primes[k++ % 8]);
		}
		if (pass != 0)
			sb_addc(out, '\n');
	}
}

static const char *flops_text(S *s)
{
	Strbuf sb = STRBUF_INIT;
	for (int i = 0; i < s->nf; i++) {
		if (i)
			sb_adds(&sb, " + ");
		if (s->fcount[i] > 1 && strcmp(s->fterm[i], "1"))
			sb_addf(&sb, "%d*%s", s->fcount[i], s->fterm[i]);
		else if (strcmp(s->fterm[i], "1"))
			sb_adds(&sb, s->fterm[i]);
		else
			sb_addf(&sb, "%d", s->fcount[i]);
	}
	return sb.len ? sb_to_arena(&sb, s->a) : "";
}

char *ir_suggest_spec(Arena *a, const Unit *u, const IrOptions *opt)
{
	S *s = arena_alloc(a, sizeof *s);
	s->a = a;
	s->u = u;
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = ir_clang_parse(a, idx, u, opt);
	if (!tu) {
		clang_disposeIndex(idx);
		return NULL;
	}
	CXCursor entry = clang_getNullCursor();
	void *x[3] = {(void *)u, &entry, NULL};
	clang_visitChildren(clang_getTranslationUnitCursor(tu), find_entry, x);
	if (x[2]) {
		const char *usr = str(a, clang_getCursorUSR(entry));
		for (int i = 0; i < u->nparams; i++)
			add_alias(s, usr, u->params[i].name, u->params[i].name);
		s->entry_walk = true;
		walk_fn(s, entry, usr);
	}
	clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);

	Strbuf out = STRBUF_INIT;
	sb_addf(&out, "// Spec inferred by kcc from %s: check every line, then paste it "
	        "into the file.\n// '?' marks what kcc could not infer.\n", u->path);
	sb_addf(&out, "#pragma kcc entry %s\n", u->entry.name);
	bool all_known = true;
	int width = 0;
	for (int i = 0; i < u->nparams; i++)
		if (u->params[i].is_pointer && (int)strlen(u->params[i].name) > width)
			width = (int)strlen(u->params[i].name);
	Strbuf bytes = STRBUF_INIT;
	const char **exts = arena_alloc(a, sizeof *exts * (size_t)(u->nparams + 1));
	for (int i = 0; i < u->nparams && i < MAXP; i++) {
		const CParam *p = &u->params[i];
		if (!p->is_pointer)
			continue;
		const char *why;
		const char *role = role_of(s, i, &why);
		const char *ext = extent_text(s, i);
		exts[i] = ext;
		all_known &= strcmp(ext, "?") != 0 && p->elem != ET_NONE;
		sb_addf(&out, "#pragma kcc param %-*s %-5s %s[%s]", width, p->name, role,
		        p->elem ? elem_name(p->elem) : "?", ext);
		if (!elem_is_float(p->elem) && strcmp(role, "out") != 0)
			sb_adds(&out, " range(0,?)");
		if (why)
			sb_addf(&out, "   // %s", why);
		sb_addc(&out, '\n');
		if (p->elem)
			sb_addf(&bytes, "%s%zu*%s", bytes.len ? "+" : "", elem_size(p->elem), ext);
	}
	const char *flops = flops_text(s);
	add_shapes(s, &out, exts, flops, all_known ? sb_str(&bytes) : "");
	if (*flops)
		sb_addf(&out, "#pragma kcc flops %s\n", flops);
	if (all_known && bytes.len)
		sb_addf(&out, "#pragma kcc bytes %s\n", sb_str(&bytes));
	sb_release(&bytes);
	return sb_to_arena(&out, a);
}
