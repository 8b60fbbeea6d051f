/*
 * kconfig.c - fuzz target for the Kconfig lexer, parser, preprocessor and
 * everything a loaded tree goes through after parsing (menu finalization,
 * the dependency-loop check, symbol evaluation, writing the .config text).
 *
 * The input is the top-level Kconfig of a scratch tree whose Makefile says
 * 5.4, 6.1 or 6.12 (older syntax and V1/V2 choice semantics), chosen from
 * the input's hash, as is the mode run afterwards.  $(shell,...) never
 * runs: fuzz_common.h's stand-in answers.  The input may source
 * "sub/Kconfig" (a small fixed file) or itself.
 */
#include "fuzz_common.h"
#include "kfit/kconfig.h"

static const char sub_kconfig[] =
	"config SUB_A\n\tbool \"sub a\"\n\tdefault y\n"
	"config SUB_B\n\ttristate \"sub b\"\n\tdepends on SUB_A\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct {
		const char *dir; /* tree dir in the scratch dir */
		int v[3];        /* its version */
	} trees[] = {{"t54", {5, 4, 0}}, {"t61", {6, 1, 0}}, {"t612", {6, 12, 0}}};
	static bool ready;
	if (!ready) {
		for (size_t i = 0; i < 3; i++) {
			fz_makefile(trees[i].dir, trees[i].v[0], trees[i].v[1],
				    trees[i].v[2]);
			char rel[64];
			snprintf(rel, sizeof(rel), "%s/sub/Kconfig", trees[i].dir);
			free(fz_write(rel, sub_kconfig, sizeof(sub_kconfig) - 1));
		}
		ready = true;
	}
	uint32_t h = fz_hash(data, size);
	size_t ti = h % 3;
	char rel[64];
	snprintf(rel, sizeof(rel), "%s/Kconfig", trees[ti].dir);
	free(fz_write(rel, data, size));
	char *srctree = kf_xasprintf("%s/%s", fz_scratch(), trees[ti].dir);

	kf_diags d = KF_DIAGS_INIT;
	kc_load_opts lo = {
		.srctree = srctree,
		.arch = "x86_64",
		.shell_fn = fz_shell,
	};
	kc_tree *t = kc_tree_load(&lo, &d);
	if (t) {
		static const kc_mode modes[] = {
			KC_MODE_OLDDEFCONFIG, KC_MODE_ALLYESCONFIG,
			KC_MODE_ALLMODCONFIG, KC_MODE_ALLNOCONFIG,
			KC_MODE_RANDCONFIG, KC_MODE_LISTNEWCONFIG,
		};
		kc_run_opts ro = {
			.mode = modes[(h / 3) % (sizeof(modes) / sizeof(modes[0]))],
			.config = "/dev/null",
			.seed = "0x1234",
			.warn_unknown = true,
		};
		kf_strbuf out = KF_STRBUF_INIT;
		if (kc_compute(t, &ro, &out) == 0)
			kc_config_text(t, &out);
		kf_strbuf_release(&out);
		kc_tree_free(t);
	}
	kf_strbuf msg = KF_STRBUF_INIT;
	for (size_t i = 0; i < d.n; i++)
		kf_diag_format(&d.v[i], &msg);
	kf_strbuf_release(&msg);
	kf_diags_release(&d);
	free(srctree);
	return 0;
}
