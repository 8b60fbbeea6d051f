/*
 * cmd_kconfig_menu.c - `kfit kconfig-menu`: the RFC's literal output, an
 * in-tree "Distro" Kconfig menu (made by lib/generate/distro_menu.c,
 * include/kfit/menu.h): options, loading the tree, writing the file (never
 * into a tree kfit extracted itself), --install and --allconfig.
 */
#include "cli.h"
#include "options.h"
#include "profcli.h"
#include "kfit/kconfig.h"
#include "kfit/menu.h"
#include "kfit/pipeline.h"
#include "kfit/tree.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* What `kfit kconfig-menu` is given. */
typedef struct menu_args {
	const char *tree;   /* -k */
	const char *arch;   /* -a */
	const char *outdir; /* -o */
	bool all;           /* --all */
	bool install;       /* --install */
	bool allconfig;     /* --allconfig */
	profcli_opts po;    /* -p (and --local, --profiles) */
} menu_args;

static const cli_opt menu_opts[] = {
	CLI_OPT_KERNEL("-k", "TREE", menu_args, tree, "kernel tree (default as for `kfit kconfig`)"),
	CLI_OPT_ARCH("-a", menu_args, arch,
		     "architecture the selects are computed for (default: this\n"
		     "machine's)"),
	CLI_OPT_PROFILE("-p", "PROFILE", menu_args, po,
			"a distro, platform or feature profile (repeatable)"),
	CLI_OPT_FLAG("--all", menu_args, all, "every distro, platform and feature profile"),
	CLI_OPT_STR("-o", "--output", "DIR", menu_args, outdir,
		    "where to write Kconfig (default TREE/distro)"),
	CLI_OPT_FLAG("--install", menu_args, install,
		     "also add `source \"distro/Kconfig\"` to the tree's Kconfig\n"
		     "(once)"),
	CLI_OPT_FLAG("--allconfig", menu_args, allconfig,
		     "print a KCONFIG_ALLCONFIG fragment that turns on the\n"
		     "options of the -p profiles plus the values select cannot\n"
		     "set, each with its reason; write nothing"),
	CLI_OPT_LOCAL(menu_args, po, NULL),
	CLI_OPT_PROFILES(menu_args, po, NULL),
	CLI_OPT_TABLE_END,
};

const cli_spec cmd_kconfig_menu_spec = {
	.cmd = "kconfig-menu",
	.head = "usage: kfit kconfig-menu [-k TREE] [-a ARCH] [-p PROFILE...|--all]\n"
		"                         [-o DIR] [--install] [--allconfig]\n"
		"\n"
		"Write DIR/Kconfig (default TREE/distro/Kconfig) with a \"Distro\" menu:\n"
		"choose a distribution and release, platforms and features; each option\n"
		"selects what its profile needs, with the reason as a comment.\n"
		"\n"
		"options:\n",
	.opts = menu_opts,
	.col = 15,
	.tail = "\n"
		"exit status: 0 written, 2 bad usage or input (unknown profile, no tree)\n",
	.word_is_option = true,
};

/* --install: `source "distro/Kconfig"` at the end of the tree's Kconfig,
 * once.  0, or -1 with an error in d. */
static int menu_install(const char *tree, kf_diags *d)
{
	char *top = kf_xasprintf("%s/Kconfig", tree);
	kf_strbuf tk = KF_STRBUF_INIT;
	int rc = kf_read_file(top, &tk, d);
	if (rc == 0 && !strstr(kf_strbuf_str(&tk), "source \"distro/Kconfig\"")) {
		if (tk.len && tk.buf[tk.len - 1] != '\n')
			kf_strbuf_addch(&tk, '\n');
		kf_strbuf_addstr(&tk, "\nsource \"distro/Kconfig\"\n");
		rc = kf_write_file_atomic(top, tk.buf, tk.len, false, d);
		if (rc == 0)
			fprintf(stderr, "kfit: added source \"distro/Kconfig\" to %s\n", top);
	}
	kf_strbuf_release(&tk);
	free(top);
	return rc;
}

/* The menu into DIR/Kconfig (and with --install the tree's Kconfig
 * sourcing it): the exit status. */
static int menu_write(const menu_args *a, kf_menu *menu, const char *tree, kf_diags *d)
{
	/* a tree kfit extracted into a cache is shared by every later run,
	 * keyed on the tarball alone: writing into it would change them all */
	if (kf_tree_is_extracted(tree) && (!a->outdir || a->install)) {
		kf_diag_add(d, KF_ERROR, tree, 0, 0,
			    "kfit's cached extraction of a tarball: kconfig-menu does not "
			    "write into it%s; give -k a tree of your own%s",
			    a->install ? " (--install)" : "", a->install ? "" : ", or -o DIR");
		return KF_EXIT_BAD;
	}
	int rc = KF_EXIT_BAD;
	kf_strbuf k = KF_STRBUF_INIT;
	kf_menu_kconfig(menu, &k);
	char *dir = a->outdir ? kf_xstrdup(a->outdir) : kf_xasprintf("%s/distro", tree);
	char *path = kf_xasprintf("%s/Kconfig", dir);
	kf_mkdir_p(dir, 0755);
	if (kf_write_file_atomic(path, k.buf, k.len, false, d) == 0) {
		fprintf(stderr, "kfit: wrote %s (%zu options)\n", path, kf_menu_count(menu));
		rc = KF_EXIT_OK;
	}
	if (rc == KF_EXIT_OK && a->install && menu_install(tree, d) < 0)
		rc = KF_EXIT_BAD;
	free(path);
	free(dir);
	kf_strbuf_release(&k);
	return rc;
}

int cmd_kconfig_menu(int argc, char **argv)
{
	menu_args a = {0};
	if (cli_parse(&cmd_kconfig_menu_spec, &a, argc, argv) < 0) {
		profcli_release(&a.po);
		return KF_EXIT_BAD;
	}
	if (!a.all && !a.po.nnames) {
		cli_error("kconfig-menu: give -p PROFILE... or --all");
		cli_spec_usage_short(&cmd_kconfig_menu_spec);
		profcli_release(&a.po);
		return KF_EXIT_BAD;
	}
	const char *arch = a.arch;
	if (!arch) {
		struct utsname u;
		arch = uname(&u) == 0 && !strcmp(u.machine, "aarch64") ? "arm64" : "x86_64";
	}
	prof_db *db = profcli_load(&a.po);
	if (!db) {
		profcli_release(&a.po);
		return KF_EXIT_BAD;
	}
	int rc = KF_EXIT_BAD;
	kf_diags d = KF_DIAGS_INIT;
	/* after loading: -p FILE.kfit names became the profiles it defines */
	kf_menu *menu = kf_menu_new(db, a.po.names, a.po.nnames, a.all, &d);
	/* the options' requirements are weighed from allnoconfig */
	kf_pipeline_opts plo = {.tree = a.tree, .arch = arch, .progress = cli_progress,
				.base = "allnoconfig", .output = "/dev/null"};
	kf_pipeline p;
	kf_pipeline_init(&p, &plo);
	if (d.nerr || kf_pipeline_tree(&p, &d) < 0 || kf_pipeline_load(&p, &d) < 0 ||
	    kf_pipeline_base(&p, &d) < 0 || kf_menu_compute(menu, p.t, p.snap, arch, &d) < 0)
		goto out;
	if (a.allconfig) {
		kf_strbuf f = KF_STRBUF_INIT;
		kf_menu_allconfig(menu, &f);
		fputs(kf_strbuf_str(&f), stdout);
		kf_strbuf_release(&f);
		rc = KF_EXIT_OK;
	} else
		rc = menu_write(&a, menu, p.tree, &d);
out:
	cli_print_diags(&d);
	kf_diags_release(&d);
	kf_menu_free(menu);
	kf_pipeline_release(&p);
	prof_db_free(db);
	profcli_release(&a.po);
	return rc;
}
