/*
 * kconfig.h - the Kconfig engine: load a kernel tree's Kconfig (with its
 * preprocessor and $(shell,...) cache), evaluate symbols exactly as the
 * kernel's scripts/kconfig does, read and write .config files, and run the
 * configuration modes of `conf`.
 *
 * One kc_tree owns everything loaded from one tree (one arena); several
 * trees may be loaded in one process.  Nothing here prints or exits:
 * problems are returned in a kf_diags list.
 */
#ifndef KFIT_KCONFIG_H
#define KFIT_KCONFIG_H

#include "kfit/util.h"

typedef struct kc_tree kc_tree;
typedef struct kc_sym kc_sym;

typedef struct kc_load_opts {
	const char *srctree;   /* kernel source tree (absolute path) */
	const char *arch;      /* ARCH as make takes it: x86, x86_64, arm64... */
	const char *cache_dir; /* where $(shell,...) results are cached, or NULL */
	bool no_cache;         /* run every $(shell,...) afresh */
	bool no_shell;         /* never run a command: cached values only */
} kc_load_opts;

/* Load and parse the tree's Kconfig.  NULL on a fatal error (in d). */
kc_tree *kc_tree_load(const kc_load_opts *o, kf_diags *d);
void kc_tree_free(kc_tree *t);

/* Symbol by name (without CONFIG_ prefix), or NULL when the tree has none. */
kc_sym *kc_sym_find(kc_tree *t, const char *name);

/* KERNELVERSION of the tree, e.g. "6.1.192". */
const char *kc_tree_kernelversion(const kc_tree *t);

#endif
