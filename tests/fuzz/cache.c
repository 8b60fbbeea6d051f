/*
 * cache.c - fuzz target for the cache readers (lib/util/cache.c): any bytes as
 * a cache entry, through kf_cache_unseal (kinds "shell" and "aliases") and
 * kf_cache_read from a file; and the round trip: what kf_cache_seal wraps
 * around the input comes back unchanged, and the sealed entry with any
 * one byte cut off or flipped is refused (length, end marker, CRC-32).
 */
#include "fuzz_common.h"

#include <sys/stat.h>

static void check(bool ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p;
	size_t n;
	const char *why;
	kf_cache_unseal((const char *)data, size, "shell", 2, &p, &n, &why);
	kf_cache_unseal((const char *)data, size, "aliases", 3, &p, &n, &why);

	char *path = fz_write("cache-entry", data, size);
	chmod(path, 0600);
	kf_strbuf got = KF_STRBUF_INIT;
	char *w = NULL;
	kf_cache_read(path, "shell", 2, &got, &w);
	free(w);
	free(path);

	/* round trip */
	kf_strbuf sealed = KF_STRBUF_INIT;
	kf_cache_seal(&sealed, "shell", 2, data, size);
	check(kf_cache_unseal(sealed.buf, sealed.len, "shell", 2, &p, &n, &why) == 0);
	check(n == size && (!size || !memcmp(p, data, size)));
	check(kf_cache_unseal(sealed.buf, sealed.len, "shell", 3, &p, &n, &why) < 0);
	check(kf_cache_unseal(sealed.buf, sealed.len - 1, "shell", 2, &p, &n, &why) < 0);
	uint32_t h = fz_hash(data, size);
	size_t at = sealed.len ? h % sealed.len : 0;
	sealed.buf[at] ^= (char)(1u << (h >> 29));
	check(kf_cache_unseal(sealed.buf, sealed.len, "shell", 2, &p, &n, &why) < 0);
	kf_strbuf_release(&sealed);
	kf_strbuf_release(&got);
	return 0;
}
