/*
 * limits.c — the checks a source passes before libclang sees it. A
 * candidate is an adversary's file: 3,000 nested parentheses overflow
 * clang's recursive-descent parser's stack inside kcc's own process. So
 * brackets nested deeper than IR_MAX_NESTING (clang's own -fbracket-depth
 * default for the compiler, 256) are a clear error at the place they go
 * too deep, and libclang is told the same limit for what macros expand.
 * Comments, string and character literals are skipped.
 */
#include "ir.h"

#include <string.h>

enum { IR_MAX_NESTING = 256 };

int ir_check_limits(const Unit *u)
{
	const char *s = u->text, *end = u->text + u->len;
	int depth = 0, line = 1;
	const char *bol = s;
	while (s < end) {
		char c = *s;
		if (c == '\n') {
			line++;
			bol = ++s;
			continue;
		}
		if (c == '/' && s + 1 < end && s[1] == '/') {
			while (s < end && *s != '\n')
				s++;
			continue;
		}
		if (c == '/' && s + 1 < end && s[1] == '*') {
			for (s += 2; s < end && !(*s == '*' && s + 1 < end && s[1] == '/'); s++)
				if (*s == '\n') {
					line++;
					bol = s + 1;
				}
			s += 2;
			continue;
		}
		if (c == '"' || c == '\'') {
			for (s++; s < end && *s != c && *s != '\n'; s++)
				if (*s == '\\' && s + 1 < end && s[1] != '\n')
					s++;
			s++;
			continue;
		}
		if (c == '(' || c == '[' || c == '{') {
			if (++depth > IR_MAX_NESTING) {
				error_at((Loc){u->path, line, (int)(s - bol) + 1},
				         "brackets nested more than %d deep", IR_MAX_NESTING);
				diag_note("kcc (like clang's -fbracket-depth) parses at most %d "
				          "nested (), [] and {}",
				          IR_MAX_NESTING);
				return -1;
			}
		} else if ((c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		s++;
	}
	return 0;
}
