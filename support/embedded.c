/*
 * embedded.c — the files compiled into kcc (cmake/embed.cmake makes one
 * table a folder: passes' prompts and menus, verify's harness runtime,
 * targets' programs and QEMU plugin): find one by name, or write them all
 * into a directory for a compiler to read.
 */
#include "support.h"

#include <string.h>

const char *embedded_find(const EmbeddedFile *files, const char *name, size_t *len)
{
	for (const EmbeddedFile *f = files; f->name; f++)
		if (!strcmp(f->name, name)) {
			if (len)
				*len = f->len;
			return f->text;
		}
	return NULL;
}

int embedded_write(Arena *a, const EmbeddedFile *files, const char *dir, const char **failed)
{
	for (const EmbeddedFile *f = files; f->name; f++) {
		const char *path = arena_printf(a, "%s/%s", dir, f->name);
		if (file_write_atomic(path, f->text, f->len) != 0) {
			if (failed)
				*failed = path;
			return -1;
		}
	}
	return 0;
}
