/*
 * provider_openai.c — the OpenAI chat-completions wire format: the request
 * body (also what a cmd: program reads on stdin) and the parse of an answer.
 *
 * The same format is served by vLLM, llama.cpp's server, ollama and most
 * local runners, so the parse asks only for what they all send: the first
 * choice's message content, and usage when there is one.
 */
#include "internal.h"

#include <string.h>

char *llm_openai_body(Arena *a, const LlmRequest *r, const char *model)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "model", model);
	cJSON *msgs = cJSON_AddArrayToObject(root, "messages");
	for (int i = 0; i < r->nmessages; i++) {
		cJSON *m = cJSON_CreateObject();
		cJSON_AddStringToObject(m, "role", r->messages[i].role);
		cJSON_AddStringToObject(m, "content", r->messages[i].content);
		cJSON_AddItemToArray(msgs, m);
	}
	cJSON_AddNumberToObject(root, "temperature", r->temperature);
	if (r->max_tokens > 0)
		cJSON_AddNumberToObject(root, "max_tokens", r->max_tokens);
	if (r->use_seed)
		cJSON_AddNumberToObject(root, "seed", (double)r->seed);
	return llm_json_take(a, root);
}

int llm_openai_parse(Arena *a, const char *body, size_t len, LlmAnswer *out,
                     const char **err)
{
	memset(out, 0, sizeof *out);
	cJSON *root = cJSON_ParseWithLength(body, len);
	if (!root) {
		*err = "malformed JSON";
		return -1;
	}
	const cJSON *choices = cJSON_GetObjectItemCaseSensitive(root, "choices");
	const cJSON *c0 = cJSON_IsArray(choices) ? cJSON_GetArrayItem(choices, 0) : NULL;
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(c0, "message");
	out->text = llm_json_str(a, cJSON_GetObjectItemCaseSensitive(msg, "content"));
	const cJSON *usage = cJSON_GetObjectItemCaseSensitive(root, "usage");
	out->tokens_in = llm_json_count(usage, "prompt_tokens");
	out->tokens_out = llm_json_count(usage, "completion_tokens");
	cJSON_Delete(root);
	if (!out->text) {
		*err = "no choices[0].message.content in the response";
		return -1;
	}
	return 0;
}
