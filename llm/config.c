/*
 * config.c — which LLM to talk to. Turns "openai:gpt-4o,cmd:./run.sh -q"
 * into resolved providers (endpoint, key variable, argument vector), finds
 * the value in the usual places (flag, KCC_LLM, kcc.json, the user config)
 * and says precisely what to set when nothing is configured.
 *
 * Keys are only checked for presence here; they are read again when a
 * request is sent so that no copy of them lives in kcc's memory longer than
 * a request.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define EXAMPLE "KCC_LLM=openai:gpt-4o (or anthropic:claude-sonnet-4-5, or cmd:./my-model.sh)"

static const char *const kinds[] = {"openai", "anthropic", "cmd"};

/* ---- shell-like word splitting ------------------------------------------- */

/* Inside double quotes a backslash only escapes these (POSIX). */
static bool dq_escapable(char c)
{
	return c == '\\' || c == '"' || c == '$' || c == '`' || c == '\n';
}

char **llm_split_words(Arena *a, const char *s, const char **err)
{
	char **v = NULL;
	size_t n = 0, cap = 0;
	Strbuf w = STRBUF_INIT;
	bool inword = false;
	for (const char *p = s;; p++) {
		char c = *p;
		if (c == 0 || c == ' ' || c == '\t' || c == '\n') {
			if (inword) {
				char *word = arena_strndup(a, sb_str(&w), w.len);
				ARENA_PUSH(a, v, n, cap, word);
				sb_reset(&w);
				inword = false;
			}
			if (c == 0)
				break;
			continue;
		}
		inword = true;
		if (c == '\\') {
			if (!p[1]) {
				*err = "trailing backslash";
				goto fail;
			}
			if (p[1] != '\n') /* backslash-newline joins lines */
				sb_addc(&w, p[1]);
			p++;
		} else if (c == '\'') {
			const char *q = strchr(p + 1, '\'');
			if (!q) {
				*err = "unterminated single quote";
				goto fail;
			}
			sb_addn(&w, p + 1, (size_t)(q - p - 1));
			p = q;
		} else if (c == '"') {
			for (p++; *p != '"'; p++) {
				if (!*p) {
					*err = "unterminated double quote";
					goto fail;
				}
				if (*p == '\\' && dq_escapable(p[1]))
					p++;
				sb_addc(&w, *p);
			}
		} else
			sb_addc(&w, c);
	}
	sb_release(&w);
	ARENA_PUSH(a, v, n, cap, NULL);
	return v;
fail:
	sb_release(&w);
	return NULL;
}

/* ---- one provider ---------------------------------------------------------- */

/* Base URL from the environment or the hosted default, without a trailing
 * slash. *hosted says whether it is the default (which needs a key). */
static const char *base_url(Arena *a, const char *env, const char *def,
                            bool *hosted)
{
	const char *v = getenv(env);
	*hosted = !v || !*v;
	if (*hosted)
		v = def;
	size_t n = strlen(v);
	while (n && v[n - 1] == '/')
		n--;
	return arena_strndup(a, v, n);
}

static int need_key(const LlmProvider *p, bool hosted, const char *base_env)
{
	const char *k = getenv(p->key_env);
	if (!hosted || (k && *k))
		return LLM_OK;
	diag_error("%s is not set; it is needed for '%s' at %s", p->key_env,
	           p->spec, p->base_url);
	diag_note("export %s=..., or point %s at a server that needs no key "
	          "(vLLM, llama.cpp, ollama)", p->key_env, base_env);
	return LLM_EFAIL;
}

static int parse_http(Arena *a, LlmProvider *p)
{
	bool hosted;
	if (p->kind == LLM_OPENAI) {
		p->key_env = "OPENAI_API_KEY";
		p->base_url = base_url(a, "OPENAI_BASE_URL",
		                       "https://api.openai.com/v1", &hosted);
		p->url = arena_printf(a, "%s/chat/completions", p->base_url);
		return need_key(p, hosted, "OPENAI_BASE_URL");
	}
	p->key_env = "ANTHROPIC_API_KEY";
	p->base_url = base_url(a, "ANTHROPIC_BASE_URL", "https://api.anthropic.com",
	                       &hosted);
	p->url = arena_printf(a, "%s/v1/messages", p->base_url);
	return need_key(p, hosted, "ANTHROPIC_BASE_URL");
}

static int parse_cmd(Arena *a, LlmProvider *p, const char *rest,
                     const char *origin)
{
	const char *err = NULL;
	char **argv = llm_split_words(a, rest, &err);
	if (!argv || !argv[0]) {
		diag_error("bad command in '%s' (%s): %s", p->spec, origin,
		           err ? err : "no program named");
		diag_note("write it as cmd:PROGRAM ARGS..., quoted as for a shell");
		return LLM_EUSER;
	}
	p->argv = (const char *const *)argv;
	const char *slash = strrchr(argv[0], '/');
	p->model = slash ? slash + 1 : argv[0];
	return LLM_OK;
}

static int parse_one(Arena *a, const char *spec, const char *origin,
                     LlmProvider *p)
{
	memset(p, 0, sizeof *p);
	p->spec = spec;
	const char *colon = strchr(spec, ':');
	char *kind = arena_strndup(a, spec, colon ? (size_t)(colon - spec) : 0);
	const char *rest = colon ? colon + 1 : "";
	for (size_t i = 0; colon && i < ARRAY_LEN(kinds); i++)
		if (strcmp(kind, kinds[i]) == 0) {
			p->kind = (LlmKind)i;
			if (p->kind == LLM_CMD)
				return parse_cmd(a, p, rest, origin);
			if (!*rest)
				break;
			p->model = rest;
			return parse_http(a, p);
		}
	diag_error("bad LLM provider '%s' in %s", spec, origin);
	const char *near = colon ? nearest_word(kind, kinds, ARRAY_LEN(kinds)) : NULL;
	if (near)
		diag_note("did you mean '%s:%s'?", near, rest);
	else
		diag_note("write openai:MODEL, anthropic:MODEL or cmd:PROGRAM ARGS, "
		          "e.g. %s", EXAMPLE);
	return LLM_EUSER;
}

/* Split at commas that are not quoted or escaped, so a cmd: command line
 * can carry a comma when it needs one. */
static char **split_list(Arena *a, const char *list, int *n)
{
	char **v = NULL;
	size_t k = 0, cap = 0;
	const char *start = list;
	char quote = 0;
	for (const char *p = list;; p++) {
		if (*p == '\\' && !quote && p[1]) {
			p++;
			continue;
		}
		if (quote && *p == quote)
			quote = 0;
		else if (!quote && (*p == '\'' || *p == '"'))
			quote = *p;
		else if (*p == 0 || (*p == ',' && !quote)) {
			const char *b = start, *e = p;
			while (b < e && (*b == ' ' || *b == '\t'))
				b++;
			while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			ARENA_PUSH(a, v, k, cap, arena_strndup(a, b, (size_t)(e - b)));
			start = p + 1;
		}
		if (*p == 0)
			break;
	}
	*n = (int)k;
	return v;
}

int llm_parse_providers(Arena *a, const char *list, const char *origin,
                        LlmProvider **out, int *n)
{
	int k;
	char **specs = split_list(a, list, &k);
	LlmProvider *ps = arena_alloc(a, sizeof *ps * (size_t)k);
	int status = LLM_OK;
	for (int i = 0; i < k; i++) {
		int s = *specs[i] ? parse_one(a, specs[i], origin, &ps[i]) : LLM_EUSER;
		if (!*specs[i]) {
			diag_error("empty LLM provider in %s ('%s')", origin, list);
			diag_note("separate providers with single commas, e.g. "
			          "openai:gpt-4o,anthropic:claude-sonnet-4-5");
		}
		if (s && !status)
			status = s;
	}
	*out = ps;
	*n = k;
	return status;
}

/* ---- where the value comes from ------------------------------------------- */

/* The "llm" value of a config file as a provider list; NULL when the file
 * does not exist or has no "llm". *status is LLM_EUSER when it is broken. */
static const char *config_value(Arena *a, const char *path, int *status)
{
	char *text;
	size_t len;
	int e = file_read(a, path, &text, &len);
	if (e == ENOENT || e == ENOTDIR)
		return NULL;
	if (e) {
		diag_error("cannot read %s: %s", path, file_error(e));
		*status = LLM_EUSER;
		return NULL;
	}
	cJSON *root = cJSON_ParseWithLength(text, len);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "llm");
	const char *res = NULL;
	if (!root) {
		diag_error("%s is not valid JSON", path);
		diag_note("it should look like {\"llm\": \"openai:gpt-4o\"}");
		*status = LLM_EUSER;
	} else if (cJSON_IsString(v))
		res = llm_json_str(a, v);
	else if (cJSON_IsArray(v)) {
		Strbuf sb = STRBUF_INIT;
		const cJSON *it;
		cJSON_ArrayForEach(it, v) {
			if (!cJSON_IsString(it))
				continue;
			if (sb.len)
				sb_addc(&sb, ',');
			sb_adds(&sb, it->valuestring);
		}
		res = sb_to_arena(&sb, a);
	} else if (v) {
		diag_error("%s: \"llm\" must be a string or an array of strings", path);
		*status = LLM_EUSER;
	}
	cJSON_Delete(root);
	return res;
}

static const char *user_config_path(Arena *a)
{
	const char *x = getenv("XDG_CONFIG_HOME");
	if (x && *x)
		return arena_printf(a, "%s/kcc/config.json", x);
	const char *h = getenv("HOME");
	return h && *h ? arena_printf(a, "%s/.config/kcc/config.json", h) : NULL;
}

int llm_resolve_providers(Arena *a, const char *flag_value, LlmProvider **out,
                          int *n)
{
	*out = NULL;
	*n = 0;
	if (flag_value && *flag_value)
		return llm_parse_providers(a, flag_value, "--llm", out, n);
	const char *env = getenv("KCC_LLM");
	if (env && *env)
		return llm_parse_providers(a, env, "KCC_LLM", out, n);
	const char *paths[2] = {"kcc.json", user_config_path(a)};
	for (int i = 0; i < 2; i++) {
		int status = LLM_OK;
		const char *v = paths[i] ? config_value(a, paths[i], &status) : NULL;
		if (status)
			return status;
		if (v && *v)
			return llm_parse_providers(a, v, paths[i], out, n);
	}
	diag_error("no LLM provider configured");
	diag_note("pass --llm=PROVIDER:MODEL or set %s; or put {\"llm\": ...} in "
	          "kcc.json or %s", EXAMPLE,
	          paths[1] ? paths[1] : "~/.config/kcc/config.json");
	return LLM_EFAIL;
}
