/*
 * elf.c — what a built harness executable says about the code in it, read
 * from its ELF sections rather than from the candidate's text (the lexical
 * scan is a cheap filter that token pasting and macros walk around).
 *
 * Two facts matter to the verifier (issue 17):
 *   - code that runs before main: entries of .preinit_array, .init_array
 *     and .ctors. A candidate adding any runs before the harness has set up
 *     its sandbox; kcc compares the count with the reference's harness.
 *   - interposition: a global symbol the candidate defines under the name
 *     of a function the harness calls (clock_gettime, memcpy, fwrite ...)
 *     binds the harness's calls to the candidate's code. kcc compares the
 *     candidate's defined symbols with the reference harness's imports.
 *
 * Only 64-bit little-endian ELF (x86-64, aarch64) is read; anything else
 * gives -1 and the checks are skipped with a note.
 */
#include "internal.h"

#include <elf.h>
#include <string.h>

static const void *at(const char *d, size_t len, uint64_t off, uint64_t n)
{
	return off <= len && n <= len - off ? d + off : NULL;
}

int elf_inspect(Arena *a, const char *path, ElfFacts *f)
{
	memset(f, 0, sizeof *f);
	char *d;
	size_t len;
	if (file_read(a, path, &d, &len) != 0)
		return -1;
	const Elf64_Ehdr *eh = at(d, len, 0, sizeof *eh);
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    (eh->e_machine != EM_X86_64 && eh->e_machine != EM_AARCH64))
		return -1; /* riscv64's static harnesses define all of libc: not read */
	const Elf64_Shdr *sh = at(d, len, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof *sh);
	if (!sh || eh->e_shstrndx >= eh->e_shnum)
		return -1;
	const Elf64_Shdr *ss = &sh[eh->e_shstrndx];
	const char *names = at(d, len, ss->sh_offset, ss->sh_size);
	if (!names)
		return -1;
	size_t cap_def = 0, cap_und = 0;
	for (int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *s = &sh[i];
		const char *nm = s->sh_name < ss->sh_size ? names + s->sh_name : "";
		if (!strcmp(nm, ".init_array") || !strcmp(nm, ".preinit_array") ||
		    !strcmp(nm, ".ctors"))
			f->init_entries += (int)(s->sh_size / 8);
		if (s->sh_type != SHT_SYMTAB || s->sh_link >= eh->e_shnum)
			continue;
		const Elf64_Sym *sym = at(d, len, s->sh_offset, s->sh_size);
		const Elf64_Shdr *st = &sh[s->sh_link];
		const char *str = at(d, len, st->sh_offset, st->sh_size);
		if (!sym || !str)
			return -1;
		for (size_t k = 0; k < s->sh_size / sizeof *sym; k++) {
			int bind = ELF64_ST_BIND(sym[k].st_info), type = ELF64_ST_TYPE(sym[k].st_info);
			if (sym[k].st_name >= st->sh_size || (bind != STB_GLOBAL && bind != STB_WEAK))
				continue;
			const char *n = str + sym[k].st_name;
			size_t nl = strnlen(n, st->sh_size - sym[k].st_name);
			char *name = arena_strndup(a, n, nl);
			char *ver = strchr(name, '@'); /* "memcpy@GLIBC_2.14" */
			if (ver)
				*ver = 0;
			if (sym[k].st_shndx == SHN_UNDEF) {
				size_t m = (size_t)f->nundef;
				ARENA_PUSH(a, f->undef, m, cap_und, name);
				f->nundef = (int)m;
			} else if (type == STT_FUNC || type == STT_OBJECT || type == STT_GNU_IFUNC) {
				size_t m = (size_t)f->ndefined;
				ARENA_PUSH(a, f->defined, m, cap_def, name);
				f->ndefined = (int)m;
			}
		}
	}
	return 0;
}

/* Names a candidate may never define, whether or not this harness calls
 * them: the clocks, the process and I/O calls the runtimes use. */
static const char *const NEVER[] = {
    "clock_gettime", "gettimeofday", "time", "clock", "nanosleep", "clock_nanosleep",
    "write", "read", "open", "openat", "close", "fcntl", "prctl", "sigaction", "signal",
    "syscall", "_exit", "_Exit", "exit", "abort", "fork", "execve", "pthread_create",
    "malloc", "free", "calloc", "realloc", "aligned_alloc", "memcpy", "memmove", "memset",
    "memcmp", "fwrite", "fflush", "fdopen", "fopen", "fprintf", "vfprintf", "omp_get_wtime",
    "__libc_start_main", "getpid", "dlopen", "dlsym"};

const char *elf_forbidden(const ElfFacts *ref, const ElfFacts *cand)
{
	for (int i = 0; i < cand->ndefined; i++) {
		const char *n = cand->defined[i];
		bool bad = false;
		for (size_t k = 0; k < ARRAY_LEN(NEVER) && !bad; k++)
			bad = !strcmp(n, NEVER[k]);
		for (int k = 0; k < ref->nundef && !bad; k++)
			bad = !strcmp(n, ref->undef[k]);
		if (bad)
			return n;
	}
	return NULL;
}
