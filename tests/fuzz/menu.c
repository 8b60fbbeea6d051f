/*
 * menu.c - fuzz target for `kfit kconfig-menu`'s emitter
 * (lib/generate/distro_menu.c): the input is a profile file; every distro,
 * platform and feature profile it defines becomes a menu option computed
 * on a small fixed 6.1 tree, and the Distro menu and the KCONFIG_ALLCONFIG
 * fragment are written.  Then the oracle: the menu, sourced from the same
 * tree, must load without a single error and without running anything
 * (profile text is data: a $(shell,...) reaching the preprocessor aborts),
 * and every fragment line must be a comment or a CONFIG_ line without
 * control characters.
 */
#include "fuzz_common.h"
#include "kfit/menu.h"

static const char tree_kconfig[] =
	"config MODULES\n\tbool \"modules\"\n\tmodules\n"
	"config BLK_DEV\n\tbool \"block devices\"\n"
	"config EXT4_FS\n\ttristate \"ext4\"\n\tdepends on BLK_DEV\n"
	"config NET\n\tbool \"net\"\n"
	"config INET\n\tbool \"inet\"\n\tdepends on NET\n"
	"config AUDIT\n\tbool \"audit\"\n\tdepends on NET\n"
	"config APPARMOR\n\tbool \"apparmor\"\n\tselect AUDIT\n"
	"config CMDLINE\n\tstring \"command line\"\n"
	"config HZ\n\tint \"hz\"\n\trange 100 1000\n\tdefault 250\n"
	"config PHYS_START\n\thex \"phys start\"\n\tdefault 0x1000000\n"
	"choice\n\tprompt \"compression\"\nconfig GZIP\n\tbool \"gzip\"\n"
	"config XZ\n\tbool \"xz\"\nendchoice\n"
	"config HIDDEN\n\tbool\n\tdefault y if NET\n";

/* $(shell,...) while loading: fuzz_common.h's stand-in, counted.  The
 * tree itself runs a few (the compiler's version); the menu must add
 * none. */
static char *count_shell(void *ctx, const char *cmd)
{
	(*(size_t *)ctx)++;
	return fz_shell(NULL, cmd);
}

static kc_tree *load(const char *dir, size_t *nshell, kf_diags *d)
{
	char *srctree = kf_xasprintf("%s/%s", fz_scratch(), dir);
	kc_load_opts lo = {.srctree = srctree, .arch = "x86_64", .shell_fn = count_shell,
			   .shell_ctx = nshell};
	kc_tree *t = kc_tree_load(&lo, d);
	free(srctree);
	return t;
}

static void check_fragment(const kf_strbuf *f)
{
	const char *s = kf_strbuf_str(f);
	for (const char *l = s; *l;) {
		const char *nl = strchr(l, '\n');
		const char *e = nl ? nl : l + strlen(l);
		if (strncmp(l, "#", 1) && strncmp(l, "CONFIG_", 7)) {
			fprintf(stderr, "fuzz-menu: fragment line is neither comment nor CONFIG_: %.*s\n",
				(int)(e - l), l);
			abort();
		}
		for (const char *c = l; c < e; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f) {
				fprintf(stderr, "fuzz-menu: control character in the fragment\n");
				abort();
			}
		l = nl ? nl + 1 : e;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static kc_tree *tree;
	static kf_base *base;
	static size_t tree_shells; /* $(shell,...) calls of the tree alone */
	/* the tree reports into the diagnostics it was loaded with for as
	 * long as it lives (the solver's evaluation warns there) */
	static kf_diags d0 = KF_DIAGS_INIT;
	if (!tree) {
		fz_makefile("mt", 6, 1, 0);
		free(fz_write("mt/Kconfig", tree_kconfig, sizeof(tree_kconfig) - 1));
		fz_makefile("mo", 6, 1, 0);
		kf_strbuf top = KF_STRBUF_INIT;
		kf_strbuf_addstr(&top, tree_kconfig);
		kf_strbuf_addstr(&top, "source \"distro/Kconfig\"\n");
		free(fz_write("mo/Kconfig", top.buf, top.len));
		kf_strbuf_release(&top);
		size_t ns = 0;
		tree = load("mt", &ns, &d0);
		/* the oracle tree with an empty menu: its own shell calls */
		free(fz_write("mo/distro/Kconfig", "", 0));
		kc_tree *empty = load("mo", &tree_shells, &d0);
		kc_tree_free(empty);
		if (!tree || !empty || d0.nerr) {
			fprintf(stderr, "fuzz-menu: the fixed tree does not load\n");
			abort();
		}
		kc_run_opts ro = {.mode = KC_MODE_ALLNOCONFIG, .config = "/dev/null"};
		kf_strbuf junk = KF_STRBUF_INIT;
		if (kc_compute(tree, &ro, &junk) != 0)
			abort();
		kf_strbuf_release(&junk);
		base = kf_base_snapshot(tree);
	}
	kf_diags_release(&d0);
	kf_diags d = KF_DIAGS_INIT;
	prof_db *db = prof_db_new();
	if (prof_db_add_text(db, "fuzz.kfit", (const char *)data, size, &d) == 0 &&
	    prof_db_count(db) <= 16) {
		/* every profile (all), or the first one by name (its inherited
		 * releases come along), picked from the input */
		size_t n = prof_db_count(db);
		const char *first = n ? prof_db_get(db, 0)->name : NULL;
		bool all = fz_hash(data, size) % 2 == 0 || !first;
		kf_menu *m = kf_menu_new(db, &first, all ? 0 : 1, all, &d);
		if (!d.nerr && kf_menu_compute(m, tree, base, "x86_64", &d) == 0) {
			kf_strbuf k = KF_STRBUF_INIT, f = KF_STRBUF_INIT;
			kf_menu_kconfig(m, &k);
			kf_menu_allconfig(m, &f);
			check_fragment(&f);
			free(fz_write("mo/distro/Kconfig", k.buf, k.len));
			kf_diags od = KF_DIAGS_INIT;
			size_t ns = 0;
			kc_tree *ot = load("mo", &ns, &od);
			if (ns != tree_shells) {
				fprintf(stderr, "fuzz-menu: the Distro menu ran %zu $(shell,...)\n%s\n",
					ns - tree_shells, kf_strbuf_str(&k));
				abort();
			}
			if (!ot || od.nerr) {
				kf_strbuf msg = KF_STRBUF_INIT;
				for (size_t i = 0; i < od.n; i++)
					kf_diag_format(&od.v[i], &msg);
				fprintf(stderr, "fuzz-menu: the Distro menu does not load:\n%s\n%s\n",
					kf_strbuf_str(&msg), kf_strbuf_str(&k));
				abort();
			}
			kc_tree_free(ot);
			kf_diags_release(&od);
			kf_strbuf_release(&k);
			kf_strbuf_release(&f);
		}
		kf_menu_free(m);
	}
	kf_strbuf msg = KF_STRBUF_INIT;
	for (size_t i = 0; i < d.n; i++)
		kf_diag_format(&d.v[i], &msg);
	kf_strbuf_release(&msg);
	kf_diags_release(&d);
	prof_db_free(db);
	return 0;
}
