/*
 * explain.c - why a symbol has its value in a tree's current
 * configuration: what set it (an answer, a select, an imply, a default
 * and its condition) and what it would take to change it.  `kfit why`
 * and `kfit diff -k` print these; the resolver's own explanations of
 * its changes are in solve.c.
 */
#include "kfit/explain.h"

#include "kc_internal.h"

#include <stdlib.h>
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
	} else if (t->sem == KC_SEM_V2 && sym_get_choice_menu(t, s) &&
		   s->curr.tri != KC_NO) {
		/* an unanswered choice: its default, or else its first
		 * visible member */
		kc_menu *cm = sym_get_choice_menu(t, s);
		kc_sym *ds = sym_choice_default_v2(t, cm);
		const char *prompt = cm->prompt ? cm->prompt->text : NULL;
		kf_strbuf_addf(out, "%s of the choice%s%s%s (%s:%d)",
			       ds == s ? "the default" : "the first visible member",
			       prompt ? " \"" : "", prompt ? prompt : "", prompt ? "\"" : "",
			       cm->file, cm->lineno);
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


/* ---- which requirement each change of a generation serves ---- */

/* Symbols an expression reads, in order, appended to a list. */
struct sym_list {
	kc_sym **v;
	size_t n, alloc;
};

static void sym_list_add(kc_sym *s, void *ctx)
{
	struct sym_list *l = ctx;
	KF_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = s;
}

static void expr_syms(kc_expr *e, kc_sym ***v, size_t *n, size_t *alloc)
{
	struct sym_list l = {*v, *n, *alloc};
	kc_expr_for_each_sym(e, sym_list_add, &l);
	*v = l.v;
	*n = l.n;
	*alloc = l.alloc;
}

void kf_explain_owners(kc_tree *t, const kf_gen_result *res, const prof_req **owner)
{
	size_t n = res->nchanges;
	kc_sym **sym = kf_xcalloc(n ? n : 1, sizeof(*sym));
	for (size_t i = 0; i < n; i++) {
		owner[i] = res->changes[i].req;
		sym[i] = kc_sym_find(t, res->changes[i].sym);
	}
	/* the change of a symbol, by symbol: a linear scan is enough for the
	 * few hundred changes of a generation */
	kc_sym **cand = NULL;
	size_t ncand = 0, acand = 0;
	for (bool progress = true; progress;) {
		progress = false;
		for (size_t i = 0; i < n; i++) {
			kc_sym *s = sym[i];
			if (owner[i] || !s)
				continue;
			/* what it follows from, most direct first: an active
			 * select, an imply, a default and its condition, the
			 * dependencies that made it (in)visible */
			ncand = 0;
			if (s->rev_dep.tri != KC_NO)
				expr_syms(s->rev_dep.expr, &cand, &ncand, &acand);
			expr_syms(s->implied.expr, &cand, &ncand, &acand);
			kc_prop *p;
			for_all_defaults(s, p)
			{
				expr_syms(p->expr, &cand, &ncand, &acand);
				expr_syms(p->visible.expr, &cand, &ncand, &acand);
			}
			expr_syms(s->dir_dep.expr, &cand, &ncand, &acand);
			/* a choice member follows from what its choice
			 * depends on (the choice itself has no name) */
			for (size_t c = 0, lim = ncand; c < lim; c++)
				if (!cand[c]->name) {
					kc_sym *cs = cand[c];
					expr_syms(cs->dir_dep.expr, &cand, &ncand, &acand);
					for_all_prompts(cs, p)
						expr_syms(p->visible.expr, &cand, &ncand, &acand);
				}
			for (size_t c = 0; c < ncand && !owner[i]; c++)
				for (size_t k = 0; k < n; k++)
					if (k != i && sym[k] == cand[c] && owner[k]) {
						owner[i] = owner[k];
						progress = true;
						break;
					}
		}
	}
	free(cand);
	free(sym);
}
