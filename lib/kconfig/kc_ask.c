/*
 * kc_ask.c - the line-oriented modes of the kernel's conf (conf.c):
 * oldaskconfig, oldconfig and syncconfig ask for values on the caller's
 * input, with conf's exact prompts, "(NEW)" marks, help on "?", choice
 * menus and the "Restart config..." loop; helpnewconfig prints the help of
 * every new symbol; yes2mod/mod2yes/mod2noconfig rewrite answers.  The
 * help text is menu_get_ext_help() (menu.c).
 *
 * Nothing is printed here: text goes to the caller's buffer, which the
 * caller's flush callback empties before each answer is read.
 */
#include "kc_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* conf reads answers with fgets into a PATH_MAX buffer */
#define ASK_LINE_MAX 4096

struct ask {
	kc_tree *t;          /* tree */
	const kc_io *io;     /* where answers come from */
	kf_strbuf *out;      /* what conf prints on stdout */
	kc_mode mode;        /* oldaskconfig, oldconfig, syncconfig, helpnewconfig */
	int indent;          /* conf's indent */
	int conf_cnt;        /* restarts in this pass of check_conf */
	kc_menu *root_entry; /* the menu being asked (conf's rootEntry) */
	char line[ASK_LINE_MAX]; /* the last answer, as fgets left it */
	bool eof;            /* a read failed: input has ended */
	bool eof_seen;       /* conf's feof(stdin): a read failed, or
				stopped at the end of input */
	bool failed;         /* an int/hex symbol could not be answered */
};

/* ---------------- help (menu.c) ---------------- */

static void get_dep_str(kc_tree *t, kf_strbuf *r, kc_expr *expr, const char *prefix)
{
	if (!expr_is_yes(t, expr)) {
		kf_strbuf_addstr(r, prefix);
		expr_gstr_print(t, expr, r);
		kf_strbuf_addch(r, '\n');
	}
}

static void get_prompt_str(kc_tree *t, kf_strbuf *r, kc_prop *prop)
{
	kc_menu *submenu[8], *menu;
	int i, j;
	bool old = t->ext_help_parent; /* 5.10 starts at the parent */

	kf_strbuf_addf(r, "  Prompt: %s\n", prop->text);
	get_dep_str(t, r, prop->menu->dep, "  Depends on: ");
	if (!expr_eq(t, prop->menu->dep, prop->visible.expr))
		get_dep_str(t, r, prop->visible.expr, "  Visible if: ");
	menu = old ? prop->menu->parent : prop->menu;
	for (i = 0; menu != &t->rootmenu && i < 8; menu = menu->parent) {
		menu_is_visible(t, menu); /* evaluated for the jump keys */
		submenu[i++] = menu;
	}
	if (old && i == 0)
		return;
	kf_strbuf_addstr(r, "  Location:\n");
	for (j = 4; --i >= 0; j += 2) {
		menu = submenu[i];
		kf_strbuf_addf(r, "%*c-> %s", j, ' ', menu_get_prompt(menu));
		if (menu->sym)
			kf_strbuf_addf(r, " (%s [=%s])",
				       menu->sym->name ? menu->sym->name : "<choice>",
				       sym_get_string_value(t, menu->sym));
		kf_strbuf_addch(r, '\n');
	}
}

static void get_symbol_props_str(kc_tree *t, kf_strbuf *r, kc_sym *sym,
				 enum kc_prop_type tok, const char *prefix)
{
	bool hit = false;
	kc_prop *prop;
	for_all_properties(sym, prop, tok)
	{
		if (!hit) {
			kf_strbuf_addstr(r, prefix);
			hit = true;
		} else
			kf_strbuf_addstr(r, " && ");
		expr_gstr_print(t, prop->expr, r);
	}
	if (hit)
		kf_strbuf_addch(r, '\n');
}

static void get_symbol_str(kc_tree *t, kf_strbuf *r, kc_sym *sym)
{
	if (sym->name) {
		kf_strbuf_addf(r, "Symbol: %s [=%s]\n", sym->name,
			       sym_get_string_value(t, sym));
		kf_strbuf_addf(r, "Type  : %s\n", sym_type_name(sym->type));
		if (sym->type == S_INT || sym->type == S_HEX) {
			kc_prop *prop = sym_get_range_prop(t, sym);
			if (prop) {
				kf_strbuf_addstr(r, "Range : ");
				expr_gstr_print(t, prop->expr, r);
				kf_strbuf_addch(r, '\n');
			}
		}
	}
	/* the definitions with prompts before the ones without */
	for (size_t i = 0; i < sym->nmenus; i++) {
		kc_menu *m = sym->menus[i];
		if (m->prompt) {
			kf_strbuf_addf(r, "Defined at %s:%d\n", m->file, m->lineno);
			get_prompt_str(t, r, m->prompt);
		}
	}
	for (size_t i = 0; i < sym->nmenus; i++) {
		kc_menu *m = sym->menus[i];
		if (!m->prompt) {
			kf_strbuf_addf(r, "Defined at %s:%d\n", m->file, m->lineno);
			get_dep_str(t, r, m->dep, "  Depends on: ");
		}
	}
	get_symbol_props_str(t, r, sym, P_SELECT, "Selects: ");
	if (sym->rev_dep.expr) {
		expr_gstr_print_revdep(t, sym->rev_dep.expr, r, KC_YES, "Selected by [y]:\n");
		expr_gstr_print_revdep(t, sym->rev_dep.expr, r, KC_MOD, "Selected by [m]:\n");
		expr_gstr_print_revdep(t, sym->rev_dep.expr, r, KC_NO, "Selected by [n]:\n");
	}
	get_symbol_props_str(t, r, sym, P_IMPLY, "Implies: ");
	if (sym->implied.expr) {
		expr_gstr_print_revdep(t, sym->implied.expr, r, KC_YES, "Implied by [y]:\n");
		expr_gstr_print_revdep(t, sym->implied.expr, r, KC_MOD, "Implied by [m]:\n");
		expr_gstr_print_revdep(t, sym->implied.expr, r, KC_NO, "Implied by [n]:\n");
	}
	kf_strbuf_addstr(r, "\n\n");
}

/* conf's print_help(): "\n" + menu_get_ext_help() + "\n" */
static void print_help(struct ask *a, kc_menu *menu)
{
	kc_sym *sym = menu->sym;
	kf_strbuf *r = a->out;
	kf_strbuf_addch(r, '\n');
	if (menu->help) {
		if (sym->name)
			kf_strbuf_addf(r, "CONFIG_%s:\n\n", sym->name);
		kf_strbuf_addf(r, "%s\n", menu->help);
	} else
		kf_strbuf_addstr(r, "There is no help available for this option.\n");
	if (sym)
		get_symbol_str(a->t, r, sym);
	kf_strbuf_addch(r, '\n');
}

/* ---------------- reading answers ---------------- */

static void strip(char *str)
{
	char *p = str;
	size_t l;
	while (isspace((unsigned char)*p))
		p++;
	l = strlen(p);
	if (p != str)
		memmove(str, p, l + 1);
	if (!l)
		return;
	p = str + l - 1;
	while (p >= str && isspace((unsigned char)*p))
		*p-- = 0;
}

/* conf's xfgets(): a failed read leaves line as it was */
static void xfgets(struct ask *a)
{
	kf_strbuf in = KF_STRBUF_INIT;
	if (a->io)
		a->io->flush(a->io->ctx, a->out);
	if (!a->eof && a->io &&
	    a->io->read_line(a->io->ctx, &in, sizeof(a->line) - 1)) {
		memcpy(a->line, in.buf, in.len);
		a->line[in.len] = 0;
		/* a last line without its newline: fgets() stopped at the
		 * end of input, which feof(stdin) says from now on */
		if (!in.len || (in.buf[in.len - 1] != '\n' &&
				in.len < sizeof(a->line) - 1))
			a->eof_seen = true;
	} else {
		a->eof = true;
		kf_diag_raw(a->t->diags, KF_WARNING, "\nError in reading or end of file.");
	}
	kf_strbuf_release(&in);
	if (a->io && a->io->echo)
		kf_strbuf_addstr(a->out, a->line);
}

static int conf_askvalue(struct ask *a, kc_sym *sym, const char *def)
{
	if (!sym_has_value(sym))
		kf_strbuf_addstr(a->out, "(NEW) ");
	a->line[0] = '\n';
	a->line[1] = 0;
	if (!sym_is_changeable(a->t, sym)) {
		kf_strbuf_addf(a->out, "%s\n", def ? def : "");
		return 0;
	}
	if ((a->mode == KC_MODE_OLDCONFIG || a->mode == KC_MODE_SYNCCONFIG) &&
	    sym_has_value(sym)) {
		kf_strbuf_addf(a->out, "%s\n", def ? def : "");
		return 0;
	}
	xfgets(a);
	return 1;
}

static void conf_string(struct ask *a, kc_menu *menu)
{
	kc_sym *sym = menu->sym;
	const char *def;

	while (!a->failed) {
		kf_strbuf_addf(a->out, "%*s%s ", a->indent - 1, "", menu->prompt->text);
		kf_strbuf_addf(a->out, "(%s) ", sym->name);
		def = sym_get_string_value(a->t, sym);
		if (def)
			kf_strbuf_addf(a->out, "[%s] ", def);
		if (!conf_askvalue(a, sym, def))
			return;
		switch (a->line[0]) {
		case '\n':
			break;
		case '?':
			if (a->line[1] == '\n') {
				print_help(a, menu);
				def = NULL;
				break;
			}
			/* fall through */
		default:
			a->line[strlen(a->line) - 1] = 0;
			def = a->line;
		}
		if (def && sym_set_string_value(a->t, sym, def))
			return;
		/* 6.12 and later stop instead of asking forever once the
		 * input has ended (an int/hex default that is out of range) */
		if ((a->eof || a->eof_seen) && a->t->ask_eof_stops) {
			kf_diag_raw(a->t->diags, KF_ERROR,
				    "\nerror: no value for new symbol '%s' at end of input",
				    sym->name);
			a->failed = true;
		}
	}
}

static void conf_sym(struct ask *a, kc_menu *menu)
{
	kc_tree *t = a->t;
	kc_sym *sym = menu->sym;
	kc_tri oldval, newval;

	while (!a->failed) {
		kf_strbuf_addf(a->out, "%*s%s ", a->indent - 1, "", menu->prompt->text);
		if (sym->name)
			kf_strbuf_addf(a->out, "(%s) ", sym->name);
		kf_strbuf_addch(a->out, '[');
		oldval = sym_get_tristate_value(sym);
		kf_strbuf_addch(a->out, oldval == KC_NO ? 'N' : oldval == KC_MOD ? 'M' : 'Y');
		if (oldval != KC_NO && sym_tristate_within_range(t, sym, KC_NO))
			kf_strbuf_addstr(a->out, "/n");
		if (oldval != KC_MOD && sym_tristate_within_range(t, sym, KC_MOD))
			kf_strbuf_addstr(a->out, "/m");
		if (oldval != KC_YES && sym_tristate_within_range(t, sym, KC_YES))
			kf_strbuf_addstr(a->out, "/y");
		kf_strbuf_addstr(a->out, "/?] ");
		if (!conf_askvalue(a, sym, sym_get_string_value(t, sym)))
			return;
		strip(a->line);
		const char *l = a->line;
		switch (l[0]) {
		case 'n':
		case 'N':
			newval = KC_NO;
			if (!l[1] || !strcmp(&l[1], "o"))
				break;
			continue;
		case 'm':
		case 'M':
			newval = KC_MOD;
			if (!l[1])
				break;
			continue;
		case 'y':
		case 'Y':
			newval = KC_YES;
			if (!l[1] || !strcmp(&l[1], "es"))
				break;
			continue;
		case 0:
			newval = oldval;
			break;
		case '?':
			goto help;
		default:
			continue;
		}
		if (sym_set_tristate_value(t, sym, newval))
			return;
help:
		print_help(a, menu);
	}
}

static void conf(struct ask *a, kc_menu *menu);
static void check_conf(struct ask *a, kc_menu *menu);

/* V2 (6.11+) choice_set_value(): the chosen member y, the other visible
 * ones n, each moved to the front of the priority list */
static void choice_set_value(kc_tree *t, kc_menu *choice, kc_sym *sym)
{
	bool changed = false;
	for (kc_menu *m = menu_next(choice, choice); m; m = menu_next(m, choice)) {
		if (!m->sym || m->sym->visible == KC_NO)
			continue;
		kc_tri val = m->sym == sym ? KC_YES : KC_NO;
		if (m->sym->curr.tri != val)
			changed = true;
		m->sym->def[S_DEF_USER].tri = val;
		m->sym->flags |= SYMBOL_DEF_USER;
		choice_member_move_front(choice, m->sym);
	}
	if (changed)
		sym_clear_all_valid(t);
}

static void conf_choice(struct ask *a, kc_menu *menu)
{
	kc_tree *t = a->t;
	kc_sym *sym = menu->sym, *def_sym;
	kc_menu *child;
	bool v1 = t->sem == KC_SEM_V1;
	bool is_new = false;

	if (v1) {
		is_new = !sym_has_value(sym);
		if (sym_is_changeable(t, sym)) {
			conf_sym(a, menu);
			sym_calc_value(t, sym);
			if (sym_get_tristate_value(sym) != KC_YES)
				return;
		} else {
			switch (sym_get_tristate_value(sym)) {
			case KC_NO:
				return;
			case KC_MOD:
				kf_strbuf_addf(a->out, "%*s%s\n", a->indent - 1, "",
					       menu_get_prompt(menu));
				return;
			case KC_YES:
				break;
			}
		}
	}

	while (!a->failed) {
		int cnt, def;

		kf_strbuf_addf(a->out, "%*s%s\n", a->indent - 1, "", menu_get_prompt(menu));
		if (v1)
			def_sym = sym->curr.val; /* sym_get_choice_value() */
		else
			def_sym = sym_calc_choice_v2(t, menu);
		cnt = def = 0;
		a->line[0] = 0;
		for (child = menu->list; child; child = child->next) {
			if (!menu_is_visible(t, child))
				continue;
			if (!child->sym) {
				kf_strbuf_addf(a->out, "%*c %s\n", a->indent, '*',
					       menu_get_prompt(child));
				continue;
			}
			cnt++;
			if (child->sym == def_sym) {
				def = cnt;
				kf_strbuf_addf(a->out, "%*c", a->indent, '>');
			} else
				kf_strbuf_addf(a->out, "%*c", a->indent, ' ');
			kf_strbuf_addf(a->out, " %d. %s", cnt, menu_get_prompt(child));
			if (!v1 || child->sym->name)
				kf_strbuf_addf(a->out, " (%s)", child->sym->name);
			if (!sym_has_value(child->sym)) {
				if (!v1)
					is_new = true;
				kf_strbuf_addstr(a->out, " (NEW)");
			}
			kf_strbuf_addch(a->out, '\n');
		}
		kf_strbuf_addf(a->out, "%*schoice", a->indent - 1, "");
		if (cnt == 1) {
			kf_strbuf_addstr(a->out, "[1]: 1\n");
			goto conf_childs;
		}
		kf_strbuf_addf(a->out, "[1-%d?]: ", cnt);
		switch (a->mode) {
		case KC_MODE_OLDCONFIG:
		case KC_MODE_SYNCCONFIG:
			if (!is_new) {
				cnt = def;
				kf_strbuf_addf(a->out, "%d\n", cnt);
				break;
			}
			/* fall through */
		case KC_MODE_OLDASKCONFIG:
			xfgets(a);
			strip(a->line);
			if (a->line[0] == '?') {
				print_help(a, menu);
				continue;
			}
			if (!a->line[0])
				cnt = def;
			else if (isdigit((unsigned char)a->line[0]))
				cnt = atoi(a->line);
			else
				continue;
			break;
		default:
			break;
		}
conf_childs:
		for (child = menu->list; child; child = child->next) {
			if (!child->sym || !menu_is_visible(t, child))
				continue;
			if (!--cnt)
				break;
		}
		if (!child)
			continue;
		if (a->line[0] && a->line[strlen(a->line) - 1] == '?') {
			print_help(a, child);
			continue;
		}
		if (!v1) {
			choice_set_value(t, menu, child->sym);
			return;
		}
		sym_set_tristate_value(t, child->sym, KC_YES);
		for (child = child->list; child; child = child->next) {
			a->indent += 2;
			conf(a, child);
			a->indent -= 2;
		}
		return;
	}
}

static void conf(struct ask *a, kc_menu *menu)
{
	kc_tree *t = a->t;
	kc_sym *sym;
	kc_prop *prop;
	kc_menu *child;

	if (a->failed || !menu_is_visible(t, menu))
		return;
	sym = menu->sym;
	prop = menu->prompt;
	if (prop) {
		const char *prompt;
		switch (prop->type) {
		case P_MENU:
			/* except in oldaskconfig, only menus with new symbols */
			if (a->mode != KC_MODE_OLDASKCONFIG && a->root_entry != menu) {
				check_conf(a, menu);
				return;
			}
			/* fall through */
		case P_COMMENT:
			prompt = menu_get_prompt(menu);
			if (prompt)
				kf_strbuf_addf(a->out, "%*c\n%*c %s\n%*c\n", a->indent, '*',
					       a->indent, '*', prompt, a->indent, '*');
		default:;
		}
	}
	if (!sym)
		goto conf_childs;
	if (sym_is_choice(sym)) {
		conf_choice(a, menu);
		if (t->sem == KC_SEM_V1 && sym->curr.tri == KC_MOD)
			goto conf_childs;
		return;
	}
	switch (sym->type) {
	case S_INT:
	case S_HEX:
	case S_STRING:
		conf_string(a, menu);
		break;
	default:
		conf_sym(a, menu);
		break;
	}
conf_childs:
	if (sym)
		a->indent += 2;
	for (child = menu->list; child; child = child->next)
		conf(a, child);
	if (sym)
		a->indent -= 2;
}

/* menu_get_parent_menu() of 6.12 (menu_get_menu_or_parent_menu() in 7.x) */
static kc_menu *parent_menu(kc_tree *t, kc_menu *menu)
{
	for (; menu != &t->rootmenu; menu = menu->parent)
		if (menu->prompt && menu->prompt->type == P_MENU)
			break;
	return menu;
}

static void check_conf(struct ask *a, kc_menu *menu)
{
	kc_tree *t = a->t;
	kc_sym *sym;

	if (a->failed || !menu_is_visible(t, menu))
		return;
	sym = menu->sym;
	if (kc_sym_is_new(t, sym)) {
		if (a->mode == KC_MODE_HELPNEWCONFIG) {
			kf_strbuf_addstr(a->out, "-----\n");
			print_help(a, menu);
			kf_strbuf_addstr(a->out, "-----\n");
		} else {
			if (!a->conf_cnt++)
				kf_strbuf_addstr(a->out, "*\n* Restart config...\n*\n");
			a->root_entry = parent_menu(t, menu);
			conf(a, a->root_entry);
		}
	}
	for (kc_menu *child = menu->list; child; child = child->next)
		check_conf(a, child);
}

static void rewrite_tristates(kc_tree *t, kc_tri old_val, kc_tri new_val)
{
	kc_sym *sym;
	unsigned i;
	for_all_symbols(t, i, sym)
	{
		if (sym_get_type(t, sym) == S_TRISTATE &&
		    sym->def[S_DEF_USER].tri == old_val)
			sym->def[S_DEF_USER].tri = new_val;
	}
	sym_clear_all_valid(t);
}

int kc_ask_run(kc_tree *t, const kc_run_opts *o, kf_strbuf *out)
{
	struct ask a = {.t = t, .io = o->io, .out = out, .mode = o->mode, .indent = 1};

	switch (o->mode) {
	case KC_MODE_YES2MODCONFIG:
		rewrite_tristates(t, KC_YES, KC_MOD);
		return 0;
	case KC_MODE_MOD2YESCONFIG:
		rewrite_tristates(t, KC_MOD, KC_YES);
		return 0;
	case KC_MODE_MOD2NOCONFIG:
		rewrite_tristates(t, KC_MOD, KC_NO);
		return 0;
	case KC_MODE_OLDASKCONFIG:
		a.root_entry = &t->rootmenu;
		conf(&a, &t->rootmenu);
		a.mode = KC_MODE_OLDCONFIG;
		break;
	default:
		break;
	}
	/* until a pass asks nothing more */
	do {
		a.conf_cnt = 0;
		check_conf(&a, &t->rootmenu);
	} while (a.conf_cnt && !a.failed);
	return a.failed ? 1 : 0;
}
