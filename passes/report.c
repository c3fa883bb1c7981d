/*
 * report.c — what a run leaves behind: the report (JSON: every candidate
 * with its parent, plan, verdict and reason, times, tokens, cost and
 * profile; HTML: the search tree, each profiled candidate's profile folded
 * under it, and a speed-up-over-steps chart as inline SVG) and the
 * output's header comment. The JSON form is the store's record
 * (store.c), the same as STATE/report.json.
 */
#include "internal.h"

#include <string.h>

/* ---- HTML ------------------------------------------------------------------- */

static void html_escape_n(Strbuf *sb, const char *s, size_t n)
{
	for (const char *e = s + n; s < e; s++) {
		if (*s == '<')
			sb_adds(sb, "&lt;");
		else if (*s == '>')
			sb_adds(sb, "&gt;");
		else if (*s == '&')
			sb_adds(sb, "&amp;");
		else if (*s == '"')
			sb_adds(sb, "&quot;");
		else
			sb_addc(sb, *s);
	}
}

static void html_escape(Strbuf *sb, const char *s)
{
	if (s)
		html_escape_n(sb, s, strlen(s));
}

/* Text whose newlines become <br>: a profile's notes, one per line. */
static void html_lines(Strbuf *sb, const char *s)
{
	for (const char *nl; s && (nl = strchr(s, '\n')); s = nl + 1) {
		html_escape_n(sb, s, (size_t)(nl - s));
		if (nl[1])
			sb_adds(sb, "<br>");
	}
	html_escape(sb, s);
}

/* A metric's value without its unit (the table has a column for it), as
 * the plan prompt rounds it (profile_value). */
static void html_value(Strbuf *sb, const ProfileMetric *m)
{
	double v = m->value;
	if (m->unit && !strcmp(m->unit, "%"))
		sb_addf(sb, "%.1f", v);
	else
		sb_addf(sb, v != 0 && (v >= 1e6 || v <= -1e6) ? "%.3g" : "%.4g", v);
}

/* A candidate's profile, folded under one line: the metrics (their meaning
 * as each name's tooltip), the hot list and the notes. */
static void html_profile(Strbuf *sb, const Profile *p)
{
	sb_adds(sb, "\n<details class=\"profile\"><summary>profile (");
	html_escape(sb, p->source && *p->source ? p->source : "none");
	if (p->shape && *p->shape) {
		sb_adds(sb, " at ");
		html_escape(sb, p->shape);
	}
	sb_adds(sb, ")</summary>\n<table>\n<tr><th>metric</th><th>value</th><th>unit</th></tr>\n");
	for (int i = 0; i < p->n; i++) {
		const ProfileMetric *m = &p->m[i];
		sb_adds(sb, "<tr><td title=\"");
		html_escape(sb, m->meaning);
		sb_adds(sb, "\">");
		html_escape(sb, m->name);
		sb_adds(sb, "</td><td class=\"num\">");
		html_value(sb, m);
		sb_adds(sb, "</td><td>");
		html_escape(sb, m->unit);
		sb_adds(sb, "</td></tr>\n");
	}
	sb_adds(sb, "</table>\n");
	if (p->nhot) {
		sb_adds(sb, "<p>hottest:");
		for (int i = 0; i < p->nhot; i++) {
			sb_adds(sb, i ? ", " : " ");
			html_escape(sb, p->hot[i].name);
			sb_addf(sb, " %.1f%%", p->hot[i].share);
		}
		sb_adds(sb, "</p>\n");
	}
	if (p->notes && *p->notes) {
		sb_adds(sb, "<p class=\"notes\">");
		html_lines(sb, p->notes);
		sb_adds(sb, "</p>\n");
	}
	sb_adds(sb, "</details>");
}

/* Best verified speed-up after each step, as a polyline. */
static void html_chart(Strbuf *sb, const SearchResult *r)
{
	int steps = 0;
	double top = 1.0;
	for (int i = 0; i < r->n; i++) {
		steps = r->c[i].step > steps ? r->c[i].step : steps;
		if (r->c[i].correct && r->c[i].measured && r->c[i].speedup > top)
			top = r->c[i].speedup;
	}
	const int W = 560, H = 220, L = 50, B = 30;
	sb_addf(sb, "<svg id=\"chart\" width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">\n"
	        "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>"
	        "<line x1=\"%d\" y1=\"10\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n"
	        "<text x=\"4\" y=\"16\" font-size=\"12\">%.2fx</text>"
	        "<text x=\"4\" y=\"%d\" font-size=\"12\">1x</text>"
	        "<text x=\"%d\" y=\"%d\" font-size=\"12\">step</text>\n",
	        W, H, L, H - B, W - 10, H - B, L, L, H - B, top, H - B, W - 40, H - 8);
	Strbuf pts = STRBUF_INIT;
	double best = 1.0;
	for (int st = 0; st <= steps; st++) {
		for (int i = 0; i < r->n; i++)
			if (r->c[i].step == st && r->c[i].accepted && r->c[i].speedup > best)
				best = r->c[i].speedup;
		double x = L + (steps ? (double)st / steps : 0) * (W - L - 20);
		double y = (H - B) - (top > 1 ? (best - 1) / (top - 1) : 0) * (H - B - 20);
		sb_addf(&pts, "%.1f,%.1f ", x, y);
		sb_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#1565c0\"><title>step %d: "
		        "%.2fx</title></circle><text x=\"%.1f\" y=\"%d\" font-size=\"11\">%d</text>\n",
		        x, y, st, best, x - 3, H - B + 14, st);
	}
	sb_addf(sb, "<polyline class=\"best\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"2\" "
	        "points=\"%s\"/>\n</svg>\n", sb_str(&pts));
	sb_release(&pts);
}

static void html_tree(Strbuf *sb, const SearchResult *r, int id, int depth)
{
	const Candidate *c = &r->c[id];
	const char *cls = c->accepted ? "accepted" : c->correct ? "correct" : "rejected";
	sb_addf(sb, "<li class=\"%s\"><b>#%d</b> %s", cls, id, id ? "" : "original");
	html_escape(sb, c->option);
	if (c->tune && *c->tune) {
		sb_adds(sb, " [");
		html_escape(sb, c->tune);
		sb_adds(sb, "]");
	}
	if (c->duplicate)
		sb_addf(sb, " — duplicate of #%d", c->dup_of);
	if (c->correct && c->measured)
		sb_addf(sb, " — %.2fx (95%% CI %.2f–%.2f)%s", c->speedup, c->lo, c->hi,
		        c->gain ? " gain" : "");
	else if (!c->correct) {
		sb_addf(sb, " — rejected: %s: ", verify_reason_name(c->reason));
		html_escape(sb, c->why);
	}
	if (c->profile)
		html_profile(sb, c->profile);
	bool kids = false;
	for (int i = id + 1; i < r->n; i++)
		if (r->c[i].parent == id) {
			if (!kids)
				sb_adds(sb, "\n<ul>\n");
			kids = true;
			html_tree(sb, r, i, depth + 1);
		}
	sb_adds(sb, kids ? "</ul></li>\n" : "</li>\n");
}

static char *html(Arena *a, const SearchResult *r, const Unit *orig, const char *target)
{
	Strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>kcc report: ");
	html_escape(&sb, orig->path);
	sb_adds(&sb, "</title>\n<style>body{font-family:sans-serif;margin:2em}"
	        "li.accepted{color:#1b5e20;font-weight:bold}li.rejected{color:#b71c1c}"
	        "li.correct{color:#333}ul{list-style:none;border-left:1px solid #ccc}"
	        "details.profile{color:#333;font-weight:normal;font-size:90%;margin:.2em 0 .5em}"
	        "details.profile summary{color:#555;cursor:pointer}"
	        "details.profile table{border-collapse:collapse;margin:.3em 0}"
	        "details.profile th,details.profile td{border:1px solid #ddd;padding:1px 8px;"
	        "text-align:left}details.profile td.num{text-align:right}"
	        "details.profile p{margin:.3em 0}p.notes{color:#666}"
	        "</style></head><body>\n<h1>kcc report: ");
	html_escape(&sb, orig->path);
	sb_addf(&sb, "</h1>\n<p>kcc %s, target %s, device ", KCC_VERSION, target);
	html_escape(&sb, r->device);
	sb_addf(&sb, "</p>\n<p id=\"summary\">best: candidate %d, %.2fx over the original; "
	        "%d candidates (%d duplicates); stopped: %s; %ld LLM calls, $%.4f</p>\n", r->best,
	        r->n ? r->c[r->best].speedup : 1.0, r->n ? r->n - 1 : 0, r->duplicates,
	        search_stop_name(r->stop),
	        r->totals.calls, r->totals.usd);
	sb_adds(&sb, "<h2>Best speed-up over steps</h2>\n");
	html_chart(&sb, r);
	sb_adds(&sb, "<h2>Search tree</h2>\n<ul id=\"tree\">\n");
	if (r->n)
		html_tree(&sb, r, 0, 0);
	sb_adds(&sb, "</ul>\n</body></html>\n");
	return sb_to_arena(&sb, a);
}

static bool ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

int report_write(Arena *a, const char *path, const SearchResult *r, const Unit *orig,
                 const char *target)
{
	if (ends_with(path, ".html") || ends_with(path, ".htm")) {
		char *h = html(a, r, orig, target);
		return file_write_atomic(path, h, strlen(h));
	}
	return store_write(path, r, orig, target);
}

/* ---- the output's header ---------------------------------------------------------- */

char *search_header(Arena *a, const SearchResult *r, const Unit *orig)
{
	int ids[256];
	int n = search_chain(r, r->best, ids, 256);
	Strbuf p = STRBUF_INIT;
	for (int i = 1; i < n; i++) {
		const Candidate *c = &r->c[ids[i]];
		sb_addf(&p, "%s%s", i > 1 ? ", " : "", c->option);
		if (*c->tune)
			sb_addf(&p, " (%s)", c->tune);
	}
	const char *passes = p.len ? sb_to_arena(&p, a) : "none";
	char h[65];
	sha256_hex(orig->text, orig->len, h);
	const Candidate *b = &r->c[r->best];
	const char *flags = b->cflags && *b->cflags
	                        ? arena_printf(a, " * compiler flags: %s (measured with them: build "
	                                          "with OUT.cflags, e.g. cc @OUT.cflags)\n",
	                                       b->cflags)
	                        : "";
	if (r->unit) /* a deterministic count (riscv64) */
		return arena_printf(a,
		    "/* kcc:begin header: written by kcc %s; kcc replaces this block when it "
		    "reads the file again\n"
		    " * passes: %s\n%s"
		    " * device: %s\n"
		    " * original: %s sha256 %s, spec sha256 %s\n"
		    " * measured: %.4fx fewer %s than the original at %s, %.0f %s (exact)\n"
		    " * reproduce: kcc --target=%s --check ORIGINAL THIS-FILE --bench\n"
		    " * kcc:end header */\n",
		    KCC_VERSION, passes, flags, r->device, orig->path, h, orig->spec_hash,
		    b->speedup, r->unit, r->shape ? r->shape : "the bench shape", b->ms, r->unit,
		    r->target ? r->target : "?");
	return arena_printf(a,
	    "/* kcc:begin header: written by kcc %s; kcc replaces this block when it reads "
	    "the file again\n"
	    " * passes: %s\n%s"
	    " * device: %s\n"
	    " * original: %s sha256 %s, spec sha256 %s\n"
	    " * measured: %.2fx over the original (95%% CI %.2fx-%.2fx) at %s, %.4g ms\n"
	    " * reproduce: kcc --check ORIGINAL THIS-FILE --bench\n"
	    " * kcc:end header */\n",
	    KCC_VERSION, passes, flags, r->device, orig->path, h, orig->spec_hash,
	    b->speedup, b->lo, b->hi, r->shape ? r->shape : "the bench shape", b->ms);
}
