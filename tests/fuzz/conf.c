/*
 * conf.c - fuzz target for the engine's .config reader (kc_conf.c): the
 * input is a .config (or defconfig) read into a small fixed tree that has
 * every symbol type, ranges, a choice, selects and a string, then the
 * values are computed and the .config text written (to memory).
 *
 * The tree's Makefile says 6.1 or 6.12 (V1/V2 choice semantics) and the
 * input is read as the .config (olddefconfig) or as a defconfig, both
 * chosen from the input's hash.
 */
#include "fuzz_common.h"
#include "kfit/kconfig.h"

static const char tree_kconfig[] =
	"mainmenu \"fuzz\"\n"
	"config MODULES\n\tbool \"modules\"\n\tmodules\n\tdefault y\n"
	"config A\n\tbool \"a\"\n\tdefault y\n"
	"config B\n\ttristate \"b\"\n\tdepends on A\n\tselect C\n"
	"config C\n\ttristate\n"
	"config D\n\ttristate \"d\"\n\timply B\n"
	"config N\n\tint \"n\"\n\trange 1 100\n\tdefault 10\n"
	"config N2\n\tint \"n2\"\n\tdepends on A\n"
	"config H\n\thex \"h\"\n\trange 0x10 0xff\n\tdefault 0x20\n"
	"config H2\n\thex \"h2\"\n"
	"config S\n\tstring \"s\"\n\tdefault \"x\"\n"
	"menu \"m\"\n\tdepends on A\n"
	"config M1\n\tbool \"m1\"\n"
	"endmenu\n"
	"choice\n\tprompt \"pick\"\n\tdefault P2\n"
	"config P1\n\tbool \"p1\"\n"
	"config P2\n\tbool \"p2\"\n"
	"config P3\n\tbool \"p3\"\n\tdepends on B\n"
	"endchoice\n"
	"config HIDDEN\n\tbool\n\tdefault y if P1\n"
	"config OPT\n\tbool \"opt\" if A\n\tdefault HIDDEN\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const trees[] = {"t61", "t612"};
	static bool ready;
	if (!ready) {
		fz_makefile("t61", 6, 1, 0);
		fz_makefile("t612", 6, 12, 0);
		free(fz_write("t61/Kconfig", tree_kconfig, sizeof(tree_kconfig) - 1));
		free(fz_write("t612/Kconfig", tree_kconfig, sizeof(tree_kconfig) - 1));
		ready = true;
	}
	uint32_t h = fz_hash(data, size);
	const char *tree = trees[h % 2];
	char *cfg = fz_write("input.config", data, size);
	char *srctree = kf_xasprintf("%s/%s", fz_scratch(), tree);

	kf_diags d = KF_DIAGS_INIT;
	kc_load_opts lo = {
		.srctree = srctree,
		.arch = "x86_64",
		.shell_fn = fz_shell,
	};
	kc_tree *t = kc_tree_load(&lo, &d);
	if (!t) {
		/* the fixed tree always loads: anything else is a bug */
		for (size_t i = 0; i < d.n; i++)
			fprintf(stderr, "%s\n", d.v[i].msg);
		abort();
	}
	bool as_defconfig = (h / 2) % 2;
	kc_run_opts ro = {
		.mode = as_defconfig ? KC_MODE_DEFCONFIG : KC_MODE_OLDDEFCONFIG,
		.config = as_defconfig ? "/dev/null" : cfg,
		.file = cfg,
		.warn_unknown = true,
	};
	kf_strbuf out = KF_STRBUF_INIT;
	if (kc_compute(t, &ro, &out) == 0)
		kc_config_text(t, &out);
	kf_strbuf_release(&out);
	kc_tree_free(t);
	kf_strbuf msg = KF_STRBUF_INIT;
	for (size_t i = 0; i < d.n; i++)
		kf_diag_format(&d.v[i], &msg);
	kf_strbuf_release(&msg);
	kf_diags_release(&d);
	free(srctree);
	free(cfg);
	return 0;
}
