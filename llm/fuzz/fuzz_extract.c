/*
 * fuzz_extract.c — libFuzzer target for the answer parser: any bytes an LLM
 * may send must give code or an error, never a crash or a read out of
 * bounds. The first byte picks the expected language.
 */
#include "../internal.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const char *const langs[] = {"c", "cuda", "cpp", NULL};
	const char *lang = size ? langs[data[0] % 4] : "c";
	Arena *a = arena_new();
	LlmExtract x;
	const char *err = NULL;
	if (llm_extract_code(a, (const char *)data, size, lang, &x, &err) == 0) {
		/* The code is never empty and never longer than the answer + '\n'. */
		if (!x.code || strlen(x.code) > size + 1 || !x.plan)
			__builtin_trap();
	} else if (!err)
		__builtin_trap();
	llm_extract_plan(a, (const char *)data, size, &err);
	arena_free(a);
	return 0;
}
