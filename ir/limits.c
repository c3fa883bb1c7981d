/*
 * limits.c — the checks a source passes before libclang sees it. A
 * candidate is an adversary's file: 3,000 nested parentheses overflow
 * clang's recursive-descent parser's stack inside kcc's own process. So
 * brackets nested deeper than IR_MAX_NESTING (clang's own -fbracket-depth
 * default for the compiler, 256) are a clear error at the place they go
 * too deep, and libclang is told the same limit for what macros expand.
 * Comments, string and character literals are skipped.
 */
#include "ir.h"

#include <string.h>
#include <sys/stat.h>

enum { IR_MAX_NESTING = 256 };

int ir_check_limits(const Unit *u)
{
	const char *s = u->text, *end = u->text + u->len;
	int depth = 0, line = 1;
	const char *bol = s;
	while (s < end) {
		char c = *s;
		if (c == '\n') {
			line++;
			bol = ++s;
			continue;
		}
		if (c == '/' && s + 1 < end && s[1] == '/') {
			while (s < end && *s != '\n')
				s++;
			continue;
		}
		if (c == '/' && s + 1 < end && s[1] == '*') {
			for (s += 2; s < end && !(*s == '*' && s + 1 < end && s[1] == '/'); s++)
				if (*s == '\n') {
					line++;
					bol = s + 1;
				}
			s += 2;
			continue;
		}
		if (c == '"' || c == '\'') {
			for (s++; s < end && *s != c && *s != '\n'; s++)
				if (*s == '\\' && s + 1 < end && s[1] != '\n')
					s++;
			s++;
			continue;
		}
		if (c == '(' || c == '[' || c == '{') {
			if (++depth > IR_MAX_NESTING) {
				error_at((Loc){u->path, line, (int)(s - bol) + 1},
				         "brackets nested more than %d deep", IR_MAX_NESTING);
				diag_note("kcc (like clang's -fbracket-depth) parses at most %d "
				          "nested (), [] and {}",
				          IR_MAX_NESTING);
				return -1;
			}
		} else if ((c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		s++;
	}
	return 0;
}

/* ---- #include targets --------------------------------------------------------- */

/* libclang reads every file a source includes inside kcc's own process: an
 * `#include "/dev/zero"` or of a FIFO in a candidate never ends (12.8 GB
 * before the OOM killer). So before libclang sees a source, each include
 * it names is looked up where the compiler would look (quoted: the file's
 * own directory first; then -iquote, -I, -isystem and the system
 * directories), and any path that exists there and is not a regular file,
 * or is larger than KCC_INPUT_MAX, is an error at the directive. Quoted
 * includes found in the file's own directory or an -I directory are
 * checked the same way, a few levels deep. */

enum { INCLUDE_MAX_DEPTH = 8, INCLUDE_MAX_FILES = 256 };

typedef struct {
	Arena *a;
	const IrOptions *opt;
	int files;
} Includes;

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

static int check_text(Includes *in, const char *path, const char *text, size_t len, int depth);

/* One include's target, looked up in dirs (or as it is when absolute). */
static int check_target(Includes *in, Loc at, const char *name, bool quoted, const char *self_dir,
                        int depth)
{
	const char *dirs[72];
	int n = 0;
	if (name[0] == '/') {
		dirs[n++] = "";
	} else {
		if (quoted)
			dirs[n++] = self_dir;
		n += option_dirs(in->opt, quoted, dirs + n, 64);
		for (int i = 0; SYSTEM_DIRS[i]; i++)
			dirs[n++] = SYSTEM_DIRS[i];
	}
	for (int i = 0; i < n; i++) {
		const char *p = dirs[i][0] ? arena_printf(in->a, "%s/%s", dirs[i], name) : name;
		struct stat st;
		if (stat(p, &st) != 0)
			continue;
		if (!S_ISREG(st.st_mode) || (size_t)st.st_size > KCC_INPUT_MAX) {
			error_at(at, "#include target '%s' (%s) is %s", name, p,
			         S_ISREG(st.st_mode) ? "too large to be a header" : "not a regular file");
			diag_note("kcc reads every included file; a FIFO or a device would never end");
			return -1;
		}
		/* The compiler takes the first match; a system header is the
		 * system's, not read further. */
		bool system = i >= n - 3 && name[0] != '/';
		if (system || depth >= INCLUDE_MAX_DEPTH || ++in->files > INCLUDE_MAX_FILES)
			return 0;
		char *text = NULL;
		size_t len = 0;
		if (file_read_max(in->a, p, KCC_INPUT_MAX, &text, &len) != 0)
			return 0; /* unreadable: the compiler will say so */
		return check_text(in, p, text, len, depth + 1);
	}
	return 0;
}

static int check_text(Includes *in, const char *path, const char *text, size_t len, int depth)
{
	const char *s = text, *end = text + len, *dir = dir_of(in->a, path);
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
					const char *name = arena_printf(in->a, "%.*s", (int)(e - q - 1), q + 1);
					Loc at = {path, line, (int)(q - s) + 1};
					if (check_target(in, at, name, close == '"', dir, depth) != 0)
						return -1;
				}
			}
		}
		s = eol + 1;
	}
	return 0;
}

int ir_check_includes(Arena *a, const Unit *u, const IrOptions *opt)
{
	Includes in = {.a = a, .opt = opt};
	return check_text(&in, u->path, u->text, u->len, 0);
}
