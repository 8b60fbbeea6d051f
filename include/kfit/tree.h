/*
 * tree.h - find the kernel source tree a command works on: an explicit
 * directory or tarball, the current directory, $KFIT_KERNEL, or the newest
 * Debian linux-source tarball in /usr/src or CACHE/debs/usr/src (where
 * scripts/fetch-kernel-debs.sh unpacks the packages Debian 12's suites do
 * not carry), extracted once into kfit's cache.
 *
 * Cache layout (shared with scripts/kernel-tree.sh, keep them in step):
 *
 *   CACHE/trees/NAME-KEY/         a finished extraction, renamed into place
 *   CACHE/trees/NAME-KEY.lock     flock()ed by whoever extracts
 *   CACHE/trees/NAME-KEY.tmp/     extraction in progress (stale if no lock)
 *
 * NAME is the tarball's file name without its .tar.* suffix; KEY is
 * kf_hash_str("SIZE:MTIME:INODE") of the tarball as 8 hex digits, so a new
 * package version is extracted afresh.
 *
 * Nothing here prints or exits; problems go to the kf_diags list.
 */
#ifndef KFIT_TREE_H
#define KFIT_TREE_H

#include "kfit/util.h"

/* Called before a long step, e.g. "extracting T into D ..." */
typedef void kf_tree_progress_fn(const char *msg, void *ctx);

/* How many directories kf_tree_find searches for tarballs, at most. */
#define KF_TREE_SRC_DIRS 4

/* Where kf_tree_find looks, in this order; NULL members are skipped. */
typedef struct kf_tree_search {
	const char *explicit_path;     /* -k: a tree directory or a tarball */
	const char *cwd;               /* tried when it is a kernel tree */
	const char *env_kernel;        /* $KFIT_KERNEL: directory or tarball */
	/* searched for linux-source-*.tar.*, NULL-terminated; on equal
	 * versions the earlier directory wins */
	const char *src_dirs[KF_TREE_SRC_DIRS + 1];
	const char *cache_dir;         /* kfit cache; NULL: kf_cache_dir() */
	kf_tree_progress_fn *progress; /* told about extraction, or NULL */
	void *ctx;                     /* passed to progress */
} kf_tree_search;

/*
 * The tree a command works on, as a malloc'd absolute path: explicit_path,
 * else the current directory when it is a kernel tree, else $KFIT_KERNEL,
 * else the newest linux-source-*.tar.* by version (7.3 > 6.12 > 6.1 > 5.10)
 * in /usr/src and CACHE/debs/usr/src (extracted into the cache).
 * NULL with an error in d when there is none.
 */
char *kf_tree_find_default(const char *explicit_path, kf_tree_progress_fn *progress,
			   void *ctx, kf_diags *d);

/* kf_tree_find_default with every place to look given explicitly. */
char *kf_tree_find(const kf_tree_search *s, kf_diags *d);

/*
 * Extract a kernel source tarball (.tar.xz, .tar.gz, .tgz, .tar.bz2, .tar)
 * into CACHE/trees once, safely against concurrent kfit processes, and
 * return the tree inside it (the archive's single top directory).
 */
char *kf_tree_extract(const char *tarball, const char *cache_dir,
		      kf_tree_progress_fn *progress, void *ctx, kf_diags *d);

/* The newest linux-source-VERSION.tar.* in dir by version, or NULL. */
char *kf_tree_newest_tarball(const char *dir);
/* The same over a NULL-terminated list; the earlier dir wins a tie. */
char *kf_tree_newest_tarball_in(const char *const *dirs);

/* True when dir has a Kconfig, a Makefile and scripts/kconfig/. */
bool kf_tree_is_kernel(const char *dir);

/* Whether tree is one kfit (or scripts/kernel-tree.sh) extracted into a
 * cache, whichever cache: CACHE/trees/NAME-KEY/TOP beside
 * CACHE/trees/NAME-KEY.lock.  Such a tree is shared by every later run on
 * its tarball (keyed on the tarball alone), so nothing writes into it. */
bool kf_tree_is_extracted(const char *tree);

/* True when path's name ends in a tarball suffix kfit can extract. */
bool kf_tree_is_tarball_name(const char *path);

/*
 * KERNELVERSION of a tree as its top Makefile computes it from VERSION,
 * PATCHLEVEL, SUBLEVEL and EXTRAVERSION, e.g. "6.1.192" or "6.12.0-rc3".
 * malloc'd; NULL with an error in d.
 */
char *kf_tree_kernelversion(const char *srctree, kf_diags *d);

/* Compare two dotted version strings numerically ("6.12" > "6.1"). */
int kf_version_cmp(const char *a, const char *b);

#endif
