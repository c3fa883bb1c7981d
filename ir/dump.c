/*
 * dump.c — ir_dump_json(): the Unit as JSON for --dump-ir, so users and
 * scripts can see exactly what kcc understood of a kernel file: the entry,
 * the functions reachable from it, each parameter with its spec (role, type,
 * extent, range) and the extents evaluated at every shape.
 */
#include "ir.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const char *const FUNC_KINDS[] = {"host", "kernel", "device"};

static cJSON *loc_json(Loc l)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "line", l.line);
	cJSON_AddNumberToObject(o, "col", l.col);
	return o;
}

static cJSON *shape_json(Arena *a, const Unit *u, const Shape *sh)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *vals = cJSON_AddObjectToObject(o, "values");
	for (int i = 0; i < sh->n; i++)
		cJSON_AddNumberToObject(vals, sh->names[i], (double)sh->values[i]);
	cJSON *ext = cJSON_AddObjectToObject(o, "extents");
	for (int i = 0; i < u->spec.nparams; i++) {
		int64_t n;
		const char *why;
		if (spec_extent(&u->spec.params[i], sh, &n, &why) == 0)
			cJSON_AddNumberToObject(ext, u->spec.params[i].name, (double)n);
	}
	int64_t n;
	const char *why;
	if (u->spec.flops && expr_eval(u->spec.flops, sh, &n, &why, NULL) == 0)
		cJSON_AddNumberToObject(o, "flops", (double)n);
	if (u->spec.bytes && expr_eval(u->spec.bytes, sh, &n, &why, NULL) == 0)
		cJSON_AddNumberToObject(o, "bytes", (double)n);
	(void)a;
	return o;
}

static const SpecParam *spec_param(const Unit *u, const char *name)
{
	for (int i = 0; i < u->spec.nparams; i++)
		if (!strcmp(u->spec.params[i].name, name))
			return &u->spec.params[i];
	return NULL;
}

static cJSON *params_json(Arena *a, const Unit *u)
{
	cJSON *arr = cJSON_CreateArray();
	for (int i = 0; i < u->nparams; i++) {
		const CParam *p = &u->params[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", p->name);
		cJSON_AddStringToObject(o, "c_type", p->type);
		cJSON_AddStringToObject(o, "kind", p->is_pointer ? "pointer" : "scalar");
		if (p->is_pointer)
			cJSON_AddBoolToObject(o, "const", p->pointee_const);
		cJSON_AddStringToObject(o, "type", elem_name(p->elem));
		const SpecParam *sp = spec_param(u, p->name);
		if (sp) {
			cJSON_AddStringToObject(o, "role", role_name(sp->role));
			cJSON_AddStringToObject(o, "extent", expr_print(a, sp->extent));
			if (sp->lo) {
				cJSON *r = cJSON_AddArrayToObject(o, "range");
				cJSON_AddItemToArray(r, cJSON_CreateString(expr_print(a, sp->lo)));
				cJSON_AddItemToArray(r, cJSON_CreateString(expr_print(a, sp->hi)));
			}
		}
		cJSON_AddItemToObject(o, "loc", loc_json(p->loc));
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

char *ir_dump_json(Arena *a, const Unit *u)
{
	const Spec *s = &u->spec;
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "file", u->path);
	cJSON_AddStringToObject(root, "language", u->lang == LANG_CUDA ? "cuda" : "c");
	cJSON *entry = cJSON_AddObjectToObject(root, "entry");
	cJSON_AddStringToObject(entry, "name", u->entry.name);
	cJSON_AddStringToObject(entry, "returns", u->entry_ret);
	cJSON_AddItemToObject(entry, "loc", loc_json(u->entry.loc));
	cJSON_AddStringToObject(entry, "interface", u->iface);
	cJSON_AddItemToObject(root, "params", params_json(a, u));

	cJSON *fns = cJSON_AddArrayToObject(root, "functions");
	for (int i = 0; i < u->nfuncs; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", u->funcs[i].name);
		cJSON_AddStringToObject(o, "kind", FUNC_KINDS[u->funcs[i].kind]);
		cJSON_AddItemToObject(o, "loc", loc_json(u->funcs[i].loc));
		cJSON_AddNumberToObject(o, "begin", (double)u->funcs[i].begin);
		cJSON_AddNumberToObject(o, "end", (double)u->funcs[i].end);
		cJSON_AddItemToArray(fns, o);
	}

	cJSON *shapes = cJSON_AddObjectToObject(root, "shapes");
	cJSON *check = cJSON_AddArrayToObject(shapes, "check");
	for (int i = 0; i < s->ncheck; i++)
		cJSON_AddItemToArray(check, shape_json(a, u, &s->check[i]));
	if (s->has_bench)
		cJSON_AddItemToObject(shapes, "bench", shape_json(a, u, &s->bench));

	if (s->has_tolerance) {
		cJSON *t = cJSON_AddObjectToObject(root, "tolerance");
		cJSON_AddNumberToObject(t, "rtol", s->rtol);
		cJSON_AddNumberToObject(t, "atol", s->atol);
	} else
		cJSON_AddNullToObject(root, "tolerance");
	if (s->flops)
		cJSON_AddStringToObject(root, "flops", expr_print(a, s->flops));
	if (s->bytes)
		cJSON_AddStringToObject(root, "bytes", expr_print(a, s->bytes));
	cJSON *tune = cJSON_AddArrayToObject(root, "tune");
	for (int i = 0; i < s->ntune; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", s->tune[i].name);
		cJSON *vals = cJSON_AddArrayToObject(o, "values");
		for (int k = 0; k < s->tune[i].nvalues; k++)
			cJSON_AddItemToArray(vals, cJSON_CreateString(s->tune[i].values[k]));
		cJSON_AddItemToArray(tune, o);
	}
	cJSON_AddStringToObject(root, "spec_hash", u->spec_hash);
	char *txt = cJSON_Print(root);
	char *out = arena_printf(a, "%s\n", txt);
	free(txt);
	cJSON_Delete(root);
	return out;
}
