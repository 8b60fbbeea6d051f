/*
 * cmd_build.c - `kfit build`: build the kernel for a configuration kfit
 * made, out of tree and never in the (cached) source tree, packaged the
 * way the target distribution installs kernels, after checking that this
 * machine has what the build needs; a progress bar counts the objects.
 */
#include "cli.h"

#include "kfit/build.h"
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

const char cmd_build_usage[] =
	"usage: kfit build [-k TREE] [-a ARCH] [-c CONFIG] [-O DIR] [--format FORMAT]\n"
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
	"options:\n"
	"  -k TREE          the kernel tree or linux-source tarball (default: as\n"
	"                   'kfit kconfig' finds one)\n"
	"  -a ARCH          the architecture (default: this machine's)\n"
	"  -c CONFIG        the configuration to build (default: the one 'kfit\n"
	"                   generate' wrote last for this tree and ARCH)\n"
	"  -O DIR           the build directory, the kernel's O= (default:\n"
	"                   CACHE/build/TREE-ARCH/obj); its .config becomes a\n"
	"                   copy of CONFIG\n"
	"  --format FORMAT  deb (make bindeb-pkg), rpm (make binrpm-pkg) or plain\n"
	"                   (make, then modules_install and the kernel image into\n"
	"                   DIR/../install); default: the distribution the\n"
	"                   configuration was generated for, else this machine's\n"
	"  -j N             parallel jobs (default: the number of CPUs)\n"
	"  --dry-run        print the commands and what is missing, build nothing\n"
	"\n"
	"exit status: 0 built, 1 a prerequisite is missing or the build failed,\n"
	"2 bad usage or bad input\n";

/* This machine's os-release ID and ID_LIKE (malloc'd, or NULL). */
static void host_os(char **id, char **id_like)
{
	*id = *id_like = NULL;
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_diags d = KF_DIAGS_INIT;
	if (kf_read_file("/etc/os-release", &sb, &d) < 0 &&
	    kf_read_file("/usr/lib/os-release", &sb, &d) < 0) {
		kf_diags_release(&d);
		return;
	}
	kf_diags_release(&d);
	char *text = kf_strbuf_detach(&sb);
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char **dst = !strncmp(l, "ID=", 3) ? id : !strncmp(l, "ID_LIKE=", 8) ? id_like : NULL;
		if (!dst || *dst)
			continue;
		char *v = strchr(l, '=') + 1;
		size_t n = strlen(v);
		if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
			v++;
			n -= 2;
		}
		*dst = kf_xstrndup(v, n);
	}
	free(text);
}

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

typedef struct argvec {
	char *v[24];
	int n;
} argvec;

static void av_add(argvec *a, char *s)
{
	if (a->n < 23)
		a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static void av_free(argvec *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
}

/* make -C TREE O=OBJ ARCH=A [-jN] TARGET... */
static void make_argv(argvec *a, const char *tree, const char *obj, const char *arch, int jobs)
{
	av_add(a, kf_xstrdup("make"));
	av_add(a, kf_xstrdup("-C"));
	av_add(a, kf_xstrdup(tree));
	av_add(a, kf_xasprintf("O=%s", obj));
	av_add(a, kf_xasprintf("ARCH=%s", arch));
	if (jobs > 0)
		av_add(a, kf_xasprintf("-j%d", jobs));
}

static void print_cmd(const argvec *a)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	cli_shell_words(&sb, (const char *const *)a->v);
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
static int run_make(const argvec *a, progress *p)
{
	kf_diags d = KF_DIAGS_INIT;
	kf_run_opts o = {
		.argv = (const char *const *)a->v,
		.line_fn = progress_line,
		.line_ctx = p,
		.inherit_err = true,
	};
	int rc = kf_run(&o, &d);
	cli_print_diags(&d);
	kf_diags_release(&d);
	return rc;
}

/* One line of a command's output (make -s kernelrelease), or NULL. */
static char *make_query(const char *tree, const char *obj, const char *arch, const char *target)
{
	argvec a = {.n = 0};
	make_argv(&a, tree, obj, arch, 0);
	av_add(&a, kf_xstrdup("-s"));
	av_add(&a, kf_xstrdup(target));
	kf_strbuf out = KF_STRBUF_INIT;
	kf_diags d = KF_DIAGS_INIT;
	kf_run_opts o = {.argv = (const char *const *)a.v, .out = &out, .max = 4096};
	int rc = kf_run(&o, &d);
	kf_diags_release(&d);
	av_free(&a);
	char *s = NULL;
	if (rc == 0 && out.len) {
		s = kf_strbuf_detach(&out);
		s[strcspn(s, "\n")] = 0;
	}
	kf_strbuf_release(&out);
	return s;
}

static int copy_file(const char *from, const char *to, kf_diags *d)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	/* the image is compressed already: read it as bytes (kf_read_file
	 * would unpack a gzip image) */
	FILE *f = fopen(from, "rb");
	if (!f) {
		kf_diag_add(d, KF_ERROR, from, 0, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		kf_strbuf_add(&sb, buf, n);
	fclose(f);
	int rc = kf_write_file_atomic(to, sb.buf ? sb.buf : "", sb.len, false, d);
	kf_strbuf_release(&sb);
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

int cmd_build(int argc, char **argv)
{
	const char *tree_arg = NULL, *arch = NULL, *config_arg = NULL, *objdir_arg = NULL,
		   *jobs_arg = NULL, *format_arg = NULL;
	kf_pkg_format format = KF_PKG_AUTO;
	int jobs = 0;
	bool dry = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has = i + 1 < argc;
		if ((!strcmp(a, "-k") || !strcmp(a, "-a") || !strcmp(a, "-c") || !strcmp(a, "-O") ||
		     !strcmp(a, "-j") || !strcmp(a, "--format")) &&
		    !has) {
			cli_error("option '%s' needs a value", a);
			return KF_EXIT_BAD;
		}
		if (!strcmp(a, "-k"))
			tree_arg = argv[++i];
		else if (!strcmp(a, "-a"))
			arch = argv[++i];
		else if (!strcmp(a, "-c"))
			config_arg = argv[++i];
		else if (!strcmp(a, "-O"))
			objdir_arg = argv[++i];
		else if (!strcmp(a, "-j"))
			jobs_arg = argv[++i];
		else if (!strcmp(a, "--format"))
			format_arg = argv[++i];
		else if (!strcmp(a, "--dry-run"))
			dry = true;
		else {
			cli_unknown_option("build", a);
			cli_usage_short(cmd_build_usage);
			return KF_EXIT_BAD;
		}
	}
	/* values checked after every option is known (an unknown option is
	 * the first thing reported) */
	if (jobs_arg) {
		char *end;
		long j = strtol(jobs_arg, &end, 10);
		if (*end || j < 1 || j > 4096) {
			cli_error("-j takes a number of jobs, not '%s'", jobs_arg);
			return KF_EXIT_BAD;
		}
		jobs = (int)j;
	}
	if (format_arg && kf_pkg_format_parse(format_arg, &format) < 0) {
		cli_error("--format takes deb, rpm or plain, not '%s'", format_arg);
		return KF_EXIT_BAD;
	}
	if (!arch)
		arch = cli_machine_arch();
	if (jobs == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = n > 0 ? (int)n : 1;
	}

	int rc = KF_EXIT_BAD;
	kf_diags d = KF_DIAGS_INIT;
	char *tree = NULL, *cache = NULL, *config = NULL, *profiles = NULL, *objdir = NULL,
	     *outdir = NULL, *id = NULL, *id_like = NULL;
	kf_dotconfig *cfg = NULL;
	kf_last_config last = {0};
	kf_build_needs needs = {0};
	argvec cmd = {.n = 0}, inst = {.n = 0};

	tree = kf_tree_find_default(tree_arg, cli_progress, NULL, &d);
	if (!tree)
		goto fail;
	cache = kf_cache_dir(&d);
	if (!cache)
		goto fail;
	const char *tname = strrchr(tree, '/') ? strrchr(tree, '/') + 1 : tree;
	if (config_arg) {
		config = realpath(config_arg, NULL);
		if (!config) {
			kf_diag_add(&d, KF_ERROR, config_arg, 0, 0, "no such configuration file");
			goto fail;
		}
	} else if (kf_last_config_lookup(cache, tree, arch, &last) == 0) {
		config = last.config;
		profiles = last.profiles;
		last.config = last.profiles = NULL;
		fprintf(stderr, "kfit: building %s (what 'kfit generate' wrote last for %s, ARCH=%s)\n",
			config, tname, arch);
	} else {
		cli_error("no configuration to build for %s (ARCH=%s): give -c CONFIG, or make one "
			  "with 'kfit generate'", tree, arch);
		goto out;
	}
	cfg = kf_dotconfig_load(config, &d);
	if (!cfg)
		goto fail;
	if (!kf_dotconfig_count(cfg)) {
		kf_diag_add(&d, KF_ERROR, config, 0, 0, "not a kernel configuration (no CONFIG_ lines)");
		goto fail;
	}
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

	/* the package format: asked, the distribution generated for, or this
	 * machine's */
	const char *format_why = "--format";
	if (format == KF_PKG_AUTO && profiles) {
		char *pl = kf_xstrdup(profiles);
		for (char *save = NULL, *p = strtok_r(pl, " ", &save); p && format == KF_PKG_AUTO;
		     p = strtok_r(NULL, " ", &save))
			format = kf_pkg_format_for_profile(p);
		free(pl);
		format_why = "the distribution it was generated for";
	}
	if (format == KF_PKG_AUTO) {
		host_os(&id, &id_like);
		format = kf_pkg_format_for_os(id, id_like);
		format_why = "this machine's distribution";
	}

	if (objdir_arg) {
		/* absolute, without creating it yet (it may be refused) */
		char cwd[4096];
		if (objdir_arg[0] == '/')
			objdir = kf_xstrdup(objdir_arg);
		else if (getcwd(cwd, sizeof(cwd)))
			objdir = kf_xasprintf("%s/%s", cwd, objdir_arg);
		else {
			kf_diag_add(&d, KF_ERROR, objdir_arg, 0, 0, "cannot tell the current directory: %s",
				    strerror(errno));
			goto fail;
		}
		size_t ol = strlen(objdir);
		while (ol > 1 && objdir[ol - 1] == '/')
			objdir[--ol] = 0;
	} else
		objdir = kf_xasprintf("%s/build/%s-%s/obj", cache, tname, arch);
	if (!strncmp(objdir, tree, strlen(tree)) &&
	    (objdir[strlen(tree)] == 0 || objdir[strlen(tree)] == '/')) {
		kf_diag_add(&d, KF_ERROR, objdir, 0, 0,
			    "the build directory is inside the source tree: give -O a directory outside it");
		goto fail;
	}
	outdir = kf_xstrdup(objdir);
	if (strrchr(outdir, '/') && strrchr(outdir, '/') != outdir)
		*strrchr(outdir, '/') = 0;

	kf_build_in bi = {
		.tree = tree,
		.srcarch = kc_arch_dir(arch),
		.config = cfg,
		.format = format,
		.host = kf_build_host_family(),
		.cc = getenv("CC"),
	};
	if (kf_build_needs_check(&bi, &needs, &d) < 0)
		goto fail;
	kf_diags_release(&d);

	/* the commands */
	make_argv(&cmd, tree, objdir, arch, jobs);
	char *stage = kf_xasprintf("%s/install", outdir);
	if (format == KF_PKG_DEB)
		av_add(&cmd, kf_xstrdup("bindeb-pkg"));
	else if (format == KF_PKG_RPM)
		av_add(&cmd, kf_xstrdup("binrpm-pkg"));
	else {
		const char *mods = kf_dotconfig_get(cfg, "MODULES");
		if (mods && !strcmp(mods, "y")) {
			make_argv(&inst, tree, objdir, arch, 0);
			av_add(&inst, kf_xstrdup("modules_install"));
			av_add(&inst, kf_xasprintf("INSTALL_MOD_PATH=%s", stage));
		}
	}

	if (dry) {
		print_comment(kf_xasprintf("%s, ARCH=%s, format %s (%s), about %zu objects", tree,
					   arch, kf_pkg_format_name(format), format_why,
					   kf_build_count_objects(tree, bi.srcarch, cfg)));
		for (size_t i = 0; i < needs.n; i++)
			if (!needs.v[i].present)
				print_comment(kf_xasprintf(
					"missing: %s (package %s): %s", needs.v[i].what,
					needs.v[i].package ? needs.v[i].package : "?", needs.v[i].why));
		kf_strbuf sb = KF_STRBUF_INIT;
		kf_strbuf_addstr(&sb, "mkdir -p ");
		cli_shell_word(&sb, objdir);
		const char *unpack = unpacker(config);
		kf_strbuf_addf(&sb, " && %s ", unpack ? unpack : "cp");
		cli_shell_word(&sb, config);
		if (unpack)
			kf_strbuf_addstr(&sb, " >");
		kf_strbuf_addch(&sb, ' ');
		cli_shell_word(&sb, objdir);
		kf_strbuf_addstr(&sb, "/.config");
		printf("%s\n", kf_strbuf_str(&sb));
		kf_strbuf_release(&sb);
		print_cmd(&cmd);
		if (format == KF_PKG_PLAIN) {
			if (inst.n)
				print_cmd(&inst);
			print_comment(kf_xasprintf("then the image (make -s image_name), System.map "
						   "and .config into %s/boot", stage));
		}
		free(stage);
		rc = needs.nmissing ? KF_EXIT_UNMET : KF_EXIT_OK;
		goto out;
	}

	if (needs.nmissing) {
		cli_error("the build needs what this machine does not have:");
		kf_strbuf pk = KF_STRBUF_INIT;
		bool unknown = false;
		for (size_t i = 0; i < needs.n; i++) {
			if (needs.v[i].present)
				continue;
			kf_strbuf line = KF_STRBUF_INIT;
			kf_strbuf_addf(&line, "  %-28s %s\n", needs.v[i].what, needs.v[i].why);
			cli_put_text(kf_strbuf_str(&line), stderr);
			kf_strbuf_release(&line);
			if (needs.v[i].package) {
				kf_strbuf_addch(&pk, ' ');
				cli_shell_word(&pk, needs.v[i].package);
			} else
				unknown = true;
		}
		if (pk.len)
			fprintf(stderr, "kfit: install them with: %s%s\n",
				bi.host == KF_HOST_RPM ? "dnf install" : "apt-get install",
				kf_strbuf_str(&pk));
		else if (unknown)
			fprintf(stderr, "kfit: install them with this system's package manager\n");
		kf_strbuf_release(&pk);
		free(stage);
		rc = KF_EXIT_UNMET;
		goto out;
	}

	/* the build directory and its .config (the kernel's make rewrites it
	 * as it builds; the user's file is never touched) */
	if (kf_mkdir_p(objdir, 0755) < 0) {
		kf_diag_add(&d, KF_ERROR, objdir, 0, 0, "cannot create: %s", strerror(errno));
		free(stage);
		goto fail;
	}
	char *objcfg = kf_xasprintf("%s/.config", objdir);
	kf_strbuf text = KF_STRBUF_INIT; /* a .gz or .xz config is unpacked */
	int cp = kf_read_file(config, &text, &d);
	if (cp == 0)
		cp = kf_write_file_atomic(objcfg, text.buf ? text.buf : "", text.len, false, &d);
	kf_strbuf_release(&text);
	free(objcfg);
	if (cp < 0) {
		free(stage);
		goto fail;
	}
	progress p = {
		.total = kf_build_count_objects(tree, bi.srcarch, cfg),
		.start = time(NULL),
		.tty = isatty(2),
	};
	fprintf(stderr, "kfit: building %s for ARCH=%s in %s (%s package, %s; about %zu objects)\n",
		tname, arch, objdir, kf_pkg_format_name(format), format_why, p.total);
	time_t started = time(NULL);
	int mrc = run_make(&cmd, &p);
	if (mrc == 0 && inst.n)
		mrc = run_make(&inst, &p);
	progress_end(&p, mrc == 0);
	if (mrc != 0) {
		cli_error("the build failed (make exit status %d); the build directory is %s", mrc,
			  objdir);
		free(stage);
		rc = KF_EXIT_UNMET;
		goto out;
	}
	char took[32];
	fmt_time(took, sizeof(took), (long)(time(NULL) - started));
	fprintf(stderr, "kfit: built in %s (%zu objects)\n", took, p.done);
	if (format == KF_PKG_DEB) {
		fprintf(stderr, "kfit: packages (install with: apt install ./FILE.deb):\n");
		fflush(stderr);
		list_new_files(outdir, ".deb", started);
	} else if (format == KF_PKG_RPM) {
		char *rpms = kf_xasprintf("%s/rpmbuild/RPMS/%s", objdir,
					  !strcmp(arch, "x86_64") || !strcmp(arch, "x86") ? "x86_64" : arch);
		fprintf(stderr, "kfit: packages (install with: dnf install FILE.rpm):\n");
		fflush(stderr);
		list_new_files(rpms, ".rpm", started);
		free(rpms);
	} else {
		char *rel = make_query(tree, objdir, arch, "kernelrelease");
		char *img = make_query(tree, objdir, arch, "image_name");
		char *boot = kf_xasprintf("%s/boot", stage);
		kf_mkdir_p(boot, 0755);
		int bad = 0;
		if (rel && img) {
			static const char *const what[][2] = {
				{NULL, "vmlinuz"}, {"System.map", "System.map"}, {".config", "config"}};
			for (size_t i = 0; i < 3 && !bad; i++) {
				char *from = what[i][0] ? kf_xasprintf("%s/%s", objdir, what[i][0])
							: kf_xasprintf("%s/%s", objdir, img);
				char *to = kf_xasprintf("%s/%s-%s", boot, what[i][1], rel);
				bad = copy_file(from, to, &d) < 0;
				if (!bad)
					printf("%s\n", to);
				free(from);
				free(to);
			}
		} else {
			kf_diag_add(&d, KF_ERROR, objdir, 0, 0,
				    "cannot ask make for the kernel release and image name");
			bad = 1;
		}
		if (!bad && inst.n && rel)
			printf("%s/lib/modules/%s\n", stage, rel);
		free(boot);
		free(rel);
		free(img);
		if (bad) {
			free(stage);
			goto fail;
		}
	}
	free(stage);
	rc = KF_EXIT_OK;
	goto out;
fail:
	cli_print_diags(&d);
	rc = KF_EXIT_BAD;
out:
	av_free(&cmd);
	av_free(&inst);
	kf_last_config_release(&last);
	kf_build_needs_release(&needs);
	kf_dotconfig_free(cfg);
	kf_diags_release(&d);
	free(tree);
	free(cache);
	free(config);
	free(profiles);
	free(objdir);
	free(outdir);
	free(id);
	free(id_like);
	return rc;
}
