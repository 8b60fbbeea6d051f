/*
 * lastconfig.h - which configuration a command takes when none is named:
 * the configuration kfit generated last (remembered in CACHE/last/ by the
 * pipeline's write stage, so that build, why, check and diff can use it
 * without -c), a snapshot's running kernel's, the tree's .config or this
 * machine's running kernel's, in that order, each where the command
 * allows it.  Nothing here prints or exits.
 */
#ifndef KFIT_LASTCONFIG_H
#define KFIT_LASTCONFIG_H

#include "kfit/util.h"

#include <stdbool.h>

/*
 * The configuration kfit generated last: one record per tree and ARCH,
 * and one for the latest generation of any tree.
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

/* The running kernel's configuration: /proc/config.gz, else
 * /boot/config-$(uname -r); malloc'd, or NULL when neither exists. */
char *kf_running_config(void);

/* Where a command's configuration comes from. */
typedef enum kf_config_source {
	KF_CONFIG_NONE,     /* none of those allowed exists */
	KF_CONFIG_GIVEN,    /* named on the command line */
	KF_CONFIG_SNAPSHOT, /* the running kernel's of a snapshot (--root) */
	KF_CONFIG_LAST,     /* what generate wrote last */
	KF_CONFIG_TREE,     /* TREE/.config */
	KF_CONFIG_RUNNING,  /* this machine's running kernel's */
} kf_config_source;

/* What a command allows, tried in the order of the fields. */
typedef struct kf_config_want {
	const char *given;       /* the configuration named, or NULL */
	const char *root;        /* a snapshot: its running kernel's (and
				    nothing after it), or NULL */
	const char *root_config; /* that config below root (detection's
				    running_config), NULL: it has none */
	bool last;               /* what generate wrote last ... */
	const char *cache;       /* ... remembered in this cache */
	const char *tree;        /* ... for this tree and arch (NULL: the
				    latest of any tree) */
	const char *arch;        /* ARCH of tree */
	const char *tree_config; /* a tree: its .config, or NULL */
	bool running;            /* the running kernel's */
} kf_config_want;

/* The configuration chosen. */
typedef struct kf_config_choice {
	kf_config_source from; /* where it came from */
	char *path;            /* malloc'd; NULL with KF_CONFIG_NONE */
	char *profiles;        /* KF_CONFIG_LAST: the profiles it was
				  generated with (space-separated), or NULL */
} kf_config_choice;

/* The first of w's sources that exists, in out (also returned). */
kf_config_source kf_config_choose(const kf_config_want *w, kf_config_choice *out);
void kf_config_choice_release(kf_config_choice *c);

#endif
