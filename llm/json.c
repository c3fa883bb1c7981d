/*
 * json.c — the few cJSON helpers the wire formats and the cache share:
 * copying strings into the run's arena, printing a tree compactly, and
 * finding the human-readable part of a provider's error body.
 *
 * Error bodies come from servers we do not control (and from proxies that
 * answer with HTML), so the fallback is a short, printable excerpt rather
 * than whatever bytes arrived.
 */
#include "internal.h"

#include <string.h>

char *llm_json_str(Arena *a, const cJSON *item)
{
	if (!cJSON_IsString(item) || !item->valuestring)
		return NULL;
	return arena_strdup(a, item->valuestring);
}

char *llm_json_take(Arena *a, cJSON *root)
{
	char *s = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	if (!s)
		return NULL;
	char *r = arena_strdup(a, s);
	cJSON_free(s);
	return r;
}

/* At most 200 bytes of body, control characters turned into spaces. */
static const char *excerpt(Arena *a, const char *body, size_t len)
{
	Strbuf sb = STRBUF_INIT;
	size_t n = len < 200 ? len : 200;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)body[i];
		sb_addc(&sb, c < 32 || c == 127 ? ' ' : (char)c);
	}
	if (len > n)
		sb_adds(&sb, "...");
	if (!sb.len)
		sb_adds(&sb, "(empty body)");
	return sb_to_arena(&sb, a);
}

const char *llm_error_message(Arena *a, const char *body, size_t len)
{
	cJSON *root = body ? cJSON_ParseWithLength(body, len) : NULL;
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(e, "message");
	char *msg = llm_json_str(a, m);
	if (!msg && cJSON_IsString(e)) /* some servers say {"error": "..."} */
		msg = llm_json_str(a, e);
	cJSON_Delete(root);
	if (msg)
		return excerpt(a, msg, strlen(msg));
	return excerpt(a, body ? body : "", body ? len : 0);
}

long llm_json_count(const cJSON *usage, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(usage, name);
	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 1e12)
		return 0;
	return (long)v->valuedouble;
}
