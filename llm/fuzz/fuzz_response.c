/*
 * fuzz_response.c — libFuzzer target for the providers' response parsers
 * (OpenAI chat completions, Anthropic messages) and the error-message
 * extraction: a server may answer anything.
 */
#include "../internal.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	Arena *a = arena_new();
	LlmAnswer ans;
	const char *err = NULL;
	const char *body = (const char *)data;
	if (llm_openai_parse(a, body, size, &ans, &err) == 0 && !ans.text)
		__builtin_trap();
	if (llm_anthropic_parse(a, body, size, &ans, &err) == 0 && !ans.text)
		__builtin_trap();
	if (!llm_error_message(a, body, size))
		__builtin_trap();
	arena_free(a);
	return 0;
}
