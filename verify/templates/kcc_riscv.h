/*
 * kcc_riscv.h — the riscv64 target's side of the harness (targets/riscv64.c):
 * the harness runs under qemu-riscv64 with kcc's instruction-count plugin
 * (targets/qemu/kcc_icount.c). Memory is the guest's, synchronisation is a
 * no-op, nothing is flushed (QEMU models no cache). The "timer" is the
 * plugin: KCC_icount_on() opens a counting window, KCC_icount_off() closes
 * it, and the plugin writes the window's cost (instructions executed, or
 * their weighted cost) into the file named by $KCC_ICOUNT_WINDOW before the
 * guest reads it back. An empty window, measured once at start, is
 * subtracted, so a sample is the instructions of the call alone. The
 * markers' names start with KCC_, which the static scan forbids in
 * candidates; a kernel that reaches them anyway (an alias attribute names
 * a symbol in a string) is caught: the plugin also reports how often each
 * marker ran, and that must be how often the harness called it.
 */
#ifndef KCC_RISCV_H
#define KCC_RISCV_H

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define KCC_HAS_STREAMS 0

__attribute__((noinline, used)) void KCC_icount_on(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline, used)) void KCC_icount_off(void)
{
	__asm__ volatile("" ::: "memory");
}

static int kcc_icount_fd = -1;
static double kcc_icount_empty;
static unsigned long long kcc_icount_pairs; /* windows the harness opened */

static double kcc_icount_read(void)
{
	char buf[128];
	ssize_t n = pread(kcc_icount_fd, buf, sizeof buf - 1, 0);
	if (n <= 0)
		kcc_fail(2, "the instruction-count plugin wrote no count");
	buf[n] = 0;
	unsigned long long cost, insns, on, off;
	if (sscanf(buf, "%llu %llu %llu %llu", &cost, &insns, &on, &off) != 4)
		kcc_fail(2, "the instruction-count plugin wrote no count");
	if (on != kcc_icount_pairs || off != kcc_icount_pairs)
		kcc_fail(6, "the kernel ran kcc's instruction-count markers itself (%llu on, %llu "
		            "off for %llu windows)", on, off, kcc_icount_pairs);
	return (double)cost;
}

static void kcc_init(void)
{
#ifdef KCC_PROFILE
	return; /* the profile's plugin opens its own window (kcc_profile_calls) */
#endif
	const char *path = getenv("KCC_ICOUNT_WINDOW");
	kcc_icount_fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (kcc_icount_fd < 0)
		kcc_fail(2, "not running under kcc's QEMU plugin (KCC_ICOUNT_WINDOW)");
	kcc_icount_pairs++;
	KCC_icount_on();
	KCC_icount_off();
	kcc_icount_empty = kcc_icount_read();
}

static void *kcc_dalloc(size_t n)
{
	void *p = aligned_alloc(64, (n + 63) / 64 * 64);
	if (!p)
		kcc_fail(5, "out of memory (%zu bytes)", n);
	return p;
}

#include "kcc_host.h"

static void kcc_flush(size_t bytes)
{
	(void)bytes; /* no cache is modelled: nothing to flush */
}

static void kcc_tstart(void)
{
	kcc_icount_pairs++;
	KCC_icount_on();
}

static double kcc_tstop(void)
{
	KCC_icount_off();
	double v = kcc_icount_read() - kcc_icount_empty;
	return v >= 1 ? v : 1; /* a ratio of counts needs no zero */
}

static void kcc_finish(void)
{
}

#endif
