/*
 * cmd_kconfig.c - `kfit kconfig [-k DIR] [-a ARCH] [-c FILE] MODE [FILE]`:
 * run one of the kernel's configuration modes with kfit's engine and
 * write the .config exactly as `make ARCH=... KCONFIG_CONFIG=FILE MODE`.
 */
#include "cli.h"
#include "kfit/kconfig.h"
#include "kfit/pipeline.h"
#include "kfit/tree.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char cmd_kconfig_usage[] =
	"usage: kfit kconfig [-k DIR] [-a ARCH] [-c FILE] MODE [FILE]\n"
	"\n"
	"Run a configuration mode of the kernel's Kconfig on a kernel tree and\n"
	"write the .config byte for byte as `make MODE` would.\n"
	"\n"
	"modes:\n"
	"  olddefconfig          update FILE, new symbols get their defaults\n"
	"  alldefconfig          every symbol at its default\n"
	"  allnoconfig           as many symbols off as possible\n"
	"  allyesconfig          as many symbols built in as possible\n"
	"  allmodconfig          as many symbols modular as possible\n"
	"  defconfig [FILE]      start from FILE (default: the arch's defconfig)\n"
	"  savedefconfig FILE    write the minimal config of the .config to FILE\n"
	"  tinyconfig            the smallest kernel (allnoconfig + tiny.config)\n"
	"  randconfig            random answers (KCONFIG_SEED, KCONFIG_PROBABILITY)\n"
	"  listnewconfig         list symbols the .config does not set\n"
	"  helpnewconfig         the same with each symbol's help\n"
	"  oldconfig             ask on stdin for the symbols the .config does not\n"
	"                        set, exactly as `make oldconfig` (to carry a\n"
	"                        .config to a new kernel)\n"
	"  oldaskconfig          ask for every visible symbol (`make config`)\n"
	"  yes2modconfig         answers y become m where possible\n"
	"  mod2yesconfig         answers m become y where possible\n"
	"  mod2noconfig          answers m become n where possible\n"
	"\n"
	"options:\n"
	"  -k DIR        kernel tree or linux-source tarball (default: the current\n"
	"                directory if it is a tree, $KFIT_KERNEL, or the newest\n"
	"                linux-source-*.tar.xz in /usr/src or CACHE/debs/usr/src,\n"
	"                extracted into the cache)\n"
	"  -a ARCH       architecture as make takes it (default: the host's, e.g. x86)\n"
	"  -c FILE       the .config to read and write (default: $KCONFIG_CONFIG,\n"
	"                else DIR/.config; for a tree extracted into the cache,\n"
	"                which is never written, CACHE/build/TREE-ARCH/.config)\n"
	"  --no-cache    run every $(shell,...) of the Kconfig files afresh\n"
	"  --no-shell    never run commands; use cached $(shell,...) results only\n"
	"  --shell-timeout SECONDS\n"
	"                kill a $(shell,...) command still running after SECONDS\n"
	"                and fail (exit 2); default: no limit, as the kernel's conf\n"
	"  -v, --verbose say why a cached $(shell,...) result was not used\n"
	"  -h, --help    this help\n"
	"\n"
	"environment: KCONFIG_ALLCONFIG, KCONFIG_SEED, KCONFIG_PROBABILITY,\n"
	"KCONFIG_WARN_UNKNOWN_SYMBOLS, KCONFIG_WERROR, KCONFIG_OVERWRITECONFIG,\n"
	"KCONFIG_CONFIG, CC, LLVM, CROSS_COMPILE behave as with the kernel's make.\n"
	"\n"
	"exit status: 0 success, 1 the kernel's conf would fail, 2 bad usage or input\n";

static const struct {
	const char *name; /* mode word */
	kc_mode mode;     /* engine mode */
	int file_arg;     /* 0 none, 1 optional, 2 required */
} modes[] = {
	{"olddefconfig", KC_MODE_OLDDEFCONFIG, 0},
	{"alldefconfig", KC_MODE_ALLDEFCONFIG, 0},
	{"allnoconfig", KC_MODE_ALLNOCONFIG, 0},
	{"allyesconfig", KC_MODE_ALLYESCONFIG, 0},
	{"allmodconfig", KC_MODE_ALLMODCONFIG, 0},
	{"defconfig", KC_MODE_DEFCONFIG, 1},
	{"savedefconfig", KC_MODE_SAVEDEFCONFIG, 2},
	{"tinyconfig", KC_MODE_TINYCONFIG, 0},
	{"randconfig", KC_MODE_RANDCONFIG, 0},
	{"listnewconfig", KC_MODE_LISTNEWCONFIG, 0},
	{"helpnewconfig", KC_MODE_HELPNEWCONFIG, 0},
	{"oldconfig", KC_MODE_OLDCONFIG, 0},
	{"oldaskconfig", KC_MODE_OLDASKCONFIG, 0},
	{"yes2modconfig", KC_MODE_YES2MODCONFIG, 0},
	{"mod2yesconfig", KC_MODE_MOD2YESCONFIG, 0},
	{"mod2noconfig", KC_MODE_MOD2NOCONFIG, 0},
};

static bool env_set(const char *name)
{
	const char *v = getenv(name);
	return v && *v;
}

int cmd_kconfig(int argc, char **argv)
{
	const char *tree_arg = NULL, *arch = NULL, *config = NULL;
	bool no_cache = false, no_shell = false, verbose = false;
	int shell_timeout_ms = 0;
	const char *timeout_arg = NULL;
	static const struct option opts[] = {
		{"no-cache", no_argument, NULL, 'C'},
		{"no-shell", no_argument, NULL, 'S'},
		{"shell-timeout", required_argument, NULL, 'T'},
		{"verbose", no_argument, NULL, 'v'},
		{NULL, 0, NULL, 0},
	};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+k:a:c:v", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			tree_arg = optarg;
			break;
		case 'a':
			arch = optarg;
			break;
		case 'c':
			config = optarg;
			break;
		case 'C':
			no_cache = true;
			break;
		case 'S':
			no_shell = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'T':
			timeout_arg = optarg; /* checked after the other options */
			break;
		default:
			cli_usage_short(cmd_kconfig_usage);
			return KF_EXIT_BAD;
		}
	}
	if (timeout_arg) {
		char *end;
		double sec = strtod(timeout_arg, &end);
		if (end == timeout_arg || *end || !(sec > 0) || sec > 86400) {
			cli_error("kconfig: --shell-timeout wants seconds (0 < N <= 86400), not '%s'",
				  timeout_arg);
			return KF_EXIT_BAD;
		}
		shell_timeout_ms = (int)(sec * 1000 + 0.5);
		if (!shell_timeout_ms)
			shell_timeout_ms = 1;
	}
	if (optind >= argc) {
		cli_error("kconfig: no MODE given");
		cli_usage_short(cmd_kconfig_usage);
		return KF_EXIT_BAD;
	}
	const char *mode_word = argv[optind++];
	int mi = -1;
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(modes[i].name, mode_word))
			mi = (int)i;
	if (mi < 0) {
		cli_error("kconfig: unknown mode '%s'", mode_word);
		return KF_EXIT_BAD;
	}
	const char *file = optind < argc ? argv[optind++] : NULL;
	if (optind < argc) {
		cli_error("kconfig: unexpected argument '%s'", argv[optind]);
		return KF_EXIT_BAD;
	}
	if (modes[mi].file_arg == 0 && file) {
		cli_error("kconfig: %s takes no FILE", mode_word);
		return KF_EXIT_BAD;
	}
	if (modes[mi].file_arg == 2 && !file) {
		cli_error("kconfig: %s needs a FILE to write", mode_word);
		return KF_EXIT_BAD;
	}

	kf_diags d = KF_DIAGS_INIT;
	int rc = KF_EXIT_BAD;
	char *tree = kf_tree_find_default(tree_arg, cli_progress, NULL, &d);
	char *cache = NULL, *cfg = NULL, *deflist = NULL, *defc = NULL;
	const char *cached = NULL; /* cfg, when it is the cache's build directory */
	kc_tree *t = NULL;
	kf_strbuf out = KF_STRBUF_INIT;
	if (!tree)
		goto done;
	cache = kf_cache_dir(&d);
	if (!cache)
		goto done;
	kc_load_opts lo = {
		.srctree = tree,
		.arch = arch,
		.cache_dir = cache,
		.no_cache = no_cache,
		.no_shell = no_shell,
		.shell_timeout_ms = shell_timeout_ms,
		.verbose = verbose,
	};
	t = kc_tree_load(&lo, &d);
	if (t)
		fputs(kc_tree_output(t), stdout);
	if (!t)
		goto done;

	if (config)
		cfg = kf_xstrdup(config);
	else if (env_set("KCONFIG_CONFIG"))
		cfg = kf_xstrdup(getenv("KCONFIG_CONFIG"));
	else if (kf_tree_is_extracted(tree)) {
		/* a cached source tree is never written: where generate writes */
		cfg = kf_pipeline_cache_config(cache, tree, arch ? arch : cli_machine_arch());
		cached = cfg;
	}
	else
		cfg = kf_xasprintf("%s/.config", tree);

	deflist = getenv("KCONFIG_DEFCONFIG_LIST")
			  ? kf_xstrdup(getenv("KCONFIG_DEFCONFIG_LIST"))
			  : kc_default_defconfig_list(t);
	if (modes[mi].mode == KC_MODE_DEFCONFIG && !file)
		file = defc = kc_default_defconfig(t);

	kc_run_opts ro = {
		.mode = modes[mi].mode,
		.config = cfg,
		.file = file,
		.allconfig = getenv("KCONFIG_ALLCONFIG"),
		.defconfig_list = deflist,
		.warn_unknown = getenv("KCONFIG_WARN_UNKNOWN_SYMBOLS") != NULL,
		.werror = getenv("KCONFIG_WERROR") != NULL,
		.overwrite = env_set("KCONFIG_OVERWRITECONFIG"),
		.warn_changed_input = getenv("KCONFIG_WARN_CHANGED_INPUT") &&
				      *getenv("KCONFIG_WARN_CHANGED_INPUT"),
		.seed = getenv("KCONFIG_SEED"),
		.probability = getenv("KCONFIG_PROBABILITY"),
	};
	cli_ask ask;
	cli_ask_init(&ask, &d, false);
	if (ro.mode == KC_MODE_OLDCONFIG || ro.mode == KC_MODE_OLDASKCONFIG) {
		/* prompts and warnings as they come, answers from stdin */
		ro.io = &ask.io;
		fflush(stdout);
	}
	int r = kc_run(t, &ro, &out);
	if (ro.io) {
		fputs(kf_strbuf_str(&out), stdout);
		cli_ask_print_diags(&ask);
	} else {
		cli_print_diags(&d);
		fputs(kf_strbuf_str(&out), stdout);
	}
	kf_diags_release(&d);
	if (cached && r == 0 && ro.mode != KC_MODE_LISTNEWCONFIG &&
	    ro.mode != KC_MODE_HELPNEWCONFIG && ro.mode != KC_MODE_SAVEDEFCONFIG)
		fprintf(stderr, "kfit: configuration written to %s (the cached source tree is never written)\n",
			cached);
	rc = r == 0 ? KF_EXIT_OK : r == 1 ? KF_EXIT_UNMET : KF_EXIT_BAD;
	goto cleanup;
done:
	cli_print_diags(&d);
	kf_diags_release(&d);
cleanup:
	kf_strbuf_release(&out);
	if (t && getenv("KFIT_DEBUG_MEM")) {
		kf_load_stats st;
		kf_tree_load_stats(t, &st);
		fprintf(stderr, "arena: %zu bytes, %u symbols, %d shell runs, %d cached\n",
			st.arena_bytes, st.symbols, st.shell_runs, st.shell_hits);
	}
	kc_tree_free(t);
	free(tree);
	free(cache);
	free(cfg);
	free(deflist);
	free(defc);
	return rc;
}
