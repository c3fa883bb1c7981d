# mk/kcc.mk — make rules for kcc. Include it, then name NAME.kcc.c (or
# NAME.kcc.cu) as a prerequisite: make runs kcc on NAME.c when the kernel,
# a header it includes or the menu changed (kcc writes the dependency file
# with -MD, as gcc does), and does nothing otherwise. kcc's cache answers a
# rebuild with the same inputs without a request to the LLM.
#
#   KCC        the kcc binary (default: kcc)
#   KCC_FLAGS  e.g. -O2 (default), or -O-llm --llm=openai:gpt-4o --budget=usd:2
#
# `make kcc-clean` removes outputs, dependency files and state dirs; the
# cache (~/.cache/kcc) stays, so the next build is answered from it.

KCC ?= kcc
KCC_FLAGS ?= -O2

%.kcc.c: %.c
	$(KCC) $(KCC_FLAGS) -MD -MF $@.d -MT $@ $< -o $@

%.kcc.cu: %.cu
	$(KCC) $(KCC_FLAGS) -MD -MF $@.d -MT $@ $< -o $@

KCC_OUTPUTS ?=
-include $(wildcard $(KCC_OUTPUTS:=.d))

.PHONY: kcc-clean
kcc-clean:
	rm -rf $(KCC_OUTPUTS) $(KCC_OUTPUTS:=.d) $(KCC_OUTPUTS:=.kcc-state)
