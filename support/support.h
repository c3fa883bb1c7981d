/*
 * support.h — the small pieces every folder of kcc uses: the run's arena, a
 * growable string builder, the diagnostics sink, whole-file I/O with atomic
 * replacement, and SHA-256 for cache keys and interface fingerprints.
 *
 * This is kcc's whole "library of basics", in the spirit of git's strbuf and
 * LLVM's Support: nothing here knows about kernels, specs or LLMs.
 */
#ifndef KCC_SUPPORT_H
#define KCC_SUPPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KCC_VERSION "0.1.0"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define PRINTF_LIKE(f, a)
#endif

/* ---- arena: everything that lives as long as the run ---------------------- */

typedef struct Arena Arena;

Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t n); /* zeroed, 16-byte aligned */
void *arena_realloc(Arena *a, void *old, size_t oldn, size_t newn);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* Append x to the arena-owned array *v holding *n elements (capacity *cap). */
#define ARENA_PUSH(arena, v, n, cap, x)                                        \
	do {                                                                   \
		if ((size_t)(n) == (size_t)(cap)) {                        \
			size_t nc_ = (cap) ? 2 * (size_t)(cap) : 8;            \
			(v) = arena_realloc((arena), (v), sizeof(*(v)) * (cap),\
			                    sizeof(*(v)) * nc_);               \
			(cap) = nc_;                                           \
		}                                                              \
		(v)[(n)++] = (x);                                              \
	} while (0)

/* ---- strbuf: every string built in pieces ---------------------------------- */

typedef struct {
	char *buf; /* always NUL-terminated once anything was added */
	size_t len;
	size_t cap;
} Strbuf;

#define STRBUF_INIT {0}

void sb_grow(Strbuf *sb, size_t extra);
void sb_addn(Strbuf *sb, const char *s, size_t n);
void sb_adds(Strbuf *sb, const char *s);
void sb_addc(Strbuf *sb, char c);
void sb_addf(Strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);
void sb_vaddf(Strbuf *sb, const char *fmt, va_list ap);
void sb_reset(Strbuf *sb);
void sb_release(Strbuf *sb);
const char *sb_str(Strbuf *sb); /* "" when empty, never NULL */
char *sb_to_arena(Strbuf *sb, Arena *a); /* copies, then releases sb */

/* ---- diagnostics: the one place messages are formatted ---------------------- */

typedef struct {
	const char *file; /* NULL: no location, message starts with "kcc: " */
	int line;         /* 1-based; 0 = whole file */
	int col;          /* 1-based; 0 = whole line */
} Loc;

typedef enum { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR } DiagLevel;
typedef enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } ColorMode;

void diag_init(ColorMode mode);
/* Register the text of a file so diagnostics can quote its lines. */
void diag_source(const char *file, const char *text, size_t len);
void diag_at(DiagLevel lvl, Loc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
void diag_vat(DiagLevel lvl, Loc loc, const char *fmt, va_list ap);
#define error_at(...) diag_at(DIAG_ERROR, __VA_ARGS__)
#define warning_at(...) diag_at(DIAG_WARNING, __VA_ARGS__)
#define note_at(...) diag_at(DIAG_NOTE, __VA_ARGS__)
/* A note attached to the previous message, without a source line. */
void diag_note(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Messages with no source location: "kcc: error: ...". */
void diag_error(const char *fmt, ...) PRINTF_LIKE(1, 2);
void diag_warning(const char *fmt, ...) PRINTF_LIKE(1, 2);
int diag_error_count(void);
/* Write every message (errors, notes, traces) into sb instead of stderr,
 * without colour; NULL writes to stderr again. Returns the target before,
 * so captures nest: prev = diag_capture(&sb); ...; diag_capture(prev). */
Strbuf *diag_capture(Strbuf *sb);
/* Verbose trace (-v): printed to stderr only when enabled. */
void diag_set_verbose(int level);
int diag_verbose(void);
void diag_trace(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* The nearest of cands[0..n) to word by edit distance, or NULL if none is close. */
const char *nearest_word(const char *word, const char *const *cands, size_t n);

/* A duration: a number of seconds with an optional unit s, m or h ("90",
 * "10m", "1.5h"); false when s is not one. */
bool parse_seconds(const char *s, double *v);

/* ---- status: a failure's category (status.c) --------------------------------- */

typedef enum {
	ST_OK,        /* no failure */
	ST_USER,      /* the input, its spec or the options are wrong */
	ST_TOOL,      /* a tool failed or is missing: compiler, device, provider */
	ST_BUDGET,    /* a budget ran out */
	ST_INTERRUPT, /* the user stopped kcc (SIGINT) */
} Status;

/* Record the category of the failure under way, where it is known (a
 * program that cannot be started: ST_TOOL). Thread-safe. */
void status_raise(Status s);
/* The category raised since the last take, else otherwise; forgets it. */
Status status_take(Status otherwise);
const char *status_name(Status s);

/* ---- the clock (clock.c) ------------------------------------------------------ */

/* Seconds on the monotonic clock: durations, deadlines and budgets. */
double clock_now(void);

/* ---- files ----------------------------------------------------------------- */

/* Read a whole file into the arena (NUL-terminated). 0 on success, else errno
 * or FILE_ENOTREG (a FIFO, a device: never read, it may never end) or
 * FILE_ETOOBIG (over FILE_READ_MAX). file_error() names either. */
int file_read(Arena *a, const char *path, char **text, size_t *len);
/* The same with a cap of max bytes (inputs, candidates, menus: KCC_INPUT_MAX). */
int file_read_max(Arena *a, const char *path, size_t max, char **text, size_t *len);
#define FILE_ENOTREG 100001
#define FILE_ETOOBIG 100002
#define FILE_READ_MAX ((size_t)4 << 30)
#define KCC_INPUT_MAX ((size_t)16 << 20)
const char *file_error(int e);
/* Writable by this process: an existing file (or the directory a new one
 * would go in). 0 when it is, else errno. */
int file_check_writable(const char *path);
/* Write path atomically: temp file in the same directory, fsync, rename.
 * "-" writes to stdout. 0 on success, else errno (the target is untouched). */
int file_write_atomic(const char *path, const char *data, size_t len);
/* True when a and b name the same existing file (same device and inode). */
bool file_same(const char *a, const char *b);
/* mkdir -p; 0 on success, else errno. */
int file_mkdirs(const char *path, int mode);

/* Call fn(name, arg) for every entry of the directory open at fd, from its
 * current offset, "." and ".." skipped; the number of entries. Raw
 * getdents64 into a stack buffer: no malloc, async-signal-safe (the temp
 * root's removal on a fatal signal, a sandbox's supervisor after fork). */
int dir_each(int fd, void (*fn)(const char *name, void *arg), void *arg);

/* ---- files embedded at build time (embedded.c) ------------------------------ */

/* One file of a table cmake/embed.cmake generates (prompts, menus, the
 * harness runtime, kcc's own programs); the table ends with a NULL name. */
typedef struct EmbeddedFile {
	const char *name;
	const char *text;
	size_t len;
} EmbeddedFile;

/* The text of the file called name (its length in *len if len), or NULL. */
const char *embedded_find(const EmbeddedFile *files, const char *name, size_t *len);

/* Every file of the table written into dir under its name (atomically);
 * 0, or -1 with errno set and *failed (if given) the path that failed. */
int embedded_write(Arena *a, const EmbeddedFile *files, const char *dir, const char **failed);

/* ---- the run's temp root (tempdir.c) ----------------------------------------- */

/* Make $TMPDIR/kcc-PID-XXXXXX, point TMPDIR at it and remove it at exit
 * and on SIGTERM/SIGHUP/SIGQUIT/SIGINT. NULL when it cannot be made. */
const char *temp_root_init(void);
/* The TMPDIR kcc started with (for what must keep short paths, such as
 * ssh's control socket: a Unix socket path is limited to 107 bytes). */
const char *temp_root_parent(void);
/* --keep-temps: leave it. */
void temp_root_keep(void);
/* Remove it now (async-signal-safe). */
void temp_root_remove(void);
/* Call fn (async-signal-safe) first when a fatal signal ends kcc. */
void temp_root_on_fatal(void (*fn)(void));

/* Where temporary files go: $TMPDIR (the run's temp root once
 * temp_root_init ran), else /tmp. */
const char *temp_base(void);

/* ---- the cache dir (dirs.c) --------------------------------------------------- */

/* --cache-dir, once, from the driver; NULL: the default. */
void dir_cache_set(const char *dir);
/* The cache dir: --cache-dir, else $XDG_CACHE_HOME/kcc, else
 * ~/.cache/kcc (/tmp/.cache/kcc without HOME). Not created here. */
const char *dir_cache(void);

/* ---- secrets: redaction at every sink (redact.c) --------------------------- */

/* Is this environment variable name a secret (*_API_KEY, *_TOKEN, …)? */
bool secret_name(const char *name);
/* Collect the values of every secret variable in the environment. */
void redact_init(void);
/* One more value to mask (a configured key). Values under 8 bytes are not. */
void redact_add(const char *value);
int redact_count(void);
/* Does s[0..n) hold a secret? */
bool redact_needed(const char *s, size_t n);
/* Append s[0..n) to out with every secret replaced by "[REDACTED]". */
void redact_into(Strbuf *out, const char *s, size_t n);
/* s redacted: s itself when it holds no secret, else an arena copy. */
char *redact_str(Arena *a, const char *s);
/* A malloc'd redacted copy (for threads that own malloc'd strings). */
char *redact_dup(const char *s);
/* Put a redacting stream in front of stdout and stderr. */
void redact_stdio(void);

/* ---- hashing ---------------------------------------------------------------- */

typedef struct {
	uint32_t h[8];
	uint64_t nbytes;
	unsigned char block[64];
	size_t fill;
} Sha256;

void sha256_init(Sha256 *s);
void sha256_update(Sha256 *s, const void *data, size_t n);
void sha256_final(Sha256 *s, unsigned char out[32]);
/* Hex digest (64 chars + NUL) of data. */
void sha256_hex(const void *data, size_t n, char out[65]);
/* HMAC-SHA-256 of data under key, as hex (64 chars + NUL). */
void hmac_sha256(const void *key, size_t klen, const void *data, size_t n, char out[65]);

#endif
