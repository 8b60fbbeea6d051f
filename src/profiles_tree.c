/*
 * profiles_tree.c - the parts of `kfit profiles` that read kernel trees:
 * the tree's kernel version for `show -k TREE` and the symbol-existence
 * check of `lint -k TREE`.  Trees are found as every command finds them
 * (a directory or a linux-source tarball, see include/kfit/tree.h).
 */
#include "cli.h"
#include "profcli.h"

#include "kfit/dotconfig.h"
#include "kfit/profile.h"
#include "kfit/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void progress(const char *msg, void *ctx)
{
	(void)ctx;
	fprintf(stderr, "kfit: %s\n", msg);
}

int profiles_tree_kver(const char *tree, uint32_t *kver)
{
	kf_diags d = KF_DIAGS_INIT;
	char *path = kf_tree_resolve(tree, progress, NULL, &d);
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

int profiles_lint_trees(prof_db *db, const char **trees, size_t ntrees)
{
	if (ntrees) {
		cli_error("lint -k needs the Kconfig engine, which this build does not have yet");
		return KF_EXIT_BAD;
	}
	kf_diags d = KF_DIAGS_INIT;
	size_t nerr = prof_lint(db, NULL, 0, &d);
	print_lint(&d, nerr);
	if (!nerr)
		printf("%zu profiles, %zu renames: ok\n", prof_db_count(db), prof_db_nrenames(db));
	kf_diags_release(&d);
	return nerr ? KF_EXIT_UNMET : KF_EXIT_OK;
}
