/*
 * redact.c — secrets never leave kcc: every value of a secret environment
 * variable (*_API_KEY, *_TOKEN, *_SECRET, …, as secret_name() says) and
 * every key added with redact_add() is replaced by "[REDACTED]" in what kcc
 * writes or sends, as CI systems mask secrets in their logs.
 *
 * It is applied at the sinks, not at the sources, so no path is forgotten:
 * file_write_atomic() (OUT, reports, caches, state, passes dir, the files a
 * candidate is built from), the request bodies the LLM client sends, and
 * kcc's stdout and stderr (redact_stdio() puts a filtering stream in
 * front of both). Values shorter than REDACT_MIN bytes are not masked:
 * replacing every "1" or "yes" would garble output and hide nothing.
 *
 * The table is filled once at start-up (single-threaded) and only read
 * afterwards, so the worker threads may redact without a lock.
 */
#define _GNU_SOURCE
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

enum { REDACT_MIN = 8, REDACT_MAX = 64 };

static const char MASK[] = "[REDACTED]";
static char *secrets[REDACT_MAX];
static size_t secret_len[REDACT_MAX];
static int nsecrets;
static size_t longest;

bool secret_name(const char *name)
{
	static const char *const suffixes[] = {"_API_KEY", "_KEY",      "_TOKEN",
	                                       "_SECRET",  "_PASSWORD", "_PASSWD"};
	const char *eq = strchr(name, '=');
	size_t n = eq ? (size_t)(eq - name) : strlen(name);
	for (size_t i = 0; i < ARRAY_LEN(suffixes); i++) {
		size_t m = strlen(suffixes[i]);
		if (n >= m && strncmp(name + n - m, suffixes[i], m) == 0)
			return true;
	}
	/* Names like OPENAI_API_KEY_2 or GH_TOKEN_FILE hide the word inside. */
	static const char *const inner[] = {"API_KEY", "_TOKEN_", "SECRET"};
	for (size_t k = 0; k < ARRAY_LEN(inner); k++) {
		size_t m = strlen(inner[k]);
		for (size_t i = 0; i + m <= n; i++)
			if (strncmp(name + i, inner[k], m) == 0)
				return true;
	}
	return false;
}

void redact_add(const char *value)
{
	if (!value || strlen(value) < REDACT_MIN || nsecrets == REDACT_MAX)
		return;
	for (int i = 0; i < nsecrets; i++)
		if (strcmp(secrets[i], value) == 0)
			return;
	secrets[nsecrets] = strdup(value);
	if (!secrets[nsecrets])
		return;
	secret_len[nsecrets] = strlen(value);
	if (secret_len[nsecrets] > longest)
		longest = secret_len[nsecrets];
	nsecrets++;
}

void redact_init(void)
{
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (eq && secret_name(*e))
			redact_add(eq + 1);
	}
}

int redact_count(void)
{
	return nsecrets;
}

/* The first secret at or after s in [s, end), or NULL; *which says which. */
static const char *find_secret(const char *s, const char *end, int *which)
{
	const char *best = NULL;
	if (!s || s >= end)
		return NULL;
	for (int i = 0; i < nsecrets; i++) {
		const char *p = memmem(s, (size_t)(end - s), secrets[i], secret_len[i]);
		if (p && (!best || p < best || (p == best && secret_len[i] > secret_len[*which]))) {
			best = p;
			*which = i;
		}
	}
	return best;
}

bool redact_needed(const char *s, size_t n)
{
	int w = 0;
	return nsecrets && s && find_secret(s, s + n, &w) != NULL;
}

void redact_into(Strbuf *out, const char *s, size_t n)
{
	const char *end = s + n;
	int w = 0;
	while (s < end) {
		const char *p = nsecrets ? find_secret(s, end, &w) : NULL;
		if (!p) {
			sb_addn(out, s, (size_t)(end - s));
			break;
		}
		sb_addn(out, s, (size_t)(p - s));
		sb_adds(out, MASK);
		s = p + secret_len[w];
	}
}

char *redact_str(Arena *a, const char *s)
{
	if (!s || !redact_needed(s, strlen(s)))
		return (char *)s;
	Strbuf sb = STRBUF_INIT;
	redact_into(&sb, s, strlen(s));
	return sb_to_arena(&sb, a);
}

char *redact_dup(const char *s)
{
	if (!s)
		return NULL;
	Strbuf sb = STRBUF_INIT;
	redact_into(&sb, s, strlen(s));
	return sb.buf ? sb.buf : strdup("");
}

/* ---- stdout and stderr ------------------------------------------------------ */

/* A stream in front of fd: text is held back only while its tail could be
 * the start of a secret, so a key split over two writes is still caught. */
typedef struct {
	int fd;
	Strbuf pend;
} Filter;

static void put_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void filter_emit(Filter *f, bool all)
{
	Strbuf out = STRBUF_INIT;
	const char *s = f->pend.buf;
	size_t n = f->pend.len;
	/* Keep a tail that may begin a secret unless the text ends a line. */
	size_t keep = 0;
	if (!all && n && s[n - 1] != '\n' && s[n - 1] != '\r' && longest > 1)
		keep = n < longest - 1 ? n : longest - 1;
	/* Do not cut a whole secret that begins in the emitted part. */
	int w = 0;
	const char *p = find_secret(s, s + n, &w);
	while (p && (size_t)(p - s) < n - keep) {
		size_t e = (size_t)(p - s) + secret_len[w];
		if (e > n - keep)
			keep = n - e;
		p = find_secret(s + e, s + n, &w);
	}
	redact_into(&out, s, n - keep);
	put_all(f->fd, out.buf ? out.buf : "", out.len);
	sb_release(&out);
	if (f->pend.buf) {
		memmove(f->pend.buf, s + n - keep, keep);
		f->pend.buf[keep] = 0;
	}
	f->pend.len = keep;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t n)
{
	Filter *f = cookie;
	sb_addn(&f->pend, buf, n);
	filter_emit(f, false);
	return (ssize_t)n;
}

static int filter_close(void *cookie)
{
	Filter *f = cookie;
	filter_emit(f, true);
	sb_release(&f->pend);
	free(f);
	return 0;
}

static FILE *filter_open(int fd, int mode)
{
	Filter *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	f->fd = fd;
	cookie_io_functions_t io = {.write = filter_write, .close = filter_close};
	FILE *s = fopencookie(f, "w", io);
	if (!s) {
		free(f);
		return NULL;
	}
	setvbuf(s, NULL, mode, 0);
	return s;
}

static FILE *orig_out, *orig_err;

static void filter_flush_at_exit(void)
{
	if (stdout != orig_out)
		fclose(stdout), stdout = orig_out;
	if (stderr != orig_err)
		fclose(stderr), stderr = orig_err;
}

void redact_stdio(void)
{
	if (!nsecrets || orig_out)
		return;
	fflush(stdout);
	fflush(stderr);
	orig_out = stdout;
	orig_err = stderr;
	FILE *o = filter_open(1, isatty(1) ? _IOLBF : _IOFBF);
	FILE *e = filter_open(2, _IONBF);
	if (o)
		stdout = o;
	if (e)
		stderr = e;
	atexit(filter_flush_at_exit);
}
