/*
 * runner.c — --runner: open the Runner where builds and runs happen
 * (runners/), with a message that says what to fix when it cannot be
 * reached. The verifier gets it through VerifyOptions and never asks
 * which one it is.
 */
#include "driver.h"

#include <string.h>

int driver_runner(Arena *a, const Options *o, Runner **out)
{
	const char *why = "";
	/* Not under the run's temp root: ssh's control socket path must stay
	 * short (runners/ssh.c removes its own dir). */
	*out = runner_open(a, o->runner, temp_root_parent(), &why);
	if (*out) {
		runner_cleanup_on_signal(*out);
		return EXIT_OK;
	}
	diag_error("--runner=%s: %s", o->runner, why);
	if (!strncmp(o->runner, "ssh://", 6))
		diag_note("kcc runs $KCC_SSH (default 'ssh') with BatchMode=yes: the host must "
		          "accept your key or agent; try 'ssh %s true' (docs/runners.md)",
		          o->runner + 6);
	else if (!strncmp(o->runner, "slurm", 5))
		diag_note("kcc submits with sbatch and needs its work dir on a file system the "
		          "nodes share: set KCC_SLURM_DIR (docs/runners.md)");
	return EXIT_TOOL;
}
