/*
 * solve.c - the resolver behind `kfit generate`: make requirements hold
 * in a tree's configuration with as few changes as possible, explain each
 * change, and name what blocks a requirement that cannot hold.
 *
 * The search works on the engine's user values ("answers"), exactly as a
 * person in menuconfig would: to enable a symbol, make one of its prompts
 * visible (satisfying its dependency expression recursively) and answer
 * it, or enable something that selects it; to disable a symbol, disable
 * what selects it, then answer it with n (or make it invisible).  Among
 * alternatives (`A || B`, several prompts or selectors) every one is tried
 * on an undo log and the one that changes fewest answers is kept.  Answers
 * that requirements pin are never moved against them; trying to is how
 * conflict chains are found.  After the search every change that no
 * requirement needs is put back (minimality).
 */
#include "kfit/solve.h"

#include "kfit/explain.h"
#include "kfit/hashmap.h"

#include "kc_internal.h"

#include <stdarg.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 48
#define MAX_STEPS 400000

/* Base values of all symbols, indexed by creation order. */
struct kf_base {
	size_t n;          /* symbols */
	kc_value *def;     /* user values */
	unsigned *flags;   /* flags (SYMBOL_DEF_USER) */
	char **value;      /* written value, NULL when not written */
};

/* One undo record: a symbol's answer before a change. */
typedef struct undo {
	kc_sym *sym;       /* symbol changed */
	kc_value def;      /* its previous user value */
	unsigned flags;    /* its previous flags */
	kc_menu *choice;   /* V2: choice whose member order was saved */
	kc_sym **members;  /* V2: saved member order (malloc'd) */
	unsigned long edits; /* the tree's calc_edits then */
} undo;

/* A requirement's hold on one symbol. */
typedef struct pin {
	kc_sym *sym;          /* the symbol */
	const prof_req *req;  /* requirement */
	const prof_alt *alt;  /* what it wants of sym */
} pin;

/* Why a symbol was answered. */
typedef struct setrec {
	size_t logidx;        /* undo log length after the change */
	kc_sym *sym;          /* symbol */
	const prof_req *req;  /* requirement being applied */
	size_t path;          /* "A=y needs B needs C": its offset in
				 rs.paths */
} setrec;

typedef struct rs {
	kc_tree *t;              /* tree */
	const kf_gen_opts *o;    /* options */
	uint32_t kver;           /* tree's version */
	int initramfs;           /* effective habit */
	undo *log;               /* undo log */
	size_t nlog, alog;       /* its size */
	pin *pins;               /* pinned symbols */
	size_t npins, apins;     /* their count */
	setrec *sets;            /* answers and why */
	size_t nsets, asets;     /* their count */
	kf_strbuf paths;         /* the sets' paths, each ended by a NUL:
				    undoing a set gives its path's bytes
				    back (the search sets and undoes
				    thousands) */
	kc_sym *stack[MAX_DEPTH + 2]; /* symbols being pursued */
	bool stack_on[MAX_DEPTH + 2]; /* on (true) or off */
	int depth;               /* stack depth */
	long steps;              /* search steps taken */
	size_t limit;            /* a trial whose log grows past this is
				    no better than one found already (best_of);
				    SIZE_MAX: none */
	const prof_req *cur;     /* requirement being applied */
	kf_strbuf fail;          /* first reason the current attempt failed */
	bool fail_pin;           /* that reason is a pin conflict */
	kf_arena *arena;         /* strings of the result */
	struct lookup_slot {     /* lookup's answers by name pointer (the */
		const char *name; /* profile database's strings, which */
		kc_sym *sym;     /* outlive the search) */
	} *names;
	size_t nnames, anames;   /* their count */
	kf_hindex names_idx;     /* names by pointer */
	size_t *pin_at;          /* by symbol seq: 1 + its pin's index, 0:
				    none (NULL until the first pin) */
	size_t npin_at;          /* its length (the tree's symbols then) */
	struct req_track *rt;    /* the held requirements of a generate
				    run (all_hold), or NULL */
} rs;

/* ---------------- small helpers ---------------- */

static const char *tri_name(kc_tri v)
{
	return v == KC_YES ? "y" : v == KC_MOD ? "m" : "n";
}

static const char *symname(kc_sym *s)
{
	return s->name ? s->name : "<choice>";
}

/* Does x select target (a `select target` line of x)? */
static bool selects(kc_sym *x, kc_sym *target)
{
	kc_prop *p;
	for_all_properties(x, p, P_SELECT)
	{
		if (prop_get_symbol(p) == target)
			return true;
	}
	return false;
}

/*
 * The words between two steps of a search path: the step at i serves the
 * goal at i - 1 either as one of its dependencies ("A needs B") or as a
 * symbol that selects it ("A needs B, selected by C"; "A off needs its
 * selector C off").  In a failure the selector was only a way to try:
 * "selectable by".
 */
static const char *connector(rs *R, int i, bool tried)
{
	if (!selects(R->stack[i], R->stack[i - 1]))
		return " needs ";
	if (!R->stack_on[i - 1])
		return " needs its selector ";
	return tried ? ", selectable by " : ", selected by ";
}

static kc_sym *lookup_name(rs *R, const char *name)
{
	const char *n = prof_sym_for_kver(R->o->db, name, R->kver);
	kc_sym *s = sym_find(R->t, n);
	if (!s || (s->flags & SYMBOL_CONST) || s->type == S_UNKNOWN)
		return NULL;
	return s;
}

static bool name_eq(const void *ctx, size_t i, const void *key)
{
	const rs *R = ctx;
	return R->names[i].name == key;
}

/* The tree's symbol a profile names (NULL: none, or not one a
 * requirement can ask for), found once per name: the checks after
 * every requirement and every minimization trial ask for the same few
 * hundred names again and again. */
static kc_sym *lookup(rs *R, const char *name)
{
	uint32_t h = kf_hash_mem(&name, sizeof(name));
	size_t i = kf_hindex_find(&R->names_idx, h, name_eq, R, name);
	if (i != KF_HINDEX_NONE)
		return R->names[i].sym;
	KF_GROW(R->names, R->nnames + 1, R->anames);
	R->names[R->nnames] = (struct lookup_slot){name, lookup_name(R, name)};
	kf_hindex_add(&R->names_idx, h, R->nnames);
	return R->names[R->nnames++].sym;
}

/* An alternative's symbol: a `literal` one by the name as written. */
static kc_sym *lookup_alt(rs *R, const prof_alt *a)
{
	if (!a->literal)
		return lookup(R, a->sym);
	kc_sym *s = sym_find(R->t, a->sym);
	return s && !(s->flags & SYMBOL_CONST) && s->type != S_UNKNOWN ? s : NULL;
}

static bool is_on(const char *v)
{
	return v && (!strcmp(v, "y") || !strcmp(v, "m"));
}

/* Does a hold, s its symbol (lookup_alt)? */
static bool alt_holds_sym(rs *R, const prof_alt *a, bool boot, kc_sym *s)
{
	return prof_alt_holds(a, s ? kf_sym_shown(R->t, s) : NULL, boot, R->initramfs);
}

static bool alt_holds(rs *R, const prof_alt *a, bool boot)
{
	return alt_holds_sym(R, a, boot, lookup_alt(R, a));
}

/* Does r's if-condition hold, s its if-symbol (lookup)? */
static bool cond_holds(rs *R, const prof_req *r, kc_sym *s)
{
	const char *v = s ? kf_sym_shown(R->t, s) : NULL;
	return r->cond.if_alt ? prof_alt_holds(r->cond.if_alt, v, false, PROF_INITRAMFS_YES)
			      : is_on(v);
}

static bool req_applies(rs *R, const prof_req *r)
{
	if (r->shadowed_by)
		return false;
	if (!prof_req_applies(r, R->kver, R->o->arch))
		return false;
	if (r->cond.if_sym && !cond_holds(R, r, lookup(R, r->cond.if_sym)))
		return false;
	return true;
}

/* Do all alternatives of the group [k, e) hold? */
static bool group_holds(rs *R, const prof_req *r, size_t k, size_t e)
{
	for (; k < e; k++)
		if (!alt_holds(R, &r->alts[k], r->boot))
			return false;
	return true;
}

static bool req_holds(rs *R, const prof_req *r)
{
	for (size_t k = 0, e; k < r->nalts; k = e) {
		e = prof_group_end(r, k);
		if (group_holds(R, r, k, e))
			return true;
	}
	return false;
}

/* req_holds, syms[k] the symbol of r->alts[k] (lookup_alt). */
static bool req_holds_syms(rs *R, const prof_req *r, kc_sym *const *syms)
{
	for (size_t k = 0, e; k < r->nalts; k = e) {
		e = prof_group_end(r, k);
		size_t i = k;
		while (i < e && alt_holds_sym(R, &r->alts[i], r->boot, syms[i]))
			i++;
		if (i == e)
			return true;
	}
	return false;
}

/* ---------------- undo log ---------------- */

static void log_sym(rs *R, kc_sym *s)
{
	KF_GROW(R->log, R->nlog + 1, R->alog);
	undo *u = &R->log[R->nlog++];
	memset(u, 0, sizeof(*u));
	u->sym = s;
	u->edits = R->t->calc_edits;
	R->t->jtag = R->nlog;
	u->def = s->def[S_DEF_USER];
	u->flags = s->flags;
	if (R->t->sem == KC_SEM_V2 && s->choice) {
		u->choice = s->choice;
		u->members = kf_xmalloc(s->choice->nmembers * sizeof(kc_sym *));
		memcpy(u->members, s->choice->members,
		       s->choice->nmembers * sizeof(kc_sym *));
	}
}

/* ---------------- held requirements ---------------- */

#define PLACE_NONE UINT32_MAX

enum {
	TR_HELD = 1,    /* met */
	TR_FAILED = 2,  /* unmet or given up */
	TR_IN_W = 4,    /* in w */
	TR_STATIC = 8,  /* not shadowed, and for this kernel and arch */
};

/*
 * The requirements of a generate run by their place in the set, and
 * which of them are held, in the order all_hold goes over them (each
 * one that fails is moved to the front).  all_hold must evaluate every
 * held requirement that reads a symbol invalid or journaled since the
 * last journal_reset (req_untouched), in that order: going over all of
 * them after every change made generate quadratic in a profile's size.
 * Instead it asks the journal which symbols were touched, and keeps the
 * rest in w: the held requirements that read a symbol invalid without
 * a journal entry.  Such a symbol was invalid at the last journal_reset
 * already (whatever invalidates since is journaled; an undone trial
 * puts back the state at its mark; a dropped trial's entries are kept
 * in dropped), unless every symbol was (the tree's generation moved:
 * then w is not known, and all_hold goes over every held requirement
 * as before).  w is brought up to date at each journal_reset.
 */
typedef struct req_track {
	const prof_set *set;     /* the requirements */
	kf_hindex idx;           /* their places by pointer */
	kc_sym **syms;           /* per place, syms_at[i] to syms_at[i + 1]:
				    the symbols req_untouched reads */
	size_t *syms_at;         /* set->n + 1 offsets into syms */
	kc_sym **if_sym;         /* per place: its if-symbol (lookup) */
	kc_sym **alt_sym;        /* per place, alt_at[i] on: its
				    alternatives' symbols (lookup_alt) */
	size_t *alt_at;          /* set->n + 1 offsets into alt_sym */
	uint32_t *by_sym;        /* places naming each symbol (if-symbol,
				    alternatives as looked up and as
				    literal), by_sym_at[seq] on */
	size_t *by_sym_at;       /* nsyms + 1 offsets into by_sym */
	unsigned nsyms;          /* symbols by_sym covers */
	unsigned char *flags;    /* per place: TR_* */
	long long *rank;         /* per place: its order among the held */
	long long lo, hi;        /* the first and last rank given */
	uint32_t *prev, *next;   /* the held in order, PLACE_NONE ends */
	uint32_t head, tail;     /* first and last held */
	unsigned *stamp;         /* per place: all_hold call that queued it */
	unsigned pass;           /* the current call */
	uint32_t *heap;          /* places to evaluate, by rank */
	size_t nheap, aheap;     /* their count */
	uint32_t *w;             /* held places with a symbol invalid
				    without a journal entry (a superset) */
	size_t nw, aw;           /* their count */
	kc_sym **dropped;        /* symbols of journal entries dropped
				    since the last journal_reset */
	size_t ndropped, adropped; /* their count */
	bool w_known;            /* w is right for the generation gen_w */
	unsigned gen_w;          /* that generation */
	unsigned gen_reset;      /* the tree's generation at the last
				    journal_reset */
} req_track;

/* The place of a requirement of the set (PLACE_NONE: not one). */
static bool place_eq(const void *ctx, size_t i, const void *key)
{
	const req_track *k = ctx;
	return k->set->reqs[i] == key;
}

static uint32_t req_place(const req_track *k, const prof_req *r)
{
	uint32_t h = kf_hash_mem(&r, sizeof(r));
	size_t i = kf_hindex_find(&k->idx, h, place_eq, k, r);
	return i == KF_HINDEX_NONE ? PLACE_NONE : (uint32_t)i;
}

/* Does a symbol of place p's requirement lack a valid value? */
static bool place_has_invalid(rs *R, uint32_t p)
{
	const req_track *k = R->rt;
	for (size_t i = k->syms_at[p]; i < k->syms_at[p + 1]; i++)
		if (!sym_is_valid(R->t, k->syms[i]))
			return true;
	return false;
}

static void w_add(req_track *k, uint32_t p)
{
	if (k->flags[p] & TR_IN_W)
		return;
	k->flags[p] |= TR_IN_W;
	KF_GROW(k->w, k->nw + 1, k->aw);
	k->w[k->nw++] = p;
}

/* The held requirements naming s, when s is invalid, go to w. */
static void w_add_sym(rs *R, kc_sym *s)
{
	req_track *k = R->rt;
	if (s->seq >= k->nsyms || sym_is_valid(R->t, s))
		return;
	for (size_t i = k->by_sym_at[s->seq]; i < k->by_sym_at[s->seq + 1]; i++)
		if (k->flags[k->by_sym[i]] & TR_HELD)
			w_add(k, k->by_sym[i]);
}

/* Bring w up to date before the journal is emptied (see req_track). */
static void track_reset(rs *R)
{
	req_track *k = R->rt;
	kc_tree *t = R->t;
	if (k->w_known && t->gen == k->gen_w) {
		const kc_journal *j = t->journal;
		for (size_t i = 0; j && i < j->n; i++)
			if (j->v[i].sym)
				w_add_sym(R, j->v[i].sym);
		for (size_t i = 0; i < k->ndropped; i++)
			w_add_sym(R, k->dropped[i]);
		size_t n = 0;
		for (size_t i = 0; i < k->nw; i++) {
			uint32_t p = k->w[i];
			if (place_has_invalid(R, p))
				k->w[n++] = p;
			else
				k->flags[p] &= ~TR_IN_W;
		}
		k->nw = n;
	} else if (t->gen == k->gen_reset) {
		/* a generation that held since the last reset: worth
		 * finding w anew (a tree that moves it at every change
		 * would pay for this each time) */
		for (size_t i = 0; i < k->nw; i++)
			k->flags[k->w[i]] &= ~TR_IN_W;
		k->nw = 0;
		for (uint32_t p = k->head; p != PLACE_NONE; p = k->next[p])
			if (place_has_invalid(R, p))
				w_add(k, p);
		k->w_known = true;
		k->gen_w = t->gen;
	} else {
		k->w_known = false;
	}
	k->ndropped = 0;
	k->gen_reset = t->gen;
}

/* Journal entries from mark on are dropped without putting their state
 * back: keep their symbols for track_reset. */
static void track_drop(rs *R, size_t mark)
{
	req_track *k = R->rt;
	const kc_journal *j = R->t->journal;
	for (size_t i = j->n; i-- > 0 && j->v[i].tag > mark;)
		if (j->v[i].sym) {
			KF_GROW(k->dropped, k->ndropped + 1, k->adropped);
			k->dropped[k->ndropped++] = j->v[i].sym;
		}
}

/* At the top of the search no trial can be taken back past here: the
 * journal's entries so far are no longer needed. */
static void journal_reset(rs *R)
{
	if (R->rt)
		track_reset(R);
	if (R->t->journal)
		R->t->journal->n = 0;
}

/* The answers logged from mark on changed: recalculate what reads them. */
static void invalidate_since(rs *R, size_t mark)
{
	kc_sym *one[4] = {NULL};
	size_t n = R->nlog - mark;
	kc_sym **v = n <= 4 ? one : kf_xmalloc(n * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = R->log[mark + i].sym;
	sym_invalidate(R->t, v, n);
	if (v != one)
		free(v);
}

static void rollback(rs *R, size_t mark)
{
	if (R->nlog == mark)
		return;
	kc_sym *one[4] = {NULL};
	size_t nundo = R->nlog - mark;
	kc_sym **undone = nundo <= 4 ? one : kf_xmalloc(nundo * sizeof(*undone));
	for (size_t i = 0; i < nundo; i++)
		undone[i] = R->log[mark + i].sym;
	/* nothing but the answers moved: the calculated state goes back as
	 * it was; if the calculation changed answers itself (choices,
	 * transitional symbols), those stay, as they always did, and what
	 * they reach is recalculated */
	bool put_back = R->t->journal && R->log[mark].edits == R->t->calc_edits;
	while (R->nlog > mark) {
		undo *u = &R->log[--R->nlog];
		u->sym->def[S_DEF_USER] = u->def;
		u->sym->flags = (u->sym->flags & ~SYMBOL_DEF_USER) |
				(u->flags & SYMBOL_DEF_USER);
		if (u->members) {
			memcpy(u->choice->members, u->members,
			       u->choice->nmembers * sizeof(kc_sym *));
			free(u->members);
		}
	}
	/* drop explanations of undone changes */
	while (R->nsets && R->sets[R->nsets - 1].logidx > mark)
		R->paths.len = R->sets[--R->nsets].path;
	R->t->jtag = R->nlog;
	if (put_back) {
		kc_journal_undo(R->t, mark);
	} else {
		if (R->t->journal && R->rt)
			track_drop(R, mark);
		if (R->t->journal)
			kc_journal_drop(R->t, mark);
		sym_invalidate(R->t, undone, nundo);
	}
	if (undone != one)
		free(undone);
}

static void record(rs *R, kc_sym *s)
{
	KF_GROW(R->sets, R->nsets + 1, R->asets);
	R->sets[R->nsets].logidx = R->nlog;
	R->sets[R->nsets].sym = s;
	R->sets[R->nsets].req = R->cur;
	R->sets[R->nsets].path = R->paths.len;
	R->nsets++;
	kf_strbuf *p = &R->paths;
	for (int i = 0; i < R->depth; i++) {
		if (i)
			kf_strbuf_addstr(p, connector(R, i, false));
		kf_strbuf_addstr(p, symname(R->stack[i]));
		if (!R->stack_on[i])
			kf_strbuf_addstr(p, " off");
	}
	kf_strbuf_addch(p, 0);
}

/* The path of a set (record). */
static const char *set_path(const rs *R, const setrec *sr)
{
	return R->paths.buf + sr->path;
}

/*
 * The members of the choice s belongs to, V1 (the choice's expression
 * list) and V2 (the menus under the choice) alike:
 *	choice_iter it;
 *	if (choice_iter_init(t, s, &it))
 *		for (kc_sym *m; (m = choice_iter_next(&it));)
 * choice_iter_init is false when s is no choice member.
 */
typedef struct {
	kc_menu *cm, *m; /* V2: the choice's menu, the current member's */
	kc_expr *e;      /* V1: the rest of the member list */
} choice_iter;

static bool choice_iter_init(kc_tree *t, kc_sym *s, choice_iter *it)
{
	*it = (choice_iter){0};
	if (t->sem == KC_SEM_V2) {
		it->cm = it->m = sym_get_choice_menu(t, s);
		return it->cm != NULL;
	}
	if (!sym_is_choice_value_v1(s))
		return false;
	it->e = sym_get_choice_prop(prop_get_symbol(sym_get_choice_prop(s)))->expr;
	return true;
}

static kc_sym *choice_iter_next(choice_iter *it)
{
	if (it->cm) {
		while ((it->m = menu_next(it->m, it->cm)))
			if (it->m->sym)
				return it->m->sym;
		return NULL;
	}
	kc_sym *m = it->e ? it->e->right.sym : NULL;
	if (m)
		it->e = it->e->left.expr;
	return m;
}

static void set_tri(rs *R, kc_sym *s, kc_tri v)
{
	kc_tree *t = R->t;
	size_t mark = R->nlog;
	log_sym(R, s);
	s->def[S_DEF_USER].tri = v;
	s->flags |= SYMBOL_DEF_USER;
	if (v == KC_YES && t->sem == KC_SEM_V1 && sym_is_choice_value_v1(s)) {
		kc_sym *cs = prop_get_symbol(sym_get_choice_prop(s));
		log_sym(R, cs);
		cs->def[S_DEF_USER].val = s;
		if (cs->def[S_DEF_USER].tri < KC_YES)
			cs->def[S_DEF_USER].tri = KC_YES;
		cs->flags |= SYMBOL_DEF_USER;
		choice_iter it;
		choice_iter_init(t, s, &it);
		for (kc_sym *m; (m = choice_iter_next(&it));) {
			if (m == s)
				continue;
			log_sym(R, m);
			m->def[S_DEF_USER].tri = KC_NO;
			m->flags |= SYMBOL_DEF_USER;
		}
	} else if (v == KC_YES && t->sem == KC_SEM_V2 && s->choice) {
		/* the log entry of s saved the member order */
		choice_member_move_front(s->choice, s);
	}
	record(R, s);
	invalidate_since(R, mark);
}

static void set_str(rs *R, kc_sym *s, const char *val)
{
	size_t mark = R->nlog;
	log_sym(R, s);
	const char *v = val;
	if (s->type == S_HEX && (val[0] != '0' || (val[1] != 'x' && val[1] != 'X')))
		v = kf_arena_printf(R->t->arena, "0x%s", val);
	s->def[S_DEF_USER].val = kf_arena_strdup(R->t->arena, v);
	s->flags |= SYMBOL_DEF_USER;
	record(R, s);
	invalidate_since(R, mark);
}

/* ---------------- failure reasons ---------------- */

/* "A=y needs B needs C off": the goals being pursued, outermost first. */
static void path_text(rs *R, kf_strbuf *sb)
{
	kc_sym *s0 = R->depth ? R->stack[0] : NULL;
	/* a value symbol alone (int, hex, string) is no path: the message
	 * that follows names it */
	if (R->depth == 1 && s0->type != S_BOOLEAN && s0->type != S_TRISTATE)
		return;
	for (int i = 0; i < R->depth; i++) {
		if (i)
			kf_strbuf_addstr(sb, connector(R, i, true));
		kf_strbuf_addstr(sb, symname(R->stack[i]));
		if (i == 0 && (s0->type == S_BOOLEAN || s0->type == S_TRISTATE))
			kf_strbuf_addstr(sb, R->stack_on[i] ? "=y" : "=n");
		else if (!R->stack_on[i])
			kf_strbuf_addstr(sb, " off");
	}
}

/* Has the trial made more changes than the best one found already
 * (best_of's bound)?  Then it cannot be chosen: it stops, silently. */
static bool over_limit(const rs *R)
{
	return R->nlog > R->limit;
}

static bool fail_msg(rs *R, bool is_pin, const char *fmt, ...) KF_PRINTF(3, 4);

static bool fail_msg(rs *R, bool is_pin, const char *fmt, ...)
{
	if (R->fail.len && (R->fail_pin || !is_pin))
		return false; /* keep the first, pin conflicts win */
	if (over_limit(R))
		return false; /* a trial stopped by best_of's bound */
	kf_strbuf_reset(&R->fail);
	path_text(R, &R->fail);
	va_list ap;
	va_start(ap, fmt);
	if (R->fail.len)
		kf_strbuf_addstr(&R->fail, is_pin ? ", " : ": ");
	kf_strbuf_vaddf(&R->fail, fmt, ap);
	va_end(ap);
	R->fail_pin = is_pin;
	return false;
}

/* The pin of s, if any (one per symbol: add_pin keeps the first). */
static const pin *find_pin(rs *R, kc_sym *s)
{
	if (s->seq < R->npin_at && R->pin_at[s->seq])
		return &R->pins[R->pin_at[s->seq] - 1];
	return NULL;
}

static bool pin_blocks(rs *R, kc_sym *s, bool on)
{
	const pin *p = find_pin(R, s);
	if (!p || p->req == R->cur)
		return false;
	bool wants_off = p->alt->want == PROF_WANT_OFF;
	if (wants_off == on) {
		const prof_req *q = p->req;
		/* name the blocked symbol as the last step of the path */
		bool pushed = R->depth < MAX_DEPTH;
		if (pushed) {
			R->stack[R->depth] = s;
			R->stack_on[R->depth] = on;
			R->depth++;
		}
		kf_strbuf rsn = KF_STRBUF_INIT;
		prof_reason_oneline(q->reason, &rsn);
		fail_msg(R, true, "which %s:%d requires %s (%s: %s)",
			 q->loc.file ? q->loc.file : "?", q->loc.line,
			 wants_off ? "off" : "on", q->profile ? q->profile : "",
			 kf_strbuf_str(&rsn));
		kf_strbuf_release(&rsn);
		if (pushed)
			R->depth--;
		return true;
	}
	return false;
}

/* ---------------- search ---------------- */

static bool need_on(rs *R, kc_sym *s, kc_tri min);
static bool need_off(rs *R, kc_sym *s);
static bool need_expr(rs *R, kc_expr *e, kc_tri min);
static bool need_expr_off(rs *R, kc_expr *e, kc_tri max);
static bool need_str(rs *R, kc_sym *s, const char *val, bool numeric);

/* An alternative way to reach a goal. */
typedef struct opt {
	int kind;       /* OPT_* */
	kc_sym *s;      /* symbol */
	kc_expr *e;     /* expression */
	kc_tri v;       /* level */
	kc_prop *p;     /* property */
	const char *str; /* string value */
} opt;

enum {
	OPT_EXPR,        /* need_expr(e, v) */
	OPT_EXPR_OFF,    /* need_expr_off(e, v) */
	OPT_PROMPT_ON,   /* make prompt p visible, answer s with y */
	OPT_PROMPT_OFF,  /* make prompt p visible, answer s with n */
	OPT_ANSWER_OFF,  /* answer s with n */
	OPT_DEFAULT,     /* make default p of s give v */
	OPT_CHOOSE,      /* answer choice member s with y */
	OPT_ON,          /* need_on(s, v) */
	OPT_OFF,         /* need_off(s) */
};

/* Has s a prompt (can it be answered at all)? */
static bool has_prompt(kc_sym *s)
{
	kc_prop *p;
	for_all_prompts(s, p)
		return true;
	return false;
}

static bool run_opt(rs *R, const opt *o, kc_sym *goal, kc_tri min)
{
	kc_tree *t = R->t;
	switch (o->kind) {
	case OPT_EXPR:
		return need_expr(R, o->e, o->v);
	case OPT_EXPR_OFF:
		return need_expr_off(R, o->e, o->v);
	case OPT_ON:
		return need_on(R, o->s, o->v);
	case OPT_OFF:
		return need_off(R, o->s);
	case OPT_PROMPT_ON:
		/* a bool is visible, and can be y, when its condition is m
		 * (sym_calc_visibility promotes m to y for non-tristates) */
		if (!need_expr(R, o->p->visible.expr,
			       sym_get_type(t, goal) == S_BOOLEAN ? KC_MOD : min))
			return false;
		sym_calc_value(t, goal);
		if (goal->curr.tri >= min)
			return true;
		/* the module policy: the requirement's own symbol as m, or
		 * for an invisible one (SND_SOC_SOF_INTEL_TGL) the prompt
		 * that selects it (SND_SOC_SOF_TIGERLAKE) */
		if (R->cur && R->cur->module && min <= KC_MOD &&
		    (R->depth == 1 || (R->depth == 2 && !has_prompt(R->stack[0]))) &&
		    sym_get_type(t, goal) == S_TRISTATE) {
			set_tri(R, goal, KC_MOD);
			sym_calc_value(t, goal);
			if (goal->curr.tri >= min)
				return true;
		}
		set_tri(R, goal, KC_YES);
		sym_calc_value(t, goal);
		if (goal->curr.tri >= min)
			return true;
		return fail_msg(R, false, "%s stays %s after answering y",
				symname(goal), tri_name(goal->curr.tri));
	case OPT_PROMPT_OFF:
		if (!need_expr(R, o->p->visible.expr, KC_MOD))
			return false;
		/* fall through */
	case OPT_ANSWER_OFF:
		set_tri(R, goal, KC_NO);
		sym_calc_value(t, goal);
		return goal->curr.tri == KC_NO ||
		       fail_msg(R, false, "%s stays %s after answering n",
				symname(goal), tri_name(goal->curr.tri));
	case OPT_DEFAULT:
		if (!need_expr(R, o->p->visible.expr, min))
			return false;
		if (!need_expr(R, o->p->expr, min))
			return false;
		sym_calc_value(t, goal);
		return goal->curr.tri >= min ||
		       fail_msg(R, false, "default of %s does not apply",
				symname(goal));
	case OPT_CHOOSE:
		if (!need_on(R, o->s, KC_YES))
			return false;
		sym_calc_value(t, goal);
		return goal->curr.tri == KC_NO ||
		       fail_msg(R, false, "%s stays selected", symname(goal));
	}
	return false;
}

/* Try every option, keep the one with the fewest changes (the first of
 * those).  Once one is found, the others are tried with a bound: a
 * trial that makes as many changes is stopped (over_limit), as it could
 * not be chosen; the choice is the same as without the bound. */
static bool best_of(rs *R, const opt *opts, int n, kc_sym *goal, kc_tri min)
{
	size_t mark = R->nlog;
	int best = -1;
	size_t best_cost = SIZE_MAX;
	if (n == 1)
		return run_opt(R, &opts[0], goal, min);
	size_t outer = R->limit;
	for (int i = 0; i < n; i++) {
		if (R->steps > MAX_STEPS)
			break;
		bool ok = run_opt(R, &opts[i], goal, min) && !over_limit(R);
		size_t cost = R->nlog - mark;
		rollback(R, mark);
		if (ok && cost < best_cost) {
			best = i;
			best_cost = cost;
			if (cost <= 1)
				break;
			if (mark + best_cost - 1 < R->limit)
				R->limit = mark + best_cost - 1;
		}
	}
	R->limit = outer;
	if (best < 0)
		return false;
	bool ok = run_opt(R, &opts[best], goal, min);
	if (!ok)
		rollback(R, mark);
	return ok;
}

static bool push(rs *R, kc_sym *s, bool on)
{
	for (int i = 0; i < R->depth; i++)
		if (R->stack[i] == s && R->stack_on[i] == on)
			return fail_msg(R, false, "%s depends on itself through this path",
					symname(s));
	if (R->depth >= MAX_DEPTH)
		return fail_msg(R, false, "dependency chain deeper than %d", MAX_DEPTH);
	R->stack[R->depth] = s;
	R->stack_on[R->depth] = on;
	R->depth++;
	return true;
}

static void pop(rs *R)
{
	R->depth--;
}

static bool need_on(rs *R, kc_sym *s, kc_tri min)
{
	kc_tree *t = R->t;
	R->steps++;
	if (over_limit(R))
		return false;
	if (s->flags & SYMBOL_CONST)
		return s == &t->sym_yes || (s == &t->sym_mod && min <= KC_MOD) ||
		       fail_msg(R, false, "needs the constant %s", symname(s));
	sym_calc_value(t, s);
	if (s->type != S_BOOLEAN && s->type != S_TRISTATE)
		return s->curr.tri >= min ||
		       fail_msg(R, false, "%s is not a bool or tristate", symname(s));
	if (sym_get_type(t, s) == S_BOOLEAN && min == KC_MOD)
		min = KC_YES;
	if (s->curr.tri >= min)
		return true;
	/* turning s on takes an answer: with best_of's bound reached,
	 * none is left (the trial would stop at over_limit anyway) */
	if (R->nlog >= R->limit)
		return false;
	if (R->steps > MAX_STEPS)
		return fail_msg(R, false, "search limit reached");
	if (pin_blocks(R, s, true))
		return false;
	/* the Distro menu kfit installs is an output, never a means */
	if (s->nmenus && !strncmp(s->menus[0]->file, "distro/", 7))
		return fail_msg(R, false, "%s belongs to the Distro menu", symname(s));
	if (!push(R, s, true))
		return false;

	opt opts[32];
	int n = 0;
	kc_prop *p;
	bool has_prompt = false;
	for_all_prompts(s, p)
	{
		has_prompt = true;
		if (n < 16)
			opts[n++] = (opt){.kind = OPT_PROMPT_ON, .p = p};
	}
	if (s->rev_dep.expr && n < 31)
		opts[n++] = (opt){.kind = OPT_EXPR, .e = s->rev_dep.expr, .v = min};
	/* a default applies whenever the symbol ends up invisible (its
	 * prompt's condition false) or unanswered */
	for_all_defaults(s, p)
	{
		if (n < 31)
			opts[n++] = (opt){.kind = OPT_DEFAULT, .p = p};
	}
	(void)has_prompt;
	bool ok = n ? best_of(R, opts, n, s, min)
		    : fail_msg(R, false, "%s has no prompt, default or select",
			       symname(s));
	pop(R);
	return ok;
}

static bool need_off(rs *R, kc_sym *s)
{
	kc_tree *t = R->t;
	R->steps++;
	if (over_limit(R))
		return false;
	if (s->flags & SYMBOL_CONST)
		return s == &t->sym_no ||
		       fail_msg(R, false, "needs the constant %s off", symname(s));
	sym_calc_value(t, s);
	if (s->curr.tri == KC_NO)
		return true;
	if (R->nlog >= R->limit)
		return false;
	if (R->steps > MAX_STEPS)
		return fail_msg(R, false, "search limit reached");
	if (pin_blocks(R, s, false))
		return false;
	if (!push(R, s, false))
		return false;
	bool ok = true;
	size_t mark = R->nlog;
	/* whatever selects it must go first */
	if (s->rev_dep.tri != KC_NO || expr_calc_value(t, s->rev_dep.expr) != KC_NO) {
		if (s->rev_dep.expr && !need_expr_off(R, s->rev_dep.expr, KC_NO))
			ok = false;
	}
	sym_calc_value(t, s);
	if (ok && s->curr.tri != KC_NO) {
		opt opts[40];
		int n = 0;
		choice_iter it;
		if (choice_iter_init(t, s, &it)) {
			/* another member of its choice */
			for (kc_sym *m; n < 32 && (m = choice_iter_next(&it));)
				if (m != s)
					opts[n++] = (opt){.kind = OPT_CHOOSE, .s = m};
			if (t->sem == KC_SEM_V1) {
				kc_sym *cs = prop_get_symbol(sym_get_choice_prop(s));
				if (sym_is_optional(cs) || cs->type == S_TRISTATE)
					opts[n++] = (opt){.kind = OPT_ANSWER_OFF};
			}
		} else if (s->visible != KC_NO) {
			opts[n++] = (opt){.kind = OPT_ANSWER_OFF};
		} else {
			kc_prop *p;
			for_all_prompts(s, p)
			{
				if (n < 32)
					opts[n++] = (opt){.kind = OPT_PROMPT_OFF, .p = p};
			}
		}
		if (s->dir_dep.expr && n < 39)
			opts[n++] = (opt){.kind = OPT_EXPR_OFF, .e = s->dir_dep.expr,
					  .v = KC_NO};
		if (!n)
			ok = fail_msg(R, false, "%s cannot be turned off", symname(s));
		else
			ok = best_of(R, opts, n, s, KC_NO);
	}
	if (!ok)
		rollback(R, mark);
	pop(R);
	return ok;
}

static bool need_str(rs *R, kc_sym *s, const char *val, bool numeric)
{
	kc_tree *t = R->t;
	R->steps++;
	const char *cur = kf_sym_shown(t, s);
	if (cur && (numeric ? strtoll(cur, NULL, 0) == strtoll(val, NULL, 0)
			    : !strcmp(cur, val)))
		return true;
	if (!cur && !numeric && !*val)
		return true;
	if (!push(R, s, true))
		return false;
	bool ok = false;
	kc_prop *p;
	size_t mark = R->nlog;
	for_all_prompts(s, p)
	{
		if (need_expr(R, p->visible.expr, KC_YES)) {
			set_str(R, s, val);
			cur = kf_sym_shown(t, s);
			if (cur && (numeric ? strtoll(cur, NULL, 0) == strtoll(val, NULL, 0)
					    : !strcmp(cur, val))) {
				ok = true;
				break;
			}
			fail_msg(R, false, "%s does not accept %s (range)", symname(s), val);
		}
		rollback(R, mark);
	}
	if (!ok && !s->prop)
		fail_msg(R, false, "%s has no prompt", symname(s));
	pop(R);
	return ok;
}

/* Position of item in a comma-separated list, -1 when absent. */
static int list_index(const char *list, const char *item)
{
	size_t n = strlen(item);
	int idx = 0;
	for (const char *p = list; *p; idx++) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		if (l == n && !memcmp(p, item, n))
			return idx;
		if (!c)
			break;
		p = c + 1;
	}
	return -1;
}

/*
 * cur with item added (has) or every copy of it removed.  An item is
 * added where the tree's own order puts it: of s's default lists that
 * hold it, the one where it comes earliest (CONFIG_LSM's default for
 * DEFAULT_SECURITY_APPARMOR puts apparmor before the other major LSMs,
 * the first of which is the one the kernel activates); it goes before
 * the first item of cur that this reference lists after it, else last.
 */
static char *list_edit(kc_sym *s, const char *cur, const char *item, bool has,
		       const char *before)
{
	kf_strbuf out = KF_STRBUF_INIT;
	const char *ref = NULL;
	int refidx = -1;
	kc_prop *p;
	for_all_defaults(s, p)
	{
		kc_sym *ds = p->expr && p->expr->type == E_SYMBOL ? p->expr->left.sym : NULL;
		if (!ds || !(ds->flags & SYMBOL_CONST) || !ds->name)
			continue;
		int k = list_index(ds->name, item);
		if (k >= 0 && (refidx < 0 || k < refidx)) {
			ref = ds->name;
			refidx = k;
		}
	}
	bool placed = !has;
	for (const char *q = cur ? cur : ""; *q;) {
		const char *c = strchr(q, ',');
		size_t l = c ? (size_t)(c - q) : strlen(q);
		char *word = kf_xstrndup(q, l);
		bool drop = !has && !strcmp(word, item);
		if (!placed && ref && l && list_index(ref, word) > refidx) {
			kf_strbuf_addf(&out, "%s%s", out.len ? "," : "", item);
			placed = true;
		}
		if (!drop && l)
			kf_strbuf_addf(&out, "%s%s", out.len ? "," : "", word);
		free(word);
		if (!c)
			break;
		q = c + 1;
	}
	if (!placed)
		kf_strbuf_addf(&out, "%s%s", out.len ? "," : "", item);
	char *r = kf_strbuf_detach(&out);
	if (!has || !before || prof_list_before(r, item, before))
		return r;
	/* item goes right before the first `before` */
	kf_strbuf mv = KF_STRBUF_INIT;
	bool put = false;
	for (const char *q = r; *q;) {
		const char *c = strchr(q, ',');
		size_t l = c ? (size_t)(c - q) : strlen(q);
		char *word = kf_xstrndup(q, l);
		if (!put && !strcmp(word, before)) {
			kf_strbuf_addf(&mv, "%s%s", mv.len ? "," : "", item);
			put = true;
		}
		if (strcmp(word, item))
			kf_strbuf_addf(&mv, "%s%s", mv.len ? "," : "", word);
		free(word);
		if (!c)
			break;
		q = c + 1;
	}
	free(r);
	return kf_strbuf_detach(&mv);
}

/*
 * Make the list s (a string such as CONFIG_LSM) contain item (has) or
 * not.  Two ways, the cheaper kept, the tree's own default first on a
 * tie: a default of s whose list is right, by making its condition hold
 * (CONFIG_LSM follows the DEFAULT_SECURITY_* choice) while s has no
 * answer; or an answer, the list edited in the tree's order.
 */
static bool need_list(rs *R, kc_sym *s, const prof_alt *a)
{
	kc_tree *t = R->t;
	const char *item = a->value;
	bool has = a->want == PROF_WANT_CONTAINS;
	R->steps++;
	if (prof_alt_holds(a, kf_sym_shown(t, s), false, R->initramfs))
		return true;
	if (s->type != S_STRING)
		return fail_msg(R, false, "%s is not a string", symname(s));
	if (!push(R, s, true))
		return false;
	/* the other items requirements want of s now: a way that loses one
	 * (another default list) is no way */
	const prof_alt **keep = kf_xcalloc(R->o->set->n + 1, sizeof(*keep));
	size_t nkeep = 0;
	for (size_t i = 0; i < R->o->set->n; i++) {
		const prof_req *q = R->o->set->reqs[i];
		if (q == R->cur || q->nalts != 1 || lookup(R, q->alts[0].sym) != s ||
		    (q->alts[0].want != PROF_WANT_CONTAINS && q->alts[0].want != PROF_WANT_LACKS) ||
		    !req_applies(R, q) || !alt_holds(R, &q->alts[0], false))
			continue;
		keep[nkeep++] = &q->alts[0];
	}
	size_t mark = R->nlog;
	int best = -1;
	size_t best_cost = SIZE_MAX;
	kc_prop *p;
	/* pass 1 measures each way and undoes it, pass 2 takes the best */
	for (int pass = 0; pass < 2; pass++) {
		int way = 0;
		bool ok = false;
		if (!(s->flags & SYMBOL_DEF_USER))
			for_all_defaults(s, p)
			{
				kc_sym *ds = p->expr && p->expr->type == E_SYMBOL
						     ? p->expr->left.sym
						     : NULL;
				if (!ds || !(ds->flags & SYMBOL_CONST) ||
				    !prof_alt_holds(a, ds->name, false, R->initramfs))
					continue;
				way++;
				if (pass && way != best)
					continue;
				ok = need_expr(R, p->visible.expr, KC_YES) &&
				     prof_alt_holds(a, kf_sym_shown(t, s), false, R->initramfs);
				for (size_t k = 0; ok && k < nkeep; k++)
					ok = alt_holds(R, keep[k], false);
				if (!ok)
					fail_msg(R, false, "the default %s of %s does not apply",
						 ds->name, symname(s));
				if (pass)
					goto done;
				/* on a tie the list where the item comes
				 * earliest: the tree's default for it */
				int at = has ? list_index(ds->name, item) : 0;
				size_t key = (R->nlog - mark) * 64 + (size_t)(at < 63 ? at : 62);
				if (ok && key < best_cost) {
					best = way;
					best_cost = key;
				}
				rollback(R, mark);
			}
		for_all_prompts(s, p)
		{
			way++;
			if (pass && way != best)
				continue;
			ok = need_expr(R, p->visible.expr, KC_YES);
			if (ok) {
				char *v = list_edit(s, kf_sym_shown(t, s), item, has, a->before);
				set_str(R, s, v);
				free(v);
				ok = prof_alt_holds(a, kf_sym_shown(t, s), false, R->initramfs) ||
				     fail_msg(R, false, "%s does not take the answer", symname(s));
			}
			if (pass)
				goto done;
			if (ok && (R->nlog - mark) * 64 + 63 < best_cost) {
				best = way;
				best_cost = (R->nlog - mark) * 64 + 63;
			}
			rollback(R, mark);
		}
		if (best < 0) {
			if (!way)
				fail_msg(R, false, "%s has no prompt and no default %s %s", symname(s),
					 has ? "with" : "without", item);
			break;
		}
	}
done:
	free(keep);
	if (best < 0 || !prof_alt_holds(a, kf_sym_shown(t, s), false, R->initramfs)) {
		rollback(R, mark);
		pop(R);
		return false;
	}
	pop(R);
	return true;
}

/* Make "l op c" hold (want_equal) or fail to hold. */
static bool need_cmp(rs *R, kc_expr *e, bool want_true)
{
	kc_tree *t = R->t;
	kc_sym *l = e->left.sym, *c = e->right.sym;
	if ((l->flags & SYMBOL_CONST) && !(c->flags & SYMBOL_CONST)) {
		kc_sym *x = l;
		l = c;
		c = x;
	}
	bool eq = (e->type == E_EQUAL) == want_true;
	if (l->flags & SYMBOL_CONST)
		return fail_msg(R, false, "compares two constants");
	if (l->type == S_BOOLEAN || l->type == S_TRISTATE) {
		if (c == &t->sym_yes)
			return eq ? need_on(R, l, KC_YES) : need_off(R, l);
		if (c == &t->sym_no)
			return eq ? need_off(R, l) : need_on(R, l, KC_MOD);
		if (c == &t->sym_mod) {
			if (!eq)
				return need_off(R, l);
			if (!need_on(R, l, KC_MOD))
				return false;
			sym_calc_value(t, l);
			if (l->curr.tri != KC_MOD && l->visible != KC_NO)
				set_tri(R, l, KC_MOD);
			sym_calc_value(t, l);
			return l->curr.tri == KC_MOD ||
			       fail_msg(R, false, "%s cannot be m", symname(l));
		}
		return fail_msg(R, false, "cannot compare %s", symname(l));
	}
	if (c->flags & SYMBOL_CONST) {
		if (eq)
			return need_str(R, l, c->name, l->type != S_STRING);
		return fail_msg(R, false, "%s must differ from %s", symname(l), c->name);
	}
	return fail_msg(R, false, "compares %s with %s", symname(l), symname(c));
}

/* The operands of a chain of one operator, as options.  They are
 * alternatives, so past 64 the rest are left out of the search. */
static void flatten(kc_expr *e, enum kc_expr_type op, opt *opts, int *n,
		    int kind, kc_tri v)
{
	if (*n >= 64)
		return;
	if (e->type == op) {
		flatten(e->left.expr, op, opts, n, kind, v);
		flatten(e->right.expr, op, opts, n, kind, v);
		return;
	}
	opts[(*n)++] = (opt){.kind = kind, .e = e, .v = v};
}

static bool need_expr(rs *R, kc_expr *e, kc_tri min)
{
	kc_tree *t = R->t;
	R->steps++;
	if (!e || expr_calc_value(t, e) >= min)
		return true;
	switch (e->type) {
	case E_SYMBOL:
		return need_on(R, e->left.sym, min);
	case E_AND:
		for (int k = 0; k < 3; k++) {
			if (!need_expr(R, e->left.expr, min) ||
			    !need_expr(R, e->right.expr, min))
				return false;
			if (expr_calc_value(t, e) >= min)
				return true;
		}
		return fail_msg(R, false, "the two sides of an && undo each other");
	case E_OR: {
		/* every operand of the whole || chain is one option: trying
		 * them pairwise would retry the left side at every level */
		opt opts[64];
		int n = 0;
		flatten(e, E_OR, opts, &n, OPT_EXPR, min);
		return best_of(R, opts, n, NULL, min);
	}
	case E_NOT:
		return need_expr_off(R, e->left.expr, TRI_NOT(min));
	case E_EQUAL:
	case E_UNEQUAL:
		return need_cmp(R, e, true);
	default:
		return fail_msg(R, false, "a numeric comparison does not hold");
	}
}

static bool need_expr_off(rs *R, kc_expr *e, kc_tri max)
{
	kc_tree *t = R->t;
	R->steps++;
	if (!e)
		return fail_msg(R, false, "an unconditional dependency");
	if (expr_calc_value(t, e) <= max)
		return true;
	switch (e->type) {
	case E_SYMBOL:
		return need_off(R, e->left.sym);
	case E_AND: {
		opt opts[64];
		int n = 0;
		flatten(e, E_AND, opts, &n, OPT_EXPR_OFF, max);
		return best_of(R, opts, n, NULL, max);
	}
	case E_OR:
		for (int k = 0; k < 3; k++) {
			if (!need_expr_off(R, e->left.expr, max) ||
			    !need_expr_off(R, e->right.expr, max))
				return false;
			if (expr_calc_value(t, e) <= max)
				return true;
		}
		return fail_msg(R, false, "the two sides of an || undo each other");
	case E_NOT:
		return need_expr(R, e->left.expr, TRI_NOT(max));
	case E_EQUAL:
	case E_UNEQUAL:
		return need_cmp(R, e, false);
	default:
		return fail_msg(R, false, "a numeric comparison cannot be changed");
	}
}

static bool need_alt(rs *R, const prof_alt *a, bool boot)
{
	kc_sym *s = lookup_alt(R, a);
	if (!s) {
		if (a->want == PROF_WANT_OFF || a->want == PROF_WANT_LACKS ||
		    (a->want == PROF_WANT_STRING && !*a->value))
			return true;
		return fail_msg(R, false, "%s does not exist in this tree",
				prof_alt_sym(R->o->db, a, R->kver));
	}
	switch (a->want) {
	case PROF_WANT_ENABLED:
		return need_on(R, s, boot && R->initramfs == PROF_INITRAMFS_NO
					     ? KC_YES
					     : KC_MOD);
	case PROF_WANT_BUILTIN:
		return need_on(R, s, KC_YES);
	case PROF_WANT_OFF:
		return need_off(R, s);
	case PROF_WANT_STRING:
		return need_str(R, s, a->value, false);
	case PROF_WANT_NUMBER:
		return need_str(R, s, a->value, true);
	case PROF_WANT_AT_LEAST:
		if (prof_alt_holds(a, kf_sym_shown(R->t, s), boot, R->initramfs))
			return true;
		return need_str(R, s, a->value, true);
	case PROF_WANT_CONTAINS:
	case PROF_WANT_LACKS:
		return need_list(R, s, a);
	}
	return false;
}

/* Make every alternative of the group [k, e) hold, each without breaking
 * the ones before it (a later member's dependencies may turn an earlier
 * one off: the group is then checked as a whole). */
static bool need_group(rs *R, const prof_req *r, size_t k, size_t e)
{
	for (size_t i = k; i < e; i++) {
		R->depth = 0;
		if (!need_alt(R, &r->alts[i], r->boot))
			return false;
	}
	return group_holds(R, r, k, e);
}

/* Apply one requirement: the cheapest alternative (or group of
 * alternatives) that works. */
static bool apply_req(rs *R, const prof_req *r)
{
	size_t mark = R->nlog;
	size_t best = SIZE_MAX, best_cost = SIZE_MAX;
	R->cur = r;
	kf_strbuf_reset(&R->fail);
	R->fail_pin = false;
	/* one group: its trial would be undone and run again as it was */
	if (r->nalts && prof_group_end(r, 0) >= r->nalts) {
		if (need_group(R, r, 0, r->nalts))
			return true;
		rollback(R, mark);
		return false;
	}
	for (size_t k = 0, e; k < r->nalts; k = e) {
		e = prof_group_end(r, k);
		bool ok = need_group(R, r, k, e);
		size_t cost = R->nlog - mark;
		rollback(R, mark);
		if (ok && cost < best_cost) {
			best = k;
			best_cost = cost;
		}
	}
	if (best == SIZE_MAX)
		return false;
	if (need_group(R, r, best, prof_group_end(r, best)))
		return true;
	rollback(R, mark);
	return false;
}

static void add_pin(rs *R, const prof_req *r)
{
	if (r->nalts != 1)
		return;
	kc_sym *s = lookup(R, r->alts[0].sym);
	if (!s || find_pin(R, s))
		return;
	if (s->seq >= R->npin_at) {
		size_t n = (size_t)s->seq + 1 > R->t->nsyms ? (size_t)s->seq + 1 : R->t->nsyms;
		R->pin_at = kf_xrealloc(R->pin_at, n * sizeof(*R->pin_at));
		memset(R->pin_at + R->npin_at, 0, (n - R->npin_at) * sizeof(*R->pin_at));
		R->npin_at = n;
	}
	KF_GROW(R->pins, R->npins + 1, R->apins);
	R->pins[R->npins++] = (pin){s, r, &r->alts[0]};
	R->pin_at[s->seq] = R->npins;
}

/* ---------------- base snapshot ---------------- */

kf_base *kf_base_snapshot(kc_tree *t)
{
	kf_base *b = kf_xcalloc(1, sizeof(*b));
	b->n = t->nsyms;
	b->def = kf_xcalloc(b->n ? b->n : 1, sizeof(kc_value));
	b->flags = kf_xcalloc(b->n ? b->n : 1, sizeof(unsigned));
	b->value = kf_xcalloc(b->n ? b->n : 1, sizeof(char *));
	unsigned i;
	kc_sym *s;
	for_all_symbols(t, i, s)
	{
		if (s->seq >= b->n)
			continue;
		b->def[s->seq] = s->def[S_DEF_USER];
		b->flags[s->seq] = s->flags;
		const char *v = kf_sym_shown(t, s);
		b->value[s->seq] = v ? kf_xstrdup(v) : NULL;
	}
	return b;
}

void kf_base_restore(kc_tree *t, const kf_base *b)
{
	unsigned i;
	kc_sym *s;
	kc_sym **moved = NULL;
	size_t nmoved = 0, amoved = 0;
	for_all_symbols(t, i, s)
	{
		if (s->seq >= b->n)
			continue;
		unsigned flags = (s->flags & ~SYMBOL_DEF_USER) |
				 (b->flags[s->seq] & SYMBOL_DEF_USER);
		if (flags != s->flags ||
		    memcmp(&s->def[S_DEF_USER], &b->def[s->seq], sizeof(kc_value))) {
			KF_GROW(moved, nmoved + 1, amoved);
			moved[nmoved++] = s;
		}
		s->def[S_DEF_USER] = b->def[s->seq];
		s->flags = flags;
	}
	/* recalculating "modules" could warn (to the caller's diagnostics,
	 * as after any sym_clear_all_valid) when something selects it */
	if (t->modules_sym && t->modules_sym->rev_dep.expr)
		sym_clear_all_valid(t);
	else
		sym_invalidate(t, moved, nmoved);
	free(moved);
}

void kf_base_free(kf_base *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n; i++)
		free(b->value[i]);
	free(b->value);
	free(b->def);
	free(b->flags);
	free(b);
}

static const char *base_value(const kf_base *b, kc_sym *s)
{
	return s->seq < b->n ? b->value[s->seq] : NULL;
}

static bool same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

/* Same as far as the kernel is concerned: a bool that is absent is n. */
static bool same_value(kc_sym *s, const char *a, const char *b)
{
	if (s->type == S_BOOLEAN || s->type == S_TRISTATE) {
		if (!a)
			a = "n";
		if (!b)
			b = "n";
	}
	return same(a, b);
}

/* ---------------- explanations ---------------- */

static const char *group_of(const kf_gen_opts *o, const prof_req *r)
{
	if (!r || !r->profile)
		return "dependencies";
	if (!strcmp(r->profile, "hardware"))
		return "hardware";
	long param;
	const prof_profile *p = prof_db_find(o->db, r->profile, &param, NULL);
	if (!p)
		return "local";
	switch (p->kind) {
	case PROF_KIND_DISTRO:
		return "distro";
	case PROF_KIND_INIT:
		return "init";
	case PROF_KIND_FEATURE:
		return "feature";
	case PROF_KIND_PLATFORM:
		return "platform";
	case PROF_KIND_BASE:
		return "base";
	}
	return "profile";
}

/* ---------------- driver ---------------- */

/* Has s kept the calculated state it had at the last journal_reset?
 * Whatever recalculation or invalidation touches since is journaled, and
 * a symbol that has not been is valid only if it was then, with the same
 * value.  Without a journal: unknown. */
static bool untouched(rs *R, kc_sym *s)
{
	if (!s)
		return true;
	return R->t->journal && sym_is_valid(R->t, s) && !kc_journal_touched(R->t, s);
}

/* A held requirement none of whose symbols moved since the last
 * journal_reset still holds: every held one did then. */
static bool req_untouched(rs *R, uint32_t p)
{
	const req_track *k = R->rt;
	for (size_t i = k->syms_at[p]; i < k->syms_at[p + 1]; i++)
		if (!untouched(R, k->syms[i]))
			return false;
	return true;
}

/* Place p held, last in all_hold's order. */
static void held_append(req_track *k, uint32_t p)
{
	k->flags[p] |= TR_HELD;
	k->rank[p] = ++k->hi;
	k->prev[p] = k->tail;
	k->next[p] = PLACE_NONE;
	if (k->tail != PLACE_NONE)
		k->next[k->tail] = p;
	else
		k->head = p;
	k->tail = p;
	w_add(k, p); /* its symbols are not known to be valid */
}

static void held_to_front(req_track *k, uint32_t p)
{
	if (k->head == p)
		return;
	k->next[k->prev[p]] = k->next[p];
	if (k->next[p] != PLACE_NONE)
		k->prev[k->next[p]] = k->prev[p];
	else
		k->tail = k->prev[p];
	k->prev[p] = PLACE_NONE;
	k->next[p] = k->head;
	k->prev[k->head] = p;
	k->head = p;
	k->rank[p] = --k->lo;
}

/* Does held place p break (evaluated only if a symbol it reads moved)?
 * Then it goes to the front. */
static bool held_breaks(rs *R, uint32_t p)
{
	const req_track *k = R->rt;
	const prof_req *r = k->set->reqs[p];
	/* req_applies and req_holds, with what they look up found */
	if (req_untouched(R, p) || !(k->flags[p] & TR_STATIC) ||
	    (r->cond.if_sym && !cond_holds(R, r, k->if_sym[p])) ||
	    req_holds_syms(R, r, k->alt_sym + k->alt_at[p]))
		return false;
	held_to_front(R->rt, p);
	return true;
}

/* all_hold over every held requirement from p on, in order. */
static bool hold_scan(rs *R, uint32_t p)
{
	for (; p != PLACE_NONE; p = R->rt->next[p])
		if (held_breaks(R, p))
			return false;
	return true;
}

static bool heap_less(const req_track *k, size_t a, size_t b)
{
	return k->rank[k->heap[a]] < k->rank[k->heap[b]];
}

static void heap_swap(req_track *k, size_t a, size_t b)
{
	uint32_t x = k->heap[a];
	k->heap[a] = k->heap[b];
	k->heap[b] = x;
}

/* Queue held place p for this all_hold, unless it comes before after
 * (passed already) or is queued. */
static void queue_place(req_track *k, uint32_t p, long long after)
{
	if (!(k->flags[p] & TR_HELD) || k->stamp[p] == k->pass || k->rank[p] <= after)
		return;
	k->stamp[p] = k->pass;
	KF_GROW(k->heap, k->nheap + 1, k->aheap);
	size_t i = k->nheap++;
	k->heap[i] = p;
	for (; i && heap_less(k, i, (i - 1) / 2); i = (i - 1) / 2)
		heap_swap(k, i, (i - 1) / 2);
}

static uint32_t heap_pop(req_track *k)
{
	uint32_t top = k->heap[0];
	k->heap[0] = k->heap[--k->nheap];
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < k->nheap && heap_less(k, l, m))
			m = l;
		if (l + 1 < k->nheap && heap_less(k, l + 1, m))
			m = l + 1;
		if (m == i)
			break;
		heap_swap(k, i, m);
		i = m;
	}
	return top;
}

static void queue_sym(req_track *k, const kc_sym *s, long long after)
{
	if (s->seq >= k->nsyms)
		return;
	for (size_t i = k->by_sym_at[s->seq]; i < k->by_sym_at[s->seq + 1]; i++)
		queue_place(k, k->by_sym[i], after);
}

/* Queue what names the symbols of journal entries from i on; returns
 * the end. */
static size_t queue_journal(rs *R, size_t i, long long after)
{
	const kc_journal *j = R->t->journal;
	for (; i < j->n; i++)
		if (j->v[i].sym)
			queue_sym(R->rt, j->v[i].sym, after);
	return j->n;
}

/*
 * Do all held requirements hold?  The one that failed last is tried
 * first (and moved to the front): in minimization most answers that
 * cannot go back break the same few requirements, and finding the
 * failure first saves evaluating the others; a requirement none of
 * whose symbols the journal touched since its last reset is not
 * evaluated at all, nor, when w is known, gone over (req_track): the
 * ones that might be are queued by their order, and what evaluating
 * them journals queues those after them that it reaches, as going
 * over them all in order would have evaluated them.
 */
static bool all_hold(rs *R)
{
	req_track *k = R->rt;
	kc_tree *t = R->t;
	if (!t->journal || !k->w_known || t->gen != k->gen_w)
		return hold_scan(R, k->head);
	if (++k->pass == 0) {
		memset(k->stamp, 0, k->set->n * sizeof(*k->stamp));
		k->pass = 1;
	}
	k->nheap = 0;
	for (size_t i = 0; i < k->nw; i++)
		queue_place(k, k->w[i], LLONG_MIN);
	for (size_t i = 0; i < k->ndropped; i++)
		queue_sym(k, k->dropped[i], LLONG_MIN);
	size_t seen = queue_journal(R, 0, LLONG_MIN);
	while (k->nheap) {
		uint32_t p = heap_pop(k);
		if (held_breaks(R, p))
			return false;
		/* every symbol invalid now: on in order, as before */
		if (t->gen != k->gen_w)
			return hold_scan(R, k->next[p]);
		seen = queue_journal(R, seen, k->rank[p]);
	}
	return true;
}

/* Put an answer back to its base state (for minimization). */
static void restore_base(rs *R, const kf_base *b, kc_sym *s)
{
	log_sym(R, s);
	s->def[S_DEF_USER] = b->def[s->seq];
	s->flags = (s->flags & ~SYMBOL_DEF_USER) | (b->flags[s->seq] & SYMBOL_DEF_USER);
	sym_invalidate(R->t, &s, 1);
}

/*
 * After answering s back to its base value: is its choice (when s is a
 * member) back too, every member as in the base?  Answering a member n
 * moves the choice to another member, which differs from the base in its
 * turn: a choice the base had invisible (every member off) cannot go back
 * at all, and the member the move lands on is whatever the kernel picks
 * from members all answered n (from 6.11 the last one: "Profile all if
 * conditionals" of the branch profiling choice), not the choice's
 * default.  Such a move is no step back.
 */
static bool choice_back(rs *R, const kf_base *b, kc_sym *s)
{
	kc_tree *t = R->t;
	choice_iter it;
	if (!choice_iter_init(t, s, &it))
		return true;
	for (kc_sym *m; (m = choice_iter_next(&it));)
		if (m->seq < b->n && !same_value(m, kf_sym_shown(t, m), base_value(b, m)))
			return false;
	return true;
}

static void minimize(rs *R, const kf_base *b)
{
	kc_tree *t = R->t;
	/* 1: answers the search made, newest first */
	for (size_t i = R->nsets; i-- > 0;) {
		kc_sym *s = R->sets[i].sym;
		if (s->seq >= b->n)
			continue;
		if (!memcmp(&s->def[S_DEF_USER], &b->def[s->seq], sizeof(kc_value)) &&
		    (s->flags & SYMBOL_DEF_USER) == (b->flags[s->seq] & SYMBOL_DEF_USER))
			continue;
		/* the requirement the answer was made for breaks first, if
		 * any does: ask it before the others */
		const prof_req *own = R->sets[i].req;
		uint32_t op = own ? req_place(R->rt, own) : PLACE_NONE;
		bool own_held = op != PLACE_NONE && (R->rt->flags[op] & TR_HELD);
		size_t mark = R->nlog;
		journal_reset(R);
		restore_base(R, b, s);
		if ((own_held && req_applies(R, own) && !req_holds(R, own)) ||
		    !all_hold(R))
			rollback(R, mark);
	}
	/* 2: anything else that differs from the base and can be answered
	 * back: defaults of symbols that became visible, choices whose
	 * default moved, base answers that now apply */
	kc_sym **ms = NULL;
	size_t nms = 0, ams = 0;
	for (kc_menu *m = menu_next(&t->rootmenu, &t->rootmenu); m;
	     m = menu_next(m, &t->rootmenu)) {
		kc_sym *s = m->sym;
		if (!s || s->seq >= b->n || sym_is_choice(s) ||
		    (s->type != S_BOOLEAN && s->type != S_TRISTATE))
			continue;
		KF_GROW(ms, nms + 1, ams);
		ms[nms++] = s;
	}
	bool *cand = kf_xcalloc(nms ? nms : 1, sizeof(*cand));
	kc_edits edits = {0};
	for (int round = 0; round < 3; round++) {
		bool changed = false;
		size_t known = 0; /* cand[] holds from here on */
		for (size_t k = 0; k < nms; k++) {
			kc_sym *s = ms[k];
			const char *was = base_value(b, s);
			/*
			 * Which symbols are candidates is worked out for the
			 * rest of the menu at once: a trial taken back leaves
			 * every answer as it was, so they come out the same
			 * after it, and recalculating what it invalidated for
			 * each of them was most of the cost.  Answers the
			 * calculation itself changes (choices, transitional
			 * symbols) could differ between the two orders: those
			 * are put back and the symbols asked one at a time.
			 */
			if (k >= known) {
				t->edit_log = &edits;
				edits.n = 0;
				size_t j;
				for (j = k; j < nms && !edits.n; j++) {
					kc_sym *x = ms[j];
					cand[j] = !same_value(x, kf_sym_shown(t, x), base_value(b, x)) &&
						  sym_is_changeable(t, x) && !find_pin(R, x);
				}
				t->edit_log = NULL;
				known = j;
				if (edits.n) {
					/* back as they were; only ms[k] is asked now */
					kc_sym **v = kf_xmalloc(edits.n * sizeof(*v));
					for (size_t e = edits.n; e-- > 0;) {
						kc_sym *y = edits.v[e].sym;
						y->def[S_DEF_USER] = edits.v[e].def;
						y->flags = (y->flags & ~(SYMBOL_DEF_USER | SYMBOL_NEED_SET_CHOICE_VALUES)) |
							   (edits.v[e].flags & (SYMBOL_DEF_USER | SYMBOL_NEED_SET_CHOICE_VALUES));
						v[e] = y;
					}
					sym_invalidate(t, v, edits.n);
					free(v);
					cand[k] = !same_value(s, kf_sym_shown(t, s), was) &&
						  sym_is_changeable(t, s) && !find_pin(R, s);
					known = k + 1;
				}
			}
			if (!cand[k])
				continue;
			kc_tri target = !was || !strcmp(was, "n") ? KC_NO
					: !strcmp(was, "m")	 ? KC_MOD
								 : KC_YES;
			size_t mark = R->nlog;
			journal_reset(R);
			unsigned long edits_before = t->calc_edits;
			set_tri(R, s, target);
			if (same_value(s, kf_sym_shown(t, s), was) && choice_back(R, b, s) &&
			    all_hold(R)) {
				changed = true;
				known = k + 1;
			} else {
				rollback(R, mark);
				if (t->calc_edits != edits_before)
					known = k + 1;
			}
		}
		if (!changed)
			break;
	}
	free(edits.v);
	free(cand);
	free(ms);
}

/* The held requirement that asks for s itself (one of its alternatives,
 * met), if any. */
static const prof_req *held_req_for(rs *R, kc_sym *s)
{
	const req_track *k = R->rt;
	const prof_req *best = NULL;
	long long rank = 0;
	for (size_t i = s->seq < k->nsyms ? k->by_sym_at[s->seq] : 0;
	     s->seq < k->nsyms && i < k->by_sym_at[s->seq + 1]; i++) {
		uint32_t p = k->by_sym[i];
		const prof_req *r = k->set->reqs[p];
		if (!(k->flags[p] & TR_HELD) || (best && k->rank[p] >= rank))
			continue;
		for (size_t a = 0; a < r->nalts; a++)
			if (lookup_alt(R, &r->alts[a]) == s && alt_holds(R, &r->alts[a], r->boot)) {
				best = r;
				rank = k->rank[p];
				break;
			}
	}
	return best;
}

/* "FILE:LINE PROFILE: REASON" of a requirement. */
static void req_text(const prof_req *r, kf_strbuf *out)
{
	kf_strbuf_addf(out, "%s:%d %s: ", r->loc.file ? r->loc.file : "?",
		       r->loc.line, r->profile ? r->profile : "");
	prof_reason_oneline(r->reason, out);
}

/* A search state for o, with its strings in arena. */
static void rs_init(rs *R, const kf_gen_opts *o, kf_arena *arena)
{
	memset(R, 0, sizeof(*R));
	R->t = o->tree;
	R->o = o;
	R->kver = KF_KVER(o->tree->kver[0], o->tree->kver[1], o->tree->kver[2]);
	R->initramfs = o->initramfs != PROF_INITRAMFS_UNKNOWN ? o->initramfs
							      : o->set->initramfs;
	R->arena = arena;
	R->limit = SIZE_MAX;
}

/* Free what the search allocated (not the arena). */
static void rs_release(rs *R)
{
	for (size_t i = 0; i < R->nlog; i++)
		free(R->log[i].members);
	free(R->log);
	free(R->pins);
	free(R->pin_at);
	free(R->sets);
	free(R->names);
	kf_hindex_release(&R->names_idx);
	kf_strbuf_release(&R->paths);
	kf_strbuf_release(&R->fail);
}

/* The symbols of place p's requirement: with all, also its literal
 * alternatives' as written (what held_req_for asks). */
static size_t place_syms(rs *R, const prof_req *r, bool all, kc_sym **out)
{
	size_t n = 0;
	kc_sym *s;
	if (r->cond.if_sym && (s = lookup(R, r->cond.if_sym)))
		out[n++] = s;
	for (size_t a = 0; a < r->nalts; a++) {
		if ((s = lookup(R, r->alts[a].sym)))
			out[n++] = s;
		if (all && r->alts[a].literal && (s = lookup_alt(R, &r->alts[a])))
			out[n++] = s;
	}
	return n;
}

/* What held_breaks looks up of each requirement, found once. */
static void track_init_eval(rs *R, req_track *k)
{
	const prof_set *set = k->set;
	k->if_sym = kf_xcalloc(set->n + 1, sizeof(*k->if_sym));
	k->alt_at = kf_xcalloc(set->n + 1, sizeof(*k->alt_at));
	for (size_t i = 0; i < set->n; i++)
		k->alt_at[i + 1] = k->alt_at[i] + set->reqs[i]->nalts;
	k->alt_sym = kf_xcalloc(k->alt_at[set->n] + 1, sizeof(*k->alt_sym));
	for (size_t i = 0; i < set->n; i++) {
		const prof_req *r = set->reqs[i];
		if (!r->shadowed_by && prof_req_applies(r, R->kver, R->o->arch))
			k->flags[i] |= TR_STATIC;
		if (r->cond.if_sym)
			k->if_sym[i] = lookup(R, r->cond.if_sym);
		for (size_t a = 0; a < r->nalts; a++)
			k->alt_sym[k->alt_at[i] + a] = lookup_alt(R, &r->alts[a]);
	}
}

/* k for the requirements of set, none held; all_hold's from now on. */
static void track_init(rs *R, req_track *k, const prof_set *set)
{
	size_t n = set->n, nsyms = R->t->nsyms, most = 1;
	memset(k, 0, sizeof(*k));
	k->set = set;
	k->nsyms = (unsigned)nsyms;
	k->head = k->tail = PLACE_NONE;
	k->flags = kf_xcalloc(n + 1, 1);
	k->rank = kf_xcalloc(n + 1, sizeof(*k->rank));
	k->prev = kf_xcalloc(n + 1, sizeof(*k->prev));
	k->next = kf_xcalloc(n + 1, sizeof(*k->next));
	k->stamp = kf_xcalloc(n + 1, sizeof(*k->stamp));
	k->syms_at = kf_xcalloc(n + 1, sizeof(*k->syms_at));
	k->by_sym_at = kf_xcalloc(nsyms + 2, sizeof(*k->by_sym_at));
	kf_hindex_reserve(&k->idx, n);
	for (size_t i = 0; i < n; i++) {
		const prof_req *r = set->reqs[i];
		kf_hindex_add(&k->idx, kf_hash_mem(&r, sizeof(r)), i);
		k->syms_at[i + 1] = k->syms_at[i] + (r->cond.if_sym ? 1 : 0) + r->nalts;
		if (2 * r->nalts + 1 > most)
			most = 2 * r->nalts + 1;
	}
	kc_sym **buf = kf_xmalloc(most * sizeof(*buf));
	k->syms = kf_xmalloc((k->syms_at[n] + 1) * sizeof(*k->syms));
	/* counted, then placed (compressed rows) */
	for (int fill = 0; fill < 2; fill++) {
		for (size_t i = 0; i < n; i++) {
			size_t m = place_syms(R, set->reqs[i], true, buf);
			for (size_t j = 0; j < m; j++)
				if (buf[j]->seq < nsyms) {
					if (fill)
						k->by_sym[k->by_sym_at[buf[j]->seq]++] = (uint32_t)i;
					else
						k->by_sym_at[buf[j]->seq + 1]++;
				}
		}
		if (!fill) {
			for (size_t s = 0; s < nsyms; s++)
				k->by_sym_at[s + 1] += k->by_sym_at[s];
			k->by_sym = kf_xmalloc((k->by_sym_at[nsyms] + 1) * sizeof(*k->by_sym));
		}
	}
	/* the fill moved each row's start to the next row's */
	memmove(k->by_sym_at + 1, k->by_sym_at, nsyms * sizeof(*k->by_sym_at));
	k->by_sym_at[0] = 0;
	for (size_t i = 0; i < n; i++) {
		size_t m = place_syms(R, set->reqs[i], false, k->syms + k->syms_at[i]);
		k->syms_at[i + 1] = k->syms_at[i] + m;
	}
	track_init_eval(R, k);
	free(buf);
	k->w_known = true;
	k->gen_w = k->gen_reset = R->t->gen;
	R->rt = k;
}

static void track_release(req_track *k)
{
	free(k->if_sym);
	free(k->alt_sym);
	free(k->alt_at);
	kf_hindex_release(&k->idx);
	free(k->syms);
	free(k->syms_at);
	free(k->by_sym);
	free(k->by_sym_at);
	free(k->flags);
	free(k->rank);
	free(k->prev);
	free(k->next);
	free(k->stamp);
	free(k->heap);
	free(k->w);
	free(k->dropped);
}

/* One kf_generate run: the search and what it has met so far. */
typedef struct gen_run {
	rs R;                    /* the search */
	const kf_gen_opts *o;    /* options */
	const kf_base *base;     /* the configuration it started from */
	kf_gen_result *res;      /* what it returns */
	req_track track;         /* requirements met (all_hold's order) */
	size_t aunmet, askip;    /* capacity of res->unmet, res->skipped */
} gen_run;

/*
 * The passes over the requirements, in order (docs/generate.md, "What
 * each level does").  Each pass goes over the list twice: the second
 * round picks up requirements whose if-symbol the first turned on.
 */
static const struct gen_pass {
	prof_level level;        /* the requirements it takes */
	const char *what;        /* what it is for */
} gen_passes[] = {
	{PROF_REQUIRE, "requires"},
	{PROF_RECOMMEND, "recommends, each pinned once met"},
	{PROF_REQUIRE, "requires whose if-symbol a recommendation turned on"},
};

/* Phase 1, pins: the hard single-symbol requirements that apply; no
 * answer may take their symbol off what they want. */
static void gen_pins(gen_run *g)
{
	const prof_set *set = g->o->set;
	for (size_t i = 0; i < set->n; i++) {
		const prof_req *r = set->reqs[i];
		if (prof_req_is_hard(r) && req_applies(&g->R, r))
			add_pin(&g->R, r);
	}
}

/* Met already (place p of the set)? */
static bool gen_held(const gen_run *g, uint32_t p)
{
	return g->track.flags[p] & TR_HELD;
}

/* Unmet or given up already? */
static bool gen_failed(const gen_run *g, uint32_t p)
{
	return g->track.flags[p] & TR_FAILED;
}

/* Try one requirement (place p of the set): met (held, a recommendation
 * or soft one pinned), or unmet (hard) or skipped (else) with the
 * reason. */
static void gen_try(gen_run *g, uint32_t p)
{
	const prof_req *r = g->o->set->reqs[p];
	rs *R = &g->R;
	kf_gen_result *res = g->res;
	size_t mark = R->nlog;
	journal_reset(R);
	R->steps = 0;
	bool ok = apply_req(R, r);
	/* nothing answered: nothing held before can break */
	if (ok && R->nlog != mark && !all_hold(R)) {
		/* it broke an earlier one: find which */
		const prof_req *victim = NULL;
		for (uint32_t k = g->track.head; k != PLACE_NONE && !victim;
		     k = g->track.next[k])
			if (!req_holds(R, g->o->set->reqs[k]))
				victim = g->o->set->reqs[k];
		rollback(R, mark);
		ok = false;
		kf_strbuf_reset(&R->fail);
		kf_strbuf_addf(&R->fail,
			       "meeting it breaks %s at %s:%d (",
			       victim ? prof_req_expr(res->arena, victim) : "?",
			       victim && victim->loc.file ? victim->loc.file : "?",
			       victim ? victim->loc.line : 0);
		prof_reason_oneline(victim ? victim->reason : NULL, &R->fail);
		kf_strbuf_addch(&R->fail, ')');
	}
	if (ok) {
		held_append(&g->track, p);
		if (!prof_req_is_hard(r))
			add_pin(R, r);
		return;
	}
	const char *why = kf_arena_strdup(
		res->arena, R->fail.len ? R->fail.buf
					: "no way to meet it was found");
	g->track.flags[p] |= TR_FAILED;
	if (prof_req_is_hard(r)) {
		KF_GROW(res->unmet, res->nunmet + 1, g->aunmet);
		res->unmet[res->nunmet++] = (kf_unmet){r, why};
	} else {
		KF_GROW(res->skipped, res->nskipped + 1, g->askip);
		res->skipped[res->nskipped++] = (kf_skipped){r, why};
	}
}

/* Phase 2, the level passes of gen_passes, in order. */
static void gen_level_passes(gen_run *g)
{
	const prof_set *set = g->o->set;
	for (size_t p = 0; p < sizeof(gen_passes) / sizeof(gen_passes[0]); p++) {
		for (int round = 0; round < 2; round++) {
			for (size_t i = 0; i < set->n; i++) {
				const prof_req *r = set->reqs[i];
				if (r->level != gen_passes[p].level || gen_held(g, (uint32_t)i) ||
				    !req_applies(&g->R, r) || gen_failed(g, (uint32_t)i))
					continue;
				gen_try(g, (uint32_t)i);
			}
		}
	}
}

/* Phase 3b, --check-minimal: no single change can be put back. */
static void gen_check_minimal(gen_run *g)
{
	rs *R = &g->R;
	kc_tree *t = R->t;
	const kf_base *base = g->base;
	kf_gen_result *res = g->res;
	size_t aviol = 0;
	for (kc_menu *m = menu_next(&t->rootmenu, &t->rootmenu); m;
	     m = menu_next(m, &t->rootmenu)) {
		kc_sym *s = m->sym;
		if (!s || !s->name || s->seq >= base->n || sym_is_choice(s) ||
		    (s->type != S_BOOLEAN && s->type != S_TRISTATE))
			continue;
		const char *now = kf_sym_shown(t, s);
		const char *was = base_value(base, s);
		if (same_value(s, now, was) || !sym_is_changeable(t, s))
			continue;
		char *keep = kf_xstrdup(now ? now : "n");
		size_t mark = R->nlog;
		journal_reset(R);
		set_tri(R, s, !was || !strcmp(was, "n") ? KC_NO
			      : !strcmp(was, "m")	 ? KC_MOD
							 : KC_YES);
		const char *after = kf_sym_shown(t, s);
		bool back = same_value(s, after, was) && choice_back(R, base, s);
		bool ok = back && all_hold(R);
		rollback(R, mark);
		if (ok) {
			KF_GROW(res->not_minimal, res->nnot_minimal + 1, aviol);
			res->not_minimal[res->nnot_minimal++] =
				kf_arena_printf(res->arena, "%s=%s", s->name, keep);
		}
		free(keep);
	}
}

/* Phase 3, minimisation: every change no held requirement needs put
 * back; with --check-minimal, the property checked. */
static void gen_minimize(gen_run *g)
{
	if (g->o->minimize)
		minimize(&g->R, g->base);
	if (g->o->check_minimal)
		gen_check_minimal(g);
}

/* Phase 4, the result's values: the result's own warnings, once, as
 * conf prints them (into saved, the caller's list; scratch had the
 * search's); the values computed here serve the counts and
 * explanations below, which change nothing. */
static void gen_final_values(kc_tree *t, kf_diags *saved, kf_diags *scratch)
{
	unsigned i;
	kc_sym *s;
	/* what the search left invalid; then, if any symbol could
	 * warn, everything again, fresh, with the warnings kept:
	 * without a warning the values are the same either way */
	t->calc_lazy = false;
	for_all_symbols(t, i, s) sym_calc_value(t, s);
	bool warns = false;
	for_all_symbols(t, i, s)
	{
		if ((s->type == S_BOOLEAN || s->type == S_TRISTATE) &&
		    s->dir_dep.tri < s->rev_dep.tri) {
			warns = true;
			break;
		}
	}
	t->diags = saved;
	kf_diags_release(scratch);
	if (warns) {
		sym_clear_all_valid(t);
		for_all_symbols(t, i, s) sym_calc_value(t, s);
	} else {
		t->conf_changed = true;
	}
}

/* Phase 5a, the counts; a recommendation that gives way to another
 * profile's requirement is said once, here, with the side that wins. */
static void gen_counts(gen_run *g)
{
	rs *R = &g->R;
	const prof_set *set = g->o->set;
	kf_gen_result *res = g->res;
	for (size_t i = 0; i < set->n; i++) {
		const prof_req *r = set->reqs[i];
		const prof_req *w = r->shadowed_by;
		if (w && prof_req_applies(r, R->kver, g->o->arch) && req_applies(R, w)) {
			kf_strbuf ws = KF_STRBUF_INIT;
			kf_strbuf_addf(&ws, "%s gives way to %s's requirement %s at %s:%d, which wins: ",
				       prof_req_expr(res->arena, r), w->profile ? w->profile : "?",
				       prof_req_expr(res->arena, w), w->loc.file ? w->loc.file : "?",
				       w->loc.line);
			prof_reason_oneline(w->reason, &ws);
			KF_GROW(res->skipped, res->nskipped + 1, g->askip);
			res->skipped[res->nskipped++] =
				(kf_skipped){r, kf_arena_strdup(res->arena, kf_strbuf_str(&ws))};
			kf_strbuf_release(&ws);
		}
		if (!req_applies(R, r))
			res->notapplicable++;
		else if (req_holds(R, r))
			res->applied++;
	}
}

/* Why s changed: the answer's path, the held requirement it serves, or
 * the engine's own reason (select, imply, default). */
static void gen_change_why(gen_run *g, kc_sym *s, const setrec *sr, kf_change *c)
{
	rs *R = &g->R;
	kf_gen_result *res = g->res;
	kf_strbuf w = KF_STRBUF_INIT;
	if (sr && sr->req) {
		c->req = sr->req;
		c->path = kf_arena_strdup(res->arena, set_path(R, sr));
		c->group = group_of(g->o, sr->req);
		if (strchr(c->path, ' '))
			kf_strbuf_addf(&w, "%s (for %s:%d)", c->path,
				       sr->req->loc.file ? sr->req->loc.file : "?",
				       sr->req->loc.line);
		else
			req_text(sr->req, &w);
		if (c->path && strchr(c->path, ' '))
			c->group = "dependencies";
	} else if ((c->req = held_req_for(R, s))) {
		/* a requirement's own symbol that no answer set: it
		 * holds through a select or a default */
		c->group = group_of(g->o, c->req);
		req_text(c->req, &w);
		kf_strbuf_addstr(&w, " (");
		kf_why_line(R->t, s, &w);
		kf_strbuf_addch(&w, ')');
	} else {
		kf_why_line(R->t, s, &w);
		c->group = "dependencies";
	}
	c->why = kf_arena_strdup(res->arena, kf_strbuf_str(&w));
	kf_strbuf_release(&w);
}

/* Phase 5b, the changes relative to the base, in menu order. */
static void gen_changes(gen_run *g)
{
	rs *R = &g->R;
	kc_tree *t = R->t;
	const kf_base *base = g->base;
	kf_gen_result *res = g->res;
	size_t achg = 0;
	/* by symbol seq: 1 + its newest answer's record; whether it was
	 * listed already (a symbol of several menus) */
	size_t *last_set = kf_xcalloc(base->n + 1, sizeof(*last_set));
	bool *listed = kf_xcalloc(base->n + 1, sizeof(*listed));
	for (size_t k = 0; k < R->nsets; k++)
		if (R->sets[k].sym->seq < base->n)
			last_set[R->sets[k].sym->seq] = k + 1;
	for (kc_menu *m = menu_next(&t->rootmenu, &t->rootmenu); m;
	     m = menu_next(m, &t->rootmenu)) {
		kc_sym *s = m->sym;
		if (!s || !s->name || s->seq >= base->n)
			continue;
		const char *now = kf_sym_shown(t, s);
		const char *was = base_value(base, s);
		if (same_value(s, now, was))
			continue;
		size_t sr = last_set[s->seq];
		/* a string or number that appears because its menu became
		 * visible, at its default, is no change anyone made */
		if (!was && !sr && s->type != S_BOOLEAN && s->type != S_TRISTATE)
			continue;
		if (listed[s->seq])
			continue;
		listed[s->seq] = true;
		KF_GROW(res->changes, res->nchanges + 1, achg);
		kf_change *c = &res->changes[res->nchanges++];
		memset(c, 0, sizeof(*c));
		c->sym = s->name;
		c->from = was ? kf_arena_strdup(res->arena, was) : "absent";
		c->to = now ? kf_arena_strdup(res->arena, now) : "absent";
		gen_change_why(g, s, sr ? &R->sets[sr - 1] : NULL, c);
	}
	free(last_set);
	free(listed);
}

/*
 * The resolver, in named phases: pins, the level passes (gen_passes),
 * minimisation, the result's values, the result (counts and changes).
 */
int kf_generate(const kf_gen_opts *o, const kf_base *base, kf_gen_result *res,
		kf_diags *d)
{
	gen_run g = {.o = o, .base = base, .res = res};
	memset(res, 0, sizeof(*res));
	res->arena = kf_arena_new();
	rs_init(&g.R, o, res->arena);
	kc_tree *t = o->tree;
	/* the search evaluates many configurations that are never written:
	 * their warnings are not the result's */
	kf_diags scratch = KF_DIAGS_INIT;
	kf_diags *saved_diags = t->diags;
	t->diags = &scratch;
	t->calc_lazy = true;

	gen_pins(&g);
	track_init(&g.R, &g.track, o->set);
	kc_journal journal = {0};
	t->journal = &journal;
	t->jtag = g.R.nlog;
	gen_level_passes(&g);
	gen_minimize(&g);
	t->journal = NULL;
	free(journal.v);

	gen_final_values(t, saved_diags, &scratch);
	gen_counts(&g);
	gen_changes(&g);
	res->evaluations = (int)g.R.nlog;

	rs_release(&g.R);
	track_release(&g.track);
	(void)d;
	return res->nunmet ? 1 : 0;
}

void kf_gen_result_release(kf_gen_result *res)
{
	free(res->not_minimal);
	free(res->changes);
	free(res->unmet);
	free(res->skipped);
	kf_arena_free(res->arena);
	memset(res, 0, sizeof(*res));
}

/* ---------------- why, with profiles ---------------- */

/* The answers the search made since mark, as "A=n, B=y". */
static void answers_since(rs *R, size_t mark, kf_strbuf *out)
{
	size_t start = out->len;
	for (size_t i = mark; i < R->nlog; i++) {
		kc_sym *s = R->log[i].sym;
		if (!s->name)
			continue;
		bool dup = false;
		for (size_t k = mark; k < i && !dup; k++)
			dup = R->log[k].sym == s;
		if (dup)
			continue;
		if (out->len > start)
			kf_strbuf_addstr(out, ", ");
		if (s->type == S_BOOLEAN || s->type == S_TRISTATE)
			kf_strbuf_addf(out, "%s=%s", s->name,
				       tri_name(s->def[S_DEF_USER].tri));
		else
			kf_strbuf_addf(out, "%s=%s", s->name,
				       s->def[S_DEF_USER].val ? (const char *)s->def[S_DEF_USER].val : "");
	}
}

int kf_why_profiles(const kf_gen_opts *o, const char *name, kf_strbuf *out)
{
	rs R;
	rs_init(&R, o, kf_arena_new());
	kc_tree *t = o->tree;
	prof_set *set = o->set;
	kc_sym *s = sym_find(t, name);
	if (!s || (s->flags & SYMBOL_CONST) || s->type == S_UNKNOWN) {
		kf_arena_free(R.arena);
		return -1;
	}
	kf_diags scratch = KF_DIAGS_INIT;
	kf_diags *saved_diags = t->diags;
	t->diags = &scratch;

	/* requirements that name the symbol */
	const prof_req **before = kf_xcalloc(set->n + 1, sizeof(*before));
	size_t nbefore = 0;
	bool named = false;
	for (size_t i = 0; i < set->n; i++) {
		const prof_req *r = set->reqs[i];
		if (!req_applies(&R, r)) {
			/* one whose condition on another option's value
			 * is false here: say so, it is why nothing wants it */
			if (r->shadowed_by || !prof_req_applies(r, R.kver, o->arch) ||
			    !r->cond.if_alt || r->cond.if_alt->want == PROF_WANT_ENABLED)
				continue;
			for (size_t k = 0; k < r->nalts; k++)
				if (lookup(&R, r->alts[k].sym) == s) {
					kf_strbuf_addf(out, "  %s by: ",
						       r->level == PROF_REQUIRE ? "required" : "recommended");
					req_text(r, out);
					kf_strbuf_addf(out, " (does not apply: %s)\n",
						       prof_cond_text(R.arena, &r->cond));
					named = true;
					break;
				}
			continue;
		}
		bool holds = req_holds(&R, r);
		if (holds)
			before[nbefore++] = r;
		for (size_t k = 0; k < r->nalts; k++)
			if (lookup(&R, r->alts[k].sym) == s) {
				kf_strbuf_addf(out, "  %s by: ",
					       r->level == PROF_REQUIRE ? "required" : "recommended");
				req_text(r, out);
				kf_strbuf_addf(out, " (%s)\n", holds ? "holds" : "does not hold");
				/* what it wants of a list, with which other
				 * symbols (a group), or under which value of
				 * another option, is not in the symbol's name */
				if (r->alts[k].want == PROF_WANT_CONTAINS ||
				    r->alts[k].want == PROF_WANT_LACKS || prof_req_has_groups(r) ||
				    (r->cond.if_alt && r->cond.if_alt->want != PROF_WANT_ENABLED)) {
					const char *c = prof_cond_text(R.arena, &r->cond);
					kf_strbuf_addf(out, "    wants %s%s%s\n",
						       prof_req_expr(R.arena, r), *c ? " " : "", c);
				}
				named = true;
				break;
			}
	}
	if (!named)
		kf_strbuf_addstr(out, "  no requirement of these profiles names it\n");

	/* what flipping it would take, and which requirements it would break */
	sym_calc_value(t, s);
	bool on = s->type == S_BOOLEAN || s->type == S_TRISTATE
			  ? s->curr.tri != KC_NO
			  : false;
	if (s->type == S_BOOLEAN || s->type == S_TRISTATE) {
		size_t mark = R.nlog;
		R.depth = 0;
		bool ok = on ? need_off(&R, s) : need_on(&R, s, KC_MOD);
		kf_strbuf_addf(out, "  turning it %s: ", on ? "off" : "on");
		if (!ok) {
			kf_strbuf_addf(out, "not possible: %s\n", kf_strbuf_str(&R.fail));
		} else {
			kf_strbuf_addstr(out, "answer ");
			answers_since(&R, mark, out);
			kf_strbuf_addch(out, '\n');
			size_t broken = 0;
			for (size_t i = 0; i < nbefore; i++)
				if (!req_holds(&R, before[i])) {
					kf_strbuf_addf(out, "  %s: ",
						       on ? "needed by" : "would break");
					req_text(before[i], out);
					kf_strbuf_addch(out, '\n');
					broken++;
				}
			if (!broken)
				kf_strbuf_addf(out, "  no requirement of these profiles breaks when it is %s\n",
					       on ? "off" : "on");
		}
		rollback(&R, mark);
	}

	t->diags = saved_diags;
	kf_diags_release(&scratch);
	sym_clear_all_valid(t);
	rs_release(&R);
	free(before);
	kf_arena_free(R.arena);
	return 0;
}
