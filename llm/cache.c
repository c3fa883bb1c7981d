/*
 * cache.c — the content-addressed answer cache that makes rebuilds free:
 * with the same provider, model, messages, parameters and sample index, kcc
 * answers from disk and makes no network call.
 *
 * Layout: ROOT/llm/ab/abcdef....json, ROOT being the configured directory,
 * else support's dir_cache() (--cache-dir, $XDG_CACHE_HOME/kcc or
 * ~/.cache/kcc). The key is the sha256 of a canonical JSON serialization
 * of the request; the entry holds that
 * request and the answer, so a human can read what was asked. API keys are
 * not part of either. Entries are written atomically, so concurrent kcc
 * runs sharing a cache see a whole entry or none.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct LlmCache {
	Arena *a;
	const char *dir; /* ROOT/llm */
	LlmCacheMode mode;
	long hits, misses, writes, errors;
};

LlmCache *llm_cache_new(Arena *a, const char *dir, LlmCacheMode mode)
{
	LlmCache *c = arena_alloc(a, sizeof *c);
	c->a = a;
	c->mode = mode;
	c->dir = arena_printf(a, "%s/llm", dir ? dir : dir_cache());
	return c;
}

char *llm_cache_request_json(Arena *a, const LlmProvider *p, const char *model,
                             const LlmRequest *r)
{
	static const char *const kind[] = {"openai", "anthropic", "cmd"};
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "v", 1);
	cJSON_AddStringToObject(o, "kind", kind[p->kind]);
	if (p->kind == LLM_CMD) {
		cJSON *argv = cJSON_AddArrayToObject(o, "argv");
		for (int i = 0; p->argv[i]; i++)
			cJSON_AddItemToArray(argv, cJSON_CreateString(p->argv[i]));
	} else
		cJSON_AddStringToObject(o, "base", p->base_url);
	cJSON_AddStringToObject(o, "model", model);
	cJSON *msgs = cJSON_AddArrayToObject(o, "messages");
	for (int i = 0; i < r->nmessages; i++) {
		cJSON *m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "role", r->messages[i].role);
		cJSON_AddStringToObject(m, "content", r->messages[i].content);
		cJSON_AddItemToArray(msgs, m);
	}
	cJSON_AddNumberToObject(o, "temperature", r->temperature);
	cJSON_AddNumberToObject(o, "max_tokens", r->max_tokens);
	if (r->use_seed)
		cJSON_AddNumberToObject(o, "seed", (double)r->seed);
	else
		cJSON_AddNullToObject(o, "seed");
	cJSON_AddNumberToObject(o, "sample", r->sample);
	return llm_json_take(a, o);
}

void llm_cache_key(const char *canon, char out[65])
{
	sha256_hex(canon, strlen(canon), out);
}

static const char *entry_path(LlmCache *c, Arena *a, const char *key)
{
	return arena_printf(a, "%s/%.2s/%s.json", c->dir, key, key);
}

bool llm_cache_get(LlmCache *c, Arena *a, const char *key, LlmAnswer *ans)
{
	memset(ans, 0, sizeof *ans);
	char *text;
	size_t len;
	const char *path = entry_path(c, a, key);
	if (file_read(a, path, &text, &len) != 0) {
		c->misses++;
		return false;
	}
	cJSON *root = cJSON_ParseWithLength(text, len);
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(root, "key");
	const cJSON *an = cJSON_GetObjectItemCaseSensitive(root, "answer");
	ans->text = llm_json_str(a, cJSON_GetObjectItemCaseSensitive(an, "text"));
	const cJSON *ti = cJSON_GetObjectItemCaseSensitive(an, "tokens_in");
	const cJSON *to = cJSON_GetObjectItemCaseSensitive(an, "tokens_out");
	ans->tokens_in = cJSON_IsNumber(ti) ? (long)ti->valuedouble : 0;
	ans->tokens_out = cJSON_IsNumber(to) ? (long)to->valuedouble : 0;
	bool ok = ans->text && cJSON_IsString(k) && strcmp(k->valuestring, key) == 0;
	cJSON_Delete(root);
	if (!ok) {
		diag_trace("kcc: llm: ignoring damaged cache entry %s", path);
		c->misses++;
		return false;
	}
	c->hits++;
	return true;
}

char *llm_cache_entry(Arena *a, const char *key, const char *canon,
                      const char *provider, const LlmAnswer *ans)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "key", key);
	cJSON_AddStringToObject(o, "provider", provider);
	cJSON_AddNumberToObject(o, "created", (double)time(NULL));
	cJSON_AddItemToObject(o, "request", cJSON_Parse(canon));
	cJSON *an = cJSON_AddObjectToObject(o, "answer");
	cJSON_AddStringToObject(an, "text", ans->text);
	cJSON_AddNumberToObject(an, "tokens_in", (double)ans->tokens_in);
	cJSON_AddNumberToObject(an, "tokens_out", (double)ans->tokens_out);
	char *s = cJSON_Print(o); /* indented: entries are meant to be read */
	cJSON_Delete(o);
	char *r = arena_strdup(a, s ? s : "{}");
	cJSON_free(s);
	return r;
}

void llm_cache_put(LlmCache *c, const char *key, const char *canon,
                   const char *provider, const LlmAnswer *ans)
{
	if (c->mode == LLM_CACHE_OFFLINE)
		return;
	Arena *a = c->a;
	const char *sub = arena_printf(a, "%s/%.2s", c->dir, key);
	char *entry = llm_cache_entry(a, key, canon, provider, ans);
	int e = file_mkdirs(sub, 0700);
	if (!e)
		e = file_write_atomic(entry_path(c, a, key), entry, strlen(entry));
	if (!e) {
		c->writes++;
		return;
	}
	if (!c->errors++) /* once: a full disk should not flood the terminal */
		diag_warning("cannot write the LLM cache in %s: %s", c->dir, strerror(e));
}

void llm_cache_counts(const LlmCache *c, long *hits, long *misses,
                      long *writes, long *errors)
{
	*hits = c->hits;
	*misses = c->misses;
	*writes = c->writes;
	*errors = c->errors;
}

const char *llm_cache_dir(const LlmCache *c)
{
	return c->dir;
}
