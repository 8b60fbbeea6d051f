/*
 * kc_rand.c - a per-tree pseudo random generator that produces exactly the
 * sequence of glibc's srand()/rand() (the TYPE_3 additive feedback
 * generator), so `randconfig` with KCONFIG_SEED draws the same numbers as
 * the kernel's conf on glibc systems, without touching global state.
 */
#include "kc_internal.h"

void kc_srand(kc_tree *t, unsigned seed)
{
	int32_t *r = t->rand_r;
	if (seed == 0)
		seed = 1;
	r[0] = (int32_t)seed;
	for (int i = 1; i < 31; i++) {
		/* r[i] = (16807 * r[i-1]) % 2147483647 without overflow */
		int32_t hi = r[i - 1] / 127773;
		int32_t lo = r[i - 1] % 127773;
		int32_t word = 16807 * lo - 2836 * hi;
		if (word < 0)
			word += 2147483647;
		r[i] = word;
	}
	for (int i = 31; i < 34; i++)
		r[i] = r[i - 31];
	/* discard the first 310 outputs, as glibc does */
	int i;
	for (i = 34; i < 344; i++)
		r[i] = (int32_t)((uint32_t)r[i - 31] + (uint32_t)r[i - 3]);
	t->rand_i = 344;
	t->rand_seeded = true;
}

int kc_rand(kc_tree *t)
{
	int32_t *r = t->rand_r;
	if (!t->rand_seeded)
		kc_srand(t, 1);
	/* keep a ring of the last 34 values at r[0..33] + window */
	int i = t->rand_i;
	if (i >= 344 + 31) {
		/* slide the window: keep the last 34 values */
		for (int k = 0; k < 34; k++)
			r[k] = r[i - 34 + k];
		i = 34;
	}
	r[i] = (int32_t)((uint32_t)r[i - 31] + (uint32_t)r[i - 3]);
	t->rand_i = i + 1;
	return (int)((uint32_t)r[i] >> 1);
}
