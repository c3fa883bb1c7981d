/*
 * clang.h — ir/'s internal bridge to libclang, shared by parse.c and
 * suggest.c / suggest_walk.c. Not part of ir.h: no other folder sees libclang.
 */
#ifndef KCC_IR_CLANG_H
#define KCC_IR_CLANG_H

#include "ir.h"

#include <clang-c/Index.h>

CXTranslationUnit ir_clang_parse(Arena *a, CXIndex idx, const Unit *u,
                                 const IrOptions *opt);
char *ir_clang_str(Arena *a, CXString s);

#endif
