/*
 * cache.c - the cache directory and its trust check, sealed cache entries
 * (kf_cache_dir, kf_cache_trust, kf_cache_seal/unseal/read/write)
 * See include/kfit/util.h for the contracts.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "kfit/util.h"
#include "util_internal.h"

#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* ---------------- the cache ---------------- */

/*
 * The cache is trusted input: a tree found there is configured (its
 * $(shell,...) run), a shell result becomes a .config value.  So it must
 * be this user's and nobody else's to write: owned by the effective user
 * and not writable by group or others.  why gets the reason otherwise.
 */
static bool cache_owned(const struct stat *st, char *why, size_t n)
{
	if (st->st_uid != geteuid()) {
		snprintf(why, n, "owned by uid %ld, not by you (uid %ld)",
			 (long)st->st_uid, (long)geteuid());
		return false;
	}
	if (st->st_mode & 022) {
		snprintf(why, n, "writable by %s (mode %04o)",
			 (st->st_mode & 002) ? "others" : "its group",
			 (unsigned)(st->st_mode & 07777));
		return false;
	}
	return true;
}

int kf_cache_trust(const char *path, kf_diags *d)
{
	struct stat st;
	char why[128];
	if (lstat(path, &st) < 0)
		return 0; /* missing: nothing to trust yet */
	if (S_ISLNK(st.st_mode)) {
		kf_diag_add(d, KF_ERROR, path, 0, 0,
			    "a symbolic link inside kfit's cache: refusing to "
			    "follow it; remove it");
		return -1;
	}
	if (!cache_owned(&st, why, sizeof(why))) {
		kf_diag_add(d, KF_ERROR, path, 0, 0,
			    "in kfit's cache but %s: refusing to use it (another user "
			    "could plant Kconfig files or $(shell,...) results there); "
			    "remove it, or set KFIT_CACHE_DIR to a directory of your own",
			    why);
		return -1;
	}
	return 0;
}

char *kf_cache_dir(kf_diags *d)
{
	const char *e = getenv("KFIT_CACHE_DIR");
	char *dir;
	if (e && *e) {
		dir = kf_xstrdup(e);
	} else if ((e = getenv("XDG_CACHE_HOME")) && *e == '/') {
		dir = kf_xasprintf("%s/kfit", e);
	} else if ((e = getenv("HOME")) && *e) {
		dir = kf_xasprintf("%s/.cache/kfit", e);
	} else {
		kf_diag_add(d, KF_ERROR, NULL, 0, 0,
			    "no cache directory: set HOME, XDG_CACHE_HOME or KFIT_CACHE_DIR");
		return NULL;
	}
	if (*dir != '/') {
		/* absolute: $(srctree) of a tree in it is run from elsewhere */
		char *cwd = getcwd(NULL, 0);
		char *abs = cwd ? kf_xasprintf("%s/%s", cwd, dir) : NULL;
		free(cwd);
		free(dir);
		if (!abs) {
			kf_diag_add(d, KF_ERROR, NULL, 0, 0, "cannot resolve the cache directory: %s",
				    strerror(errno));
			return NULL;
		}
		dir = abs;
	}
	if (kf_mkdir_p(dir, 0700) < 0) {
		kf_diag_add(d, KF_ERROR, dir, 0, 0, "cannot create cache directory: %s",
			    strerror(errno));
		free(dir);
		return NULL;
	}
	/* the directory itself may be a link (a cache on another disk): its
	 * target is what must be ours */
	struct stat st;
	char why[128];
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		kf_diag_add(d, KF_ERROR, dir, 0, 0, "cache directory is not a directory");
		free(dir);
		return NULL;
	}
	if (!cache_owned(&st, why, sizeof(why))) {
		kf_diag_add(d, KF_ERROR, dir, 0, 0,
			    "cache directory %s: refusing to use it (another user could "
			    "plant Kconfig files or $(shell,...) results there); set "
			    "KFIT_CACHE_DIR to a directory of your own",
			    why);
		free(dir);
		return NULL;
	}
	return dir;
}

/*
 * A cache entry on disk:
 *
 *   kfit-cache KIND VERSION LENGTH CRC32\n
 *   DATA (LENGTH bytes)
 *   \nkfit-cache-end\n
 *
 * A kill mid-write cannot leave a torn entry (entries are written by
 * rename), but a full disk, a copy, a crash of the file system or a hand
 * can: every reader checks all four before it uses a byte.
 */
#define CACHE_END "\nkfit-cache-end\n"
#define CACHE_MAX ((size_t)256 << 20)

void kf_cache_seal(kf_strbuf *out, const char *kind, unsigned version,
		   const void *data, size_t len)
{
	uLong crc = crc32(0L, Z_NULL, 0);
	const unsigned char *p = data;
	for (size_t off = 0; off < len;) {
		uInt n = len - off > (1u << 30) ? (1u << 30) : (uInt)(len - off);
		crc = crc32(crc, p + off, n);
		off += n;
	}
	kf_strbuf_addf(out, "kfit-cache %s %u %zu %08lx\n", kind, version, len,
		       (unsigned long)crc);
	kf_strbuf_add(out, data, len);
	kf_strbuf_addstr(out, CACHE_END);
}

int kf_cache_unseal(const char *buf, size_t n, const char *kind,
		    unsigned version, const char **data, size_t *len,
		    const char **why)
{
	const char *nl = memchr(buf, '\n', n < 256 ? n : 256);
	char kbuf[64];
	unsigned v;
	size_t l;
	unsigned long crc;
	int used = 0;
	*why = NULL;
	if (!nl) {
		*why = "no kfit cache header";
		return -1;
	}
	char head[256];
	memcpy(head, buf, (size_t)(nl - buf));
	head[nl - buf] = 0;
	if (sscanf(head, "kfit-cache %63s %u %zu %8lx%n", kbuf, &v, &l, &crc,
		   &used) != 4 ||
	    head[used]) {
		*why = "no kfit cache header";
		return -1;
	}
	/* only the one spelling kf_cache_seal writes (no "+5", no "ABCD") */
	char canon[256];
	snprintf(canon, sizeof(canon), "kfit-cache %s %u %zu %08lx", kbuf, v, l, crc);
	if (strcmp(canon, head)) {
		*why = "no kfit cache header";
		return -1;
	}
	if (strcmp(kbuf, kind)) {
		*why = "another kind of entry";
		return -1;
	}
	if (v != version) {
		*why = "written by another version of kfit";
		return -1;
	}
	size_t hl = (size_t)(nl - buf) + 1, el = strlen(CACHE_END);
	if (l > n || n - hl < l + el || n - hl - l != el) {
		*why = n - hl < l + el ? "truncated" : "longer than its header says";
		return -1;
	}
	if (memcmp(buf + hl + l, CACHE_END, el)) {
		*why = "no end marker";
		return -1;
	}
	uLong c = crc32(0L, Z_NULL, 0);
	for (size_t off = 0; off < l;) {
		uInt k = l - off > (1u << 30) ? (1u << 30) : (uInt)(l - off);
		c = crc32(c, (const unsigned char *)buf + hl + off, k);
		off += k;
	}
	if (c != crc) {
		*why = "checksum mismatch";
		return -1;
	}
	*data = buf + hl;
	*len = l;
	return 0;
}

int kf_cache_read(const char *path, const char *kind, unsigned version,
		  kf_strbuf *data, char **why)
{
	*why = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT)
			return 1;
		*why = kf_xasprintf("cannot open: %s", strerror(errno));
		return -1;
	}
	struct stat st;
	char reason[128];
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		*why = kf_xstrdup("not a regular file");
		return -1;
	}
	if (!cache_owned(&st, reason, sizeof(reason))) {
		close(fd);
		*why = kf_xstrdup(reason);
		return -1;
	}
	if ((size_t)st.st_size > CACHE_MAX) {
		close(fd);
		*why = kf_xstrdup("too large");
		return -1;
	}
	kf_strbuf raw = KF_STRBUF_INIT;
	/* more than CACHE_MAX: the unseal below finds it too long */
	if (read_fd(fd, &raw, (size_t)st.st_size, CACHE_MAX) < 0) {
		*why = kf_xasprintf("cannot read: %s", strerror(errno));
		close(fd);
		kf_strbuf_release(&raw);
		return -1;
	}
	close(fd);
	const char *p;
	size_t l;
	const char *w;
	if (kf_cache_unseal(raw.buf, raw.len, kind, version, &p, &l, &w) < 0) {
		*why = kf_xstrdup(w);
		kf_strbuf_release(&raw);
		return -1;
	}
	/* the data moved to the front of the buffer it was read into: a
	 * second copy of a 10 MB entry costs as much as reading it */
	memmove(raw.buf, p, l);
	raw.len = l;
	raw.buf[l] = 0;
	kf_strbuf_release(data);
	*data = raw;
	return 0;
}

int kf_cache_write(const char *path, const char *kind, unsigned version,
		   const void *data, size_t len, kf_diags *d)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_cache_seal(&sb, kind, version, data, len);
	/* a link or a FIFO put in our place is replaced, never written through */
	struct stat st;
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		unlink(path);
	int rc = write_atomic(path, sb.buf, sb.len, false, 0600, d);
	kf_strbuf_release(&sb);
	return rc;
}
