/*
 * devlock.c — timed runs on one device, one at a time across processes.
 *
 * proc_device_lock() takes an exclusive flock on CACHE/locks/DEVICE.lock,
 * so timed runs on one device happen one at a time across every kcc
 * process that shares the cache (two `make -j` jobs, two users' runs); the
 * lock is released by proc_device_unlock() or when the process dies. What
 * the machine is doing besides is load.c's proc_load().
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

int proc_device_lock(Arena *a, const char *cache_dir, const char *device, double *waited_s)
{
	if (waited_s)
		*waited_s = 0;
	const char *dir = arena_printf(a, "%s/locks", cache_dir);
	if (file_mkdirs(dir, 0755) != 0)
		return -1;
	/* The device name becomes a file name: keep it one. */
	Strbuf name = STRBUF_INIT;
	for (const char *p = device && *device ? device : "default"; *p; p++)
		sb_addc(&name, (*p == '/' || *p == ' ' || *p == ':') ? '_' : *p);
	const char *path = arena_printf(a, "%s/%s.lock", dir, sb_str(&name));
	sb_release(&name);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return fd;
	double t0 = clock_now();
	diag_trace("kcc: waiting for %s (another kcc is timing on this device)", path);
	while (flock(fd, LOCK_EX) != 0)
		if (errno != EINTR) {
			close(fd);
			return -1;
		}
	if (waited_s)
		*waited_s = clock_now() - t0;
	return fd;
}

void proc_device_unlock(int fd)
{
	if (fd >= 0) {
		flock(fd, LOCK_UN);
		close(fd);
	}
}
