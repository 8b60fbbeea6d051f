/*
 * util.c - arena, strbuf, diagnostics, hashing and file I/O shared by all
 * of libkfit.  See include/kfit/util.h for the contracts.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "kfit/util.h"

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

/*
 * A big allocation (the alias table of a tree, its index, a cache entry
 * read whole) asks for transparent huge pages on the 2 MB extents it
 * covers whole, as the arena's blocks do: its pages are touched once, and
 * one fault per 2 MB instead of 512 matters where faults are slow (under
 * a hypervisor a 10 MB table took 80 ms of faults, 1 ms in huge pages).
 * Only advice: where the kernel has no huge pages, nothing changes.
 */
#define HUGE_EXTENT ((uintptr_t)2 * 1024 * 1024)

static void *advise_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	if (n >= HUGE_EXTENT) {
		uintptr_t from = ((uintptr_t)p + HUGE_EXTENT - 1) & ~(HUGE_EXTENT - 1);
		uintptr_t to = ((uintptr_t)p + n) & ~(HUGE_EXTENT - 1);
		if (to > from)
			madvise((void *)from, to - from, MADV_HUGEPAGE);
	}
#endif
	return p;
}

/* Memory for n bytes, at a 2 MB boundary when it is that big, so that
 * its first extents are whole ones (a 2.2 MB table from malloc has
 * none). */
static void *alloc_big(size_t n)
{
	void *p = NULL;
	if (n < HUGE_EXTENT)
		return malloc(n ? n : 1);
	if (posix_memalign(&p, HUGE_EXTENT, n) != 0)
		return NULL;
	return advise_huge(p, n);
}

/* The one process-wide setting: what a failed allocation calls. */
static kf_oom_fn *oom_fn;

void kf_set_oom_handler(kf_oom_fn *fn)
{
	oom_fn = fn;
}

static _Noreturn void oom(size_t n)
{
	if (oom_fn)
		oom_fn(n);
	abort();
}

void *kf_xmalloc(size_t n)
{
	void *p = alloc_big(n);
	if (!p)
		oom(n);
	return p;
}

void *kf_xcalloc(size_t n, size_t sz)
{
	if (sz && n > SIZE_MAX / sz)
		oom(SIZE_MAX);
	size_t len = n * sz;
	if (len < HUGE_EXTENT) {
		void *p = calloc(n ? n : 1, sz ? sz : 1);
		if (!p)
			oom(len);
		return p;
	}
	void *p = alloc_big(len);
	if (!p)
		oom(len);
	return memset(p, 0, len);
}

void *kf_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return advise_huge(p, n);
}

char *kf_xstrdup(const char *s)
{
	return kf_xstrndup(s, strlen(s));
}

char *kf_xstrndup(const char *s, size_t n)
{
	char *p = kf_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *kf_xasprintf(const char *fmt, ...)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	kf_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (!sb.buf)
		return kf_xstrdup("");
	return kf_strbuf_detach(&sb);
}

/* ---------------- arena ---------------- */

/*
 * Blocks are mapped from the system (mmap), so they start zeroed: an
 * allocation needs no memset, and the pages are touched once, by their
 * user.  Block sizes double from 64 KB to 2 MB, so a small arena stays
 * small; a 2 MB block is aligned and asks for transparent huge pages:
 * one page fault instead of 512 (a parsed kernel tree takes ~25 MB, and
 * page faults were a quarter of a warm olddefconfig).
 */
#define ARENA_MIN_BLOCK ((size_t)64 * 1024)
#define ARENA_MAX_BLOCK ((size_t)2 * 1024 * 1024)

struct kf_arena_block {
	struct kf_arena_block *next; /* older block */
	size_t size;                 /* usable bytes in data */
	size_t used;                 /* bytes handed out */
	size_t map;                  /* bytes mapped, block header included */
	max_align_t data[];          /* the memory */
};

struct kf_arena {
	struct kf_arena_block *head; /* newest block, allocation happens here */
	size_t total;                /* bytes handed out over all blocks */
	size_t next_size;            /* mapping size of the next block */
};

kf_arena *kf_arena_new(void)
{
	kf_arena *a = kf_xcalloc(1, sizeof(kf_arena));
	a->next_size = ARENA_MIN_BLOCK;
	return a;
}

kf_arena *kf_arena_new_large(void)
{
	kf_arena *a = kf_arena_new();
	a->next_size = ARENA_MAX_BLOCK;
	return a;
}

void kf_arena_free(kf_arena *a)
{
	if (!a)
		return;
	struct kf_arena_block *b = a->head;
	while (b) {
		struct kf_arena_block *n = b->next;
		munmap(b, b->map);
		b = n;
	}
	free(a);
}

/* A zeroed block of map bytes (header included); out of memory ends as
 * in kf_xmalloc. */
static struct kf_arena_block *block_map(size_t map)
{
	void *p;
	if (map == ARENA_MAX_BLOCK) {
		/* over-map and trim to a 2 MB boundary: huge pages need it */
		char *q = mmap(NULL, 2 * map, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (q == MAP_FAILED)
			oom(2 * map);
		uintptr_t al = ((uintptr_t)q + map - 1) & ~(uintptr_t)(map - 1);
		size_t head = (size_t)(al - (uintptr_t)q);
		if (head)
			munmap(q, head);
		munmap((char *)al + map, map - head);
		p = (void *)al;
#ifdef MADV_HUGEPAGE
		madvise(p, map, MADV_HUGEPAGE);
#endif
	} else {
		p = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			oom(map);
	}
	struct kf_arena_block *b = p;
	b->map = map;
	b->size = map - sizeof(*b);
	b->used = 0;
	return b;
}

void *kf_arena_alloc(kf_arena *a, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	struct kf_arena_block *b = a->head;
	if (!b || b->size - b->used < n) {
		size_t map = a->next_size;
		if (n > (map - sizeof(*b)) / 4) {
			/* big allocation: own block, behind the current head */
			size_t page = 4096;
			struct kf_arena_block *big =
				block_map((sizeof(*big) + n + page - 1) & ~(page - 1));
			big->used = n;
			if (b) {
				big->next = b->next;
				b->next = big;
			} else {
				big->next = NULL;
				a->head = big;
			}
			a->total += n;
			return big->data;
		}
		b = block_map(map);
		if (a->next_size < ARENA_MAX_BLOCK)
			a->next_size *= 2;
		b->next = a->head;
		a->head = b;
	}
	void *p = (char *)b->data + b->used;
	b->used += n;
	a->total += n;
	return p;
}

char *kf_arena_strndup(kf_arena *a, const char *s, size_t n)
{
	char *p = kf_arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *kf_arena_strdup(kf_arena *a, const char *s)
{
	return kf_arena_strndup(a, s, strlen(s));
}

char *kf_arena_printf(kf_arena *a, const char *fmt, ...)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	kf_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	char *r = kf_arena_strndup(a, kf_strbuf_str(&sb), sb.len);
	kf_strbuf_release(&sb);
	return r;
}

size_t kf_arena_used(const kf_arena *a)
{
	return a->total;
}

/* ---------------- strbuf ---------------- */

void kf_strbuf_grow(kf_strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return;
	size_t na = sb->alloc ? sb->alloc : 64;
	while (na < need)
		na *= 2;
	sb->buf = kf_xrealloc(sb->buf, na);
	sb->alloc = na;
}

void kf_strbuf_add(kf_strbuf *sb, const void *data, size_t n)
{
	kf_strbuf_grow(sb, n);
	if (n)
		memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = 0;
}

void kf_strbuf_addstr(kf_strbuf *sb, const char *s)
{
	kf_strbuf_add(sb, s, strlen(s));
}

void kf_strbuf_addch(kf_strbuf *sb, int c)
{
	kf_strbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = 0;
}

void kf_strbuf_vaddf(kf_strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	kf_strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void kf_strbuf_addf(kf_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kf_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void kf_strbuf_reset(kf_strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = 0;
}

void kf_strbuf_release(kf_strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

char *kf_strbuf_detach(kf_strbuf *sb)
{
	char *r = sb->buf ? sb->buf : kf_xstrdup("");
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return r;
}

const char *kf_strbuf_str(const kf_strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

/* ---------------- diagnostics ---------------- */

void kf_diag_vadd(kf_diags *d, kf_severity sev, const char *file, int line,
		  int col, const char *fmt, va_list ap)
{
	if (!d)
		return;
	KF_GROW(d->v, d->n + 1, d->alloc);
	kf_diag *dg = &d->v[d->n++];
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_vaddf(&sb, fmt, ap);
	dg->sev = sev;
	dg->file = file ? kf_xstrdup(file) : NULL;
	dg->line = line;
	dg->col = col;
	dg->msg = kf_strbuf_detach(&sb);
	dg->raw = NULL;
	if (sev == KF_ERROR)
		d->nerr++;
}

void kf_diag_add(kf_diags *d, kf_severity sev, const char *file, int line,
		 int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kf_diag_vadd(d, sev, file, line, col, fmt, ap);
	va_end(ap);
}

void kf_diag_raw(kf_diags *d, kf_severity sev, const char *fmt, ...)
{
	if (!d)
		return;
	va_list ap;
	va_start(ap, fmt);
	kf_diag_vadd(d, sev, NULL, 0, 0, fmt, ap);
	va_end(ap);
	kf_diag *dg = &d->v[d->n - 1];
	dg->raw = dg->msg;
	dg->msg = kf_xstrdup(dg->raw);
}

void kf_diags_release(kf_diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].msg);
		free(d->v[i].raw);
	}
	free(d->v);
	d->v = NULL;
	d->n = d->alloc = d->nerr = 0;
}

void kf_diags_move(kf_diags *d, kf_diags *from)
{
	if (from->n) {
		KF_GROW(d->v, d->n + from->n, d->alloc);
		memcpy(d->v + d->n, from->v, from->n * sizeof(*from->v));
		d->n += from->n;
		d->nerr += from->nerr;
	}
	free(from->v);
	from->v = NULL;
	from->n = from->alloc = from->nerr = 0;
}

void kf_diag_format(const kf_diag *dg, kf_strbuf *out)
{
	if (dg->raw) {
		kf_strbuf_addstr(out, dg->raw);
		return;
	}
	if (dg->file) {
		kf_strbuf_addstr(out, dg->file);
		if (dg->line > 0) {
			kf_strbuf_addf(out, ":%d", dg->line);
			if (dg->col > 0)
				kf_strbuf_addf(out, ":%d", dg->col);
		}
		kf_strbuf_addstr(out, ": ");
	}
	if (dg->sev == KF_ERROR)
		kf_strbuf_addstr(out, "error: ");
	else if (dg->sev == KF_WARNING)
		kf_strbuf_addstr(out, "warning: ");
	else
		kf_strbuf_addstr(out, "note: ");
	kf_strbuf_addstr(out, dg->msg);
}

/* ---------------- hashing (FNV-1a) ---------------- */

uint32_t kf_hash_mem(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint32_t h = KF_HASH_INIT;
	for (size_t i = 0; i < n; i++)
		h = kf_hash_step(h, s[i]);
	return h;
}

uint32_t kf_hash_str(const char *s)
{
	uint32_t h = KF_HASH_INIT;
	for (; *s; s++)
		h = kf_hash_step(h, (unsigned char)*s);
	return h;
}

/* ---------------- files ---------------- */

/* The most kf_read_file reads or decompresses: kernel configs, Kconfig
 * files and profiles are far smaller, and an endless device (/dev/zero,
 * /dev/full) or a decompression bomb must not eat all memory. */
#define KF_READ_MAX ((size_t)64 << 20)

static void too_large(const char *path, kf_diags *d)
{
	kf_diag_add(d, KF_ERROR, path, 0, 0,
		    "larger than %zu MiB: not a file kfit reads",
		    KF_READ_MAX >> 20);
}

static int inflate_gz(const unsigned char *in, size_t n, kf_strbuf *out,
		      const char *path, kf_diags *d)
{
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 15 + 32) != Z_OK) {
		kf_diag_add(d, KF_ERROR, path, 0, 0, "cannot start gzip decoder");
		return -1;
	}
	zs.next_in = (unsigned char *)in;
	zs.avail_in = (uInt)n;
	int rc;
	do {
		kf_strbuf_grow(out, 65536);
		zs.next_out = (unsigned char *)out->buf + out->len;
		zs.avail_out = (uInt)(out->alloc - out->len - 1);
		size_t before = zs.avail_out;
		rc = inflate(&zs, Z_NO_FLUSH);
		out->len += before - zs.avail_out;
		out->buf[out->len] = 0;
		if (out->len > KF_READ_MAX) {
			inflateEnd(&zs);
			too_large(path, d);
			return -1;
		}
		if (rc == Z_STREAM_END && zs.avail_in > 0) {
			/* concatenated gzip members */
			inflateReset(&zs);
			rc = Z_OK;
		}
	} while (rc == Z_OK);
	inflateEnd(&zs);
	if (rc != Z_STREAM_END) {
		kf_diag_add(d, KF_ERROR, path, 0, 0,
			    "corrupt or truncated gzip data");
		return -1;
	}
	return 0;
}

static int inflate_xz(const unsigned char *in, size_t n, kf_strbuf *out,
		      const char *path, kf_diags *d)
{
	lzma_stream ls = LZMA_STREAM_INIT;
	if (lzma_stream_decoder(&ls, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
		kf_diag_add(d, KF_ERROR, path, 0, 0, "cannot start xz decoder");
		return -1;
	}
	ls.next_in = in;
	ls.avail_in = n;
	lzma_ret rc;
	do {
		kf_strbuf_grow(out, 65536);
		ls.next_out = (uint8_t *)out->buf + out->len;
		ls.avail_out = out->alloc - out->len - 1;
		size_t before = ls.avail_out;
		rc = lzma_code(&ls, ls.avail_in ? LZMA_RUN : LZMA_FINISH);
		out->len += before - ls.avail_out;
		out->buf[out->len] = 0;
		if (out->len > KF_READ_MAX) {
			lzma_end(&ls);
			too_large(path, d);
			return -1;
		}
	} while (rc == LZMA_OK);
	lzma_end(&ls);
	if (rc != LZMA_STREAM_END) {
		kf_diag_add(d, KF_ERROR, path, 0, 0,
			    "corrupt or truncated xz data");
		return -1;
	}
	return 0;
}

/*
 * Read fd to its end into sb, which first gets room for hint bytes and a
 * read that finds the end (no realloc when hint is the file's size).
 * Returns 0; 1 when more than max bytes came (reading stops there); -1
 * with errno set when a read fails.
 */
static int read_fd(int fd, kf_strbuf *sb, size_t hint, size_t max)
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

static int write_atomic(const char *path, const void *data, size_t len,
			bool keep_old, mode_t force_mode, kf_diags *d);

int kf_write_file_atomic(const char *path, const void *data, size_t len,
			 bool keep_old, kf_diags *d)
{
	return write_atomic(path, data, len, keep_old, 0, d);
}

/* force_mode: the new file's mode (a cache entry: 0600), 0: keep the
 * replaced file's mode, else 0666 & ~umask */
static int write_atomic(const char *path, const void *data, size_t len,
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
	int fd = mkstemp(tmpl);
	if (fd < 0) {
		kf_diag_add(d, KF_ERROR, path, 0, 0,
			    "cannot create a temporary file beside it: %s",
			    strerror(errno));
		free(tmpl);
		free(tmpl_prefix);
		return -1;
	}
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		int e = errno;
		close(fd);
		unlink(tmpl);
		kf_diag_add(d, KF_ERROR, path, 0, 0, "cannot write: %s",
			    strerror(e));
		free(tmpl);
		free(tmpl_prefix);
		return -1;
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
		int e = errno;
		unlink(tmpl);
		kf_diag_add(d, KF_ERROR, path, 0, 0, "cannot write: %s",
			    strerror(e));
		free(tmpl);
		free(tmpl_prefix);
		return -1;
	}
	/*
	 * The old file goes to FILE.old only once the new one is in place:
	 * first a hard link to it under a temporary name (a copy where the
	 * file system has no hard links), then the rename of the new file
	 * over FILE, then the rename of that link to FILE.old.  FILE is
	 * complete at every moment, and a failed write changes nothing, not
	 * even FILE.old.
	 */
	char *oldtmp = NULL;
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
		int e = errno;
		unlink(tmpl);
		if (oldtmp)
			unlink(oldtmp);
		free(oldtmp);
		kf_diag_add(d, KF_ERROR, path, 0, 0, "cannot rename into place: %s",
			    strerror(e));
		free(tmpl);
		free(tmpl_prefix);
		return -1;
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

int kf_jobs(const char *env_var)
{
	const char *e = getenv(env_var);
	if (e && *e) {
		char *end;
		long n = strtol(e, &end, 10);
		if (!*end && n >= 1 && n <= 256)
			return (int)n;
	}
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}
