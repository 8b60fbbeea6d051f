/*
 * build.h - building a kernel from a configuration kfit made: how the
 * target distribution packages kernels, what the build needs installed on
 * this machine (read from the tree's own packaging scripts and the
 * configuration's options), how many objects it compiles (for a progress
 * bar), the commands that build it out of tree, and the configuration
 * kfit generated last for a tree.  Nothing here prints or exits.
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

/*
 * The configuration kfit generated last, remembered in CACHE/last/ so
 * that build, why, check and diff can use it without -c: one record per
 * tree and ARCH, and one for the latest generation of any tree.
 */
typedef struct kf_last_config {
	char *config;   /* absolute path of the .config written */
	char *profiles; /* space-separated profile names it was generated
			   with (the distribution among them decides the
			   package format), or NULL */
	char *tree;     /* the tree it was generated for, or NULL */
	char *arch;     /* its ARCH, or NULL */
} kf_last_config;

/* Remember CONFIG as generated for TREE and ARCH.  0, or -1 with an
 * error in d. */
int kf_last_config_record(const char *cache, const char *tree, const char *arch,
			  const char *config, const char *profiles, kf_diags *d);
/* What was generated last for TREE and ARCH, or (tree NULL) the latest
 * generation of any tree.  0 and malloc'd strings in *out, or -1 when
 * none is remembered or the remembered file is gone. */
int kf_last_config_lookup(const char *cache, const char *tree, const char *arch,
			  kf_last_config *out);
void kf_last_config_release(kf_last_config *lc);

#endif
