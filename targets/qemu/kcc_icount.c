/*
 * kcc_icount.c — kcc's QEMU TCG plugin: counts the riscv64 instructions a
 * guest executes, deterministically, by class (scalar loads and stores,
 * vector arithmetic, vector loads and stores, vsetvl, branches, fp,
 * mul/div, other integer), per function (the symbol of each translated
 * block's first instruction) and per block. Built by kcc from this source
 * against QEMU 7.2's documented plugin API (qemu-plugin.h, vendored beside
 * it) and loaded with `qemu-riscv64 -plugin kcc_icount.so,arg=...`.
 *
 * Counting is one inline add per executed translated block (its execution
 * count); everything else is computed from those counts when a window
 * closes. A window opens when a block whose first instruction belongs to
 * the symbol on= runs and closes when a block of the symbol off= runs (no
 * on=: the whole run is one window). Each time the off= block runs, the
 * last window's cost and instructions and the number of times the on= and
 * off= blocks ran are written, as decimal text, at the start of the file
 * window= (the harness reads it back: that is its "timer"); at exit the totals over all windows
 * go to the file out=. cost= gives weights per class ("load:4/branch:2":
 * '/' between classes, as QEMU's -plugin splits its arguments at commas);
 * every class weighs 1 by default, so the cost is the instruction count.
 *
 * Arguments: out=PATH window=PATH on=SYMBOL off=SYMBOL cost=SPEC top=N
 *
 * SPDX-License-Identifier: GPL-2.0-or-later (it includes QEMU's header;
 * targets/qemu/README.md)
 */
#include "qemu-plugin.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum {
	C_LOAD, C_STORE, C_VARITH, C_VLOAD, C_VSTORE, C_VSETVL,
	C_BRANCH, C_FP, C_MULDIV, C_INT, C_OTHER, NCLASS
};

static const char *const CLASS_NAME[NCLASS] = {
    "load", "store", "vector", "vload", "vstore", "vsetvl",
    "branch", "fp", "muldiv", "int", "other"};

typedef struct {
	uint64_t execs;          /* inline: executions of this block */
	uint64_t base;           /* execs when the current window opened */
	uint64_t acc;            /* executions inside windows */
	uint64_t vaddr;
	uint64_t cost;           /* weighted cost of one execution */
	uint32_t n;              /* instructions */
	uint32_t cls[NCLASS];    /* instructions per class */
	char *sym;               /* first instruction's symbol, or NULL */
} Block;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Block **blocks;
static size_t nblocks, capblocks;
static uint64_t weight[NCLASS];
static const char *on_sym, *off_sym, *out_path;
static int window_fd = -1;
static int active;
static uint64_t windows;
static uint64_t n_on, n_off;          /* marker blocks executed */
static uint64_t last_cost, last_insns; /* of the last window */
static int top = 20;

/* The class of one instruction from its encoding (RV64GCV). */
static int classify(const unsigned char *p, size_t size)
{
	if (size == 2) {
		unsigned h = (unsigned)p[0] | (unsigned)p[1] << 8;
		unsigned q = h & 3, f3 = h >> 13;
		if (q == 0)
			return f3 == 1 || f3 == 2 || f3 == 3 ? C_LOAD
			       : f3 >= 5                     ? C_STORE
			                                     : C_INT;
		if (q == 2)
			return f3 == 1 || f3 == 2 || f3 == 3 ? C_LOAD
			       : f3 >= 5                     ? C_STORE
			       : f3 == 4 && (h & 0x7c) == 0 && ((h >> 7) & 31) ? C_BRANCH /* jr/jalr */
			                                     : C_INT;
		/* quadrant 1: c.j (101), c.beqz (110), c.bnez (111) */
		return f3 >= 5 ? C_BRANCH : C_INT;
	}
	if (size < 4)
		return C_OTHER;
	uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	             (uint32_t)p[3] << 24;
	uint32_t op = w & 0x7f, f3 = (w >> 12) & 7, f7 = w >> 25;
	switch (op) {
	case 0x03: return C_LOAD;
	case 0x23: return C_STORE;
	case 0x07: return f3 >= 1 && f3 <= 4 ? C_LOAD : C_VLOAD;   /* LOAD-FP */
	case 0x27: return f3 >= 1 && f3 <= 4 ? C_STORE : C_VSTORE; /* STORE-FP */
	case 0x57: return f3 == 7 ? C_VSETVL : C_VARITH;           /* OP-V */
	case 0x63: case 0x67: case 0x6f: return C_BRANCH;
	case 0x53: case 0x43: case 0x47: case 0x4b: case 0x4f: return C_FP;
	case 0x33: case 0x3b: return f7 == 1 ? C_MULDIV : C_INT;
	case 0x13: case 0x1b: case 0x17: case 0x37: return C_INT;
	default: return C_OTHER; /* atomics, fences, CSRs, ecall */
	}
}

/* Open a window: remember every block's count. */
static void window_open(void)
{
	if (active)
		return;
	for (size_t i = 0; i < nblocks; i++)
		blocks[i]->base = blocks[i]->execs;
	active = 1;
}

/* Close it: add each block's executions since the open. */
static void window_close(void)
{
	if (!active)
		return;
	uint64_t cost = 0, insns = 0;
	for (size_t i = 0; i < nblocks; i++) {
		Block *b = blocks[i];
		uint64_t d = b->execs - b->base;
		b->acc += d;
		cost += d * b->cost;
		insns += d * b->n;
	}
	active = 0;
	windows++;
	last_cost = cost;
	last_insns = insns;
}

/* Tell the guest the last window's cost and how often each marker ran:
 * the harness knows how often it called them, so a kernel that reached a
 * marker itself (to close the window early) is caught. */
static void window_tell(void)
{
	if (window_fd < 0)
		return;
	char buf[128];
	int n = snprintf(buf, sizeof buf, "%llu %llu %llu %llu\n", (unsigned long long)last_cost,
	                 (unsigned long long)last_insns, (unsigned long long)n_on,
	                 (unsigned long long)n_off);
	if (pwrite(window_fd, buf, (size_t)n, 0) != n || ftruncate(window_fd, n) != 0)
		qemu_plugin_outs("kcc_icount: cannot write the window file\n");
}

static void on_exec(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	pthread_mutex_lock(&lock);
	n_on++;
	window_open();
	pthread_mutex_unlock(&lock);
}

static void off_exec(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
	pthread_mutex_lock(&lock);
	n_off++;
	window_close();
	window_tell();
	pthread_mutex_unlock(&lock);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	size_t n = qemu_plugin_tb_n_insns(tb);
	Block *b = calloc(1, sizeof *b);
	if (!b)
		return;
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->n = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *in = qemu_plugin_tb_get_insn(tb, i);
		int c = classify(qemu_plugin_insn_data(in), qemu_plugin_insn_size(in));
		b->cls[c]++;
		b->cost += weight[c];
		if (i == 0) {
			const char *s = qemu_plugin_insn_symbol(in);
			b->sym = s ? strdup(s) : NULL;
		}
	}
	pthread_mutex_lock(&lock);
	if (nblocks == capblocks) {
		size_t cap = capblocks ? 2 * capblocks : 1024;
		Block **nb = realloc(blocks, cap * sizeof *nb);
		if (!nb) {
			pthread_mutex_unlock(&lock);
			free(b->sym);
			free(b);
			return;
		}
		blocks = nb;
		capblocks = cap;
	}
	blocks[nblocks++] = b;
	b->base = 0; /* a block born inside a window counts from zero */
	pthread_mutex_unlock(&lock);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->execs, 1);
	if (b->sym && on_sym && !strcmp(b->sym, on_sym))
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec, QEMU_PLUGIN_CB_NO_REGS, NULL);
	else if (b->sym && off_sym && !strcmp(b->sym, off_sym))
		qemu_plugin_register_vcpu_tb_exec_cb(tb, off_exec, QEMU_PLUGIN_CB_NO_REGS, NULL);
}

typedef struct {
	const char *name;
	uint64_t insns, cls[NCLASS];
} Func;

static int cmp_func(const void *x, const void *y)
{
	const Func *a = x, *b = y;
	return a->insns < b->insns ? 1 : a->insns > b->insns ? -1 : strcmp(a->name, b->name);
}

static int cmp_block(const void *x, const void *y)
{
	const Block *a = *(Block *const *)x, *b = *(Block *const *)y;
	uint64_t ia = a->acc * a->n, ib = b->acc * b->n;
	return ia < ib ? 1 : ia > ib ? -1 : (a->vaddr > b->vaddr) - (a->vaddr < b->vaddr);
}

static void report(FILE *f)
{
	uint64_t total = 0, cost = 0, cls[NCLASS] = {0};
	Func *fn = calloc(nblocks + 1, sizeof *fn);
	size_t nf = 0;
	for (size_t i = 0; i < nblocks; i++) {
		Block *b = blocks[i];
		if (!b->acc)
			continue;
		total += b->acc * b->n;
		cost += b->acc * b->cost;
		const char *name = b->sym ? b->sym : "?";
		size_t k = 0;
		while (fn && k < nf && strcmp(fn[k].name, name))
			k++;
		if (fn && k == nf)
			fn[nf++].name = name;
		for (int c = 0; c < NCLASS; c++) {
			cls[c] += b->acc * b->cls[c];
			if (fn)
				fn[k].cls[c] += b->acc * b->cls[c];
		}
		if (fn)
			fn[k].insns += b->acc * b->n;
	}
	fprintf(f, "kcc-icount 1\nwindows %llu\ninsns %llu\ncost %llu\n",
	        (unsigned long long)windows, (unsigned long long)total, (unsigned long long)cost);
	for (int c = 0; c < NCLASS; c++)
		fprintf(f, "class %s %llu %llu\n", CLASS_NAME[c], (unsigned long long)cls[c],
		        (unsigned long long)weight[c]);
	if (fn) {
		qsort(fn, nf, sizeof *fn, cmp_func);
		for (size_t k = 0; k < nf && k < (size_t)top; k++) {
			fprintf(f, "func %llu", (unsigned long long)fn[k].insns);
			for (int c = 0; c < NCLASS; c++)
				fprintf(f, " %llu", (unsigned long long)fn[k].cls[c]);
			fprintf(f, " %s\n", fn[k].name);
		}
		free(fn);
	}
	qsort(blocks, nblocks, sizeof *blocks, cmp_block);
	for (size_t i = 0; i < nblocks && i < (size_t)top && blocks[i]->acc; i++) {
		Block *b = blocks[i];
		fprintf(f, "block 0x%llx %u %llu", (unsigned long long)b->vaddr, b->n,
		        (unsigned long long)b->acc);
		for (int c = 0; c < NCLASS; c++)
			fprintf(f, " %u", b->cls[c]);
		fprintf(f, " %s\n", b->sym ? b->sym : "?");
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	pthread_mutex_lock(&lock);
	if (!on_sym)
		window_close();
	active = 0;
	if (out_path) {
		FILE *f = fopen(out_path, "w");
		if (f) {
			report(f);
			if (fclose(f) != 0)
				qemu_plugin_outs("kcc_icount: cannot write the report\n");
		} else {
			qemu_plugin_outs("kcc_icount: cannot open the report file\n");
		}
	}
	pthread_mutex_unlock(&lock);
}

/* "load:4/branch:2": weights of the named classes; others stay 1. */
static int parse_cost(const char *spec)
{
	while (*spec) {
		const char *colon = strchr(spec, ':');
		if (!colon)
			return -1;
		int c = 0;
		while (c < NCLASS && (strlen(CLASS_NAME[c]) != (size_t)(colon - spec) ||
		                      strncmp(CLASS_NAME[c], spec, (size_t)(colon - spec))))
			c++;
		char *end;
		unsigned long long v = strtoull(colon + 1, &end, 10);
		if (c == NCLASS || end == colon + 1 || v > 1000000 ||
		    (*end && *end != ',' && *end != '/'))
			return -1;
		weight[c] = v;
		spec = *end ? end + 1 : end;
	}
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv)
{
	if (strcmp(info->target_name, "riscv64") != 0) {
		fprintf(stderr, "kcc_icount: built for riscv64 guests, not %s\n", info->target_name);
		return -1;
	}
	for (int c = 0; c < NCLASS; c++)
		weight[c] = 1;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (!strncmp(a, "out=", 4))
			out_path = a + 4;
		else if (!strncmp(a, "on=", 3))
			on_sym = a + 3;
		else if (!strncmp(a, "off=", 4))
			off_sym = a + 4;
		else if (!strncmp(a, "top=", 4))
			top = atoi(a + 4);
		else if (!strncmp(a, "window=", 7)) {
			window_fd = open(a + 7, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			if (window_fd < 0) {
				fprintf(stderr, "kcc_icount: cannot open %s\n", a + 7);
				return -1;
			}
		} else if (!strncmp(a, "cost=", 5)) {
			if (parse_cost(a + 5) != 0) {
				fprintf(stderr, "kcc_icount: bad cost spec '%s' (CLASS:N,...)\n", a + 5);
				return -1;
			}
		} else {
			fprintf(stderr, "kcc_icount: unknown argument '%s'\n", a);
			return -1;
		}
	}
	if (!on_sym)
		active = 1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
