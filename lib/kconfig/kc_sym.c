/*
 * kc_sym.c - symbols: the hash table (in the kernel's iteration order),
 * value calculation (visibility, defaults, select/imply, choices, ranges),
 * string validation, and the recursive dependency check.
 *
 * The two choice models (V1 before 6.11, V2 after) differ only where the
 * code says so.  See docs/semantics.md.
 */
#include "kc_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void prop_set_vis(kc_tree *t, kc_prop *prop, kc_tri v);

static unsigned strhash(const char *s)
{
	/* fnv32 over *signed* chars, exactly as the kernel computes it */
	unsigned hash = 2166136261U;
	for (; *s; s++)
		hash = (hash ^ (unsigned)(int)*s) * 0x01000193;
	return hash;
}

kc_sym *sym_lookup(kc_tree *t, const char *name, unsigned flags)
{
	kc_sym *symbol;
	char *new_name;
	unsigned hash;

	if (name) {
		if (name[0] && !name[1]) {
			switch (name[0]) {
			case 'y':
				return &t->sym_yes;
			case 'm':
				return &t->sym_mod;
			case 'n':
				return &t->sym_no;
			}
		}
		hash = strhash(name) % t->hashsize;
		for (symbol = t->hash[hash]; symbol; symbol = symbol->next) {
			if (symbol->name && !strcmp(symbol->name, name) &&
			    (flags ? symbol->flags & flags
				   : !(symbol->flags &
				       (SYMBOL_CONST | SYMBOL_CHOICE))))
				return symbol;
		}
		new_name = kf_arena_strdup(t->arena, name);
	} else {
		new_name = NULL;
		hash = 0;
	}
	symbol = kf_arena_alloc(t->arena, sizeof(*symbol));
	symbol->name = new_name;
	symbol->type = S_UNKNOWN;
	symbol->flags = flags;
	symbol->seq = t->nsyms++;
	symbol->next = t->hash[hash];
	t->hash[hash] = symbol;
	return symbol;
}

kc_sym *sym_find(kc_tree *t, const char *name)
{
	kc_sym *symbol = NULL;

	if (!name)
		return NULL;
	if (name[0] && !name[1]) {
		switch (name[0]) {
		case 'y':
			return &t->sym_yes;
		case 'm':
			return &t->sym_mod;
		case 'n':
			return &t->sym_no;
		}
	}
	unsigned hash = strhash(name) % t->hashsize;
	for (symbol = t->hash[hash]; symbol; symbol = symbol->next) {
		if (symbol->name && !strcmp(symbol->name, name) &&
		    !(symbol->flags & SYMBOL_CONST))
			break;
	}
	return symbol;
}

kc_sym *kc_sym_find(kc_tree *t, const char *name)
{
	kc_sym *s = sym_find(t, name);
	if (s && (s->flags & SYMBOL_CONST))
		return NULL;
	if (s && s->type == S_UNKNOWN && !s->prop)
		return NULL; /* only referenced, never defined */
	return s;
}

bool kc_sym_depends_on(kc_tree *t, const char *sym, const char *on)
{
	kc_sym *s = kc_sym_find(t, sym), *o = kc_sym_find(t, on);
	return s && o && expr_depends_symbol(t, s->dir_dep.expr, o);
}

enum kc_sym_type sym_get_type(kc_tree *t, kc_sym *sym)
{
	enum kc_sym_type type = sym->type;

	if (type == S_TRISTATE) {
		if (t->sem == KC_SEM_V1 && sym_is_choice_value_v1(sym) &&
		    sym->visible == KC_YES)
			type = S_BOOLEAN;
		else if (t->modules_val == KC_NO)
			type = S_BOOLEAN;
	}
	return type;
}

const char *sym_type_name(enum kc_sym_type type)
{
	switch (type) {
	case S_BOOLEAN:
		return "bool";
	case S_TRISTATE:
		return "tristate";
	case S_INT:
		return "integer";
	case S_HEX:
		return "hex";
	case S_STRING:
		return "string";
	case S_UNKNOWN:
		return "unknown";
	}
	return "???";
}

kc_prop *sym_get_choice_prop(kc_sym *sym)
{
	kc_prop *prop;
	for_all_properties(sym, prop, P_CHOICE) return prop;
	return NULL;
}

kc_sym *prop_get_symbol(kc_prop *prop)
{
	if (prop->expr &&
	    (prop->expr->type == E_SYMBOL || prop->expr->type == E_LIST))
		return prop->expr->left.sym;
	return NULL;
}

/* V2: the choice menu a member belongs to (first menu with a prompt). */
kc_menu *sym_get_choice_menu(kc_tree *t, kc_sym *sym)
{
	kc_menu *menu = NULL;
	for (size_t i = 0; i < sym->nmenus; i++)
		if (sym->menus[i]->prompt) {
			menu = sym->menus[i];
			break;
		}
	if (!menu)
		return NULL;
	do {
		menu = menu->parent;
	} while (menu && !menu->sym);
	if (menu && menu->sym && sym_is_choice(menu->sym))
		return menu;
	return NULL;
}

static kc_prop *sym_get_default_prop(kc_tree *t, kc_sym *sym)
{
	kc_prop *prop;
	sym_journal(t, sym);
	for_all_defaults(sym, prop)
	{
		prop_set_vis(t, prop, expr_calc_value(t, prop->visible.expr));
		if (prop->visible.tri != KC_NO)
			return prop;
	}
	return NULL;
}

kc_prop *sym_get_range_prop(kc_tree *t, kc_sym *sym)
{
	kc_prop *prop;
	sym_journal(t, sym);
	for_all_properties(sym, prop, P_RANGE)
	{
		prop_set_vis(t, prop, expr_calc_value(t, prop->visible.expr));
		if (prop->visible.tri != KC_NO)
			return prop;
	}
	return NULL;
}

static long long sym_get_range_val(kc_tree *t, kc_sym *sym, int base)
{
	sym_calc_value(t, sym);
	switch (sym->type) {
	case S_INT:
		base = 10;
		break;
	case S_HEX:
		base = 16;
		break;
	default:
		break;
	}
	return strtoll(sym->curr.val, NULL, base);
}

static void sym_validate_range(kc_tree *t, kc_sym *sym)
{
	kc_prop *prop;
	kc_sym *range_sym;
	int base;
	long long val, val2;

	switch (sym->type) {
	case S_INT:
		base = 10;
		break;
	case S_HEX:
		base = 16;
		break;
	default:
		return;
	}
	prop = sym_get_range_prop(t, sym);
	if (!prop)
		return;
	val = strtoll(sym->curr.val, NULL, base);
	range_sym = prop->expr->left.sym;
	val2 = sym_get_range_val(t, range_sym, base);
	if (val >= val2) {
		range_sym = prop->expr->right.sym;
		val2 = sym_get_range_val(t, range_sym, base);
		if (val <= val2)
			return;
	}
	sym->curr.val = range_sym->curr.val;
}

void sym_set_changed(kc_tree *t, kc_sym *sym)
{
	(void)t;
	sym->flags |= SYMBOL_CHANGED;
}

static void sym_set_all_changed(kc_tree *t)
{
	kc_sym *sym;
	unsigned i;
	for_all_symbols(t, i, sym) sym_set_changed(t, sym);
}

/* One of sym's dependency values (sym_calc_visibility): its expression's
 * value, or none without one, m taken as y for a bool; a new value marks
 * sym changed. */
static void calc_dep_value(kc_tree *t, kc_sym *sym, kc_expr_value *dep, kc_tri none)
{
	kc_tri tri = dep->expr ? expr_calc_value(t, dep->expr) : none;
	if (tri == KC_MOD && sym_get_type(t, sym) == S_BOOLEAN)
		tri = KC_YES;
	if (dep->tri != tri) {
		dep->tri = tri;
		sym_set_changed(t, sym);
	}
}

void sym_calc_visibility(kc_tree *t, kc_sym *sym)
{
	kc_prop *prop;
	kc_sym *choice_sym = NULL;
	kc_tri tri;

	sym_journal(t, sym);
	/* 6.18+: transitional symbols are always "visible" (read from a
	 * .config as user values) and never written */
	if (sym->flags & SYMBOL_TRANS) {
		sym->visible = KC_YES;
		return;
	}

	tri = KC_NO;
	if (t->sem == KC_SEM_V1 && sym_is_choice_value_v1(sym))
		choice_sym = prop_get_symbol(sym_get_choice_prop(sym));

	for_all_prompts(sym, prop)
	{
		prop_set_vis(t, prop, expr_calc_value(t, prop->visible.expr));
		/* V1: tristate choice values with visibility 'mod' are not
		 * visible if the choice's value is 'yes' */
		if (choice_sym && sym->type == S_TRISTATE &&
		    prop->visible.tri == KC_MOD && choice_sym->curr.tri == KC_YES)
			prop_set_vis(t, prop, KC_NO);
		tri = TRI_OR(tri, prop->visible.tri);
	}
	if (tri == KC_MOD &&
	    (sym->type != S_TRISTATE || t->modules_val == KC_NO))
		tri = KC_YES;
	if (sym->visible != tri) {
		sym->visible = tri;
		sym_set_changed(t, sym);
	}
	if (sym_is_choice_value(t, sym))
		return;
	calc_dep_value(t, sym, &sym->dir_dep, KC_YES);
	calc_dep_value(t, sym, &sym->rev_dep, KC_NO);
	calc_dep_value(t, sym, &sym->implied, KC_NO);
}

/* ---------------- journal ---------------- */

void sym_journal(kc_tree *t, kc_sym *sym)
{
	kc_journal *j = t->journal;
	if (!j || !sym || (sym->flags & SYMBOL_CONST))
		return;
	if (sym->jtag == t->jtag && sym->jidx < j->n && j->v[sym->jidx].sym == sym &&
	    j->v[sym->jidx].tag == t->jtag)
		return; /* kept already since the last mark */
	KF_GROW(j->v, j->n + 1, j->a);
	kc_jentry *e = &j->v[j->n];
	e->sym = sym;
	e->tag = t->jtag;
	e->curr = sym->curr;
	e->flags = sym->flags;
	e->gen = sym->gen;
	e->visible = sym->visible;
	e->dir = sym->dir_dep.tri;
	e->rev = sym->rev_dep.tri;
	e->impl = sym->implied.tri;
	e->prop = NULL;
	e->pjtag = sym->jtag;
	e->pjidx = sym->jidx;
	sym->jtag = t->jtag;
	sym->jidx = j->n++;
}

/* A property's visibility is about to change (kept when it does). */
static void prop_set_vis(kc_tree *t, kc_prop *prop, kc_tri v)
{
	if (prop->visible.tri == v)
		return;
	kc_journal *j = t->journal;
	if (j) {
		KF_GROW(j->v, j->n + 1, j->a);
		kc_jentry *e = &j->v[j->n++];
		memset(e, 0, sizeof(*e));
		e->prop = prop;
		e->tag = t->jtag;
		e->visible = prop->visible.tri;
	}
	prop->visible.tri = v;
}

/* The tree's generation and "modules" value are about to change. */
static void tree_journal(kc_tree *t)
{
	kc_journal *j = t->journal;
	if (!j)
		return;
	KF_GROW(j->v, j->n + 1, j->a);
	kc_jentry *e = &j->v[j->n++];
	memset(e, 0, sizeof(*e));
	e->tag = t->jtag;
	e->gen = t->gen;
	e->visible = t->modules_val;
}

#define ANSWER_FLAGS (SYMBOL_DEF_USER | SYMBOL_NEED_SET_CHOICE_VALUES)

void kc_journal_undo(kc_tree *t, size_t mark)
{
	kc_journal *j = t->journal;
	while (j->n && j->v[j->n - 1].tag > mark) {
		kc_jentry *e = &j->v[--j->n];
		kc_sym *s = e->sym;
		if (e->prop) {
			e->prop->visible.tri = e->visible;
		} else if (!s) {
			t->gen = e->gen;
			t->modules_val = e->visible;
		} else {
			s->curr = e->curr;
			s->flags = (e->flags & ~ANSWER_FLAGS) | (s->flags & ANSWER_FLAGS);
			s->gen = e->gen;
			s->visible = e->visible;
			s->dir_dep.tri = e->dir;
			s->rev_dep.tri = e->rev;
			s->implied.tri = e->impl;
			s->jtag = e->pjtag;
			s->jidx = e->pjidx;
		}
	}
}

void kc_journal_drop(kc_tree *t, size_t mark)
{
	kc_journal *j = t->journal;
	while (j->n && j->v[j->n - 1].tag > mark) {
		kc_jentry *e = &j->v[--j->n];
		if (e->sym) {
			e->sym->jtag = e->pjtag;
			e->sym->jidx = e->pjidx;
		}
	}
}

bool kc_journal_touched(const kc_tree *t, const kc_sym *sym)
{
	const kc_journal *j = t->journal;
	return j && sym->jidx < j->n && j->v[sym->jidx].sym == sym;
}

/* The calculation is about to change sym's answer (or the flags that
 * say it has one): count it, and keep what it was while asked to. */
static void calc_edit(kc_tree *t, kc_sym *sym)
{
	t->calc_edits++;
	if (!t->edit_log)
		return;
	kc_edits *l = t->edit_log;
	KF_GROW(l->v, l->n + 1, l->a);
	l->v[l->n++] = (kc_edit){sym, sym->def[S_DEF_USER], sym->flags};
}

/* V1: default symbol of a choice (defaults first, then first visible). */
kc_sym *sym_choice_default_v1(kc_tree *t, kc_sym *sym)
{
	kc_sym *def_sym;
	kc_prop *prop;
	kc_expr *e;

	for_all_defaults(sym, prop)
	{
		prop_set_vis(t, prop, expr_calc_value(t, prop->visible.expr));
		if (prop->visible.tri == KC_NO)
			continue;
		def_sym = prop_get_symbol(prop);
		if (def_sym->visible != KC_NO)
			return def_sym;
	}
	prop = sym_get_choice_prop(sym);
	for (e = prop->expr; e && (def_sym = e->right.sym); e = e->left.expr)
		if (def_sym->visible != KC_NO)
			return def_sym;
	return NULL;
}

static kc_sym *sym_calc_choice_v1(kc_tree *t, kc_sym *sym)
{
	kc_sym *def_sym;
	kc_prop *prop;
	kc_expr *e;
	unsigned flags;

	flags = sym->flags;
	prop = sym_get_choice_prop(sym);
	for (e = prop->expr; e && (def_sym = e->right.sym); e = e->left.expr) {
		sym_calc_visibility(t, def_sym);
		if (def_sym->visible != KC_NO)
			flags &= def_sym->flags;
	}
	if (sym->flags & ~(flags | ~SYMBOL_DEF_USER))
		calc_edit(t, sym);
	sym->flags &= flags | ~SYMBOL_DEF_USER;

	def_sym = sym->def[S_DEF_USER].val;
	if (def_sym && def_sym->visible != KC_NO)
		return def_sym;
	def_sym = sym_choice_default_v1(t, sym);
	if (def_sym == NULL)
		sym->curr.tri = KC_NO;
	return def_sym;
}

/* V2: default symbol of a choice menu. */
kc_sym *sym_choice_default_v2(kc_tree *t, kc_menu *choice)
{
	kc_prop *prop;
	kc_sym *def_sym;
	kc_menu *menu;

	for_all_defaults(choice->sym, prop)
	{
		prop_set_vis(t, prop, expr_calc_value(t, prop->visible.expr));
		if (prop->visible.tri == KC_NO)
			continue;
		def_sym = prop_get_symbol(prop);
		if (def_sym->visible != KC_NO)
			return def_sym;
	}
	for (menu = menu_next(choice, choice); menu; menu = menu_next(menu, choice))
		if (menu->sym && menu->sym->visible != KC_NO)
			return menu->sym;
	return NULL;
}

void choice_member_move_front(kc_menu *choice, kc_sym *sym)
{
	size_t i;
	for (i = 0; i < choice->nmembers; i++)
		if (choice->members[i] == sym)
			break;
	if (i == choice->nmembers)
		return;
	memmove(choice->members + 1, choice->members, i * sizeof(kc_sym *));
	choice->members[0] = sym;
}

void choice_member_move_tail(kc_menu *choice, kc_sym *sym)
{
	size_t i;
	for (i = 0; i < choice->nmembers; i++)
		if (choice->members[i] == sym)
			break;
	if (i == choice->nmembers)
		return;
	memmove(choice->members + i, choice->members + i + 1,
		(choice->nmembers - i - 1) * sizeof(kc_sym *));
	choice->members[choice->nmembers - 1] = sym;
}

kc_sym *sym_calc_choice_v2(kc_tree *t, kc_menu *choice)
{
	kc_sym *res = NULL;
	kc_sym *sym;
	kc_menu *menu;

	if (t->journal) {
		sym_journal(t, choice->sym);
		for (size_t i = 0; i < choice->nmembers; i++)
			sym_journal(t, choice->members[i]);
		for (menu = menu_next(choice, choice); menu; menu = menu_next(menu, choice))
			sym_journal(t, menu->sym);
	}
	for (size_t i = 0; i < choice->nmembers; i++) {
		sym = choice->members[i];
		sym_calc_visibility(t, sym);
		if (sym->visible == KC_NO)
			continue;
		if (sym_has_value(sym) && sym->def[S_DEF_USER].tri == KC_YES) {
			res = sym;
			break;
		}
	}
	if (!res) {
		res = sym_choice_default_v2(t, choice);
		if (res && sym_has_value(res) &&
		    res->def[S_DEF_USER].tri == KC_NO)
			res = NULL;
	}
	if (!res) {
		for (menu = menu_next(choice, choice); menu;
		     menu = menu_next(menu, choice)) {
			sym = menu->sym;
			if (!sym || sym->visible == KC_NO || sym_has_value(sym))
				continue;
			res = sym;
			break;
		}
	}
	if (!res) {
		for (size_t i = choice->nmembers; i-- > 0;) {
			sym = choice->members[i];
			if (sym->visible == KC_NO)
				continue;
			res = sym;
			break;
		}
	}
	for (menu = menu_next(choice, choice); menu; menu = menu_next(menu, choice)) {
		kc_tri val;
		sym = menu->sym;
		if (!sym || sym->visible == KC_NO)
			continue;
		val = sym == res ? KC_YES : KC_NO;
		if (sym->curr.tri != val)
			sym_set_changed(t, sym);
		sym->curr.tri = val;
		sym_mark_valid(t, sym);
		sym->flags |= SYMBOL_WRITE;
	}
	return res;
}

void kc_warn_raw(kc_tree *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	kf_diag_raw(t->diags, KF_WARNING, "%s", kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
}

static void sym_warn_unmet_dep(kc_tree *t, kc_sym *sym)
{
	kf_strbuf gs = KF_STRBUF_INIT;

	kf_strbuf_addf(&gs, "\nWARNING: unmet direct dependencies detected for %s\n",
		       sym->name);
	kf_strbuf_addf(&gs, "  Depends on [%c]: ",
		       sym->dir_dep.tri == KC_MOD ? 'm' : 'n');
	expr_gstr_print(t, sym->dir_dep.expr, &gs);
	kf_strbuf_addstr(&gs, "\n");
	expr_gstr_print_revdep(t, sym->rev_dep.expr, &gs, KC_YES,
			       "  Selected by [y]:\n");
	expr_gstr_print_revdep(t, sym->rev_dep.expr, &gs, KC_MOD,
			       "  Selected by [m]:\n");
	/* the kernel prints this with fputs: no extra newline */
	if (gs.len && gs.buf[gs.len - 1] == '\n')
		gs.buf[--gs.len] = 0;
	kf_diag_raw(t->diags, KF_WARNING, "%s", kf_strbuf_str(&gs));
	kf_strbuf_release(&gs);
	t->sym_warnings++;
}

void set_all_choice_values(kc_tree *t, kc_sym *csym)
{
	kc_prop *prop = sym_get_choice_prop(csym);
	kc_expr *e;
	kc_sym *sym;

	sym_journal(t, csym);
	calc_edit(t, csym);
	for (e = prop->expr; e && (sym = e->right.sym); e = e->left.expr)
		if (!sym_has_value(sym)) {
			calc_edit(t, sym);
			sym->def[S_DEF_USER].tri = KC_NO;
		}
	csym->flags |= SYMBOL_DEF_USER;
	csym->flags &= ~(SYMBOL_VALID | SYMBOL_NEED_SET_CHOICE_VALUES);
}

void kc_too_deep_at(kc_tree *t, const char *file, int line, const char *name)
{
	if (t->too_deep)
		return;
	t->too_deep = true;
	kf_diag_add(t->diags, KF_ERROR, file, line, 0,
		    "dependency chain through %s is too deep (more than %d MiB of stack)",
		    name, KC_STACK_SLICES * KC_STACK_SLICE / (1024 * 1024));
}

/* Past the last slice of stack (kc_stack_call): the first such symbol is
 * reported where it is first defined, and each gets conf's starting
 * value and counts as calculated, so that what called it ends without
 * going that deep again. */
void kc_too_deep(kc_tree *t, kc_sym *sym)
{
	kc_menu *m = sym->nmenus ? sym->menus[0] : NULL;
	for (kc_prop *p = sym->prop; !m && p; p = p->next)
		m = p->menu;
	kc_too_deep_at(t, m ? m->file : t->rootmenu.file, m ? m->lineno : 0,
		       sym->name ? sym->name : "<choice>");
	if (sym_is_valid(t, sym))
		return;
	sym_journal(t, sym);
	sym_mark_valid(t, sym);
	sym->curr.tri = KC_NO;
	switch (sym->type) {
	case S_BOOLEAN:
	case S_TRISTATE:
		sym->curr.val = "n";
		break;
	case S_UNKNOWN:
		sym->curr.val = sym->name;
		break;
	default:
		sym->curr.val = "";
		break;
	}
}

static void sym_calc_one(kc_tree *t, kc_sym *sym);

struct calc_step {
	kc_tree *t;  /* the tree */
	kc_sym *sym; /* the symbol to calculate */
};

static void calc_step_run(void *arg)
{
	struct calc_step *s = arg;
	sym_calc_one(s->t, s->sym);
}

void sym_calc_value(kc_tree *t, kc_sym *sym)
{
	if (!sym || sym_is_valid(t, sym))
		return;
	struct calc_step s = {t, sym};
	if (!kc_stack_call(t, calc_step_run, &s))
		kc_too_deep(t, sym);
}

/* sym_calc_value() of an invalid symbol: conf's, step for step. */
static void sym_calc_one(kc_tree *t, kc_sym *sym)
{
	kc_value newval, oldval;
	kc_prop *prop = NULL;
	kc_expr *e;
	bool v2 = t->sem == KC_SEM_V2;

	if (t->journal) {
		sym_journal(t, sym);
		/* a choice sets its members' flags */
		if (!v2 && sym_is_choice(sym)) {
			kc_sym *m;
			for (e = sym_get_choice_prop(sym)->expr; e && (m = e->right.sym);
			     e = e->left.expr)
				sym_journal(t, m);
		}
	}

	if (!v2 && sym_is_choice_value_v1(sym) &&
	    (sym->flags & SYMBOL_NEED_SET_CHOICE_VALUES)) {
		calc_edit(t, sym);
		sym->flags &= ~SYMBOL_NEED_SET_CHOICE_VALUES;
		prop = sym_get_choice_prop(sym);
		sym_calc_value(t, prop_get_symbol(prop));
	}

	sym_mark_valid(t, sym);
	oldval = sym->curr;
	newval.tri = KC_NO;

	switch (sym->type) {
	case S_INT:
		newval.val = v2 ? "0" : "";
		break;
	case S_HEX:
		newval.val = v2 ? "0x0" : "";
		break;
	case S_STRING:
		newval.val = "";
		break;
	case S_BOOLEAN:
	case S_TRISTATE:
		newval.val = "n";
		break;
	default:
		sym->curr.val = sym->name;
		sym->curr.tri = KC_NO;
		return;
	}
	sym->flags &= ~SYMBOL_WRITE;

	sym_calc_visibility(t, sym);
	if (sym->visible != KC_NO)
		sym->flags |= SYMBOL_WRITE;

	sym->curr = newval;

	switch (sym_get_type(t, sym)) {
	case S_BOOLEAN:
	case S_TRISTATE: {
		kc_menu *choice_menu = v2 ? sym_get_choice_menu(t, sym) : NULL;
		if (v2 && choice_menu) {
			sym_calc_choice_v2(t, choice_menu);
			newval.tri = sym->curr.tri;
		} else if (!v2 && sym_is_choice_value_v1(sym) &&
			   sym->visible == KC_YES) {
			prop = sym_get_choice_prop(sym);
			newval.tri = (prop_get_symbol(prop)->curr.val == sym)
					     ? KC_YES
					     : KC_NO;
		} else {
			if (sym->visible != KC_NO) {
				if (sym_has_value(sym)) {
					newval.tri = TRI_AND(sym->def[S_DEF_USER].tri,
							     sym->visible);
					goto calc_newval;
				}
			}
			if (sym->rev_dep.tri != KC_NO)
				sym->flags |= SYMBOL_WRITE;
			if (!sym_is_choice(sym)) {
				prop = sym_get_default_prop(t, sym);
				if (prop) {
					newval.tri = TRI_AND(
						expr_calc_value(t, prop->expr),
						prop->visible.tri);
					if (newval.tri != KC_NO)
						sym->flags |= SYMBOL_WRITE;
				}
				if (sym->implied.tri != KC_NO) {
					sym->flags |= SYMBOL_WRITE;
					newval.tri = TRI_OR(newval.tri,
							    sym->implied.tri);
					newval.tri = TRI_AND(newval.tri,
							     sym->dir_dep.tri);
				}
			}
calc_newval:
			if (sym->dir_dep.tri < sym->rev_dep.tri)
				sym_warn_unmet_dep(t, sym);
			newval.tri = TRI_OR(newval.tri, sym->rev_dep.tri);
		}
		if (newval.tri == KC_MOD && sym_get_type(t, sym) == S_BOOLEAN)
			newval.tri = KC_YES;
		break;
	}
	case S_STRING:
	case S_HEX:
	case S_INT:
		if (sym->visible != KC_NO && sym_has_value(sym)) {
			newval.val = sym->def[S_DEF_USER].val;
			break;
		}
		prop = sym_get_default_prop(t, sym);
		if (prop) {
			kc_sym *ds = prop_get_symbol(prop);
			if (ds) {
				sym->flags |= SYMBOL_WRITE;
				sym_calc_value(t, ds);
				newval.val = ds->curr.val;
			}
		}
		break;
	default:
		break;
	}

	/* 6.18+: a symbol without a user value whose default is a single
	 * transitional symbol with one takes it as its own user value (so
	 * it is not "new") */
	if (prop && !sym_has_value(sym) && t->has_transitional) {
		kc_sym *ds = prop_get_symbol(prop);
		if (ds && (ds->flags & SYMBOL_TRANS) && sym_has_value(ds)) {
			calc_edit(t, sym);
			sym->def[S_DEF_USER] = newval;
			sym->flags |= SYMBOL_DEF_USER;
		}
	}

	sym->curr = newval;
	if (!v2 && sym_is_choice(sym) && newval.tri == KC_YES)
		sym->curr.val = sym_calc_choice_v1(t, sym);
	sym_validate_range(t, sym);

	if (memcmp(&oldval, &sym->curr, sizeof(oldval))) {
		sym_set_changed(t, sym);
		if (t->modules_sym == sym) {
			tree_journal(t);
			sym_set_all_changed(t);
			t->modules_val = t->modules_sym->curr.tri;
		}
	}

	if (v2) {
		if (sym_is_choice(sym) || (sym->flags & SYMBOL_TRANS))
			sym->flags &= ~SYMBOL_WRITE;
		return;
	}

	if (sym_is_choice(sym)) {
		kc_sym *choice_sym;
		prop = sym_get_choice_prop(sym);
		for (e = prop->expr; e && (choice_sym = e->right.sym);
		     e = e->left.expr) {
			if ((sym->flags & SYMBOL_WRITE) &&
			    choice_sym->visible != KC_NO)
				choice_sym->flags |= SYMBOL_WRITE;
			if (sym->flags & SYMBOL_CHANGED)
				sym_set_changed(t, choice_sym);
		}
	}
	if (sym->flags & SYMBOL_NO_WRITE)
		sym->flags &= ~SYMBOL_WRITE;
	if (sym->flags & SYMBOL_NEED_SET_CHOICE_VALUES)
		set_all_choice_values(t, sym);
}

void sym_clear_all_valid(kc_tree *t)
{
	/* every symbol's SYMBOL_VALID now belongs to an old generation */
	tree_journal(t);
	t->gen++;
	t->conf_changed = true;
	sym_calc_value(t, t->modules_sym);
}

/*
 * Precise invalidation.  A symbol's value is a function of the answers
 * (user values) of the symbols its calculation reads: those in the
 * expressions of its properties and dependencies, and, for a choice, the
 * whole group of the choice and its members (which read one another's
 * visibility and order).  So when answers change, only the symbols that
 * can read them, transitively, need recalculating: the rest would come
 * out the same.  The index below lists, for each symbol, the symbols that
 * can read it (a superset: every symbol an expression names, whichever
 * branch is taken).  The value of "modules" is read by every tristate's
 * type: a change of it invalidates everything, as sym_clear_all_valid().
 */

/* Dependents followed by one sym_invalidate() before it gives up and
 * invalidates everything.  What the walk passes is journaled and marked
 * invalid, so a walk that ends in giving up was paid for twice: with the
 * index free of repeated edges, 80 to 250 cost least (instructions of
 * generate --detect: T60p on 7.3 2.62 G at 1000, 1.67-1.71 G at 80-250;
 * ThinkPad T14 on 6.1 1.23 G -> 1.14 G; generate without detection the
 * same within 0.3 %). */
#ifndef RDEP_BUDGET
#define RDEP_BUDGET 150
#endif

/* The dependents index is built from one walk over the edges: each edge
 * is listed as it is found and counted for its row, then the list is put
 * in place (compressed rows).  Walking the expressions twice, once to
 * count and once to fill, took 17 % of a generate. */
/* Allocations of the index of at least this size (kf_xmalloc gives a
 * block this large 2 MB-aligned and asks for huge pages). */
#define RDEP_BLOCK ((size_t)2 << 20)

struct rdep_edge_pair {
	unsigned from; /* seq of the symbol read */
	kc_sym *to;    /* the symbol that reads it */
};

struct rdep_pass {
	unsigned *count;             /* dependents per seq */
	struct rdep_edge_pair *v;    /* the edges found */
	size_t n, alloc;
	unsigned *last;              /* by seq: 1 + seq of the last symbol
					listed as reading it */
};

/* What the index reads of a symbol's flags, kept by kc_tree_index_begin:
 * the build reads this instead, never a flag the calculation writes. */
enum { RK_CONST = 1, RK_CHOICE = 2, RK_CHOICEVAL = 4 };

static void rdep_add(kc_tree *t, struct rdep_pass *p, kc_sym *from, kc_sym *to)
{
	if (!from || !to || from == to || from->seq >= t->rdep_nsyms ||
	    to->seq >= t->rdep_nsyms || (t->rdep_kind[from->seq] & RK_CONST))
		return;
	/* a symbol's expressions name the same symbols again and again (its
	 * dependencies are in each prompt's and default's condition): two
	 * thirds of the edges were repeats (307,000 edges, 98,000 pairs on
	 * 6.1); the edges of one reader come one after another, so the last
	 * reader of each symbol is enough to drop them */
	if (p->last[from->seq] == to->seq + 1)
		return;
	p->last[from->seq] = to->seq + 1;
	KF_GROW(p->v, p->n + 1, p->alloc);
	p->v[p->n++] = (struct rdep_edge_pair){from->seq, to};
	p->count[from->seq]++;
}

struct rdep_edge {
	kc_tree *t;
	struct rdep_pass *p;
	kc_sym *to;
};

static void rdep_edge_fn(kc_sym *from, void *ctx)
{
	struct rdep_edge *x = ctx;
	rdep_add(x->t, x->p, from, x->to);
}

/* Every symbol e reads is read by to. */
static void rdep_add_expr(kc_tree *t, struct rdep_pass *p, kc_expr *e, kc_sym *to)
{
	struct rdep_edge x = {t, p, to};
	kc_expr_for_each_sym(e, rdep_edge_fn, &x);
}

/* Both ways between a choice and a member: they read each other. */
static void rdep_add_group(kc_tree *t, struct rdep_pass *p, kc_sym *c, kc_sym *m)
{
	rdep_add(t, p, c, m);
	rdep_add(t, p, m, c);
	if (c && c->seq < t->rdep_nsyms)
		t->rdep_group[c->seq] = 1;
	if (m && m->seq < t->rdep_nsyms)
		t->rdep_group[m->seq] = 1;
}

/* Every edge of the index. */
static void rdep_edges(kc_tree *t, struct rdep_pass *p)
{
	unsigned i;
	kc_sym *s;
	kc_prop *prop;

	for_all_symbols(t, i, s)
	{
		if (s->seq >= t->rdep_nsyms || (t->rdep_kind[s->seq] & RK_CONST))
			continue;
		if ((t->rdep_kind[s->seq] & (RK_CHOICE | RK_CHOICEVAL)) || s->choice)
			t->rdep_group[s->seq] = 1;
		for (prop = s->prop; prop; prop = prop->next) {
			rdep_add_expr(t, p, prop->expr, s);
			rdep_add_expr(t, p, prop->visible.expr, s);
		}
		rdep_add_expr(t, p, s->dir_dep.expr, s);
		rdep_add_expr(t, p, s->rev_dep.expr, s);
		rdep_add_expr(t, p, s->implied.expr, s);
		if (s->choice) {
			rdep_add_group(t, p, s->choice->sym, s);
			for (size_t k = 0; k < s->choice->nmembers; k++)
				rdep_add_group(t, p, s->choice->sym, s->choice->members[k]);
		}
	}
	for (kc_menu *m = menu_next(&t->rootmenu, &t->rootmenu); m;
	     m = menu_next(m, &t->rootmenu)) {
		if (!m->sym || m->sym->seq >= t->rdep_nsyms ||
		    !(t->rdep_kind[m->sym->seq] & RK_CHOICE))
			continue;
		for (kc_menu *c = menu_next(m, m); c; c = menu_next(c, m))
			rdep_add_group(t, p, m->sym, c->sym);
		for (size_t k = 0; k < m->nmembers; k++)
			rdep_add_group(t, p, m->sym, m->members[k]);
	}
}

static void rdep_build(kc_tree *t);

void kc_tree_index_begin(kc_tree *t)
{
	if (t->rdep_start || t->rdep_kind)
		return;
	unsigned n = t->nsyms, i;
	kc_sym *s;
	t->rdep_kind = kf_xcalloc(n ? n : 1, 1);
	t->rdep_nsyms = n;
	for_all_symbols(t, i, s)
	{
		if (s->seq < n)
			t->rdep_kind[s->seq] = (s->flags & SYMBOL_CONST ? RK_CONST : 0) |
					       (sym_is_choice(s) ? RK_CHOICE : 0) |
					       (sym_is_choice_value_v1(s) ? RK_CHOICEVAL : 0);
	}
}

void kc_tree_index_build(kc_tree *t)
{
	if (t->rdep_start)
		return;
	kc_tree_index_begin(t);
	rdep_build(t);
}

static void rdep_build(kc_tree *t)
{
	unsigned n = t->rdep_nsyms;

	t->rdep_group = kf_xcalloc(n ? n : 1, 1);
	/* compressed rows: the dependents of seq k are
	 * rdep[rdep_start[k] .. rdep_start[k + 1]) */
	t->rdep_start = kf_xcalloc((size_t)n + 1, sizeof(unsigned));
	struct rdep_pass p = {.count = t->rdep_start + 1};
	p.last = kf_xcalloc(n ? n : 1, sizeof(unsigned));
	/* 2 MB to start with, the block size kf_xmalloc gives huge pages:
	 * grown 16 bytes at a time from 8, the list cost ~500 page faults */
	p.alloc = RDEP_BLOCK / sizeof(*p.v);
	p.v = kf_xmalloc(RDEP_BLOCK);
	rdep_edges(t, &p);
	free(p.last);
	for (unsigned k = 0; k < n; k++)
		t->rdep_start[k + 1] += t->rdep_start[k];
	/* each row in the order its edges were found, as two walks put them */
	unsigned *fill = kf_xmalloc(((size_t)n + 1) * sizeof(unsigned));
	memcpy(fill, t->rdep_start, ((size_t)n + 1) * sizeof(unsigned));
	size_t rows = p.n * sizeof(kc_sym *);
	t->rdep = kf_xmalloc(rows > RDEP_BLOCK ? rows : RDEP_BLOCK);
	for (size_t k = 0; k < p.n; k++)
		t->rdep[fill[p.v[k].from]++] = p.v[k].to;
	t->rdep_mark = kf_xcalloc(n ? n : 1, sizeof(unsigned));
	t->rdep_pass = 0;
	free(fill);
	free(p.v);
}

void sym_rdep_free(kc_tree *t)
{
	free(t->rdep_start);
	free(t->rdep);
	free(t->rdep_mark);
	free(t->rdep_group);
	free(t->rdep_kind);
	t->rdep_group = t->rdep_kind = NULL;
	t->rdep_start = t->rdep_mark = NULL;
	t->rdep = NULL;
	t->rdep_nsyms = 0;
}

/*
 * The answers of syms changed: recalculate, when asked, exactly what
 * sym_clear_all_valid() would have made recalculate with a different
 * result, and nothing else.
 */
void sym_invalidate(kc_tree *t, kc_sym *const *syms, size_t n)
{
	if (!t->rdep_start && t->nsyms)
		kc_tree_index_build(t);
	for (size_t k = 0; k < n; k++)
		if (!syms[k] || syms[k]->seq >= t->rdep_nsyms) {
			sym_clear_all_valid(t);
			return;
		}
	if (++t->rdep_pass == 0) {
		memset(t->rdep_mark, 0, t->rdep_nsyms * sizeof(unsigned));
		t->rdep_pass = 1;
	}
	kc_sym **stack = NULL;
	size_t nstack = 0, astack = 0;
	for (size_t k = 0; k < n; k++) {
		kc_sym *s = syms[k];
		if (t->rdep_mark[s->seq] == t->rdep_pass)
			continue;
		t->rdep_mark[s->seq] = t->rdep_pass;
		KF_GROW(stack, nstack + 1, astack);
		stack[nstack++] = s;
	}
	size_t edges = 0;
	while (nstack) {
		kc_sym *s = stack[--nstack];
		sym_journal(t, s);
		s->flags &= ~SYMBOL_VALID;
		/* a symbol that much reads (NET, PCI...): recalculating
		 * what is asked for costs less than following it all */
		edges += t->rdep_start[s->seq + 1] - t->rdep_start[s->seq];
		if (edges > RDEP_BUDGET) {
			free(stack);
			sym_clear_all_valid(t);
			return;
		}
		for (unsigned r = t->rdep_start[s->seq]; r < t->rdep_start[s->seq + 1]; r++) {
			kc_sym *d = t->rdep[r];
			if (t->rdep_mark[d->seq] == t->rdep_pass)
				continue;
			t->rdep_mark[d->seq] = t->rdep_pass;
			/* already invalid: what read it was invalidated
			 * with it, or has been recalculated since without
			 * reading it; a choice's group is read without
			 * being made valid, so it is always followed */
			if (!sym_is_valid(t, d) && !t->rdep_group[d->seq])
				continue;
			KF_GROW(stack, nstack + 1, astack);
			stack[nstack++] = d;
		}
	}
	free(stack);
	t->conf_changed = true;
	/* as sym_clear_all_valid(): "modules" first; if its value moved,
	 * every tristate's type did */
	kc_tri was = t->modules_val;
	sym_calc_value(t, t->modules_sym);
	if (t->modules_val != was)
		sym_clear_all_valid(t);
}

bool sym_tristate_within_range(kc_tree *t, kc_sym *sym, kc_tri val)
{
	int type = sym_get_type(t, sym);

	if (sym->visible == KC_NO)
		return false;
	if (type != S_BOOLEAN && type != S_TRISTATE)
		return false;
	if (type == S_BOOLEAN && val == KC_MOD)
		return false;
	if (sym->visible <= sym->rev_dep.tri)
		return false;
	if (t->sem == KC_SEM_V1 && sym_is_choice_value_v1(sym) &&
	    sym->visible == KC_YES)
		return val == KC_YES;
	return val >= sym->rev_dep.tri && val <= sym->visible;
}

bool sym_set_tristate_value(kc_tree *t, kc_sym *sym, kc_tri val)
{
	kc_tri oldval = sym_get_tristate_value(sym);

	if (t->sem == KC_SEM_V2) {
		if (!sym_tristate_within_range(t, sym, val))
			return false;
		if (!(sym->flags & SYMBOL_DEF_USER) ||
		    sym->def[S_DEF_USER].tri != val) {
			sym->def[S_DEF_USER].tri = val;
			sym->flags |= SYMBOL_DEF_USER;
			sym_set_changed(t, sym);
		}
		if (oldval != val)
			sym_clear_all_valid(t);
		return true;
	}
	if (oldval != val && !sym_tristate_within_range(t, sym, val))
		return false;
	if (!(sym->flags & SYMBOL_DEF_USER)) {
		sym->flags |= SYMBOL_DEF_USER;
		sym_set_changed(t, sym);
	}
	if (sym_is_choice_value_v1(sym) && val == KC_YES) {
		kc_sym *cs = prop_get_symbol(sym_get_choice_prop(sym));
		kc_prop *prop;
		kc_expr *e;

		cs->def[S_DEF_USER].val = sym;
		cs->flags |= SYMBOL_DEF_USER;
		prop = sym_get_choice_prop(cs);
		for (e = prop->expr; e; e = e->left.expr)
			if (e->right.sym->visible != KC_NO)
				e->right.sym->flags |= SYMBOL_DEF_USER;
	}
	sym->def[S_DEF_USER].tri = val;
	if (oldval != val)
		sym_clear_all_valid(t);
	return true;
}

bool sym_string_valid(kc_sym *sym, const char *str)
{
	signed char ch;

	/* no value at all: a choice given an int/hex/string type holds a
	 * member there (conf reads that pointer as text), or nothing */
	if (!str)
		return false;

	switch (sym->type) {
	case S_STRING:
		return true;
	case S_INT:
		ch = *str++;
		if (ch == '-')
			ch = *str++;
		if (!isdigit((unsigned char)ch))
			return false;
		if (ch == '0' && *str != 0)
			return false;
		while ((ch = *str++)) {
			if (!isdigit((unsigned char)ch))
				return false;
		}
		return true;
	case S_HEX:
		if (str[0] == '0' && (str[1] == 'x' || str[1] == 'X'))
			str += 2;
		ch = *str++;
		do {
			if (!isxdigit((unsigned char)ch))
				return false;
		} while ((ch = *str++));
		return true;
	case S_BOOLEAN:
	case S_TRISTATE:
		switch (str[0]) {
		case 'y':
		case 'Y':
		case 'm':
		case 'M':
		case 'n':
		case 'N':
			return true;
		}
		return false;
	default:
		return false;
	}
}

bool sym_string_within_range(kc_tree *t, kc_sym *sym, const char *str)
{
	kc_prop *prop;
	long long val;

	switch (sym->type) {
	case S_STRING:
		return sym_string_valid(sym, str);
	case S_INT:
	case S_HEX: {
		int base = sym->type == S_INT ? 10 : 16;
		if (!sym_string_valid(sym, str))
			return false;
		prop = sym_get_range_prop(t, sym);
		if (!prop)
			return true;
		val = strtoll(str, NULL, base);
		return val >= sym_get_range_val(t, prop->expr->left.sym, base) &&
		       val <= sym_get_range_val(t, prop->expr->right.sym, base);
	}
	case S_BOOLEAN:
	case S_TRISTATE:
		switch (str[0]) {
		case 'y':
		case 'Y':
			return sym_tristate_within_range(t, sym, KC_YES);
		case 'm':
		case 'M':
			return sym_tristate_within_range(t, sym, KC_MOD);
		case 'n':
		case 'N':
			return sym_tristate_within_range(t, sym, KC_NO);
		}
		return false;
	default:
		return false;
	}
}

bool sym_set_string_value(kc_tree *t, kc_sym *sym, const char *newval)
{
	const char *oldval;
	char *val;

	switch (sym->type) {
	case S_BOOLEAN:
	case S_TRISTATE:
		switch (newval[0]) {
		case 'y':
		case 'Y':
			return sym_set_tristate_value(t, sym, KC_YES);
		case 'm':
		case 'M':
			return sym_set_tristate_value(t, sym, KC_MOD);
		case 'n':
		case 'N':
			return sym_set_tristate_value(t, sym, KC_NO);
		}
		return false;
	default:
		break;
	}
	if (!sym_string_within_range(t, sym, newval))
		return false;
	if (!(sym->flags & SYMBOL_DEF_USER)) {
		sym->flags |= SYMBOL_DEF_USER;
		sym_set_changed(t, sym);
	}
	oldval = sym->def[S_DEF_USER].val;
	if (sym->type == S_HEX &&
	    (newval[0] != '0' || (newval[1] != 'x' && newval[1] != 'X')))
		val = kf_arena_printf(t->arena, "0x%s", newval);
	else if (!oldval || strcmp(oldval, newval))
		val = kf_arena_strdup(t->arena, newval);
	else
		return true;
	sym->def[S_DEF_USER].val = val;
	sym_clear_all_valid(t);
	return true;
}

const char *sym_get_string_default(kc_tree *t, kc_sym *sym)
{
	kc_prop *prop;
	kc_sym *ds;
	const char *str = "";
	kc_tri val;

	sym_calc_visibility(t, sym);
	sym_calc_value(t, t->modules_sym);
	val = KC_NO;

	prop = sym_get_default_prop(t, sym);
	if (prop != NULL) {
		switch (sym->type) {
		case S_BOOLEAN:
		case S_TRISTATE:
			val = TRI_AND(expr_calc_value(t, prop->expr),
				      prop->visible.tri);
			break;
		default:
			ds = prop_get_symbol(prop);
			if (ds != NULL) {
				sym_calc_value(t, ds);
				str = (const char *)ds->curr.val;
			}
		}
	}
	val = TRI_OR(val, sym->rev_dep.tri);
	if (val == KC_MOD)
		if (!sym_is_choice_value(t, sym) &&
		    t->modules_sym->curr.tri == KC_NO)
			val = KC_YES;
	if (sym->type == S_BOOLEAN && val == KC_MOD)
		val = KC_YES;
	if (val < sym->implied.tri)
		val = sym->implied.tri;

	switch (sym->type) {
	case S_BOOLEAN:
	case S_TRISTATE:
		switch (val) {
		case KC_NO:
			return "n";
		case KC_MOD:
			return "m";
		case KC_YES:
			return "y";
		}
		return "n";
	case S_INT:
		if (t->sem == KC_SEM_V2 && !str[0])
			str = "0";
		return str;
	case S_HEX:
		if (t->sem == KC_SEM_V2 && !str[0])
			str = "0x0";
		return str;
	case S_STRING:
		return str;
	default:
		return "";
	}
}

const char *sym_get_string_value(kc_tree *t, kc_sym *sym)
{
	(void)t;
	switch (sym->type) {
	case S_BOOLEAN:
	case S_TRISTATE:
		switch (sym_get_tristate_value(sym)) {
		case KC_NO:
			return "n";
		case KC_MOD:
			return "m";
		case KC_YES:
			return "y";
		}
		break;
	default:
		break;
	}
	return (const char *)sym->curr.val;
}

bool sym_is_changeable(kc_tree *t, kc_sym *sym)
{
	if (t->sem == KC_SEM_V2 && sym_is_choice(sym))
		return false;
	return sym->visible > sym->rev_dep.tri;
}

const char *prop_get_type_name(enum kc_prop_type type)
{
	switch (type) {
	case P_PROMPT:
		return "prompt";
	case P_COMMENT:
		return "comment";
	case P_MENU:
		return "menu";
	case P_DEFAULT:
		return "default";
	case P_CHOICE:
		return "choice";
	case P_SELECT:
		return "select";
	case P_IMPLY:
		return "imply";
	case P_RANGE:
		return "range";
	case P_SYMBOL:
		return "symbol";
	case P_UNKNOWN:
		break;
	}
	return "unknown";
}

/* ---------------- recursive dependency check ---------------- */

struct dep_stack {
	struct dep_stack *prev, *next; /* neighbours on the check path */
	kc_sym *sym;                   /* symbol being checked */
	kc_prop *prop;                 /* property being checked */
	kc_expr **expr;                /* which expression of sym */
};

struct dep_check {
	kc_tree *t;              /* the tree */
	struct dep_stack *top;   /* innermost frame */
};

static kc_sym *check_deps(struct dep_check *c, kc_sym *sym);

static void dep_stack_insert(struct dep_check *c, struct dep_stack *stack,
			     kc_sym *sym)
{
	memset(stack, 0, sizeof(*stack));
	if (c->top)
		c->top->next = stack;
	stack->prev = c->top;
	stack->sym = sym;
	c->top = stack;
}

static void dep_stack_remove(struct dep_check *c)
{
	c->top = c->top->prev;
	if (c->top)
		c->top->next = NULL;
}

static kc_menu *sym_first_menu(kc_tree *t, kc_sym *sym)
{
	if (sym->nmenus)
		return sym->menus[0];
	for (kc_prop *p = sym->prop; p; p = p->next)
		if (p->menu)
			return p->menu;
	return NULL;
}

/* 6.11+ sym_check_print_recursive(): no file:line prefixes, a choice
 * member names the choice block's place.  glibc prints a NULL name as
 * "(null)". */
static void print_recursive_v2(kc_tree *t, struct dep_stack *stack,
			       kc_sym *last_sym, kf_strbuf *sb)
{
	for (; stack; stack = stack->next) {
		kc_sym *sym = stack->sym;
		kc_sym *next_sym = stack->next ? stack->next->sym : last_sym;
		enum kc_prop_type type = stack->prop ? stack->prop->type : P_UNKNOWN;
		const char *sn = sym->name ? sym->name : "<choice>";
		const char *raw_sn = sym->name ? sym->name : "(null)";
		const char *nn = next_sym->name ? next_sym->name : "(null)";

		if (stack->sym == last_sym)
			kf_strbuf_addstr(sb, "error: recursive dependency detected!\n");
		if (sym_is_choice(next_sym)) {
			kc_menu *choice = sym_first_menu(t, next_sym);
			kf_strbuf_addf(sb, "\tsymbol %s is part of choice block at %s:%d\n",
				       sn, choice ? choice->file : "", choice ? choice->lineno : 0);
		} else if (stack->expr == &sym->dir_dep.expr) {
			kf_strbuf_addf(sb, "\tsymbol %s depends on %s\n", sn, nn);
		} else if (stack->expr == &sym->rev_dep.expr) {
			kf_strbuf_addf(sb, "\tsymbol %s is selected by %s\n", raw_sn, nn);
		} else if (stack->expr == &sym->implied.expr) {
			kf_strbuf_addf(sb, "\tsymbol %s is implied by %s\n", raw_sn, nn);
		} else if (stack->expr) {
			kf_strbuf_addf(sb, "\tsymbol %s %s value contains %s\n", sn,
				       prop_get_type_name(type), nn);
		} else {
			kf_strbuf_addf(sb, "\tsymbol %s %s is visible depending on %s\n",
				       sn, prop_get_type_name(type), nn);
		}
	}
}

static void print_recursive(struct dep_check *c, kc_sym *last_sym)
{
	kc_tree *t = c->t;
	struct dep_stack *stack;
	kc_sym *sym, *next_sym;
	kc_menu *menu = NULL;
	kc_prop *prop;
	struct dep_stack cv_stack;
	kf_strbuf sb = KF_STRBUF_INIT;
	bool pushed = false;

	/* 6.11+ asks for the choice menu of the first prompt, which a
	 * member also prompted outside its choice does not have */
	kc_menu *lcm = t->sem == KC_SEM_V2 ? sym_get_choice_menu(t, last_sym) : NULL;
	if (t->sem == KC_SEM_V2 ? lcm != NULL : sym_is_choice_value(t, last_sym)) {
		dep_stack_insert(c, &cv_stack, last_sym);
		pushed = true;
		if (t->sem == KC_SEM_V2)
			last_sym = lcm->sym;
		else
			last_sym = prop_get_symbol(sym_get_choice_prop(last_sym));
	}
	for (stack = c->top; stack != NULL; stack = stack->prev)
		if (stack->sym == last_sym)
			break;
	if (!stack) {
		kf_diag_raw(t->diags, KF_ERROR, "unexpected recursive dependency error");
		goto out;
	}
	if (t->sem == KC_SEM_V2) {
		print_recursive_v2(t, stack, last_sym, &sb);
		goto done;
	}
	for (; stack; stack = stack->next) {
		sym = stack->sym;
		next_sym = stack->next ? stack->next->sym : last_sym;
		prop = stack->prop;
		if (prop == NULL)
			prop = stack->sym->prop;
		const char *file = prop ? prop->file : "";
		int line = prop ? prop->lineno : 0;
		if (sym_is_choice(sym) || sym_is_choice_value(t, sym)) {
			menu = sym_first_menu(t, sym);
			if (!stack->prop && menu) {
				file = menu->file;
				line = menu->lineno;
			}
		}
		if (!prop && sym->nmenus) {
			file = sym->menus[0]->file;
			line = sym->menus[0]->lineno;
		}
		if (stack->sym == last_sym)
			kf_strbuf_addf(&sb, "%s:%d:error: recursive dependency detected!\n",
				       file, line);
		const char *sn = sym->name ? sym->name : "<choice>";
		const char *nn = next_sym->name ? next_sym->name : "<choice>";
		if (sym_is_choice(sym)) {
			kf_strbuf_addf(&sb, "%s:%d:\tchoice %s contains symbol %s\n",
				       menu ? menu->file : file,
				       menu ? menu->lineno : line, sn, nn);
		} else if (sym_is_choice_value(t, sym)) {
			kf_strbuf_addf(&sb, "%s:%d:\tsymbol %s is part of choice %s\n",
				       menu ? menu->file : file,
				       menu ? menu->lineno : line, sn, nn);
		} else if (stack->expr == &sym->dir_dep.expr) {
			kf_strbuf_addf(&sb, "%s:%d:\tsymbol %s depends on %s\n",
				       file, line, sn, nn);
		} else if (stack->expr == &sym->rev_dep.expr) {
			kf_strbuf_addf(&sb, "%s:%d:\tsymbol %s is selected by %s\n",
				       file, line, sn, nn);
		} else if (stack->expr == &sym->implied.expr) {
			kf_strbuf_addf(&sb, "%s:%d:\tsymbol %s is implied by %s\n",
				       file, line, sn, nn);
		} else if (stack->expr) {
			kf_strbuf_addf(&sb, "%s:%d:\tsymbol %s %s value contains %s\n",
				       file, line, sn,
				       prop ? prop_get_type_name(prop->type) : "",
				       nn);
		} else {
			kf_strbuf_addf(&sb, "%s:%d:\tsymbol %s %s is visible depending on %s\n",
				       file, line, sn,
				       prop ? prop_get_type_name(prop->type) : "",
				       nn);
		}
	}
done:
	kf_strbuf_addstr(&sb,
			 "For a resolution refer to Documentation/kbuild/kconfig-language.rst\n"
			 "subsection \"Kconfig recursive dependency limitations\"\n");
	kf_diag_raw(t->diags, KF_ERROR, "%s", kf_strbuf_str(&sb));
out:
	kf_strbuf_release(&sb);
	if (pushed && c->top == &cv_stack)
		dep_stack_remove(c);
}

static kc_sym *check_expr_deps(struct dep_check *c, kc_expr *e)
{
	kc_sym *sym;

	if (!e)
		return NULL;
	switch (e->type) {
	case E_OR:
	case E_AND:
		sym = check_expr_deps(c, e->left.expr);
		if (sym)
			return sym;
		return check_expr_deps(c, e->right.expr);
	case E_NOT:
		return check_expr_deps(c, e->left.expr);
	case E_EQUAL:
	case E_GEQ:
	case E_GTH:
	case E_LEQ:
	case E_LTH:
	case E_UNEQUAL:
		sym = check_deps(c, e->left.sym);
		if (sym)
			return sym;
		return check_deps(c, e->right.sym);
	case E_SYMBOL:
		return check_deps(c, e->left.sym);
	default:
		break;
	}
	return NULL;
}

static kc_sym *check_sym_deps(struct dep_check *c, kc_sym *sym)
{
	kc_sym *sym2;
	kc_prop *prop;
	struct dep_stack stack;

	dep_stack_insert(c, &stack, sym);

	stack.expr = &sym->dir_dep.expr;
	sym2 = check_expr_deps(c, sym->dir_dep.expr);
	if (sym2)
		goto out;
	stack.expr = &sym->rev_dep.expr;
	sym2 = check_expr_deps(c, sym->rev_dep.expr);
	if (sym2)
		goto out;
	stack.expr = &sym->implied.expr;
	sym2 = check_expr_deps(c, sym->implied.expr);
	if (sym2)
		goto out;
	stack.expr = NULL;

	for (prop = sym->prop; prop; prop = prop->next) {
		if (prop->type == P_CHOICE || prop->type == P_SELECT ||
		    prop->type == P_IMPLY)
			continue;
		stack.prop = prop;
		sym2 = check_expr_deps(c, prop->visible.expr);
		if (sym2)
			break;
		if (prop->type != P_DEFAULT || sym_is_choice(sym))
			continue;
		stack.expr = &prop->expr;
		sym2 = check_expr_deps(c, prop->expr);
		if (sym2)
			break;
		stack.expr = NULL;
	}
out:
	dep_stack_remove(c);
	return sym2;
}

static void choice_members(kc_tree *t, kc_sym *choice, kc_sym ***v, size_t *n)
{
	*v = NULL;
	*n = 0;
	size_t a = 0;
	if (t->sem == KC_SEM_V2) {
		kc_menu *cm = choice->nmenus ? choice->menus[0] : NULL;
		if (!cm)
			return;
		for (kc_menu *m = menu_next(cm, cm); m; m = menu_next(m, cm))
			if (m->sym) {
				KF_GROW(*v, *n + 1, a);
				(*v)[(*n)++] = m->sym;
			}
		return;
	}
	kc_prop *prop = sym_get_choice_prop(choice);
	kc_sym *sym;
	for (kc_expr *e = prop ? prop->expr : NULL; e && (sym = e->right.sym);
	     e = e->left.expr) {
		KF_GROW(*v, *n + 1, a);
		(*v)[(*n)++] = sym;
	}
}

static kc_sym *check_choice_deps(struct dep_check *c, kc_sym *choice)
{
	kc_tree *t = c->t;
	kc_sym *sym2 = NULL;
	struct dep_stack stack;
	kc_sym **mem;
	size_t n;

	dep_stack_insert(c, &stack, choice);
	choice_members(t, choice, &mem, &n);
	for (size_t i = 0; i < n; i++)
		mem[i]->flags |= (SYMBOL_CHECK | SYMBOL_CHECKED);
	choice->flags |= (SYMBOL_CHECK | SYMBOL_CHECKED);
	sym2 = check_sym_deps(c, choice);
	choice->flags &= ~SYMBOL_CHECK;
	if (sym2)
		goto out;
	for (size_t i = 0; i < n; i++) {
		sym2 = check_sym_deps(c, mem[i]);
		if (sym2)
			break;
	}
out:
	for (size_t i = 0; i < n; i++)
		mem[i]->flags &= ~SYMBOL_CHECK;
	free(mem);
	if (sym2 && t->sem == KC_SEM_V2) {
		kc_menu *cm2 = sym_get_choice_menu(t, sym2);
		if (cm2 && cm2->sym == choice)
			sym2 = choice;
	} else if (sym2 && sym_is_choice_value(t, sym2)) {
		if (prop_get_symbol(sym_get_choice_prop(sym2)) == choice)
			sym2 = choice;
	}
	dep_stack_remove(c);
	return sym2;
}

static kc_sym *check_deps_one(struct dep_check *c, kc_sym *sym)
{
	kc_tree *t = c->t;
	kc_sym *sym2;

	/* 6.11+ asks for the choice menu of the symbol's first prompt,
	 * which a member prompted outside its choice does not have */
	kc_menu *cm = t->sem == KC_SEM_V2 ? sym_get_choice_menu(t, sym) : NULL;
	if (t->sem == KC_SEM_V2 ? cm != NULL : sym_is_choice_value_v1(sym)) {
		struct dep_stack stack;
		dep_stack_insert(c, &stack, sym);
		kc_sym *cs = t->sem == KC_SEM_V2
				     ? cm->sym
				     : prop_get_symbol(sym_get_choice_prop(sym));
		sym2 = check_deps(c, cs);
		dep_stack_remove(c);
	} else if (sym_is_choice(sym)) {
		sym2 = check_choice_deps(c, sym);
	} else {
		sym->flags |= (SYMBOL_CHECK | SYMBOL_CHECKED);
		sym2 = check_sym_deps(c, sym);
		sym->flags &= ~SYMBOL_CHECK;
	}
	return sym2;
}

struct deps_step {
	struct dep_check *c; /* the check */
	kc_sym *sym;         /* the symbol to check */
	kc_sym *ret;         /* check_deps_one()'s answer */
};

static void deps_step_run(void *arg)
{
	struct deps_step *s = arg;
	s->ret = check_deps_one(s->c, s->sym);
}

static kc_sym *check_deps(struct dep_check *c, kc_sym *sym)
{
	if (sym->flags & SYMBOL_CHECK) {
		print_recursive(c, sym);
		return sym;
	}
	if (sym->flags & SYMBOL_CHECKED)
		return NULL;
	struct deps_step s = {c, sym, NULL};
	if (!kc_stack_call(c->t, deps_step_run, &s)) {
		kc_too_deep(c->t, sym);
		return sym;
	}
	return s.ret;
}

kc_sym *sym_check_deps(kc_tree *t, kc_sym *sym)
{
	struct dep_check c = {t, NULL};
	return check_deps(&c, sym);
}
