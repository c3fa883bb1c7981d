/*
 * unparsed.c — a candidate the front end rejects still gets the most
 * precise reason a lexical look allows: "parse" when it has no `#pragma
 * kcc` line at all (prose, a refusal), "pragma" when its pragmas differ
 * from the original's (ir_spec_hash, the normaliser the front end uses),
 * "forbidden" when the static scan objects, "signature" when the entry is
 * no longer defined, else "parse".
 */
#include "internal.h"

#include <ctype.h>
#include <string.h>

static bool defines_entry(const char *text, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
		bool start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		const char *q = p + n;
		while (*q == ' ' || *q == '\t' || *q == '\n')
			q++;
		if (start && *q == '(')
			return true;
	}
	return false;
}

void vr_unparsed(VerifyRef *r, const char *path, const char *text, size_t len, Verdict *v)
{
	memset(v, 0, sizeof *v);
	v->index = -1;
	v->check = "static";
	const char *what;
	int line;
	bool streams;
	char mine[65];
	if (!ir_spec_hash(text, len, mine)) /* not a kernel file at all (prose, a refusal) */
		vr_reject(v, VR_PARSE, "the candidate does not parse (no `#pragma kcc` lines)");
	else if (strcmp(r->u->spec_hash, mine))
		vr_reject(v, VR_PRAGMA, "the `#pragma kcc` lines changed (only `tune` may be added)");
	else if (verify_scan(text, len, r->u->lang, r->o.allow_libs, &what, &line, &streams))
		vr_reject(v, VR_FORBIDDEN, arena_printf(r->a, "%s:%d: %s", path, line, what));
	else if (!defines_entry(text, r->u->spec.entry))
		vr_reject(v, VR_SIGNATURE, arena_printf(r->a, "the entry '%s' is missing",
		                                        r->u->spec.entry));
	else
		vr_reject(v, VR_PARSE, "the candidate does not parse");
}
