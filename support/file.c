/*
 * file.c — whole-file reads and the atomic write every output of kcc goes
 * through: a temp file next to the target, fsync, rename. A reader of OUT sees
 * the old version or the new one, never half of one, and a failed run leaves
 * the old one in place.
 */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int file_read_max(Arena *a, const char *path, size_t max, char **text, size_t *len)
{
	/* O_NONBLOCK: opening a FIFO with no writer must not block; it is
	 * refused below anyway. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return e;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return EISDIR;
	}
	/* /dev/zero, a FIFO, a terminal: it may never end. */
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return FILE_ENOTREG;
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return FILE_ETOOBIG;
	}
	fcntl(fd, F_SETFL, 0);
	Strbuf sb = STRBUF_INIT;
	char buf[65536];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			sb_release(&sb);
			return e;
		}
		if (n == 0)
			break;
		/* A file that grows while read (or a /proc file) is still capped. */
		if (sb.len + (size_t)n > max) {
			close(fd);
			sb_release(&sb);
			return FILE_ETOOBIG;
		}
		sb_addn(&sb, buf, (size_t)n);
	}
	close(fd);
	*len = sb.len;
	*text = sb_to_arena(&sb, a);
	return 0;
}

int file_read(Arena *a, const char *path, char **text, size_t *len)
{
	return file_read_max(a, path, FILE_READ_MAX, text, len);
}

const char *file_error(int e)
{
	if (e == FILE_ENOTREG)
		return "not a regular file";
	if (e == FILE_ETOOBIG)
		return "file too large";
	return strerror(e);
}

int file_check_writable(const char *path)
{
	if (strcmp(path, "-") == 0)
		return 0;
	if (access(path, F_OK) == 0)
		return access(path, W_OK) == 0 ? 0 : errno;
	Strbuf dir = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	if (slash)
		sb_addn(&dir, path, slash == path ? 1 : (size_t)(slash - path));
	else
		sb_adds(&dir, ".");
	int e = access(dir.buf, W_OK | X_OK) == 0 ? 0 : errno;
	sb_release(&dir);
	return e;
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_atomic(const char *path, const char *data, size_t len);

/* Every file kcc writes goes through here, so this is where secrets are
 * masked (redact.c). */
int file_write_atomic(const char *path, const char *data, size_t len)
{
	if (!redact_needed(data, len))
		return write_atomic(path, data, len);
	Strbuf sb = STRBUF_INIT;
	redact_into(&sb, data, len);
	int e = write_atomic(path, sb.buf ? sb.buf : "", sb.len);
	sb_release(&sb);
	return e;
}

/* -o /dev/null, a FIFO, a terminal: written in place as gcc does; a rename
 * would replace the device with a regular file. */
static int write_in_place(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	int e = write_all(fd, data, len);
	if (close(fd) != 0 && !e)
		e = errno;
	return e;
}

static int write_atomic(const char *path, const char *data, size_t len)
{
	if (strcmp(path, "-") == 0) {
		int e = write_all(1, data, len);
		return e;
	}
	struct stat pst;
	if (stat(path, &pst) == 0 && !S_ISREG(pst.st_mode) && !S_ISDIR(pst.st_mode))
		return write_in_place(path, data, len);
	Strbuf tmp = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	if (slash)
		sb_addn(&tmp, path, (size_t)(slash - path + 1));
	sb_addf(&tmp, ".%s.kcc-XXXXXX", slash ? slash + 1 : path);
	int fd = mkstemp(tmp.buf);
	if (fd < 0) {
		int e = errno;
		sb_release(&tmp);
		return e;
	}
	/* Keep the mode of the file we replace, else the usual 0666 & ~umask. */
	struct stat st;
	mode_t mode;
	if (stat(path, &st) == 0)
		mode = st.st_mode & 07777;
	else {
		mode_t um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	}
	int e = write_all(fd, data, len);
	if (!e && fchmod(fd, mode) != 0)
		e = errno;
	if (!e && fsync(fd) != 0)
		e = errno;
	if (close(fd) != 0 && !e)
		e = errno;
	if (!e && rename(tmp.buf, path) != 0)
		e = errno;
	if (e)
		unlink(tmp.buf);
	sb_release(&tmp);
	return e;
}

bool file_same(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
		return false;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int file_mkdirs(const char *path, int mode)
{
	char *p = strdup(path);
	if (!p)
		return ENOMEM;
	int e = 0;
	for (char *s = p + 1;; s++) {
		if (*s == '/' || *s == 0) {
			char c = *s;
			*s = 0;
			if (mkdir(p, (mode_t)mode) != 0 && errno != EEXIST) {
				e = errno;
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return e;
}
