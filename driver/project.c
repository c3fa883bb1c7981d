/*
 * project.c — the project's build, gathered once from the command line,
 * the environment and the project's compile_commands.json, and handed to
 * the targets (targets/project.c) so that every build kcc makes of the
 * kernel — the reference, each candidate, the profile driver — uses it,
 * and to libclang, so the file parses as it builds.
 *
 *   compiler   KCC_CC, else CC (as make's $(CC)), else cc; NVCC for cuda
 *   C flags    compile_commands.json's entry for the file (-p DIR), then
 *              -I -D -U in order, then KCC_CFLAGS, then each -Xcc=FLAG
 *   nvcc flags the same -I -D -U, then KCC_NVCCFLAGS, then each -Xnvcc=FLAG
 *
 * Later flags win, as on a command line. Builds run in temp dirs, so
 * relative include paths are made absolute (from kcc's working directory,
 * or the compile command's "directory"), and the kernel's own directory is
 * searched for "quoted" includes as a compiler searches the including
 * file's directory. KCC_CFLAGS is split at white space (no shell quoting).
 */
#include "driver.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
	Arena *a;
	const char **v;
	size_t n, cap;
} List;

static void push(List *l, const char *s)
{
	ARENA_PUSH(l->a, l->v, l->n, l->cap, s);
}

static const char *const *done(List *l)
{
	push(l, NULL);
	l->n--;
	return l->v;
}

static char *dir_of(Arena *a, const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return arena_strdup(a, ".");
	return slash == path ? arena_strdup(a, "/") : arena_strndup(a, path, (size_t)(slash - path));
}

static const char *absolute(Arena *a, const char *base, const char *path)
{
	if (path[0] == '/')
		return path;
	char cwd[PATH_MAX];
	if (!base)
		base = getcwd(cwd, sizeof cwd) ? cwd : ".";
	return arena_printf(a, "%s/%s", base, path);
}

/* Flags that take a path: joined (-Idir) or separate (-I dir). */
static const char *const PATH_FLAGS[] = {"-I", "-isystem", "-iquote", "-include", "-idirafter"};

static int path_flag(const char *s)
{
	for (size_t i = 0; i < ARRAY_LEN(PATH_FLAGS); i++)
		if (!strncmp(s, PATH_FLAGS[i], strlen(PATH_FLAGS[i])))
			return (int)i;
	return -1;
}

/* Add argv[*i] (and its separate argument) to l with paths made absolute
 * against base; keep_only_pp: only preprocessor flags (for libclang and
 * nvcc). Returns whether it was a preprocessor flag. */
static bool add_flag(Arena *a, List *l, List *pp, const char *const *argv, int argc, int *i,
                     const char *base)
{
	const char *s = argv[*i];
	int k = path_flag(s);
	if (k >= 0) {
		const char *f = PATH_FLAGS[k], *p = s + strlen(f);
		if (!*p && *i + 1 < argc)
			p = argv[++*i];
		if (!*p)
			return false;
		const char *flag = arena_printf(a, "%s%s", f, absolute(a, base, p));
		if (k > 0) { /* -isystem DIR: two words for gcc */
			push(l, f);
			push(l, absolute(a, base, p));
			if (pp) {
				push(pp, f);
				push(pp, absolute(a, base, p));
			}
		} else {
			push(l, flag);
			if (pp)
				push(pp, flag);
		}
		return true;
	}
	if ((!strncmp(s, "-D", 2) || !strncmp(s, "-U", 2))) {
		const char *f = s;
		if (!s[2] && *i + 1 < argc)
			f = arena_printf(a, "%.2s%s", s, argv[++*i]);
		push(l, f);
		if (pp)
			push(pp, f);
		return true;
	}
	push(l, s);
	if (pp && !strncmp(s, "-std=", 5))
		push(pp, s);
	return false;
}

static void split_env(Arena *a, const char *name, List *out)
{
	const char *e = getenv(name);
	for (const char *p = e; p && *p;) {
		while (isspace((unsigned char)*p))
			p++;
		const char *s = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (p > s)
			push(out, arena_strndup(a, s, (size_t)(p - s)));
	}
}

/* "command": split at white space, honouring simple '..' and ".." quotes. */
static void split_command(Arena *a, const char *cmd, List *out)
{
	Strbuf sb = STRBUF_INIT;
	const char *p = cmd;
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		sb_reset(&sb);
		char q = 0;
		for (; *p && (q || !isspace((unsigned char)*p)); p++) {
			if (!q && (*p == '"' || *p == '\''))
				q = *p;
			else if (q && *p == q)
				q = 0;
			else if (*p == '\\' && p[1] && q != '\'')
				sb_addc(&sb, *++p);
			else
				sb_addc(&sb, *p);
		}
		push(out, arena_strdup(a, sb_str(&sb)));
	}
	sb_release(&sb);
}

static bool same_file(const char *x, const char *y)
{
	char rx[PATH_MAX], ry[PATH_MAX];
	return realpath(x, rx) && realpath(y, ry) && !strcmp(rx, ry);
}

/* The flags of input's entry in DIR/compile_commands.json, as clang tools
 * read it: "arguments", else "command"; the compiler, -c, -o FILE, the
 * source and dependency-file options are not flags of the build. */
static int read_compdb(Arena *a, const char *dir, const char *input, List *cflags, List *pp)
{
	const char *path = arena_printf(a, "%s/compile_commands.json", dir);
	char *text;
	size_t len;
	int e = file_read(a, path, &text, &len);
	if (e) {
		diag_error("cannot read '%s': %s", path, strerror(e));
		diag_note("-p takes the build directory that holds compile_commands.json "
		          "(cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make)");
		return EXIT_USER;
	}
	cJSON *db = cJSON_ParseWithLength(text, len);
	if (!cJSON_IsArray(db)) {
		cJSON_Delete(db);
		diag_error("'%s' is not a compilation database (a JSON array)", path);
		return EXIT_USER;
	}
	cJSON *hit = NULL, *e0;
	cJSON_ArrayForEach(e0, db)
	{
		const cJSON *f = cJSON_GetObjectItem(e0, "file");
		const cJSON *d = cJSON_GetObjectItem(e0, "directory");
		if (!cJSON_IsString(f))
			continue;
		const char *full = cJSON_IsString(d) ? absolute(a, d->valuestring, f->valuestring)
		                                     : f->valuestring;
		if (same_file(full, input)) {
			hit = e0;
			break;
		}
	}
	if (!hit) {
		cJSON_Delete(db);
		diag_warning("'%s' has no entry for '%s': building with kcc's flags and the "
		             "command line's", path, input);
		return -1;
	}
	List args = {.a = a};
	const cJSON *av = cJSON_GetObjectItem(hit, "arguments");
	const cJSON *cmd = cJSON_GetObjectItem(hit, "command");
	const cJSON *d = cJSON_GetObjectItem(hit, "directory");
	const char *base = cJSON_IsString(d) ? arena_strdup(a, d->valuestring) : dir;
	if (cJSON_IsArray(av)) {
		const cJSON *x;
		cJSON_ArrayForEach(x, av) if (cJSON_IsString(x)) push(&args, arena_strdup(a, x->valuestring));
	} else if (cJSON_IsString(cmd))
		split_command(a, cmd->valuestring, &args);
	const cJSON *f = cJSON_GetObjectItem(hit, "file");
	const char *src = arena_strdup(a, f->valuestring);
	cJSON_Delete(db);
	for (int i = 1; i < (int)args.n; i++) { /* args[0] is the compiler */
		const char *s = args.v[i];
		if (!strcmp(s, "-o") || !strcmp(s, "-MF") || !strcmp(s, "-MT") || !strcmp(s, "-MQ")) {
			i++;
			continue;
		}
		if (!strcmp(s, "-c") || !strcmp(s, src) || !strcmp(s, "--") ||
		    !strncmp(s, "-M", 2) || s[0] != '-')
			continue;
		add_flag(a, cflags, pp, args.v, (int)args.n, &i, base);
	}
	return -1;
}

int driver_project(Arena *a, Options *o)
{
	List cflags = {.a = a}, nvflags = {.a = a}, pp = {.a = a}, clang = {.a = a};
	if (o->compdb) {
		int rc = read_compdb(a, o->compdb, o->input, &cflags, &clang);
		if (rc >= 0)
			return rc;
	}
	/* -I -D -U of the command line, in order, for both compilers */
	for (int i = 0; i < o->nclang_args; i++) {
		int j = i;
		add_flag(a, &cflags, &pp, o->clang_args, o->nclang_args, &j, NULL);
	}
	for (size_t i = 0; i < pp.n; i++) {
		push(&nvflags, pp.v[i]);
		push(&clang, pp.v[i]);
	}
	List env = {.a = a};
	split_env(a, "KCC_CFLAGS", &env);
	for (int i = 0; i < o->nxcc; i++)
		push(&env, o->xcc[i]);
	for (int i = 0; i < (int)env.n; i++)
		add_flag(a, &cflags, &clang, env.v, (int)env.n, &i, NULL);
	List nenv = {.a = a};
	split_env(a, "KCC_NVCCFLAGS", &nenv);
	for (int i = 0; i < o->nxnvcc; i++)
		push(&nenv, o->xnvcc[i]);
	for (int i = 0; i < (int)nenv.n; i++)
		add_flag(a, &nvflags, &clang, nenv.v, (int)nenv.n, &i, NULL);
	/* "quoted" includes next to the kernel (the builds include a copy) */
	const char **dirs = arena_alloc(a, sizeof(char *) * (size_t)(o->ncands + 2));
	int ndirs = 0;
	for (int i = -1; i < o->ncands; i++) {
		const char *f = i < 0 ? o->input : o->cands[i];
		if (!f || !strcmp(f, "-"))
			continue;
		const char *d = absolute(a, NULL, dir_of(a, f));
		bool seen = false;
		for (int k = 0; k < ndirs && !seen; k++)
			seen = !strcmp(dirs[k], d);
		if (seen)
			continue;
		dirs[ndirs++] = d;
		push(&cflags, "-iquote");
		push(&cflags, d);
		push(&nvflags, arena_printf(a, "-I%s", d));
		/* candidates are parsed from copies in the state dir */
		push(&clang, "-iquote");
		push(&clang, d);
	}
	TargetProject pj = {.cflags = done(&cflags), .nvcc_flags = done(&nvflags)};
	const char *cc = getenv("KCC_CC");
	pj.cc = cc && *cc ? cc : NULL;
	target_project_set(&pj);
	/* libclang parses with the same preprocessor flags */
	o->parse_args = done(&clang);
	o->nparse_args = (int)clang.n;
	return -1;
}
