/*
 * kcc_host.h — the harness's memory and stream calls where the "device" is
 * the host itself (kcc_cpu.h, kcc_riscv.h): copies are memcpy, there is no
 * stream to wait for. Included by those two only.
 */
#ifndef KCC_HOST_H
#define KCC_HOST_H

static void kcc_dfree(void *p)
{
	free(p);
}

static void kcc_h2d(void *d, const void *h, size_t n)
{
	memcpy(d, h, n);
}

static void kcc_d2h(void *h, const void *d, size_t n)
{
	memcpy(h, d, n);
}

static void kcc_d2d(void *d, const void *s, size_t n)
{
	memcpy(d, s, n);
}

static void kcc_dset(void *d, int byte, size_t n)
{
	memset(d, byte, n);
}

static void kcc_after_call(void)
{
}

static void kcc_sync_stream(void)
{
}

static void kcc_sync_device(void)
{
}

#endif
