/*
 * explain.c - why a symbol has its value in a tree's current
 * configuration: what set it (an answer, a select, an imply, a default
 * and its condition) and what it would take to change it.  `kfit why`
 * and `kfit diff -k` print these; the resolver's own explanations of
 * its changes are in solve.c.
 */
#include "kfit/explain.h"

#include "kc_internal.h"

#include <string.h>

static const char *tri_name(kc_tri v)
{
	return v == KC_YES ? "y" : v == KC_MOD ? "m" : "n";
}

static const char *symname(kc_sym *s)
{
	return s->name ? s->name : "<choice>";
}

/* Symbols whose `select` holds for s right now, as "A, B". */
static void selectors(kc_tree *t, kc_expr *e, kf_strbuf *out)
{
	if (!e)
		return;
	if (e->type == E_OR) {
		selectors(t, e->left.expr, out);
		selectors(t, e->right.expr, out);
		return;
	}
	if (expr_calc_value(t, e) == KC_NO)
		return;
	kc_expr *x = e;
	while (x->type == E_AND)
		x = x->left.expr;
	if (out->len)
		kf_strbuf_addstr(out, ", ");
	if (x->type == E_SYMBOL)
		kf_strbuf_addstr(out, symname(x->left.sym));
	else
		expr_print_plain(e, out);
}

void kf_why_line(kc_tree *t, kc_sym *s, kf_strbuf *out)
{
	kf_strbuf sel = KF_STRBUF_INIT;
	sym_calc_value(t, s);
	if (s->rev_dep.tri != KC_NO)
		selectors(t, s->rev_dep.expr, &sel);
	if (sel.len) {
		kf_strbuf_addf(out, "selected by %s", sel.buf);
	} else if (s->visible != KC_NO && sym_has_value(s)) {
		kf_strbuf_addf(out, "answered %s in the configuration",
			       sym_get_string_value(t, s));
	} else if (s->implied.tri != KC_NO) {
		kf_strbuf sb = KF_STRBUF_INIT;
		selectors(t, s->implied.expr, &sb);
		kf_strbuf_addf(out, "implied by %s", kf_strbuf_str(&sb));
		kf_strbuf_release(&sb);
	} else {
		kc_prop *p;
		bool found = false;
		for_all_defaults(s, p)
		{
			if (expr_calc_value(t, p->visible.expr) == KC_NO)
				continue;
			kf_strbuf_addstr(out, "default ");
			expr_print_plain(p->expr, out);
			if (p->visible.expr && !expr_is_yes(t, p->visible.expr)) {
				kf_strbuf_addstr(out, " if ");
				expr_print_plain(p->visible.expr, out);
			}
			kf_strbuf_addf(out, " (%s:%d)", p->file, p->lineno);
			found = true;
			break;
		}
		bool prompt = false;
		for_all_prompts(s, p) prompt = true;
		if (!found)
			kf_strbuf_addstr(out, !prompt ? "it has no prompt and nothing selects it"
					 : s->visible == KC_NO
						 ? "not visible: its dependencies are not met"
						 : "no default applies");
	}
	kf_strbuf_release(&sel);
}

int kf_why(kc_tree *t, const char *name, kf_strbuf *out)
{
	kc_sym *s = sym_find(t, name);
	if (!s || (s->flags & SYMBOL_CONST) || s->type == S_UNKNOWN)
		return -1;
	sym_calc_value(t, s);
	const char *v = kf_sym_shown(t, s);
	kf_strbuf_addf(out, "CONFIG_%s=%s", name, v ? v : "(absent)");
	if (s->type == S_STRING && v)
		kf_strbuf_addf(out, " (string \"%s\")", v);
	kf_strbuf_addch(out, '\n');
	for (size_t i = 0; i < s->nmenus; i++)
		kf_strbuf_addf(out, "  defined at %s:%d\n", s->menus[i]->file,
			       s->menus[i]->lineno);
	kf_strbuf_addf(out, "  type %s, visible %s", sym_type_name(s->type),
		       tri_name(s->visible));
	if (s->rev_dep.tri != KC_NO)
		kf_strbuf_addf(out, ", selected to at least %s", tri_name(s->rev_dep.tri));
	kf_strbuf_addstr(out, "\n  why: ");
	kf_why_line(t, s, out);
	kf_strbuf_addch(out, '\n');
	if (s->dir_dep.expr && !expr_is_yes(t, s->dir_dep.expr)) {
		kf_strbuf_addstr(out, "  depends on: ");
		expr_gstr_print(t, s->dir_dep.expr, out);
		kf_strbuf_addch(out, '\n');
	}
	kf_strbuf_addstr(out, "  to change it: ");
	if (s->rev_dep.tri != KC_NO) {
		kf_strbuf sel = KF_STRBUF_INIT;
		selectors(t, s->rev_dep.expr, &sel);
		kf_strbuf_addf(out, "turn off %s (%s it)", sel.buf,
			       strchr(sel.buf, ',') ? "they select" : "it selects");
		kf_strbuf_release(&sel);
	} else if (s->visible != KC_NO) {
		kf_strbuf_addstr(out, "answer it in the configuration (it is visible)");
	} else {
		kc_prop *p;
		bool any = false;
		for_all_prompts(s, p)
		{
			kf_strbuf_addstr(out, any ? "; or make " : "make ");
			expr_gstr_print(t, p->visible.expr, out);
			kf_strbuf_addstr(out, " true, then answer it");
			any = true;
		}
		if (!any)
			kf_strbuf_addstr(out, "it has no prompt: change what its default depends on, or select it");
	}
	kf_strbuf_addch(out, '\n');
	return 0;
}

int kf_why_short(kc_tree *t, const char *name, kf_strbuf *why, const char **menu)
{
	kc_sym *s = sym_find(t, name);
	*menu = NULL;
	if (!s || (s->flags & SYMBOL_CONST) || s->type == S_UNKNOWN)
		return -1;
	kf_why_line(t, s, why);
	/* the nearest enclosing menu with a title */
	for (kc_menu *m = s->nmenus ? s->menus[0]->parent : NULL; m;
	     m = m->parent)
		if (!m->sym && m->prompt && m->prompt->type == P_MENU) {
			*menu = m->prompt->text;
			break;
		}
	return 0;
}

