/*
 * tar.c — the ustar streams that carry files to an ssh runner and back.
 *
 * Files go there as an archive that the remote's own `tar -xf -` unpacks;
 * results come back as the archive its `tar -cf -` makes. Packing is done
 * here rather than by a local tar so no process is needed, and unpacking is
 * done here because what comes back was written next to a candidate: only
 * regular files that kcc asked for are written, each atomically to its own
 * path; links, devices and other names are ignored, so a candidate cannot
 * plant a symlink that makes kcc write or read elsewhere.
 */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void octal(char *dst, size_t n, unsigned long long v)
{
	snprintf(dst, n, "%0*llo", (int)n - 1, v);
}

static int header(Strbuf *out, const char *name, const struct stat *st, char type)
{
	char h[512];
	memset(h, 0, sizeof h);
	size_t len = strlen(name);
	const char *base = name;
	if (len > 100) { /* split at a '/' into prefix (155) and name (100) */
		const char *cut = NULL;
		for (const char *p = name; *p; p++)
			if (*p == '/' && (size_t)(p - name) <= 155 && strlen(p + 1) <= 100 && p[1]) {
				cut = p;
				break;
			}
		if (!cut)
			return ENAMETOOLONG;
		memcpy(h + 345, name, (size_t)(cut - name));
		base = cut + 1;
	}
	memcpy(h, base, strlen(base));
	octal(h + 100, 8, st->st_mode & 07777);
	octal(h + 108, 8, 0);
	octal(h + 116, 8, 0);
	octal(h + 124, 12, type == '0' ? (unsigned long long)st->st_size : 0);
	octal(h + 136, 12, (unsigned long long)st->st_mtime);
	h[156] = type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	unsigned sum = 0;
	for (int i = 0; i < 512; i++)
		sum += (unsigned char)h[i];
	snprintf(h + 148, 8, "%06o", sum);
	sb_addn(out, h, sizeof h);
	return 0;
}

static int pack_one(Arena *a, const char *path, Strbuf *out)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno;
	const char *name = path + strspn(path, "/");
	if (S_ISDIR(st.st_mode)) {
		int e = header(out, arena_printf(a, "%s/", name), &st, '5');
		DIR *d = e ? NULL : opendir(path);
		if (!d)
			return e ? e : errno;
		struct dirent *de;
		while (!e && (de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				e = pack_one(a, arena_printf(a, "%s/%s", path, de->d_name), out);
		closedir(d);
		return e;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	char *data;
	size_t len;
	int e = file_read(a, path, &data, &len);
	if (e)
		return e;
	st.st_size = (off_t)len;
	if ((e = header(out, name, &st, '0')))
		return e;
	sb_addn(out, data, len);
	static const char zeros[512];
	if (len % 512)
		sb_addn(out, zeros, 512 - len % 512);
	return 0;
}

int tar_pack(Arena *a, const char *const *paths, Strbuf *out)
{
	for (int i = 0; paths[i]; i++) {
		int e = pack_one(a, paths[i], out);
		if (e)
			return e;
	}
	static const char end[1024];
	sb_addn(out, end, sizeof end);
	return 0;
}

static unsigned long long field_octal(const char *p, size_t n)
{
	unsigned long long v = 0;
	for (size_t i = 0; i < n && p[i]; i++)
		if (p[i] >= '0' && p[i] <= '7')
			v = v * 8 + (unsigned long long)(p[i] - '0');
	return v;
}

int tar_list(Arena *a, const char *data, size_t len, TarEntry **out)
{
	TarEntry *v = NULL;
	size_t n = 0, cap = 0;
	const char *longname = NULL;
	bool ended = false; /* an archive cut short has no end block */
	for (size_t off = 0; off + 512 <= len;) {
		const char *h = data + off;
		if (!h[0]) {
			ended = true; /* the end blocks */
			break;
		}
		unsigned long long size = field_octal(h + 124, 12);
		char type = h[156];
		off += 512;
		if (size > len - off)
			return -1;
		const char *body = data + off;
		off += (size + 511) / 512 * 512;
		if (type == 'L') { /* GNU long name: the next entry's name */
			longname = arena_strndup(a, body, (size_t)size);
			continue;
		}
		const char *name = longname              ? longname
		                   : h[345] ? arena_printf(a, "%.155s/%.100s", h + 345, h)
		                            : arena_strndup(a, h, strnlen(h, 100));
		longname = NULL;
		if (type != '0' && type != 0)
			continue;
		while (name[0] == '.' && name[1] == '/')
			name += 2;
		ARENA_PUSH(a, v, n, cap, ((TarEntry){name, body, (size_t)size}));
	}
	*out = v;
	return ended ? (int)n : -1;
}

int tar_unpack(const TarEntry *e, int n, const char *const *want)
{
	int written = 0;
	for (int i = 0; want[i]; i++)
		for (int k = n - 1; k >= 0; k--) { /* the last one of a name wins, as tar's */
			if (strcmp(e[k].name, want[i]))
				continue;
			char path[4200];
			snprintf(path, sizeof path, "/%s", e[k].name);
			if (file_write_atomic(path, e[k].data, e[k].len) != 0)
				return -1;
			written++;
			break;
		}
	return written;
}
