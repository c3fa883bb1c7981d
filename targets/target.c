/*
 * target.c — the registry of targets: the table --target, --help and the
 * language choice read. What the targets share is tools.c.
 */
#include "target.h"

#include <string.h>

extern const Target target_cpu, target_cuda, target_riscv64;

/* cpu before riscv64: a .c file is cpu's unless --target says otherwise. */
static const Target *const TARGETS[] = {&target_cuda, &target_cpu, &target_riscv64, NULL};

const Target *const *target_table(void)
{
	return TARGETS;
}

const Target *target_find(const char *name)
{
	for (const Target *const *t = TARGETS; *t; t++)
		if (strcmp((*t)->name, name) == 0)
			return *t;
	return NULL;
}

const Target *target_for_lang(Lang lang)
{
	for (const Target *const *t = TARGETS; *t; t++)
		if ((*t)->lang == lang)
			return *t;
	return NULL;
}

const char *const *target_names(void)
{
	static const char *names[ARRAY_LEN(TARGETS)];
	for (size_t i = 0; TARGETS[i]; i++)
		names[i] = TARGETS[i]->name;
	return names;
}
