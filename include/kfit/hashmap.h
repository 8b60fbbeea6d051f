/*
 * hashmap.h - the one hash table of libkfit: open addressing with linear
 * probing over an array the caller owns.  The table stores each entry's
 * index and hash, so it never needs the keys to grow; the caller says how
 * a key compares with an entry.  kf_strmap on top of it maps copied
 * strings to numbers.  Hashing is kf_hash_str/kf_hash_mem (util.h), FNV-1a
 * built from kf_hash_step.
 */
#ifndef KFIT_HASHMAP_H
#define KFIT_HASHMAP_H

#include "kfit/util.h"

#include <stdint.h>

#define KF_HINDEX_NONE SIZE_MAX

typedef struct kf_hindex {
	uint32_t *hash; /* per slot: the hash of its entry's key */
	size_t *idx;    /* per slot: the entry's index + 1, 0 when empty */
	size_t size;    /* slots, a power of two (0 before the first add) */
	size_t n;       /* entries */
} kf_hindex;

/* Does entry i of the caller's array have this key? */
typedef bool kf_hindex_eq(const void *ctx, size_t i, const void *key);

/* The index of the entry with this key (hash is its hash), or
 * KF_HINDEX_NONE. */
size_t kf_hindex_find(const kf_hindex *h, uint32_t hash, kf_hindex_eq *eq,
		      const void *ctx, const void *key);
/* Add entry i under hash (find first: keys are not checked here). */
void kf_hindex_add(kf_hindex *h, uint32_t hash, size_t i);
/* Room for n entries in all without growing again: one allocation of the
 * final size (from 2 MB on in huge pages, see kf_xmalloc) instead of one
 * per doubling, each a fresh set of pages to fault in. */
void kf_hindex_reserve(kf_hindex *h, size_t n);
void kf_hindex_release(kf_hindex *h);

/* Strings (copied) to numbers. */
typedef struct kf_strmap {
	kf_hindex h;     /* the index */
	char **keys;     /* keys in insertion order */
	size_t *vals;    /* their values */
	size_t n;        /* entries */
	size_t alloc;    /* capacity of keys and vals */
} kf_strmap;

bool kf_strmap_get(const kf_strmap *m, const char *key, size_t *val);
/* Set key to val (a new key is copied). */
void kf_strmap_put(kf_strmap *m, const char *key, size_t val);
void kf_strmap_release(kf_strmap *m);

#endif
