/*
 * version.c - unit tests for kc_tree_version_flags (lib/kconfig/kc_tree.c):
 * the flag each kernel-version difference has, for a tree without
 * scripts/kconfig sources (so the version alone decides), at the edges of
 * every rule of docs/semantics.md's "Version flags" table and for a tree
 * without a version.  The expected rows were written from that table (and
 * the version comparisons the code had before the flags); the clang
 * -Werror flags and RUSTC_VERSION_TEXT start at upstream's first release
 * (0664684e1ebd in 5.15, db1547c56886 in 6.3, 5134a335cfe6 in 6.12), not
 * at kfit's earlier guesses 5.18, 6.3/6.5 and 6.6; "---help---" ends in
 * 5.9 (f70f74d15ca8, not 5.8) and the "?" Location starts at the prompt's
 * own menu from 6.1 (7a263a040256, not 5.11).  Then trees with a top
 * Makefile and scripts/Makefile.clang whose text, not the version, decides
 * those four flags (detect_make_features).
 *
 * Prints "ok NAME" / "not ok NAME" (+ a detail line) per case.
 */
#include "kfit/kconfig.h"
#include "kc_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The flags in the order of want's characters. */
static const char *const names[] = {
	"sem V2", "conf_61", "rustc_version_text", "clang_werror_ignored_opt",
	"clang_werror_option_ignored", "clang_werror_unused_arg",
	"defconfig_list_opt", "kw_defconfig_list", "kw_option", "help_dashes",
	"source_glob", "ext_help_parent", "ask_eof_stops", "autoconf_61",
	"yyerror_next_line", "eof_eol", "has_transitional",
	"the 6.13 flags", "modules_attr", "newer_than_kfit",
};

static void flags_of(const kc_tree *t, char *out)
{
	bool post = t->has_depends_if && t->parse_errors_7x && t->choice_rules_7x &&
		    t->has_repeated_inc && t->has_neg_submenu && t->has_warn_changed;
	bool any_post = t->has_depends_if || t->parse_errors_7x || t->choice_rules_7x ||
			t->has_repeated_inc || t->has_neg_submenu || t->has_warn_changed;
	bool v[] = {t->sem == KC_SEM_V2, t->conf_61, t->rustc_version_text,
		    t->clang_werror_ignored_opt, t->clang_werror_option_ignored,
		    t->clang_werror_unused_arg, t->defconfig_list_opt,
		    t->kw_defconfig_list, t->kw_option, t->help_dashes, t->source_glob,
		    t->ext_help_parent, t->ask_eof_stops, t->autoconf_61,
		    t->yyerror_next_line, t->eof_eol, t->has_transitional, post,
		    t->modules_attr, t->newer_than_kfit};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		out[i] = v[i] ? '1' : '0';
	out[sizeof(v) / sizeof(v[0])] = 0;
	if (post != any_post) /* the six 6.13 flags move together */
		out[17] = '?';
}

static char *no_shell(void *ctx, const char *cmd)
{
	(void)ctx;
	(void)cmd;
	return kf_xstrdup("");
}

static const struct vcase {
	const char *version; /* kc_load_opts.version ("": none) */
	const char *want;    /* names[i]'s value as '0' or '1' */
	unsigned opt_forms;  /* KC_OPT_* */
} cases[] = {
	{"", "01000000001101110010", 0},
	{"4.19", "00000011111101110000", 1},
	{"5.7", "00000011110101110000", 14},
	{"5.8", "00000011110101110000", 14},
	{"5.10", "00000011100101110000", 14},
	{"5.12", "00000011100101110000", 14},
	{"5.14", "00000000100101110000", 2},
	{"5.15", "00010000000101110010", 0},
	{"5.18", "00010000000101110010", 0},
	{"6.0", "00010000000101110010", 0},
	{"6.1", "01010000000001110010", 0},
	{"6.2", "01010000000000110010", 0},
	{"6.3", "01011100000000110010", 0},
	{"6.5", "01011100000000110010", 0},
	{"6.6", "01011100000000110010", 0},
	{"6.8", "01011100000000110010", 0},
	{"6.9", "01011100000000000010", 0},
	{"6.11", "11011100000000000010", 0},
	{"6.12", "11111100000010000010", 0},
	{"6.13", "11111100000010000110", 0},
	{"6.17", "11111100000010000110", 0},
	{"6.18", "11111100000010001110", 0},
	{"7.3", "11111100000010001110", 0},
	{"7.4", "11111100000010001111", 0},
};

/* A tree whose Makefiles and menu.c, not its version, decide the flags. */
static const struct mcase {
	const char *name;     /* the case's name */
	const char *makefile; /* the top Makefile */
	const char *clang;    /* scripts/Makefile.clang (NULL: none) */
	const char *menu_c;   /* scripts/kconfig/menu.c (NULL: none) */
	const char *want;     /* rustc_version_text, the three clang flags and
			       * ext_help_parent */
} mcases[] = {
	{"6.8-with-6.12-rust-and-5.15-clang",
	 "VERSION = 6\nPATCHLEVEL = 8\nSUBLEVEL = 0\nEXTRAVERSION =\n"
	 "CC_VERSION_TEXT = $(shell $(CC) --version)\n"
	 "RUSTC_VERSION_TEXT = $(shell $(RUSTC) --version)\n",
	 "CLANG_FLAGS\t+= -Werror=unknown-warning-option\n"
	 "CLANG_FLAGS\t+= -Werror=ignored-optimization-argument\n",
	 "\tmenu = prop->menu->parent;\n", "11001"},
	{"5.10-with-backport-in-top-makefile",
	 "VERSION = 5\nPATCHLEVEL = 10\nSUBLEVEL = 0\nEXTRAVERSION =\n"
	 "CLANG_FLAGS :=\nCLANG_FLAGS\t+= -Werror=unknown-warning-option\n"
	 "CLANG_FLAGS\t+= -Werror=ignored-optimization-argument\n"
	 "CC_VERSION_TEXT = $(shell $(CC) --version)\n",
	 NULL, "\tmenu = prop->menu;\n", "01000"},
	{"6.13-bare-makefile",
	 "VERSION = 6\nPATCHLEVEL = 13\nSUBLEVEL = 0\nEXTRAVERSION =\n", NULL, NULL,
	 "11110"},
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Runs mcases in dir (which has a Kconfig); the number of failures. */
static int make_cases(const char *dir)
{
	int fails = 0;
	char *mk = kf_xasprintf("%s/Makefile", dir);
	char *sd = kf_xasprintf("%s/scripts", dir);
	char *cl = kf_xasprintf("%s/scripts/Makefile.clang", dir);
	char *kd = kf_xasprintf("%s/scripts/kconfig", dir);
	char *mc = kf_xasprintf("%s/scripts/kconfig/menu.c", dir);
	for (size_t i = 0; i < sizeof(mcases) / sizeof(mcases[0]); i++) {
		const struct mcase *c = &mcases[i];
		write_file(mk, c->makefile);
		unlink(cl);
		unlink(mc);
		rmdir(kd);
		rmdir(sd);
		mkdir(sd, 0755);
		if (c->clang)
			write_file(cl, c->clang);
		if (c->menu_c && mkdir(kd, 0755) == 0)
			write_file(mc, c->menu_c);
		kf_diags d = KF_DIAGS_INIT;
		kc_load_opts o = {.srctree = dir, .arch = "x86_64", .shell_fn = no_shell,
				  .plain_env = true};
		kc_tree *t = kc_tree_load(&o, &d);
		char got[8] = "none";
		if (t)
			snprintf(got, sizeof(got), "%d%d%d%d%d", t->rustc_version_text,
				 t->clang_werror_ignored_opt, t->clang_werror_option_ignored,
				 t->clang_werror_unused_arg, t->ext_help_parent);
		bool ok = t && !strcmp(got, c->want);
		printf("%s version-flags-make-%s\n", ok ? "ok" : "not ok", c->name);
		if (!ok) {
			fails++;
			printf("# rustc, ignored-opt, option-ignored, unused-arg, "
			       "ext_help_parent: want %s, got %s\n",
			       c->want, got);
		}
		kc_tree_free(t);
		kf_diags_release(&d);
	}
	unlink(cl);
	unlink(mc);
	rmdir(kd);
	rmdir(sd);
	unlink(mk);
	free(kd);
	free(mc);
	free(mk);
	free(sd);
	free(cl);
	return fails;
}

int main(void)
{
	char dir[] = "/tmp/kfit-version-XXXXXX";
	if (!mkdtemp(dir))
		return 2;
	char *kc = kf_xasprintf("%s/Kconfig", dir);
	FILE *f = fopen(kc, "w");
	if (!f)
		return 2;
	fputs("config A\n\tbool \"a\"\n", f);
	fclose(f);
	int fails = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct vcase *c = &cases[i];
		kf_diags d = KF_DIAGS_INIT;
		kc_load_opts o = {.srctree = dir, .arch = "x86_64", .shell_fn = no_shell,
				  .version = c->version, .plain_env = true};
		kc_tree *t = kc_tree_load(&o, &d);
		char got[32] = "load failed";
		if (t)
			flags_of(t, got);
		bool ok = t && !strcmp(got, c->want) && t->opt_forms == c->opt_forms;
		printf("%s version-flags-%s\n", ok ? "ok" : "not ok",
		       *c->version ? c->version : "none");
		if (!ok) {
			fails++;
			for (size_t k = 0; t && k < strlen(c->want); k++)
				if (got[k] != c->want[k])
					printf("# %s: want %c, got %c\n", names[k], c->want[k], got[k]);
			if (t && t->opt_forms != c->opt_forms)
				printf("# opt_forms: want %u, got %u\n", c->opt_forms, t->opt_forms);
		}
		kc_tree_free(t);
		kf_diags_release(&d);
	}
	fails += make_cases(dir);
	unlink(kc);
	rmdir(dir);
	free(kc);
	return fails ? 1 : 0;
}
