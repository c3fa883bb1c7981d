/*
 * test_ir.c — the front end as a library: ir_parse on a C kernel with a
 * helper, the ranges it records, editing by range, and the interface
 * fingerprint that tells a changed signature from an unchanged one.
 */
#include "ir/ir.h"
#include "testsuite/unit/check.h"

#include <stdio.h>
#include <string.h>

static const char SRC[] =
    "#pragma kcc entry scale\n"
    "#pragma kcc param x in  f32[N]\n"
    "#pragma kcc param y out f32[N]\n"
    "#pragma kcc shape check N=17; N=64\n"
    "#pragma kcc shape bench N=1048576\n"
    "static float twice(float v) { return 2.0f * v; }\n"
    "void scale(const float *x, float *y, int N)\n"
    "{\n"
    "\tfor (int i = 0; i < N; i++)\n"
    "\t\ty[i] = twice(x[i]);\n"
    "}\n";

static Unit *parse(Arena *a, const char *text)
{
	IrOptions io = {0};
	return ir_parse(a, "t.c", text, strlen(text), &io, true);
}

/* A copy of u's text with bytes [begin, end) replaced by repl; NULL when
 * the range is outside the text. */
static char *replace_range(Arena *a, const Unit *u, size_t begin, size_t end,
                           const char *repl, size_t *len)
{
	if (begin > end || end > u->len)
		return NULL;
	size_t rn = strlen(repl);
	*len = u->len - (end - begin) + rn;
	char *out = arena_alloc(a, *len + 1);
	memcpy(out, u->text, begin);
	memcpy(out + begin, repl, rn);
	memcpy(out + begin + rn, u->text + end, u->len - end);
	return out;
}

int main(void)
{
	Arena *a = arena_new();
	Unit *u = parse(a, SRC);
	CHECK(u != NULL);
	if (!u)
		return check_summary("test_ir");
	CHECK_STR(u->entry.name, "scale");
	CHECK(u->nparams == 3 && u->params[0].pointee_const && !u->params[1].pointee_const);
	CHECK(u->params[2].is_integer_scalar);
	CHECK(u->nfuncs == 1 && !strcmp(u->funcs[0].name, "twice"));
	CHECK(u->spec.nparams == 2 && u->spec.params[1].arg_index == 1);
	CHECK(u->spec.ncheck == 2 && u->spec.has_bench);

	/* The recorded range is exactly the helper's definition. */
	const Func *f = &u->funcs[0];
	CHECK(!strncmp(u->text + f->begin, "static float twice", 18));
	CHECK(u->text[f->end - 1] == '}');

	/* Editing the helper by its range gives a unit with the same interface. */
	size_t len;
	char *edited = replace_range(a, u, f->begin, f->end,
	                                "static float twice(float v) { return v + v; }", &len);
	CHECK(edited && strstr(edited, "return v + v;") && len == strlen(edited));
	Unit *u2 = parse(a, edited);
	CHECK(u2 && !strcmp(u2->iface, u->iface) && !strcmp(u2->spec_hash, u->spec_hash));
	CHECK(replace_range(a, u, 5, u->len + 1, "", &len) == NULL);

	/* A changed parameter type changes the interface fingerprint... */
	char *changed = replace_range(a, u, (size_t)(strstr(SRC, "int N)") - SRC),
	                                 (size_t)(strstr(SRC, "int N)") - SRC) + 3, "long",
	                                 &len);
	IrOptions io = {0};
	Unit *u3 = ir_parse(a, "t.c", changed, len, &io, false);
	CHECK(u3 && strcmp(u3->iface, u->iface) != 0);
	/* ...and an added tune line leaves the spec hash alone, while a changed
	 * extent does not. */
	const char *tuned = "#pragma kcc tune U=1,2\n";
	char *t = replace_range(a, u, 0, 0, tuned, &len);
	Unit *u4 = ir_parse(a, "t.c", t, len, &io, false);
	CHECK(u4 && !strcmp(u4->spec_hash, u->spec_hash));
	const char *p = strstr(SRC, "f32[N]\n#pragma kcc param y");
	char *ext = replace_range(a, u, (size_t)(p - SRC), (size_t)(p - SRC) + 6, "f32[N-1]",
	                             &len);
	Unit *u5 = ir_parse(a, "t.c", ext, len, &io, false);
	CHECK(u5 && strcmp(u5->spec_hash, u->spec_hash) != 0);

	arena_free(a);
	return check_summary("test_ir");
}
