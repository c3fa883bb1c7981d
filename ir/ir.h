/*
 * ir.h — kcc's front end: a kernel file parsed by libclang into a Unit.
 *
 * A Unit is the source text (kept byte for byte, so later stages edit by
 * byte range and -O0 re-emits it unchanged), the entry function and its
 * parameters as C sees them, the kernels and helpers reachable from the
 * entry, and the spec read from the `#pragma kcc` lines, validated against
 * the entry's signature. Expressions in the spec (extents, ranges, flops,
 * bytes) are parsed once into Expr trees and evaluated per shape.
 *
 * Library code: errors go to the diagnostics sink at the pragma's or the
 * source's file:line:col, and functions return NULL or a non-zero status.
 */
#ifndef KCC_IR_H
#define KCC_IR_H

#include "../support/support.h"

typedef enum { LANG_C, LANG_CUDA } Lang;

/* ---- element types and roles --------------------------------------------- */

typedef enum {
	ET_NONE = 0,
	ET_F64, ET_F32, ET_F16, ET_BF16,
	ET_I64, ET_I32, ET_I16, ET_I8, ET_U8,
} ElemType;

const char *elem_name(ElemType t);      /* "f32" */
ElemType elem_parse(const char *name);  /* ET_NONE if unknown */
size_t elem_size(ElemType t);
bool elem_is_float(ElemType t);
const char *elem_c_type(ElemType t, Lang lang); /* "float", "__half", "int32_t" */

/* scratch: a workspace, poisoned before the call, never compared, need not
 * be written. */
typedef enum { ROLE_IN, ROLE_OUT, ROLE_INOUT, ROLE_SCRATCH } Role;
const char *role_name(Role r);

/* ---- expressions over shape names ------------------------------------------ */

typedef enum { EX_NUM, EX_NAME, EX_NEG, EX_ADD, EX_SUB, EX_MUL, EX_DIV, EX_MOD,
               EX_MIN, EX_MAX } ExprKind;

typedef struct Expr Expr;
struct Expr {
	ExprKind kind;
	int64_t num;      /* EX_NUM */
	const char *name; /* EX_NAME */
	Expr *lhs, *rhs;  /* operands (EX_NEG: lhs only) */
	Loc loc;          /* where it starts, for errors */
};

/* A binding of shape names to values. A value written as a real number
 * (`alpha=1.5`) binds floating-point scalars only: real[i] is set, reals[i]
 * holds it and values[i] is 0. reals and real may be NULL (all integers). */
typedef struct {
	const char **names;
	int64_t *values;
	int n;
	Loc loc; /* the shape's place in its pragma */
	double *reals;
	bool *real;
} Shape;

/* Parse text (no trailing garbage). On error: diagnostics at loc + offset
 * and NULL. loc is where text starts in the file. */
Expr *expr_parse(Arena *a, const char *text, Loc loc);
/* The same without diagnostics: NULL when text is not an expression. */
Expr *expr_parse_quiet(Arena *a, const char *text, Loc loc);
/* Evaluate with overflow and division checks. 0 on success; on failure a
 * static message ("division by zero", "overflow", "unknown name") and, for
 * unknown names, *bad set to the offending node. */
int expr_eval(const Expr *e, const Shape *s, int64_t *out, const char **why,
              const Expr **bad);
/* Print back in canonical form ("M*K", "min(M,N)"). */
char *expr_print(Arena *a, const Expr *e);
/* Call fn for every name used in e. */
void expr_names(const Expr *e, void (*fn)(const Expr *name, void *ctx), void *ctx);
int64_t shape_get(const Shape *s, const char *name, bool *found);
/* The value of name as a double (a real binding or an integer one). */
double shape_get_real(const Shape *s, const char *name, bool *found);
/* Is name bound to a real (non-integer) value? */
bool shape_is_real(const Shape *s, const char *name);

/* ---- the spec ---------------------------------------------------------------- */

typedef struct {
	const char *name;
	Role role;
	ElemType type;
	Expr *extent;
	Expr *lo, *hi; /* range(lo,hi): inclusive lo, exclusive hi; NULL if none */
	Loc loc;       /* the param name in the pragma */
	Loc type_loc, range_loc;
	int arg_index; /* position in the entry's signature, -1 until validated */
} SpecParam;

typedef struct {
	const char *name;
	const char **values; /* as written, e.g. "32", "64" */
	int nvalues;
	Loc loc;
} TuneParam;

typedef struct {
	int line;          /* 1-based line of the `#pragma` */
	size_t begin, end; /* byte range of the whole pragma line (without '\n') */
	const char *kind;  /* "entry", "param", ... */
} PragmaLine;

typedef struct {
	const char *entry;
	Loc entry_loc;
	SpecParam *params;
	int nparams;
	Shape *check;
	int ncheck;
	Shape bench;
	bool has_bench;
	bool has_tolerance;
	double rtol, atol;
	Loc tolerance_loc;
	Expr *flops, *bytes;
	TuneParam *tune;
	int ntune;
	PragmaLine *lines;
	int nlines;
	size_t nparams_cap, ncheck_cap, ntune_cap, nlines_cap; /* growth */
} Spec;

/* ---- the unit ---------------------------------------------------------------- */

typedef struct {
	const char *name;
	const char *type;   /* as written: "const float *" */
	bool is_pointer;
	bool pointee_const; /* const float *  */
	ElemType elem;      /* pointee (pointers) or own type (scalars); ET_NONE if
	                       not one of kcc's element types */
	bool is_integer_scalar;
	bool is_float_scalar; /* float, double: bound by the shapes too */
	bool is_array;        /* T a[n][m], T (*a)[m]: a pointer to arrays */
	int ndims;            /* declared dimensions (T a[n][m]: 2; T *a: 0) */
	Expr **dims;          /* each as an expression over the parameters; NULL
	                         where not written (T (*a)[m], T a[][m]) or not
	                         understood */
	const char *cast;     /* the type generated code casts an argument to:
	                         the declared type, or "void *" for arrays of
	                         variable length in C */
	Loc loc;
} CParam;

typedef enum { FN_HOST, FN_KERNEL, FN_DEVICE } FuncKind;

typedef struct {
	const char *name;
	FuncKind kind;      /* __global__ = FN_KERNEL, __device__ = FN_DEVICE */
	Loc loc;
	size_t begin, end;  /* byte range of the definition in Unit.text */
} Func;

typedef struct {
	const char *path;
	const char *text; /* the file, byte for byte */
	size_t len;
	Lang lang;
	Spec spec;
	Func entry;
	const char *entry_ret; /* return type spelling */
	ElemType ret_elem;     /* the return value's element type, or ET_NONE
	                          (void, or a type kcc cannot compare) */
	bool ret_is_status;    /* an enum (cudaError_t): non-zero fails the call */
	CParam *params;        /* the entry's parameters, in order */
	int nparams;
	Func *funcs;           /* kernels and helpers reachable from the entry,
	                          the entry excluded, in first-call order */
	int nfuncs;
	char iface[65];        /* interface fingerprint: entry name, return and
	                          parameter types and names (sha256 hex) */
	char spec_hash[65];    /* ir_spec_hash of the text */
	const char *const *build_flags; /* compiler flags of this version (-O2's
	                                   flag search), after the project's;
	                                   NULL-terminated, NULL none */
} Unit;

typedef struct {
	Lang lang;
	bool lang_set;           /* false: from the file's suffix */
	const char **clang_args; /* extra -I/-D flags for libclang */
	int nclang_args;
	const char *cuda_path;   /* default /usr/local/cuda */
	const char *cuda_arch;   /* default sm_90 */
	const char *const *target_args; /* the target's parse flags (riscv64:
	                                   --target, -march); NULL-terminated or NULL */
} IrOptions;

/* One #include directive's target, as the compiler would find it
 * (includes.c). */
typedef struct {
	Loc at;           /* the directive's file name */
	const char *name; /* as written between the quotes or brackets */
	const char *path; /* where it was found (the first match) */
	bool system;      /* found in a system directory: not followed */
	bool regular;     /* a regular file (not a FIFO, device or directory) */
	uint64_t size;
	int depth;        /* 0: named by the unit itself */
} IrInclude;
typedef int (*IrIncludeFn)(void *ctx, const IrInclude *inc);
/* Walk the #include directives of u's text and of the project headers they
 * reach (a few levels; never opening anything but a regular file of at
 * most KCC_INPUT_MAX), calling fn for each target found; a nonzero return
 * of fn ends the walk and is returned. The one include walker: the check
 * below and -MD's dependencies use it. */
int ir_each_include(Arena *a, const Unit *u, const IrOptions *opt, IrIncludeFn fn, void *ctx);
/* Before libclang: every #include the text names, looked up as the
 * compiler would, exists only as a regular file of at most KCC_INPUT_MAX
 * (a FIFO or /dev/zero would be read forever inside kcc); quoted includes
 * of the project's own headers are followed a few levels. 0, or -1 after
 * an error at the directive. */
int ir_check_includes(Arena *a, const Unit *u, const IrOptions *opt);

/* Parse the pragmas of text only (no libclang); fills u->spec. 0 on success. */
int spec_parse(Arena *a, Unit *u);
/* The hash of text's `#pragma kcc` lines other than `tune`, each with its
 * whitespace normalised (Unit.spec_hash): a candidate may add tune lines,
 * nothing else. Lexical, with spec_parse's scanner and no diagnostics, so
 * it answers for text the front end rejects too. Returns the number of
 * `#pragma kcc` lines seen. */
int ir_spec_hash(const char *text, size_t len, char out[65]);
/* Parse path (text already read) with libclang and the spec, then validate
 * the spec against the entry. NULL after diagnostics on any error.
 * When need_spec is false (--suggest-spec), a missing spec is not an error. */
Unit *ir_parse(Arena *a, const char *path, const char *text, size_t len,
               const IrOptions *opt, bool need_spec);
/* Limits a hostile source must respect before libclang parses it in kcc's
 * process (bracket nesting; limits.c). Diagnostics, 0 when within. */
int ir_check_limits(const Unit *u);
/* Check the spec against the entry's signature; diagnostics, 0 when valid. */
int spec_validate(Unit *u);
/* A returned number becomes the output param 'return' (extent 1,
 * arg_index -2), allocated in a; ir_parse does this after validating. */
void spec_add_return(Unit *u, Arena *a);
/* The spec kcc infers from the AST, as `#pragma kcc` lines to check. */
char *ir_suggest_spec(Arena *a, const Unit *u, const IrOptions *opt);
/* The unit as JSON (--dump-ir). */
char *ir_dump_json(Arena *a, const Unit *u);
/* Extent of parameter p at shape s, in elements; 0 with *why on error. */
int spec_extent(const SpecParam *p, const Shape *s, int64_t *n, const char **why);

#endif
