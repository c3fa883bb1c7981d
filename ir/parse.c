/*
 * parse.c — ir_parse(): the libclang front end.
 *
 * The file's text (exactly what kcc read, passed to libclang as an unsaved
 * file so the two can never disagree) is parsed as C or CUDA. From the AST
 * kcc keeps: the entry function named by the spec, its parameters with their
 * types and qualifiers, and every function reachable from it (kernels,
 * device and host helpers) with byte ranges for edits. Everything is copied
 * into the arena; no libclang object outlives this file.
 */
#include "clang.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	Arena *a;
	Unit *u;
	CXFile file;
	CXCursor entry;
	bool found_entry;
	const char **defined; /* names of functions defined in the file */
	int ndefined;
	size_t defined_cap;
	size_t funcs_cap;
	const char *guess; /* --suggest-spec: a plausible entry */
	CXCursor guess_cursor;
	int guess_score;
} Ctx;

char *ir_clang_str(Arena *a, CXString s)
{
	const char *c = clang_getCString(s);
	char *r = arena_strdup(a, c ? c : "");
	clang_disposeString(s);
	return r;
}

#define str ir_clang_str

static Loc cursor_loc(Ctx *x, CXCursor c, size_t *offset)
{
	CXFile f;
	unsigned line, col, off;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, &line, &col, &off);
	if (offset)
		*offset = off;
	return (Loc){x->u->path, (int)line, (int)col};
}

static bool in_main_file(Ctx *x, CXCursor c)
{
	CXFile f;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
	return f && clang_File_isEqual(f, x->file);
}

static enum CXChildVisitResult find_attr(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_CUDAGlobalAttr)
		*(FuncKind *)d = FN_KERNEL;
	else if (k == CXCursor_CUDADeviceAttr && *(FuncKind *)d != FN_KERNEL)
		*(FuncKind *)d = FN_DEVICE;
	return CXChildVisit_Continue;
}

static FuncKind func_kind(CXCursor c)
{
	FuncKind k = FN_HOST;
	clang_visitChildren(c, find_attr, &k);
	return k;
}

static Func make_func(Ctx *x, CXCursor c)
{
	Func f = {.name = str(x->a, clang_getCursorSpelling(c)), .kind = func_kind(c)};
	f.loc = cursor_loc(x, c, NULL);
	CXSourceRange r = clang_getCursorExtent(c);
	unsigned b, e;
	/* Expansion, not spelling, locations: a definition that starts with a
	 * macro (__global__) must not start inside the header defining it. */
	clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &b);
	clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
	f.begin = b;
	f.end = e;
	return f;
}

/* ---- element types from C types ------------------------------------------- */

static ElemType elem_of(CXType t)
{
	t = clang_getCanonicalType(t);
	switch (t.kind) {
	case CXType_Double: return ET_F64;
	case CXType_Float: return ET_F32;
	case CXType_Half:
	case CXType_Float16: return ET_F16;
	case CXType_BFloat16: return ET_BF16;
	case CXType_Long:
	case CXType_LongLong: return clang_Type_getSizeOf(t) == 8 ? ET_I64 : ET_I32;
	case CXType_Int: return ET_I32;
	case CXType_Short: return ET_I16;
	case CXType_SChar:
	case CXType_Char_S: return ET_I8;
	case CXType_UChar:
	case CXType_Char_U: return ET_U8;
	case CXType_Record:
	case CXType_Elaborated: {
		CXString s = clang_getTypeSpelling(clang_getUnqualifiedType(t));
		const char *n = clang_getCString(s);
		ElemType e = ET_NONE;
		if (strstr(n, "__nv_bfloat16"))
			e = ET_BF16;
		else if (strstr(n, "__half") && !strstr(n, "__half2"))
			e = ET_F16;
		clang_disposeString(s);
		return e;
	}
	default:
		return ET_NONE;
	}
}

static bool is_integer(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind >= CXType_Char_U && t.kind <= CXType_Int128 &&
	       t.kind != CXType_Char16 && t.kind != CXType_Char32 &&
	       t.kind != CXType_WChar;
}

static bool is_floating(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_Float || t.kind == CXType_Double;
}

static bool is_array_kind(enum CXTypeKind k)
{
	return k == CXType_ConstantArray || k == CXType_VariableArray ||
	       k == CXType_IncompleteArray || k == CXType_DependentSizedArray;
}

/* The text inside each top-level [...] of a parameter's declaration, in
 * order ("ni", "nj" for double C[ni][nj]); NULL for an empty or [*] group
 * or one kcc's expressions cannot say (sizeof, shifts, casts). */
static int bracket_groups(Ctx *x, CXCursor pc, const char **out, int max)
{
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(pc);
	CXToken *toks = NULL;
	unsigned nt = 0;
	clang_tokenize(tu, clang_getCursorExtent(pc), &toks, &nt);
	int n = 0, depth = 0;
	Strbuf sb = STRBUF_INIT;
	bool ok = true;
	for (unsigned i = 0; i < nt; i++) {
		char *t = str(x->a, clang_getTokenSpelling(tu, toks[i]));
		if (!strcmp(t, "[")) {
			if (depth++ == 0) {
				sb_reset(&sb);
				ok = true;
			}
			continue;
		}
		if (!strcmp(t, "]") && depth > 0 && --depth == 0) {
			if (n < max)
				out[n] = ok && sb.len && strcmp(sb_str(&sb), " *") != 0
				             ? arena_strdup(x->a, sb_str(&sb))
				             : NULL;
			n++;
			continue;
		}
		if (depth == 0)
			continue;
		if (!strcmp(t, "static") || !strcmp(t, "const") || !strcmp(t, "restrict") ||
		    !strcmp(t, "volatile") || !strcmp(t, "__restrict") ||
		    !strcmp(t, "__restrict__"))
			continue;
		for (const char *q = t; *q; q++)
			if (!(isalnum((unsigned char)*q) || strchr("_+-*/%() ", *q)))
				ok = false;
		if (!strcmp(t, "sizeof"))
			ok = false;
		sb_addc(&sb, ' ');
		sb_adds(&sb, t);
	}
	sb_release(&sb);
	clang_disposeTokens(tu, toks, nt);
	return n;
}

/* Quietly parse a dimension's text: NULL when it is not one of kcc's
 * expressions (the dimension is then left unchecked). */
static Expr *dim_expr(Ctx *x, const char *text, Loc loc)
{
	if (!text)
		return NULL;
	return expr_parse_quiet(x->a, text, loc);
}

/* T a[n][m], T (*a)[m], T a[][m]: the element type under the arrays and
 * every declared dimension. t is the parameter's type as written (libclang
 * gives the array type, not the pointer it decays to) or the pointee of a
 * pointer to arrays; outer says whether t's first level is the parameter's
 * own (outermost) dimension. */
static void read_dims(Ctx *x, CXCursor pc, CParam *p, CXType t, bool outer)
{
	CXType lv[16];
	int k = 0;
	t = clang_getCanonicalType(t);
	while (is_array_kind(t.kind) && k < 16) {
		lv[k++] = t;
		t = clang_getCanonicalType(clang_getArrayElementType(t));
	}
	p->elem = elem_of(t);
	p->pointee_const = clang_isConstQualifiedType(t);
	if (k == 0)
		return;
	p->is_array = true;
	int nd = outer ? k : k + 1; /* a pointer to arrays: its outer size is unknown */
	const char *groups[17] = {0};
	int ng = bracket_groups(x, pc, groups, 17);
	p->ndims = nd;
	p->dims = arena_alloc(x->a, (size_t)nd * sizeof *p->dims);
	for (int d = outer ? 0 : 1; d < nd; d++) {
		const CXType *l = &lv[outer ? d : d - 1];
		if (l->kind == CXType_ConstantArray) {
			Expr *e = arena_alloc(x->a, sizeof *e);
			*e = (Expr){.kind = EX_NUM, .num = clang_getArraySize(*l), .loc = p->loc};
			p->dims[d] = e;
		} else if (l->kind == CXType_VariableArray && ng >= nd - d)
			p->dims[d] = dim_expr(x, groups[ng - (nd - d)], p->loc);
	}
}

static void read_params(Ctx *x, CXCursor fn)
{
	Unit *u = x->u;
	int n = clang_Cursor_getNumArguments(fn);
	u->params = arena_alloc(x->a, (size_t)(n > 0 ? n : 1) * sizeof *u->params);
	u->nparams = n > 0 ? n : 0;
	for (int i = 0; i < u->nparams; i++) {
		CXCursor pc = clang_Cursor_getArgument(fn, (unsigned)i);
		CParam *p = &u->params[i];
		CXType t = clang_getCursorType(pc);
		p->name = str(x->a, clang_getCursorSpelling(pc));
		p->type = str(x->a, clang_getTypeSpelling(t));
		p->cast = p->type;
		p->loc = cursor_loc(x, pc, NULL);
		CXType ct = clang_getCanonicalType(t);
		bool array = is_array_kind(ct.kind);
		p->is_pointer = ct.kind == CXType_Pointer || array;
		if (p->is_pointer) {
			CXType pt = array ? ct : clang_getPointeeType(ct);
			p->pointee_const = clang_isConstQualifiedType(pt);
			p->elem = elem_of(pt);
			read_dims(x, pc, p, pt, array);
			/* A C cast cannot name a variable-length array type outside
			 * the entry (its sizes are the entry's parameters); void *
			 * converts to it implicitly. */
			if (p->is_array && u->lang == LANG_C)
				p->cast = "void *";
		} else {
			p->elem = elem_of(ct);
			p->is_integer_scalar = is_integer(ct);
			p->is_float_scalar = is_floating(ct);
		}
	}
}

/* ---- reachability ----------------------------------------------------------- */

static void add_reachable(Ctx *x, CXCursor def);

static enum CXChildVisitResult find_refs(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	Ctx *x = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr ||
	    k == CXCursor_OverloadedDeclRef) {
		CXCursor ref = clang_getCursorReferenced(c);
		enum CXCursorKind rk = clang_getCursorKind(ref);
		if (rk == CXCursor_FunctionDecl || rk == CXCursor_FunctionTemplate) {
			CXCursor def = clang_getCursorDefinition(ref);
			if (!clang_Cursor_isNull(def) && in_main_file(x, def))
				add_reachable(x, def);
		}
	}
	return CXChildVisit_Recurse;
}

static void add_reachable(Ctx *x, CXCursor def)
{
	Unit *u = x->u;
	size_t off;
	cursor_loc(x, def, &off);
	if (off == u->entry.begin || (clang_equalCursors(def, x->entry)))
		return;
	Func f = make_func(x, def);
	for (int i = 0; i < u->nfuncs; i++)
		if (u->funcs[i].begin == f.begin)
			return;
	if (f.begin == u->entry.begin)
		return;
	ARENA_PUSH(x->a, u->funcs, u->nfuncs, x->funcs_cap, f);
	clang_visitChildren(def, find_refs, x);
}

/* ---- top level ------------------------------------------------------------- */

/* The deepest nest of for/while/do loops under c, into *(int *)d. */
static enum CXChildVisitResult loop_depth(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	enum CXCursorKind k = clang_getCursorKind(c);
	if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt) {
		int inner = 0;
		clang_visitChildren(c, loop_depth, &inner);
		if (inner + 1 > *(int *)d)
			*(int *)d = inner + 1;
		return CXChildVisit_Continue;
	}
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult top(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	Ctx *x = d;
	enum CXCursorKind k = clang_getCursorKind(c);
	if ((k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate) ||
	    !clang_isCursorDefinition(c) || !in_main_file(x, c))
		return CXChildVisit_Continue;
	char *name = str(x->a, clang_getCursorSpelling(c));
	ARENA_PUSH(x->a, x->defined, x->ndefined, x->defined_cap, name);
	/* The guess for --suggest-spec: the host function with the deepest
	 * loop nest among those taking a pointer or an array (a benchmark's
	 * file also has main, init_array and print_array); on a tie, a name
	 * that says kernel wins over init/print/check/main, then the later. */
	if (k == CXCursor_FunctionDecl && func_kind(c) == FN_HOST) {
		int n = clang_Cursor_getNumArguments(c);
		bool ptr = false;
		for (int i = 0; i < n; i++) {
			enum CXTypeKind tk =
			    clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(c, (unsigned)i)))
			        .kind;
			ptr |= tk == CXType_Pointer || is_array_kind(tk);
		}
		int depth = 0;
		clang_visitChildren(c, loop_depth, &depth);
		int score = ptr ? 100 * depth + 10 : 0;
		if (strstr(name, "kernel"))
			score += 5;
		if (!strcmp(name, "main") || !strncmp(name, "init", 4) || !strncmp(name, "print", 5) ||
		    !strncmp(name, "check", 5) || !strncmp(name, "dump", 4))
			score -= 50;
		if (ptr && score >= x->guess_score) {
			x->guess = name;
			x->guess_cursor = c;
			x->guess_score = score;
		}
	}
	const char *want = x->u->spec.entry;
	if (want && strcmp(name, want) == 0 && !x->found_entry && k == CXCursor_FunctionDecl) {
		x->entry = c;
		x->found_entry = true;
	}
	return CXChildVisit_Continue;
}

static Lang lang_of(const char *path, bool *known)
{
	const char *dot = strrchr(path, '.');
	*known = true;
	if (dot && (!strcmp(dot, ".cu") || !strcmp(dot, ".cuh")))
		return LANG_CUDA;
	if (dot && (!strcmp(dot, ".c") || !strcmp(dot, ".h")))
		return LANG_C;
	*known = false;
	return LANG_C;
}

CXTranslationUnit ir_clang_parse(Arena *a, CXIndex idx, const Unit *u,
                                 const IrOptions *opt)
{
	const char **args = arena_alloc(a, (size_t)(16 + opt->nclang_args) * sizeof *args);
	int n = 0;
	if (u->lang == LANG_CUDA) {
		args[n++] = "-x";
		args[n++] = "cuda";
		const char *cuda = opt->cuda_path ? opt->cuda_path : getenv("CUDA_PATH");
		args[n++] = arena_printf(a, "--cuda-path=%s", cuda && *cuda ? cuda : "/usr/local/cuda");
		args[n++] = arena_printf(a, "--cuda-gpu-arch=%s",
		                         opt->cuda_arch ? opt->cuda_arch : "sm_90");
		args[n++] = "--cuda-host-only";
		args[n++] = "-Wno-unknown-cuda-version";
	} else {
		args[n++] = "-x";
		args[n++] = "c";
		args[n++] = "-std=gnu17";
	}
	args[n++] = "-Wno-unknown-pragmas";
	/* Deeper nesting (from macros; the text is checked by limits.c)
	 * would overflow the parser's stack inside kcc. */
	args[n++] = "-fbracket-depth=256";
	/* A relocated libclang (scripts/gpu-bundle) is told where its own
	 * headers are; an installed one finds them itself. */
	const char *rd = getenv("KCC_CLANG_RESOURCE_DIR");
	if (rd && *rd) {
		args[n++] = "-resource-dir";
		args[n++] = rd;
	}
	for (int i = 0; i < opt->nclang_args; i++)
		args[n++] = opt->clang_args[i];
	for (int i = 0; opt->target_args && opt->target_args[i] && i < 4; i++)
		args[n++] = opt->target_args[i];
	struct CXUnsavedFile uf = {u->path, u->text, (unsigned long)u->len};
	CXTranslationUnit tu = NULL;
	enum CXErrorCode e = clang_parseTranslationUnit2(
	    idx, u->path, args, n, &uf, 1, CXTranslationUnit_KeepGoing, &tu);
	if (e != CXError_Success) {
		diag_error("libclang could not parse '%s' (error %d)", u->path, (int)e);
		diag_note("check that libclang-22 is installed (scripts/setup)");
		return NULL;
	}
	return tu;
}

/* libclang's errors, at their place; 0 when there were none. */
static int report_clang(Ctx *x, CXTranslationUnit tu)
{
	int errors = 0;
	unsigned n = clang_getNumDiagnostics(tu);
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Error) {
			CXFile f;
			unsigned line, col;
			clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, &line,
			                          &col, NULL);
			Loc loc = {x->u->path, (int)line, (int)col};
			if (f && !clang_File_isEqual(f, x->file))
				loc.file = str(x->a, clang_getFileName(f));
			else if (!f)
				loc = (Loc){x->u->path, 0, 0};
			error_at(loc, "%s", str(x->a, clang_getDiagnosticSpelling(d)));
			errors++;
		}
		clang_disposeDiagnostic(d);
	}
	return errors;
}

static void fingerprint(Unit *u)
{
	Strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s %s(", u->entry_ret, u->entry.name);
	for (int i = 0; i < u->nparams; i++)
		sb_addf(&sb, "%s%s %s", i ? ", " : "", u->params[i].type, u->params[i].name);
	sb_adds(&sb, ")");
	sha256_hex(sb.buf, sb.len, u->iface);
	sb_release(&sb);
	ir_spec_hash(u->text, u->len, u->spec_hash);
}

static int find_entry(Ctx *x, bool need_spec)
{
	Unit *u = x->u;
	if (!u->spec.entry && !need_spec && x->guess) {
		u->spec.entry = x->guess;
		x->entry = x->guess_cursor;
		x->found_entry = true;
		return 0;
	}
	if (!u->spec.entry) {
		error_at((Loc){u->path, 0, 0}, "no '#pragma kcc entry' in this file");
		diag_note("kcc needs a spec; 'kcc --suggest-spec %s' prints one to start from",
		          u->path);
		return -1;
	}
	if (!x->found_entry) {
		error_at(u->spec.entry_loc, "entry function '%s' is not defined in this file",
		         u->spec.entry);
		const char *near = nearest_word(u->spec.entry, x->defined, (size_t)x->ndefined);
		if (near)
			diag_note("did you mean '%s'?", near);
		else
			diag_note("the entry is the host function kcc calls; define it in this file");
		return -1;
	}
	return 0;
}

Unit *ir_parse(Arena *a, const char *path, const char *text, size_t len,
               const IrOptions *opt, bool need_spec)
{
	Unit *u = arena_alloc(a, sizeof *u);
	u->path = path;
	u->text = text;
	u->len = len;
	diag_source(path, text, len);
	bool known;
	u->lang = lang_of(path, &known);
	if (opt->lang_set)
		u->lang = opt->lang;
	else if (!known) {
		error_at((Loc){path, 0, 0}, "cannot tell whether this is C or CUDA");
		diag_note("name it .c or .cu, or pass --target=cpu or --target=cuda");
		return NULL;
	}
	if (memchr(text, 0, len)) {
		error_at((Loc){path, 0, 0}, "file contains NUL bytes; is it a source file?");
		return NULL;
	}
	if (ir_check_limits(u) || ir_check_includes(a, u, opt) || spec_parse(a, u))
		return NULL;

	Ctx x = {.a = a, .u = u};
	CXIndex idx = clang_createIndex(0, 0);
	CXTranslationUnit tu = ir_clang_parse(a, idx, u, opt);
	Unit *result = NULL;
	if (!tu)
		goto out;
	x.file = clang_getFile(tu, path);
	if (report_clang(&x, tu))
		goto out;
	CXCursor root = clang_getTranslationUnitCursor(tu);
	clang_visitChildren(root, top, &x);
	int fe = find_entry(&x, need_spec);
	if (fe < 0)
		goto out;
	u->entry = make_func(&x, x.entry);
	CXType rt = clang_getResultType(clang_getCursorType(x.entry));
	u->entry_ret = str(a, clang_getTypeSpelling(rt));
	enum CXTypeKind rk = clang_getCanonicalType(rt).kind;
	u->ret_elem = rk == CXType_Void ? ET_NONE : elem_of(rt);
	u->ret_is_status = rk == CXType_Enum;
	read_params(&x, x.entry);
	for (int i = 0; i < u->nparams; i++)
		if (!u->params[i].name[0]) {
			error_at(u->params[i].loc, "parameter %d of entry '%s' has no name", i + 1,
			         u->entry.name);
			diag_note("kcc binds parameters by name; give it one");
			goto out;
		}
	clang_visitChildren(x.entry, find_refs, &x);
	fingerprint(u);
	if (need_spec && spec_validate(u))
		goto out;
	if (u->spec.entry)
		spec_add_return(u, a);
	result = u;
out:
	if (tu)
		clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);
	return result;
}
