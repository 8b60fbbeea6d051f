/*
 * cmd_conf.c - `kfit conf [-s] [--MODE[=FILE]] KCONFIG`: the kernel's
 * scripts/kconfig/conf command line over kfit's engine, so kfit can stand
 * in for conf (the kernel's Kconfig test suite runs it so; a binary or
 * link named "conf" behaves as `kfit conf`).  Like conf it sees only its
 * environment: srctree, KCONFIG_CONFIG, KCONFIG_ALLCONFIG, ...; nothing
 * is derived from a kernel Makefile.  Also the terminal side of the
 * interactive modes (kc_io on stdin/stdout), shared with `kfit kconfig`.
 */
#include "cli.h"
#include "options.h"
#include "kfit/kconfig.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The kernel whose conf `kfit conf` behaves as when nothing says which
 * (no top Makefile in srctree, no VERSION/KERNELVERSION exported). */
#define CONF_DEFAULT_VERSION "7.3"

/* conf's modes: its long options, one a mode (FILE after "=" where the
 * mode takes one); getopt parses them as the kernel's conf does. */
#define MODE(flag, file, mode, help) \
	{CLI_OPT_SET, flag, NULL, file, 0, NULL, mode, true, false, help}
static const cli_opt conf_modes[] = {
	MODE("--oldaskconfig", NULL, KC_MODE_OLDASKCONFIG, "ask every visible option on stdin"),
	MODE("--oldconfig", NULL, KC_MODE_OLDCONFIG, "ask only the options the .config does not set"),
	MODE("--syncconfig", NULL, KC_MODE_SYNCCONFIG,
	     "oldconfig as the build runs it: silent, and always\n"
	     "writes include/config/auto.conf and friends"),
	MODE("--olddefconfig", NULL, KC_MODE_OLDDEFCONFIG, "new options get their defaults"),
	MODE("--defconfig", "FILE", KC_MODE_DEFCONFIG, "start from FILE, the rest at defaults"),
	MODE("--savedefconfig", "FILE", KC_MODE_SAVEDEFCONFIG, "write the minimal config to FILE"),
	MODE("--allnoconfig", NULL, KC_MODE_ALLNOCONFIG, "as many options off as possible"),
	MODE("--allyesconfig", NULL, KC_MODE_ALLYESCONFIG, "as many options built in as possible"),
	MODE("--allmodconfig", NULL, KC_MODE_ALLMODCONFIG, "as many options modular as possible"),
	MODE("--alldefconfig", NULL, KC_MODE_ALLDEFCONFIG, "every option at its default"),
	MODE("--randconfig", NULL, KC_MODE_RANDCONFIG,
	     "random answers (KCONFIG_SEED, KCONFIG_PROBABILITY)"),
	MODE("--listnewconfig", NULL, KC_MODE_LISTNEWCONFIG, "list the options the .config does not set"),
	MODE("--helpnewconfig", NULL, KC_MODE_HELPNEWCONFIG, "the same with each option's help"),
	MODE("--yes2modconfig", NULL, KC_MODE_YES2MODCONFIG, "answers y become m where possible"),
	MODE("--mod2yesconfig", NULL, KC_MODE_MOD2YESCONFIG, "answers m become y where possible"),
	MODE("--mod2noconfig", NULL, KC_MODE_MOD2NOCONFIG, "answers m become n where possible"),
	CLI_OPT_TABLE_END,
};
#undef MODE
enum { CONF_NMODES = sizeof(conf_modes) / sizeof(conf_modes[0]) - 1 };

static const cli_opt conf_opts[] = {
	CLI_OPT_HELP_LINE("-s, --silent", "no \"configuration written to ...\" messages"),
	CLI_OPT_HELP_LINE("-h, --help", "this help (conf's own when called as conf)"),
	CLI_OPT_TABLE_END,
};

const cli_spec cmd_conf_spec = {
	.cmd = "conf",
	.head = "usage: kfit conf [-s] [--MODE[=FILE]] KCONFIG\n"
		"\n"
		"The kernel's scripts/kconfig/conf, command line and output, over kfit's\n"
		"engine: install kfit (or a link to it) as scripts/kconfig/conf, named conf,\n"
		"and it behaves as `kfit conf`.  KCONFIG is the top Kconfig file, read from\n"
		"$srctree (default: the current directory).  Like conf it reads only its\n"
		"environment, as the kernel's make exports it; the semantics follow the\n"
		"kernel version of $srctree/Makefile, else $VERSION.$PATCHLEVEL, else\n"
		"$KERNELVERSION, else " CONF_DEFAULT_VERSION ".  One mode: the last one given, or\n"
		"--oldaskconfig.\n"
		"\n"
		"mode options:\n",
	.modes = conf_modes,
	.modes_col = 24,
	.mid = "\n"
	       "options:\n",
	.opts = conf_opts,
	.col = 24,
	.tail = "\n"
		"environment: srctree, KCONFIG_CONFIG (default .config in the current\n"
		"directory), KCONFIG_DEFCONFIG_LIST, KCONFIG_ALLCONFIG, KCONFIG_SEED,\n"
		"KCONFIG_PROBABILITY, KCONFIG_WARN_UNKNOWN_SYMBOLS, KCONFIG_WERROR,\n"
		"KCONFIG_OVERWRITECONFIG, KCONFIG_AUTOCONFIG, KCONFIG_AUTOHEADER,\n"
		"KCONFIG_RUSTCCFG, and whatever the Kconfig files read ($(ARCH),\n"
		"$(CC), ...).  Interactive answers are read from stdin and echoed when\n"
		"stdin and stdout are not both terminals.\n"
		"\n"
		"exit status: 0 success, 1 failure (as the kernel's conf)\n",
};

/* ---- the terminal side of kc_io ---- */

static bool cli_ask_read_line(void *ctx, kf_strbuf *line, size_t max)
{
	(void)ctx;
	char *buf = kf_xcalloc(1, max + 1);
	bool ok = fgets(buf, (int)max + 1, stdin) != NULL;
	if (ok)
		kf_strbuf_addstr(line, buf);
	free(buf);
	return ok;
}

/* Print the diagnostics added since the last call: conf's messages
 * ("configuration written to ...") on stdout unless silent, the rest on
 * stderr. */
void cli_ask_print_diags(cli_ask *c)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	for (; c->printed < c->d->n; c->printed++) {
		const kf_diag *dg = &c->d->v[c->printed];
		/* conf_message()'s "#\n# ...\n#" blocks: conf prints them on
		 * stdout, kfit kconfig on stderr */
		bool message = c->conf_format && dg->sev == KF_NOTE && dg->raw &&
			       !strncmp(dg->raw, "#\n# ", 4);
		if (message && c->silent)
			continue;
		kf_strbuf_reset(&sb);
		if (c->conf_format && !dg->raw && dg->file && dg->line > 0)
			/* the kernel's "Kconfig:5: message" (pperror, zconf_error) */
			kf_strbuf_addf(&sb, "%s:%d: %s", dg->file, dg->line, dg->msg);
		else if (c->conf_format && !dg->raw && !dg->file)
			kf_strbuf_addstr(&sb, dg->msg);
		else
			kf_diag_format(dg, &sb);
		fflush(stdout);
		fprintf(message ? stdout : stderr, "%s\n", kf_strbuf_str(&sb));
	}
	kf_strbuf_release(&sb);
	fflush(stdout);
}

static void cli_ask_flush(void *ctx, kf_strbuf *out)
{
	cli_ask *c = ctx;
	cli_ask_print_diags(c);
	fputs(kf_strbuf_str(out), stdout);
	fflush(stdout);
	kf_strbuf_reset(out);
}

void cli_ask_init(cli_ask *c, kf_diags *d, bool silent)
{
	memset(c, 0, sizeof(*c));
	c->d = d;
	c->silent = silent;
	c->io.read_line = cli_ask_read_line;
	c->io.flush = cli_ask_flush;
	c->io.ctx = c;
	c->io.echo = !(isatty(0) && isatty(1));
}

/* ---- conf's command line ---- */

/* conf's usage text (7.x names the argument and explains it) */
static void conf_usage(const char *progname, int major)
{
	if (major >= 7)
		printf("Usage: %s [options] kconfig_file\n", progname);
	else
		printf("Usage: %s [options] <kconfig-file>\n", progname);
	printf("\n");
	printf("Generic options:\n");
	printf("  -h, --help              Print this message and exit.\n");
	printf("  -s, --silent            Do not print log.\n");
	printf("\n");
	printf("Mode options:\n");
	printf("  --listnewconfig         List new options\n");
	printf("  --helpnewconfig         List new options and help text\n");
	printf("  --oldaskconfig          Start a new configuration using a line-oriented program\n");
	printf("  --oldconfig             Update a configuration using a provided .config as base\n");
	printf("  --syncconfig            Similar to oldconfig but generates configuration in\n"
	       "                          include/{generated/,config/}\n");
	printf("  --olddefconfig          Same as oldconfig but sets new symbols to their default value\n");
	printf("  --defconfig <file>      New config with default defined in <file>\n");
	printf("  --savedefconfig <file>  Save the minimal current configuration to <file>\n");
	printf("  --allnoconfig           New config where all options are answered with no\n");
	printf("  --allyesconfig          New config where all options are answered with yes\n");
	printf("  --allmodconfig          New config where all options are answered with mod\n");
	printf("  --alldefconfig          New config with all symbols set to default\n");
	printf("  --randconfig            New config with random answer to all options\n");
	printf("  --yes2modconfig         Change answers from yes to mod if possible\n");
	printf("  --mod2yesconfig         Change answers from mod to yes if possible\n");
	printf("  --mod2noconfig          Change answers from mod to no if possible\n");
	printf("  (If none of the above is given, --oldaskconfig is the default)\n");
	if (major >= 7) {
		printf("\n");
		printf("Arguments:\n");
		printf("  kconfig_file            Top-level Kconfig file.\n");
	}
}

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);
	return v ? v : def;
}

static bool env_set(const char *name)
{
	const char *v = getenv(name);
	return v && *v;
}

/* The version for a srctree without a top Makefile (the kernel's make
 * exports VERSION, PATCHLEVEL, SUBLEVEL and KERNELVERSION); NULL when the
 * engine reads the Makefile.  *major: the major version either way. */
static char *conf_version(const char *srctree, int *major)
{
	char *mk = kf_xasprintf("%s/Makefile", srctree);
	kf_strbuf buf = KF_STRBUF_INIT;
	kf_diags tmp = KF_DIAGS_INIT;
	bool has = kf_exists(mk) && kf_read_file(mk, &buf, &tmp) == 0;
	free(mk);
	kf_diags_release(&tmp);
	if (has) {
		const char *v = strstr(kf_strbuf_str(&buf), "VERSION =");
		*major = v && (v == buf.buf || v[-1] == '\n') ? atoi(v + 9) : 0;
		kf_strbuf_release(&buf);
		return NULL;
	}
	kf_strbuf_release(&buf);
	char *r;
	if (env_set("VERSION") && env_set("PATCHLEVEL"))
		r = kf_xasprintf("%s.%s.%s", getenv("VERSION"), getenv("PATCHLEVEL"),
				 env_or("SUBLEVEL", "0"));
	else if (env_set("KERNELVERSION"))
		r = kf_xstrdup(getenv("KERNELVERSION"));
	else
		r = kf_xstrdup(CONF_DEFAULT_VERSION);
	*major = atoi(r);
	return r;
}

/* What conf is given. */
typedef struct conf_args {
	kc_mode mode;     /* the last mode given, else oldaskconfig */
	const char *file; /* its FILE */
	bool silent;      /* -s */
	const char *kconfig; /* KCONFIG */
} conf_args;

/* conf's command line, with getopt as conf has it (its messages): 0, or
 * -1 after the usage was printed. */
static int conf_parse(int argc, char **argv, int major, conf_args *a)
{
	struct option opts[CONF_NMODES + 3];
	int mode_opt = -1;
	for (int i = 0; i < CONF_NMODES; i++)
		opts[i] = (struct option){conf_modes[i].flags + 2,
					  conf_modes[i].arg ? required_argument : no_argument,
					  &mode_opt, i};
	opts[CONF_NMODES] = (struct option){"help", no_argument, NULL, 'h'};
	opts[CONF_NMODES + 1] = (struct option){"silent", no_argument, NULL, 's'};
	opts[CONF_NMODES + 2] = (struct option){NULL, 0, NULL, 0};
	*a = (conf_args){.mode = KC_MODE_OLDASKCONFIG};
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "hs", opts, NULL)) != -1) {
		if (c == 's') {
			a->silent = true;
		} else if (c == 0) {
			a->mode = (kc_mode)conf_modes[mode_opt].value;
			if (conf_modes[mode_opt].arg)
				a->file = optarg;
		} else { /* -h, or getopt has said what it did not understand */
			conf_usage(argv[0], major);
			return -1;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "%s: Kconfig file missing\n", argv[0]);
		conf_usage(argv[0], major);
		return -1;
	}
	a->kconfig = argv[optind];
	/* syncconfig runs during the build: no "configuration written" */
	if (a->mode == KC_MODE_SYNCCONFIG)
		a->silent = true;
	return 0;
}

/* auto.conf and friends after a successful run: when missing, and always
 * for syncconfig (the build's own run).  The exit status. */
static int conf_autoconf(kc_tree *t, kc_mode mode, kf_diags *d)
{
	int kv[2] = {0, 0};
	sscanf(kc_tree_kernelversion(t), "%d.%d", &kv[0], &kv[1]);
	bool autoconf = kv[0] > 6 || (kv[0] == 6 && kv[1] >= 1);
	if (mode == KC_MODE_SAVEDEFCONFIG || mode == KC_MODE_LISTNEWCONFIG ||
	    mode == KC_MODE_HELPNEWCONFIG)
		return 0;
	kc_autoconf_opts ao = {
		.autoconfig = env_or("KCONFIG_AUTOCONFIG", "include/config/auto.conf"),
		.autoheader = env_or("KCONFIG_AUTOHEADER", "include/generated/autoconf.h"),
		.rustccfg = env_or("KCONFIG_RUSTCCFG", "include/generated/rustc_cfg"),
		.overwrite = mode == KC_MODE_SYNCCONFIG,
	};
	if (!autoconf) {
		if (mode == KC_MODE_SYNCCONFIG) {
			cli_error("conf: --syncconfig of a kernel before 6.1 is not supported");
			return 1;
		}
	} else if (kc_write_autoconf(t, &ao) && mode == KC_MODE_SYNCCONFIG) {
		kf_diag_raw(d, KF_ERROR, "\n*** Error during sync of the configuration.\n");
		return 1;
	}
	return 0;
}

int cmd_conf(int argc, char **argv)
{
	int rc = 1;
	char *cwd = getcwd(NULL, 0);
	if (!cwd) {
		perror("getcwd");
		return 1;
	}
	/* conf opens files relative to $srctree, or to the current directory */
	const char *st = getenv("srctree");
	char *srctree;
	if (!st || !*st)
		srctree = kf_xstrdup(cwd);
	else if (st[0] != '/')
		srctree = kf_xasprintf("%s/%s", cwd, st);
	else
		srctree = kf_xstrdup(st);
	int major = 0;
	char *version = conf_version(srctree, &major);

	conf_args a;
	if (conf_parse(argc, argv, major, &a) < 0)
		goto usage;
	const char *kconfig = a.kconfig, *file = a.file;
	kc_mode mode = a.mode;
	bool silent = a.silent;

	kf_diags d = KF_DIAGS_INIT;
	cli_ask ask;
	cli_ask_init(&ask, &d, silent);
	ask.conf_format = true;
	kf_strbuf out = KF_STRBUF_INIT;
	kc_tree *t = NULL;
	char *cache = kf_cache_dir(&d);
	kc_load_opts lo = {
		.srctree = srctree,
		.cache_dir = cache,
		.kconfig = kconfig,
		.version = version,
		.conf_errors = true,
		.plain_env = true,
		.seed_first = mode == KC_MODE_RANDCONFIG,
		.seed = getenv("KCONFIG_SEED"),
		.failed_out = &out,
	};
	t = kc_tree_load(&lo, &d);
	if (t)
		fputs(kc_tree_output(t), stdout);
	if (!t) {
		cli_ask_print_diags(&ask);
		/* $(info,...) before the error, at conf's exit */
		fputs(kf_strbuf_str(&out), stdout);
		goto done;
	}
	const char *cfg = env_or("KCONFIG_CONFIG", ".config");
	if (!*cfg)
		cfg = ".config";
	kc_run_opts ro = {
		.mode = mode,
		.config = cfg,
		.file = file,
		.allconfig = getenv("KCONFIG_ALLCONFIG"),
		.defconfig_list = getenv("KCONFIG_DEFCONFIG_LIST"),
		.warn_unknown = getenv("KCONFIG_WARN_UNKNOWN_SYMBOLS") != NULL,
		.werror = getenv("KCONFIG_WERROR") != NULL,
		.overwrite = env_set("KCONFIG_OVERWRITECONFIG"),
		.warn_changed_input = env_set("KCONFIG_WARN_CHANGED_INPUT"),
		.seed = getenv("KCONFIG_SEED"),
		.probability = getenv("KCONFIG_PROBABILITY"),
		.io = &ask.io,
	};
	int r = kc_run(t, &ro, &out);
	rc = r == 0 ? 0 : 1;
	if (r == 0 && conf_autoconf(t, mode, &d))
		rc = 1;
	fputs(kf_strbuf_str(&out), stdout);
	cli_ask_print_diags(&ask);
done:
	fflush(stdout);
	kf_diags_release(&d);
	kf_strbuf_release(&out);
	kc_tree_free(t);
	free(cache);
usage:
	free(cwd);
	free(srctree);
	free(version);
	return rc;
}
