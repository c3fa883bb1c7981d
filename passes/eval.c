/*
 * eval.c — one candidate through the Verifier and the timer. A candidate
 * is parsed without demanding a spec (so a changed pragma gets the
 * verifier's exact reason), checked with verify_candidate (or
 * verify_unparsed when the front end rejects it) and, when correct, timed
 * against the original with verify_bench. Results are memoized in the
 * cache (CACHE/verdicts/) by the hash of (original, candidate, target,
 * device, kcc's version), so a resumed run or a `make` rebuild re-verifies
 * nothing and, with the same measurements in its prompts, hits the LLM
 * cache on every request.
 *
 * An entry is trusted only when its HMAC-SHA-256 checks under the key in
 * CACHE/verdicts.key (32 random bytes, created 0600 on first use): a
 * process that rewrites a verdict file ("correct, 9.5x") cannot make it
 * authenticate without the key, and an entry that does not is verified
 * again, never believed (issue 17).
 */
#include "internal.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

double passes_now(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

uint64_t passes_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The front end reports a candidate's errors through the diagnostics
 * sink, on stderr: they belong in the record (and the repair prompt), not
 * on the user's terminal. */
typedef struct {
	int saved;
	FILE *tmp;
} Capture;

static void capture_begin(Capture *c)
{
	fflush(stderr);
	c->tmp = tmpfile();
	c->saved = c->tmp ? dup(2) : -1;
	if (c->saved >= 0)
		dup2(fileno(c->tmp), 2);
}

static const char *capture_end(Capture *c, Arena *a)
{
	if (c->saved < 0)
		return "";
	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	Strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;
	rewind(c->tmp);
	while ((n = fread(buf, 1, sizeof buf, c->tmp)) > 0 && sb.len < 65536)
		sb_addn(&sb, buf, n);
	fclose(c->tmp);
	return sb.len ? sb_to_arena(&sb, a) : "";
}

static const char *memo_dir(Search *s)
{
	if (s->cfg->memo_dir)
		return s->cfg->memo_dir;
	return arena_printf(s->a, "%s/memo", s->cfg->state_dir);
}

static const char *memo_path(Search *s, const Candidate *c)
{
	Strbuf k = STRBUF_INIT;
	sb_addf(&k, "%s\n%s\n%s\n%s\n%d\nkcc %s", s->orig_sha, c->sha, s->cfg->target->name,
	        s->r->device, (int)s->cfg->vo.paranoid, KCC_VERSION);
	char h[65];
	sha256_hex(k.buf, k.len, h);
	sb_release(&k);
	return arena_printf(s->a, "%s/%.32s.json", memo_dir(s), h);
}

/* The memo's key: read, or created (O_EXCL, 0600) when there is none. A
 * key that is not a private regular file of ours is no key: the memo is
 * then neither read nor written. */
static bool memo_key(Search *s, unsigned char key[32])
{
	const char *path = arena_printf(s->a, "%s.key", memo_dir(s));
	file_mkdirs(memo_dir(s), 0700);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0) {
		int rnd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
		bool ok = rnd >= 0 && read(rnd, key, 32) == 32 && write(fd, key, 32) == 32;
		if (rnd >= 0)
			close(rnd);
		close(fd);
		if (!ok)
			unlink(path);
		return ok;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;
	bool ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	          st.st_uid == geteuid() && !(st.st_mode & 077) && st.st_size == 32 &&
	          read(fd, key, 32) == 32;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* The MAC of an entry: its path (so an entry cannot be moved to another
 * key), kcc's version and its text. */
static void memo_mac(Search *s, const unsigned char key[32], const char *path,
                     const char *json, size_t len, char mac[65])
{
	Strbuf m = STRBUF_INIT;
	sb_addf(&m, "kcc-verdict 1\n%s\n%s\n", KCC_VERSION, path);
	sb_addn(&m, json, len);
	hmac_sha256(key, 32, m.buf, m.len, mac);
	sb_release(&m);
	(void)s;
}

static const char *jstr(cJSON *o, const char *k)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static double jnum(cJSON *o, const char *k)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* A memo that measured nothing cannot answer a request that wants timing. */
static bool memo_load(Search *s, Candidate *c, bool bench)
{
	char *text;
	size_t len;
	unsigned char key[32];
	const char *path = memo_path(s, c);
	if (!s->cfg->memo_read || file_read(s->a, path, &text, &len) || !memo_key(s, key))
		return false;
	char mac[65];
	const char *nl = memchr(text, '\n', len);
	const char *json = nl ? nl + 1 : text;
	memo_mac(s, key, path, json, len - (size_t)(json - text), mac);
	if (!nl || (size_t)(nl - text) != 24 + 64 || strncmp(text, "kcc-verdict hmac-sha256 ", 24) ||
	    memcmp(text + 24, mac, 64)) {
		diag_warning("the cached verdict %s does not authenticate (changed outside kcc?): "
		             "verifying the candidate again", path);
		return false;
	}
	cJSON *o = cJSON_Parse(json);
	if (!o)
		return false;
	bool measured = cJSON_IsTrue(cJSON_GetObjectItem(o, "measured"));
	bool correct = cJSON_IsTrue(cJSON_GetObjectItem(o, "correct"));
	bool ok = !(bench && correct && !measured);
	if (ok) {
		c->correct = correct;
		c->measured = measured;
		c->reason = verify_reason_parse(jstr(o, "reason"));
		if (c->reason == VR__COUNT)
			c->reason = VR_OK;
		c->why = arena_strdup(s->a, jstr(o, "why"));
		c->log = arena_strdup(s->a, jstr(o, "log"));
		c->ms = jnum(o, "ms"), c->ms_q1 = jnum(o, "ms_q1"), c->ms_q3 = jnum(o, "ms_q3");
		c->speedup = jnum(o, "speedup"), c->lo = jnum(o, "lo"), c->hi = jnum(o, "hi");
		c->verify_s = jnum(o, "verify_s"), c->bench_s = jnum(o, "bench_s");
		if (*jstr(o, "shape") && !s->r->shape)
			s->r->shape = arena_strdup(s->a, jstr(o, "shape"));
	}
	cJSON_Delete(o);
	return ok;
}

static void memo_save(Search *s, const Candidate *c)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "correct", c->correct);
	cJSON_AddStringToObject(o, "reason", verify_reason_name(c->reason));
	cJSON_AddStringToObject(o, "why", c->why ? c->why : "");
	cJSON_AddStringToObject(o, "log", c->log ? proc_tail(c->log, 40) : "");
	cJSON_AddBoolToObject(o, "measured", c->measured);
	cJSON_AddNumberToObject(o, "ms", c->ms);
	cJSON_AddNumberToObject(o, "ms_q1", c->ms_q1);
	cJSON_AddNumberToObject(o, "ms_q3", c->ms_q3);
	cJSON_AddNumberToObject(o, "speedup", c->speedup);
	cJSON_AddNumberToObject(o, "lo", c->lo);
	cJSON_AddNumberToObject(o, "hi", c->hi);
	cJSON_AddNumberToObject(o, "verify_s", c->verify_s);
	cJSON_AddNumberToObject(o, "bench_s", c->bench_s);
	cJSON_AddStringToObject(o, "shape", s->r->shape ? s->r->shape : "");
	char *j = cJSON_Print(o);
	unsigned char key[32];
	if (memo_key(s, key)) {
		const char *path = memo_path(s, c);
		char mac[65];
		memo_mac(s, key, path, j, strlen(j), mac);
		const char *text = arena_printf(s->a, "kcc-verdict hmac-sha256 %s\n%s", mac, j);
		file_write_atomic(path, text, strlen(text));
	}
	free(j);
	cJSON_Delete(o);
}

static void take_verdict(Search *s, Candidate *c, const Verdict *v)
{
	c->reason = v->reason;
	c->correct = v->reason == VR_OK;
	c->why = v->summary ? arena_strdup(s->a, v->summary) : verify_reason_name(v->reason);
	/* the planner and the repair need the shape a rejection happened at */
	if (v->reason != VR_OK && v->shape && !strstr(c->why, v->shape))
		c->why = arena_printf(s->a, "%s; shape %s", c->why, v->shape);
	if (v->log && *v->log)
		c->log = v->log;
}

static int measure(Search *s, Candidate *c, const Unit *u)
{
	double t = passes_now();
	BenchResult b;
	memset(&b, 0, sizeof b);
	if (verify_bench(s->ref, u, &b) != 0)
		return -1;
	c->bench_s = passes_now() - t;
	if (b.verdict.reason != VR_OK) {
		take_verdict(s, c, &b.verdict);
		return 0;
	}
	c->measured = true;
	double k = b.unit ? 1 : 1e3; /* a count stays a count */
	c->ms = b.cand.median * k, c->ms_q1 = b.cand.q1 * k, c->ms_q3 = b.cand.q3 * k;
	c->speedup = b.speedup, c->lo = b.ci_lo, c->hi = b.ci_hi;
	if (!s->r->shape && b.shape)
		s->r->shape = arena_strdup(s->a, b.shape);
	return 0;
}

/* The earlier judged candidate with c's normal form, or -1. The memo
 * answers the same bytes; this answers the same code. */
static int same_code(Search *s, const Candidate *c)
{
	for (int i = 0; i < c->id; i++) {
		const Candidate *k = &s->r->c[i];
		if (k->key[0] && !k->duplicate && !strcmp(k->key, c->key))
			return i;
	}
	return -1;
}

static void take_duplicate(Search *s, Candidate *c, const Candidate *k)
{
	c->duplicate = true;
	c->dup_of = k->id;
	c->correct = k->correct;
	c->reason = k->reason;
	c->why = arena_printf(s->a, "the same code as candidate %d (%s)", k->id,
	                      k->why ? k->why : verify_reason_name(k->reason));
	c->log = k->log;
	c->measured = k->measured;
	c->ms = k->ms, c->ms_q1 = k->ms_q1, c->ms_q3 = k->ms_q3;
	c->speedup = k->speedup, c->lo = k->lo, c->hi = k->hi;
	c->profile = k->profile;
	if (k->id == 0) /* the original sent back: no faster than itself */
		c->speedup = c->lo = c->hi = 1.0;
	s->r->duplicates++;
}

int eval_candidate(Search *s, int id, bool bench)
{
	Candidate *c = &s->r->c[id];
	if (c->cflags && *c->cflags) { /* the same text built another way */
		Strbuf sb = STRBUF_INIT;
		sb_addn(&sb, c->text, c->len);
		sb_addf(&sb, "\n/* kcc cflags: %s */\n", c->cflags);
		sha256_hex(sb.buf, sb.len, c->sha);
		sb_release(&sb);
	} else
		sha256_hex(c->text, c->len, c->sha);
	passes_text_key(s->a, c->text, c->len, c->key);
	if (c->cflags && *c->cflags) { /* the same code built another way is not */
		const char *k2 = arena_printf(s->a, "%s\ncflags %s", c->key, c->cflags);
		sha256_hex(k2, strlen(k2), c->key);
	}
	int k = same_code(s, c);
	if (k >= 0 && (k == 0 || !bench || !s->r->c[k].correct || s->r->c[k].measured)) {
		take_duplicate(s, c, &s->r->c[k]);
		diag_trace("kcc: candidate %d: the same code as candidate %d (%s)", id, k,
		           c->correct ? "correct" : verify_reason_name(c->reason));
		return 0;
	}
	if (memo_load(s, c, bench)) {
		diag_trace("kcc: candidate %d: %s (remembered)", id,
		           c->correct ? "correct" : verify_reason_name(c->reason));
		return 0;
	}
	double t = passes_now();
	Capture cap;
	capture_begin(&cap);
	Unit *u = ir_parse(s->a, c->file, c->text, c->len, s->cfg->io, false);
	const char *errs = capture_end(&cap, s->a);
	if (u && c->cflags && *c->cflags)
		u->build_flags = passes_split_flags(s->a, c->cflags);
	Verdict v;
	memset(&v, 0, sizeof v);
	if (!u)
		verify_unparsed(s->ref, c->file, c->text, c->len, &v);
	else if (verify_candidate(s->ref, u, &v) != 0)
		return -1;
	take_verdict(s, c, &v);
	if (!u && *errs)
		c->log = errs;
	c->verify_s = passes_now() - t;
	if (c->correct && bench && measure(s, c, u) != 0)
		return -1;
	memo_save(s, c);
	return 0;
}

bool search_gain(const Search *s, const Candidate *c)
{
	if (!c->correct || !c->measured || c->parent < 0 || c->duplicate)
		return false;
	const Candidate *p = &s->r->c[c->parent];
	double base = p->measured ? p->speedup : 1.0, top = p->measured ? p->hi : 1.0;
	return c->lo > base * (1.0 + s->r->delta) && c->lo > top;
}
