/*
 * buf.c - the arena and the growable string buffer (kf_arena_*, kf_strbuf_*)
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
			kf_oom(2 * map);
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
			kf_oom(map);
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
