/*
 * kc_conf.c - reading and writing .config files and the modes of the
 * kernel's conf (confdata.c and conf.c): olddefconfig, alldefconfig,
 * allno/allyes/allmodconfig, randconfig, defconfig, savedefconfig,
 * listnewconfig and tinyconfig, with KCONFIG_ALLCONFIG and the search
 * through KCONFIG_DEFCONFIG_LIST.  Output is built in memory and written
 * atomically (temp file beside it, previous kept as .old, rename).
 */
#include "kc_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

struct reader {
	kc_tree *t;           /* tree */
	const char *filename; /* name printed in warnings */
	int lineno;           /* current line */
	bool warn_unknown;    /* KCONFIG_WARN_UNKNOWN_SYMBOLS */
};

static void conf_warning(struct reader *r, const char *fmt, ...) KF_PRINTF(2, 3);

static void conf_warning(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addf(&sb, "%s:%d:warning: ", r->filename, r->lineno);
	va_start(ap, fmt);
	kf_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	kf_diag_raw(r->t->diags, KF_WARNING, "%s", kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	r->t->conf_warnings++;
}

/* Open name as the kernel's zconf_fopen: as given, else under srctree. */
static int conf_load_file(kc_tree *t, const char *name, kf_strbuf *buf)
{
	kf_diags tmp = KF_DIAGS_INIT;
	int rc = -1;
	if (kf_exists(name) && !kf_is_dir(name))
		rc = kf_read_file(name, buf, &tmp);
	if (rc < 0 && name[0] != '/') {
		char *p = kf_xasprintf("%s/%s", t->srctree, name);
		kf_strbuf_reset(buf);
		if (kf_exists(p) && !kf_is_dir(p))
			rc = kf_read_file(p, buf, &tmp);
		free(p);
	}
	kf_diags_release(&tmp);
	return rc;
}

static int conf_set_sym_val(struct reader *r, kc_sym *sym, int def,
			    unsigned def_flags, char *p)
{
	char *p2;

	switch (sym->type) {
	case S_TRISTATE:
		if (p[0] == 'm') {
			sym->def[def].tri = KC_MOD;
			sym->flags |= def_flags;
			break;
		}
		/* fall through */
	case S_BOOLEAN:
		if (p[0] == 'y') {
			sym->def[def].tri = KC_YES;
			sym->flags |= def_flags;
			break;
		}
		if (p[0] == 'n') {
			sym->def[def].tri = KC_NO;
			sym->flags |= def_flags;
			break;
		}
		conf_warning(r, "symbol value '%s' invalid for %s", p, sym->name);
		return 1;
	case S_STRING:
		if (*p++ != '"')
			break;
		for (p2 = p; (p2 = strpbrk(p2, "\"\\")); p2++) {
			if (*p2 == '"') {
				*p2 = 0;
				break;
			}
			memmove(p2, p2 + 1, strlen(p2));
		}
		if (!p2) {
			conf_warning(r, "invalid string found");
			return 1;
		}
		/* fall through */
	case S_INT:
	case S_HEX:
		if (sym_string_valid(sym, p)) {
			sym->def[def].val = kf_arena_strdup(r->t->arena, p);
			sym->flags |= def_flags;
		} else {
			conf_warning(r, "symbol value '%s' invalid for %s", p,
				     sym->name);
			return 1;
		}
		break;
	default:
		break;
	}
	return 0;
}

/* conf_read_simple for S_DEF_USER from an in-memory file. */
static void conf_read_buf(kc_tree *t, const char *filename, const char *buf,
			  size_t len, bool warn_unknown)
{
	struct reader r = {t, filename, 0, warn_unknown};
	const int def = S_DEF_USER;
	const unsigned def_flags = SYMBOL_DEF << def;
	kc_sym *sym;
	unsigned i;
	bool v2 = t->sem == KC_SEM_V2;

	t->conf_warnings = 0;
	for_all_symbols(t, i, sym)
	{
		if (v2) {
			sym->flags &= ~def_flags;
		} else {
			sym->flags |= SYMBOL_CHANGED;
			sym->flags &= ~(def_flags | SYMBOL_VALID);
			if (sym_is_choice(sym))
				sym->flags |= def_flags;
		}
		sym->def[def].val = NULL;
		sym->def[def].tri = KC_NO;
	}
	if (v2)
		for_all_symbols(t, i, sym) sym->flags &= ~SYMBOL_VALID;

	size_t pos = 0;
	kf_strbuf lb = KF_STRBUF_INIT;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) + 1 : len;
		kf_strbuf_reset(&lb);
		kf_strbuf_add(&lb, buf + pos, end - pos);
		pos = end;
		r.lineno++;
		char *line = lb.buf;
		size_t ll = lb.len;
		char *p, *val;
		const char *sym_name;

		if (v2) {
			if (ll > 0 && line[ll - 1] == '\n') {
				line[--ll] = 0;
				if (ll > 0 && line[ll - 1] == '\r')
					line[--ll] = 0;
			}
			if (!line[0])
				continue;
		}
		bool old_unset = false;
		if (line[0] == '#' && t->old_conf_read) {
			/* 5.10: any second character; "is not set" sets
			 * bool/tristate symbols only, without a warning
			 * for the others */
			if (!line[1] || strncmp(line + 2, "CONFIG_", 7))
				continue;
			sym_name = line + 9;
			p = strchr(sym_name, ' ');
			if (!p)
				continue;
			*p++ = 0;
			if (strncmp(p, "is not set", 10))
				continue;
			val = "n";
			old_unset = true;
		} else if (line[0] == '#') {
			if (line[1] != ' ')
				continue;
			p = line + 2;
			if (strncmp(p, "CONFIG_", 7))
				continue;
			sym_name = p + 7;
			p = strchr(sym_name, ' ');
			if (!p)
				continue;
			*p++ = 0;
			if (v2 ? strcmp(p, "is not set") : strncmp(p, "is not set", 10))
				continue;
			val = "n";
		} else if (!strncmp(line, "CONFIG_", 7)) {
			sym_name = line + 7;
			p = strchr(sym_name, '=');
			if (!p) {
				if (v2)
					conf_warning(&r, "unexpected data: %s", line);
				continue;
			}
			*p++ = 0;
			val = p;
			if (!v2) {
				char *p2 = strchr(p, '\n');
				if (p2) {
					*p2-- = 0;
					if (*p2 == '\r')
						*p2 = 0;
				}
			}
		} else {
			if (v2)
				conf_warning(&r, "unexpected data: %s", line);
			else if (line[0] != '\r' && line[0] != '\n')
				conf_warning(&r, "unexpected data: %.*s",
					     (int)strcspn(line, "\r\n"), line);
			continue;
		}

		sym = sym_find(t, sym_name);
		if (!sym) {
			if (warn_unknown)
				conf_warning(&r, "unknown symbol: %s", sym_name);
			t->conf_changed = true;
			continue;
		}
		if (sym->flags & def_flags)
			conf_warning(&r, "override: reassigning to symbol %s",
				     sym->name);
		if (old_unset) {
			if (sym->type == S_BOOLEAN || sym->type == S_TRISTATE) {
				sym->def[def].tri = KC_NO;
				sym->flags |= def_flags;
			}
		} else if (conf_set_sym_val(&r, sym, def, def_flags, val)) {
			continue;
		}

		if (v2) {
			kc_menu *choice = sym_get_choice_menu(t, sym);
			if (choice)
				choice_member_move_front(choice, sym);
			continue;
		}
		if (sym_is_choice_value_v1(sym)) {
			kc_sym *cs = prop_get_symbol(sym_get_choice_prop(sym));
			switch (sym->def[def].tri) {
			case KC_NO:
				break;
			case KC_MOD:
				if (cs->def[def].tri == KC_YES) {
					conf_warning(&r, "%s creates inconsistent choice state",
						     sym->name);
					cs->flags &= ~def_flags;
				}
				break;
			case KC_YES:
				if (cs->def[def].tri != KC_NO)
					conf_warning(&r, "override: %s changes choice state",
						     sym->name);
				cs->def[def].val = sym;
				break;
			}
			cs->def[def].tri = TRI_OR(cs->def[def].tri, sym->def[def].tri);
		}
	}
	kf_strbuf_release(&lb);
}

/* conf_read_simple(name): 0 when read, 1 when not found. */
static int conf_read_simple(kc_tree *t, const char *name, bool warn_unknown)
{
	kf_strbuf buf = KF_STRBUF_INIT;
	if (conf_load_file(t, name, &buf) < 0) {
		kf_strbuf_release(&buf);
		return 1;
	}
	conf_read_buf(t, name, buf.buf, buf.len, warn_unknown);
	kf_strbuf_release(&buf);
	return 0;
}

/* After reading: the consistency pass of conf_read(). */
static void conf_read_finish(kc_tree *t)
{
	kc_sym *sym;
	unsigned i;
	int conf_unsaved = 0;
	bool v2 = t->sem == KC_SEM_V2;

	sym_calc_value(t, t->modules_sym);
	for_all_symbols(t, i, sym)
	{
		sym_calc_value(t, sym);
		if (sym_is_choice(sym) || (!v2 && (sym->flags & SYMBOL_NO_WRITE)))
			continue;
		if (sym_has_value(sym) && (sym->flags & SYMBOL_WRITE)) {
			switch (sym->type) {
			case S_BOOLEAN:
			case S_TRISTATE:
				if (sym->def[S_DEF_USER].tri == sym_get_tristate_value(sym))
					continue;
				break;
			default:
				if (!strcmp(sym->curr.val, sym->def[S_DEF_USER].val))
					continue;
				break;
			}
		} else if (!sym_has_value(sym) && !(sym->flags & SYMBOL_WRITE))
			continue;
		conf_unsaved++;
		if (v2)
			t->conf_changed = true;
	}
	if (v2) {
		if (t->conf_warnings)
			t->conf_changed = true;
		return;
	}
	for_all_symbols(t, i, sym)
	{
		if (sym_has_value(sym) && !sym_is_choice_value_v1(sym)) {
			if (sym->visible == KC_NO && !conf_unsaved)
				sym->flags &= ~SYMBOL_DEF_USER;
			switch (sym->type) {
			case S_STRING:
			case S_INT:
			case S_HEX:
				if (sym_string_within_range(t, sym,
							    sym->def[S_DEF_USER].val))
					break;
				sym->flags &= ~(SYMBOL_VALID | SYMBOL_DEF_USER);
				conf_unsaved++;
				break;
			default:
				break;
			}
		}
	}
	if (t->conf_warnings || conf_unsaved)
		t->conf_changed = true;
}

/* conf_read(name); name NULL: the config, else KCONFIG_DEFCONFIG_LIST. */
static int conf_read(kc_tree *t, const char *name, const kc_run_opts *o,
		     kf_strbuf *out)
{
	t->conf_changed = false;
	int rc;
	if (name) {
		rc = conf_read_simple(t, name, o->warn_unknown);
	} else {
		rc = conf_read_simple(t, o->config, o->warn_unknown);
		if (rc && t->defconfig_list_opt) {
			/* the defaults of the "option defconfig_list" symbol,
			 * not KCONFIG_DEFCONFIG_LIST (b75b0a819af9, 5.13) */
			t->conf_changed = true;
			kc_sym *ds = t->defconfig_list_sym;
			kc_prop *prop;
			if (ds) {
				for_all_defaults(ds, prop)
				{
					if (expr_calc_value(t, prop->visible.expr) == KC_NO ||
					    prop->expr->type != E_SYMBOL)
						continue;
					kc_sym *ns = prop->expr->left.sym;
					sym_calc_value(t, ns);
					const char *s = sym_get_string_value(t, ns);
					if (conf_read_simple(t, s, o->warn_unknown) == 0) {
						kf_diag_raw(t->diags, KF_NOTE,
							    "#\n# using defaults found in %s\n#", s);
						rc = 0;
						break;
					}
				}
			}
		} else if (rc) {
			t->conf_changed = true;
			const char *env = o->defconfig_list;
			char *copy = env ? kf_xstrdup(env) : NULL;
			char *p = copy;
			while (p && *p) {
				while (isspace((unsigned char)*p))
					p++;
				if (!*p)
					break;
				char *s = p;
				while (*p && !isspace((unsigned char)*p))
					p++;
				bool last = !*p;
				*p = 0;
				if (conf_read_simple(t, s, o->warn_unknown) == 0) {
					kf_diag_raw(t->diags, KF_NOTE,
						    "#\n# using defaults found in %s\n#", s);
					rc = 0;
					break;
				}
				if (last)
					break;
				p++;
			}
			free(copy);
		}
	}
	if (rc) {
		sym_calc_value(t, t->modules_sym);
		return 1;
	}
	conf_read_finish(t);
	return 0;
}

/* ---------------- writing ---------------- */

void kc_escape_string_value(const char *in, kf_strbuf *out)
{
	kf_strbuf_addch(out, '"');
	for (const char *p = in; *p; p++) {
		if (*p == '"' || *p == '\\')
			kf_strbuf_addch(out, '\\');
		kf_strbuf_addch(out, *p);
	}
	kf_strbuf_addch(out, '"');
}

enum output_n { OUTPUT_N, OUTPUT_N_AS_UNSET, OUTPUT_N_NONE };

static void print_symbol(kc_tree *t, kf_strbuf *out, kc_sym *sym,
			 enum output_n output_n)
{
	const char *val;
	if (sym->type == S_UNKNOWN)
		return;
	val = sym_get_string_value(t, sym);
	if (!val)
		val = ""; /* an int/hex/string with no value at all (a malformed choice) */
	if ((sym->type == S_BOOLEAN || sym->type == S_TRISTATE) &&
	    output_n != OUTPUT_N && *val == 'n') {
		if (output_n == OUTPUT_N_AS_UNSET)
			kf_strbuf_addf(out, "# CONFIG_%s is not set\n", sym->name);
		return;
	}
	kf_strbuf_addf(out, "CONFIG_%s=", sym->name);
	if (sym->type == S_STRING)
		kc_escape_string_value(val, out);
	else
		kf_strbuf_addstr(out, val);
	kf_strbuf_addch(out, '\n');
}

/* 7.x conf's user value (as written in the .config) of sym. */
static const char *user_value_string(kc_sym *sym)
{
	switch (sym->type) {
	case S_BOOLEAN:
	case S_TRISTATE:
		return sym->def[S_DEF_USER].tri == KC_YES  ? "y"
		       : sym->def[S_DEF_USER].tri == KC_MOD ? "m"
							    : "n";
	default:
		return sym->def[S_DEF_USER].val ? sym->def[S_DEF_USER].val : "";
	}
}

/*
 * 7.x KCONFIG_WARN_CHANGED_INPUT: add sym to the list of user values
 * Kconfig changed (warn, when not NULL, collects the block conf prints
 * after writing).
 */
static void note_changed_input(kc_tree *t, kc_sym *sym, kf_strbuf *warn)
{
	if (!warn || !sym_has_value(sym) || sym->type == S_UNKNOWN)
		return;
	bool changed;
	if (sym->type == S_BOOLEAN || sym->type == S_TRISTATE)
		changed = sym->def[S_DEF_USER].tri != sym_get_tristate_value(sym);
	else
		changed = strcmp(user_value_string(sym),
				 sym_get_string_value(t, sym)) != 0;
	if (!changed)
		return;
	if (!warn->len)
		kf_strbuf_addstr(warn, "warning: user-provided values changed by Kconfig:");
	kf_strbuf_addf(warn, "\n  CONFIG_%s: %s -> %s", sym->name,
		       user_value_string(sym), sym_get_string_value(t, sym));
}

/* The collected KCONFIG_WARN_CHANGED_INPUT block, if any, as a warning. */
static void flush_changed_input(kc_tree *t, kf_strbuf *warn)
{
	if (warn && warn->len)
		kf_diag_raw(t->diags, KF_WARNING, "%s", warn->buf);
	if (warn)
		kf_strbuf_release(warn);
}

static void conf_write_text(kc_tree *t, kf_strbuf *out, kf_strbuf *warn)
{
	kc_menu *menu;
	kc_sym *sym;
	bool need_newline = false;
	unsigned i;

	kf_strbuf_addf(out, "#\n# Automatically generated file; DO NOT EDIT.\n# %s\n#\n",
		       t->rootmenu.prompt->text);
	if (!t->conf_changed)
		sym_clear_all_valid(t);

	menu = t->rootmenu.list;
	while (menu) {
		sym = menu->sym;
		if (!sym) {
			if (!menu_is_visible(t, menu))
				goto next;
			kf_strbuf_addf(out, "\n#\n# %s\n#\n", menu_get_prompt(menu));
			need_newline = false;
		} else if (!sym_is_choice(sym) && !(sym->flags & SYMBOL_WRITTEN)) {
			sym_calc_value(t, sym);
			note_changed_input(t, sym, warn);
			if (!(sym->flags & SYMBOL_WRITE))
				goto next;
			if (need_newline) {
				kf_strbuf_addch(out, '\n');
				need_newline = false;
			}
			sym->flags |= SYMBOL_WRITTEN;
			print_symbol(t, out, sym, OUTPUT_N_AS_UNSET);
		}
next:
		if (menu->list) {
			menu = menu->list;
			continue;
		}
		if (t->old_end_of) {
			/* 5.10: "# end of" only on the way up from a
			 * menu's last child, whatever kind of menu */
			if (menu->next) {
				menu = menu->next;
				continue;
			}
			while ((menu = menu->parent)) {
				if (!menu->sym && menu_is_visible(t, menu) &&
				    menu != &t->rootmenu) {
					kf_strbuf_addf(out, "# end of %s\n",
						       menu_get_prompt(menu));
					need_newline = true;
				}
				if (menu->next) {
					menu = menu->next;
					break;
				}
			}
			continue;
		}
end_check:
		if (!menu->sym && menu_is_visible(t, menu) && menu != &t->rootmenu &&
		    menu->prompt->type == P_MENU) {
			kf_strbuf_addf(out, "# end of %s\n", menu_get_prompt(menu));
			need_newline = true;
		}
		if (menu->next) {
			menu = menu->next;
		} else {
			menu = menu->parent;
			if (menu)
				goto end_check;
		}
	}
	for_all_symbols(t, i, sym) sym->flags &= ~SYMBOL_WRITTEN;
}

static int write_config(kc_tree *t, const kc_run_opts *o, kf_strbuf *msg)
{
	kf_strbuf text = KF_STRBUF_INIT;
	kf_strbuf warn = KF_STRBUF_INIT;
	bool wci = o->warn_changed_input && t->has_warn_changed;
	conf_write_text(t, &text, wci ? &warn : NULL);
	flush_changed_input(t, wci ? &warn : NULL);
	const char *name = o->config;
	int rc = 0;

	if (t->too_deep) { /* values past it are not conf's */
		kf_strbuf_release(&text);
		return -1;
	}

	if (!o->overwrite) {
		/* only a regular file, raw bytes: never reads a pipe or a
		 * FIFO, and a compressed .config is written back plain */
		if (kf_file_same(name, text.buf, text.len)) {
			kf_diag_raw(t->diags, KF_NOTE, "#\n# No change to %s\n#", name);
			kf_strbuf_release(&text);
			t->conf_changed = false;
			return 0;
		}
	}
	/* parent directory, as make_parent_dir() does */
	char *dup = kf_xstrdup(name);
	char *slash = strrchr(dup, '/');
	if (slash && slash != dup) {
		*slash = 0;
		kf_mkdir_p(dup, 0755);
	}
	free(dup);
	/* KCONFIG_OVERWRITECONFIG: conf writes through a symlinked
	 * .config (fopen), so the file it leads to gets the new text (here
	 * whole or not at all) and the link stays */
	char *real = NULL;
	struct stat lst;
	if (o->overwrite && lstat(name, &lst) == 0 && S_ISLNK(lst.st_mode))
		real = realpath(name, NULL);
	if (kf_write_file_atomic(real ? real : name, text.buf, text.len,
				 !o->overwrite, t->diags) < 0)
		rc = -1;
	else
		kf_diag_raw(t->diags, KF_NOTE, "#\n# configuration written to %s\n#", name);
	free(real);
	kf_strbuf_release(&text);
	t->conf_changed = false;
	return rc;
}

static int write_defconfig(kc_tree *t, const char *filename, bool wci)
{
	kf_strbuf out = KF_STRBUF_INIT;
	kc_menu *menu;
	kc_sym *sym;
	bool v2 = t->sem == KC_SEM_V2;
	/* 7.x: each symbol once (SYMBOL_WRITTEN), for its changed-input line */
	bool once = t->has_warn_changed;
	kf_strbuf warn = KF_STRBUF_INIT;
	kf_strbuf *w = wci && once ? &warn : NULL;
	unsigned i;

	sym_clear_all_valid(t);
	for (menu = menu_next(&t->rootmenu, &t->rootmenu); menu;
	     menu = menu_next(menu, &t->rootmenu)) {
		sym = menu->sym;
		if (!v2 && sym == NULL) {
			/* V1 evaluates menu visibility here (side effects) */
			menu_is_visible(t, menu);
			continue;
		}
		if (!sym || sym_is_choice(sym) ||
		    (once && (sym->flags & SYMBOL_WRITTEN)))
			continue;
		sym_calc_value(t, sym);
		note_changed_input(t, sym, w);
		if (once)
			sym->flags |= SYMBOL_WRITTEN;
		if (!(sym->flags & SYMBOL_WRITE))
			continue;
		sym->flags &= ~SYMBOL_WRITE;
		if (!sym_is_changeable(t, sym))
			continue;
		if (!strcmp(sym_get_string_value(t, sym),
			    sym_get_string_default(t, sym)))
			continue;
		if (v2) {
			kc_menu *choice = sym_get_choice_menu(t, sym);
			if (choice) {
				kc_sym *ds = sym_choice_default_v2(t, choice);
				if (sym == ds && sym_get_tristate_value(sym) == KC_YES)
					continue;
			}
		} else if (sym_is_choice_value_v1(sym)) {
			kc_sym *cs = prop_get_symbol(sym_get_choice_prop(sym));
			kc_sym *ds = sym_choice_default_v1(t, cs);
			if (!sym_is_optional(cs) && sym == ds) {
				if (sym->type == S_BOOLEAN &&
				    sym_get_tristate_value(sym) == KC_YES)
					continue;
			}
		}
		print_symbol(t, &out, sym, OUTPUT_N_AS_UNSET);
	}
	if (once)
		for_all_symbols(t, i, sym) sym->flags &= ~SYMBOL_WRITTEN;
	if (t->too_deep) { /* values past it are not conf's */
		kf_strbuf_release(&out);
		return -1;
	}
	int rc = kf_write_file_atomic(filename, out.buf ? out.buf : "", out.len,
				      false, t->diags);
	flush_changed_input(t, w);
	kf_strbuf_release(&out);
	return rc;
}

/* ---------------- modes ---------------- */

enum def_mode { def_default, def_yes, def_mod, def_no, def_random };

static bool randomize_choice_values_v1(kc_tree *t, kc_sym *csym)
{
	kc_prop *prop;
	kc_sym *sym;
	kc_expr *e;
	int cnt, def;

	if (csym->curr.tri != KC_YES)
		return false;
	prop = sym_get_choice_prop(csym);
	cnt = 0;
	for (e = prop->expr; e && (sym = e->right.sym); e = e->left.expr)
		cnt++;
	if (!cnt)
		return false; /* no members (the kernel's conf divides by 0) */
	def = kc_rand(t) % cnt;
	cnt = 0;
	for (e = prop->expr; e && (sym = e->right.sym); e = e->left.expr) {
		if (def == cnt++) {
			sym->def[S_DEF_USER].tri = KC_YES;
			csym->def[S_DEF_USER].val = sym;
		} else {
			sym->def[S_DEF_USER].tri = KC_NO;
		}
		sym->flags |= SYMBOL_DEF_USER;
		sym->flags &= ~SYMBOL_VALID;
	}
	csym->flags |= SYMBOL_DEF_USER;
	csym->flags &= ~SYMBOL_VALID;
	return true;
}

static void randomize_choice_values_v2(kc_tree *t, kc_menu *choice)
{
	kc_menu *menu;
	int cnt = 0;
	for (menu = menu_next(choice, choice); menu; menu = menu_next(menu, choice))
		if (menu->sym && !sym_has_value(menu->sym))
			cnt++;
	while (cnt > 0) {
		int x = kc_rand(t) % cnt;
		for (menu = menu_next(choice, choice); menu;
		     menu = menu_next(menu, choice)) {
			kc_sym *sym = menu->sym;
			if (sym && !sym_has_value(sym))
				x--;
			if (x < 0) {
				sym->def[S_DEF_USER].tri = KC_YES;
				sym->flags |= SYMBOL_DEF_USER;
				choice_member_move_tail(choice, sym);
				break;
			}
		}
		cnt--;
	}
}

struct probs {
	int pby, pty, ptm; /* probabilities of bool=y, tristate=y, tristate=m */
};

static int parse_probability(const char *env, struct probs *pr, kc_tree *t)
{
	int n = 0, p[3];
	pr->pby = 50;
	pr->pty = 33;
	pr->ptm = 33;
	while (env && *env) {
		char *endp;
		long tmp = strtol(env, &endp, 10);
		if (tmp >= 0 && tmp <= 100) {
			p[n++] = (int)tmp;
		} else {
			kf_diag_add(t->diags, KF_ERROR, NULL, 0, 0,
				    "KCONFIG_PROBABILITY: Numerical result out of range");
			return -1;
		}
		env = (*endp == ':') ? endp + 1 : endp;
		if (endp == env && *env && *env != ':')
			break;
		if (n >= 3)
			break;
	}
	switch (n) {
	case 1:
		pr->pby = p[0];
		pr->ptm = pr->pby / 2;
		pr->pty = pr->pby - pr->ptm;
		break;
	case 2:
		pr->pty = p[0];
		pr->ptm = p[1];
		pr->pby = pr->pty + pr->ptm;
		break;
	case 3:
		pr->pby = p[0];
		pr->pty = p[1];
		pr->ptm = p[2];
		break;
	}
	if (pr->pty + pr->ptm > 100) {
		kf_diag_add(t->diags, KF_ERROR, NULL, 0, 0,
			    "KCONFIG_PROBABILITY: Numerical result out of range");
		return -1;
	}
	return 0;
}

static kc_tri random_value(kc_tree *t, kc_sym *sym, const struct probs *pr)
{
	kc_tri v = KC_NO;
	int cnt = kc_rand(t) % 100;
	if (sym->type == S_TRISTATE) {
		if (cnt < pr->pty)
			v = KC_YES;
		else if (cnt < pr->pty + pr->ptm)
			v = KC_MOD;
	} else if (cnt < pr->pby)
		v = KC_YES;
	return v;
}

static bool set_all_new_symbols_v1(kc_tree *t, enum def_mode mode,
				   const struct probs *pr)
{
	kc_sym *sym, *csym;
	unsigned i;
	bool has_changed = false;

	for_all_symbols(t, i, sym)
	{
		if (sym_has_value(sym) || sym_is_valid(t, sym))
			continue;
		switch (sym_get_type(t, sym)) {
		case S_BOOLEAN:
		case S_TRISTATE:
			has_changed = true;
			switch (mode) {
			case def_yes:
				sym->def[S_DEF_USER].tri = KC_YES;
				break;
			case def_mod:
				sym->def[S_DEF_USER].tri = KC_MOD;
				break;
			case def_no:
				/* "option allnoconfig_y" (before 5.13) */
				sym->def[S_DEF_USER].tri =
					sym->flags & SYMBOL_ALLNOCONFIG_Y ? KC_YES : KC_NO;
				break;
			case def_random:
				sym->def[S_DEF_USER].tri = random_value(t, sym, pr);
				break;
			default:
				continue;
			}
			if (!(sym_is_choice(sym) && mode == def_random))
				sym->flags |= SYMBOL_DEF_USER;
			break;
		default:
			break;
		}
	}
	sym_clear_all_valid(t);
	if (mode != def_random) {
		for_all_symbols(t, i, csym)
		{
			if ((sym_is_choice(csym) && !sym_has_value(csym)) ||
			    sym_is_choice_value_v1(csym))
				csym->flags |= SYMBOL_NEED_SET_CHOICE_VALUES;
		}
	}
	for_all_symbols(t, i, csym)
	{
		if (sym_has_value(csym) || !sym_is_choice(csym))
			continue;
		sym_calc_value(t, csym);
		if (mode == def_random)
			has_changed |= randomize_choice_values_v1(t, csym);
		else {
			set_all_choice_values(t, csym);
			has_changed = true;
		}
	}
	return has_changed;
}

static void set_all_new_symbols_v2(kc_tree *t, enum def_mode mode,
				   const struct probs *pr)
{
	kc_menu *menu;
	for (menu = menu_next(&t->rootmenu, &t->rootmenu); menu;
	     menu = menu_next(menu, &t->rootmenu)) {
		kc_sym *sym = menu->sym;
		kc_tri val;
		if (!sym || !menu->prompt || sym_has_value(sym) ||
		    (sym->type != S_BOOLEAN && sym->type != S_TRISTATE) ||
		    sym_is_choice_value(t, sym))
			continue;
		if (sym_is_choice(sym)) {
			if (mode == def_random)
				randomize_choice_values_v2(t, menu);
			continue;
		}
		switch (mode) {
		case def_yes:
			val = KC_YES;
			break;
		case def_mod:
			val = KC_MOD;
			break;
		case def_no:
			val = KC_NO;
			break;
		case def_random:
			val = random_value(t, sym, pr);
			break;
		default:
			continue;
		}
		sym->def[S_DEF_USER].tri = val;
		sym->flags |= SYMBOL_DEF_USER;
	}
	sym_clear_all_valid(t);
}

static void set_all_new_symbols(kc_tree *t, enum def_mode mode,
				const struct probs *pr)
{
	if (t->sem == KC_SEM_V2)
		set_all_new_symbols_v2(t, mode, pr);
	else if (mode == def_random)
		while (set_all_new_symbols_v1(t, mode, pr))
			;
	else
		set_all_new_symbols_v1(t, mode, pr);
}

bool kc_sym_is_new(kc_tree *t, kc_sym *sym)
{
	return sym && !sym_has_value(sym) &&
	       (sym_is_changeable(t, sym) ||
		(t->sem == KC_SEM_V1 && sym_is_choice(sym) &&
		 sym_get_tristate_value(sym) == KC_YES));
}

static void check_conf(kc_tree *t, kc_menu *menu, kf_strbuf *out)
{
	kc_sym *sym;
	if (!menu_is_visible(t, menu))
		return;
	sym = menu->sym;
	if (kc_sym_is_new(t, sym) && sym->name)
		print_symbol(t, out, sym, OUTPUT_N);
	for (kc_menu *child = menu->list; child; child = child->next)
		check_conf(t, child, out);
}

/* merge_config.sh -m: drop lines of the base naming a fragment's symbols,
 * then append an empty line and the fragment. */
static void merge_fragment(kf_strbuf *base, const char *frag, bool blank_line)
{
	kf_strbuf out = KF_STRBUF_INIT;
	/* collect the fragment's symbol names */
	const char *p = frag;
	char **names = NULL;
	size_t n = 0, a = 0;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *s = NULL;
		if (!strncmp(p, "CONFIG_", 7))
			s = p;
		else if (!strncmp(p, "# CONFIG_", 9))
			s = p + 2;
		if (s) {
			size_t k = 0;
			while (s + k < p + len && (isalnum((unsigned char)s[k]) || s[k] == '_'))
				k++;
			if ((s[k] == '=' && s == p) || (s != p && !strncmp(s + k, " is not set", 11))) {
				KF_GROW(names, n + 1, a);
				names[n++] = kf_xstrndup(s, k);
			}
		}
		p += len + (e ? 1 : 0);
	}
	p = base->buf ? base->buf : "";
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) + 1 : strlen(p);
		bool drop = false;
		for (size_t i = 0; i < n && !drop; i++) {
			size_t nl = strlen(names[i]);
			for (const char *q = p; q + nl < p + len; q++)
				if (!strncmp(q, names[i], nl) &&
				    (q[nl] == ' ' || q[nl] == '=')) {
					drop = true;
					break;
				}
		}
		if (!drop)
			kf_strbuf_add(&out, p, len);
		p += len;
	}
	if (blank_line) /* merge_config.sh's "echo >> $TMP_FILE" */
		kf_strbuf_addch(&out, '\n');
	kf_strbuf_addstr(&out, frag);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	kf_strbuf_release(base);
	*base = out;
}

char *kc_default_defconfig(kc_tree *t)
{
	const char *name = "defconfig";
	char *owned = NULL;
	if (!strcmp(t->srcarch, "x86")) {
		if (!strcmp(t->arch, "x86")) {
			struct utsname u;
			bool is64 = uname(&u) == 0 && !strcmp(u.machine, "x86_64");
			name = is64 ? "x86_64_defconfig" : "i386_defconfig";
		} else {
			owned = kf_xasprintf("%s_defconfig", t->arch);
			name = owned;
		}
	} else {
		char *mk = kf_xasprintf("%s/arch/%s/Makefile", t->srctree, t->srcarch);
		kf_strbuf buf = KF_STRBUF_INIT;
		kf_diags tmp = KF_DIAGS_INIT;
		if (kf_read_file(mk, &buf, &tmp) == 0) {
			const char *p = strstr(buf.buf, "KBUILD_DEFCONFIG");
			while (p) {
				const char *q = p + 16;
				while (*q == ' ' || *q == '\t')
					q++;
				if (*q == ':' || *q == '?')
					q++;
				if (*q == '=') {
					q++;
					while (*q == ' ' || *q == '\t')
						q++;
					size_t k = strcspn(q, " \t\n");
					if (k && !memchr(q, '$', k)) {
						owned = kf_xstrndup(q, k);
						name = owned;
						break;
					}
				}
				p = strstr(p + 16, "KBUILD_DEFCONFIG");
			}
		}
		kf_strbuf_release(&buf);
		kf_diags_release(&tmp);
		free(mk);
	}
	char *r = kf_xasprintf("arch/%s/configs/%s", t->srcarch, name);
	free(owned);
	return r;
}

char *kc_default_defconfig_list(kc_tree *t)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	const char *sub = pp_getenv(t, "SUBARCH");
	if (sub && !strcmp(sub, t->srcarch)) {
		struct utsname u;
		if (uname(&u) == 0)
			kf_strbuf_addf(&sb, " /lib/modules/%s/.config /etc/kernel-config /boot/config-%s",
				       u.release, u.release);
	}
	char *def = kc_default_defconfig(t);
	kf_strbuf_addf(&sb, " %s", def);
	free(def);
	return kf_strbuf_detach(&sb);
}

const char *kc_tree_output(const kc_tree *t)
{
	return kf_strbuf_str(&t->out);
}

void kc_tree_shell_stats(const kc_tree *t, int *runs, int *hits)
{
	*runs = t->shell_runs;
	*hits = t->shell_hits;
}

static int read_allconfig(kc_tree *t, const kc_run_opts *o, const char *mode_file,
			  kf_strbuf *out)
{
	const char *name = o->allconfig;
	if (!name)
		return 0;
	if (strcmp(name, "") && strcmp(name, "1")) {
		if (conf_read_simple(t, name, o->warn_unknown)) {
			kf_diag_raw(t->diags, KF_ERROR,
				    "*** Can't read seed configuration \"%s\"!", name);
			return 1;
		}
		return 0;
	}
	if (conf_read_simple(t, mode_file, o->warn_unknown) &&
	    conf_read_simple(t, "all.config", o->warn_unknown)) {
		kf_diag_raw(t->diags, KF_ERROR,
			    "*** KCONFIG_ALLCONFIG set, but no \"%s\" or \"all.config\" file found",
			    mode_file);
		return 1;
	}
	(void)out;
	return 0;
}

void kc_seed_first(kc_tree *t, const char *env, kf_strbuf *out)
{
	unsigned seed = 0;
	bool set = false;
	if (env && *env) {
		char *endp;
		seed = (unsigned)strtol(env, &endp, 0);
		set = *endp == '\0';
	}
	if (!set) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		seed = (unsigned)((ts.tv_sec + 1) * (ts.tv_nsec / 1000 + 1));
	}
	if (t->seed_to_stderr)
		kf_diag_raw(t->diags, KF_NOTE, "KCONFIG_SEED=0x%X", seed);
	else
		kf_strbuf_addf(out, "KCONFIG_SEED=0x%X\n", seed);
	t->seed = seed;
	t->seed_done = true;
}

int kc_compute(kc_tree *t, const kc_run_opts *o, kf_strbuf *out)
{
	struct probs pr = {50, 33, 33};
	int rc;
	/* a conf that does not know these variables ignores them */
	kc_run_opts eff = *o;
	eff.warn_unknown = o->warn_unknown && t->has_warn_unknown;
	eff.werror = o->werror && t->has_werror;
	o = &eff;

	switch (o->mode) {
	case KC_MODE_DEFCONFIG:
		if (conf_read(t, o->file, o, out)) {
			kf_diag_raw(t->diags, KF_ERROR,
				    "***\n*** Can't find default configuration \"%s\"!\n***",
				    o->file);
			return 1;
		}
		break;
	case KC_MODE_SAVEDEFCONFIG:
	case KC_MODE_LISTNEWCONFIG:
	case KC_MODE_OLDDEFCONFIG:
	case KC_MODE_OLDASKCONFIG:
	case KC_MODE_OLDCONFIG:
	case KC_MODE_SYNCCONFIG:
	case KC_MODE_HELPNEWCONFIG:
	case KC_MODE_YES2MODCONFIG:
	case KC_MODE_MOD2YESCONFIG:
	case KC_MODE_MOD2NOCONFIG:
		conf_read(t, NULL, o, out);
		break;
	case KC_MODE_ALLNOCONFIG:
	case KC_MODE_ALLYESCONFIG:
	case KC_MODE_ALLMODCONFIG:
	case KC_MODE_ALLDEFCONFIG:
	case KC_MODE_RANDCONFIG: {
		static const char *files[] = {
			[KC_MODE_ALLNOCONFIG] = "allno.config",
			[KC_MODE_ALLYESCONFIG] = "allyes.config",
			[KC_MODE_ALLMODCONFIG] = "allmod.config",
			[KC_MODE_ALLDEFCONFIG] = "alldef.config",
			[KC_MODE_RANDCONFIG] = "allrandom.config",
		};
		if (o->mode == KC_MODE_RANDCONFIG) {
			if (!t->seed_done)
				kc_seed_first(t, o->seed, out);
			kc_srand(t, t->seed);
			if (parse_probability(o->probability, &pr, t) < 0)
				return 1;
		}
		if (read_allconfig(t, o, files[o->mode], out))
			return 1;
		break;
	}
	case KC_MODE_TINYCONFIG: {
		/* make allnoconfig with KCONFIG_ALLCONFIG=tiny-base.config,
		 * then merge tiny.config fragments and run olddefconfig */
		char *base = kf_xasprintf("%s/kernel/configs/tiny-base.config",
					  t->srctree);
		kc_run_opts o2 = *o;
		o2.mode = KC_MODE_ALLNOCONFIG;
		o2.allconfig = kf_exists(base) ? "kernel/configs/tiny-base.config"
					       : NULL;
		free(base);
		kf_strbuf junk = KF_STRBUF_INIT;
		rc = read_allconfig(t, &o2, "allno.config", &junk);
		if (rc)
			return rc;
		set_all_new_symbols(t, def_no, &pr);
		kf_strbuf text = KF_STRBUF_INIT;
		kf_strbuf warn = KF_STRBUF_INIT;
		bool wci = o->warn_changed_input && t->has_warn_changed;
		conf_write_text(t, &text, wci ? &warn : NULL);
		flush_changed_input(t, wci ? &warn : NULL);
		/* kernels whose Makefile merges into a literal ".config"
		 * (6.1) start from an empty file unless the config is named
		 * .config; later ones merge into the config itself */
		char *mkf = kf_xasprintf("%s/scripts/kconfig/Makefile", t->srctree);
		kf_strbuf mk = KF_STRBUF_INIT;
		kf_diags tmp = KF_DIAGS_INIT;
		bool literal = kf_read_file(mkf, &mk, &tmp) == 0 &&
			       strstr(mk.buf, "merge_config.sh -m .config");
		kf_diags_release(&tmp);
		kf_strbuf_release(&mk);
		free(mkf);
		/* 6.1's merge_config.sh puts an empty line before each
		 * fragment; 5.10's does not (older trees: as their script) */
		mkf = kf_xasprintf("%s/scripts/kconfig/merge_config.sh", t->srctree);
		kf_strbuf_reset(&mk);
		bool blank = t->conf_61 ||
			     kf_read_file(mkf, &mk, &tmp) != 0 ||
			     strstr(mk.buf, "echo >> $TMP_FILE");
		kf_diags_release(&tmp);
		kf_strbuf_release(&mk);
		free(mkf);
		const char *bn = strrchr(o->config, '/');
		bn = bn ? bn + 1 : o->config;
		if (literal && strcmp(bn, ".config"))
			kf_strbuf_reset(&text);
		const char *frags[] = {"kernel/configs/tiny.config", NULL};
		char *archfrag = kf_xasprintf("arch/%s/configs/tiny.config",
					      t->srcarch);
		frags[1] = archfrag;
		for (int i = 0; i < 2; i++) {
			char *fp = kf_xasprintf("%s/%s", t->srctree, frags[i]);
			kf_strbuf fb = KF_STRBUF_INIT;
			kf_diags tmp2 = KF_DIAGS_INIT;
			if (kf_exists(fp) && kf_read_file(fp, &fb, &tmp2) == 0)
				merge_fragment(&text, kf_strbuf_str(&fb), blank);
			kf_diags_release(&tmp2);
			kf_strbuf_release(&fb);
			free(fp);
		}
		free(archfrag);
		t->conf_changed = false;
		conf_read_buf(t, o->config, text.buf ? text.buf : "", text.len,
			      o->warn_unknown);
		conf_read_finish(t);
		kf_strbuf_release(&text);
		kf_strbuf_release(&junk);
		break;
	}
	}

	if (o->werror && t->conf_warnings)
		return 1;

	switch (o->mode) {
	case KC_MODE_ALLNOCONFIG:
		set_all_new_symbols(t, def_no, &pr);
		break;
	case KC_MODE_ALLYESCONFIG:
		set_all_new_symbols(t, def_yes, &pr);
		break;
	case KC_MODE_ALLMODCONFIG:
		set_all_new_symbols(t, def_mod, &pr);
		break;
	case KC_MODE_ALLDEFCONFIG:
	case KC_MODE_DEFCONFIG:
		set_all_new_symbols(t, def_default, &pr);
		break;
	case KC_MODE_RANDCONFIG:
		set_all_new_symbols(t, def_random, &pr);
		break;
	case KC_MODE_LISTNEWCONFIG:
		check_conf(t, &t->rootmenu, out);
		break;
	case KC_MODE_OLDASKCONFIG:
	case KC_MODE_OLDCONFIG:
	case KC_MODE_SYNCCONFIG:
	case KC_MODE_HELPNEWCONFIG:
	case KC_MODE_YES2MODCONFIG:
	case KC_MODE_MOD2YESCONFIG:
	case KC_MODE_MOD2NOCONFIG:
		if (kc_ask_run(t, o, out))
			return 1;
		break;
	default:
		break;
	}

	if (o->werror && t->sym_warnings)
		return 1;
	return t->too_deep ? -1 : 0; /* bad input, not a conf failure */
}

void kc_config_text(kc_tree *t, kf_strbuf *out)
{
	conf_write_text(t, out, NULL);
}

int kc_config_write(kc_tree *t, const char *path, bool overwrite)
{
	kc_run_opts o = {.config = path, .overwrite = overwrite};
	return write_config(t, &o, NULL);
}

int kc_run(kc_tree *t, const kc_run_opts *o, kf_strbuf *out)
{
	int rc = kc_compute(t, o, out);
	if (rc)
		return rc;
	if (o->mode == KC_MODE_SAVEDEFCONFIG) {
		if (write_defconfig(t, o->file, o->warn_changed_input) < 0)
			return -1;
		return 0;
	}
	if (o->mode == KC_MODE_LISTNEWCONFIG || o->mode == KC_MODE_HELPNEWCONFIG)
		return 0;
	return write_config(t, o, out) < 0 ? -1 : 0;
}
