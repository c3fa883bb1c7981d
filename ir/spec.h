/*
 * spec.h — what the scanner of `#pragma kcc` lines (spec.c) hands to the
 * parsers of their forms (spec_forms.c). Private to ir/.
 */
#ifndef KCC_IR_SPEC_H
#define KCC_IR_SPEC_H

#include "ir.h"

/* One pragma being read. */
typedef struct {
	Arena *a;
	Unit *u;
	const char *line; /* start of the physical line */
	const char *p;    /* cursor */
	const char *end;  /* end of the pragma's text (comment stripped) */
	int lineno;
	int errors;
} Cur;

/* Parse the pragma at c->p (after "#pragma kcc") into c->u->spec, with
 * an error at the offending column for what is wrong. */
void spec_pragma(Cur *c);

#endif
