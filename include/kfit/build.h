/*
 * build.h - building a kernel from a configuration kfit made: how the
 * target distribution packages kernels, what the build needs installed on
 * this machine (read from the tree's own packaging scripts and the
 * configuration's options), how many objects it compiles (for a progress
 * bar), the commands that build it out of tree and where (the build
 * plan).  Nothing here prints or exits.
 */
#ifndef KFIT_BUILD_H
#define KFIT_BUILD_H

#include "kfit/dotconfig.h"
#include "kfit/util.h"

#include <stdbool.h>
#include <stddef.h>

/* How the kernel is packaged: the kernel's own package targets. */
typedef enum kf_pkg_format {
	KF_PKG_AUTO,  /* from the target distribution (or this machine's) */
	KF_PKG_DEB,   /* make bindeb-pkg: Debian, Ubuntu and derivatives */
	KF_PKG_RPM,   /* make binrpm-pkg: Fedora, RHEL/CentOS, openSUSE */
	KF_PKG_PLAIN, /* make, modules_install and the image into a staging dir */
} kf_pkg_format;

/* "deb", "rpm", "plain" (or "auto"). */
const char *kf_pkg_format_name(kf_pkg_format f);
/* Parse a name kf_pkg_format_name gives; -1 for anything else. */
int kf_pkg_format_parse(const char *s, kf_pkg_format *f);
/* The format a distribution packages kernels in, from os-release's ID and
 * ID_LIKE (either may be NULL): deb, rpm, else plain. */
kf_pkg_format kf_pkg_format_for_os(const char *id, const char *id_like);
/* The format for a distro profile name ("debian-12", "fedora-40", "arch"),
 * KF_PKG_AUTO when the name is no distribution kfit knows. */
kf_pkg_format kf_pkg_format_for_profile(const char *name);

/* Which package manager names the packages of this (the build) machine. */
typedef enum kf_host_family {
	KF_HOST_OTHER, /* neither: programs and headers are looked for */
	KF_HOST_DEB,   /* dpkg: Debian package names, Build-Depends checked */
	KF_HOST_RPM,   /* rpm: Fedora/openSUSE package names */
} kf_host_family;

/* One thing the build needs on this machine. */
typedef struct kf_build_need {
	char *what;    /* the program, header or package relation it needs */
	char *package; /* the package to install on this host, or NULL */
	char *why;     /* what in the tree or the configuration needs it */
	bool present;  /* whether this machine has it */
} kf_build_need;

typedef struct kf_build_needs {
	kf_build_need *v; /* in the order found, one per package */
	size_t n;         /* how many */
	size_t alloc;     /* capacity of v */
	size_t nmissing;  /* how many are not present */
} kf_build_needs;

typedef struct kf_build_in {
	const char *tree;            /* the kernel source tree */
	const char *srcarch;         /* arch/ directory name (x86, arm64) */
	const kf_dotconfig *config;  /* the configuration to build */
	kf_pkg_format format;        /* deb, rpm or plain (not auto) */
	kf_host_family host;         /* this machine's package manager */
	const char *cc;              /* the compiler ($CC), NULL: gcc */
	const char *cross;           /* CROSS_COMPILE (aarch64-linux-gnu-),
					NULL or "": a native build */
} kf_build_in;

/* This machine's package manager (dpkg, rpm, or neither). */
kf_host_family kf_build_host_family(void);

/*
 * What building in->config from in->tree in in->format needs, each checked
 * on this machine: the kernel's build tools, what options of the
 * configuration add (objtool's libelf, signing's OpenSSL, BTF's pahole,
 * depmod), the packaging tools, and for deb on a dpkg machine every
 * Build-Depends of the tree's own scripts/package/mkdebian (the check
 * dpkg-buildpackage makes).  Returns 0, or -1 with an error in d.
 */
int kf_build_needs_check(const kf_build_in *in, kf_build_needs *out, kf_diags *d);
void kf_build_needs_release(kf_build_needs *n);

/*
 * About how many objects (.c and .S files) a build of config compiles:
 * the kbuild Makefiles from the top directories down, counting obj-y,
 * obj-m and obj-$(CONFIG_X) entries whose option is y or m, composite
 * objects by their parts and enabled subdirectories recursively.  An
 * estimate for a progress bar (conditional blocks are counted as taken).
 */
size_t kf_build_count_objects(const char *tree, const char *srcarch,
			      const kf_dotconfig *config);

/* Whether a line make printed is kbuild's report of compiling one object
 * ("  CC      kernel/fork.o", "  CC [M]  ...", "  AS      ..."). */
bool kf_build_line_is_object(const char *line);

/* What a build is asked to do (kf_build_plan). */
typedef struct kf_build_plan_in {
	const char *tree;        /* the kernel source tree */
	const char *cache;       /* the cache directory (the default build
				    directory is below it) */
	const char *arch;        /* ARCH */
	const char *objdir;      /* -O as given (relative to the current
				    directory), NULL: the default */
	const kf_dotconfig *config; /* the configuration (MODULES) */
	kf_pkg_format format;    /* asked for, or KF_PKG_AUTO */
	const char *profiles;    /* the profiles the configuration was
				    generated with (space-separated), or NULL */
	int jobs;                /* make -jN, 0: no -j */
	const char *cross;       /* CROSS_COMPILE for make, NULL or "": none */
} kf_build_plan_in;

/* How a kernel is built: where, with which commands, into what. */
typedef struct kf_build_plan {
	char *objdir;            /* the build directory, make's O= (absolute):
				    -O, else CACHE/build/TREE-ARCH/obj */
	char *outdir;            /* objdir's parent: the packages of make
				    bindeb-pkg land there */
	char *stage;             /* outdir/install: plain's staging directory
				    (modules_install, boot/) */
	kf_pkg_format format;    /* deb, rpm or plain */
	const char *format_why;  /* "--format", "the distribution it was
				    generated for", "this machine's
				    distribution" */
	char **make;             /* the build: make -C TREE O=OBJ ARCH=A -jN
				    [bindeb-pkg|binrpm-pkg], NULL-ended */
	char **install;          /* plain with MODULES=y: make ...
				    modules_install INSTALL_MOD_PATH=STAGE,
				    else NULL */
	char *packages;          /* where the packages appear: outdir (deb),
				    OBJ/rpmbuild/RPMS/ARCH (rpm), NULL (plain) */
	char *cross;             /* CROSS_COMPILE every make gets, or NULL */
} kf_build_plan;

/* Whether prog is an executable in PATH (or a path to one). */
bool kf_have_program(const char *prog);

/* The GNU triplet of the cross compiler a build for ARCH (a kernel ARCH
 * or arch/ directory name) needs on a machine whose `uname -m` is machine,
 * as Debian's and Fedora's gcc-TRIPLET packages name it
 * ("aarch64-linux-gnu"; CROSS_COMPILE is it with a '-' after): NULL when
 * both are the same arch/ directory (x86 on x86_64 builds with -m32), or
 * for an architecture without such a compiler. */
const char *kf_build_cross_triplet(const char *arch, const char *machine);

/* Plan a build: the format (asked, else the distribution the profiles
 * name, else this machine's os-release), the build directory (refused
 * inside the source tree) and the commands.  0, or -1 with an error in d. */
int kf_build_plan_make(const kf_build_plan_in *in, kf_build_plan *out, kf_diags *d);
void kf_build_plan_release(kf_build_plan *p);

/* After a plain build: the image (make -s image_name), System.map and
 * .config copied into STAGE/boot as vmlinuz-REL, System.map-REL and
 * config-REL.  The paths written (and STAGE/lib/modules/REL when modules
 * were installed) go to *paths (malloc'd, NULL-ended).  0, or -1 with an
 * error in d. */
int kf_build_stage_plain(const kf_build_plan *p, const char *tree, const char *arch,
			 char ***paths, kf_diags *d);
/* Free a NULL-ended list of malloc'd strings. */
void kf_strv_free(char **v);

/* The build directory of a tree and ARCH in the cache, not created:
 * CACHE/build/TREE-ARCH (TREE: the tree directory's last component).
 * generate --detect writes its .config there, build builds in its obj/. */
char *kf_build_dir(const char *cache, const char *tree, const char *arch);

#endif
