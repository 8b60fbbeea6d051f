/*
 * util_internal.h - what lib/util's files share and nobody else uses: the
 * read limit, the message for a file over it, the decompressors
 * (compress.c), reading a descriptor and the atomic write (file.c, used
 * by cache.c).
 */
#ifndef KFIT_UTIL_INTERNAL_H
#define KFIT_UTIL_INTERNAL_H

#include "kfit/util.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The most kf_read_file reads or decompresses: kernel configs, Kconfig
 * files and profiles are far smaller, and an endless device (/dev/zero,
 * /dev/full) or a decompression bomb must not eat all memory. */
#define KF_READ_MAX ((size_t)64 << 20)

/* "larger than KF_READ_MAX" for path, in d (file.c). */
void too_large(const char *path, kf_diags *d);
/* Decompress n bytes of gzip/xz into out (compress.c). */
int inflate_gz(const unsigned char *in, size_t n, kf_strbuf *out,
	       const char *path, kf_diags *d);
int inflate_xz(const unsigned char *in, size_t n, kf_strbuf *out,
	       const char *path, kf_diags *d);
/* Read fd into sb up to max bytes (file.c, used by cache.c). */
int read_fd(int fd, kf_strbuf *sb, size_t hint, size_t max);
/* A failed allocation of n bytes: the program's handler, else abort()
 * (util.c). */
_Noreturn void kf_oom(size_t n);
/* The atomic write behind kf_write_file_atomic (file.c). */
int write_atomic(const char *path, const void *data, size_t len,
			bool keep_old, mode_t force_mode, kf_diags *d);

#endif
