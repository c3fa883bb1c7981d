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
#include "suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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
	suggest_walk(s, tu);
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
