/*
 * cmd_kconfig.c - `kfit kconfig [-k DIR] [-a ARCH] [-c FILE] MODE [FILE]`:
 * run one of the kernel's configuration modes with kfit's engine and
 * write the .config exactly as `make ARCH=... KCONFIG_CONFIG=FILE MODE`.
 */
#include "cli.h"
#include "options.h"
#include "kfit/kconfig.h"
#include "kfit/pipeline.h"
#include "kfit/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What `kfit kconfig` is given. */
typedef struct kconfig_args {
	const char *tree;    /* -k */
	const char *arch;    /* -a */
	const char *config;  /* -c */
	const char *timeout; /* --shell-timeout */
	bool no_cache;       /* --no-cache */
	bool no_shell;       /* --no-shell */
	bool verbose;        /* -v */
	const char *mode;    /* MODE */
	const char *file;    /* FILE */
	const char *extra;   /* a word after FILE (an error) */
} kconfig_args;

static int kconfig_word(void *args, const char *word)
{
	kconfig_args *a = args;
	const char **slot = !a->mode ? &a->mode : !a->file ? &a->file : &a->extra;
	if (!*slot)
		*slot = word;
	return 0;
}

/* The modes: the word, FILE after it ("[FILE]": may follow, "FILE":
 * must), the engine's mode. */
#define MODE(word, file, mode, help) \
	{CLI_OPT_WORD, word, NULL, file, 0, NULL, mode, false, false, help}
static const cli_opt kconfig_modes[] = {
	MODE("olddefconfig", NULL, KC_MODE_OLDDEFCONFIG, "update FILE, new symbols get their defaults"),
	MODE("alldefconfig", NULL, KC_MODE_ALLDEFCONFIG, "every symbol at its default"),
	MODE("allnoconfig", NULL, KC_MODE_ALLNOCONFIG, "as many symbols off as possible"),
	MODE("allyesconfig", NULL, KC_MODE_ALLYESCONFIG, "as many symbols built in as possible"),
	MODE("allmodconfig", NULL, KC_MODE_ALLMODCONFIG, "as many symbols modular as possible"),
	MODE("defconfig", "[FILE]", KC_MODE_DEFCONFIG,
	     "start from FILE (default: the arch's defconfig)"),
	MODE("savedefconfig", "FILE", KC_MODE_SAVEDEFCONFIG,
	     "write the minimal config of the .config to FILE"),
	MODE("tinyconfig", NULL, KC_MODE_TINYCONFIG, "the smallest kernel (allnoconfig + tiny.config)"),
	MODE("randconfig", NULL, KC_MODE_RANDCONFIG,
	     "random answers (KCONFIG_SEED, KCONFIG_PROBABILITY)"),
	MODE("listnewconfig", NULL, KC_MODE_LISTNEWCONFIG, "list symbols the .config does not set"),
	MODE("helpnewconfig", NULL, KC_MODE_HELPNEWCONFIG, "the same with each symbol's help"),
	MODE("oldconfig", NULL, KC_MODE_OLDCONFIG,
	     "ask on stdin for the symbols the .config does not\n"
	     "set, exactly as `make oldconfig` (to carry a\n"
	     ".config to a new kernel)"),
	MODE("oldaskconfig", NULL, KC_MODE_OLDASKCONFIG, "ask for every visible symbol (`make config`)"),
	MODE("yes2modconfig", NULL, KC_MODE_YES2MODCONFIG, "answers y become m where possible"),
	MODE("mod2yesconfig", NULL, KC_MODE_MOD2YESCONFIG, "answers m become y where possible"),
	MODE("mod2noconfig", NULL, KC_MODE_MOD2NOCONFIG, "answers m become n where possible"),
	CLI_OPT_TABLE_END,
};
#undef MODE

static const cli_opt kconfig_opts[] = {
	CLI_OPT_KERNEL("-k", "DIR", kconfig_args, tree,
		       "kernel tree or linux-source tarball (default: the current\n"
		       "directory if it is a tree, $KFIT_KERNEL, or the newest\n"
		       "linux-source-*.tar.xz in /usr/src or CACHE/debs/usr/src,\n"
		       "extracted into the cache)"),
	CLI_OPT_ARCH("-a", kconfig_args, arch,
		     "architecture as make takes it (default: the host's, e.g. x86)"),
	CLI_OPT_STR("-c", "--config", "FILE", kconfig_args, config,
		    "the .config to read and write (default: $KCONFIG_CONFIG,\n"
		    "else DIR/.config; for a tree extracted into the cache,\n"
		    "which is never written, CACHE/build/TREE-ARCH/.config)"),
	CLI_OPT_FLAG("--no-cache", kconfig_args, no_cache,
		     "run every $(shell,...) of the Kconfig files afresh"),
	CLI_OPT_FLAG("--no-shell", kconfig_args, no_shell,
		     "never run commands; use cached $(shell,...) results only"),
	CLI_OPT_STR("--shell-timeout", NULL, "SECONDS", kconfig_args, timeout,
		    "kill a $(shell,...) command still running after SECONDS\n"
		    "and fail (exit 2); default: no limit, as the kernel's conf"),
	CLI_OPT_FLAG("-v, --verbose", kconfig_args, verbose,
		     "say why a cached $(shell,...) result was not used"),
	CLI_OPT_HELP_LINE("-h, --help", "this help"),
	CLI_OPT_TABLE_END,
};

const cli_spec cmd_kconfig_spec = {
	.cmd = "kconfig",
	.head = "usage: kfit kconfig [-k DIR] [-a ARCH] [-c FILE] MODE [FILE]\n"
		"\n"
		"Run a configuration mode of the kernel's Kconfig on a kernel tree and\n"
		"write the .config byte for byte as `make MODE` would.\n"
		"\n"
		"modes:\n",
	.modes = kconfig_modes,
	.modes_col = 24,
	.mid = "\n"
	       "options:\n",
	.opts = kconfig_opts,
	.col = 16,
	.tail = "\n"
		"environment: KCONFIG_ALLCONFIG, KCONFIG_SEED, KCONFIG_PROBABILITY,\n"
		"KCONFIG_WARN_UNKNOWN_SYMBOLS, KCONFIG_WERROR, KCONFIG_OVERWRITECONFIG,\n"
		"KCONFIG_CONFIG, CC, LLVM, CROSS_COMPILE behave as with the kernel's make.\n"
		"\n"
		"exit status: 0 success, 1 the kernel's conf would fail, 2 bad usage or input\n",
	.positional = kconfig_word,
};

static bool env_set(const char *name)
{
	const char *v = getenv(name);
	return v && *v;
}

/* The values checked once every option is known: the mode entry, or
 * NULL after an error. */
static const cli_opt *kconfig_check_args(const kconfig_args *a, int *timeout_ms)
{
	if (a->timeout) {
		char *end;
		double sec = strtod(a->timeout, &end);
		if (end == a->timeout || *end || !(sec > 0) || sec > 86400) {
			cli_error("kconfig: --shell-timeout wants seconds (0 < N <= 86400), not '%s'",
				  a->timeout);
			return NULL;
		}
		*timeout_ms = (int)(sec * 1000 + 0.5);
		if (!*timeout_ms)
			*timeout_ms = 1;
	}
	if (!a->mode) {
		cli_error("kconfig: no MODE given");
		cli_spec_usage_short(&cmd_kconfig_spec);
		return NULL;
	}
	const cli_opt *m = cli_spec_mode(&cmd_kconfig_spec, a->mode);
	if (!m) {
		cli_error("kconfig: unknown mode '%s'", a->mode);
		return NULL;
	}
	if (a->extra) {
		cli_error("kconfig: unexpected argument '%s'", a->extra);
		return NULL;
	}
	if (!m->arg && a->file) {
		cli_error("kconfig: %s takes no FILE", a->mode);
		return NULL;
	}
	if (m->arg && m->arg[0] != '[' && !a->file) {
		cli_error("kconfig: %s needs a FILE to write", a->mode);
		return NULL;
	}
	return m;
}

int cmd_kconfig(int argc, char **argv)
{
	kconfig_args a = {0};
	int shell_timeout_ms = 0;
	if (cli_parse(&cmd_kconfig_spec, &a, argc, argv) < 0)
		return KF_EXIT_BAD;
	const cli_opt *m = kconfig_check_args(&a, &shell_timeout_ms);
	if (!m)
		return KF_EXIT_BAD;
	const char *tree_arg = a.tree, *arch = a.arch, *config = a.config, *file = a.file;
	bool no_cache = a.no_cache, no_shell = a.no_shell, verbose = a.verbose;
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
	if (m->value == KC_MODE_DEFCONFIG && !file)
		file = defc = kc_default_defconfig(t);

	kc_run_opts ro = {
		.mode = (kc_mode)m->value,
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
