/*
 * profiles_tree.c - the parts of `kfit profiles` that read kernel trees:
 * the tree's kernel version for `show -k TREE` and the symbol-existence
 * check of `lint -k TREE`.  Trees are found as every command finds them
 * (a directory or a linux-source tarball, see include/kfit/tree.h).
 */
#include "cli.h"
#include "profcli.h"

#include "kfit/dotconfig.h"
#include "kfit/kconfig.h"
#include "kfit/profile.h"
#include "kfit/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int profiles_tree_kver(const char *tree, uint32_t *kver)
{
	kf_diags d = KF_DIAGS_INIT;
	char *path = kf_tree_find_default(tree, cli_progress, NULL, &d);
	char *v = path ? kf_tree_kernelversion(path, &d) : NULL;
	cli_print_diags(&d);
	kf_diags_release(&d);
	int rc = -1;
	if (v && kf_kver_parse_prefix(v, kver) == 0)
		rc = 0;
	else if (v)
		cli_error("%s: cannot read kernel version '%s'", path, v);
	free(v);
	free(path);
	return rc;
}

static void print_lint(const kf_diags *d, size_t nerr)
{
	cli_print_diags(d);
	if (nerr)
		printf("%zu problem%s found\n", nerr, nerr == 1 ? "" : "s");
}

static bool tree_has(void *ctx, const char *sym)
{
	return kc_sym_find(ctx, sym) != NULL;
}

static bool tree_is_string(void *ctx, const char *sym)
{
	return kf_sym_is_string(ctx, sym);
}

static bool tree_depends(void *ctx, const char *sym, const char *on)
{
	return kc_sym_depends_on(ctx, sym, on);
}

int profiles_lint_trees(prof_db *db, const char **trees, size_t ntrees, const char *arch)
{
	kf_diags d = KF_DIAGS_INIT;
	prof_lint_tree *lt = kf_xcalloc(ntrees ? ntrees : 1, sizeof(*lt));
	kc_tree **kt = kf_xcalloc(ntrees ? ntrees : 1, sizeof(*kt));
	char **paths = kf_xcalloc(ntrees ? ntrees : 1, sizeof(*paths));
	char *cache = NULL;
	int rc = KF_EXIT_BAD;
	if (!arch)
		arch = "x86_64";
	if (ntrees)
		cache = kf_cache_dir(&d);
	for (size_t i = 0; i < ntrees; i++) {
		paths[i] = kf_tree_find_default(trees[i], cli_progress, NULL, &d);
		if (!paths[i])
			goto out;
		kc_load_opts lo = {
			.srctree = paths[i],
			.arch = arch,
			.cache_dir = cache,
		};
		kt[i] = kc_tree_load(&lo, &d);
		if (!kt[i])
			goto out;
		uint32_t kv;
		if (kf_kver_parse_prefix(kc_tree_kernelversion(kt[i]), &kv) < 0) {
			kf_diag_add(&d, KF_ERROR, paths[i], 0, 0, "cannot read the kernel version '%s'",
				    kc_tree_kernelversion(kt[i]));
			goto out;
		}
		lt[i].name = paths[i];
		lt[i].kver = kv;
		/* the profiles' arch names follow the config ("x86_64", "i386") */
		lt[i].arch = !strcmp(arch, "x86") || !strcmp(arch, "i386") ? "i386" : arch;
		lt[i].exists = tree_has;
		lt[i].depends = tree_depends;
		lt[i].is_string = tree_is_string;
		lt[i].ctx = kt[i];
	}
	cli_print_diags(&d);
	kf_diags_release(&d);
	size_t nerr = prof_lint(db, lt, ntrees, &d);
	print_lint(&d, nerr);
	if (!nerr) {
		printf("%zu profiles, %zu renames", prof_db_count(db), prof_db_nrenames(db));
		for (size_t i = 0; i < ntrees; i++) {
			char vb[16];
			printf("%s%s (%s)", i ? ", " : "; checked against ", lt[i].name,
			       kf_kver_format(lt[i].kver, vb));
		}
		printf(": ok\n");
	}
	rc = nerr ? KF_EXIT_UNMET : KF_EXIT_OK;
	kf_diags_release(&d);
	d = (kf_diags)KF_DIAGS_INIT;
out:
	cli_print_diags(&d);
	kf_diags_release(&d);
	for (size_t i = 0; i < ntrees; i++) {
		kc_tree_free(kt[i]);
		free(paths[i]);
	}
	free(kt);
	free(lt);
	free(paths);
	free(cache);
	return rc;
}
