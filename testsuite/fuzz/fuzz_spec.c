/*
 * fuzz_spec.c — libFuzzer target for the `#pragma kcc` scanner and parser
 * (ir/spec.c) and the expression parser and evaluator (ir/expr.c): a
 * candidate's pragmas are an adversary's text. Any bytes must give a spec
 * or diagnostics, never a crash, a read out of bounds or a deep recursion.
 * The input is used as a whole file and, split at the first NUL-free line,
 * as one expression evaluated against a small shape.
 */
#include "ir/ir.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	/* Diagnostics are the point, not the output: stderr goes to /dev/null
	 * only during the call, so sanitizer and libFuzzer reports still show. */
	static int devnull = -1;
	if (devnull < 0)
		devnull = open("/dev/null", O_WRONLY);
	fflush(stderr);
	int saved = dup(2);
	dup2(devnull, 2);
	Arena *a = arena_new();
	char *text = arena_strndup(a, (const char *)data, size);
	Unit *u = arena_alloc(a, sizeof *u);
	u->path = "fuzz.c";
	u->text = text;
	u->len = strlen(text);
	diag_source(u->path, u->text, u->len);
	if (ir_check_limits(u) == 0)
		spec_parse(a, u);
	const char *nl = strchr(text, '\n');
	char *expr = arena_strndup(a, text, nl ? (size_t)(nl - text) : strlen(text));
	Expr *e = expr_parse(a, expr, (Loc){"fuzz.c", 1, 1});
	if (e) {
		static const char *const names[] = {"M", "N", "K"};
		static const int64_t values[] = {7, 13, 4096};
		Shape s = {.names = (const char **)names, .values = (int64_t *)values, .n = 3};
		int64_t v;
		const char *why = NULL;
		expr_eval(e, &s, &v, &why, NULL);
		expr_print(a, e);
	}
	arena_free(a);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	return 0;
}
