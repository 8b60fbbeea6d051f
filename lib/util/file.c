/*
 * file.c - file I/O: kf_read_file (with decompression), atomic and in-place
 * writes, kf_is_dir, kf_exists, kf_mkdir_p
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

/* ---------------- files ---------------- */

void too_large(const char *path, kf_diags *d)
{
	kf_diag_add(d, KF_ERROR, path, 0, 0,
		    "larger than %zu MiB: not a file kfit reads",
		    KF_READ_MAX >> 20);
}

/*
 * Read fd to its end into sb, which first gets room for hint bytes and a
 * read that finds the end (no realloc when hint is the file's size).
 * Returns 0; 1 when more than max bytes came (reading stops there); -1
 * with errno set when a read fails.
 */
int read_fd(int fd, kf_strbuf *sb, size_t hint, size_t max)
{
	kf_strbuf_grow(sb, hint + 65536);
	for (;;) {
		kf_strbuf_grow(sb, 65536);
		ssize_t r = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		sb->len += (size_t)r;
		if (sb->len > max)
			return 1;
	}
}

int kf_read_file(const char *path, kf_strbuf *out, kf_diags *d)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		kf_diag_add(d, KF_ERROR, path, 0, 0, "cannot open: %s",
			    strerror(errno));
		return -1;
	}
	struct stat st;
	bool have_st = fstat(fd, &st) == 0;
	if (have_st && S_ISDIR(st.st_mode)) {
		close(fd);
		kf_diag_add(d, KF_ERROR, path, 0, 0,
			    "is a directory, not a file");
		return -1;
	}
	kf_strbuf raw = KF_STRBUF_INIT;
	/* a pipe or /proc file says 0: it grows as it is read */
	int rr = read_fd(fd, &raw,
			 have_st && S_ISREG(st.st_mode) && st.st_size > 0 &&
					 (size_t)st.st_size <= KF_READ_MAX
				 ? (size_t)st.st_size
				 : 0,
			 KF_READ_MAX);
	if (rr != 0) {
		if (rr < 0)
			kf_diag_add(d, KF_ERROR, path, 0, 0, "cannot read: %s",
				    strerror(errno));
		else
			too_large(path, d);
		close(fd);
		kf_strbuf_release(&raw);
		return -1;
	}
	raw.buf[raw.len] = 0;
	close(fd);

	const unsigned char *u = (const unsigned char *)raw.buf;
	int rc = 0;
	bool had = out->buf != NULL; /* on failure out is left as it was */
	size_t before = out->len;
	if (raw.len >= 2 && u[0] == 0x1f && u[1] == 0x8b) {
		rc = inflate_gz(u, raw.len, out, path, d);
		kf_strbuf_release(&raw);
	} else if (raw.len >= 6 && memcmp(u, "\xfd" "7zXZ\0", 6) == 0) {
		rc = inflate_xz(u, raw.len, out, path, d);
		kf_strbuf_release(&raw);
	} else if (!out->buf) {
		*out = raw;
	} else {
		kf_strbuf_add(out, raw.buf, raw.len);
		kf_strbuf_release(&raw);
	}
	if (rc < 0) {
		if (had) {
			out->len = before;
			out->buf[before] = 0;
		} else {
			kf_strbuf_release(out);
		}
		return rc;
	}
	if (!out->buf)
		kf_strbuf_grow(out, 0);
	return rc;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/*
 * Temporary files are named ".BASE.kfit-PID-XXXXXX" beside BASE.  A process
 * killed between mkstemp() and rename() leaves one behind; the next write
 * of the same file (one written with keep_old: a .config) removes those
 * whose process is gone (kill(pid, 0) says ESRCH) and that were last
 * modified over STALE_TMP_SECONDS ago, so that
 * a write in progress on another machine sharing the directory (same pid
 * number, not ours) is never disturbed.
 */
#define STALE_TMP_SECONDS 10

static void sweep_stale_temps(const char *dir, const char *base)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	size_t blen = strlen(base);
	time_t now = time(NULL);
	struct dirent *de;
	while ((de = readdir(dh))) {
		const char *n = de->d_name;
		if (n[0] != '.' || strncmp(n + 1, base, blen) ||
		    strncmp(n + 1 + blen, ".kfit-", 6))
			continue;
		const char *p = n + 1 + blen + 6;
		char *end;
		long pid = strtol(p, &end, 10);
		if (end == p || pid <= 0 || *end != '-' || strlen(end + 1) != 6)
			continue;
		if (pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		struct stat st;
		if (fstatat(dirfd(dh), n, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || now - st.st_mtime < STALE_TMP_SECONDS)
			continue;
		unlinkat(dirfd(dh), n, 0);
	}
	closedir(dh);
}

#ifndef PROC_SUPER_MAGIC
#define PROC_SUPER_MAGIC 0x9fa0
#endif

/*
 * True when path leads through /proc: /proc/self/fd/N, /dev/fd/N, or a
 * symbolic link to one such as /dev/stdout.  Such a path names a file
 * that is already open (a pipe, a terminal, the file the shell redirected
 * into): it is written through, never replaced by a rename.  *own_fd is
 * set to N when the path names this process's own descriptor N, else -1.
 */
static bool through_proc(const char *path, int *own_fd)
{
	char cur[4096], buf[4096];
	*own_fd = -1;
	if (strlen(path) >= sizeof(cur))
		return false;
	strcpy(cur, path);
	for (int hop = 0; hop < 40; hop++) {
		char dirbuf[4096];
		strcpy(dirbuf, cur);
		char *dir = dirname(dirbuf);
		struct statfs sf;
		if (statfs(dir, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC) {
			const char *base = strrchr(cur, '/') ? strrchr(cur, '/') + 1 : cur;
			char *real = realpath(dir, NULL);
			char self[64];
			snprintf(self, sizeof(self), "/proc/%ld/fd", (long)getpid());
			char *end;
			long n = strtol(base, &end, 10);
			if (real && !strcmp(real, self) && *base && !*end && n >= 0 &&
			    n < 1 << 20)
				*own_fd = (int)n;
			free(real);
			return true;
		}
		ssize_t r = readlink(cur, buf, sizeof(buf) - 1);
		if (r < 0)
			return false; /* not a link (or missing): the end */
		buf[r] = 0;
		if (buf[0] == '/') {
			strcpy(cur, buf);
		} else {
			size_t dl = strlen(dir);
			if (dl + 1 + (size_t)r >= sizeof(cur))
				return false;
			memmove(cur, dir, dl);
			cur[dl] = '/';
			memcpy(cur + dl + 1, buf, (size_t)r + 1);
		}
	}
	return false;
}

/* Write to a file that is not replaced: a device, a FIFO, an open file
 * named through /proc (own_fd: our own descriptor, written at its
 * offset as the shell set it up, not reopened). */
static int write_in_place(const char *path, int own_fd, const void *data,
			  size_t len, kf_diags *d)
{
	int fd = own_fd;
	if (fd >= 0) {
		/* what stdio holds for that descriptor goes first */
		if (fd == 1)
			fflush(stdout);
		else if (fd == 2)
			fflush(stderr);
	} else {
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
	}
	if (fd < 0 || write_all(fd, data, len) < 0) {
		kf_diag_add(d, KF_ERROR, path, 0, 0, "cannot write: %s",
			    strerror(errno));
		if (fd >= 0 && fd != own_fd)
			close(fd);
		return -1;
	}
	if (fd != own_fd && close(fd) < 0) {
		kf_diag_add(d, KF_ERROR, path, 0, 0, "cannot write: %s",
			    strerror(errno));
		return -1;
	}
	return 0;
}

bool kf_output_in_place(const char *path)
{
	int own;
	struct stat st;
	return through_proc(path, &own) ||
	       (stat(path, &st) == 0 && !S_ISREG(st.st_mode));
}

bool kf_file_same(const char *path, const void *data, size_t len)
{
	int own;
	if (through_proc(path, &own))
		return false;
	/* O_NONBLOCK: a FIFO put there meanwhile must not block the open */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return false;
	struct stat st;
	bool same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    (size_t)st.st_size == len;
	const char *p = data;
	size_t off = 0;
	char buf[65536];
	while (same && off < len) {
		ssize_t r = read(fd, buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || (size_t)r > len - off || memcmp(buf, p + off, (size_t)r))
			same = false;
		else
			off += (size_t)r;
	}
	if (same && read(fd, buf, 1) != 0)
		same = false; /* it grew meanwhile */
	close(fd);
	return same;
}


int kf_write_file_atomic(const char *path, const void *data, size_t len,
			 bool keep_old, kf_diags *d)
{
	return write_atomic(path, data, len, keep_old, 0, d);
}

/* force_mode: the new file's mode (a cache entry: 0600), 0: keep the
 * replaced file's mode, else 0666 & ~umask */
int write_atomic(const char *path, const void *data, size_t len,
			bool keep_old, mode_t force_mode, kf_diags *d)
{
	struct stat st;
	int own_fd;
	if (through_proc(path, &own_fd))
		return write_in_place(path, own_fd, data, len, d);
	int have = stat(path, &st) == 0;
	if (have && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			kf_diag_add(d, KF_ERROR, path, 0, 0,
				    "is a directory, cannot write a file there");
			return -1;
		}
		return write_in_place(path, -1, data, len, d);
	}

	char *dup = kf_xstrdup(path);
	char *dir = dirname(dup);
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	/* only for files a person keeps (a .config): a cache directory can
	 * hold tens of thousands of entries, and its leftovers are harmless */
	if (keep_old)
		sweep_stale_temps(dir, base);
	char *tmpl_prefix = kf_xasprintf("%s/.%s.kfit-%ld", dir, base,
					 (long)getpid());
	char *tmpl = kf_xasprintf("%s-XXXXXX", tmpl_prefix);
	free(dup);
	const char *what; /* the failed step, for the message */
	int e;
	char *oldtmp = NULL;
	int fd = mkstemp(tmpl);
	if (fd < 0) {
		e = errno;
		kf_diag_add(d, KF_ERROR, path, 0, 0,
			    "cannot create a temporary file beside it: %s",
			    strerror(e));
		goto out_fail;
	}
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		e = errno;
		close(fd);
		what = "cannot write";
		goto fail;
	}
	/* keep the mode of the file being replaced, else 0644 & ~umask */
	mode_t mode;
	if (force_mode) {
		mode = force_mode;
	} else if (have) {
		mode = st.st_mode & 07777;
	} else {
		mode_t um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	}
	fchmod(fd, mode);
	if (close(fd) < 0) {
		e = errno;
		what = "cannot write";
		goto fail;
	}
	/*
	 * The old file goes to FILE.old only once the new one is in place:
	 * first a hard link to it under a temporary name (a copy where the
	 * file system has no hard links), then the rename of the new file
	 * over FILE, then the rename of that link to FILE.old.  FILE is
	 * complete at every moment, and a failed write changes nothing, not
	 * even FILE.old.
	 */
	if (have && keep_old) {
		oldtmp = kf_xasprintf("%s-XXXXXX", tmpl_prefix);
		int ofd = mkstemp(oldtmp);
		if (ofd < 0) {
			free(oldtmp);
			oldtmp = NULL;
		} else {
			close(ofd);
			unlink(oldtmp);
			if (link(path, oldtmp) < 0) {
				kf_strbuf cur = KF_STRBUF_INIT;
				kf_diags scratch = KF_DIAGS_INIT;
				int cfd = -1;
				if (kf_read_file(path, &cur, &scratch) < 0 ||
				    (cfd = open(oldtmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
						st.st_mode & 07777)) < 0 ||
				    write_all(cfd, cur.buf, cur.len) < 0) {
					unlink(oldtmp);
					free(oldtmp);
					oldtmp = NULL;
				}
				if (cfd >= 0)
					close(cfd);
				kf_strbuf_release(&cur);
				kf_diags_release(&scratch);
			}
		}
	}
	if (rename(tmpl, path) < 0) {
		e = errno;
		what = "cannot rename into place";
		goto fail;
	}
	if (oldtmp) {
		char *old = kf_xasprintf("%s.old", path);
		if (rename(oldtmp, old) < 0)
			unlink(oldtmp);
		free(old);
		free(oldtmp);
	}
	free(tmpl);
	free(tmpl_prefix);
	return 0;

fail:
	unlink(tmpl);
	if (oldtmp)
		unlink(oldtmp);
	free(oldtmp);
	kf_diag_add(d, KF_ERROR, path, 0, 0, "%s: %s", what, strerror(e));
out_fail:
	free(tmpl);
	free(tmpl_prefix);
	return -1;
}

bool kf_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool kf_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

int kf_mkdir_p(const char *path, unsigned mode)
{
	char *p = kf_xstrdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, mode) < 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	int rc = mkdir(p, mode);
	free(p);
	if (rc < 0 && errno != EEXIST)
		return -1;
	return 0;
}
