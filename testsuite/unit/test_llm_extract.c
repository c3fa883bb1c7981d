/*
 * test_llm_extract.c — code out of answers: fences of both kinds, tags,
 * several blocks, unterminated fences, no fence at all, CRLF, NUL bytes,
 * size caps, and the plan text around the code.
 */
#include "llm/llm.h"
#include "testsuite/unit/check.h"

#include <stdlib.h>

static Arena *A;

/* The code extracted from answer for lang, or "ERR: <message>". */
static const char *code(const char *answer, const char *lang)
{
	LlmExtract x;
	const char *err;
	if (llm_extract_code(A, answer, strlen(answer), lang, &x, &err) != 0)
		return arena_printf(A, "ERR: %s", err);
	return x.code;
}

static const char *plan(const char *answer)
{
	LlmExtract x;
	const char *err;
	if (llm_extract_code(A, answer, strlen(answer), "c", &x, &err) != 0)
		return arena_printf(A, "ERR: %s", err);
	return x.plan;
}

int main(void)
{
	A = arena_new();

	/* 1. the plain case */
	CHECK_STR(code("Here:\n```c\nint x;\n```\nDone.", "c"), "int x;\n");
	/* 2. untagged fence */
	CHECK_STR(code("```\nint y;\n```", "c"), "int y;\n");
	/* 3. tilde fence */
	CHECK_STR(code("~~~cuda\n__global__ void k() {}\n~~~\n", "cuda"), "__global__ void k() {}\n");
	/* 4. the largest block in the expected language wins */
	CHECK_STR(code("```c\nint a;\n```\ntext\n```c\nint b; int c; int d;\n```\n", "c"),
	          "int b; int c; int d;\n");
	/* 5. a tagged block beats a larger untagged one */
	CHECK_STR(code("```\nlong long untagged block here;\n```\n```cuda\nint k;\n```", "cuda"),
	          "int k;\n");
	/* 6. other languages are skipped even when larger */
	CHECK_STR(code("```bash\nnvcc -O3 -arch=sm_90 gemm.cu -o gemm && ./gemm\n```\n"
	               "```cpp\nint z;\n```", "cuda"),
	          "int z;\n");
	/* 7. only a non-C block: an error that says so */
	CHECK_STR(code("```python\nprint(1)\n```", "c"),
	          "ERR: no c code block in the answer (only 'python')");
	/* 8. unterminated fence runs to the end */
	CHECK_STR(code("Plan.\n```c\nint a;\nint b;", "c"), "int a;\nint b;\n");
	/* 9. no fence, but clearly code */
	CHECK_STR(code("#include <stdio.h>\nint main(void) {\n\treturn 0;\n}\n", "c"),
	          "#include <stdio.h>\nint main(void) {\n\treturn 0;\n}\n");
	/* 10. no fence, prose: an error */
	CHECK_STR(code("I would tile the loops by 32; that helps { a lot }.\nThen unroll.", "c"),
	          "ERR: no code block in the answer");
	/* 11. CRLF line ends */
	CHECK_STR(code("```c\r\nint a;\r\nint b;\r\n```\r\n", "c"), "int a;\nint b;\n");
	/* 12. a longer closing fence closes, a shorter one does not */
	CHECK_STR(code("````c\nx ``` y\n```\nint q;\n`````\n", "c"), "x ``` y\n```\nint q;\n");
	/* 13. a fence inside the code of a tilde block is content */
	CHECK_STR(code("~~~c\n// ```\nint t;\n~~~", "c"), "// ```\nint t;\n");
	/* 14. indented fence (up to 3 spaces) and info string with attributes */
	CHECK_STR(code("   ```c title=\"k.c\"\n   int w;\n   ```", "c"), "   int w;\n");
	/* 15. tag case and pandoc style */
	CHECK_STR(code("```{.C}\nint p;\n```", "c"), "int p;\n");
	/* 16. cu and cuda are the same language */
	CHECK_STR(code("```cu\nint cu;\n```\n```c\nint cccccccccccccccccc;\n```", "cuda"), "int cu;\n");
	/* 17. empty answer */
	CHECK_STR(code("", "c"), "ERR: no code block in the answer");
	/* 18. inline backticks are not a fence */
	CHECK_STR(code("Use ```c``` blocks.\n```c\nint r;\n```", "c"), "int r;\n");
	/* 19. trailing blank lines in the block are dropped, one newline kept */
	CHECK_STR(code("```c\nint s;\n\n\n```", "c"), "int s;\n");

	/* NUL bytes and oversize answers are refused. */
	LlmExtract x;
	const char *err;
	CHECK(llm_extract_code(A, "```c\nint\0x;\n```", 15, "c", &x, &err) == -1);
	CHECK(strstr(err, "NUL") != NULL);
	size_t big = LLM_MAX_ANSWER + 1;
	char *huge = malloc(big);
	memset(huge, 'a', big);
	CHECK(llm_extract_code(A, huge, big, "c", &x, &err) == -1 && strstr(err, "1 MiB"));
	free(huge);

	/* The plan is the text outside the blocks. */
	CHECK_STR(plan("Step 1: tile.\n\n```c\nint a;\n```\n\nStep 2: unroll.\n"),
	          "Step 1: tile.\n\n\nStep 2: unroll.");
	CHECK_STR(plan("```c\nint a;\n```"), "");
	CHECK(llm_extract_code(A, "a\n```c\nb;\n```\n```cuda\nc;\n```", 27, "c", &x, &err) == 0);
	CHECK(x.nblocks == 2 && !strcmp(x.lang, "c"));
	CHECK_STR(llm_extract_plan(A, "Why:\n```c\nx;\n```\nBecause.", 25, &err), "Why:\nBecause.");

	arena_free(A);
	return check_summary("test_llm_extract");
}
