/*
 * profile.c — the target-independent half of profiling: the Profile's
 * metrics and their text for the plan prompt, the roofline, and the
 * profile driver. The driver is a small program generated from the spec
 * (not the verifier's harness: no guard zones, no plan file, nothing timed)
 * that fills the inputs, then calls the entry once from kcc_profile_calls(),
 * a function the profiler can isolate (callgrind's --toggle-collect), so
 * the counts are the kernel's and not the input filling's.
 */
#include "target.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

void profile_set(Arena *a, Profile *p, const char *name, double value, const char *unit,
                 const char *meaning)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->m[i].name, name)) {
			p->m[i] = (ProfileMetric){name, value, unit, meaning};
			return;
		}
	ARENA_PUSH(a, p->m, p->n, p->cap, ((ProfileMetric){name, value, unit, meaning}));
}

const ProfileMetric *profile_get(const Profile *p, const char *name)
{
	for (int i = 0; p && i < p->n; i++)
		if (!strcmp(p->m[i].name, name))
			return &p->m[i];
	return NULL;
}

void profile_note(Arena *a, Profile *p, const char *fmt, ...)
{
	Strbuf sb = STRBUF_INIT;
	if (p->notes && *p->notes)
		sb_addf(&sb, "%s\n", p->notes);
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	p->notes = sb_to_arena(&sb, a);
}

void target_keep_raw(Arena *a, const TargetProfileRun *r, const char *name, const char *data,
                     size_t len)
{
	if (r->keep && data)
		file_write_atomic(arena_printf(a, "%s/%s", r->cwd, name), data, len);
}

char *profile_value(Arena *a, const ProfileMetric *m)
{
	if (!m)
		return "n/a";
	double v = m->value;
	const char *u = m->unit ? m->unit : "";
	if (!strcmp(u, "%"))
		return arena_printf(a, "%.1f%%", v);
	if (!strcmp(u, "instructions")) /* exact counts (riscv64) */
		return arena_printf(a, "%.0f %s", v, u);
	if (v != 0 && (v >= 1e6 || v <= -1e6))
		return arena_printf(a, "%.3g%s%s", v, *u ? " " : "", u);
	return arena_printf(a, "%.4g%s%s", v, *u ? " " : "", u);
}

char *profile_text(Arena *a, const Profile *p)
{
	Strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "Profile (%s%s%s):\n", p->source ? p->source : "none",
	        p->shape ? " at " : "", p->shape ? p->shape : "");
	for (int i = 0; i < p->n; i++)
		sb_addf(&sb, "- %s: %s — %s\n", p->m[i].name, profile_value(a, &p->m[i]),
		        p->m[i].meaning ? p->m[i].meaning : "");
	if (p->nhot) {
		sb_adds(&sb, "- hottest:");
		for (int i = 0; i < p->nhot; i++)
			sb_addf(&sb, "%s %s %.1f%%", i ? "," : "", p->hot[i].name, p->hot[i].share);
		sb_addc(&sb, '\n');
	}
	if (p->notes && *p->notes)
		sb_addf(&sb, "Notes: %s\n", p->notes);
	return sb_to_arena(&sb, a);
}

static const char *const UNIT_NAMES[PEAK__UNITS] = {
    [PEAK_FP32] = "fp32 FMA",
    [PEAK_FP64] = "fp64 FMA",
    [PEAK_FP32_SCALAR] = "scalar fp32 FMA",
    [PEAK_TC_F16] = "fp16 tensor cores (f32 accumulate)",
    [PEAK_TC_BF16] = "bf16 tensor cores (f32 accumulate)",
    [PEAK_TC_TF32] = "tf32 tensor cores (f32 accumulate)",
};

const char *profile_peak_unit_name(PeakUnit u)
{
	return u < PEAK__UNITS ? UNIT_NAMES[u] : "?";
}

double profile_peak_for(const ProfilePeaks *pk, ElemType t, PeakUnit *unit)
{
	PeakUnit u = PEAK_FP32;
	if (t == ET_F16 && pk->unit[PEAK_TC_F16] > 0)
		u = PEAK_TC_F16;
	else if (t == ET_BF16 && pk->unit[PEAK_TC_BF16] > 0)
		u = PEAK_TC_BF16;
	else if (t == ET_F64 && pk->unit[PEAK_FP64] > 0)
		u = PEAK_FP64;
	if (unit)
		*unit = u;
	double v = pk->unit[u] > 0 ? pk->unit[u] : u == PEAK_FP32 ? pk->gflops : 0;
	/* Measured beside other work, a peak is too low to be a roof: a kernel
	 * timed in a quieter moment would sit above it. */
	if (pk->busy && pk->est_unit[u] > v)
		v = pk->est_unit[u];
	return v;
}

char *profile_peaks_text(Arena *a, const ProfilePeaks *pk)
{
	Strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "Peak rates (%s):\n", pk->source ? pk->source : "measured");
	for (int u = 0; u < PEAK__UNITS; u++)
		if (pk->unit[u] > 0)
			sb_addf(&sb, "- %s: %.0f GFLOP/s\n", UNIT_NAMES[u], pk->unit[u]);
	if (pk->gbps > 0)
		sb_addf(&sb, "- memory (DRAM) bandwidth: %.0f GB/s\n", pk->gbps);
	if (pk->cache_gbps > 0)
		sb_addf(&sb, "- cache (%s) bandwidth: %.0f GB/s\n",
		        pk->cache_name ? pk->cache_name : "cache", pk->cache_gbps);
	if (pk->est_gflops > 0)
		sb_addf(&sb, "- datasheet: up to %.0f GFLOP/s on the fastest unit (%s), %.0f GB/s\n",
		        pk->est_gflops, pk->est_name ? pk->est_name : "?", pk->est_gbps);
	return sb_to_arena(&sb, a);
}

void profile_peaks_floor(ProfilePeaks *pk)
{
	double f = pk->gflops, b = pk->gbps > pk->cache_gbps ? pk->gbps : pk->cache_gbps;
	for (int u = 0; u < PEAK__UNITS; u++)
		if (pk->unit[u] > f)
			f = pk->unit[u];
	f *= 1.5;
	b *= 1.5;
	pk->floor_gflops = f > pk->est_gflops ? f : pk->est_gflops;
	pk->floor_gbps = b > pk->est_gbps ? b : pk->est_gbps;
}

ElemType profile_compute_type(const Spec *sp)
{
	static const ElemType narrow[] = {ET_F16, ET_BF16, ET_F32, ET_F64};
	for (size_t k = 0; k < ARRAY_LEN(narrow); k++)
		for (int i = 0; i < sp->nparams; i++)
			if (sp->params[i].role != ROLE_OUT && sp->params[i].type == narrow[k])
				return narrow[k];
	return ET_F32;
}

void profile_roofline(Arena *a, Profile *p, double flops, double bytes, double seconds,
                      const ProfilePeaks *pk, ElemType compute)
{
	if (!(seconds > 0))
		return;
	PeakUnit unit = PEAK_FP32;
	double peak = pk ? profile_peak_for(pk, compute, &unit) : 0;
	if (flops > 0) {
		double g = flops / seconds * 1e-9;
		profile_set(a, p, "achieved GFLOP/s", g, "GFLOP/s",
		            "spec flops at the bench shape over the measured median time");
		if (peak > 0)
			profile_set(a, p, "% of peak FLOP/s", 100 * g / peak, "%",
			            arena_printf(a, "of %.0f GFLOP/s, the %s peak (%s)", peak,
			                         profile_peak_unit_name(unit), pk->source));
	}
	if (bytes > 0) {
		double g = bytes / seconds * 1e-9;
		profile_set(a, p, "achieved GB/s", g, "GB/s",
		            "spec bytes at the bench shape over the measured median time");
		double bw = pk ? pk->gbps : 0;
		if (pk && pk->busy && pk->est_dram_gbps > bw)
			bw = pk->est_dram_gbps;
		if (bw > 0)
			profile_set(a, p, "% of peak bandwidth", 100 * g / bw, "%",
			            arena_printf(a, "of %.0f GB/s, the memory (DRAM) bandwidth (%s)", bw,
			                         pk->busy && bw > pk->gbps
			                             ? "the datasheet's: the measurement ran on a busy "
			                               "machine"
			                             : pk->source));
	}
	if (flops > 0 && bytes > 0) {
		double bwr = pk ? pk->gbps : 0;
		if (pk && pk->busy && pk->est_dram_gbps > bwr)
			bwr = pk->est_dram_gbps;
		double ai = flops / bytes, ridge = bwr > 0 ? peak / bwr : 0;
		profile_set(a, p, "arithmetic intensity", ai, "flop/byte",
		            ridge <= 0 ? "spec flops over spec bytes"
		            : ai < ridge
		                ? arena_printf(a, "below the ridge point (%.1f flop/byte against the "
		                                  "%s peak): memory-bound at best, so cut traffic",
		                               ridge, profile_peak_unit_name(unit))
		                : arena_printf(a, "above the ridge point (%.1f flop/byte against the "
		                                  "%s peak): compute-bound at best, so the roof is "
		                                  "the %s peak",
		                               ridge, profile_peak_unit_name(unit),
		                               profile_peak_unit_name(unit)));
	}
}

/* ---- extra metrics asked for by the plan ---------------------------------------- */

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.';
}

/* A token of a Metrics: line is untrusted: it becomes part of an argument
 * of the profiler's command line, so it is a name or nothing. */
static bool metric_name(const char *s, size_t n)
{
	if (n == 0 || n > 128 || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!name_char(s[i]))
			return false;
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == '_' && s[i + 1] == '_')
			return true;
	return false;
}

static void ask_bad(Arena *a, ProfileAsk *ask, const char *s, size_t n)
{
	if (ask->nbad == PROFILE_ASK_BAD)
		return;
	Strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n && i < 40; i++)
		sb_addc(&sb, name_char(s[i]) ? s[i] : '?');
	if (n > 40)
		sb_adds(&sb, "...");
	const char *shown = sb_to_arena(&sb, a);
	for (int i = 0; i < ask->nbad; i++)
		if (!strcmp(ask->bad[i], shown))
			return;
	ask->bad[ask->nbad++] = shown;
}

/* One item of a Metrics: line: its first word, decoration trimmed. */
static int ask_item(Arena *a, ProfileAsk *ask, const char *s, size_t n)
{
	static const char deco[] = "`*\"'";
	size_t i = 0;
	while (i < n && (strchr(" \t", s[i]) || strchr(deco, s[i])))
		i++;
	size_t j = i;
	while (j < n && s[j] != ' ' && s[j] != '\t')
		j++;
	while (j > i && (strchr(deco, s[j - 1]) || s[j - 1] == '.'))
		j--;
	s += i, n = j - i;
	if (n == 0 || (n == 4 && !strncasecmp(s, "none", 4)))
		return 0;
	if (!metric_name(s, n)) {
		ask_bad(a, ask, s, n);
		return 0;
	}
	for (int k = 0; k < ask->n; k++)
		if (strlen(ask->name[k]) == n && !strncmp(ask->name[k], s, n))
			return 0;
	if (ask->n == PROFILE_ASK_MAX) {
		ask->full = true;
		return 0;
	}
	ask->name[ask->n++] = arena_strndup(a, s, n);
	return 1;
}

/* The rest of the line after "Metrics:", or NULL when it is not one. */
static const char *metrics_line(const char *p, const char *eol)
{
	while (p < eol && strchr(" \t*-#>`", *p))
		p++;
	if (eol - p < 7 || strncasecmp(p, "metrics", 7))
		return NULL;
	p += 7;
	while (p < eol && strchr("*`", *p))
		p++;
	return p < eol && *p == ':' ? p + 1 : NULL;
}

int profile_ask_parse(Arena *a, const char *plan, ProfileAsk *ask)
{
	int added = 0;
	for (const char *p = plan; p && *p;) {
		const char *eol = p + strcspn(p, "\r\n");
		const char *q = metrics_line(p, eol);
		while (q && q < eol) {
			const char *comma = memchr(q, ',', (size_t)(eol - q));
			const char *end = comma ? comma : eol;
			added += ask_item(a, ask, q, (size_t)(end - q));
			q = end + 1;
		}
		p = *eol ? eol + 1 : eol;
	}
	return added;
}

bool profile_ask_same(const ProfileAsk *a, const ProfileAsk *b)
{
	static const ProfileAsk none;
	a = a ? a : &none;
	b = b ? b : &none;
	if (a->n != b->n || a->full != b->full || a->nbad != b->nbad)
		return false;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->name[i], b->name[i]))
			return false;
	for (int i = 0; i < a->nbad; i++)
		if (strcmp(a->bad[i], b->bad[i]))
			return false;
	return true;
}

/* ---- the driver ------------------------------------------------------------------ */

static const char DRIVER_HEAD[] =
    "/* kcc profile driver: fill the inputs, call the entry once. */\n"
    "#include <stdint.h>\n#include <stdlib.h>\n#include <string.h>\n"
    "static void kcc_fill(void *p, long long n, int kind, int size, long long lo,\n"
    "                     long long hi)\n{\n"
    "\tunsigned char *b = (unsigned char *)p; /* a cast: .cu drivers are C++ */\n"
    "\tfor (long long i = 0; i < n; i++) {\n"
    "\t\tunsigned long long h = (unsigned long long)i * 2654435761ull + 12345;\n"
    "\t\tif (kind == 0) { float v = (float)(h % 2001) / 1000.0f - 1.0f;"
    " memcpy(b + i * 4, &v, 4); }\n"
    "\t\telse if (kind == 1) { double v = (double)(h % 2001) / 1000.0 - 1.0;"
    " memcpy(b + i * 8, &v, 8); }\n"
    "\t\telse if (kind == 2) { long long v = lo + (long long)(h % (unsigned long long)"
    "(hi > lo ? hi - lo : 1));\n"
    "\t\t\tmemcpy(b + i * size, &v, (size_t)size); }\n"
    "\t\telse memset(b + i * size, 0, (size_t)size);\n\t}\n}\n";

typedef struct {
	const Unit *u;
	const Shape *shape;
	Strbuf *sb;
	const char **why;
	Arena *a;
} Gen;

static const SpecParam *param_of(const Unit *u, const char *name)
{
	for (int i = 0; i < u->spec.nparams; i++)
		if (!strcmp(u->spec.params[i].name, name))
			return &u->spec.params[i];
	return NULL;
}

static int fill_kind(ElemType t)
{
	if (t == ET_F32)
		return 0;
	if (t == ET_F64)
		return 1;
	return elem_is_float(t) ? 3 : 2;
}

/* Allocate and fill buffer p (kcc_bN) in main(). */
static int gen_buffer(Gen *g, int i)
{
	const SpecParam *p = &g->u->spec.params[i];
	int64_t n = 0, lo = 0, hi = 0;
	const char *why = NULL;
	if (spec_extent(p, g->shape, &n, &why) != 0) {
		*g->why = arena_printf(g->a, "extent of %s: %s", p->name, why ? why : "?");
		return -1;
	}
	if (p->lo && p->hi && (expr_eval(p->lo, g->shape, &lo, &why, NULL) != 0 ||
	                       expr_eval(p->hi, g->shape, &hi, &why, NULL) != 0)) {
		*g->why = arena_printf(g->a, "range of %s: %s", p->name, why ? why : "?");
		return -1;
	}
	if (!p->lo) /* no range: small non-negative values, safe as indices too */
		lo = 0, hi = 7;
	size_t es = elem_size(p->type);
	Strbuf *sb = g->sb;
	sb_addf(sb, "\t{\n\t\tsize_t bytes = (size_t)%lldLL * %zu + 64;\n", (long long)n, es);
	sb_addf(sb, "\t\tunsigned char *h = (unsigned char *)malloc(bytes);\n\t\tif (!h) return 5;\n");
	sb_addf(sb, "\t\tkcc_fill(h, %lldLL, %d, %zu, %lldLL, %lldLL);\n", (long long)n,
	        fill_kind(p->type), es, (long long)lo, (long long)hi);
	if (g->u->lang == LANG_CUDA)
		sb_addf(sb, "\t\tif (cudaMalloc(&kcc_b%d, bytes) != cudaSuccess) return 3;\n"
		            "\t\tcudaMemcpy(kcc_b%d, h, bytes, cudaMemcpyHostToDevice);\n"
		            "\t\tfree(h);\n",
		        i, i);
	else
		sb_addf(sb, "\t\tkcc_b%d = h;\n", i);
	sb_adds(sb, "\t}\n");
	return 0;
}

/* The entry's arguments: buffers by name, scalars from the shape. */
static int gen_call(Gen *g)
{
	const Unit *u = g->u;
	Strbuf *sb = g->sb;
	/* through a volatile pointer: the entry keeps its own name in the
	 * profile instead of being inlined into kcc_profile_calls */
	sb_addf(sb, "\t__typeof__(%s) *volatile kcc_fn = %s;\n\tkcc_fn(", u->spec.entry,
	        u->spec.entry);
	for (int i = 0; i < u->nparams; i++) {
		const CParam *c = &u->params[i];
		sb_adds(sb, i ? ", " : "");
		const SpecParam *p = param_of(u, c->name);
		if (c->is_pointer && p) {
			sb_addf(sb, "(%s)kcc_b%d", c->cast ? c->cast : c->type,
			        (int)(p - u->spec.params));
			continue;
		}
		bool found = false;
		int64_t v = shape_get(g->shape, c->name, &found);
		if (c->is_pointer || !found) {
			*g->why = arena_printf(g->a, "parameter %s is neither a buffer of the spec "
			                             "nor a name of the shape", c->name);
			return -1;
		}
		if (c->is_float_scalar)
			sb_addf(sb, "(%s)%.17g", c->type, shape_get_real(g->shape, c->name, &found));
		else
			sb_addf(sb, "(%s)%lldLL", c->type, (long long)v);
	}
	sb_adds(sb, ");\n");
	return 0;
}

char *target_profile_driver(Arena *a, const Unit *u, const Shape *shape,
                            const char *kernel_file, uint64_t flush_bytes, const char **why)
{
	Strbuf body = STRBUF_INIT, sb = STRBUF_INIT;
	Gen g = {u, shape, &body, why, a};
	sb_adds(&sb, DRIVER_HEAD);
	sb_addf(&sb, "#include \"%s\"\n", kernel_file);
	for (int i = 0; i < u->spec.nparams; i++)
		sb_addf(&sb, "static void *kcc_b%d;\n", i);
	sb_adds(&sb, "__attribute__((noinline)) void kcc_profile_calls(void)\n{\n");
	int rc = gen_call(&g);
	sb_addn(&sb, body.buf ? body.buf : "", body.len);
	sb_reset(&body);
	sb_adds(&sb, "}\n\nint main(void)\n{\n");
	for (int i = 0; rc == 0 && i < u->spec.nparams; i++)
		rc = gen_buffer(&g, i);
	sb_addn(&sb, body.buf ? body.buf : "", body.len);
	sb_release(&body);
	/* caches cold, as the timed runs have them (they flush before each) */
	sb_addf(&sb, "\t{\n\t\tsize_t n = %lluULL;\n"
	             "\t\tvolatile unsigned char *f = (volatile unsigned char *)malloc(n);\n"
	             "\t\tfor (size_t i = 0; f && i < n; i += 64) f[i] = (unsigned char)i;\n"
	             "\t\tfree((void *)f);\n\t}\n", (unsigned long long)flush_bytes);
	sb_adds(&sb, "\tkcc_profile_calls();\n");
	if (u->lang == LANG_CUDA)
		sb_adds(&sb, "\tif (cudaDeviceSynchronize() != cudaSuccess) return 3;\n");
	sb_adds(&sb, "\treturn 0;\n}\n");
	if (rc != 0) {
		sb_release(&sb);
		return NULL;
	}
	return sb_to_arena(&sb, a);
}

/* ---- running ---------------------------------------------------------------- */

double target_eval(const Expr *e, const Shape *sh)
{
	int64_t v = 0;
	const char *why;
	return e && expr_eval(e, sh, &v, &why, NULL) == 0 ? (double)v : 0;
}

/* A simulating profiler (callgrind) runs ~50x slower than native: the
 * bench shape only when that still fits a minute. */
const Shape *target_profile_shape(const Target *t, const Unit *u)
{
	const Spec *sp = &u->spec;
	if (sp->has_bench && !t->profile_slow)
		return &sp->bench;
	if (sp->has_bench) {
		double bytes = 0;
		for (int i = 0; i < sp->nparams; i++) {
			int64_t n = 0;
			const char *why;
			if (spec_extent(&sp->params[i], &sp->bench, &n, &why) == 0)
				bytes += (double)n * (double)elem_size(sp->params[i].type);
		}
		if (target_eval(sp->flops, &sp->bench) <= 3e8 && bytes <= 256e6)
			return &sp->bench;
	}
	const Shape *best = sp->ncheck ? &sp->check[0] : NULL;
	for (int i = 1; i < sp->ncheck; i++) {
		double a = 1, b = 1;
		for (int k = 0; k < sp->check[i].n; k++)
			a *= (double)sp->check[i].values[k];
		for (int k = 0; k < best->n; k++)
			b *= (double)best->values[k];
		if (a > b)
			best = &sp->check[i];
	}
	return best;
}

static char *shape_text(Arena *a, const Shape *s)
{
	Strbuf sb = STRBUF_INIT;
	for (int i = 0; i < s->n; i++)
		sb_addf(&sb, "%s%s=%lld", i ? " " : "", s->names[i], (long long)s->values[i]);
	return sb_to_arena(&sb, a);
}

int target_profile(const Target *t, Arena *a, const Unit *u, const Shape *shape,
                   const char *tmpdir, double timeout_s, Profile *out)
{
	return target_profile_ask(t, a, u, shape, tmpdir, timeout_s, NULL, out);
}

int target_profile_ask(const Target *t, Arena *a, const Unit *u, const Shape *shape,
                       const char *tmpdir, double timeout_s, const ProfileAsk *ask,
                       Profile *out)
{
	memset(out, 0, sizeof *out);
	out->ask = ask;
	out->shape = shape_text(a, shape);
	out->notes = "";
	if (!t->profile) {
		profile_note(a, out, "the %s target has no profiler", t->name);
		return -1;
	}
	char *dir = arena_printf(a, "%s/kcc-profile-XXXXXX", tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(dir)) {
		profile_note(a, out, "cannot make a directory under %s: %s", tmpdir, strerror(errno));
		return -1;
	}
	const char *kfile = arena_printf(a, "kernel%s", t->src_ext);
	const char *src = arena_printf(a, "%s/driver%s", dir, t->src_ext);
	const char *exe = arena_printf(a, "%s/driver", dir);
	const char *why = NULL;
	TargetInfo info;
	t->describe(t, a, &info);
	char *text = target_profile_driver(a, u, shape, kfile, info.flush_bytes, &why);
	if (!text || file_write_atomic(arena_printf(a, "%s/%s", dir, kfile), u->text, u->len) ||
	    file_write_atomic(src, text, strlen(text))) {
		profile_note(a, out, "no profile driver: %s", why ? why : strerror(errno));
		return -1;
	}
	TargetBuild b = {.dir = dir, .src = src, .exe = exe, .flags = t->profile_flags,
	                 .project = true, .cand_flags = u->build_flags};
	TargetBuilt tb;
	int rc = -1;
	if (t->build(t, a, &b, &tb) != 0) {
		profile_note(a, out, "the profile driver does not build (%s): %s", tb.cmdline,
		             proc_tail(tb.log ? tb.log : "", 5));
	} else {
		const char *argv[] = {exe, NULL};
		TargetProfileRun r = {.argv = argv, .cwd = dir, .timeout_s = timeout_s,
		                      .build_log = tb.log, .collect = "kcc_profile_calls",
		                      .keep = ask && ask->keep};
		rc = t->profile(t, a, &r, out);
	}
	if (ask && ask->keep) {
		out->kept = dir;
		return rc;
	}
	unlink(arena_printf(a, "%s/%s", dir, kfile));
	unlink(src);
	unlink(exe);
	rmdir(dir);
	return rc;
}
