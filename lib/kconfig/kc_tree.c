/*
 * kc_tree.c - loading a kernel tree: the variables its top-level Makefile
 * exports to Kconfig (derived as the Makefile derives them, honouring
 * ARCH, CROSS_COMPILE, LLVM and CC overrides), the choice of semantics
 * generation by kernel version, parsing, menu finalization and the
 * recursive dependency check.
 */
#include "kc_internal.h"

#include <stddef.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

extern char **environ;

static char *read_make_var(const char *makefile_text, const char *name)
{
	size_t n = strlen(name);
	const char *p = makefile_text;
	while (p && *p) {
		if (!strncmp(p, name, n)) {
			const char *q = p + n;
			while (*q == ' ' || *q == '\t')
				q++;
			if (*q == '=') {
				q++;
				while (*q == ' ' || *q == '\t')
					q++;
				const char *e = strchr(q, '\n');
				size_t len = e ? (size_t)(e - q) : strlen(q);
				while (len && (q[len - 1] == ' ' || q[len - 1] == '\t'))
					len--;
				return kf_xstrndup(q, len);
			}
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return kf_xstrdup("");
}

/* SUBARCH: the machine kfit runs on, as the top Makefile reads uname -m. */
static const char *subarch(void)
{
	struct utsname u;
	if (uname(&u) < 0)
		return "x86";
	return kc_subarch(u.machine);
}

/* clang's --target= for a CROSS_COMPILE prefix: its last path component
 * without the trailing '-' (both Makefiles' $(notdir $(CROSS_COMPILE:%-=%))). */
static void add_cross_target(kf_strbuf *cf, const char *cross)
{
	char *c = kf_xstrdup(cross);
	size_t n = strlen(c);
	if (n && c[n - 1] == '-')
		c[n - 1] = 0;
	const char *base = strrchr(c, '/') ? strrchr(c, '/') + 1 : c;
	kf_strbuf_addf(cf, "--target=%s", base);
	free(c);
}

/* The user's value of a make variable (command line equivalent). */
static const char *user_var(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

char *kc_make_tool(const char *tool, const char *user, const char *llvm, bool llvm_affixes,
		   const char *cross)
{
	static const struct {
		const char *name, *gnu, *llvm;
		bool cross; /* CROSS_COMPILE applies */
	} tools[] = {{"CC", "gcc", "clang", true},	   {"LD", "ld", "ld.lld", true},
		     {"AR", "ar", "llvm-ar", true},	   {"NM", "nm", "llvm-nm", true},
		     {"OBJCOPY", "objcopy", "llvm-objcopy", true},
		     {"HOSTCC", "gcc", "clang", false}};
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		if (strcmp(tools[i].name, tool))
			continue;
		if (user && *user)
			return kf_xstrdup(user);
		if (llvm && *llvm) {
			/* LLVM_PREFIX := $(LLVM) for LLVM=/path/, LLVM_SUFFIX :=
			 * $(LLVM) for LLVM=-N */
			size_t n = strlen(llvm);
			const char *pre = llvm_affixes && llvm[n - 1] == '/' ? llvm : "";
			const char *suf = llvm_affixes && !*pre && llvm[0] == '-' ? llvm : "";
			return kf_xasprintf("%s%s%s", pre, tools[i].llvm, suf);
		}
		return kf_xasprintf("%s%s", tools[i].cross && cross ? cross : "", tools[i].gnu);
	}
	return NULL;
}

bool kc_srctree_llvm_affixes(const char *srctree)
{
	char *mkpath = kf_xasprintf("%s/Makefile", srctree);
	kf_strbuf mk = KF_STRBUF_INIT;
	kf_diags d = KF_DIAGS_INIT;
	bool yes = kf_read_file(mkpath, &mk, &d) == 0 && strstr(mk.buf, "LLVM_SUFFIX") != NULL;
	kf_strbuf_release(&mk);
	kf_diags_release(&d);
	free(mkpath);
	return yes;
}

/* VERSION, PATCHLEVEL, SUBLEVEL, EXTRAVERSION from the top Makefile, or
 * from version ("6.12[.3]") when the tree has none.  -1 (in d) when
 * neither is there. */
static int read_version(kc_tree *t, const char *version, char *v[4],
			bool *pahole_version, bool *llvm_affixes, kf_diags *d)
{
	*pahole_version = false;
	*llvm_affixes = false;
	char *mkpath = kf_xasprintf("%s/Makefile", t->srctree);
	if (version && !kf_exists(mkpath)) {
		free(mkpath);
		const char *p = version;
		for (int i = 0; i < 3; i++) {
			size_t n = strspn(p, "0123456789");
			v[i] = kf_xstrndup(p, n);
			p += n;
			if (*p == '.')
				p++;
		}
		v[3] = kf_xstrdup("");
		return 0;
	}
	kf_strbuf mk = KF_STRBUF_INIT;
	if (kf_read_file(mkpath, &mk, d) < 0) {
		free(mkpath);
		return -1;
	}
	free(mkpath);
	v[0] = read_make_var(mk.buf, "VERSION");
	v[1] = read_make_var(mk.buf, "PATCHLEVEL");
	v[2] = read_make_var(mk.buf, "SUBLEVEL");
	v[3] = read_make_var(mk.buf, "EXTRAVERSION");
	/* 6.19+ Makefiles export PAHOLE_VERSION, which init/Kconfig reads */
	*pahole_version = strstr(mk.buf, "\nPAHOLE_VERSION = $(shell") != NULL;
	/* LLVM=/path/ and LLVM=-14 arrived with LLVM_PREFIX/LLVM_SUFFIX;
	 * before (5.10) any LLVM value means the plain tool names */
	*llvm_affixes = strstr(mk.buf, "LLVM_SUFFIX") != NULL; /* see below */
	kf_strbuf_release(&mk);
	return 0;
}

/*
 * Every difference between kernel versions as a flag of the tree: the one
 * place that compares the tree's version (docs/semantics.md, "Version
 * flags": each flag, its first version and the upstream commit).  Where
 * the tree's own scripts/kconfig sources tell, tree_begin's detection
 * overrides the flag afterwards; these are the defaults for a tree
 * without them.  A tree without a version (0.0) counts as older for the
 * rules with "v >=" or "v <", as newer for those with "known &&".
 */
static void kc_tree_version_flags(kc_tree *t)
{
	int v = t->kver[0] * 100 + t->kver[1];
	bool known = t->kver[0] != 0;
	t->sem = v >= 611 ? KC_SEM_V2 : KC_SEM_V1;
	t->conf_61 = !(known && v < 601);
	t->rustc_version_text = v >= 612;
	t->clang_werror_ignored_opt = v >= 515;
	t->clang_werror_option_ignored = t->clang_werror_unused_arg = v >= 603;
	t->defconfig_list_opt = known && v < 513;
	t->kw_defconfig_list = known && v < 513;
	t->kw_option = known && v < 515;
	t->help_dashes = known && v < 509;
	t->source_glob = v < 500;
	t->ext_help_parent = v < 601;
	t->ask_eof_stops = v >= 612;
	t->expr_dups_612 = v >= 612;
	t->autoconf_61 = v < 602;
	t->yyerror_next_line = v < 609;
	t->eof_eol = v < 609;
	t->has_transitional = v >= 618;
	t->has_depends_if = t->parse_errors_7x = t->choice_rules_7x =
		t->has_repeated_inc = t->has_neg_submenu =
			t->has_warn_changed = v >= 613;
	/* "option": any name before 5.0, modules until 5.15, defconfig_list
	 * and allnoconfig_y until 5.13; "modules" an attribute from 5.15 */
	int ov = known ? v : KC_VER_NEWEST;
	t->opt_forms = (ov < 500 ? KC_OPT_LIST : 0) |
		       (ov >= 500 && ov < 515 ? KC_OPT_MODULES : 0) |
		       (ov >= 500 && ov < 513
				? KC_OPT_DEFCONFIG_LIST | KC_OPT_ALLNOCONFIG_Y
				: 0);
	t->modules_attr = ov >= 515;
	t->newer_than_kfit = v > KC_VER_NEWEST;
}

/* The tree's file NAME (relative to its top) into sb; false when absent. */
static bool read_tree_file(kc_tree *t, const char *name, kf_strbuf *sb)
{
	kf_diags tmp = KF_DIAGS_INIT;
	char *p = kf_xasprintf("%s/%s", t->srctree, name);
	bool ok = kf_exists(p) && kf_read_file(p, sb, &tmp) == 0;
	kf_diags_release(&tmp);
	free(p);
	return ok;
}

/*
 * What the tree's Makefiles tell of the clang -Werror flags and the
 * RUSTC_VERSION_TEXT export (docs/semantics.md, "Version flags"): the
 * flags follow the tree's own text, so a tree with a backport or between
 * two checked releases gets what its make gives; a tree without that text
 * (a test tree, a bare top Makefile) keeps kc_tree_version_flags'.  The
 * clang flags are in scripts/Makefile.clang from 5.15 on, in the top
 * Makefile's CLANG_FLAGS before.
 */
static void detect_make_features(kc_tree *t)
{
	static const struct {
		size_t off;       /* the kc_tree flag */
		const char *text; /* in the clang flags' file from the change on */
	} f[] = {
		{offsetof(kc_tree, clang_werror_ignored_opt),
		 "+= -Werror=ignored-optimization-argument"},
		{offsetof(kc_tree, clang_werror_option_ignored), "+= -Werror=option-ignored"},
		{offsetof(kc_tree, clang_werror_unused_arg),
		 "+= -Werror=unused-command-line-argument"},
	};
	kf_strbuf mk = KF_STRBUF_INIT, cl = KF_STRBUF_INIT;
	bool have_mk = read_tree_file(t, "Makefile", &mk);
	const char *m = kf_strbuf_str(&mk), *c = NULL;
	if (read_tree_file(t, "scripts/Makefile.clang", &cl))
		c = kf_strbuf_str(&cl);
	else if (have_mk && strstr(m, "\nCLANG_FLAGS"))
		c = m;
	for (size_t i = 0; c && i < sizeof(f) / sizeof(f[0]); i++)
		*(bool *)((char *)t + f[i].off) = strstr(c, f[i].text) != NULL;
	/* 5134a335cfe6 (6.12) put it next to CC_VERSION_TEXT */
	if (have_mk && strstr(m, "\nCC_VERSION_TEXT = "))
		t->rustc_version_text = strstr(m, "\nRUSTC_VERSION_TEXT = ") != NULL;
	kf_strbuf_release(&mk);
	kf_strbuf_release(&cl);
}

int kc_env_setup(kc_tree *t, const char *version, bool plain, kf_diags *d)
{
	/* start from this process's environment, as make passes it on */
	for (char **e = environ; *e; e++) {
		if (!plain && (!strncmp(*e, "LC_ALL=", 7) ||
			       !strncmp(*e, "GREP_OPTIONS=", 13)))
			continue; /* the kernel Makefile unexports these */
		const char *eq = strchr(*e, '=');
		if (!eq)
			continue;
		char *name = kf_xstrndup(*e, (size_t)(eq - *e));
		pp_setenv(t, name, eq + 1);
		free(name);
	}
	char *vv[4];
	bool pahole_version, llvm_affixes;
	if (read_version(t, version, vv, &pahole_version, &llvm_affixes, d) < 0)
		return -1;
	char *ver = vv[0], *pl = vv[1], *sl = vv[2], *ev = vv[3];
	kf_strbuf kv = KF_STRBUF_INIT;
	kf_strbuf_addstr(&kv, ver);
	if (*pl) {
		kf_strbuf_addf(&kv, ".%s", pl);
		if (*sl)
			kf_strbuf_addf(&kv, ".%s", sl);
	}
	kf_strbuf_addstr(&kv, ev);
	t->kernelversion = kf_arena_strdup(t->arena, kf_strbuf_str(&kv));
	t->kver[0] = atoi(ver);
	t->kver[1] = atoi(pl);
	t->kver[2] = atoi(sl);
	kc_tree_version_flags(t);
	detect_make_features(t);
	/* from 6.1 on always the new Makefile (test trees have a bare one);
	 * before, the tree's own files tell */
	llvm_affixes = llvm_affixes || t->conf_61;
	kf_strbuf_release(&kv);
	free(ver);
	free(pl);
	free(sl);
	free(ev);

	const char *sub = subarch();
	if (plain) {
		/* conf run by hand sees only what its environment holds */
		const char *a = user_var("ARCH"), *sa = user_var("SRCARCH");
		t->arch = kf_arena_strdup(t->arena, a ? a : sub);
		t->srcarch = kf_arena_strdup(t->arena, sa ? sa : kc_srcarch(t->arch));
		return 0;
	}
	pp_setenv(t, "LC_COLLATE", "C");
	pp_setenv(t, "LC_NUMERIC", "C");
	if (!t->arch)
		t->arch = kf_arena_strdup(t->arena, sub);
	t->srcarch = kf_arena_strdup(t->arena, kc_srcarch(t->arch));

	pp_setenv(t, "srctree", t->srctree);
	pp_setenv(t, "objtree", ".");
	pp_setenv(t, "ARCH", t->arch);
	pp_setenv(t, "SRCARCH", t->srcarch);
	pp_setenv(t, "SUBARCH", sub);
	pp_setenv(t, "KERNELVERSION", t->kernelversion);
	pp_setenv(t, "VERSION", "");

	const char *cross = user_var("CROSS_COMPILE");
	pp_setenv(t, "CROSS_COMPILE", cross ? cross : "");
	const char *llvm = user_var("LLVM");
	static const char *const tools[] = {"CC", "LD", "AR", "NM", "OBJCOPY", "HOSTCC"};
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		char *v = kc_make_tool(tools[i], user_var(tools[i]), llvm, llvm_affixes, cross);
		pp_setenv(t, tools[i], v);
		free(v);
	}
	pp_setenv(t, "RUSTC", user_var("RUSTC") ? user_var("RUSTC") : "rustc");
	pp_setenv(t, "BINDGEN", user_var("BINDGEN") ? user_var("BINDGEN") : "bindgen");
	pp_setenv(t, "PAHOLE", user_var("PAHOLE") ? user_var("PAHOLE") : "pahole");
	pp_setenv(t, "PYTHON3", user_var("PYTHON3") ? user_var("PYTHON3") : "python3");
	pp_setenv(t, "RUSTC_BOOTSTRAP", "1");

	/* The Makefile's tool versions, three independent $(shell ...):
	 * CC_VERSION_TEXT = $(subst #,,$(shell LC_ALL=C $(CC) --version 2>/dev/null | head -n 1))
	 * RUSTC_VERSION_TEXT = $(subst #,,$(shell $(RUSTC) --version 2>/dev/null)) (6.12+)
	 * PAHOLE_VERSION = $(shell $(srctree)/scripts/pahole-version.sh $(PAHOLE)) (6.19+)
	 * asked all at once, so that a cold cache runs them side by side */
	const char *vname[3];
	char *vcmd[3], *vtxt[3];
	bool vsubst[3]; /* $(subst #,,...) around it */
	size_t nv = 0;
	vname[nv] = "CC_VERSION_TEXT";
	vsubst[nv] = true;
	vcmd[nv++] = kf_xasprintf("LC_ALL=C %s --version 2>/dev/null | head -n 1",
				  pp_getenv(t, "CC"));
	if (t->rustc_version_text) {
		vname[nv] = "RUSTC_VERSION_TEXT";
		vsubst[nv] = true;
		vcmd[nv++] = kf_xasprintf("%s --version 2>/dev/null", pp_getenv(t, "RUSTC"));
	}
	if (pahole_version) {
		vname[nv] = "PAHOLE_VERSION";
		vsubst[nv] = false;
		vcmd[nv++] = kf_xasprintf("%s/scripts/pahole-version.sh %s", t->srctree,
					  pp_getenv(t, "PAHOLE"));
	}
	kc_shell_now_all(t, (const char *const *)vcmd, nv, vtxt);
	for (size_t i = 0; i < nv; i++) {
		if (vsubst[i]) {
			char *w = vtxt[i];
			for (char *r = vtxt[i]; *r; r++)
				if (*r != '#')
					*w++ = *r;
			*w = 0;
		}
		pp_setenv(t, vname[i], vtxt[i]);
		free(vcmd[i]);
	}
	bool clang = strstr(vtxt[0], "clang") != NULL;
	for (size_t i = 0; i < nv; i++)
		free(vtxt[i]);
	char *mkclang = kf_xasprintf("%s/scripts/Makefile.clang", t->srctree);
	bool top_clang_flags = !t->conf_61 && !kf_exists(mkclang);
	free(mkclang);
	if (clang && top_clang_flags) {
		/* 5.10's top Makefile: --target/--prefix/--gcc-toolchain only
		 * for a CROSS_COMPILE, the GNU assembler unless LLVM_IAS=1 */
		kf_strbuf cf = KF_STRBUF_INIT;
		if (cross) {
			add_cross_target(&cf, cross);
			/* GCC_TOOLCHAIN_DIR := $(dir $(shell which $(CROSS_COMPILE)elfedit)) */
			char *elfedit = kf_xasprintf("%selfedit", cross);
			char *found = kc_which(t, elfedit);
			free(elfedit);
			char *dir = kf_xstrdup("");
			if (found) {
				char *slash = strrchr(found, '/');
				free(dir);
				dir = kf_xstrndup(found, slash ? (size_t)(slash - found) + 1 : 0);
				if (!slash) {
					free(dir);
					dir = kf_xstrdup("./");
				}
			}
			const char *cb = strrchr(cross, '/') ? strrchr(cross, '/') + 1 : cross;
			kf_strbuf_addf(&cf, " --prefix=%s%s", dir, cb);
			char *up = kf_xasprintf("%s/..", dir);
			char *real = realpath(up, NULL);
			if (real && *real)
				kf_strbuf_addf(&cf, " --gcc-toolchain=%s", real);
			free(real);
			free(up);
			free(dir);
			free(found);
		}
		const char *ias = user_var("LLVM_IAS");
		const char *as = ias && !strcmp(ias, "1") ? "-fintegrated-as" : "-fno-integrated-as";
		kf_strbuf_addf(&cf, "%s%s -Werror=unknown-warning-option", cf.len ? " " : "", as);
		pp_setenv(t, "CLANG_FLAGS", kf_strbuf_str(&cf));
		kf_strbuf_release(&cf);
	} else if (clang) {
		/* scripts/Makefile.clang */
		kf_strbuf cf = KF_STRBUF_INIT;
		if (cross) {
			add_cross_target(&cf, cross);
		} else if (strcmp(t->srcarch, sub)) {
			static const struct {
				const char *arch, *target;
			} tgt[] = {{"arm", "arm-linux-gnueabi"},
				   {"arm64", "aarch64-linux-gnu"},
				   {"hexagon", "hexagon-linux-musl"},
				   {"loongarch", "loongarch64-linux-gnusf"},
				   {"m68k", "m68k-linux-gnu"},
				   {"mips", "mipsel-linux-gnu"},
				   {"powerpc", "powerpc64le-linux-gnu"},
				   {"riscv", "riscv64-linux-gnu"},
				   {"s390", "s390x-linux-gnu"},
				   {"sparc", "sparc64-linux-gnu"},
				   {"x86", "x86_64-linux-gnu"},
				   {"um", "x86_64-linux-gnu"}};
			for (size_t i = 0; i < sizeof(tgt) / sizeof(tgt[0]); i++)
				if (!strcmp(tgt[i].arch, t->srcarch))
					kf_strbuf_addf(&cf, "--target=%s", tgt[i].target);
		}
		const char *ias = user_var("LLVM_IAS");
		if (ias && !strcmp(ias, "0"))
			kf_strbuf_addstr(&cf, cf.len ? " -fno-integrated-as" : "-fno-integrated-as");
		else
			kf_strbuf_addstr(&cf, cf.len ? " -fintegrated-as" : "-fintegrated-as");
		kf_strbuf_addstr(&cf, " -Werror=unknown-warning-option");
		if (t->clang_werror_ignored_opt)
			kf_strbuf_addstr(&cf, " -Werror=ignored-optimization-argument");
		if (t->clang_werror_option_ignored)
			kf_strbuf_addstr(&cf, " -Werror=option-ignored");
		if (t->clang_werror_unused_arg)
			kf_strbuf_addstr(&cf, " -Werror=unused-command-line-argument");
		pp_setenv(t, "CLANG_FLAGS", kf_strbuf_str(&cf));
		kf_strbuf_release(&cf);
	}
	if (t->defconfig_list_opt) {
		/* the top Makefile exports it; 5.10's DEFCONFIG_LIST
		 * symbol reads it */
		char *def = kc_default_defconfig(t);
		const char *b = strrchr(def, '/');
		pp_setenv(t, "KBUILD_DEFCONFIG", b ? b + 1 : def);
		free(def);
	}
	return 0;
}

static void init_const(kc_tree *t, kc_sym *s, const char *name, kc_tri tri)
{
	s->name = (char *)name;
	s->type = S_TRISTATE;
	s->curr.val = (char *)name;
	s->curr.tri = tri;
	s->flags = SYMBOL_CONST | SYMBOL_VALID;
}

/* 6.11+ parser.y's choice_check_sanity: what a choice member must not
 * have.  Returns -1 when it has it (errors added). */
static int choice_check_sanity(kc_tree *t, kc_menu *menu)
{
	int ret = 0;
	for (kc_prop *prop = menu->sym->prop; prop; prop = prop->next) {
		if (prop->type == P_DEFAULT) {
			kf_diag_raw(t->diags, KF_ERROR,
				    "%s:%d: error: defaults for choice values not supported",
				    prop->file, prop->lineno);
			ret = -1;
		}
		if (t->choice_rules_7x) {
			/* 7.x: a member's prompt anywhere else is an error */
			if (prop->menu != menu && prop->type == P_PROMPT) {
				kf_diag_raw(t->diags, KF_ERROR,
					    "%s:%d: error: choice value must not have a prompt in another entry",
					    prop->file, prop->lineno);
				ret = -1;
			}
		} else if (prop->menu != menu && prop->type == P_PROMPT &&
			   prop->menu->parent != menu->parent) {
			kf_diag_raw(t->diags, KF_ERROR,
				    "%s:%d: error: choice value has a prompt outside its choice group",
				    prop->file, prop->lineno);
			ret = -1;
		}
	}
	return ret;
}

/* Read scripts/kconfig/NAME of the tree into sb; false when absent. */
static bool read_conf_source(kc_tree *t, const char *name, kf_strbuf *sb)
{
	kf_diags tmp = KF_DIAGS_INIT;
	char *p = kf_xasprintf("%s/scripts/kconfig/%s", t->srctree, name);
	bool ok = kf_exists(p) && kf_read_file(p, sb, &tmp) == 0;
	kf_diags_release(&tmp);
	free(p);
	return ok;
}

/*
 * conf behaviours that changed between 5.10 and 6.1 at releases not pinned
 * down here, and that stable trees got by backport (Debian's 6.1 has
 * KCONFIG_WARN_UNKNOWN_SYMBOLS and KCONFIG_WERROR, upstream 6.5): for a
 * tree before 6.1 the tree's own scripts/kconfig sources decide; without
 * those sources (a test tree) a tree before 6.1 has the 5.10 behaviour.
 * Trees from 6.1 on always have the new one.
 */
static void detect_conf_features(kc_tree *t)
{
	if (t->conf_61) {
		t->has_warn_unknown = t->has_werror = true;
		return;
	}
	kf_strbuf cd = KF_STRBUF_INIT, sy = KF_STRBUF_INIT, cf = KF_STRBUF_INIT;
	if (read_conf_source(t, "confdata.c", &cd) &&
	    read_conf_source(t, "symbol.c", &sy) &&
	    read_conf_source(t, "conf.c", &cf)) {
		const char *c = kf_strbuf_str(&cd);
		t->has_warn_unknown = strstr(c, "KCONFIG_WARN_UNKNOWN_SYMBOLS") != NULL;
		t->has_werror = strstr(c, "KCONFIG_WERROR") ||
				strstr(kf_strbuf_str(&sy), "KCONFIG_WERROR");
		t->old_end_of = !strstr(c, "end_check:");
		t->old_conf_read = !strstr(c, "if (line[1] != ' ')");
		t->seed_to_stderr = strstr(kf_strbuf_str(&cf), "stderr, \"KCONFIG_SEED") != NULL;
	} else {
		t->old_end_of = t->old_conf_read = t->seed_to_stderr = true;
	}
	kf_strbuf_release(&cd);
	kf_strbuf_release(&sy);
	kf_strbuf_release(&cf);
}

/* Does scripts/kconfig/NAME of the tree contain text?  -1: no such file. */
static int conf_source_has(kc_tree *t, const char *name, const char *text)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	int r = read_conf_source(t, name, &sb)
			? strstr(kf_strbuf_str(&sb), text) != NULL
			: -1;
	kf_strbuf_release(&sb);
	return r;
}

/*
 * What conf changed between 6.12 and 7.3 (docs/semantics.md, "7.x"): the
 * tree's own scripts/kconfig decides, so a 6.13 ... 7.2 tree behaves as
 * its conf does whichever release brought each change; a tree without
 * those sources (a test tree) keeps kc_tree_version_flags' (from 6.13 on,
 * transitional from 6.18).
 */
static void detect_conf_features_7x(kc_tree *t)
{
	static const struct {
		size_t off;        /* the kc_tree flag */
		const char *file;  /* scripts/kconfig/FILE */
		const char *text;  /* present from the change on */
	} f[] = {
		{offsetof(kc_tree, has_transitional), "lexer.l",
		 "\"transitional\""},
		{offsetof(kc_tree, has_depends_if), "parser.y",
		 "T_DEPENDS T_ON expr if_expr"},
		{offsetof(kc_tree, parse_errors_7x), "parser.y",
		 "zconf_error(\"menuconfig statement without prompt\")"},
		{offsetof(kc_tree, choice_rules_7x), "parser.y",
		 "must not have a prompt in another entry"},
		{offsetof(kc_tree, has_repeated_inc), "util.c",
		 "repeated inclusion of"},
		{offsetof(kc_tree, has_neg_submenu), "expr.c",
		 "expr_contains_symbol_negated"},
		{offsetof(kc_tree, has_warn_changed), "confdata.c",
		 "KCONFIG_WARN_CHANGED_INPUT"},
		{offsetof(kc_tree, expr_dups_612), "expr.c",
		 "static struct expr *expr_lookup("},
		{offsetof(kc_tree, ask_eof_stops), "conf.c",
		 "no value for new symbol '%s' at end of input"},
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		bool *flag = (bool *)((char *)t + f[i].off);
		int has = t->sem == KC_SEM_V2
				  ? conf_source_has(t, f[i].file, f[i].text)
				  : 0;
		if (has >= 0)
			*flag = has;
	}
}

/*
 * The "option" keyword and "modules" (docs/semantics.md, "5.10's
 * generation"): which keywords the tree's lexer.l has, and which
 * "option" rules its parser.y has; without those sources,
 * kc_tree_version_flags' (the end of "option NAME" with any name, the
 * keyword table's removal, is not pinned down: 5.0 is assumed).
 */
static void detect_option_syntax(kc_tree *t)
{
	kf_strbuf lx = KF_STRBUF_INIT;
	bool have_lexer = read_conf_source(t, "lexer.l", &lx);
	kc_lex_keywords(t, have_lexer ? kf_strbuf_str(&lx) : NULL);
	kf_strbuf_release(&lx);

	static const struct {
		unsigned form;    /* KC_OPT_* */
		const char *text; /* in parser.y when the tree has it */
	} f[] = {
		{KC_OPT_LIST, "symbol_option_list"},
		{KC_OPT_MODULES, "T_OPTION T_MODULES T_EOL"},
		{KC_OPT_DEFCONFIG_LIST, "T_OPTION T_DEFCONFIG_LIST T_EOL"},
		{KC_OPT_ALLNOCONFIG_Y, "T_OPTION T_ALLNOCONFIG_Y T_EOL"},
	};
	kf_strbuf py = KF_STRBUF_INIT;
	if (read_conf_source(t, "parser.y", &py)) {
		const char *s = kf_strbuf_str(&py);
		t->opt_forms = 0;
		for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
			if (strstr(s, f[i].text))
				t->opt_forms |= f[i].form;
		t->modules_attr = strstr(s, "config_option: T_MODULES T_EOL") != NULL;
	}
	kf_strbuf_release(&py);
}

/* 6.18+ parser.y's transitional_check_sanity: a transitional symbol has
 * no dependencies, visibility or properties (help only).  -1 on error. */
static int transitional_check_sanity(kc_tree *t, kc_menu *menu)
{
	if (!menu->sym || !(menu->sym->flags & SYMBOL_TRANS))
		return 0;
	if ((menu->dep && !expr_is_yes(t, menu->dep)) ||
	    (menu->visibility && !expr_is_yes(t, menu->visibility))) {
		kf_diag_raw(t->diags, KF_ERROR,
			    "%s:%d: error: transitional symbols can only have help sections",
			    menu->file, menu->lineno);
		return -1;
	}
	for (kc_prop *prop = menu->sym->prop; prop; prop = prop->next) {
		if (prop->type != P_COMMENT) {
			kf_diag_raw(t->diags, KF_ERROR,
				    "%s:%d: error: transitional symbols can only have help sections",
				    prop->file, prop->lineno);
			return -1;
		}
	}
	return 0;
}

/* A tree with its environment, ready to parse; NULL (in d) on error.
 * spec: a speculative pass's tree (kc_tree_spec_parse). */
static kc_tree *tree_begin(const kc_load_opts *o, kf_diags *d, kc_prefetch *spec)
{
	kc_tree *t = kf_xcalloc(1, sizeof(*t));
	t->arena = kf_arena_new_large();
	t->diags = d;
	t->spec = spec;
	t->lopts = o;
	t->shell_jobs = o->shell_jobs > 0 ? o->shell_jobs : kf_jobs("KFIT_SHELL_JOBS");
	t->srctree = kf_arena_strdup(t->arena, o->srctree);
	t->arch = o->arch ? kf_arena_strdup(t->arena, o->arch) : NULL;
	t->cache_dir = o->cache_dir ? kf_arena_strdup(t->arena, o->cache_dir) : NULL;
	t->no_cache = o->no_cache;
	t->no_shell = o->no_shell;
	t->shell_timeout_ms = o->shell_timeout_ms;
	t->verbose = o->verbose;
	t->shell_fn = o->shell_fn;
	t->shell_ctx = o->shell_ctx;
	init_const(t, &t->sym_yes, "y", KC_YES);
	init_const(t, &t->sym_mod, "m", KC_MOD);
	init_const(t, &t->sym_no, "n", KC_NO);
	t->sym_empty.name = "";
	t->sym_empty.curr.val = "";
	t->sym_empty.flags = SYMBOL_VALID;

	const char *top = o->kconfig ? o->kconfig : "Kconfig";
	char *kc = top[0] == '/' ? kf_xstrdup(top)
				 : kf_xasprintf("%s/%s", t->srctree, top);
	if (!o->kconfig && !kf_exists(kc)) {
		kf_diag_add(d, KF_ERROR, t->srctree, 0, 0,
			    "not a kernel tree: no Kconfig file at its top");
		free(kc);
		kc_tree_free(t);
		return NULL;
	}
	free(kc);
	if (kc_env_setup(t, o->version, o->plain_env, d) < 0) {
		kc_tree_free(t);
		return NULL;
	}
	t->hashsize = t->sem == KC_SEM_V2 ? 16384 : 9973;
	detect_conf_features(t);
	detect_conf_features_7x(t);
	t->conf_errors = o->conf_errors;
	/* 6.1's parser.y has it, 6.12's has not: both changed in 6.9 (the
	 * kbuild-v6.9 pull: 313c6cd3c2d5 "kconfig: fix off-by-one in
	 * zconf_error()" and the cur_filename/cur_lineno rework; the top
	 * file's <<EOF>> with 8facc5f31954), the version decides when the
	 * tree has no scripts/kconfig sources (kc_tree_version_flags) */
	int plus1 = conf_source_has(t, "parser.y", "zconf_lineno() + 1, err");
	if (plus1 >= 0)
		t->yyerror_next_line = plus1;
	int eol = conf_source_has(t, "lexer.l", "if (current_file) {");
	if (eol >= 0)
		t->eof_eol = eol;
	/* f70f74d15ca8 (5.9) ended "---help---"; 7a263a040256 (6.1) made
	 * the Location of "?" start at the prompt's own menu */
	int dashes = conf_source_has(t, "lexer.l", "---help---");
	if (dashes >= 0)
		t->help_dashes = dashes;
	int parent = conf_source_has(t, "menu.c", "menu = prop->menu->parent;");
	if (parent >= 0)
		t->ext_help_parent = parent;
	detect_option_syntax(t);
	t->hash = kf_arena_alloc(t->arena, t->hashsize * sizeof(kc_sym *));
	return t;
}

void kc_tree_spec_parse(const kc_load_opts *o, kc_prefetch *pf)
{
	kf_diags d = KF_DIAGS_INIT;
	kc_tree *t = tree_begin(o, &d, pf);
	if (t)
		kc_parse(t, o->kconfig ? o->kconfig : "Kconfig");
	kc_tree_free(t);
	kf_diags_release(&d);
}

void kc_tree_set_diags(kc_tree *t, kf_diags *d)
{
	t->diags = d;
}

kc_tree *kc_tree_load(const kc_load_opts *o, kf_diags *d)
{
	kc_tree *t = tree_begin(o, d, NULL);
	if (!t)
		return NULL;
	if (o->seed_first) /* conf does it while reading its options */
		kc_seed_first(t, o->seed, &t->out);
	const char *top = o->kconfig ? o->kconfig : "Kconfig";
	if (kc_parse(t, top) < 0) {
		if (o->failed_out)
			kf_strbuf_addstr(o->failed_out, kf_strbuf_str(&t->out));
		kc_tree_free(t);
		return NULL;
	}
	if (!t->modules_sym)
		t->modules_sym = &t->sym_no;
	if (!t->rootmenu.prompt) {
		t->current_entry = &t->rootmenu;
		menu_add_prompt(t, P_MENU, "Main menu", NULL, "Kconfig", 0);
	}
	menu_finalize(t);

	unsigned i;
	kc_sym *sym;
	int errs = 0;
	if (t->sem == KC_SEM_V1) {
		for_all_symbols(t, i, sym) if (sym_check_deps(t, sym)) errs++;
	} else {
		for (kc_menu *m = menu_next(&t->rootmenu, &t->rootmenu); m;
		     m = menu_next(m, &t->rootmenu)) {
			if (m->sym && sym_check_deps(t, m->sym))
				errs++;
			if (transitional_check_sanity(t, m))
				errs++;
			if (m->sym && sym_is_choice(m->sym))
				for (kc_menu *c = menu_next(m, m); c; c = menu_next(c, m))
					if (c->sym && choice_check_sanity(t, c))
						errs++;
		}
	}
	if (errs || t->too_deep) {
		if (o->failed_out)
			kf_strbuf_addstr(o->failed_out, kf_strbuf_str(&t->out));
		kc_tree_free(t);
		return NULL;
	}
	t->conf_changed = true;
	t->lopts = NULL;
	kc_prefetch_free(t->pf); /* the results are taken */
	t->pf = NULL;
	return t;
}

void kc_tree_free(kc_tree *t)
{
	if (!t)
		return;
	kf_strbuf_release(&t->out);
	sym_rdep_free(t);
	kc_prefetch_free(t->pf);
	kf_strmap_release(&t->bin_seen);
	for (size_t i = 0; i < t->nbin_id; i++)
		free(t->bin_id[i]);
	free(t->bin_id);
	free(t->env);
	free(t->files);
	kf_arena_free(t->arena);
	free(t);
}

const char *kc_tree_kernelversion(const kc_tree *t)
{
	return t->kernelversion;
}
