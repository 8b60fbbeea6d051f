/*
 * pipeline.h - kfit's main path as stages a caller runs one after the
 * other and can inspect in between:
 *
 *   tree          find the kernel tree (-k, the current directory,
 *                 $KFIT_KERNEL, an installed linux-source tarball) and
 *                 the cache directory
 *   detect        (optional) scan the tree's device tables, detect the
 *                 machine, add its profiles
 *   requirements  flatten the profiles into one requirement list and add
 *                 detection's hardware requirements to it: one type
 *                 (prof_req) for profiles, local files and hardware alike
 *   load          parse the tree's Kconfig
 *   base          compute the starting configuration (allnoconfig,
 *                 tinyconfig, defconfig or a file) and snapshot it
 *   solve         make the requirements hold (the resolver, kf_generate)
 *   write         write the .config
 *   verify        (optional) run the tree's own make olddefconfig on a copy
 *
 * `kfit generate` runs them all; `why`, `diff`, `kconfig-menu` run tree
 * and load (and `why` requirements); `check` runs requirements.  Every
 * stage returns 0, or -1 with an error in d (solve: 1 when some
 * requirement cannot be met).  Nothing here prints.
 *
 * The pipeline owns its threads: once the tree is found, detect (before
 * it scans the driver sources) or else requirements starts the Kconfig
 * load in a thread of its own, so that what comes before load runs
 * beside the parse; load waits for it, base for the resolver's index it
 * goes on to build, release for anything still running.  The caller
 * only runs the stages (opts.serial: everything on its thread).
 */
#ifndef KFIT_PIPELINE_H
#define KFIT_PIPELINE_H

#include "kfit/detect.h"
#include "kfit/kconfig.h"
#include "kfit/profile.h"
#include "kfit/solve.h"
#include "kfit/tree.h"
#include "kfit/util.h"

typedef struct kf_pipeline_opts {
	const char *tree;          /* -k: tree or tarball, NULL: the search */
	const char *arch;          /* ARCH (the caller's default applied) */
	kf_tree_progress_fn *progress; /* slow steps (extracting, scanning), or
				      NULL */
	void *progress_ctx;        /* passed to progress */
	prof_db *db;               /* profile database (not owned), or NULL */
	const char *const *names;  /* profiles asked for (-p, --local) */
	size_t nnames;             /* how many */
	const char *root;          /* detect: "/" or a snapshot directory */
	int initramfs;             /* PROF_INITRAMFS_*, UNKNOWN: the distro's
				      (or detection's) habit */
	const char *base;          /* allnoconfig, tinyconfig, defconfig or a
				      file; NULL: allnoconfig with a platform
				      profile or detection, else defconfig */
	const char *output;        /* where to write, NULL: TREE/.config (with
				      detection a build directory in the
				      cache) */
	bool check_minimal;        /* solve: list changes that could go back */
	bool force;                /* detect: a root on LUKS, LVM or md with
				      initramfs no is a warning, not an error */
	bool serial;               /* load in the caller's thread when load
				      comes, the resolver's index on its
				      first use (no load ahead) */
} kf_pipeline_opts;

/* A detected profile that the requirements use (for the caller to say). */
typedef struct kf_pipeline_detected {
	const char *name;   /* profile name */
	const char *reason; /* why detection chose it */
} kf_pipeline_detected;

typedef struct kf_pipeline {
	kf_pipeline_opts o;        /* the options (names not copied) */
	/* tree */
	char *tree;                /* the source tree directory */
	char *cache;               /* the cache directory, or NULL */
	/* detect */
	kf_aliasdb *aliases;       /* device tables of the tree */
	kf_detect *det;            /* what detection found, or NULL */
	kf_pipeline_detected *detected; /* profiles detection added */
	size_t ndetected;          /* how many */
	/* requirements */
	const char **names;        /* profiles asked for and detected */
	size_t nnames;             /* how many */
	prof_set *set;             /* the flat requirement list, or NULL */
	int initramfs;             /* effective: option, else detection's */
	const char *fw_modules;    /* the firmware policy, for the summary:
				      drivers that may request firmware built
				      as modules ("iwlwifi, i915"), or NULL */
	const char *fw_embedded;   /* built in with their files in
				      EXTRA_FIRMWARE, or NULL */
	const char *fw_initramfs;  /* boot-critical, built in or in the
				      initramfs, which carries their files */
	const char *fw_missing;    /* boot-critical and built in without an
				      initramfs, none of their files found */
	/* load */
	kc_tree *t;                /* the parsed tree */
	struct kf_load_ahead *ahead; /* the load running in a thread while
				      detect scans (joined by load), or NULL */
	/* base */
	const char *base;          /* the base used (option or default) */
	char *dest;                /* where write puts the .config */
	char *defconfig;           /* the arch's defconfig file, or NULL */
	kf_base *snap;             /* base values, for the solver */
	/* solve */
	kf_gen_result res;         /* changes, unmet, skipped, counts */
	bool solved;               /* res is filled */
} kf_pipeline;

void kf_pipeline_init(kf_pipeline *p, const kf_pipeline_opts *o);
void kf_pipeline_release(kf_pipeline *p);

int kf_pipeline_tree(kf_pipeline *p, kf_diags *d);
int kf_pipeline_detect(kf_pipeline *p, kf_diags *d);
int kf_pipeline_requirements(kf_pipeline *p, kf_diags *d);
int kf_pipeline_load(kf_pipeline *p, kf_diags *d);
int kf_pipeline_base(kf_pipeline *p, kf_diags *d);
/* 0: every applicable `require` holds, 1: some cannot (the best partial
 * result stays in the tree), -1: error. */
int kf_pipeline_solve(kf_pipeline *p, kf_diags *d);
int kf_pipeline_write(kf_pipeline *p, kf_diags *d);
/* 0: the kernel's make olddefconfig changes nothing, 1: it changes the
 * result, -1: it could not be run. */
int kf_pipeline_verify(kf_pipeline *p, kf_diags *d);

/*
 * Read a configuration into the loaded tree as the kernel's conf reads it
 * (defconfig mode from that file: `why`, `diff -k`).  -1 with an error in
 * d when the file does not exist, is a directory or cannot be read.
 */
int kf_pipeline_read_config(kf_pipeline *p, const char *path, kf_diags *d);

/* CACHE/build/TREE-ARCH/.config (the directory created): where a
 * configuration of a tree kfit extracted goes, the cached source tree
 * being never written (malloc'd).  The directory is kf_build_dir's. */
char *kf_pipeline_cache_config(const char *cache, const char *tree, const char *arch);

#endif
