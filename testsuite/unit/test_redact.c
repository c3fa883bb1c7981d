/*
 * test_redact.c — support/redact.c and the file sinks: secret values from
 * the environment are masked in file_write_atomic's output and on stderr
 * (even a key split across two writes), short values are left alone;
 * file_read refuses /dev/zero, FIFOs and files over the cap at once; a
 * non-regular -o target (a FIFO) is written in place, not replaced.
 */
#define _GNU_SOURCE
#include "support/support.h"
#include "testsuite/unit/check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#define CANARY "kcc-canary-0a1b2c3d4e"

int main(void)
{
	setenv("MY_SERVICE_TOKEN", CANARY, 1);
	setenv("SHORT_API_KEY", "abc", 1);
	setenv("KCC_VISIBLE_VALUE", "kcc-visible-value", 1);
	redact_init();
	redact_add("configured-key-999");
	CHECK(redact_count() >= 2); /* the environment may hold more */
	Arena *a = arena_new();

	CHECK_STR(redact_str(a, "x " CANARY " y " CANARY), "x [REDACTED] y [REDACTED]");
	CHECK_STR(redact_str(a, "abc kcc-visible-value"), "abc kcc-visible-value");
	CHECK_STR(redact_str(a, "configured-key-999!"), "[REDACTED]!");

	char dir[] = "/tmp/kcc-redact-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	const char *f = arena_printf(a, "%s/out.c", dir);
	CHECK(file_write_atomic(f, "// " CANARY "\n", strlen(CANARY) + 4) == 0);
	char *text;
	size_t len;
	CHECK(file_read(a, f, &text, &len) == 0);
	CHECK_STR(text, "// [REDACTED]\n");

	/* stderr through the filter, in a child so the test's own stderr
	 * stays plain: the key in two pieces and in one. */
	int p[2];
	CHECK(pipe(p) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[1], 2);
		close(p[0]);
		redact_stdio();
		fputs("a kcc-canary-", stderr);
		fputs("0a1b2c3d4e b\n", stderr);
		fprintf(stdout, "out " CANARY "\n");
		fprintf(stderr, "tail " CANARY);
		exit(0);
	}
	close(p[1]);
	char buf[256] = {0};
	size_t got = 0;
	ssize_t n;
	while ((n = read(p[0], buf + got, sizeof buf - 1 - got)) > 0)
		got += (size_t)n;
	waitpid(pid, NULL, 0);
	CHECK_STR(buf, "a [REDACTED] b\ntail [REDACTED]");

	/* Inputs that never end are refused at once. */
	CHECK(file_read(a, "/dev/zero", &text, &len) == FILE_ENOTREG);
	const char *fifo = arena_printf(a, "%s/fifo", dir);
	CHECK(mkfifo(fifo, 0600) == 0);
	CHECK(file_read(a, fifo, &text, &len) == FILE_ENOTREG);
	CHECK(strcmp(file_error(FILE_ENOTREG), "not a regular file") == 0);
	const char *big = arena_printf(a, "%s/big", dir);
	CHECK(file_write_atomic(big, "0123456789", 10) == 0);
	CHECK(file_read_max(a, big, 9, &text, &len) == FILE_ETOOBIG);
	CHECK(file_read_max(a, big, 10, &text, &len) == 0 && len == 10);

	/* -o FIFO: written in place (a reader gets it), the FIFO stays one. */
	pid = fork();
	if (pid == 0) {
		int fd = open(fifo, O_RDONLY);
		char b[64] = {0};
		ssize_t k = read(fd, b, sizeof b - 1);
		exit(k == 6 && strcmp(b, "hello\n") == 0 ? 0 : 1);
	}
	CHECK(file_write_atomic(fifo, "hello\n", 6) == 0);
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	struct stat sb;
	CHECK(stat(fifo, &sb) == 0 && S_ISFIFO(sb.st_mode));
	/* -o /dev/null as root: a copy of the device (never the machine's own,
	 * should this ever break) stays a device. */
	const char *null = arena_printf(a, "%s/null", dir);
	if (mknod(null, S_IFCHR | 0666, makedev(1, 3)) == 0) {
		CHECK(file_write_atomic(null, "x", 1) == 0);
		CHECK(stat(null, &sb) == 0 && S_ISCHR(sb.st_mode));
		unlink(null);
	}

	/* Writability is known before a search starts. */
	CHECK(file_check_writable(arena_printf(a, "%s/new.json", dir)) == 0);
	CHECK(file_check_writable("/nonexistent-kcc/r.json") == ENOENT);

	unlink(fifo);
	unlink(big);
	unlink(f);
	rmdir(dir);
	arena_free(a);
	return check_summary("test_redact");
}
