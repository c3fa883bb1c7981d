/*
 * test_peaks_busy.c — targets/peaks.c on a machine that is never quiet: a
 * cached measurement taken while busy is measured again once it is old,
 * and each rate keeps the highest value seen; a recent busy one is reused.
 * The test makes the machine busy itself (one spinning child per cpu and
 * two more), so proc_load() reads above 0.5 whatever the machine does.
 */
#include "runners/runner.h"
#include "targets/target.h"
#include "testsuite/unit/check.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

static pid_t spin[64];
static int nspin;

static void busy_on(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	nspin = (int)(cpus > 0 ? cpus : 1) + 2;
	if (nspin > 64)
		nspin = 64;
	for (int i = 0; i < nspin; i++)
		if ((spin[i] = fork()) == 0)
			for (volatile unsigned long x = 0;; x++)
				;
	usleep(200000);
}

static void busy_off(void)
{
	for (int i = 0; i < nspin; i++) {
		kill(spin[i], SIGKILL);
		waitpid(spin[i], NULL, 0);
	}
	nspin = 0;
}

/* The one peaks-cpu-*.txt in dir. */
static const char *peaks_file(Arena *a, const char *dir)
{
	DIR *d = opendir(dir);
	const char *found = NULL;
	for (struct dirent *e; d && (e = readdir(d));)
		if (!strncmp(e->d_name, "peaks-cpu-", 10))
			found = arena_printf(a, "%s/%s", dir, e->d_name);
	if (d)
		closedir(d);
	return found;
}

/* A cache entry of made-up rates, said busy, written `age` seconds ago. */
static void plant(const char *path, double gflops, double gbps, int age)
{
	FILE *f = fopen(path, "w");
	fprintf(f, "gflops %g\ngbps %g\ncache_gbps 1\nfp64_gflops 1\nscalar_gflops 1\nbusy 1\n",
	        gflops, gbps);
	fclose(f);
	struct utimbuf t = {.actime = time(NULL) - age, .modtime = time(NULL) - age};
	utime(path, &t);
}

int main(void)
{
	Arena *a = arena_new();
	char dir[] = "/tmp/kcc-peaks-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	const Target *t = target_find("cpu");
	CHECK(t != NULL && t->peaks != NULL);
	ProfilePeaks pk;
	CHECK(t->peaks(t, a, dir, &pk) == 0); /* the first measurement, cached */
	const char *path = peaks_file(a, dir);
	CHECK(path != NULL);
	if (!path)
		return check_summary("test_peaks_busy");

	busy_on();
	CHECK(proc_load() > 0.5);
	/* Recent and busy: reused as it is, not measured again. */
	plant(path, 1e9, 1e-3, 10);
	CHECK(t->peaks(t, a, dir, &pk) == 0);
	CHECK(pk.busy);
	CHECK(pk.gflops == 1e9);
	CHECK(pk.gbps == 1e-3);
	/* Old and busy: measured again; the made-up high rate is kept (the
	 * higher of the two), the made-up low one replaced by the fresh one. */
	plant(path, 1e9, 1e-3, 3600);
	CHECK(t->peaks(t, a, dir, &pk) == 0);
	busy_off();
	CHECK(pk.busy);
	CHECK(pk.gflops == 1e9);
	CHECK(pk.gbps > 1e-3);
	struct stat st;
	CHECK(stat(path, &st) == 0 && time(NULL) - st.st_mtime < 600);

	char *cmd = arena_printf(a, "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	arena_free(a);
	return check_summary("test_peaks_busy");
}
