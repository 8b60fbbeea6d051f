/*
 * cmd_kconfig_menu.c - `kfit kconfig-menu`: the RFC's literal output, an
 * in-tree "Distro" Kconfig menu (made by lib/generate/distro_menu.c,
 * include/kfit/menu.h): options, loading the tree, writing the file (never
 * into a tree kfit extracted itself), --install and --allconfig.
 */
#include "cli.h"
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

const char cmd_kconfig_menu_usage[] =
	"usage: kfit kconfig-menu [-k TREE] [-a ARCH] [-p PROFILE...|--all]\n"
	"                         [-o DIR] [--install] [--allconfig]\n"
	"\n"
	"Write DIR/Kconfig (default TREE/distro/Kconfig) with a \"Distro\" menu:\n"
	"choose a distribution and release, platforms and features; each option\n"
	"selects what its profile needs, with the reason as a comment.\n"
	"\n"
	"options:\n"
	"  -k TREE      kernel tree (default as for `kfit kconfig`)\n"
	"  -a ARCH      architecture the selects are computed for (default: this\n"
	"               machine's)\n"
	"  -p PROFILE   a distro, platform or feature profile (repeatable)\n"
	"  --all        every distro, platform and feature profile\n"
	"  -o DIR       where to write Kconfig (default TREE/distro)\n"
	"  --install    also add `source \"distro/Kconfig\"` to the tree's Kconfig\n"
	"               (once)\n"
	"  --allconfig  print a KCONFIG_ALLCONFIG fragment that turns on the\n"
	"               options of the -p profiles plus the values select cannot\n"
	"               set, each with its reason; write nothing\n"
	"\n"
	"exit status: 0 written, 2 bad usage or input (unknown profile, no tree)\n";

int cmd_kconfig_menu(int argc, char **argv)
{
	const char *tree_arg = NULL, *arch = NULL, *outdir = NULL;
	bool all = false, install = false, allconfig = false;
	profcli_opts po;
	memset(&po, 0, sizeof(po));
	for (int i = 1; i < argc; i++) {
		int miss = 0;
		const char *v;
		int taken = profcli_arg(&po, argc, argv, &i);
		if (taken < 0)
			goto usage;
		if (taken)
			continue;
		if ((v = profcli_optval(argc, argv, &i, "-k", "--kernel", &miss)))
			tree_arg = v;
		else if ((v = profcli_optval(argc, argv, &i, "-a", "--arch", &miss)))
			arch = v;
		else if ((v = profcli_optval(argc, argv, &i, "-o", "--output", &miss)))
			outdir = v;
		else if (miss) {
			cli_error("kconfig-menu: %s needs a value", argv[i]);
			goto usage;
		} else if (!strcmp(argv[i], "--all"))
			all = true;
		else if (!strcmp(argv[i], "--install"))
			install = true;
		else if (!strcmp(argv[i], "--allconfig"))
			allconfig = true;
		else {
			cli_unknown_option("kconfig-menu", argv[i]);
			goto usage;
		}
	}
	if (!all && !po.nnames) {
		cli_error("kconfig-menu: give -p PROFILE... or --all");
		goto usage;
	}
	if (!arch) {
		struct utsname u;
		arch = uname(&u) == 0 && !strcmp(u.machine, "aarch64") ? "arm64" : "x86_64";
	}
	prof_db *db = profcli_load(&po);
	/* after loading: -p FILE.kfit names became the profiles it defines */
	const char **wanted = po.names;
	size_t nwanted = po.nnames;
	if (!db) {
		profcli_release(&po);
		return KF_EXIT_BAD;
	}
	int rc = KF_EXIT_BAD;
	kf_diags d = KF_DIAGS_INIT;
	kf_menu *menu = kf_menu_new(db, wanted, nwanted, all, &d);
	/* the options' requirements are weighed from allnoconfig */
	kf_pipeline_opts plo = {.tree = tree_arg, .arch = arch, .progress = cli_progress,
				.base = "allnoconfig", .output = "/dev/null"};
	kf_pipeline p;
	kf_pipeline_init(&p, &plo);
	kc_tree *t = NULL;
	kf_base *base = NULL;
	if (d.nerr)
		goto out;
	if (kf_pipeline_tree(&p, &d) < 0 || kf_pipeline_load(&p, &d) < 0 ||
	    kf_pipeline_base(&p, &d) < 0)
		goto out;
	t = p.t;
	base = p.snap;
	if (kf_menu_compute(menu, t, base, arch, &d) < 0)
		goto out;

	if (allconfig) {
		kf_strbuf f = KF_STRBUF_INIT;
		kf_menu_allconfig(menu, &f);
		fputs(kf_strbuf_str(&f), stdout);
		kf_strbuf_release(&f);
		rc = KF_EXIT_OK;
		goto out;
	}

	/* a tree kfit extracted into a cache is shared by every later run,
	 * keyed on the tarball alone: writing into it would change them all */
	if (kf_tree_is_extracted(p.tree) && (!outdir || install)) {
		kf_diag_add(&d, KF_ERROR, p.tree, 0, 0,
			    "kfit's cached extraction of a tarball: kconfig-menu does not "
			    "write into it%s; give -k a tree of your own%s",
			    install ? " (--install)" : "", install ? "" : ", or -o DIR");
		goto out;
	}
	kf_strbuf k = KF_STRBUF_INIT;
	kf_menu_kconfig(menu, &k);

	char *dir = outdir ? kf_xstrdup(outdir) : kf_xasprintf("%s/distro", p.tree);
	char *path = kf_xasprintf("%s/Kconfig", dir);
	kf_mkdir_p(dir, 0755);
	if (kf_write_file_atomic(path, k.buf, k.len, false, &d) == 0) {
		fprintf(stderr, "kfit: wrote %s (%zu options)\n", path, kf_menu_count(menu));
		rc = KF_EXIT_OK;
	}
	if (rc == KF_EXIT_OK && install) {
		char *top = kf_xasprintf("%s/Kconfig", p.tree);
		kf_strbuf tk = KF_STRBUF_INIT;
		if (kf_read_file(top, &tk, &d) == 0) {
			if (!strstr(kf_strbuf_str(&tk), "source \"distro/Kconfig\"")) {
				if (tk.len && tk.buf[tk.len - 1] != '\n')
					kf_strbuf_addch(&tk, '\n');
				kf_strbuf_addstr(&tk, "\nsource \"distro/Kconfig\"\n");
				if (kf_write_file_atomic(top, tk.buf, tk.len, false, &d) == 0)
					fprintf(stderr, "kfit: added source \"distro/Kconfig\" to %s\n", top);
				else
					rc = KF_EXIT_BAD;
			}
		} else
			rc = KF_EXIT_BAD;
		kf_strbuf_release(&tk);
		free(top);
	}
	free(path);
	free(dir);
	kf_strbuf_release(&k);
out:
	cli_print_diags(&d);
	kf_diags_release(&d);
	kf_menu_free(menu);
	kf_pipeline_release(&p);
	prof_db_free(db);
	profcli_release(&po);
	return rc;
usage:
	profcli_release(&po);
	cli_usage_short(cmd_kconfig_menu_usage);
	return KF_EXIT_BAD;
}
