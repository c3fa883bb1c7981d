/*
 * project.c — the project's build, as the user's own build has it: the
 * compiler (KCC_CC, CC; NVCC for cuda) and the flags (-I -D -U, -Xcc,
 * KCC_CFLAGS, -Xnvcc, KCC_NVCCFLAGS, a compile_commands.json entry) that
 * every build of a kernel kcc makes uses — the reference, each candidate
 * and the profile driver — so a speed-up is measured against the original
 * built the way the project builds it.
 *
 * The driver sets it once, after reading the options; it is part of the
 * options (DESIGN: no global mutable state except the diagnostics sink
 * and the options). Builds of kcc's own programs (the peak probes) do not
 * use it.
 */
#include "target.h"

#include <string.h>

static TargetProject project;

void target_project_set(const TargetProject *p)
{
	project = *p;
}

const TargetProject *target_project(void)
{
	return &project;
}
