/*
 * profile.c — the program a profiler runs is the verifier's own harness:
 * the same generated binding of the entry (harness.c), the same runtime
 * filling the inputs (kcc_rt.h, kcc_main.h), built with the target's
 * profile flags and -DKCC_PROFILE and given a plan of one call at the
 * profiled shape (mode 2). So what is profiled is called exactly as what
 * was verified and timed, with no second code generator to drift from it.
 * The target supplies only the tool (t->profile: callgrind, perf, ncu, the
 * riscv64 plugin); this file makes the scratch dir, writes and builds the
 * program, runs the tool and cleans up.
 */
#include "internal.h"

#include <errno.h>
#include <string.h>

/* The plan of the one profiled call: random inputs (seed fixed, so two
 * profiles of the same kernel see the same data), sentinel poison. */
static const char *profile_plan(Arena *a, const Unit *u, const Target *t, const Shape *shape,
                                const TargetInfo *info, const char **why)
{
	VerifyRef r = {.a = a, .t = t, .u = u, .info = *info, .master = 0x9e3779b97f4a7c15ull,
	               .gseed = kcc_mix(0x9f01), .psalt = kcc_mix(0x9f02)};
	if (harness_bind(a, u, &r.bind, why) != 0)
		return NULL;
	Case c;
	if (vr_make_case(&r, shape, false, &c, why) != 0)
		return NULL;
	PlanCall pc = {.seed = kcc_mix(0x51) >> 1, .fill = KCC_FILL_RANDOM,
	               .poison = KCC_POISON_SENTINEL, .what = "profile"};
	Strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "KCCP 2 -1 ");
	sb_adds(&sb, vr_plan_header(a, &r, 2, 1));
	vr_plan_call(&sb, &r, &c, &pc);
	return sb_to_arena(&sb, a);
}

int verify_profile(const Target *t, Arena *a, const Unit *u, const Shape *shape,
                   const char *tmpdir, double timeout_s, const ProfileAsk *ask, Profile *out)
{
	memset(out, 0, sizeof *out);
	out->ask = ask;
	out->shape = vr_shape_text(a, shape);
	out->notes = "";
	if (!t->profile) {
		profile_note(a, out, "the %s target has no profiler", t->name);
		return -1;
	}
	char *dir = scratch_make(a, tmpdir ? tmpdir : "/tmp", "kcc-profile");
	if (!dir) {
		profile_note(a, out, "cannot make a directory under %s: %s", tmpdir, strerror(errno));
		return -1;
	}
	const char *kfile = arena_printf(a, "kernel%s", t->src_ext);
	const char *src = arena_printf(a, "%s/harness%s", dir, t->src_ext);
	const char *exe = arena_printf(a, "%s/harness", dir);
	const char *planf = arena_printf(a, "%s/profile.plan", dir);
	const char *why = NULL;
	TargetInfo info;
	t->describe(t, a, &info);
	const char *text = verify_harness_source(a, u, t, kfile, &why);
	const char *plan = text ? profile_plan(a, u, t, shape, &info, &why) : NULL;
	if (!text || !plan || verify_write_runtime(a, dir) ||
	    file_write_atomic(arena_printf(a, "%s/%s", dir, kfile), u->text, u->len) ||
	    file_write_atomic(src, text, strlen(text)) ||
	    file_write_atomic(planf, plan, strlen(plan))) {
		profile_note(a, out, "no profile program: %s", why ? why : strerror(errno));
		scratch_remove(dir);
		return -1;
	}
	const char *defs[] = {"KCC_PROFILE", NULL};
	TargetBuild b = {.dir = dir, .src = src, .exe = exe, .flags = t->profile_flags,
	                 .defines = defs, .project = true, .cand_flags = u->build_flags};
	TargetBuilt tb;
	int rc = -1;
	if (t->build(t, a, &b, &tb) != 0) {
		profile_note(a, out, "the profile program does not build (%s): %s", tb.cmdline,
		             proc_tail(tb.log ? tb.log : "", 5));
	} else {
		const char *argv[] = {exe, planf, NULL};
		TargetProfileRun r = {.argv = argv, .cwd = dir, .timeout_s = timeout_s,
		                      .build_log = tb.log, .collect = "kcc_profile_calls",
		                      .keep = ask && ask->keep};
		rc = t->profile(t, a, &r, out);
	}
	if (ask && ask->keep) {
		out->kept = dir;
		return rc;
	}
	scratch_remove(dir);
	return rc;
}
