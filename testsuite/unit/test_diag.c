/*
 * test_diag.c — the diagnostics sink: a capture gets every message (and
 * the quoted source line) instead of stderr, captures nest, and any number
 * of registered files can be quoted (the sink once stopped at 32).
 */
#include "support/support.h"
#include "testsuite/unit/check.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
	diag_init(COLOR_ALWAYS); /* a capture is never coloured */
	static char names[40][16];
	static const char text[] = "int x;\nfloat y;\n";
	for (int i = 0; i < 40; i++) {
		snprintf(names[i], sizeof names[i], "f%d.c", i);
		diag_source(names[i], text, sizeof text - 1);
	}
	Strbuf sb = STRBUF_INIT;
	CHECK(diag_capture(&sb) == NULL);
	error_at((Loc){names[39], 2, 7}, "bad '%s'", "y");
	diag_note("a note");
	Strbuf inner = STRBUF_INIT;
	CHECK(diag_capture(&inner) == &sb);
	diag_warning("inner");
	CHECK(diag_capture(&sb) == &inner);
	CHECK(diag_capture(NULL) == &sb);
	CHECK_STR(sb_str(&sb), "f39.c:2:7: error: bad 'y'\n"
	                       "     2 | float y;\n"
	                       "       |       ^\n"
	                       "f39.c:2:7: note: a note\n");
	CHECK_STR(sb_str(&inner), "kcc: warning: inner\n");
	CHECK(diag_error_count() == 1);
	sb_release(&sb);
	sb_release(&inner);
	return check_summary("test_diag");
}
