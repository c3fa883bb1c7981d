/*
 * accounting.c — what the LLM costs: the price table (USD per million
 * tokens, a JSON file the user can edit; the default one is llm/prices.json
 * compiled in), and the --budget=calls:N,usd:X,time:T limits.
 *
 * Prices change more often than kcc is released, hence a data file and not
 * a C table. A model missing from the table costs 0: the run goes on, and
 * a usd budget then warns that it cannot be enforced for that model.
 */
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *name; /* "openai:gpt-4o", "gpt-4o" or a prefix "gpt-4o*" */
	double in, out;
} Price;

struct LlmPrices {
	Price *v;
	size_t n, cap;
};

static bool price_field(const cJSON *o, const char *name, double *v)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);
	if (!cJSON_IsNumber(f) || !(f->valuedouble >= 0))
		return false;
	*v = f->valuedouble;
	return true;
}

static LlmPrices *parse_prices(Arena *a, const char *text, size_t len,
                               const char *origin)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	const cJSON *prices = cJSON_GetObjectItemCaseSensitive(root, "prices");
	if (!cJSON_IsObject(prices)) {
		diag_error("%s is not a price table", origin);
		diag_note("expected {\"prices\": {\"openai:gpt-4o\": {\"input\": 2.5, "
		          "\"output\": 10}}} in USD per million tokens");
		cJSON_Delete(root);
		return NULL;
	}
	LlmPrices *t = arena_alloc(a, sizeof *t);
	const cJSON *it;
	cJSON_ArrayForEach(it, prices) {
		Price p = {arena_strdup(a, it->string), 0, 0};
		if (!price_field(it, "input", &p.in) || !price_field(it, "output", &p.out)) {
			diag_warning("%s: price of '%s' needs non-negative \"input\" and "
			             "\"output\"; ignored", origin, it->string);
			continue;
		}
		ARENA_PUSH(a, t->v, t->n, t->cap, p);
	}
	cJSON_Delete(root);
	return t;
}

LlmPrices *llm_prices_load(Arena *a, const char *path)
{
	if (!path)
		return parse_prices(a, llm_default_prices, strlen(llm_default_prices),
		                    "the built-in price table");
	char *text;
	size_t len;
	int e = file_read(a, path, &text, &len);
	if (e) {
		diag_error("cannot read the price table %s: %s", path, strerror(e));
		return NULL;
	}
	return parse_prices(a, text, len, path);
}

/* Exact "kind:model", then exact "model", then the longest "prefix*". */
bool llm_prices_lookup(const LlmPrices *t, const LlmProvider *p,
                       const char *model, double *in, double *out)
{
	static const char *const kind[] = {"openai", "anthropic", "cmd"};
	char full[256];
	snprintf(full, sizeof full, "%s:%s", kind[p->kind], model);
	const Price *best = NULL;
	size_t bestlen = 0;
	for (size_t i = 0; i < t->n; i++) {
		const char *name = t->v[i].name;
		size_t n = strlen(name);
		if (strcmp(name, full) == 0 || strcmp(name, model) == 0) {
			best = &t->v[i];
			break;
		}
		if (n > 1 && name[n - 1] == '*' && n - 1 > bestlen &&
		    (strncmp(name, full, n - 1) == 0 || strncmp(name, model, n - 1) == 0)) {
			best = &t->v[i];
			bestlen = n - 1;
		}
	}
	if (!best)
		return false;
	*in = best->in;
	*out = best->out;
	return true;
}

/* ---- budgets ------------------------------------------------------------ */

static bool parse_number(const char *s, double *v, bool integer)
{
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(x) || x < 0)
		return false;
	if (integer && x != floor(x))
		return false;
	*v = x;
	return true;
}

static int budget_item(const char *item, const char *origin, LlmBudget *b)
{
	static const char *const names[] = {"calls", "usd", "time"};
	const char *colon = strchr(item, ':');
	size_t kn = colon ? (size_t)(colon - item) : strlen(item);
	const char *val = colon ? colon + 1 : "";
	double v = 0;
	for (size_t i = 0; colon && i < ARRAY_LEN(names); i++) {
		if (strlen(names[i]) != kn || strncmp(item, names[i], kn) != 0)
			continue;
		bool ok = i == 2 ? parse_seconds(val, &v) : parse_number(val, &v, i == 0);
		if (!ok) {
			diag_error("bad %s budget '%s' in %s", names[i], val, origin);
			diag_note(i == 2 ? "write a duration: time:90s, time:30m, time:2h"
			                 : i == 0 ? "write a whole number: calls:200"
			                          : "write a number of dollars: usd:5 or usd:0.50");
			return LLM_EUSER;
		}
		if (i == 0)
			b->calls = (long)v;
		else if (i == 1)
			b->usd = v;
		else
			b->time_s = v;
		return LLM_OK;
	}
	char key[64];
	snprintf(key, sizeof key, "%.*s", (int)kn, item);
	diag_error("unknown budget '%s' in %s", key, origin);
	const char *near = nearest_word(key, names, ARRAY_LEN(names));
	if (near)
		diag_note("did you mean '%s'?", near);
	else
		diag_note("budgets are calls:N, usd:X and time:T, e.g. "
		          "--budget=calls:200,usd:5,time:30m");
	return LLM_EUSER;
}

int llm_parse_budget(const char *text, const char *origin, LlmBudget *out)
{
	LlmBudget b = {0};
	Strbuf item = STRBUF_INIT;
	int status = LLM_OK;
	for (const char *p = text;; p++) {
		if (*p != ',' && *p) {
			sb_addc(&item, *p);
			continue;
		}
		if (!item.len) {
			diag_error("empty item in budget '%s' (%s)", text, origin);
			diag_note("e.g. --budget=calls:200,usd:5,time:30m");
			status = LLM_EUSER;
		} else if (budget_item(item.buf, origin, &b))
			status = LLM_EUSER;
		sb_reset(&item);
		if (!*p || status)
			break;
	}
	sb_release(&item);
	if (!status)
		*out = b;
	return status;
}

const char *llm_budget_name(LlmBudgetState s)
{
	static const char *const names[] = {"none", "calls", "usd", "time"};
	return (unsigned)s < ARRAY_LEN(names) ? names[s] : "?";
}
