/*
 * test_load.c — runners/devlock.c: the per-device lock excludes another
 * process until released (ordering, no timing), different devices do not
 * exclude each other; proc_load (load.c) reads the machine's load.
 */
#include "runners/runner.h"
#include "testsuite/unit/check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	Arena *a = arena_new();
	char dir[] = "/tmp/kcc-load-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	const char *mark = arena_printf(a, "%s/released", dir);

	int fd = proc_device_lock(a, dir, "cuda:0", NULL);
	CHECK(fd >= 0);
	pid_t pid = fork();
	if (pid == 0) {
		Arena *b = arena_new();
		/* Another device is free at once. */
		int other = proc_device_lock(b, dir, "cpu", NULL);
		if (other < 0)
			_exit(3);
		proc_device_unlock(other);
		double waited;
		int f = proc_device_lock(b, dir, "cuda:0", &waited);
		struct stat st;
		/* Got it only after the parent marked the release. */
		_exit(f >= 0 && stat(mark, &st) == 0 ? 0 : 1);
	}
	usleep(300000);
	CHECK(file_write_atomic(mark, "x", 1) == 0);
	proc_device_unlock(fd);
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	CHECK(proc_load() >= 0);

	unlink(mark);
	unlink(arena_printf(a, "%s/locks/cuda_0.lock", dir));
	unlink(arena_printf(a, "%s/locks/cpu.lock", dir));
	rmdir(arena_printf(a, "%s/locks", dir));
	rmdir(dir);
	arena_free(a);
	return check_summary("test_load");
}
