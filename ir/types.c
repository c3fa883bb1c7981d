/*
 * types.c — kcc's element types and roles, their names in the spec and their
 * C spellings in generated harnesses; and edits of a Unit's text by range.
 */
#include "ir.h"

#include <string.h>

static const struct {
	const char *name, *c, *cuda;
	size_t size;
	bool is_float;
} ET[] = {
    [ET_NONE] = {"none", "void", "void", 0, false},
    [ET_F64] = {"f64", "double", "double", 8, true},
    [ET_F32] = {"f32", "float", "float", 4, true},
    [ET_F16] = {"f16", "_Float16", "__half", 2, true},
    [ET_BF16] = {"bf16", "__bf16", "__nv_bfloat16", 2, true},
    [ET_I64] = {"i64", "int64_t", "int64_t", 8, false},
    [ET_I32] = {"i32", "int32_t", "int32_t", 4, false},
    [ET_I16] = {"i16", "int16_t", "int16_t", 2, false},
    [ET_I8] = {"i8", "int8_t", "int8_t", 1, false},
    [ET_U8] = {"u8", "uint8_t", "uint8_t", 1, false},
};

const char *elem_name(ElemType t)
{
	return ET[t].name;
}

ElemType elem_parse(const char *name)
{
	for (size_t i = 1; i < ARRAY_LEN(ET); i++)
		if (strcmp(ET[i].name, name) == 0)
			return (ElemType)i;
	return ET_NONE;
}

size_t elem_size(ElemType t)
{
	return ET[t].size;
}

bool elem_is_float(ElemType t)
{
	return ET[t].is_float;
}

const char *elem_c_type(ElemType t, Lang lang)
{
	return lang == LANG_CUDA ? ET[t].cuda : ET[t].c;
}

const char *role_name(Role r)
{
	static const char *const names[] = {"in", "out", "inout", "scratch"};
	return names[r];
}
