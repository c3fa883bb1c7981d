/*
 * options.h — the option table's types, shared by the parser (options.c)
 * and the writers of --help and the man page (help.c). Private to driver/.
 */
#ifndef KCC_DRIVER_OPTIONS_H
#define KCC_DRIVER_OPTIONS_H

#include "driver.h"

#include <stddef.h>

typedef enum { ARG_NONE, ARG_REQ, ARG_OPT } ArgKind;

typedef enum {
	T_FLAG,    /* bool = true */
	T_COUNT,   /* int += 1 (-v -v) */
	T_STR,     /* const char * = the value (argv lives until exit) */
	T_INT,     /* int = the value, a whole number from lo to hi */
	T_SECONDS, /* double = the value, a duration of at least 1 s */
	T_MODE,    /* o->mode = val */
	T_LEVEL,   /* o->level = val */
	T_FN,      /* fn(o, opt, value): checks and settings of its own */
} ArgType;

typedef struct Opt Opt;
struct Opt {
	const char *section;
	const char *name; /* as typed, e.g. "-o", "--target", "-O-llm" */
	ArgKind arg;
	ArgType type;
	size_t off;       /* where the value goes: offsetof(Options, ...) */
	int val;          /* T_MODE, T_LEVEL */
	long lo, hi;      /* T_INT */
	int (*fn)(Options *o, const Opt *opt, const char *val); /* T_FN */
	const char *meta; /* "FILE" */
	const char *help;
};

extern const Opt OPTS[]; /* in the order --help lists them in a section */
extern const size_t NOPTS;

#endif
