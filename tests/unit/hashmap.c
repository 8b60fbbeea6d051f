/*
 * hashmap.c - unit tests for lib/util/hashmap.c: kf_strmap keeps every key
 * through many growths, replaces a value in place, misses cleanly, keeps
 * insertion order in its arrays; kf_hindex works with a caller's own key
 * comparison (module names with '-' and '_' alike, as detection uses it).
 *
 * Prints "ok NAME" / "not ok NAME" per case.
 */
#include "kfit/hashmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed;

static void check(bool ok, const char *name)
{
	printf("%s %s\n", ok ? "ok" : "not ok", name);
	failed += !ok;
}

static bool dash_eq(const void *ctx, size_t i, const void *key)
{
	const char *const *names = ctx;
	const char *a = names[i], *b = key;
	for (; *a && *b; a++, b++)
		if ((*a == '-' ? '_' : *a) != (*b == '-' ? '_' : *b))
			return false;
	return !*a && !*b;
}

static uint32_t dash_hash(const char *s)
{
	uint32_t h = KF_HASH_INIT;
	for (; *s; s++)
		h = kf_hash_step(h, (unsigned char)(*s == '-' ? '_' : *s));
	return h;
}

int main(void)
{
	kf_strmap m = {0};
	char key[32];
	for (size_t i = 0; i < 5000; i++) {
		snprintf(key, sizeof(key), "k%zu", i);
		kf_strmap_put(&m, key, i * 3);
	}
	bool all = m.n == 5000;
	for (size_t i = 0; i < 5000 && all; i++) {
		size_t v;
		snprintf(key, sizeof(key), "k%zu", i);
		all = kf_strmap_get(&m, key, &v) && v == i * 3 && !strcmp(m.keys[i], key);
	}
	check(all, "strmap-5000-keys-in-order");
	size_t v = 0;
	kf_strmap_put(&m, "k7", 1);
	check(m.n == 5000 && kf_strmap_get(&m, "k7", &v) && v == 1, "strmap-replace");
	check(!kf_strmap_get(&m, "k5000", &v) && !kf_strmap_get(&m, "", &v), "strmap-miss");
	kf_strmap_release(&m);
	check(!kf_strmap_get(&m, "k1", &v), "strmap-empty-after-release");

	const char *names[] = {"virtio_net", "snd-hda-intel", "e1000e"};
	kf_hindex h = {0};
	for (size_t i = 0; i < 3; i++)
		kf_hindex_add(&h, dash_hash(names[i]), i);
	check(kf_hindex_find(&h, dash_hash("virtio-net"), dash_eq, names, "virtio-net") == 0 &&
		      kf_hindex_find(&h, dash_hash("snd_hda_intel"), dash_eq, names,
				     "snd_hda_intel") == 1 &&
		      kf_hindex_find(&h, dash_hash("e1000"), dash_eq, names, "e1000") ==
			      KF_HINDEX_NONE,
	      "hindex-custom-key");
	check(kf_hash_str("abc") == kf_hash_mem("abc", 3) && kf_hash_str("") == KF_HASH_INIT,
	      "hash-str-equals-mem");
	kf_hindex_release(&h);

	/* reserve: one table of the final size, entries kept across it */
	kf_hindex r = {0};
	kf_hindex_reserve(&r, 1000);
	size_t size = r.size;
	check(size >= 2000 && r.n == 0 && kf_hindex_find(&r, 1, dash_eq, names, "x") ==
		      KF_HINDEX_NONE,
	      "hindex-reserve-empty");
	for (size_t i = 0; i < 3; i++)
		kf_hindex_add(&r, dash_hash(names[i]), i);
	kf_hindex_reserve(&r, 2); /* fewer than it holds: no change */
	check(r.size == size && r.n == 3, "hindex-reserve-no-shrink");
	kf_hindex_reserve(&r, 100000);
	bool kept = r.size >= 200000 && r.n == 3;
	for (size_t i = 0; i < 3; i++)
		kept &= kf_hindex_find(&r, dash_hash(names[i]), dash_eq, names, names[i]) == i;
	check(kept, "hindex-reserve-rehashes");
	size = r.size;
	for (size_t i = 3; i < 1000; i++)
		kf_hindex_add(&r, (uint32_t)i * 2654435761u, i);
	check(r.size == size && r.n == 1000, "hindex-reserve-no-growth-after");
	kf_hindex_release(&r);
	return failed ? 1 : 0;
}
