/*
 * util.c - allocation that cannot fail, diagnostics, hashing and kf_jobs,
 * shared by all of libkfit (the arena and strbuf: buf.c; files: file.c;
 * decompression: compress.c; the cache: cache.c).  See
 * include/kfit/util.h for the contracts.
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

_Noreturn void kf_oom(size_t n)
{
	if (oom_fn)
		oom_fn(n);
	abort();
}

void *kf_xmalloc(size_t n)
{
	void *p = alloc_big(n);
	if (!p)
		kf_oom(n);
	return p;
}

void *kf_xcalloc(size_t n, size_t sz)
{
	if (sz && n > SIZE_MAX / sz)
		kf_oom(SIZE_MAX);
	size_t len = n * sz;
	if (len < HUGE_EXTENT) {
		void *p = calloc(n ? n : 1, sz ? sz : 1);
		if (!p)
			kf_oom(len);
		return p;
	}
	void *p = alloc_big(len);
	if (!p)
		kf_oom(len);
	return memset(p, 0, len);
}

void *kf_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		kf_oom(n);
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
