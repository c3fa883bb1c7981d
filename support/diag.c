/*
 * diag.c — the diagnostics sink. Every user-facing message of kcc goes
 * through here, so they all read like a compiler's:
 *
 *     gemm.cu:4:26: error: unknown element type 'f33'
 *         4 | #pragma kcc param A in  f33[M*K]
 *           |                          ^
 *     gemm.cu:4:26: note: did you mean 'f32'?
 *
 * Colour only on a terminal, never when NO_COLOR is set. A caller that
 * wants the messages rather than the user's terminal to have them (the
 * front end's errors about a candidate belong in its record) captures
 * them into a Strbuf with diag_capture(). This is the one piece of global
 * mutable state kcc keeps besides the options.
 */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
	const char *file;
	const char *text;
	size_t len;
} Source;

static struct {
	bool color;
	int errors;
	int verbose;
	Loc last;
	Source *src; /* every file registered, for quoting (grows) */
	int nsrc, capsrc;
	Strbuf *capture; /* NULL: stderr */
} D;

/* Everything the sink writes goes through out(): to stderr, or to the
 * capture (without colour: a captured message is read, not shown). */
static void vout(const char *fmt, va_list ap)
{
	if (D.capture)
		sb_vaddf(D.capture, fmt, ap);
	else
		vfprintf(stderr, fmt, ap);
}

static void out(const char *fmt, ...) PRINTF_LIKE(1, 2);
static void out(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vout(fmt, ap);
	va_end(ap);
}

static bool colored(void)
{
	return D.color && !D.capture;
}

Strbuf *diag_capture(Strbuf *sb)
{
	Strbuf *prev = D.capture;
	D.capture = sb;
	return prev;
}

#define C_BOLD "\033[1m"
#define C_RED "\033[1;31m"
#define C_MAGENTA "\033[1;35m"
#define C_CYAN "\033[1;36m"
#define C_GREEN "\033[1;32m"
#define C_RESET "\033[0m"

void diag_init(ColorMode mode)
{
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		D.color = false;
	else if (mode == COLOR_AUTO) {
		const char *term = getenv("TERM");
		D.color = isatty(2) && !(term && strcmp(term, "dumb") == 0);
	} else
		D.color = mode == COLOR_ALWAYS;
}

void diag_source(const char *file, const char *text, size_t len)
{
	for (int i = 0; i < D.nsrc; i++)
		if (strcmp(D.src[i].file, file) == 0) {
			D.src[i].text = text;
			D.src[i].len = len;
			return;
		}
	if (D.nsrc == D.capsrc) {
		D.capsrc = D.capsrc ? 2 * D.capsrc : 32;
		D.src = realloc(D.src, sizeof *D.src * (size_t)D.capsrc);
		if (!D.src)
			abort();
	}
	D.src[D.nsrc++] = (Source){file, text, len};
}

static const Source *find_source(const char *file)
{
	for (int i = 0; i < D.nsrc; i++)
		if (strcmp(D.src[i].file, file) == 0)
			return &D.src[i];
	return NULL;
}

/* Print "  N | text" and the caret line under column col. */
static void quote_line(Loc loc)
{
	const Source *s = find_source(loc.file);
	if (!s || loc.line <= 0)
		return;
	const char *p = s->text, *end = s->text + s->len;
	for (int l = 1; l < loc.line && p < end; l++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return;
		p = nl + 1;
	}
	if (p >= end && loc.line > 1)
		return;
	const char *eol = memchr(p, '\n', (size_t)(end - p));
	if (!eol)
		eol = end;
	if (eol > p && eol[-1] == '\r')
		eol--;
	out(" %5d | %.*s\n", loc.line, (int)(eol - p), p);
	if (loc.col <= 0)
		return;
	out("       | ");
	/* Keep tabs so the caret lines up with what the terminal showed. */
	for (int c = 1; c < loc.col && p + c - 1 < eol; c++)
		out("%c", p[c - 1] == '\t' ? '\t' : ' ');
	out("%s^%s\n", colored() ? C_GREEN : "", colored() ? C_RESET : "");
}

static void print_head(DiagLevel lvl, Loc loc)
{
	static const char *const names[] = {"note", "warning", "error"};
	static const char *const colors[] = {C_CYAN, C_MAGENTA, C_RED};
	if (colored())
		out(C_BOLD);
	if (loc.file) {
		out("%s", loc.file);
		if (loc.line > 0)
			out(":%d", loc.line);
		if (loc.line > 0 && loc.col > 0)
			out(":%d", loc.col);
		out(": ");
	} else
		out("kcc: ");
	if (colored())
		out("%s%s:" C_RESET C_BOLD " ", colors[lvl], names[lvl]);
	else
		out("%s: ", names[lvl]);
}

void diag_vat(DiagLevel lvl, Loc loc, const char *fmt, va_list ap)
{
	print_head(lvl, loc);
	vout(fmt, ap);
	out("%s\n", colored() ? C_RESET : "");
	if (loc.file)
		quote_line(loc);
	if (lvl == DIAG_ERROR)
		D.errors++;
	D.last = loc;
}

void diag_at(DiagLevel lvl, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(lvl, loc, fmt, ap);
	va_end(ap);
}

void diag_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	print_head(DIAG_NOTE, D.last);
	vout(fmt, ap);
	out("%s\n", colored() ? C_RESET : "");
	va_end(ap);
}

void diag_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(DIAG_ERROR, (Loc){0}, fmt, ap);
	va_end(ap);
}

void diag_warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vat(DIAG_WARNING, (Loc){0}, fmt, ap);
	va_end(ap);
}

int diag_error_count(void)
{
	return D.errors;
}

void diag_set_verbose(int level)
{
	D.verbose = level;
}

int diag_verbose(void)
{
	return D.verbose;
}

void diag_trace(const char *fmt, ...)
{
	if (!D.verbose)
		return;
	va_list ap;
	va_start(ap, fmt);
	vout(fmt, ap);
	va_end(ap);
	out("\n");
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return (size_t)-1;
	size_t row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			if (up + 1 < best)
				best = up + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *nearest_word(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1;
	for (size_t i = 0; i < n; i++) {
		/* One edit per three letters of the longer word: 'f33'→'f32',
		 * 'Kk'→'K', but no guess between two single letters. */
		size_t la = strlen(word), lb = strlen(cands[i]);
		size_t limit = ((la > lb ? la : lb) + 1) / 3;
		size_t d = edit_distance(word, cands[i]);
		if (d <= limit && d > 0 && d < bestd) {
			bestd = d;
			best = cands[i];
		}
	}
	return best;
}
