/*
 * memo.c — the memo: what the search learned about a text once, kept by
 * hash so a resumed run or a `make` rebuild asks no tool again and, with the
 * same measurements in its prompts, hits the LLM cache on every request.
 * It lives in CACHE/verdicts/ (SearchConfig.memo_dir; STATE/memo without
 * one) and holds two records:
 *
 *   HASH.json          a candidate's verdict and measurement, by the hash
 *                      of (original, candidate, target, device, paranoia,
 *                      kcc's version); sealed
 *   HASH.profile.json  a version's profile, by the hash of (candidate,
 *                      target, device, the metrics asked for)
 *
 * A sealed entry is trusted only when its HMAC-SHA-256 checks under the key
 * in CACHE/verdicts.key (32 random bytes, created 0600 on first use): a
 * process that rewrites a verdict file ("correct, 9.5x") cannot make it
 * authenticate without the key, and an entry that does not is verified
 * again, never believed (issue 17).
 */
#include "internal.h"

#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- entries -------------------------------------------------------------------- */

static const char *memo_dir(Search *s)
{
	if (s->cfg->memo_dir)
		return s->cfg->memo_dir;
	return arena_printf(s->a, "%s/memo", s->cfg->state_dir);
}

/* DIR/H.SUFFIX, H the first 32 hex digits of key's sha256. */
static const char *memo_path(Search *s, const Strbuf *key, const char *suffix)
{
	char h[65];
	sha256_hex(key->buf, key->len, h);
	return arena_printf(s->a, "%s/%.32s%s", memo_dir(s), h, suffix);
}

/* The seal's key: read, or created (O_EXCL, 0600) when there is none. A
 * key that is not a private regular file of ours is no key: sealed entries
 * are then neither read nor written. */
static bool seal_key(Search *s, unsigned char key[32])
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

/* The MAC of a sealed entry: its path (so an entry cannot be moved to
 * another key), kcc's version and its text. */
static void seal_mac(const unsigned char key[32], const char *path, const char *json,
                     size_t len, char mac[65])
{
	Strbuf m = STRBUF_INIT;
	sb_addf(&m, "kcc-verdict 1\n%s\n%s\n", KCC_VERSION, path);
	sb_addn(&m, json, len);
	hmac_sha256(key, 32, m.buf, m.len, mac);
	sb_release(&m);
}

/* The entry at path, parsed; NULL when there is none, when the memo is not
 * to be read (--no-cache), or when a sealed one does not authenticate. */
static cJSON *memo_get(Search *s, const char *path, bool sealed)
{
	char *text;
	size_t len;
	unsigned char key[32];
	if (!s->cfg->memo_read || file_read(s->a, path, &text, &len) != 0)
		return NULL;
	if (!sealed)
		return cJSON_Parse(text);
	if (!seal_key(s, key))
		return NULL;
	char mac[65];
	const char *nl = memchr(text, '\n', len);
	const char *json = nl ? nl + 1 : text;
	seal_mac(key, path, json, len - (size_t)(json - text), mac);
	if (!nl || (size_t)(nl - text) != 24 + 64 || strncmp(text, "kcc-verdict hmac-sha256 ", 24) ||
	    memcmp(text + 24, mac, 64)) {
		diag_warning("the cached verdict %s does not authenticate (changed outside kcc?): "
		             "verifying the candidate again", path);
		return NULL;
	}
	return cJSON_Parse(json);
}

static void memo_put(Search *s, const char *path, const cJSON *o, bool sealed)
{
	char *j = cJSON_Print(o);
	unsigned char key[32];
	if (!sealed) {
		file_mkdirs(memo_dir(s), 0755);
		file_write_atomic(path, j, strlen(j));
	} else if (seal_key(s, key)) {
		char mac[65];
		seal_mac(key, path, j, strlen(j), mac);
		const char *text = arena_printf(s->a, "kcc-verdict hmac-sha256 %s\n%s", mac, j);
		file_write_atomic(path, text, strlen(text));
	}
	free(j);
}

static const char *jstr(Arena *a, cJSON *o, const char *k)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return arena_strdup(a, cJSON_IsString(v) ? v->valuestring : "");
}

static double jnum(cJSON *o, const char *k)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* ---- verdicts ------------------------------------------------------------------- */

/* The measurement's numbers, in the entry's order. */
static const struct {
	const char *name;
	size_t at;
} verdict_nums[] = {
    {"ms", offsetof(Candidate, ms)},           {"ms_q1", offsetof(Candidate, ms_q1)},
    {"ms_q3", offsetof(Candidate, ms_q3)},     {"speedup", offsetof(Candidate, speedup)},
    {"lo", offsetof(Candidate, lo)},           {"hi", offsetof(Candidate, hi)},
    {"verify_s", offsetof(Candidate, verify_s)}, {"bench_s", offsetof(Candidate, bench_s)},
};

static const char *verdict_path(Search *s, const Candidate *c)
{
	Strbuf k = STRBUF_INIT;
	sb_addf(&k, "%s\n%s\n%s\n%s\n%d\nkcc %s", s->orig_sha, c->sha, s->cfg->target->name,
	        s->r->device, (int)s->cfg->vo.paranoid, KCC_VERSION);
	const char *path = memo_path(s, &k, ".json");
	sb_release(&k);
	return path;
}

bool memo_verdict_get(Search *s, Candidate *c, bool bench)
{
	cJSON *o = memo_get(s, verdict_path(s, c), true);
	if (!o)
		return false;
	bool measured = cJSON_IsTrue(cJSON_GetObjectItem(o, "measured"));
	bool correct = cJSON_IsTrue(cJSON_GetObjectItem(o, "correct"));
	bool ok = !(bench && correct && !measured); /* one that measured nothing cannot
	                                               answer a request that wants timing */
	if (ok) {
		c->correct = correct;
		c->measured = measured;
		c->reason = verify_reason_parse(jstr(s->a, o, "reason"));
		if (c->reason == VR__COUNT)
			c->reason = VR_OK;
		c->why = jstr(s->a, o, "why");
		c->log = jstr(s->a, o, "log");
		for (size_t i = 0; i < ARRAY_LEN(verdict_nums); i++)
			*(double *)((char *)c + verdict_nums[i].at) = jnum(o, verdict_nums[i].name);
		const char *shape = jstr(s->a, o, "shape");
		if (*shape && !s->r->shape)
			s->r->shape = shape;
	}
	cJSON_Delete(o);
	return ok;
}

void memo_verdict_put(Search *s, const Candidate *c)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "correct", c->correct);
	cJSON_AddStringToObject(o, "reason", verify_reason_name(c->reason));
	cJSON_AddStringToObject(o, "why", c->why ? c->why : "");
	cJSON_AddStringToObject(o, "log", c->log ? proc_tail(c->log, 40) : "");
	cJSON_AddBoolToObject(o, "measured", c->measured);
	for (size_t i = 0; i < ARRAY_LEN(verdict_nums); i++)
		cJSON_AddNumberToObject(o, verdict_nums[i].name,
		                        *(const double *)((const char *)c + verdict_nums[i].at));
	cJSON_AddStringToObject(o, "shape", s->r->shape ? s->r->shape : "");
	memo_put(s, verdict_path(s, c), o, true);
	cJSON_Delete(o);
}

/* ---- profiles ------------------------------------------------------------------- */

static const char *profile_path(Search *s, const Candidate *c, const ProfileAsk *ask)
{
	Strbuf k = STRBUF_INIT;
	sb_addf(&k, "profile\n%s\n%s\n%s", c->sha, s->cfg->target->name, s->r->device);
	if (!profile_ask_same(ask, NULL)) { /* no ask: the key profiles always had */
		sb_addf(&k, "\nask%s", ask->full ? " full" : "");
		for (int i = 0; i < ask->n; i++)
			sb_addf(&k, " %s", ask->name[i]);
		for (int i = 0; i < ask->nbad; i++)
			sb_addf(&k, " bad:%s", ask->bad[i]);
	}
	const char *path = memo_path(s, &k, ".profile.json");
	sb_release(&k);
	return path;
}

cJSON *profile_json(const Profile *p)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "source", p->source ? p->source : "");
	cJSON_AddStringToObject(o, "shape", p->shape ? p->shape : "");
	cJSON_AddStringToObject(o, "notes", p->notes ? p->notes : "");
	if (p->takes)
		cJSON_AddStringToObject(o, "takes", p->takes);
	cJSON *ms = cJSON_AddArrayToObject(o, "metrics");
	for (int i = 0; i < p->n; i++) {
		cJSON *m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "name", p->m[i].name);
		cJSON_AddNumberToObject(m, "value", p->m[i].value);
		cJSON_AddStringToObject(m, "unit", p->m[i].unit ? p->m[i].unit : "");
		cJSON_AddStringToObject(m, "meaning", p->m[i].meaning ? p->m[i].meaning : "");
		cJSON_AddItemToArray(ms, m);
	}
	cJSON *hs = cJSON_AddArrayToObject(o, "hot");
	for (int i = 0; i < p->nhot; i++) {
		cJSON *h = cJSON_CreateObject();
		cJSON_AddStringToObject(h, "name", p->hot[i].name);
		cJSON_AddNumberToObject(h, "share", p->hot[i].share);
		cJSON_AddItemToArray(hs, h);
	}
	return o;
}

bool memo_profile_get(Search *s, const Candidate *c, const ProfileAsk *ask, Profile *p)
{
	cJSON *o = memo_get(s, profile_path(s, c, ask), false), *it;
	if (!o)
		return false;
	p->source = jstr(s->a, o, "source");
	p->shape = jstr(s->a, o, "shape");
	p->notes = jstr(s->a, o, "notes");
	p->takes = *jstr(s->a, o, "takes") ? jstr(s->a, o, "takes") : NULL;
	cJSON_ArrayForEach(it, cJSON_GetObjectItem(o, "metrics"))
		profile_set(s->a, p, jstr(s->a, it, "name"), jnum(it, "value"),
		            jstr(s->a, it, "unit"), jstr(s->a, it, "meaning"));
	cJSON_ArrayForEach(it, cJSON_GetObjectItem(o, "hot"))
		ARENA_PUSH(s->a, p->hot, p->nhot, p->hotcap,
		           ((ProfileHot){jstr(s->a, it, "name"), jnum(it, "share")}));
	cJSON_Delete(o);
	return true;
}

void memo_profile_put(Search *s, const Candidate *c, const ProfileAsk *ask, const Profile *p)
{
	cJSON *o = profile_json(p);
	memo_put(s, profile_path(s, c, ask), o, false);
	cJSON_Delete(o);
}
