/*
 * suggest.c — ir_suggest_spec(): a spec inferred from the AST, printed for
 * the user to check (`kcc --suggest-spec FILE`). It is a starting point,
 * never used by kcc itself: where kcc cannot tell, it writes '?' so the
 * line cannot be used unread.
 *
 * Roles come from const and from how a pointer is written (plain stores:
 * out; only read-modify-write such as += or atomics: inout). Extents come
 * from subscripts: the entry's parameters are followed through calls into
 * kernels and helpers, each loop or guard `v < S` bounds a variable by a
 * scalar S, and the scalars a subscript of P depends on make P's extent
 * (`C[row*N + col]` with row < M, col < N gives M*N).
 */
#include "clang.h"

#include <string.h>

#define str ir_clang_str
#define MAXV 256

typedef struct {
	const char *fn;    /* USR of the function */
	const char *local; /* its parameter or variable */
	const char *entry; /* the entry's parameter it stands for */
} Alias;

typedef struct {
	Arena *a;
	const Unit *u;
	Alias al[MAXV];
	int nal;
	struct { const char *fn, *var, *bound; } bd[MAXV];
	int nbd;
	const char *cur_fn;      /* USR being walked */
	CXCursor cur_parent;
	/* per pointer parameter of the entry */
	const char *ext[64][8];
	int next[64];
	int writes[64], rmw[64];
	bool unknown[64];
	const char *visited[64];
	int nvisited;
} S;

static int entry_param(const S *s, const char *name)
{
	for (int i = 0; i < s->u->nparams; i++)
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

static const char *bound_of(S *s, const char *var)
{
	for (int i = 0; i < s->nbd; i++)
		if (!strcmp(s->bd[i].fn, s->cur_fn) && !strcmp(s->bd[i].var, var))
			return s->bd[i].bound;
	return NULL;
}

/* Strip parens and implicit casts down to a DeclRefExpr, or a null cursor. */
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
	CXCursor k[2];
	int n;
} Two;

static enum CXChildVisitResult collect2(CXCursor c, CXCursor p, CXClientData d)
{
	(void)p;
	Two *t = d;
	t->k[t->n++] = c;
	return t->n == 2 ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* The two operands of a binary expression (libclang has no nth child). */
static Two children2(CXCursor c)
{
	Two t = {{clang_getNullCursor(), clang_getNullCursor()}, 0};
	clang_visitChildren(c, collect2, &t);
	return t;
}

static CXCursor declref(CXCursor c)
{
	for (int i = 0; i < 8 && !clang_Cursor_isNull(c); i++) {
		enum CXCursorKind k = clang_getCursorKind(c);
		if (k == CXCursor_DeclRefExpr)
			return c;
		if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr &&
		    k != CXCursor_CStyleCastExpr)
			break;
		c = child0(c);
	}
	return clang_getNullCursor();
}

static const char *ref_name(S *s, CXCursor c)
{
	CXCursor d = declref(c);
	return clang_Cursor_isNull(d) ? NULL : str(s->a, clang_getCursorSpelling(d));
}

/* The scalars an index expression depends on. */
typedef struct {
	S *s;
	int p;
} IdxCtx;

static void add_ext(S *s, int p, const char *name)
{
	for (int i = 0; i < s->next[p]; i++)
		if (!strcmp(s->ext[p][i], name))
			return;
	if (s->next[p] < 8)
		s->ext[p][s->next[p]++] = name;
}

static enum CXChildVisitResult idx_names(CXCursor c, CXCursor par, CXClientData d)
{
	(void)par;
	IdxCtx *x = d;
	if (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr ||
	    clang_getCursorKind(c) == CXCursor_CallExpr) {
		/* table[idx[i]*D]: the extent depends on data, not on shapes. */
		x->s->unknown[x->p] = true;
		return CXChildVisit_Continue;
	}
	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return CXChildVisit_Recurse;
	const char *n = str(x->s->a, clang_getCursorSpelling(c));
	const char *e = alias_of(x->s, x->s->cur_fn, n);
	int ep = e ? entry_param(x->s, e) : -1;
	if (ep >= 0 && !x->s->u->params[ep].is_pointer)
		add_ext(x->s, x->p, e);
	else if ((e = bound_of(x->s, n)))
		add_ext(x->s, x->p, e);
	return CXChildVisit_Continue;
}

static void walk_fn(S *s, CXCursor fn, const char *usr);

/* `v < S`, `S > v` (and <=, >=) with S a scalar of the entry bound v. */
static enum CXChildVisitResult find_bounds(CXCursor c, CXCursor par, CXClientData d)
{
	(void)par;
	S *s = d;
	if (clang_getCursorKind(c) != CXCursor_BinaryOperator)
		return CXChildVisit_Recurse;
	enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
	if (op != CXBinaryOperator_LT && op != CXBinaryOperator_GT && op != CXBinaryOperator_LE && op != CXBinaryOperator_GE)
		return CXChildVisit_Recurse;
	Two t = children2(c);
	bool lt = op == CXBinaryOperator_LT || op == CXBinaryOperator_LE;
	const char *var = ref_name(s, lt ? t.k[0] : t.k[1]);
	const char *lim = ref_name(s, lt ? t.k[1] : t.k[0]);
	if (!var || !lim)
		return CXChildVisit_Recurse;
	const char *e = alias_of(s, s->cur_fn, lim);
	int ep = e ? entry_param(s, e) : -1;
	if (ep >= 0 && !s->u->params[ep].is_pointer && s->nbd < MAXV &&
	    !alias_of(s, s->cur_fn, var)) {
		s->bd[s->nbd].fn = s->cur_fn;
		s->bd[s->nbd].var = var;
		s->bd[s->nbd++].bound = e;
	}
	return CXChildVisit_Recurse;
}

/* How a subscript of an entry pointer is used: stored to, or read-modify-written. */
static void note_use(S *s, int p, CXCursor sub, CXCursor parent)
{
	enum CXCursorKind pk = clang_getCursorKind(parent);
	/* clang_equalCursors tells a visited child from the same child reached
	 * again apart; compare where they start instead. */
	unsigned a, b;
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(child0(parent))),
	                          NULL, NULL, NULL, &a);
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(sub)), NULL,
	                          NULL, NULL, &b);
	bool lhs = a == b;
	if (pk == CXCursor_BinaryOperator && lhs &&
	    clang_getCursorBinaryOperatorKind(parent) == CXBinaryOperator_Assign)
		s->writes[p]++;
	else if (pk == CXCursor_CompoundAssignOperator && lhs)
		s->rmw[p]++;
	else if (pk == CXCursor_UnaryOperator) {
		/* &p[i] handed to atomicAdd and friends; ++p[i] */
		s->rmw[p]++;
	}
}

static enum CXChildVisitResult find_uses(CXCursor c, CXCursor par, CXClientData d)
{
	S *s = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_ArraySubscriptExpr) {
		Two t = children2(c);
		const char *base = ref_name(s, t.k[0]);
		const char *e = base ? alias_of(s, s->cur_fn, base) : NULL;
		int ep = e ? entry_param(s, e) : -1;
		if (ep >= 0 && s->u->params[ep].is_pointer) {
			IdxCtx x = {s, ep};
			clang_visitChildren(t.k[1], idx_names, &x);
			if (clang_getCursorKind(t.k[1]) == CXCursor_DeclRefExpr)
				idx_names(t.k[1], c, &x);
			note_use(s, ep, c, par);
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

static void walk_fn(S *s, CXCursor fn, const char *usr)
{
	for (int i = 0; i < s->nvisited; i++)
		if (!strcmp(s->visited[i], usr))
			return;
	if (s->nvisited == 64)
		return;
	s->visited[s->nvisited++] = usr;
	const char *saved = s->cur_fn;
	s->cur_fn = usr;
	clang_visitChildren(fn, find_bounds, s);
	clang_visitChildren(fn, find_uses, s);
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

static const char *extent_text(S *s, int p)
{
	if (s->next[p] == 0 || s->unknown[p])
		return "?";
	Strbuf sb = STRBUF_INIT;
	for (int i = 0; i < s->next[p]; i++)
		sb_addf(&sb, "%s%s", i ? "*" : "", s->ext[p][i]);
	return sb_to_arena(&sb, s->a);
}

static void add_shapes(S *s, Strbuf *out)
{
	static const int primes[] = {127, 129, 65, 33, 31, 17, 13, 11};
	const Unit *u = s->u;
	int maxdeg = 1;
	for (int i = 0; i < u->nparams; i++)
		if (s->next[i] > maxdeg)
			maxdeg = s->next[i];
	/* bench: the largest buffer near 16M elements (GPU) or 1M (CPU). */
	double target = u->lang == LANG_CUDA ? 16777216.0 : 1048576.0;
	long bench = 1;
	while (1) {
		double v = 1;
		for (int k = 0; k < maxdeg; k++)
			v *= (double)(bench * 2);
		if (v > target)
			break;
		bench *= 2;
	}
	const char *sep[] = {"#pragma kcc shape check", "#pragma kcc shape bench"};
	for (int pass = 0; pass < 2; pass++) {
		sb_adds(out, sep[pass]);
		int k = 0;
		for (int i = 0; i < u->nparams; i++)
			if (!u->params[i].is_pointer)
				sb_addf(out, " %s=%ld", u->params[i].name,
				        pass ? bench : (long)primes[k++ % 8]);
		if (pass == 0) {
			sb_adds(out, ";");
			for (int i = 0; i < u->nparams; i++)
				if (!u->params[i].is_pointer)
					sb_addf(out, " %s=256", u->params[i].name);
		}
		sb_addc(out, '\n');
	}
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
	for (int i = 0; i < u->nparams; i++) {
		const CParam *p = &u->params[i];
		if (!p->is_pointer)
			continue;
		const char *role = p->pointee_const ? "in"
		                   : s->writes[i] ? "out"
		                   : s->rmw[i]    ? "inout"
		                                  : "in";
		const char *ext = extent_text(s, i);
		all_known &= strcmp(ext, "?") != 0 && p->elem != ET_NONE;
		sb_addf(&out, "#pragma kcc param %-*s %-5s %s[%s]", width, p->name, role,
		        p->elem ? elem_name(p->elem) : "?", ext);
		if (!elem_is_float(p->elem) && strcmp(role, "out") != 0)
			sb_adds(&out, " range(0,?)");
		if (!strcmp(role, "out"))
			sb_adds(&out, "   // stored to; make it inout if the old values are read");
		else if (!strcmp(role, "inout"))
			sb_adds(&out, "   // read and written");
		else if (!p->pointee_const)
			sb_adds(&out, "   // never written: consider 'const'");
		sb_addc(&out, '\n');
		if (p->elem)
			sb_addf(&bytes, "%s%zu*%s", bytes.len ? "+" : "", elem_size(p->elem), ext);
	}
	add_shapes(s, &out);
	if (all_known && bytes.len)
		sb_addf(&out, "#pragma kcc bytes %s\n", sb_str(&bytes));
	sb_release(&bytes);
	return sb_to_arena(&out, a);
}
