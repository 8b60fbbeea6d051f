/*
 * cmd_build.c - `kfit build`: build the kernel for a configuration kfit
 * made, out of tree and never in the (cached) source tree, packaged the
 * way the target distribution installs kernels, after checking that this
 * machine has what the build needs; a progress bar counts the objects.
 */
#include "cli.h"
#include "options.h"

#include "kfit/build.h"
#include "kfit/lastconfig.h"
#include "kfit/dotconfig.h"
#include "kfit/kconfig.h"
#include "kfit/run.h"
#include "kfit/tree.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* What `kfit build` is given. */
typedef struct build_args {
	const char *tree;   /* -k */
	const char *arch;   /* -a */
	const char *config; /* -c */
	const char *objdir; /* -O */
	const char *jobs;   /* -j */
	const char *format; /* --format */
	bool dry;           /* --dry-run */
} build_args;

static const cli_opt build_opts[] = {
	CLI_OPT_KERNEL("-k", "TREE", build_args, tree,
		       "the kernel tree or linux-source tarball (default: as\n"
		       "'kfit kconfig' finds one)"),
	CLI_OPT_ARCH("-a", build_args, arch,
		     "the architecture (default: this machine's); another\n"
		     "is cross-compiled with $CROSS_COMPILE, else with\n"
		     "Debian's gcc-TRIPLET (arm64: aarch64-linux-gnu-)"),
	CLI_OPT_STR("-c", "--config", "CONFIG", build_args, config,
		    "the configuration to build (default: the one 'kfit\n"
		    "generate' wrote last for this tree and ARCH)"),
	CLI_OPT_STR("-O", NULL, "DIR", build_args, objdir,
		    "the build directory, the kernel's O= (default:\n"
		    "CACHE/build/TREE-ARCH/obj); its .config becomes a\n"
		    "copy of CONFIG"),
	CLI_OPT_STR("--format", NULL, "FORMAT", build_args, format,
		    "deb (make bindeb-pkg), rpm (make binrpm-pkg) or plain\n"
		    "(make, then modules_install and the kernel image into\n"
		    "DIR/../install); default: the distribution the\n"
		    "configuration was generated for, else this machine's"),
	CLI_OPT_STR("-j", "--jobs", "N", build_args, jobs,
		    "parallel jobs (default: the number of CPUs)"),
	CLI_OPT_FLAG("--dry-run", build_args, dry,
		     "print the commands and what is missing, build nothing"),
	CLI_OPT_TABLE_END,
};

const cli_spec cmd_build_spec = {
	.cmd = "build",
	.head = "usage: kfit build [-k TREE] [-a ARCH] [-c CONFIG] [-O DIR] [--format FORMAT]\n"
		"                  [-j N] [--dry-run]\n"
		"\n"
		"Build the kernel for a configuration: out of tree (the source tree is\n"
		"never written), packaged the way the target distribution installs\n"
		"kernels, after checking that this machine has every program, header and\n"
		"package the build needs (the tree's own packaging scripts and the\n"
		"configuration's options decide which); a missing one is named with the\n"
		"package to install ('make deps' installs them on Debian).  Progress is a\n"
		"bar over the objects the configuration compiles, with the time left; at\n"
		"the end the packages or the staged files are listed.\n"
		"\n"
		"options:\n",
	.opts = build_opts,
	.col = 19,
	.tail = "\n"
		"exit status: 0 built, 1 a prerequisite is missing or the build failed,\n"
		"2 bad usage or bad input\n",
	.word_is_option = true,
};

/* The progress bar over the objects a build compiles. */
typedef struct progress {
	size_t total;     /* estimated objects */
	size_t done;      /* objects make reported */
	time_t start;     /* when the build began */
	bool tty;         /* redraw one line; else a line per 10% */
	int last_decile;  /* the last 10% step printed (not a tty) */
	char *tail[20];   /* the last lines make printed, for a failure */
	size_t ntail;     /* lines in tail (a ring once full) */
	size_t tailpos;   /* next slot */
	bool drawn;       /* a bar is on the screen (tty) */
} progress;

static void fmt_time(char *buf, size_t n, long s)
{
	if (s >= 3600)
		snprintf(buf, n, "%ldh%02ldm", s / 3600, s / 60 % 60);
	else if (s >= 60)
		snprintf(buf, n, "%ldm%02lds", s / 60, s % 60);
	else
		snprintf(buf, n, "%lds", s);
}

static void progress_draw(progress *p)
{
	size_t total = p->total > p->done ? p->total : p->done + 1;
	int pct = (int)(100 * p->done / total);
	long el = (long)(time(NULL) - p->start);
	char left[32] = "?";
	if (p->done >= 20 && el > 0)
		fmt_time(left, sizeof(left), (long)((double)el * (double)(total - p->done) / (double)p->done));
	if (p->tty) {
		char bar[31];
		int fill = pct * 30 / 100;
		for (int i = 0; i < 30; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[30] = 0;
		fprintf(stderr, "\rkfit: building [%s] %3d%% %zu/%zu objects, %s left \033[K", bar, pct,
			p->done, total, left);
		p->drawn = true;
	} else if (pct / 10 > p->last_decile) {
		p->last_decile = pct / 10;
		fprintf(stderr, "kfit: building: %d%% (%zu of about %zu objects), %s left\n", pct,
			p->done, total, left);
	}
	fflush(stderr);
}

static void progress_line(const char *line, void *ctx)
{
	progress *p = ctx;
	free(p->tail[p->tailpos]);
	p->tail[p->tailpos] = kf_xstrdup(line);
	p->tailpos = (p->tailpos + 1) % 20;
	if (p->ntail < 20)
		p->ntail++;
	if (kf_build_line_is_object(line)) {
		p->done++;
		if (p->tty && p->done % 8 && p->done != 1)
			return;
		progress_draw(p);
	}
}

static void progress_end(progress *p, bool ok)
{
	if (p->drawn)
		fputs("\r\033[K", stderr);
	if (!ok && p->ntail) {
		fputs("kfit: the last lines make printed:\n", stderr);
		for (size_t i = 0; i < p->ntail; i++) {
			size_t k = (p->tailpos + 20 - p->ntail + i) % 20;
			fprintf(stderr, "  %s\n", p->tail[k]);
		}
	}
	for (size_t i = 0; i < 20; i++)
		free(p->tail[i]);
}

static void print_cmd(char *const *argv)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	cli_shell_words(&sb, (const char *const *)argv);
	printf("%s\n", kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
}

/* A '#' line of --dry-run (text is freed): values in it are data, shown
 * with control characters escaped so that a newline cannot end the
 * comment and make the rest a command. */
static void print_comment(char *text)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	cli_add_text(&sb, text, false);
	printf("# %s\n", kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	free(text);
}

/* Run make with the progress bar; its exit status. */
static int run_make(char *const *argv, progress *p)
{
	kf_diags d = KF_DIAGS_INIT;
	kf_run_opts o = {
		.argv = (const char *const *)argv,
		.line_fn = progress_line,
		.line_ctx = p,
		.inherit_err = true,
	};
	int rc = kf_run(&o, &d);
	cli_print_diags(&d);
	kf_diags_release(&d);
	return rc;
}

/* zcat or xzcat for a gzip or xz file, else NULL (for --dry-run: kfit
 * unpacks such a configuration into the build directory). */
static const char *unpacker(const char *path)
{
	unsigned char m[6] = {0};
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t n = fread(m, 1, sizeof(m), f);
	fclose(f);
	if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b)
		return "zcat";
	if (n >= 6 && !memcmp(m, "\xfd" "7zXZ", 5))
		return "xzcat";
	return NULL;
}

/* Files in dir ending in suffix and modified at or after since. */
static void list_new_files(const char *dir, const char *suffix, time_t since)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return;
	struct dirent *e;
	size_t sl = strlen(suffix);
	while ((e = readdir(dp))) {
		size_t n = strlen(e->d_name);
		if (n <= sl || strcmp(e->d_name + n - sl, suffix))
			continue;
		char *p = kf_xasprintf("%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_mtime >= since)
			printf("%s\n", p);
		free(p);
	}
	closedir(dp);
}

/* The configuration to build: -c, else what generate wrote last for this
 * tree and ARCH (said on stderr).  NULL after an error: in d for -c,
 * else printed. */
static char *build_config(const build_args *a, const char *tree, const char *cache,
			  const char *arch, char **profiles, kf_diags *d)
{
	const char *tname = strrchr(tree, '/') ? strrchr(tree, '/') + 1 : tree;
	kf_config_want want = {.given = a->config, .last = true, .cache = cache, .tree = tree,
			       .arch = arch};
	kf_config_choice c;
	kf_config_source from = kf_config_choose(&want, &c);
	char *config = NULL;
	if (from == KF_CONFIG_GIVEN) {
		config = realpath(c.path, NULL);
		if (!config)
			kf_diag_add(d, KF_ERROR, a->config, 0, 0, "no such configuration file");
	} else if (from == KF_CONFIG_LAST) {
		config = c.path;
		*profiles = c.profiles;
		c.path = c.profiles = NULL;
		fprintf(stderr, "kfit: building %s (what 'kfit generate' wrote last for %s, ARCH=%s)\n",
			config, tname, arch);
	} else
		cli_error("no configuration to build for %s (ARCH=%s): give -c CONFIG, or make one "
			  "with 'kfit generate'", tree, arch);
	kf_config_choice_release(&c);
	return config;
}

/* A configuration made for another kernel: the kernel's make updates it. */
static void warn_version(const char *tree, const char *config, const kf_dotconfig *cfg)
{
	kf_diags d = KF_DIAGS_INIT;
	char *treever = kf_tree_kernelversion(tree, &d);
	kf_diags_release(&d);
	uint32_t tv = 0;
	if (treever && kf_kver_parse_prefix(treever, &tv) == 0 && kf_dotconfig_kver(cfg) &&
	    kf_dotconfig_kver(cfg) / 1000 != tv / 1000) {
		char cv[16];
		fprintf(stderr,
			"kfit: warning: %s was made for Linux %s, the tree is %s: the kernel's make "
			"will update it (olddefconfig) as it builds\n",
			config, kf_kver_format(kf_dotconfig_kver(cfg), cv), treever);
	}
	free(treever);
}

/* --dry-run: what would be done, and what is missing. */
static void print_dry(const kf_build_plan *pl, const kf_build_in *bi, const char *arch,
		      const char *config, const kf_build_needs *needs)
{
	print_comment(kf_xasprintf("%s, ARCH=%s, format %s (%s), about %zu objects", bi->tree,
				   arch, kf_pkg_format_name(pl->format), pl->format_why,
				   kf_build_count_objects(bi->tree, bi->srcarch, bi->config)));
	for (size_t i = 0; i < needs->n; i++)
		if (!needs->v[i].present)
			print_comment(kf_xasprintf("missing: %s (package %s): %s", needs->v[i].what,
						   needs->v[i].package ? needs->v[i].package : "?",
						   needs->v[i].why));
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, "mkdir -p ");
	cli_shell_word(&sb, pl->objdir);
	const char *unpack = unpacker(config);
	kf_strbuf_addf(&sb, " && %s ", unpack ? unpack : "cp");
	cli_shell_word(&sb, config);
	if (unpack)
		kf_strbuf_addstr(&sb, " >");
	kf_strbuf_addch(&sb, ' ');
	cli_shell_word(&sb, pl->objdir);
	kf_strbuf_addstr(&sb, "/.config");
	printf("%s\n", kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	print_cmd(pl->make);
	if (pl->format == KF_PKG_PLAIN) {
		if (pl->install)
			print_cmd(pl->install);
		print_comment(kf_xasprintf("then the image (make -s image_name), System.map "
					   "and .config into %s/boot", pl->stage));
	}
}

/* What the build needs and this machine lacks, with the command that
 * installs it. */
static void print_missing(const kf_build_needs *needs, kf_host_family host)
{
	cli_error("the build needs what this machine does not have:");
	kf_strbuf pk = KF_STRBUF_INIT;
	bool unknown = false;
	for (size_t i = 0; i < needs->n; i++) {
		if (needs->v[i].present)
			continue;
		kf_strbuf line = KF_STRBUF_INIT;
		kf_strbuf_addf(&line, "  %-28s %s\n", needs->v[i].what, needs->v[i].why);
		cli_put_text(kf_strbuf_str(&line), stderr);
		kf_strbuf_release(&line);
		if (needs->v[i].package) {
			kf_strbuf_addch(&pk, ' ');
			cli_shell_word(&pk, needs->v[i].package);
		} else
			unknown = true;
	}
	if (pk.len)
		fprintf(stderr, "kfit: install them with: %s%s\n",
			host == KF_HOST_RPM ? "dnf install" : "apt-get install", kf_strbuf_str(&pk));
	else if (unknown)
		fprintf(stderr, "kfit: install them with this system's package manager\n");
	kf_strbuf_release(&pk);
}

/* The build directory and its .config (the kernel's make rewrites it as
 * it builds; the user's file is never touched). */
static int prepare_objdir(const char *objdir, const char *config, kf_diags *d)
{
	if (kf_mkdir_p(objdir, 0755) < 0) {
		kf_diag_add(d, KF_ERROR, objdir, 0, 0, "cannot create: %s", strerror(errno));
		return -1;
	}
	char *objcfg = kf_xasprintf("%s/.config", objdir);
	kf_strbuf text = KF_STRBUF_INIT; /* a .gz or .xz config is unpacked */
	int cp = kf_read_file(config, &text, d);
	if (cp == 0)
		cp = kf_write_file_atomic(objcfg, text.buf ? text.buf : "", text.len, false, d);
	kf_strbuf_release(&text);
	free(objcfg);
	return cp;
}

/* What was built: the packages, or the staged files. */
static int print_results(const kf_build_plan *pl, const char *tree, const char *arch,
			 time_t started, kf_diags *d)
{
	if (pl->format == KF_PKG_DEB) {
		fprintf(stderr, "kfit: packages (install with: apt install ./FILE.deb):\n");
		fflush(stderr);
		list_new_files(pl->packages, ".deb", started);
		return 0;
	}
	if (pl->format == KF_PKG_RPM) {
		fprintf(stderr, "kfit: packages (install with: dnf install FILE.rpm):\n");
		fflush(stderr);
		list_new_files(pl->packages, ".rpm", started);
		return 0;
	}
	char **paths = NULL;
	int rc = kf_build_stage_plain(pl, tree, arch, &paths, d);
	for (size_t i = 0; paths && paths[i]; i++)
		printf("%s\n", paths[i]);
	kf_strv_free(paths);
	return rc;
}

/* make with the progress bar, then the results: the exit status. */
static int run_build(const kf_build_plan *pl, const kf_build_in *bi, const char *arch,
		     kf_diags *d)
{
	const char *tname = strrchr(bi->tree, '/') ? strrchr(bi->tree, '/') + 1 : bi->tree;
	progress p = {
		.total = kf_build_count_objects(bi->tree, bi->srcarch, bi->config),
		.start = time(NULL),
		.tty = isatty(2),
	};
	fprintf(stderr, "kfit: building %s for ARCH=%s in %s (%s package, %s; about %zu objects)\n",
		tname, arch, pl->objdir, kf_pkg_format_name(pl->format), pl->format_why, p.total);
	time_t started = time(NULL);
	int mrc = run_make(pl->make, &p);
	if (mrc == 0 && pl->install)
		mrc = run_make(pl->install, &p);
	progress_end(&p, mrc == 0);
	if (mrc != 0) {
		cli_error("the build failed (make exit status %d); the build directory is %s", mrc,
			  pl->objdir);
		return KF_EXIT_UNMET;
	}
	char took[32];
	fmt_time(took, sizeof(took), (long)(time(NULL) - started));
	fprintf(stderr, "kfit: built in %s (%zu objects)\n", took, p.done);
	return print_results(pl, bi->tree, arch, started, d) < 0 ? KF_EXIT_BAD : KF_EXIT_OK;
}

static int build_run(const build_args *a, const char *arch, int jobs, kf_pkg_format format)
{
	int rc = KF_EXIT_BAD;
	kf_diags d = KF_DIAGS_INIT;
	char *cache = NULL, *config = NULL, *profiles = NULL, *cross_default = NULL,
	     *make_cc = NULL;
	kf_dotconfig *cfg = NULL;
	kf_build_needs needs = {0};
	kf_build_plan pl = {0};
	char *tree = kf_tree_find_default(a->tree, cli_progress, NULL, &d);
	if (!tree || !(cache = kf_cache_dir(&d)))
		goto fail;
	config = build_config(a, tree, cache, arch, &profiles, &d);
	if (!config && a->config)
		goto fail;
	if (!config)
		goto out;
	cfg = kf_dotconfig_load(config, &d);
	if (!cfg)
		goto fail;
	if (!kf_dotconfig_count(cfg)) {
		kf_diag_add(&d, KF_ERROR, config, 0, 0, "not a kernel configuration (no CONFIG_ lines)");
		goto fail;
	}
	warn_version(tree, config, cfg);
	/* CROSS_COMPILE: the environment's, as make takes it (set and empty:
	 * none); else, for another architecture than this machine's and no
	 * LLVM=1 (clang takes --target from ARCH), Debian's cross gcc */
	const char *cross = getenv("CROSS_COMPILE"), *llvm = getenv("LLVM"), *ucc = getenv("CC");
	/* CC as this tree's Makefile names it (the Kconfig run's rule): the
	 * user's CC, else for LLVM=1, LLVM=/usr/lib/llvm-16/bin/ or LLVM=-16
	 * clang, $(LLVM)clang or clang$(LLVM) (5.10 takes no affixes) */
	if ((ucc && *ucc) || (llvm && *llvm))
		make_cc = kc_make_tool("CC", ucc, llvm, kc_srctree_llvm_affixes(tree), NULL);
	if ((cross_default = cli_cross_compile(arch))) {
		cross = cross_default;
		fprintf(stderr, "kfit: cross-compiling for ARCH=%s on %s: CROSS_COMPILE=%s "
				"(set CROSS_COMPILE, or LLVM=1, for another toolchain)\n",
			arch, cli_machine_arch(), cross);
	}
	kf_build_plan_in pin = {.tree = tree, .cache = cache, .arch = arch, .objdir = a->objdir,
				.config = cfg, .format = format, .profiles = profiles, .jobs = jobs,
				.cross = cross};
	if (kf_build_plan_make(&pin, &pl, &d) < 0)
		goto fail;
	kf_build_in bi = {
		.tree = tree,
		.srcarch = kc_arch_dir(arch),
		.config = cfg,
		.format = pl.format,
		.host = kf_build_host_family(),
		.cc = make_cc,
		.cross = cross,
	};
	if (kf_build_needs_check(&bi, &needs, &d) < 0)
		goto fail;
	kf_diags_release(&d);
	if (a->dry) {
		print_dry(&pl, &bi, arch, config, &needs);
		rc = needs.nmissing ? KF_EXIT_UNMET : KF_EXIT_OK;
	} else if (needs.nmissing) {
		print_missing(&needs, bi.host);
		rc = KF_EXIT_UNMET;
	} else if (prepare_objdir(pl.objdir, config, &d) < 0)
		goto fail;
	else if ((rc = run_build(&pl, &bi, arch, &d)) == KF_EXIT_BAD)
		goto fail;
	goto out;
fail:
	cli_print_diags(&d);
	rc = KF_EXIT_BAD;
out:
	kf_build_plan_release(&pl);
	kf_build_needs_release(&needs);
	kf_dotconfig_free(cfg);
	kf_diags_release(&d);
	free(tree);
	free(cache);
	free(config);
	free(profiles);
	free(cross_default);
	free(make_cc);
	return rc;
}

int cmd_build(int argc, char **argv)
{
	build_args a = {0};
	kf_pkg_format format = KF_PKG_AUTO;
	int jobs = 0;
	if (cli_parse(&cmd_build_spec, &a, argc, argv) < 0)
		return KF_EXIT_BAD;
	/* values checked after every option is known (an unknown option is
	 * the first thing reported) */
	if (a.jobs) {
		char *end;
		long j = strtol(a.jobs, &end, 10);
		if (*end || j < 1 || j > 4096) {
			cli_error("-j takes a number of jobs, not '%s'", a.jobs);
			return KF_EXIT_BAD;
		}
		jobs = (int)j;
	}
	if (a.format && kf_pkg_format_parse(a.format, &format) < 0) {
		cli_error("--format takes deb, rpm or plain, not '%s'", a.format);
		return KF_EXIT_BAD;
	}
	if (jobs == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = n > 0 ? (int)n : 1;
	}
	return build_run(&a, a.arch ? a.arch : cli_machine_arch(), jobs, format);
}
