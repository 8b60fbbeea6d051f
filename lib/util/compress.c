/*
 * compress.c - gzip and xz decompression for kf_read_file, bounded by KF_READ_MAX
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

int inflate_gz(const unsigned char *in, size_t n, kf_strbuf *out,
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

int inflate_xz(const unsigned char *in, size_t n, kf_strbuf *out,
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
