/*
 * includes.c — the one walk over a source's #include directives. libclang
 * reads every file a source includes inside kcc's own process, so an
 * `#include "/dev/zero"` or of a FIFO in a candidate never ends (12.8 GB
 * before the OOM killer); and `-MD` must name the headers make should
 * watch. Both need the same thing: each directive's target looked up where
 * the compiler would look (quoted: the including file's own directory
 * first; then -iquote, -I, -isystem and the system directories; the first
 * match wins), and the project's own headers followed a few levels, never
 * opening what is not a regular file of at most KCC_INPUT_MAX. The walk is
 * lexical: a directive inside #if 0 counts too, as for gcc -MM's users a
 * header too many is harmless and one too few is a stale build.
 */
#include "ir.h"

#include <string.h>
#include <sys/stat.h>

enum { INCLUDE_MAX_DEPTH = 8, INCLUDE_MAX_FILES = 256 };

typedef struct {
	Arena *a;
	const IrOptions *opt;
	IrIncludeFn fn;
	void *ctx;
	int files;
} Walk;

static const char *const SYSTEM_DIRS[] = {"/usr/local/include", "/usr/include",
                                          "/usr/local/cuda/include", NULL};

static const char *dir_of(Arena *a, const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? arena_printf(a, "%.*s", (int)(slash - path), path) : ".";
}

/* The -I/-iquote/-isystem directories of the options, into dirs (quoted:
 * all three kinds; angled: not -iquote). */
static int option_dirs(const IrOptions *opt, bool quoted, const char **dirs, int max)
{
	int n = 0;
	static const char *const FLAGS[] = {"-iquote", "-I", "-isystem", NULL};
	for (int i = 0; opt && i < opt->nclang_args && n < max; i++) {
		const char *arg = opt->clang_args[i];
		for (int f = quoted ? 0 : 1; FLAGS[f]; f++) {
			size_t k = strlen(FLAGS[f]);
			if (strncmp(arg, FLAGS[f], k))
				continue;
			const char *d = arg[k] ? arg + k : i + 1 < opt->nclang_args ? opt->clang_args[i + 1] : NULL;
			if (d && n < max)
				dirs[n++] = d;
			break;
		}
	}
	return n;
}

static int walk_text(Walk *w, const char *path, const char *text, size_t len, int depth);

/* One directive's target, looked up in the compiler's order; the first
 * match goes to the callback and, when it is a project header, is read. */
static int walk_target(Walk *w, Loc at, const char *name, bool quoted, const char *self_dir,
                       int depth)
{
	const char *dirs[72];
	int n = 0, nsys = 0;
	if (name[0] == '/') {
		dirs[n++] = "";
	} else {
		if (quoted)
			dirs[n++] = self_dir;
		n += option_dirs(w->opt, quoted, dirs + n, 64);
		for (int i = 0; SYSTEM_DIRS[i]; i++, nsys++)
			dirs[n++] = SYSTEM_DIRS[i];
	}
	for (int i = 0; i < n; i++) {
		const char *p = dirs[i][0] ? arena_printf(w->a, "%s/%s", dirs[i], name) : name;
		struct stat st;
		if (stat(p, &st) != 0)
			continue;
		IrInclude inc = {.at = at, .name = name, .path = p, .system = i >= n - nsys,
		                 .regular = S_ISREG(st.st_mode), .size = (uint64_t)st.st_size,
		                 .depth = depth};
		int e = w->fn(w->ctx, &inc);
		if (e)
			return e;
		/* A system header is the system's, not read further. */
		if (inc.system || !inc.regular || inc.size > KCC_INPUT_MAX ||
		    depth >= INCLUDE_MAX_DEPTH || ++w->files > INCLUDE_MAX_FILES)
			return 0;
		char *text = NULL;
		size_t len = 0;
		if (file_read_max(w->a, p, KCC_INPUT_MAX, &text, &len) != 0)
			return 0; /* unreadable: the compiler will say so */
		return walk_text(w, p, text, len, depth + 1);
	}
	return 0;
}

static int walk_text(Walk *w, const char *path, const char *text, size_t len, int depth)
{
	const char *s = text, *end = text + len, *dir = dir_of(w->a, path);
	for (int line = 1; s < end; line++) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		if (!eol)
			eol = end;
		const char *p = s;
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if (p < eol && *p == '#') {
			for (p++; p < eol && (*p == ' ' || *p == '\t'); p++)
				;
			if (eol - p > 7 && !strncmp(p, "include", 7)) {
				const char *q = p + 7;
				while (q < eol && (*q == ' ' || *q == '\t'))
					q++;
				char close = q < eol && *q == '"' ? '"' : q < eol && *q == '<' ? '>' : 0;
				const char *e = close ? memchr(q + 1, close, (size_t)(eol - q - 1)) : NULL;
				if (e && e > q + 1) {
					const char *name = arena_printf(w->a, "%.*s", (int)(e - q - 1), q + 1);
					Loc at = {path, line, (int)(q - s) + 1};
					int rc = walk_target(w, at, name, close == '"', dir, depth);
					if (rc)
						return rc;
				}
			}
		}
		s = eol + 1;
	}
	return 0;
}

int ir_each_include(Arena *a, const Unit *u, const IrOptions *opt, IrIncludeFn fn, void *ctx)
{
	Walk w = {.a = a, .opt = opt, .fn = fn, .ctx = ctx};
	return walk_text(&w, u->path, u->text, u->len, 0);
}

/* ---- what libclang may read ------------------------------------------------------ */

static int check_one(void *ctx, const IrInclude *inc)
{
	(void)ctx;
	if (inc->regular && inc->size <= KCC_INPUT_MAX)
		return 0;
	error_at(inc->at, "#include target '%s' (%s) is %s", inc->name, inc->path,
	         inc->regular ? "too large to be a header" : "not a regular file");
	diag_note("kcc reads every included file; a FIFO or a device would never end");
	return -1;
}

int ir_check_includes(Arena *a, const Unit *u, const IrOptions *opt)
{
	return ir_each_include(a, u, opt, check_one, NULL);
}
