/*
 * test_expr.c — the spec's expression evaluator: precedence and
 * associativity, min/max, parentheses, unary minus, errors with their
 * columns, overflow and division checks, and printing back.
 */
#include "ir/ir.h"
#include "testsuite/unit/check.h"

#include <stdio.h>
#include <stdlib.h>

static Arena *A;
static Shape S;

static int64_t eval(const char *text)
{
	Expr *e = expr_parse(A, text, (Loc){"t", 1, 1});
	if (!e) {
		fprintf(stderr, "parse failed: %s\n", text);
		return -999999;
	}
	int64_t v;
	const char *why;
	if (expr_eval(e, &S, &v, &why, NULL)) {
		fprintf(stderr, "eval failed: %s: %s\n", text, why);
		return -999999;
	}
	return v;
}

static const char *fails(const char *text)
{
	Expr *e = expr_parse(A, text, (Loc){"t", 1, 1});
	if (!e)
		return "parse";
	int64_t v;
	const char *why;
	const Expr *bad = NULL;
	return expr_eval(e, &S, &v, &why, &bad) ? why : "ok";
}

static const char *printed(const char *text)
{
	Expr *e = expr_parse(A, text, (Loc){"t", 1, 1});
	return e ? expr_print(A, e) : "(parse error)";
}

int main(void)
{
	A = arena_new();
	const char *names[] = {"M", "N", "K", "BIG"};
	int64_t values[] = {127, 129, 65, INT64_MAX / 2};
	S = (Shape){names, values, 4, {0}, NULL, NULL};

	CHECK(eval("42") == 42);
	CHECK(eval("M") == 127);
	CHECK(eval("M*K") == 127 * 65);
	CHECK(eval("1+2*3") == 7);
	CHECK(eval("(1+2)*3") == 9);
	CHECK(eval("10-4-3") == 3);      /* left associative */
	CHECK(eval("100/10/5") == 2);
	CHECK(eval("N%8") == 1);
	CHECK(eval("-M+1") == -126);
	CHECK(eval("--M") == 127);
	CHECK(eval("+M") == 127);
	CHECK(eval("min(M,N)") == 127);
	CHECK(eval("max(M, N) * 2") == 258);
	CHECK(eval("min(max(M,K), N)") == 127);
	CHECK(eval("  M *  ( N + K )  ") == 127 * (129 + 65));
	CHECK(eval("(M+15)/16*16") == 128);
	CHECK(eval("4*(M*K+K*N+M*N)") == 4 * (127 * 65 + 65 * 129 + 127 * 129));

	CHECK_STR(fails("M/(K-K)"), "division by zero");
	CHECK_STR(fails("M%0"), "division by zero");
	CHECK_STR(fails("BIG*3"), "integer overflow");
	CHECK_STR(fails("BIG+BIG+BIG"), "integer overflow");
	CHECK_STR(fails("0-BIG-BIG-BIG"), "integer overflow");
	CHECK_STR(fails("Q+1"), "unknown name");
	CHECK_STR(fails("99999999999999999999"), "parse");
	CHECK_STR(fails("M*"), "parse");
	CHECK_STR(fails("(M"), "parse");
	CHECK_STR(fails("M)"), "parse");
	CHECK_STR(fails("min(M)"), "parse");
	CHECK_STR(fails("12ab"), "parse");
	CHECK_STR(fails(""), "parse");
	CHECK_STR(fails("M $ N"), "parse");

	/* The offending node is reported, at its column. */
	Expr *e = expr_parse(A, "M*Nn+K", (Loc){"t", 3, 20});
	int64_t v;
	const char *why;
	const Expr *bad = NULL;
	CHECK(expr_eval(e, &S, &v, &why, &bad) != 0);
	CHECK(bad && bad->kind == EX_NAME && bad->loc.col == 22 && bad->loc.line == 3);

	CHECK_STR(printed("M * K"), "M*K");
	CHECK_STR(printed("(M+K)*N"), "(M+K)*N");
	CHECK_STR(printed("M-(N-K)"), "M-(N-K)");
	CHECK_STR(printed("M-N-K"), "M-N-K");
	CHECK_STR(printed("M/(N*K)"), "M/(N*K)");
	CHECK_STR(printed("min(M, N+1)"), "min(M,N+1)");
	CHECK_STR(printed("-(M+1)"), "-(M+1)");

	/* Printing then parsing again gives the same value. */
	const char *round[] = {"M-(N-K)", "-(M+1)*K", "M/(N/K)", "min(M,N)%7"};
	for (size_t i = 0; i < ARRAY_LEN(round); i++)
		CHECK(eval(printed(round[i])) == eval(round[i]));

	arena_free(A);
	return check_summary("test_expr");
}
