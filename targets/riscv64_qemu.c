/*
 * riscv64_qemu.c — how the riscv64 target runs a program: the
 * qemu-riscv64 command line with the vector length (--riscv-vlen) and
 * kcc's plugin (a fresh copy next to the program each time) with its
 * arguments and the cost model (--riscv-cost). The harness runs
 * (riscv64.c) and the profile runs (riscv64_profile.c) both start here.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int vlen_bits = 128;
static char cost_spec[256]; /* the plugin's form: "load:4/store:2" */

int target_riscv64_config(int vlen, const char *cost, const char **why)
{
	if (vlen) {
		if (vlen < 128 || vlen > 1024 || (vlen & (vlen - 1))) {
			*why = "the vector length must be a power of two from 128 to 1024 bits "
			       "(QEMU 7.2's range)";
			return -1;
		}
		vlen_bits = vlen;
	}
	if (cost) {
		static const char *const classes[] = {"load", "store", "vector", "vload",
		                                      "vstore", "vsetvl", "branch", "fp",
		                                      "muldiv", "int", "other"};
		if (strlen(cost) >= sizeof cost_spec) {
			*why = "the cost model is too long";
			return -1;
		}
		char buf[sizeof cost_spec];
		strcpy(buf, cost);
		cost_spec[0] = 0;
		for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');
			bool known = false;
			for (size_t i = 0; eq && i < ARRAY_LEN(classes); i++)
				known |= strlen(classes[i]) == (size_t)(eq - tok) &&
				         !strncmp(classes[i], tok, (size_t)(eq - tok));
			char *end = NULL;
			long w = eq ? strtol(eq + 1, &end, 10) : -1;
			if (!known || !end || end == eq + 1 || *end || w < 0 || w > 1000000) {
				*why = "the cost model is CLASS=WEIGHT,... with classes load, store, "
				       "vector, vload, vstore, vsetvl, branch, fp, muldiv, int, other "
				       "and integer weights";
				return -1;
			}
			*eq = ':';
			if (cost_spec[0])
				strcat(cost_spec, "/");
			strcat(cost_spec, tok);
		}
	}
	return 0;
}

int riscv64_vlen(void)
{
	return vlen_bits;
}

const char *riscv64_cost(void)
{
	return cost_spec;
}

const char **riscv64_qemu_argv(Arena *a, const char *cwd, const char *plugin_args,
                               const char *const *prog, const char **why)
{
	const char *built = target_qemu_plugin(a, why);
	if (!built)
		return NULL;
	/* A fresh copy in the run's directory: candidates run with $HOME (the
	 * cache) hidden, and a copy of kcc's own each time cannot have been
	 * tampered with by an earlier run. */
	char *data;
	size_t len;
	const char *so = arena_printf(a, "%s/kcc_icount.so", cwd ? cwd : ".");
	if (file_read(a, built, &data, &len) != 0 || file_write_atomic(so, data, len) != 0 ||
	    chmod(so, 0500) != 0) {
		*why = arena_printf(a, "cannot copy the QEMU plugin into %s", cwd ? cwd : ".");
		return NULL;
	}
	Strvec argv = STRVEC_INIT(a);
	strvec_pushl(&argv, "qemu-riscv64", "-cpu", NULL);
	strvec_pushf(&argv, "rv64,v=true,vlen=%d,vext_spec=v1.0", vlen_bits);
	strvec_push(&argv, "-plugin");
	strvec_pushf(&argv, "%s,%s%s%s", so, plugin_args, cost_spec[0] ? ",cost=" : "", cost_spec);
	strvec_push(&argv, "-E");
	strvec_pushf(&argv, "KCC_ICOUNT_WINDOW=%s/kcc_icount.window", cwd ? cwd : ".");
	strvec_pushv(&argv, prog);
	return argv.v;
}
