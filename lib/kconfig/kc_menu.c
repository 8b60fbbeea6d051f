/*
 * kc_menu.c - the menu tree: building it while parsing, and finalizing it
 * as the kernel does (dependency propagation into properties, select and
 * imply reverse dependencies, automatic submenus below symbols, flattening
 * of 'if' blocks, choice setup for the V1 and V2 models).
 */
#include "kc_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

static void vwarn_at(kc_tree *t, const char *file, int line, const char *fmt,
		     va_list ap)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addf(&sb, "%s:%d:warning: ", file, line);
	kf_strbuf_vaddf(&sb, fmt, ap);
	kf_diag_raw(t->diags, KF_WARNING, "%s", kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
}

void menu_warn(kc_tree *t, kc_menu *menu, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn_at(t, menu->file, menu->lineno, fmt, ap);
	va_end(ap);
}

void prop_warn(kc_tree *t, kc_prop *prop, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn_at(t, prop->file, prop->lineno, fmt, ap);
	va_end(ap);
}

void menu_init(kc_tree *t)
{
	t->current_entry = t->current_menu = &t->rootmenu;
	t->last_entry_ptr = &t->rootmenu.list;
}

static kc_prop *menu_add_prop(kc_tree *t, enum kc_prop_type type, kc_expr *expr,
			      kc_expr *dep, const char *file, int lineno)
{
	kc_prop *prop = kf_arena_alloc(t->arena, sizeof(*prop));
	prop->type = type;
	prop->file = file;
	prop->lineno = lineno;
	prop->menu = t->current_entry;
	prop->expr = expr;
	prop->visible.expr = dep;
	if (t->current_entry->sym) {
		kc_prop **propp;
		for (propp = &t->current_entry->sym->prop; *propp;
		     propp = &(*propp)->next)
			;
		*propp = prop;
	}
	return prop;
}

void menu_add_entry(kc_tree *t, kc_sym *sym, const char *file, int lineno)
{
	kc_menu *menu = kf_arena_alloc(t->arena, sizeof(*menu));
	menu->sym = sym;
	menu->parent = t->current_menu;
	menu->file = file;
	menu->lineno = lineno;
	*t->last_entry_ptr = menu;
	t->last_entry_ptr = &menu->next;
	t->current_entry = menu;
	if (sym) {
		/* both models keep the list of a symbol's menus; V1 also
		 * records them as P_SYMBOL properties, as the kernel did */
		if (sym->nmenus + 1 > sym->amenus) {
			size_t na = sym->amenus ? sym->amenus * 2 : 2;
			kc_menu **nm = kf_arena_alloc(t->arena, na * sizeof(*nm));
			if (sym->nmenus)
				memcpy(nm, sym->menus, sym->nmenus * sizeof(*nm));
			sym->menus = nm;
			sym->amenus = na;
		}
		sym->menus[sym->nmenus++] = menu;
		if (t->sem == KC_SEM_V1)
			menu_add_prop(t, P_SYMBOL, expr_alloc_symbol(t, sym), NULL,
				      file, lineno);
	}
}

kc_menu *menu_add_menu(kc_tree *t)
{
	t->last_entry_ptr = &t->current_entry->list;
	t->current_menu = t->current_entry;
	return t->current_menu;
}

void menu_end_menu(kc_tree *t)
{
	t->last_entry_ptr = &t->current_menu->next;
	t->current_menu = t->current_menu->parent;
}

/* 'm' -> 'm' && MODULES */
static kc_expr *rewrite_m(kc_tree *t, kc_expr *e)
{
	if (!e)
		return e;
	switch (e->type) {
	case E_NOT:
		e->left.expr = rewrite_m(t, e->left.expr);
		break;
	case E_OR:
	case E_AND:
		e->left.expr = rewrite_m(t, e->left.expr);
		e->right.expr = rewrite_m(t, e->right.expr);
		break;
	case E_SYMBOL:
		if (e->left.sym == &t->sym_mod)
			return expr_alloc_and(t, e,
					      expr_alloc_symbol(t, t->modules_sym));
		break;
	default:
		break;
	}
	return e;
}

void menu_add_dep(kc_tree *t, kc_expr *dep, kc_expr *cond)
{
	/* 7.x "depends on X if Y": Y != n needs X, Y == n needs nothing,
	 * so X || (Y == n) */
	if (cond)
		dep = expr_alloc_or(t, dep,
				    expr_trans_compare(t, cond, E_EQUAL,
						       &t->sym_no));
	t->current_entry->dep = expr_alloc_and(t, t->current_entry->dep, dep);
}

void menu_set_type(kc_tree *t, int type)
{
	kc_sym *sym = t->current_entry->sym;

	if ((int)sym->type == type)
		return;
	if (sym->type == S_UNKNOWN) {
		sym->type = type;
		return;
	}
	menu_warn(t, t->current_entry,
		  "ignoring type redefinition of '%s' from '%s' to '%s'",
		  sym->name ? sym->name : "<choice>", sym_type_name(sym->type),
		  sym_type_name(type));
}

kc_prop *menu_add_prompt(kc_tree *t, enum kc_prop_type type, const char *prompt,
			 kc_expr *dep, const char *file, int lineno)
{
	kc_prop *prop = menu_add_prop(t, type, NULL, dep, file, lineno);

	if (isspace((unsigned char)*prompt)) {
		prop_warn(t, prop, "leading whitespace ignored");
		while (isspace((unsigned char)*prompt))
			prompt++;
	}
	if (t->current_entry->prompt)
		prop_warn(t, prop, "prompt redefined");

	if (type == P_PROMPT) {
		kc_menu *menu = t->current_entry;
		while ((menu = menu->parent) != NULL) {
			if (!menu->visibility)
				continue;
			prop->visible.expr = expr_alloc_and(
				t, prop->visible.expr,
				expr_copy(t, menu->visibility));
		}
	}
	t->current_entry->prompt = prop;
	prop->text = prompt;
	return prop;
}

void menu_add_visibility(kc_tree *t, kc_expr *expr)
{
	t->current_entry->visibility =
		expr_alloc_and(t, t->current_entry->visibility, expr);
}

void menu_add_expr(kc_tree *t, enum kc_prop_type type, kc_expr *expr,
		   kc_expr *dep, const char *file, int lineno)
{
	menu_add_prop(t, type, expr, dep, file, lineno);
}

void menu_add_symbol(kc_tree *t, enum kc_prop_type type, kc_sym *sym,
		     kc_expr *dep, const char *file, int lineno)
{
	menu_add_prop(t, type, expr_alloc_symbol(t, sym), dep, file, lineno);
}

static int menu_validate_number(kc_sym *sym, kc_sym *sym2)
{
	return sym2->type == S_INT || sym2->type == S_HEX ||
	       (sym2->type == S_UNKNOWN && sym_string_valid(sym, sym2->name));
}

static void sym_check_prop(kc_tree *t, kc_sym *sym)
{
	kc_prop *prop;
	kc_sym *sym2;
	const char *use;

	for (prop = sym->prop; prop; prop = prop->next) {
		switch (prop->type) {
		case P_DEFAULT:
			if ((sym->type == S_STRING || sym->type == S_INT ||
			     sym->type == S_HEX) &&
			    prop->expr->type != E_SYMBOL)
				prop_warn(t, prop,
					  "default for config symbol '%s' must be a single symbol",
					  sym->name);
			if (prop->expr->type != E_SYMBOL)
				break;
			sym2 = prop_get_symbol(prop);
			if (sym->type == S_HEX || sym->type == S_INT) {
				if (!menu_validate_number(sym, sym2))
					prop_warn(t, prop, "'%s': number is invalid",
						  sym->name);
			}
			if (sym_is_choice(sym)) {
				kc_sym *cs = NULL;
				if (t->sem == KC_SEM_V2) {
					kc_menu *cm = sym_get_choice_menu(t, sym2);
					cs = cm ? cm->sym : NULL;
				} else {
					kc_prop *cp = sym_get_choice_prop(sym2);
					cs = cp ? prop_get_symbol(cp) : NULL;
				}
				if (cs != sym)
					prop_warn(t, prop,
						  "choice default symbol '%s' is not contained in the choice",
						  sym2->name);
			}
			break;
		case P_SELECT:
		case P_IMPLY:
			use = prop->type == P_SELECT ? "select" : "imply";
			sym2 = prop_get_symbol(prop);
			if (sym->type != S_BOOLEAN && sym->type != S_TRISTATE)
				prop_warn(t, prop,
					  "config symbol '%s' uses %s, but is not bool or tristate",
					  sym->name, use);
			else if (sym2->type != S_UNKNOWN && sym2->type != S_BOOLEAN &&
				 sym2->type != S_TRISTATE)
				prop_warn(t, prop,
					  "'%s' has wrong type. '%s' only accept arguments of bool and tristate type",
					  sym2->name, use);
			break;
		case P_RANGE:
			if (sym->type != S_INT && sym->type != S_HEX)
				prop_warn(t, prop,
					  "range is only allowed for int or hex symbols");
			if (!menu_validate_number(sym, prop->expr->left.sym) ||
			    !menu_validate_number(sym, prop->expr->right.sym))
				prop_warn(t, prop, "range is invalid");
			break;
		default:
			break;
		}
	}
}

static void finalize(kc_tree *t, kc_menu *parent, bool inside_choice);

struct finalize_step {
	kc_tree *t;         /* the tree */
	kc_menu *menu;      /* the entry to finalize */
	bool inside_choice; /* it is in a choice */
};

static void finalize_step_run(void *arg)
{
	struct finalize_step *s = arg;
	finalize(s->t, s->menu, s->inside_choice);
}

/* finalize() one level down: a chain of "depends on" makes each entry a
 * submenu of the one before, as deep as the chain is long. */
static void finalize_child(kc_tree *t, kc_menu *menu, bool inside_choice)
{
	struct finalize_step s = {t, menu, inside_choice};
	if (!kc_stack_call(t, finalize_step_run, &s))
		kc_too_deep_at(t, menu->file, menu->lineno,
			       menu->sym && menu->sym->name ? menu->sym->name : "a menu");
}

static void finalize(kc_tree *t, kc_menu *parent, bool inside_choice)
{
	kc_menu *menu, *last_menu;
	kc_sym *sym;
	kc_prop *prop;
	kc_expr *parentdep, *basedep, *dep, *dep2, **ep;
	bool v1 = t->sem == KC_SEM_V1;

	sym = parent->sym;
	if (parent->list) {
		if (v1 && sym && sym_is_choice(sym)) {
			if (sym->type == S_UNKNOWN) {
				t->current_entry = parent;
				for (menu = parent->list; menu; menu = menu->next) {
					if (menu->sym && menu->sym->type != S_UNKNOWN) {
						menu_set_type(t, menu->sym->type);
						break;
					}
				}
			}
			for (menu = parent->list; menu; menu = menu->next) {
				t->current_entry = menu;
				if (menu->sym && menu->sym->type == S_UNKNOWN)
					menu_set_type(t, sym->type);
			}
			parentdep = expr_alloc_symbol(t, sym);
		} else {
			parentdep = parent->dep;
		}

		for (menu = parent->list; menu; menu = menu->next) {
			basedep = rewrite_m(t, menu->dep);
			basedep = expr_transform(t, basedep);
			basedep = expr_alloc_and(t, expr_copy(t, parentdep), basedep);
			basedep = expr_eliminate_dups(t, basedep);
			menu->dep = basedep;

			if (menu->sym)
				prop = menu->sym->prop;
			else
				prop = menu->prompt;

			for (; prop; prop = prop->next) {
				if (prop->menu != menu)
					continue;
				dep = rewrite_m(t, prop->visible.expr);
				dep = expr_transform(t, dep);
				dep = expr_alloc_and(t, expr_copy(t, basedep), dep);
				dep = expr_eliminate_dups(t, dep);
				prop->visible.expr = dep;

				if (prop->type == P_SELECT) {
					kc_sym *es = prop_get_symbol(prop);
					es->rev_dep.expr = expr_alloc_or(
						t, es->rev_dep.expr,
						expr_alloc_and(t,
							       expr_alloc_symbol(t, menu->sym),
							       expr_copy(t, dep)));
				} else if (prop->type == P_IMPLY) {
					kc_sym *es = prop_get_symbol(prop);
					es->implied.expr = expr_alloc_or(
						t, es->implied.expr,
						expr_alloc_and(t,
							       expr_alloc_symbol(t, menu->sym),
							       expr_copy(t, dep)));
				}
			}
		}
		for (menu = parent->list; menu; menu = menu->next)
			finalize_child(t, menu, sym && sym_is_choice(sym));
	} else if ((v1 || !inside_choice) && sym) {
		basedep = parent->prompt ? parent->prompt->visible.expr : NULL;
		basedep = expr_trans_compare(t, basedep, E_UNEQUAL, &t->sym_no);
		basedep = expr_eliminate_dups(t, expr_transform(t, basedep));

		last_menu = NULL;
		for (menu = parent->next; menu; menu = menu->next) {
			dep = menu->prompt ? menu->prompt->visible.expr : menu->dep;
			if (!expr_contains_symbol(dep, sym))
				break;
			if (expr_depends_symbol(t, dep, sym))
				goto next;
			/* 7.x: a negative dependency ends the submenu */
			if (t->has_neg_submenu &&
			    expr_contains_symbol_negated(t, dep, sym))
				break;
			dep = expr_trans_compare(t, dep, E_UNEQUAL, &t->sym_no);
			dep = expr_eliminate_dups(t, expr_transform(t, dep));
			dep2 = expr_copy(t, basedep);
			expr_eliminate_eq(t, &dep, &dep2);
			expr_free(t, dep);
			if (!expr_is_yes(t, dep2)) {
				expr_free(t, dep2);
				break;
			}
			expr_free(t, dep2);
next:
			finalize_child(t, menu, false);
			menu->parent = parent;
			last_menu = menu;
		}
		expr_free(t, basedep);
		if (last_menu) {
			parent->list = parent->next;
			parent->next = last_menu->next;
			last_menu->next = NULL;
		}
		sym->dir_dep.expr = expr_alloc_or(t, sym->dir_dep.expr, parent->dep);
	}
	for (menu = parent->list; menu; menu = menu->next) {
		if (v1 && sym && sym_is_choice(sym) && menu->sym &&
		    !sym_is_choice_value_v1(menu->sym)) {
			t->current_entry = menu;
			menu->sym->flags |= SYMBOL_CHOICEVAL;
			if (!menu->prompt)
				menu_warn(t, menu, "choice value must have a prompt");
			for (prop = menu->sym->prop; prop; prop = prop->next) {
				if (prop->type == P_DEFAULT)
					prop_warn(t, prop,
						  "defaults for choice values not supported");
				if (prop->menu == menu)
					continue;
				if (prop->type == P_PROMPT &&
				    prop->menu->parent->sym != sym)
					prop_warn(t, prop,
						  "choice value used outside its choice group");
			}
			if (sym->type == S_TRISTATE && menu->sym->type != S_TRISTATE) {
				basedep = expr_alloc_comp(t, E_EQUAL, sym, &t->sym_yes);
				menu->dep = expr_alloc_and(t, basedep, menu->dep);
				for (prop = menu->sym->prop; prop; prop = prop->next) {
					if (prop->menu != menu)
						continue;
					prop->visible.expr = expr_alloc_and(
						t, expr_copy(t, basedep),
						prop->visible.expr);
				}
			}
			menu_add_symbol(t, P_CHOICE, sym, NULL, menu->file,
					menu->lineno);
			prop = sym_get_choice_prop(sym);
			for (ep = &prop->expr; *ep; ep = &(*ep)->left.expr)
				;
			*ep = expr_alloc_one(t, E_LIST, NULL);
			(*ep)->right.sym = menu->sym;
		}

		if (menu->list && (!menu->prompt || !menu->prompt->text)) {
			for (last_menu = menu->list;; last_menu = last_menu->next) {
				last_menu->parent = parent;
				if (!last_menu->next)
					break;
			}
			last_menu->next = menu->next;
			menu->next = menu->list;
			menu->list = NULL;
		}
	}

	if (sym && !(sym->flags & SYMBOL_WARNED)) {
		if (sym->type == S_UNKNOWN)
			menu_warn(t, parent, "config symbol defined without type");
		if (v1 && sym_is_choice(sym) && !parent->prompt)
			menu_warn(t, parent, "choice must have a prompt");
		sym_check_prop(t, sym);
		sym->flags |= SYMBOL_WARNED;
	}

	if (v1 && sym && !sym_is_optional(sym) && parent->prompt) {
		sym->rev_dep.expr = expr_alloc_or(
			t, sym->rev_dep.expr,
			expr_alloc_and(t, parent->prompt->visible.expr,
				       expr_alloc_symbol(t, &t->sym_mod)));
	}
}

void menu_finalize(kc_tree *t)
{
	finalize(t, &t->rootmenu, false);
}

kc_menu *menu_next(kc_menu *menu, kc_menu *root)
{
	if (menu->list)
		return menu->list;
	while (menu != root && !menu->next)
		menu = menu->parent;
	if (menu == root)
		return NULL;
	return menu->next;
}

bool menu_is_visible(kc_tree *t, kc_menu *menu)
{
	kc_menu *child;
	kc_sym *sym;
	kc_tri visible;

	if (!menu->prompt)
		return false;
	if (menu->visibility) {
		if (expr_calc_value(t, menu->visibility) == KC_NO)
			return false;
	}
	sym = menu->sym;
	if (sym) {
		sym_calc_value(t, sym);
		visible = menu->prompt->visible.tri;
	} else
		visible = menu->prompt->visible.tri =
			expr_calc_value(t, menu->prompt->visible.expr);

	if (visible != KC_NO)
		return true;
	if (!sym || sym_get_tristate_value(menu->sym) == KC_NO)
		return false;
	for (child = menu->list; child; child = child->next) {
		if (menu_is_visible(t, child)) {
			if (sym && t->sem == KC_SEM_V1)
				sym->flags |= SYMBOL_DEF_USER;
			return true;
		}
	}
	return false;
}

const char *menu_get_prompt(kc_menu *menu)
{
	if (menu->prompt)
		return menu->prompt->text;
	else if (menu->sym)
		return menu->sym->name;
	return NULL;
}
