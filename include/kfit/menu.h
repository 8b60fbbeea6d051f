/*
 * menu.h - the in-tree "Distro" Kconfig menu `kfit kconfig-menu` writes:
 * a choice of distribution family, each release an option that selects
 * what its profile needs (reasons as comments), platform and feature
 * options beside it, and a KCONFIG_ALLCONFIG fragment for the values
 * select cannot set.  Profile text is data: everything copied from a
 * profile into Kconfig is escaped so the kernel's conf never expands or
 * runs it (a "$(shell,...)" in a title stays text).
 *
 *   kf_menu *m = kf_menu_new(db, names, n, false, &d);   // pick options
 *   kf_menu_compute(m, tree, allnoconfig_snapshot, "x86_64", &d);
 *   kf_menu_kconfig(m, &kconfig_text);
 *   kf_menu_free(m);
 */
#ifndef KFIT_MENU_H
#define KFIT_MENU_H

#include "kfit/kconfig.h"
#include "kfit/profile.h"
#include "kfit/solve.h"
#include "kfit/util.h"

typedef struct kf_menu kf_menu;

/* The options for the profiles names[0..n) (and the releases a wanted
 * distro inherits, so the menu can chain them), or for every distro,
 * platform and feature profile when all is set.  A name that is no such
 * profile is an error in d.  Never NULL. */
kf_menu *kf_menu_new(prof_db *db, const char *const *names, size_t n, bool all, kf_diags *d);
/* How many options the menu has. */
size_t kf_menu_count(const kf_menu *m);
/* Compute what each option selects from base (allnoconfig of t) for ARCH.
 * Returns 0, or -1 when a profile does not flatten (errors in d);
 * requirements the tree cannot meet are warnings in d. */
int kf_menu_compute(kf_menu *m, kc_tree *t, const kf_base *base, const char *arch,
		    kf_diags *d);
/* Append the menu's Kconfig file (after kf_menu_compute). */
void kf_menu_kconfig(const kf_menu *m, kf_strbuf *out);
/* Append the KCONFIG_ALLCONFIG fragment that turns on the options of the
 * names given to kf_menu_new, with the values select cannot set. */
void kf_menu_allconfig(const kf_menu *m, kf_strbuf *out);
void kf_menu_free(kf_menu *m);

#endif
