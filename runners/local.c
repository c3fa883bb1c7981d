/*
 * local.c — the local runner: commands run on this machine through
 * proc_run(), and files are already where they are needed. The ssh and
 * slurm runners implement the same Runner.
 */
#include "runner.h"

static int local_run(Runner *self, Arena *a, const ProcSpec *spec, ProcResult *r)
{
	(void)self;
	return proc_run(a, spec, r);
}

Runner *runner_local(Arena *a)
{
	Runner *r = arena_alloc(a, sizeof *r);
	r->name = "local";
	r->where = "this machine";
	r->run = local_run;
	return r;
}
