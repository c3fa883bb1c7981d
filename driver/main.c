/*
 * main.c — the kcc driver. Read this first: it is the table of contents.
 *
 *   options ─▶ read FILE ─▶ ir_parse (libclang + spec) ─▶ mode:
 *       --dump-ir       print the IR as JSON
 *       --suggest-spec  print a spec inferred from the AST
 *       --check         verify CAND against REF              (check.c, verify/)
 *       --profile       time and profile the kernel          (profile.c, targets/)
 *       -O0             re-emit the file unchanged
 *       -O2 / -O-llm    autotune / search for a faster version (search.c,
 *                       passes/): plan → implement → verify → measure → select
 *   ─▶ emit OUT atomically (emit.c), report, passes dir, make deps (depfile.c)
 *
 * Library code reports through the diagnostics sink and returns a status;
 * only this file decides the exit code (DESIGN.md section 3).
 */
#include "driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(Arena *a, const Options *o)
{
	int rc = EXIT_OK;
	if (o->mode == MODE_CHECK)
		return driver_check(a, o);

	Unit *u = driver_load(a, o, o->input, o->mode != MODE_SUGGEST_SPEC, &rc);
	if (!u)
		return rc;

	switch (o->mode) {
	case MODE_DUMP_IR:
		fputs(ir_dump_json(a, u), stdout);
		return EXIT_OK;
	case MODE_SUGGEST_SPEC: {
		IrOptions io = driver_ir_options(o);
		char *spec = ir_suggest_spec(a, u, &io);
		if (!spec)
			return EXIT_TOOL;
		fputs(spec, stdout);
		return EXIT_OK;
	}
	case MODE_PROFILE:
		return driver_profile(a, o, u);
	default:
		break;
	}

	/* -O2 / -O-llm: the search picks what emit writes (search.c). */
	if (o->level != OPT_O0)
		return driver_search(a, o, u);

	/* -O0: the reference is the output. */
	int rc0 = emit_output(o, u, u->text, u->len);
	if (rc0 == EXIT_OK && o->search.md)
		driver_depfile(a, o, u, emit_output_path(a, o));
	return rc0;
}

int main(int argc, char **argv)
{
	/* Secrets first: kcc's /proc files closed to other processes, every
	 * secret value masked in all kcc writes and sends (support/redact.c). */
	proc_protect_self();
	redact_init();
	redact_stdio();
	Options o;
	int rc = options_parse(argc, argv, &o);
	if (rc < 0)
		rc = options_print(&o);
	if (rc >= 0)
		return rc;
	dir_cache_set(o.search.cache_dir); /* every folder's cache dir */
	/* Every temp dir of this run lives under one root that goes away on
	 * every exit path, SIGTERM included (support/tempdir.c). */
	temp_root_init();
	temp_root_on_fatal(proc_kill_all); /* and no child outlives kcc */
	if (o.keep_temps)
		temp_root_keep();
	Arena *a = arena_new();
	rc = driver_project(a, &o);
	if (rc < 0)
		rc = run(a, &o);
	arena_free(a);
	for (int i = 0; i < o.nclang_args; i++)
		free((void *)o.clang_args[i]);
	free(o.clang_args);
	free(o.xcc);
	free(o.xnvcc);
	free(o.cands);
	return rc;
}
