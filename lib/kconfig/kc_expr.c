/*
 * kc_expr.c - Kconfig expressions: construction, the simplifications the
 * kernel applies while finalizing menus (they decide the shape of the menu
 * tree and the text of dependency warnings, so they are reproduced
 * operation for operation), evaluation and printing.
 *
 * Expressions live in the tree's arena; "freeing" is a no-op.
 */
#include "kc_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static kc_expr *expr_eliminate_yn(kc_tree *t, kc_expr *e);

static kc_expr *expr_new(kc_tree *t)
{
	kc_expr *e = t->expr_free;
	if (e) {
		t->expr_free = e->left.expr;
		memset(e, 0, sizeof(*e));
		return e;
	}
	return kf_arena_alloc(t->arena, sizeof(kc_expr));
}

/* Recycle one node (not its children), as the kernel's free(). */
static void expr_free1(kc_tree *t, kc_expr *e)
{
	e->type = E_NONE;
	e->left.expr = t->expr_free;
	t->expr_free = e;
}

void expr_free(kc_tree *t, kc_expr *e)
{
	if (!e)
		return;
	switch (e->type) {
	case E_NOT:
		expr_free(t, e->left.expr);
		break;
	case E_AND:
	case E_OR:
	case E_LIST:
		expr_free(t, e->left.expr);
		expr_free(t, e->right.expr);
		break;
	default:
		break;
	}
	e->type = E_NONE;
	e->left.expr = t->expr_free;
	t->expr_free = e;
}

kc_expr *expr_alloc_symbol(kc_tree *t, kc_sym *sym)
{
	kc_expr *e = expr_new(t);
	e->type = E_SYMBOL;
	e->left.sym = sym;
	return e;
}

kc_expr *expr_alloc_one(kc_tree *t, enum kc_expr_type type, kc_expr *ce)
{
	kc_expr *e = expr_new(t);
	e->type = type;
	e->left.expr = ce;
	return e;
}

kc_expr *expr_alloc_two(kc_tree *t, enum kc_expr_type type, kc_expr *e1,
			kc_expr *e2)
{
	kc_expr *e = expr_new(t);
	e->type = type;
	e->left.expr = e1;
	e->right.expr = e2;
	return e;
}

kc_expr *expr_alloc_comp(kc_tree *t, enum kc_expr_type type, kc_sym *s1,
			 kc_sym *s2)
{
	kc_expr *e = expr_new(t);
	e->type = type;
	e->left.sym = s1;
	e->right.sym = s2;
	return e;
}

kc_expr *expr_alloc_and(kc_tree *t, kc_expr *e1, kc_expr *e2)
{
	if (!e1)
		return e2;
	return e2 ? expr_alloc_two(t, E_AND, e1, e2) : e1;
}

kc_expr *expr_alloc_or(kc_tree *t, kc_expr *e1, kc_expr *e2)
{
	if (!e1)
		return e2;
	return e2 ? expr_alloc_two(t, E_OR, e1, e2) : e1;
}

kc_expr *expr_copy(kc_tree *t, const kc_expr *org)
{
	if (!org)
		return NULL;
	kc_expr *e = expr_new(t);
	*e = *org;
	switch (org->type) {
	case E_NOT:
		e->left.expr = expr_copy(t, org->left.expr);
		break;
	case E_AND:
	case E_OR:
	case E_LIST:
		e->left.expr = expr_copy(t, org->left.expr);
		e->right.expr = expr_copy(t, org->right.expr);
		break;
	default:
		break;
	}
	return e;
}

/* The kernel's trans_count: how many simplifications a pass made. */
#define trans_count (t->trans_count)

static void __expr_eliminate_eq(kc_tree *t, enum kc_expr_type type,
				kc_expr **ep1, kc_expr **ep2)
{
#define e1 (*ep1)
#define e2 (*ep2)
	if (e1->type == type) {
		__expr_eliminate_eq(t, type, &e1->left.expr, &e2);
		__expr_eliminate_eq(t, type, &e1->right.expr, &e2);
		return;
	}
	if (e2->type == type) {
		__expr_eliminate_eq(t, type, &e1, &e2->left.expr);
		__expr_eliminate_eq(t, type, &e1, &e2->right.expr);
		return;
	}
	if (e1->type == E_SYMBOL && e2->type == E_SYMBOL &&
	    e1->left.sym == e2->left.sym &&
	    (e1->left.sym == &t->sym_yes || e1->left.sym == &t->sym_no))
		return;
	if (!expr_eq(t, e1, e2))
		return;
	trans_count++;
	expr_free(t, e1);
	expr_free(t, e2);
	switch (type) {
	case E_OR:
		e1 = expr_alloc_symbol(t, &t->sym_no);
		e2 = expr_alloc_symbol(t, &t->sym_no);
		break;
	case E_AND:
		e1 = expr_alloc_symbol(t, &t->sym_yes);
		e2 = expr_alloc_symbol(t, &t->sym_yes);
		break;
	default:
		break;
	}
#undef e1
#undef e2
}

void expr_eliminate_eq(kc_tree *t, kc_expr **ep1, kc_expr **ep2)
{
	if (!*ep1 || !*ep2)
		return;
	switch ((*ep1)->type) {
	case E_OR:
	case E_AND:
		__expr_eliminate_eq(t, (*ep1)->type, ep1, ep2);
	default:
		break;
	}
	if ((*ep1)->type != (*ep2)->type)
		switch ((*ep2)->type) {
		case E_OR:
		case E_AND:
			__expr_eliminate_eq(t, (*ep2)->type, ep1, ep2);
		default:
			break;
		}
	*ep1 = expr_eliminate_yn(t, *ep1);
	*ep2 = expr_eliminate_yn(t, *ep2);
}

int expr_eq(kc_tree *t, kc_expr *e1, kc_expr *e2)
{
	int res, old_count;

	if (!e1 || !e2)
		return expr_is_yes(t, e1) && expr_is_yes(t, e2);
	if (e1->type != e2->type)
		return 0;
	switch (e1->type) {
	case E_EQUAL:
	case E_GEQ:
	case E_GTH:
	case E_LEQ:
	case E_LTH:
	case E_UNEQUAL:
		return e1->left.sym == e2->left.sym &&
		       e1->right.sym == e2->right.sym;
	case E_SYMBOL:
		return e1->left.sym == e2->left.sym;
	case E_NOT:
		return expr_eq(t, e1->left.expr, e2->left.expr);
	case E_AND:
	case E_OR:
		e1 = expr_copy(t, e1);
		e2 = expr_copy(t, e2);
		old_count = trans_count;
		expr_eliminate_eq(t, &e1, &e2);
		res = (e1->type == E_SYMBOL && e2->type == E_SYMBOL &&
		       e1->left.sym == e2->left.sym);
		expr_free(t, e1);
		expr_free(t, e2);
		trans_count = old_count;
		return res;
	default:
		break;
	}
	return 0;
}

static kc_expr *expr_eliminate_yn(kc_tree *t, kc_expr *e)
{
	kc_expr *tmp;

	if (!e)
		return e;
	switch (e->type) {
	case E_AND:
	case E_OR: {
		/* the absorbing and the neutral element of the operator */
		kc_sym *zero = e->type == E_AND ? &t->sym_no : &t->sym_yes;
		kc_sym *one = e->type == E_AND ? &t->sym_yes : &t->sym_no;
		e->left.expr = expr_eliminate_yn(t, e->left.expr);
		e->right.expr = expr_eliminate_yn(t, e->right.expr);
		if (e->left.expr->type == E_SYMBOL) {
			if (e->left.expr->left.sym == zero) {
				expr_free(t, e->left.expr);
				expr_free(t, e->right.expr);
				e->type = E_SYMBOL;
				e->left.sym = zero;
				e->right.expr = NULL;
				return e;
			} else if (e->left.expr->left.sym == one) {
				expr_free1(t, e->left.expr);
				tmp = e->right.expr;
				*e = *tmp;
				expr_free1(t, tmp);
				return e;
			}
		}
		if (e->right.expr->type == E_SYMBOL) {
			if (e->right.expr->left.sym == zero) {
				expr_free(t, e->left.expr);
				expr_free(t, e->right.expr);
				e->type = E_SYMBOL;
				e->left.sym = zero;
				e->right.expr = NULL;
				return e;
			} else if (e->right.expr->left.sym == one) {
				expr_free1(t, e->right.expr);
				tmp = e->left.expr;
				*e = *tmp;
				expr_free1(t, tmp);
				return e;
			}
		}
		break;
	}
	default:
		break;
	}
	return e;
}

/*
 * What expr_join_or() and expr_join_and() first check alike: both sides
 * are (possibly negated) tests of one bool or tristate symbol.  Returns
 * that symbol, or NULL when the pair cannot be joined.
 */
static kc_sym *join_symbol(kc_expr *e1, kc_expr *e2)
{
	kc_expr *tmp;
	kc_sym *sym1, *sym2;

	if (e1->type != E_EQUAL && e1->type != E_UNEQUAL &&
	    e1->type != E_SYMBOL && e1->type != E_NOT)
		return NULL;
	if (e2->type != E_EQUAL && e2->type != E_UNEQUAL &&
	    e2->type != E_SYMBOL && e2->type != E_NOT)
		return NULL;
	if (e1->type == E_NOT) {
		tmp = e1->left.expr;
		if (tmp->type != E_EQUAL && tmp->type != E_UNEQUAL &&
		    tmp->type != E_SYMBOL)
			return NULL;
		sym1 = tmp->left.sym;
	} else
		sym1 = e1->left.sym;
	if (e2->type == E_NOT) {
		if (e2->left.expr->type != E_SYMBOL)
			return NULL;
		sym2 = e2->left.expr->left.sym;
	} else
		sym2 = e2->left.sym;
	if (sym1 != sym2)
		return NULL;
	if (sym1->type != S_BOOLEAN && sym1->type != S_TRISTATE)
		return NULL;
	return sym1;
}

/* e1 || e2 -> ? */
static kc_expr *expr_join_or(kc_tree *t, kc_expr *e1, kc_expr *e2)
{
	kc_sym *sym1, *sym2;

	if (expr_eq(t, e1, e2))
		return expr_copy(t, e1);
	sym1 = sym2 = join_symbol(e1, e2);
	if (!sym1)
		return NULL;
	if (sym1->type == S_TRISTATE) {
		if (e1->type == E_EQUAL && e2->type == E_EQUAL &&
		    ((e1->right.sym == &t->sym_yes && e2->right.sym == &t->sym_mod) ||
		     (e1->right.sym == &t->sym_mod && e2->right.sym == &t->sym_yes)))
			return expr_alloc_comp(t, E_UNEQUAL, sym1, &t->sym_no);
		if (e1->type == E_EQUAL && e2->type == E_EQUAL &&
		    ((e1->right.sym == &t->sym_yes && e2->right.sym == &t->sym_no) ||
		     (e1->right.sym == &t->sym_no && e2->right.sym == &t->sym_yes)))
			return expr_alloc_comp(t, E_UNEQUAL, sym1, &t->sym_mod);
		if (e1->type == E_EQUAL && e2->type == E_EQUAL &&
		    ((e1->right.sym == &t->sym_mod && e2->right.sym == &t->sym_no) ||
		     (e1->right.sym == &t->sym_no && e2->right.sym == &t->sym_mod)))
			return expr_alloc_comp(t, E_UNEQUAL, sym1, &t->sym_yes);
	}
	if (sym1->type == S_BOOLEAN && sym1 == sym2) {
		if ((e1->type == E_NOT && e1->left.expr->type == E_SYMBOL &&
		     e2->type == E_SYMBOL) ||
		    (e2->type == E_NOT && e2->left.expr->type == E_SYMBOL &&
		     e1->type == E_SYMBOL))
			return expr_alloc_symbol(t, &t->sym_yes);
	}
	return NULL;
}

static kc_expr *expr_join_and(kc_tree *t, kc_expr *e1, kc_expr *e2)
{
	kc_sym *sym1, *sym2;

	if (expr_eq(t, e1, e2))
		return expr_copy(t, e1);
	sym1 = sym2 = join_symbol(e1, e2);
	if (!sym1)
		return NULL;

	if ((e1->type == E_SYMBOL && e2->type == E_EQUAL &&
	     e2->right.sym == &t->sym_yes) ||
	    (e2->type == E_SYMBOL && e1->type == E_EQUAL &&
	     e1->right.sym == &t->sym_yes))
		return expr_alloc_comp(t, E_EQUAL, sym1, &t->sym_yes);
	if ((e1->type == E_SYMBOL && e2->type == E_UNEQUAL &&
	     e2->right.sym == &t->sym_no) ||
	    (e2->type == E_SYMBOL && e1->type == E_UNEQUAL &&
	     e1->right.sym == &t->sym_no))
		return expr_alloc_symbol(t, sym1);
	if ((e1->type == E_SYMBOL && e2->type == E_UNEQUAL &&
	     e2->right.sym == &t->sym_mod) ||
	    (e2->type == E_SYMBOL && e1->type == E_UNEQUAL &&
	     e1->right.sym == &t->sym_mod))
		return expr_alloc_comp(t, E_EQUAL, sym1, &t->sym_yes);

	if (sym1->type == S_TRISTATE) {
		if (e1->type == E_EQUAL && e2->type == E_UNEQUAL) {
			sym2 = e1->right.sym;
			if ((e2->right.sym->flags & SYMBOL_CONST) &&
			    (sym2->flags & SYMBOL_CONST))
				return sym2 != e2->right.sym
					       ? expr_alloc_comp(t, E_EQUAL, sym1, sym2)
					       : expr_alloc_symbol(t, &t->sym_no);
		}
		if (e1->type == E_UNEQUAL && e2->type == E_EQUAL) {
			sym2 = e2->right.sym;
			if ((e1->right.sym->flags & SYMBOL_CONST) &&
			    (sym2->flags & SYMBOL_CONST))
				return sym2 != e1->right.sym
					       ? expr_alloc_comp(t, E_EQUAL, sym1, sym2)
					       : expr_alloc_symbol(t, &t->sym_no);
		}
		if (e1->type == E_UNEQUAL && e2->type == E_UNEQUAL &&
		    ((e1->right.sym == &t->sym_yes && e2->right.sym == &t->sym_no) ||
		     (e1->right.sym == &t->sym_no && e2->right.sym == &t->sym_yes)))
			return expr_alloc_comp(t, E_EQUAL, sym1, &t->sym_mod);
		if (e1->type == E_UNEQUAL && e2->type == E_UNEQUAL &&
		    ((e1->right.sym == &t->sym_yes && e2->right.sym == &t->sym_mod) ||
		     (e1->right.sym == &t->sym_mod && e2->right.sym == &t->sym_yes)))
			return expr_alloc_comp(t, E_EQUAL, sym1, &t->sym_no);
		if (e1->type == E_UNEQUAL && e2->type == E_UNEQUAL &&
		    ((e1->right.sym == &t->sym_mod && e2->right.sym == &t->sym_no) ||
		     (e1->right.sym == &t->sym_no && e2->right.sym == &t->sym_mod)))
			return expr_alloc_comp(t, E_EQUAL, sym1, &t->sym_yes);
	}
	return NULL;
}

static void expr_eliminate_dups1(kc_tree *t, enum kc_expr_type type,
				 kc_expr **ep1, kc_expr **ep2)
{
#define e1 (*ep1)
#define e2 (*ep2)
	kc_expr *tmp;

	if (e1->type == type) {
		expr_eliminate_dups1(t, type, &e1->left.expr, &e2);
		expr_eliminate_dups1(t, type, &e1->right.expr, &e2);
		return;
	}
	if (e2->type == type) {
		expr_eliminate_dups1(t, type, &e1, &e2->left.expr);
		expr_eliminate_dups1(t, type, &e1, &e2->right.expr);
		return;
	}
	if (e1 == e2)
		return;
	switch (e1->type) {
	case E_OR:
	case E_AND:
		expr_eliminate_dups1(t, e1->type, &e1, &e1);
	default:
		break;
	}
	switch (type) {
	case E_OR:
		tmp = expr_join_or(t, e1, e2);
		if (tmp) {
			expr_free(t, e1);
			expr_free(t, e2);
			e1 = expr_alloc_symbol(t, &t->sym_no);
			e2 = tmp;
			trans_count++;
		}
		break;
	case E_AND:
		tmp = expr_join_and(t, e1, e2);
		if (tmp) {
			expr_free(t, e1);
			expr_free(t, e2);
			e1 = expr_alloc_symbol(t, &t->sym_yes);
			e2 = tmp;
			trans_count++;
		}
		break;
	default:
		break;
	}
#undef e1
#undef e2
}

/* 6.12's expr_eliminate_dups1(): *ep1 and *ep2 are the two operands of
 * an && or ||, the leaves of each side are joined with those of the
 * other (the expression is no longer joined with itself). */
static void expr_eliminate_dups1_612(kc_tree *t, enum kc_expr_type type,
				     kc_expr **ep1, kc_expr **ep2)
{
	kc_expr *tmp = NULL;

	if ((*ep1)->type == type) {
		expr_eliminate_dups1_612(t, type, &(*ep1)->left.expr, ep2);
		expr_eliminate_dups1_612(t, type, &(*ep1)->right.expr, ep2);
		return;
	}
	if ((*ep2)->type == type) {
		expr_eliminate_dups1_612(t, type, ep1, &(*ep2)->left.expr);
		expr_eliminate_dups1_612(t, type, ep1, &(*ep2)->right.expr);
		return;
	}
	if (type == E_OR)
		tmp = expr_join_or(t, *ep1, *ep2);
	else if (type == E_AND)
		tmp = expr_join_and(t, *ep1, *ep2);
	if (!tmp)
		return;
	expr_free(t, *ep1);
	expr_free(t, *ep2);
	*ep1 = expr_alloc_symbol(t, type == E_OR ? &t->sym_no : &t->sym_yes);
	*ep2 = tmp;
	trans_count++;
}

/* 6.12 and later: the operands first, then the two against each other,
 * and y and n are always taken out (A || y is y: "depends on A || y" in
 * A is no loop). */
static kc_expr *expr_eliminate_dups_612(kc_tree *t, kc_expr *e)
{
	if (!e)
		return e;
	int oldcount = trans_count;
	for (int guard = 0; guard < 100000; guard++) {
		trans_count = 0;
		if (e->type == E_OR || e->type == E_AND) {
			kc_expr *l = expr_eliminate_dups_612(t, e->left.expr);
			kc_expr *r = expr_eliminate_dups_612(t, e->right.expr);
			expr_eliminate_dups1_612(t, e->type, &l, &r);
			e->left.expr = l;
			e->right.expr = r;
		}
		e = expr_eliminate_yn(t, e);
		if (!trans_count)
			break;
	}
	trans_count = oldcount;
	return e;
}

kc_expr *expr_eliminate_dups(kc_tree *t, kc_expr *e)
{
	int oldcount;
	if (t->expr_dups_612)
		return expr_eliminate_dups_612(t, e);
	if (!e)
		return e;
	oldcount = trans_count;
	for (int guard = 0; guard < 100000; guard++) {
		trans_count = 0;
		switch (e->type) {
		case E_OR:
		case E_AND:
			expr_eliminate_dups1(t, e->type, &e, &e);
		default:
			break;
		}
		if (!trans_count)
			break;
		e = expr_eliminate_yn(t, e);
	}
	trans_count = oldcount;
	return e;
}

kc_expr *expr_transform(kc_tree *t, kc_expr *e)
{
	kc_expr *tmp;

	if (!e)
		return NULL;
	switch (e->type) {
	case E_EQUAL:
	case E_GEQ:
	case E_GTH:
	case E_LEQ:
	case E_LTH:
	case E_UNEQUAL:
	case E_SYMBOL:
	case E_LIST:
		break;
	default:
		e->left.expr = expr_transform(t, e->left.expr);
		e->right.expr = expr_transform(t, e->right.expr);
	}

	switch (e->type) {
	case E_EQUAL:
		if (e->left.sym->type != S_BOOLEAN)
			break;
		if (e->right.sym == &t->sym_no) {
			kc_sym *s = e->left.sym;
			e->type = E_NOT;
			e->left.expr = expr_alloc_symbol(t, s);
			e->right.sym = NULL;
			break;
		}
		if (e->right.sym == &t->sym_mod) {
			kf_strbuf_addf(&t->out,
				       "boolean symbol %s tested for 'm'? test forced to 'n'\n",
				       e->left.sym->name);
			e->type = E_SYMBOL;
			e->left.sym = &t->sym_no;
			e->right.sym = NULL;
			break;
		}
		if (e->right.sym == &t->sym_yes) {
			e->type = E_SYMBOL;
			e->right.sym = NULL;
			break;
		}
		break;
	case E_UNEQUAL:
		if (e->left.sym->type != S_BOOLEAN)
			break;
		if (e->right.sym == &t->sym_no) {
			e->type = E_SYMBOL;
			e->right.sym = NULL;
			break;
		}
		if (e->right.sym == &t->sym_mod) {
			kf_strbuf_addf(&t->out,
				       "boolean symbol %s tested for 'm'? test forced to 'y'\n",
				       e->left.sym->name);
			e->type = E_SYMBOL;
			e->left.sym = &t->sym_yes;
			e->right.sym = NULL;
			break;
		}
		if (e->right.sym == &t->sym_yes) {
			kc_sym *s = e->left.sym;
			e->type = E_NOT;
			e->left.expr = expr_alloc_symbol(t, s);
			e->right.sym = NULL;
			break;
		}
		break;
	case E_NOT:
		switch (e->left.expr->type) {
		case E_NOT:
			tmp = e->left.expr->left.expr;
			e = expr_transform(t, tmp);
			break;
		case E_EQUAL:
		case E_UNEQUAL:
			tmp = e->left.expr;
			e = tmp;
			e->type = e->type == E_EQUAL ? E_UNEQUAL : E_EQUAL;
			break;
		case E_LEQ:
		case E_GEQ:
			tmp = e->left.expr;
			e = tmp;
			e->type = e->type == E_LEQ ? E_GTH : E_LTH;
			break;
		case E_LTH:
		case E_GTH:
			tmp = e->left.expr;
			e = tmp;
			e->type = e->type == E_LTH ? E_GEQ : E_LEQ;
			break;
		case E_OR:
			tmp = e->left.expr;
			e->type = E_AND;
			e->right.expr = expr_alloc_one(t, E_NOT, tmp->right.expr);
			tmp->type = E_NOT;
			tmp->right.expr = NULL;
			e = expr_transform(t, e);
			break;
		case E_AND:
			tmp = e->left.expr;
			e->type = E_OR;
			e->right.expr = expr_alloc_one(t, E_NOT, tmp->right.expr);
			tmp->type = E_NOT;
			tmp->right.expr = NULL;
			e = expr_transform(t, e);
			break;
		case E_SYMBOL:
			if (e->left.expr->left.sym == &t->sym_yes) {
				e = e->left.expr;
				e->type = E_SYMBOL;
				e->left.sym = &t->sym_no;
				break;
			}
			if (e->left.expr->left.sym == &t->sym_mod) {
				e = e->left.expr;
				e->type = E_SYMBOL;
				e->left.sym = &t->sym_mod;
				break;
			}
			if (e->left.expr->left.sym == &t->sym_no) {
				e = e->left.expr;
				e->type = E_SYMBOL;
				e->left.sym = &t->sym_yes;
				break;
			}
			break;
		default:
			break;
		}
		break;
	default:
		break;
	}
	return e;
}

int expr_contains_symbol(kc_expr *dep, kc_sym *sym)
{
	if (!dep)
		return 0;
	switch (dep->type) {
	case E_AND:
	case E_OR:
		return expr_contains_symbol(dep->left.expr, sym) ||
		       expr_contains_symbol(dep->right.expr, sym);
	case E_SYMBOL:
		return dep->left.sym == sym;
	case E_EQUAL:
	case E_GEQ:
	case E_GTH:
	case E_LEQ:
	case E_LTH:
	case E_UNEQUAL:
		return dep->left.sym == sym || dep->right.sym == sym;
	case E_NOT:
		return expr_contains_symbol(dep->left.expr, sym);
	default:
		break;
	}
	return 0;
}

/*
 * 7.x: does dep reference sym in a way that holds with sym off (!sym,
 * sym=n, sym!=y, sym!=m)?  Expects expr_transform()ed input.
 */
bool expr_contains_symbol_negated(kc_tree *t, kc_expr *dep, kc_sym *sym)
{
	if (!dep)
		return false;
	switch (dep->type) {
	case E_AND:
	case E_OR:
		return expr_contains_symbol_negated(t, dep->left.expr, sym) ||
		       expr_contains_symbol_negated(t, dep->right.expr, sym);
	case E_NOT:
		return dep->left.expr->type == E_SYMBOL &&
		       dep->left.expr->left.sym == sym;
	case E_EQUAL:
		return dep->left.sym == sym && dep->right.sym == &t->sym_no;
	case E_UNEQUAL:
		return dep->left.sym == sym &&
		       (dep->right.sym == &t->sym_yes ||
			dep->right.sym == &t->sym_mod);
	default:
		break;
	}
	return false;
}

bool expr_depends_symbol(kc_tree *t, kc_expr *dep, kc_sym *sym)
{
	if (!dep)
		return false;
	switch (dep->type) {
	case E_AND:
		return expr_depends_symbol(t, dep->left.expr, sym) ||
		       expr_depends_symbol(t, dep->right.expr, sym);
	case E_SYMBOL:
		return dep->left.sym == sym;
	case E_EQUAL:
		if (dep->left.sym == sym &&
		    (dep->right.sym == &t->sym_yes || dep->right.sym == &t->sym_mod))
			return true;
		break;
	case E_UNEQUAL:
		if (dep->left.sym == sym && dep->right.sym == &t->sym_no)
			return true;
		break;
	default:
		break;
	}
	return false;
}

kc_expr *expr_trans_compare(kc_tree *t, kc_expr *e, enum kc_expr_type type,
			    kc_sym *sym)
{
	kc_expr *e1, *e2;

	if (!e) {
		e = expr_alloc_symbol(t, sym);
		if (type == E_UNEQUAL)
			e = expr_alloc_one(t, E_NOT, e);
		return e;
	}
	switch (e->type) {
	case E_AND:
		e1 = expr_trans_compare(t, e->left.expr, E_EQUAL, sym);
		e2 = expr_trans_compare(t, e->right.expr, E_EQUAL, sym);
		if (sym == &t->sym_yes)
			e = expr_alloc_two(t, E_AND, e1, e2);
		if (sym == &t->sym_no)
			e = expr_alloc_two(t, E_OR, e1, e2);
		if (type == E_UNEQUAL)
			e = expr_alloc_one(t, E_NOT, e);
		return e;
	case E_OR:
		e1 = expr_trans_compare(t, e->left.expr, E_EQUAL, sym);
		e2 = expr_trans_compare(t, e->right.expr, E_EQUAL, sym);
		if (sym == &t->sym_yes)
			e = expr_alloc_two(t, E_OR, e1, e2);
		if (sym == &t->sym_no)
			e = expr_alloc_two(t, E_AND, e1, e2);
		if (type == E_UNEQUAL)
			e = expr_alloc_one(t, E_NOT, e);
		return e;
	case E_NOT:
		return expr_trans_compare(t, e->left.expr,
					  type == E_EQUAL ? E_UNEQUAL : E_EQUAL,
					  sym);
	case E_UNEQUAL:
	case E_LTH:
	case E_LEQ:
	case E_GTH:
	case E_GEQ:
	case E_EQUAL:
		if (type == E_EQUAL) {
			if (sym == &t->sym_yes)
				return expr_copy(t, e);
			if (sym == &t->sym_mod)
				return expr_alloc_symbol(t, &t->sym_no);
			if (sym == &t->sym_no)
				return expr_alloc_one(t, E_NOT, expr_copy(t, e));
		} else {
			if (sym == &t->sym_yes)
				return expr_alloc_one(t, E_NOT, expr_copy(t, e));
			if (sym == &t->sym_mod)
				return expr_alloc_symbol(t, &t->sym_yes);
			if (sym == &t->sym_no)
				return expr_copy(t, e);
		}
		break;
	case E_SYMBOL:
		return expr_alloc_comp(t, type, e->left.sym, sym);
	default:
		break;
	}
	return NULL;
}

enum string_value_kind { k_string, k_signed, k_unsigned };

union string_value {
	unsigned long long u;
	signed long long s;
};

static enum string_value_kind expr_parse_string(const char *str,
						enum kc_sym_type type,
						union string_value *val)
{
	char *tail;
	enum string_value_kind kind;

	errno = 0;
	switch (type) {
	case S_BOOLEAN:
	case S_TRISTATE:
		val->s = !strcmp(str, "n")   ? 0
			 : !strcmp(str, "m") ? 1
			 : !strcmp(str, "y") ? 2
					     : -1;
		return k_signed;
	case S_INT:
		val->s = strtoll(str, &tail, 10);
		kind = k_signed;
		break;
	case S_HEX:
		val->u = strtoull(str, &tail, 16);
		kind = k_unsigned;
		break;
	default:
		val->s = strtoll(str, &tail, 0);
		kind = k_signed;
		break;
	}
	return !errno && !*tail && tail > str && isxdigit((unsigned char)tail[-1])
		       ? kind
		       : k_string;
}

void kc_expr_for_each_sym(kc_expr *e, void (*fn)(kc_sym *sym, void *ctx), void *ctx)
{
	while (e) {
		switch (e->type) {
		case E_OR:
		case E_AND:
			kc_expr_for_each_sym(e->left.expr, fn, ctx);
			e = e->right.expr;
			continue;
		case E_NOT:
			e = e->left.expr;
			continue;
		case E_LIST:
			if (e->right.sym)
				fn(e->right.sym, ctx);
			e = e->left.expr;
			continue;
		case E_SYMBOL:
			fn(e->left.sym, ctx);
			return;
		case E_EQUAL:
		case E_UNEQUAL:
		case E_LTH:
		case E_LEQ:
		case E_GTH:
		case E_GEQ:
		case E_RANGE:
			fn(e->left.sym, ctx);
			fn(e->right.sym, ctx);
			return;
		default:
			return;
		}
	}
}

kc_tri expr_calc_value(kc_tree *t, kc_expr *e)
{
	kc_tri val1, val2;
	const char *str1, *str2;
	enum string_value_kind k1 = k_string, k2 = k_string;
	union string_value lval = {0}, rval = {0};
	int res;

	if (!e)
		return KC_YES;

	switch (e->type) {
	case E_SYMBOL:
		sym_calc_value(t, e->left.sym);
		return e->left.sym->curr.tri;
	case E_AND:
		val1 = expr_calc_value(t, e->left.expr);
		if (val1 == KC_NO && t->calc_lazy)
			return KC_NO;
		val2 = expr_calc_value(t, e->right.expr);
		return TRI_AND(val1, val2);
	case E_OR:
		val1 = expr_calc_value(t, e->left.expr);
		if (val1 == KC_YES && t->calc_lazy)
			return KC_YES;
		val2 = expr_calc_value(t, e->right.expr);
		return TRI_OR(val1, val2);
	case E_NOT:
		val1 = expr_calc_value(t, e->left.expr);
		return TRI_NOT(val1);
	case E_EQUAL:
	case E_GEQ:
	case E_GTH:
	case E_LEQ:
	case E_LTH:
	case E_UNEQUAL:
		break;
	default:
		return KC_NO;
	}

	sym_calc_value(t, e->left.sym);
	sym_calc_value(t, e->right.sym);
	str1 = sym_get_string_value(t, e->left.sym);
	str2 = sym_get_string_value(t, e->right.sym);

	if (e->left.sym->type != S_STRING || e->right.sym->type != S_STRING) {
		k1 = expr_parse_string(str1, e->left.sym->type, &lval);
		k2 = expr_parse_string(str2, e->right.sym->type, &rval);
	}

	if (k1 == k_string || k2 == k_string)
		res = strcmp(str1, str2);
	else if (k1 == k_unsigned || k2 == k_unsigned)
		res = (lval.u > rval.u) - (lval.u < rval.u);
	else
		res = (lval.s > rval.s) - (lval.s < rval.s);

	switch (e->type) {
	case E_EQUAL:
		return res ? KC_NO : KC_YES;
	case E_GEQ:
		return res >= 0 ? KC_YES : KC_NO;
	case E_GTH:
		return res > 0 ? KC_YES : KC_NO;
	case E_LEQ:
		return res <= 0 ? KC_YES : KC_NO;
	case E_LTH:
		return res < 0 ? KC_YES : KC_NO;
	case E_UNEQUAL:
		return res ? KC_YES : KC_NO;
	default:
		return KC_NO;
	}
}

/* The kernel's expr_compare_type: does t2 bind looser than t1? */
static int expr_compare_type(enum kc_expr_type t1, enum kc_expr_type t2)
{
	if (t1 == t2)
		return 0;
	switch (t1) {
	case E_LEQ:
	case E_LTH:
	case E_GEQ:
	case E_GTH:
		if (t2 == E_EQUAL || t2 == E_UNEQUAL)
			return 1;
		/* fall through */
	case E_EQUAL:
	case E_UNEQUAL:
		if (t2 == E_NOT)
			return 1;
		/* fall through */
	case E_NOT:
		if (t2 == E_AND)
			return 1;
		/* fall through */
	case E_AND:
		if (t2 == E_OR)
			return 1;
		/* fall through */
	case E_OR:
		if (t2 == E_LIST)
			return 1;
		/* fall through */
	case E_LIST:
		if (t2 == 0)
			return 1;
		/* fall through */
	default:
		return -1;
	}
}

typedef void (*expr_print_fn)(kc_tree *t, void *data, kc_sym *sym,
			      const char *str);

static void expr_print(kc_tree *t, kc_expr *e, expr_print_fn fn, void *data,
		       enum kc_expr_type prevtoken)
{
	if (!e) {
		fn(t, data, NULL, "y");
		return;
	}
	if (expr_compare_type(prevtoken, e->type) > 0)
		fn(t, data, NULL, "(");
	switch (e->type) {
	case E_SYMBOL:
		if (e->left.sym->name)
			fn(t, data, e->left.sym, e->left.sym->name);
		else
			fn(t, data, NULL, "<choice>");
		break;
	case E_NOT:
		fn(t, data, NULL, "!");
		expr_print(t, e->left.expr, fn, data, E_NOT);
		break;
	case E_EQUAL:
	case E_LEQ:
	case E_LTH:
	case E_GEQ:
	case E_GTH:
	case E_UNEQUAL:
		if (e->left.sym->name)
			fn(t, data, e->left.sym, e->left.sym->name);
		else
			fn(t, data, NULL, "<choice>");
		fn(t, data, NULL,
		   e->type == E_EQUAL	  ? "="
		   : e->type == E_LEQ	  ? "<="
		   : e->type == E_LTH	  ? "<"
		   : e->type == E_GEQ	  ? ">="
		   : e->type == E_GTH	  ? ">"
					  : "!=");
		fn(t, data, e->right.sym, e->right.sym->name);
		break;
	case E_OR:
		expr_print(t, e->left.expr, fn, data, E_OR);
		fn(t, data, NULL, " || ");
		expr_print(t, e->right.expr, fn, data, E_OR);
		break;
	case E_AND:
		expr_print(t, e->left.expr, fn, data, E_AND);
		fn(t, data, NULL, " && ");
		expr_print(t, e->right.expr, fn, data, E_AND);
		break;
	case E_LIST:
		fn(t, data, e->right.sym, e->right.sym->name);
		if (e->left.expr) {
			fn(t, data, NULL, " ^ ");
			expr_print(t, e->left.expr, fn, data, E_LIST);
		}
		break;
	case E_RANGE:
		fn(t, data, NULL, "[");
		fn(t, data, e->left.sym, e->left.sym->name);
		fn(t, data, NULL, " ");
		fn(t, data, e->right.sym, e->right.sym->name);
		fn(t, data, NULL, "]");
		break;
	default:
		fn(t, data, NULL, "<unknown>");
		break;
	}
	if (expr_compare_type(prevtoken, e->type) > 0)
		fn(t, data, NULL, ")");
}

static void gstr_helper(kc_tree *t, void *data, kc_sym *sym, const char *str)
{
	kf_strbuf *out = data;
	kf_strbuf_addstr(out, str);
	if (sym && sym->type != S_UNKNOWN)
		kf_strbuf_addf(out, " [=%s]", sym_get_string_value(t, sym));
}

static void plain_helper(kc_tree *t, void *data, kc_sym *sym, const char *str)
{
	kf_strbuf_addstr(data, str);
}

void expr_gstr_print(kc_tree *t, kc_expr *e, kf_strbuf *out)
{
	expr_print(t, e, gstr_helper, out, E_NONE);
}

void expr_print_plain(kc_expr *e, kf_strbuf *out)
{
	expr_print(NULL, e, plain_helper, out, E_NONE);
}

static void expr_print_revdep(kc_tree *t, kc_expr *e, kf_strbuf *out,
			      kc_tri pr_type, const char **title)
{
	if (e->type == E_OR) {
		expr_print_revdep(t, e->left.expr, out, pr_type, title);
		expr_print_revdep(t, e->right.expr, out, pr_type, title);
	} else if (expr_calc_value(t, e) == pr_type) {
		if (*title) {
			kf_strbuf_addstr(out, *title);
			*title = NULL;
		}
		kf_strbuf_addstr(out, "  - ");
		expr_print(t, e, gstr_helper, out, E_NONE);
		kf_strbuf_addstr(out, "\n");
	}
}

void expr_gstr_print_revdep(kc_tree *t, kc_expr *e, kf_strbuf *out,
			    kc_tri pr_type, const char *title)
{
	expr_print_revdep(t, e, out, pr_type, &title);
}
