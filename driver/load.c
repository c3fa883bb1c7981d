/*
 * load.c — read and parse one kernel file, with the parser's options as the
 * command line sets them (main.c for the input, check.c for REF and CAND).
 */
#include "driver.h"

#include <string.h>

IrOptions driver_ir_options(const Options *o)
{
	IrOptions io = {.clang_args = (const char **)o->parse_args, .nclang_args = o->nparse_args};
	if (o->target) {
		io.lang_set = true;
		const Target *t = target_find(o->target);
		io.lang = t ? t->lang : LANG_C;
		io.target_args = t ? t->parse_args : NULL;
	}
	return io;
}

Unit *driver_load(Arena *a, const Options *o, const char *path, bool need_spec, int *rc)
{
	char *text;
	size_t len;
	int e = file_read_max(a, path, KCC_INPUT_MAX, &text, &len);
	if (e) {
		diag_error("cannot read '%s': %s", path, file_error(e));
		*rc = EXIT_USER;
		return NULL;
	}
	IrOptions io = driver_ir_options(o);
	Unit *u = ir_parse(a, path, text, len, &io, need_spec);
	if (!u)
		*rc = EXIT_USER;
	return u;
}
