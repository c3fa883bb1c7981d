/*
 * provider_anthropic.c — the Anthropic messages wire format. It differs
 * from chat completions in three ways that matter here: system prompts go
 * in a top-level "system" field, max_tokens is required, and the answer is
 * a list of content blocks of which we keep the text ones.
 */
#include "internal.h"

#include <string.h>

#define DEFAULT_MAX_TOKENS 4096

char *llm_anthropic_body(Arena *a, const LlmRequest *r, const char *model)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "model", model);
	cJSON_AddNumberToObject(root, "max_tokens",
	                        r->max_tokens > 0 ? r->max_tokens : DEFAULT_MAX_TOKENS);
	Strbuf sys = STRBUF_INIT;
	cJSON *msgs = cJSON_CreateArray();
	for (int i = 0; i < r->nmessages; i++) {
		const LlmMessage *m = &r->messages[i];
		if (strcmp(m->role, "system") == 0) {
			if (sys.len) /* several system messages read as one */
				sb_adds(&sys, "\n\n");
			sb_adds(&sys, m->content);
			continue;
		}
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "role", m->role);
		cJSON_AddStringToObject(o, "content", m->content);
		cJSON_AddItemToArray(msgs, o);
	}
	if (sys.len)
		cJSON_AddStringToObject(root, "system", sys.buf);
	sb_release(&sys);
	cJSON_AddItemToObject(root, "messages", msgs);
	cJSON_AddNumberToObject(root, "temperature", r->temperature);
	return llm_json_take(a, root);
}

int llm_anthropic_parse(Arena *a, const char *body, size_t len,
                        LlmAnswer *out, const char **err)
{
	memset(out, 0, sizeof *out);
	cJSON *root = cJSON_ParseWithLength(body, len);
	if (!root) {
		*err = "malformed JSON";
		return -1;
	}
	const cJSON *content = cJSON_GetObjectItemCaseSensitive(root, "content");
	if (!cJSON_IsArray(content))
		content = NULL;
	Strbuf sb = STRBUF_INIT;
	bool any = false;
	const cJSON *blk;
	cJSON_ArrayForEach(blk, content) {
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(blk, "type");
		const cJSON *text = cJSON_GetObjectItemCaseSensitive(blk, "text");
		if (!cJSON_IsString(type) || strcmp(type->valuestring, "text") != 0 ||
		    !cJSON_IsString(text))
			continue;
		sb_adds(&sb, text->valuestring);
		any = true;
	}
	const cJSON *usage = cJSON_GetObjectItemCaseSensitive(root, "usage");
	out->tokens_in = llm_json_count(usage, "input_tokens");
	out->tokens_out = llm_json_count(usage, "output_tokens");
	cJSON_Delete(root);
	if (!any) {
		sb_release(&sb);
		*err = "no text block in the response's content";
		return -1;
	}
	out->text = sb_to_arena(&sb, a);
	return 0;
}
