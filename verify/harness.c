/*
 * harness.c — generating the harness for a kernel file from its spec.
 *
 * The generated file is short: the parameter table, then the shared
 * runtime (verify/templates, embedded in kcc and written next to it), then
 * the kernel file by #include, then a thunk that calls the entry with the
 * buffers and the scalars bound from the shape, each cast to the type the
 * entry declares. The runtime comes before the kernel so the kernel's
 * macros cannot rewrite it. Built with -DKCC_PROMOTE, f32 buffers are
 * stored as f64 and `float` means `double` in the kernel (the fp64
 * reference of DESIGN 5.5).
 */
#include "internal.h"

#include <errno.h>
#include <string.h>

static int spec_index(const Unit *u, const CParam *cp, int i)
{
	for (int p = 0; p < u->spec.nparams; p++)
		if (u->spec.params[p].arg_index == i || !strcmp(u->spec.params[p].name, cp->name))
			return p;
	return -1;
}

static bool named_by_shapes(const Unit *u, const char *name)
{
	bool found = false;
	for (int i = 0; i < u->spec.ncheck && !found; i++)
		shape_get(&u->spec.check[i], name, &found);
	return found;
}

int harness_bind(Arena *a, const Unit *u, Binding *b, const char **why)
{
	memset(b, 0, sizeof *b);
	if (u->nparams == 0 && u->spec.nparams > 0) {
		*why = "the entry's signature is unknown (the file was not parsed)";
		return -1;
	}
	size_t cap = 0;
	for (int i = 0; i < u->nparams; i++) {
		const CParam *cp = &u->params[i];
		if (spec_index(u, cp, i) >= 0)
			continue;
		if (cp->is_pointer) {
			*why = arena_printf(a, "pointer parameter '%s' has no `#pragma kcc param`",
			                    cp->name);
			return -1;
		}
		if (!named_by_shapes(u, cp->name)) {
			*why = arena_printf(a, "scalar parameter '%s' is not a shape name",
			                    cp->name);
			return -1;
		}
		size_t n = (size_t)b->nscalars, fcap = cap;
		ARENA_PUSH(a, b->fp, n, fcap, cp->is_float_scalar);
		n = (size_t)b->nscalars;
		ARENA_PUSH(a, b->scalars, n, cap, cp->name);
		b->nscalars = (int)n;
	}
	return 0;
}

static void gen_params(Strbuf *sb, const Unit *u)
{
	sb_addf(sb, "#define KCC_NP %d\n", u->spec.nparams ? u->spec.nparams : 1);
	sb_adds(sb, "#ifdef KCC_PROMOTE\n#define KCC_F32_STORE KCC_T_F64\n#else\n"
	            "#define KCC_F32_STORE KCC_T_F32\n#endif\n");
	sb_adds(sb, "static const KccParam kcc_params[KCC_NP] = {\n");
	for (int p = 0; p < u->spec.nparams; p++) {
		const SpecParam *sp = &u->spec.params[p];
		if (sp->type == ET_F32)
			sb_addf(sb, "\t{\"%s\", %d, KCC_F32_STORE, %d},\n", sp->name,
			        (int)sp->type, (int)sp->role);
		else
			sb_addf(sb, "\t{\"%s\", %d, %d, %d},\n", sp->name, (int)sp->type,
			        (int)sp->type, (int)sp->role);
	}
	if (!u->spec.nparams)
		sb_adds(sb, "\t{\"none\", KCC_T_U8, KCC_T_U8, KCC_ROLE_IN},\n");
	sb_adds(sb, "};\n");
}

/* The spec param that holds the returned value ('return'), or -1. */
static int return_index(const Unit *u)
{
	for (int p = 0; p < u->spec.nparams; p++)
		if (u->spec.params[p].arg_index == -2)
			return p;
	return -1;
}

/* The thunk: buffers cast to the declared types (void * for variable-length
 * arrays, which only the entry can name), integer scalars from the plan,
 * floating-point ones from their bits; a returned number stored into the
 * output 'return', a returned status (an enum) checked for non-zero. */
static void gen_thunk(Strbuf *sb, const Unit *u)
{
	bool is_void = !u->entry_ret || !strcmp(u->entry_ret, "void");
	int ret = return_index(u);
	sb_adds(sb, "static double kcc_s2d(long long v)\n{\n\tdouble d;\n"
	            "\tmemcpy(&d, &v, sizeof d);\n\treturn d;\n}\n");
	const char *name = u->spec.entry ? u->spec.entry : u->entry.name;
	sb_addf(sb, "#ifdef KCC_PROFILE\nstatic __typeof__(%s) *volatile kcc_entry_fn = %s;\n"
	            "#define KCC_ENTRY (*kcc_entry_fn)\n#else\n#define KCC_ENTRY %s\n#endif\n",
	        name, name, name);
	sb_adds(sb, "static int kcc_call(void *const *b, const long long *s)\n{\n\t(void)b;\n\t(void)s;\n\t");
	if (ret < 0 && !is_void)
		sb_adds(sb, "return 0 != ");
	Strbuf args = STRBUF_INIT;
	int j = 0;
	for (int i = 0; i < u->nparams; i++) {
		const CParam *cp = &u->params[i];
		int p = spec_index(u, cp, i);
		sb_addf(&args, "%s\n\t\t(%s)", i ? "," : "", cp->cast ? cp->cast : cp->type);
		if (p >= 0)
			sb_addf(&args, "b[%d]", p);
		else if (cp->is_float_scalar)
			sb_addf(&args, "kcc_s2d(s[%d])", j++);
		else
			sb_addf(&args, "s[%d]", j++);
	}
	/* A profile build calls the entry through a volatile pointer: it keeps
	 * its own name in the profile instead of being inlined into the thunk. */
	const char *entry = "KCC_ENTRY";
	/* __typeof__ of the call (unevaluated): under KCC_PROMOTE a returned
	 * float is a double, as the output's storage is */
	if (ret >= 0)
		sb_addf(sb, "*(__typeof__(%s(%s)) *)b[%d] = %s(%s);\n\treturn 0;\n", entry,
		        sb_str(&args), ret, entry, sb_str(&args));
	else {
		sb_addf(sb, "%s(%s);\n", entry, sb_str(&args));
		if (is_void)
			sb_adds(sb, "\treturn 0;\n");
	}
	sb_release(&args);
	sb_adds(sb, "}\n");
}

char *verify_harness_source(Arena *a, const Unit *u, const Target *t,
                            const char *kernel_file, const char **why)
{
	Binding bind;
	if (harness_bind(a, u, &bind, why) != 0)
		return NULL;
	Strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "/* kcc harness for %s on %s (generated; see verify/harness.c). */\n",
	        u->path ? u->path : "(kernel)", t->name);
	sb_adds(&sb, "#define _GNU_SOURCE 1\n");
	sb_addf(&sb, "#define KCC_NS %d\n", bind.nscalars);
	sb_adds(&sb, "#include \"kcc_harness.h\"\n");
	if (u->lang == LANG_C)
		sb_adds(&sb, "#include <omp.h>\n");
	sb_addf(&sb, "#include \"%s\"\n", t->runtime);
	gen_params(&sb, u);
	sb_adds(&sb, "static int kcc_call(void *const *b, const long long *s);\n");
	sb_adds(&sb, "#include \"kcc_main.h\"\n");
	sb_adds(&sb, "#ifdef KCC_PROMOTE\n#include \"kcc_promote.h\"\n#endif\n");
	sb_addf(&sb, "#include \"%s\"\n", kernel_file);
	gen_thunk(&sb, u);
	return sb_to_arena(&sb, a);
}

int verify_write_runtime(Arena *a, const char *dir)
{
	return embedded_write(a, verify_templates, dir, NULL);
}
