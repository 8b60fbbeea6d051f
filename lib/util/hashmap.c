/*
 * hashmap.c - the one hash table (see include/kfit/hashmap.h): linear
 * probing, at most half full, grown by doubling.
 */
#include "kfit/hashmap.h"

#include <stdlib.h>
#include <string.h>

static void place(kf_hindex *h, uint32_t hash, size_t idx1)
{
	size_t mask = h->size - 1;
	size_t s = hash & mask;
	while (h->idx[s])
		s = (s + 1) & mask;
	h->idx[s] = idx1;
	h->hash[s] = hash;
}

size_t kf_hindex_find(const kf_hindex *h, uint32_t hash, kf_hindex_eq *eq,
		      const void *ctx, const void *key)
{
	if (!h->size)
		return KF_HINDEX_NONE;
	size_t mask = h->size - 1;
	for (size_t s = hash & mask; h->idx[s]; s = (s + 1) & mask)
		if (h->hash[s] == hash && eq(ctx, h->idx[s] - 1, key))
			return h->idx[s] - 1;
	return KF_HINDEX_NONE;
}

/* Make room for n entries in all (at most half full). */
static void grow_to(kf_hindex *h, size_t n)
{
	size_t size = h->size ? h->size : 64;
	while (n * 2 > size)
		size *= 2;
	if (size == h->size)
		return;
	kf_hindex old = *h;
	h->size = size;
	h->idx = kf_xcalloc(h->size, sizeof(*h->idx));
	h->hash = kf_xcalloc(h->size, sizeof(*h->hash));
	for (size_t s = 0; s < old.size; s++)
		if (old.idx[s])
			place(h, old.hash[s], old.idx[s]);
	free(old.idx);
	free(old.hash);
}

void kf_hindex_add(kf_hindex *h, uint32_t hash, size_t i)
{
	if ((h->n + 1) * 2 > h->size)
		grow_to(h, h->n + 1);
	place(h, hash, i + 1);
	h->n++;
}

void kf_hindex_reserve(kf_hindex *h, size_t n)
{
	grow_to(h, n > h->n ? n : h->n);
}

void kf_hindex_release(kf_hindex *h)
{
	free(h->idx);
	free(h->hash);
	memset(h, 0, sizeof(*h));
}

static bool key_eq(const void *ctx, size_t i, const void *key)
{
	const kf_strmap *m = ctx;
	return !strcmp(m->keys[i], key);
}

bool kf_strmap_get(const kf_strmap *m, const char *key, size_t *val)
{
	size_t i = kf_hindex_find(&m->h, kf_hash_str(key), key_eq, m, key);
	if (i == KF_HINDEX_NONE)
		return false;
	*val = m->vals[i];
	return true;
}

void kf_strmap_put(kf_strmap *m, const char *key, size_t val)
{
	uint32_t hash = kf_hash_str(key);
	size_t i = kf_hindex_find(&m->h, hash, key_eq, m, key);
	if (i != KF_HINDEX_NONE) {
		m->vals[i] = val;
		return;
	}
	if (m->n + 1 > m->alloc) {
		m->alloc = m->alloc ? m->alloc * 2 : 64;
		m->keys = kf_xrealloc(m->keys, m->alloc * sizeof(*m->keys));
		m->vals = kf_xrealloc(m->vals, m->alloc * sizeof(*m->vals));
	}
	m->keys[m->n] = kf_xstrdup(key);
	m->vals[m->n] = val;
	kf_hindex_add(&m->h, hash, m->n++);
}

void kf_strmap_release(kf_strmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	kf_hindex_release(&m->h);
	memset(m, 0, sizeof(*m));
}
