/*
 * test_passes_dedup.c — when two answers are the same candidate: equal
 * after comments and formatting are dropped, different whenever the
 * difference could change what the compiler sees (tokens that would join,
 * literals, preprocessor line ends); and which rejections get a repair.
 */
#include "../../passes/passes.h"
#include "check.h"

static bool same(Arena *a, const char *x, const char *y)
{
	char kx[65], ky[65];
	passes_text_key(a, x, strlen(x), kx);
	passes_text_key(a, y, strlen(y), ky);
	return !strcmp(kx, ky);
}

static void normal_forms(Arena *a)
{
	CHECK_STR(passes_normalize(a, "int  a = b +c; // sum\n", 22, NULL), "int a=b+c;");
	CHECK_STR(passes_normalize(a, "#define N 4\nint x[N];", 21, NULL), "#define N 4\nint x[N];");
	/* the same code, formatted and commented differently */
	CHECK(same(a, "void f(int *p)\n{\n\tp[0] = 1;\n}\n",
	           "/* a note */\nvoid f(int *p) {  // entry\n  p[0]=1;   \n}"));
	CHECK(same(a, "x = a /* y */ + b;", "x=a+b;"));
	CHECK(same(a, "#pragma kcc entry f\nint y;", "  #pragma   kcc entry f  \n\nint y;\n"));
	CHECK(same(a, "#define M(a) \\\n  (a)\n", "#define M(a) (a)\n"));
	/* a difference the compiler would see */
	CHECK(!same(a, "x = a - -b;", "x = a--b;"));
	CHECK(!same(a, "x = a + +b;", "x = a++b;"));
	CHECK(!same(a, "int a; int b;", "inta; intb;"));
	CHECK(!same(a, "f(1 .5)", "f(1.5)"));
	CHECK(!same(a, "s = \"a  b\";", "s = \"a b\";"));
	CHECK(!same(a, "s = \"a // b\";", "s = \"a \";"));
	CHECK(!same(a, "c = '/'; d = '*';", "c = '/'; d = '*'; e = 1;"));
	CHECK(!same(a, "#define X 1\nint y;", "#define X 1 int y;\n"));
	CHECK(!same(a, "a[i] = 1;", "a[j] = 1;"));
}

static void repairs(void)
{
	Candidate c = {.repair_of = -1};
	c.reason = VR_WRONG;
	CHECK(search_repairable(&c));
	c.reason = VR_BUILD;
	CHECK(search_repairable(&c));
	c.reason = VR_IMPLAUSIBLE; /* the time, not the code, is in doubt */
	CHECK(!search_repairable(&c));
	c.reason = VR_WRONG;
	c.duplicate = true;
	CHECK(!search_repairable(&c));
	c.duplicate = false;
	c.correct = true;
	c.reason = VR_OK;
	CHECK(!search_repairable(&c));
}

/* Every reason a repair is sent for has its paragraph in reasons.txt. */
static void reason_texts(Arena *a)
{
	const char *doc = passes_builtin("prompts/reasons.txt", NULL);
	CHECK(doc != NULL);
	for (int r = VR_PARSE; r < VR__COUNT; r++) {
		const char *t = prompt_section(a, doc, verify_reason_name((VerifyReason)r));
		if (!t || !*t)
			fprintf(stderr, "no text for reason %s\n", verify_reason_name((VerifyReason)r));
		CHECK(t && *t);
	}
	CHECK(prompt_section(a, doc, "no-such-reason") == NULL);
}

int main(void)
{
	diag_init(COLOR_NEVER);
	Arena *a = arena_new();
	normal_forms(a);
	repairs();
	reason_texts(a);
	arena_free(a);
	return check_summary("test_passes_dedup");
}
