/*
 * kc_autoconf.c - what conf writes for the build besides the .config
 * (confdata.c's conf_write_autoconf, 6.1 and later): include/config/auto.conf,
 * include/generated/autoconf.h, include/generated/rustc_cfg,
 * include/config/auto.conf.cmd (the Kconfig files and environment the
 * result depends on) and the empty include/config/SYMBOL files whose
 * times tell make which objects a changed option affects.
 */
#include "kc_internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void kc_file_seen(kc_tree *t, const char *name)
{
	for (size_t i = 0; i < t->nfiles; i++)
		if (!strcmp(t->files[i], name))
			return;
	KF_GROW(t->files, t->nfiles + 1, t->afiles);
	t->files[t->nfiles++] = kf_arena_strdup(t->arena, name);
}

static bool v61(const kc_tree *t) /* 6.1's variant (before 6.2) */
{
	return t->autoconf_61;
}

static void heading(kc_tree *t, kf_strbuf *out, const char *prefix,
		    const char *decoration, const char *postfix)
{
	kf_strbuf_addf(out, "%s\n%s Automatically generated file; DO NOT EDIT.\n%s %s\n%s\n",
		       prefix, decoration, decoration, t->rootmenu.prompt->text, postfix);
}

static void sym_autoconf(kc_tree *t, kc_sym *sym, kf_strbuf *out)
{
	const char *val = sym_get_string_value(t, sym);
	if ((sym->type == S_BOOLEAN || sym->type == S_TRISTATE) && *val == 'n')
		return;
	kf_strbuf_addf(out, "CONFIG_%s=%s\n", sym->name, val);
}

static void sym_c(kc_tree *t, kc_sym *sym, kf_strbuf *out)
{
	const char *val = sym_get_string_value(t, sym);
	const char *suffix = "", *prefix = "";
	switch (sym->type) {
	case S_BOOLEAN:
	case S_TRISTATE:
		if (*val == 'n')
			return;
		if (*val == 'm')
			suffix = "_MODULE";
		val = "1";
		break;
	case S_HEX:
		if (val[0] != '0' || (val[1] != 'x' && val[1] != 'X'))
			prefix = "0x";
		break;
	case S_STRING:
		kf_strbuf_addf(out, "#define CONFIG_%s ", sym->name);
		kc_escape_string_value(val, out);
		kf_strbuf_addch(out, '\n');
		return;
	default:
		break;
	}
	kf_strbuf_addf(out, "#define CONFIG_%s%s %s%s\n", sym->name, suffix, prefix, val);
}

static void sym_rustc(kc_tree *t, kc_sym *sym, kf_strbuf *out)
{
	const char *val = sym_get_string_value(t, sym);
	char *owned = NULL;
	switch (sym->type) {
	case S_BOOLEAN:
	case S_TRISTATE:
		if (*val == 'n')
			return;
		kf_strbuf_addf(out, "--cfg=CONFIG_%s\n", sym->name);
		break;
	case S_HEX:
		if (val[0] != '0' || (val[1] != 'x' && val[1] != 'X'))
			val = owned = kf_xasprintf("0x%s", val);
		break;
	default:
		break;
	}
	kf_strbuf_addf(out, "--cfg=CONFIG_%s=", sym->name);
	kc_escape_string_value(val, out);
	kf_strbuf_addch(out, '\n');
	free(owned);
}

typedef void sym_printer(kc_tree *t, kc_sym *sym, kf_strbuf *out);

/* mkdir -p of a file's directory (make_parent_dir) */
static int parent_dir(const char *path)
{
	char *d = kf_xstrdup(path);
	char *s = strrchr(d, '/');
	int rc = 0;
	if (s && s != d) {
		*s = 0;
		rc = kf_mkdir_p(d, 0755);
	}
	free(d);
	return rc;
}

/* write name through name.tmp, as conf does */
static int write_tmp_rename(kc_tree *t, const char *name, const kf_strbuf *text)
{
	if (parent_dir(name) < 0) {
		kf_diag_add(t->diags, KF_ERROR, name, 0, 0, "cannot create its directory");
		return -1;
	}
	char *tmp = kf_xasprintf("%s.tmp", name);
	int rc = kf_write_file_atomic(tmp, text->buf ? text->buf : "", text->len, false,
				      t->diags);
	if (rc == 0 && rename(tmp, name) < 0) {
		kf_diag_add(t->diags, KF_ERROR, name, 0, 0, "rename failed");
		rc = -1;
	}
	free(tmp);
	return rc;
}

static int write_symbols(kc_tree *t, const char *name, sym_printer *print,
			 const char *prefix, const char *decoration, const char *postfix)
{
	kf_strbuf out = KF_STRBUF_INIT;
	kc_sym *sym;
	unsigned i;
	if (prefix)
		heading(t, &out, prefix, decoration, postfix);
	for_all_symbols(t, i, sym)
	{
		if ((sym->flags & SYMBOL_WRITE) && sym->name && sym->type != S_UNKNOWN)
			print(t, sym, &out);
	}
	int rc = write_tmp_rename(t, name, &out);
	kf_strbuf_release(&out);
	return rc;
}

static int write_cmd(kc_tree *t, const char *autoconf)
{
	kf_strbuf out = KF_STRBUF_INIT;
	size_t nenv = 0;
	for (kc_env *e = t->envs; e; e = e->next)
		nenv++;
	kc_env **envs = kf_xcalloc(nenv + 1, sizeof(*envs));
	size_t k = nenv;
	for (kc_env *e = t->envs; e; e = e->next)
		envs[--k] = e; /* the kernel's list is in first-use order */
	if (v61(t)) {
		/* 6.1: files newest first, the target named literally */
		kf_strbuf_addstr(&out, "deps_config := \\\n");
		for (size_t i = t->nfiles; i-- > 0;)
			kf_strbuf_addf(&out, "\t%s \\\n", t->files[i]);
		kf_strbuf_addf(&out, "\n%s: $(deps_config)\n\n", autoconf);
		for (size_t i = 0; i < nenv; i++)
			kf_strbuf_addf(&out, "ifneq \"$(%s)\" \"%s\"\n%s: FORCE\nendif\n",
				       envs[i]->name, envs[i]->value, autoconf);
		kf_strbuf_addstr(&out, "\n$(deps_config): ;\n");
	} else {
		kf_strbuf_addf(&out, "autoconfig := %s\n\ndeps_config := \\\n", autoconf);
		for (size_t i = 0; i < t->nfiles; i++)
			kf_strbuf_addf(&out, "\t%s \\\n", t->files[i]);
		kf_strbuf_addstr(&out, "\n$(autoconfig): $(deps_config)\n$(deps_config): ;\n");
		for (size_t i = 0; i < nenv; i++)
			kf_strbuf_addf(&out, "\nifneq \"$(%s)\" \"%s\"\n$(autoconfig): FORCE\nendif\n",
				       envs[i]->name, envs[i]->value);
	}
	free(envs);
	char *name = kf_xasprintf("%s.cmd", autoconf);
	int rc = write_tmp_rename(t, name, &out);
	free(name);
	kf_strbuf_release(&out);
	return rc;
}

/* conf_touch_dep(): include/config/NAME (plen: the length of
 * "include/config/" in name) created or emptied.  A name with a slash
 * (never one conf wrote) touches nothing. */
static int touch_dep(const char *autoconf, size_t plen, const char *name)
{
	if (strchr(name, '/'))
		return 0;
	char *path = kf_xasprintf("%.*s%s", (int)plen, autoconf, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	free(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* conf_read_simple(auto.conf, S_DEF_AUTO): the values of the last build.
 * auto.conf is conf's own output, so only its line forms are read
 * ("CONFIG_X=value", "# CONFIG_X is not set"); its strings are unquoted
 * and taken as they are; conf warns about nothing in it.  A symbol the
 * Kconfig no longer has is touched (include/config/X), as conf does: what
 * was built with it must be rebuilt. */
static void read_auto(kc_tree *t, const char *name, size_t plen)
{
	const unsigned flag = SYMBOL_DEF << S_DEF_AUTO;
	kc_sym *sym;
	unsigned i;
	for_all_symbols(t, i, sym)
	{
		if (t->sem == KC_SEM_V1) {
			sym->flags |= SYMBOL_CHANGED;
			sym->flags &= ~(flag | SYMBOL_VALID);
			if (sym_is_choice(sym))
				sym->flags |= flag;
		} else
			sym->flags &= ~flag;
		sym->def[S_DEF_AUTO].val = NULL;
		sym->def[S_DEF_AUTO].tri = KC_NO;
	}
	if (t->sem == KC_SEM_V2)
		for_all_symbols(t, i, sym) sym->flags &= ~SYMBOL_VALID;
	kf_strbuf buf = KF_STRBUF_INIT;
	kf_diags tmp = KF_DIAGS_INIT;
	if (!kf_exists(name) || kf_read_file(name, &buf, &tmp) < 0) {
		kf_diags_release(&tmp);
		kf_strbuf_release(&buf);
		return;
	}
	kf_diags_release(&tmp);
	char *save = NULL;
	for (char *line = strtok_r(buf.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p;
		if (!strncmp(line, "# CONFIG_", 9)) {
			line += 2;
			char *sp = strchr(line, ' ');
			if (!sp || strncmp(sp + 1, "is not set", 10))
				continue;
			*sp = 0;
			p = "n";
		} else if (!strncmp(line, "CONFIG_", 7)) {
			char *eq = strchr(line, '=');
			if (!eq)
				continue;
			*eq = 0;
			p = eq + 1;
		} else {
			continue;
		}
		sym = sym_find(t, line + 7);
		if (!sym) {
			touch_dep(name, plen, line + 7);
			continue;
		}
		switch (sym->type) {
		case S_TRISTATE:
		case S_BOOLEAN:
			if (p[0] == 'm' && sym->type == S_TRISTATE)
				sym->def[S_DEF_AUTO].tri = KC_MOD;
			else if (p[0] == 'y')
				sym->def[S_DEF_AUTO].tri = KC_YES;
			else if (p[0] == 'n')
				sym->def[S_DEF_AUTO].tri = KC_NO;
			else
				continue;
			sym->flags |= flag;
			break;
		case S_STRING: /* unquoted in auto.conf, read raw */
		case S_INT:
		case S_HEX:
			if (sym_string_valid(sym, p)) {
				sym->def[S_DEF_AUTO].val = kf_arena_strdup(t->arena, p);
				sym->flags |= flag;
			}
			break;
		default:
			break;
		}
	}
	kf_strbuf_release(&buf);
}

static int touch_deps(kc_tree *t, const char *autoconf)
{
	const unsigned flag = SYMBOL_DEF << S_DEF_AUTO;
	const char *slash = strrchr(autoconf, '/');
	size_t plen = slash ? (size_t)(slash - autoconf) + 1 : 0;
	kc_sym *sym;
	unsigned i;

	read_auto(t, autoconf, plen);
	if (v61(t))
		sym_calc_value(t, t->modules_sym);
	for_all_symbols(t, i, sym)
	{
		if (v61(t)) {
			sym_calc_value(t, sym);
			if ((sym->flags & SYMBOL_NO_WRITE) || !sym->name)
				continue;
		} else if (sym_is_choice(sym))
			continue;
		if (sym->flags & SYMBOL_WRITE) {
			if (sym->flags & flag) {
				switch (sym->type) {
				case S_BOOLEAN:
				case S_TRISTATE:
					if (sym_get_tristate_value(sym) == sym->def[S_DEF_AUTO].tri)
						continue;
					break;
				case S_STRING:
				case S_HEX:
				case S_INT:
					if (!strcmp(sym_get_string_value(t, sym),
						    sym->def[S_DEF_AUTO].val))
						continue;
					break;
				default:
					break;
				}
			} else if ((sym->type == S_BOOLEAN || sym->type == S_TRISTATE) &&
				   sym_get_tristate_value(sym) == KC_NO)
				continue;
		} else if (!(sym->flags & flag))
			continue;
		if (touch_dep(autoconf, plen, sym->name) < 0)
			return -1;
	}
	return 0;
}

int kc_write_autoconf(kc_tree *t, const kc_autoconf_opts *o)
{
	kc_sym *sym;
	unsigned i;
	if (!o->overwrite && kf_exists(o->autoconfig))
		return 0;
	if (write_cmd(t, o->autoconfig) < 0)
		return -1;
	if (!v61(t))
		for_all_symbols(t, i, sym) sym_calc_value(t, sym);
	if (touch_deps(t, o->autoconfig) < 0)
		return 1;
	if (v61(t))
		for_all_symbols(t, i, sym) sym_calc_value(t, sym);
	if (write_symbols(t, o->autoheader, sym_c, "/*", " *", " */") < 0)
		return -1;
	if (o->rustccfg && write_symbols(t, o->rustccfg, sym_rustc, NULL, NULL, NULL) < 0)
		return -1;
	/* auto.conf last: the build depends on it, it marks completion */
	return write_symbols(t, o->autoconfig, sym_autoconf, "#", "#", "#") < 0 ? -1 : 0;
}
