# two.mk — two kernels through mk/kcc.mk, for make -j (lit make/kcc-mk-j.test).
KCC_OUTPUTS = k1.kcc.c k2.kcc.c
include $(MK)
all: k1.o k2.o
k1.o k2.o: %.o: %.kcc.c
	$(CC) -std=gnu17 -O2 -Wno-unknown-pragmas $(call kcc_cflags,$<) -c $< -o $@
.PHONY: all
