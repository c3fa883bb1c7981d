/*
 * emit.c — the one path every output file of kcc takes: checked against the
 * input (kcc never writes over its input), then written atomically (temp
 * file + rename) so OUT only ever holds a whole, verified version.
 */
#include "driver.h"

#include <string.h>

const char *emit_output_path(Arena *a, const Options *o)
{
	if (o->output)
		return o->output;
	const char *base = strrchr(o->input, '/');
	base = base ? base + 1 : o->input;
	const char *dot = strrchr(base, '.');
	if (!dot || dot == base)
		return arena_printf(a, "%s.kcc", base);
	return arena_printf(a, "%.*s.kcc%s", (int)(dot - base), base, dot);
}

int emit_output(const Options *o, const Unit *u, const char *text, size_t len)
{
	Arena *a = arena_new();
	const char *out = emit_output_path(a, o);
	int rc = EXIT_OK;
	if (strcmp(out, "-") != 0 && (strcmp(out, u->path) == 0 || file_same(out, u->path))) {
		diag_error("output file '%s' is the input file", out);
		diag_note("kcc never modifies its input; name another file with -o");
		rc = EXIT_USER;
	} else {
		int e = file_write_atomic(out, text, len);
		if (e) {
			diag_error("cannot write '%s': %s", out, strerror(e));
			rc = EXIT_USER;
		} else
			diag_trace("kcc: wrote %s (%zu bytes)", out, len);
	}
	arena_free(a);
	return rc;
}
