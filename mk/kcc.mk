# mk/kcc.mk — make rules for kcc. Include it, then name NAME.kcc.c (or
# NAME.kcc.cu) as a prerequisite: make runs kcc on NAME.c when the kernel,
# a header it includes, the menu, or the kcc command (KCC, KCC_FLAGS)
# changed, and does nothing otherwise. kcc's cache answers a rebuild with
# the same inputs without a request to the LLM.
#
#   KCC          the kcc binary (default: kcc)
#   KCC_FLAGS    e.g. -O2 (default), or -O-llm --llm=openai:gpt-4o --budget=usd:2
#   KCC_OUTPUTS  the NAME.kcc.c files, for kcc-clean and the dependency files
#
# What a make user can rely on:
# - including this file never changes the default goal (its first target
#   is not yours to lose: `make` builds what your Makefile says, never a clean);
# - outputs are kept: .PRECIOUS, so make never deletes them as intermediate
#   files nor on Ctrl-C (kcc writes them atomically, so they only ever hold
#   a verified version);
# - kcc writes the dependency file with -MD -MP, as gcc does: a renamed or
#   deleted header does not break the build;
# - NAME.kcc.c.flags holds the kcc command and changes only when it does:
#   a new KCC_FLAGS reruns kcc, an unchanged one does not;
# - make -j runs several kcc at once, each with its own state dir and
#   dependency file; builds and verification run in parallel, while their
#   timed runs take turns: kcc holds a per-device lock (CACHE/locks/, flock;
#   runners/devlock.c) around each timed harness run, as ninja's pools;
# - -O2 writes the winning compiler flags to NAME.kcc.c.cflags (always, empty
#   when kcc's defaults won): $(call kcc_cflags,NAME.kcc.c) reads them for
#   the compile of NAME.kcc.c.
#
# `make kcc-clean` removes outputs, dependency, flags and state files; the
# cache (~/.cache/kcc) stays, so the next build is answered from it.

_kcc_goal := $(.DEFAULT_GOAL)

KCC ?= kcc
KCC_FLAGS ?= -O2
KCC_OUTPUTS ?=

_kcc_cmd = $(KCC) $(KCC_FLAGS)
_kcc_quote = '$(subst ','\'',$(1))'

# The stamp: always considered, rewritten only when the command changed.
%.kcc.c.flags: kcc-force
	@printf '%s\n' $(call _kcc_quote,$(_kcc_cmd)) | cmp -s - $@ || printf '%s\n' $(call _kcc_quote,$(_kcc_cmd)) > $@

%.kcc.cu.flags: kcc-force
	@printf '%s\n' $(call _kcc_quote,$(_kcc_cmd)) | cmp -s - $@ || printf '%s\n' $(call _kcc_quote,$(_kcc_cmd)) > $@

%.kcc.c: %.c %.kcc.c.flags
	$(KCC) $(KCC_FLAGS) -MD -MP -MF $@.d -MT $@ $< -o $@

%.kcc.cu: %.cu %.kcc.cu.flags
	$(KCC) $(KCC_FLAGS) -MD -MP -MF $@.d -MT $@ $< -o $@

.PRECIOUS: %.kcc.c %.kcc.cu %.kcc.c.flags %.kcc.cu.flags %.kcc.c.cflags %.kcc.cu.cflags

# The compiler flags -O2 chose for an output (empty if none were written).
kcc_cflags = $(strip $(file < $(1).cflags))

-include $(wildcard $(KCC_OUTPUTS:=.d))

.PHONY: kcc-clean kcc-force
kcc-force:
kcc-clean:
	rm -rf $(KCC_OUTPUTS) $(KCC_OUTPUTS:=.d) $(KCC_OUTPUTS:=.flags) \
	       $(KCC_OUTPUTS:=.cflags) $(KCC_OUTPUTS:=.kcc-state)

.DEFAULT_GOAL := $(_kcc_goal)
