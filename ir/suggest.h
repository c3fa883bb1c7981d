/*
 * suggest.h — what --suggest-spec's walk of the AST (suggest_walk.c)
 * hands to the writer of the spec lines (suggest.c). Private to ir/.
 */
#ifndef KCC_IR_SUGGEST_H
#define KCC_IR_SUGGEST_H

#include "clang.h"

#define MAXV 256
#define MAXP 64

typedef struct {
	const char *fn;    /* USR of the function */
	const char *local; /* its parameter or variable */
	const char *entry; /* the entry's parameter it stands for */
} Alias;

typedef struct {
	const char *fn, *var, *bound;
	unsigned begin, end; /* the loop (or guard) it holds in */
	bool loop;           /* a for loop (counts for flops) */
	bool partial;        /* it skips edges: starts above 0, or S-1, <= */
} Bound;

typedef struct {
	unsigned at;   /* offset where it happens */
	unsigned lo, hi; /* write: the assignment's range */
	bool write, partial; /* partial: in a loop that skips edges, or at a
	                        constant index (row 0) */
} Access;

typedef struct {
	Arena *a;
	const Unit *u;
	Alias al[MAXV];
	int nal;
	Bound bd[MAXV];
	int nbd;
	const char *cur_fn; /* USR being walked */
	/* per pointer parameter of the entry */
	const char *ext[MAXP][8];
	int next[MAXP];
	bool unknown[MAXP];
	Access *acc[MAXP];
	int nacc[MAXP];
	size_t acc_cap[MAXP];
	const char *visited[64];
	int nvisited;
	/* flops: terms "n*n*k" -> count of ops */
	const char *fterm[64];
	int fcount[64];
	int nf;
	bool entry_walk; /* counting flops only in the entry itself */
} S;

/* Walk the entry of s->u in tu, and every function it calls with its
 * parameters: fills s's aliases, bounds, accesses and flop terms. */
void suggest_walk(S *s, CXTranslationUnit tu);

#endif
