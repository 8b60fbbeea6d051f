/*
 * recalc.c - the incremental recalculation of lib/kconfig/kc_sym.c against
 * the full one, on random synthetic trees.
 *
 * The resolver changes one answer at a time and recalculates only what can
 * read it (sym_invalidate: the dependents index), and takes a trial back
 * by putting the calculated state back from the journal (kc_journal_undo)
 * instead of recalculating.  Both must give exactly what the kernel's way
 * gives: every value invalid after each change (sym_clear_all_valid).
 *
 * Each case writes a random Kconfig (bool, tristate, int, hex and string
 * symbols; prompts with conditions, depends on, select, imply, defaults
 * with conditions, ranges, menus with visible if, if blocks, choices, the
 * modules symbol), loads it twice, and applies the same random walk of
 * changes and take-backs to both trees: tree A the resolver's way (the
 * journal on, sym_invalidate, kc_journal_undo as lib/generate/solve.c's
 * rollback does it), tree B the kernel's way.  After every step each
 * symbol's value, visibility, string and "written" flag must be the same
 * in both.  Trees of 6.1 (the V1 semantics) and 6.12 (V2).  Symbols only
 * refer to earlier ones (select and imply to later ones), so no tree has
 * a recursive dependency.
 *
 * Prints "ok NAME" / "not ok NAME" (+ "  ..." detail lines) per case.
 */
#include "kfit/kconfig.h"
#include "kc_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- a small deterministic PRNG (xorshift64*) ---- */

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return n ? (uint32_t)((rng_state * 2685821657736338717ULL) >> 33) % n : 0;
}

/* ---- the random tree ---- */

#define NSYM 48

enum gtype { G_BOOL, G_TRI, G_INT, G_HEX, G_STRING };

typedef struct gsym {
	enum gtype type;
	bool prompt;   /* has a prompt (can take an answer) */
	bool member;   /* member of a choice */
} gsym;

static gsym gs[NSYM];

/* A random condition over symbols before i ("" when none). */
static void rnd_expr(kf_strbuf *sb, int i, int depth)
{
	if (i <= 1 || (depth > 0 && rnd(3) == 0)) {
		kf_strbuf_addstr(sb, rnd(2) ? "y" : "MODULES");
		return;
	}
	int j = 1 + (int)rnd((uint32_t)(i - 1));
	switch (depth < 2 ? rnd(7) : rnd(3)) {
	case 0:
	case 1:
		if (gs[j].type == G_INT || gs[j].type == G_HEX)
			kf_strbuf_addf(sb, "S%d %s %d", j, rnd(2) ? ">" : "<=", (int)rnd(8));
		else if (gs[j].type == G_STRING)
			kf_strbuf_addf(sb, "S%d = \"%s\"", j, rnd(2) ? "a" : "b");
		else
			kf_strbuf_addf(sb, "S%d", j);
		return;
	case 2:
		if (gs[j].type == G_BOOL || gs[j].type == G_TRI) {
			kf_strbuf_addf(sb, "S%d %s %s", j, rnd(2) ? "=" : "!=",
				       rnd(3) == 0 ? "m" : rnd(2) ? "y" : "n");
			return;
		}
		kf_strbuf_addf(sb, "S%d != S%d", j, 1 + (int)rnd((uint32_t)(i - 1)));
		return;
	case 3:
		kf_strbuf_addch(sb, '!');
		rnd_expr(sb, i, depth + 1);
		return;
	case 4:
		kf_strbuf_addch(sb, '(');
		rnd_expr(sb, i, depth + 1);
		kf_strbuf_addstr(sb, " && ");
		rnd_expr(sb, i, depth + 1);
		kf_strbuf_addch(sb, ')');
		return;
	default:
		kf_strbuf_addch(sb, '(');
		rnd_expr(sb, i, depth + 1);
		kf_strbuf_addstr(sb, " || ");
		rnd_expr(sb, i, depth + 1);
		kf_strbuf_addch(sb, ')');
		return;
	}
}

static const char *type_kw(enum gtype t)
{
	static const char *const kw[] = {"bool", "tristate", "int", "hex", "string"};
	return kw[t];
}

static void rnd_default(kf_strbuf *sb, int i)
{
	switch (gs[i].type) {
	case G_BOOL:
	case G_TRI:
		if (i > 1 && rnd(3) == 0) {
			kf_strbuf_addstr(sb, "\tdefault ");
			rnd_expr(sb, i, 1);
		} else {
			kf_strbuf_addf(sb, "\tdefault %s", rnd(3) == 0 ? "m" : rnd(2) ? "y" : "n");
		}
		break;
	case G_INT:
		kf_strbuf_addf(sb, "\tdefault %d", (int)rnd(10));
		break;
	case G_HEX:
		kf_strbuf_addf(sb, "\tdefault 0x%x", (unsigned)rnd(10));
		break;
	case G_STRING:
		kf_strbuf_addf(sb, "\tdefault \"%s\"", rnd(2) ? "a" : "b");
		break;
	}
	if (i > 1 && rnd(2)) {
		kf_strbuf_addstr(sb, " if ");
		rnd_expr(sb, i, 1);
	}
	kf_strbuf_addch(sb, '\n');
}

/* The body of symbol i: type, prompt, dependencies, defaults, select.
 * Its conditions name symbols before lim (a choice's members: the
 * symbols before the choice, or the group would depend on itself). */
static void rnd_body(kf_strbuf *sb, int i, int lim, bool v2)
{
	kf_strbuf_addf(sb, "\t%s", type_kw(gs[i].type));
	if (gs[i].prompt) {
		kf_strbuf_addf(sb, " \"s%d\"", i);
		if (lim > 1 && rnd(4) == 0) {
			kf_strbuf_addstr(sb, " if ");
			rnd_expr(sb, lim, 1);
		}
	}
	kf_strbuf_addch(sb, '\n');
	if (lim > 1 && rnd(2)) {
		kf_strbuf_addstr(sb, "\tdepends on ");
		rnd_expr(sb, lim, 0);
		kf_strbuf_addch(sb, '\n');
	}
	if (gs[i].member) /* 6.11+ rejects defaults on choice members */
		return;
	for (int k = (int)rnd(3); k > 0; k--)
		rnd_default(sb, i);
	if ((gs[i].type == G_INT || gs[i].type == G_HEX) && rnd(2))
		kf_strbuf_addf(sb, "\trange %s%d %s%d\n", gs[i].type == G_HEX ? "0x" : "",
			       (int)rnd(3), gs[i].type == G_HEX ? "0x" : "", 3 + (int)rnd(6));
	if (gs[i].type == G_BOOL || gs[i].type == G_TRI) {
		for (int k = (int)rnd(3); k > 0; k--) {
			int j = i + 1 + (int)rnd(NSYM - 1 - (uint32_t)i > 0 ? (uint32_t)(NSYM - 1 - i) : 1);
			if (j >= NSYM || (gs[j].type != G_BOOL && gs[j].type != G_TRI) || gs[j].member)
				continue;
			kf_strbuf_addf(sb, "\t%s S%d", rnd(3) == 0 ? "imply" : "select", j);
			if (rnd(2)) {
				kf_strbuf_addstr(sb, " if ");
				rnd_expr(sb, lim, 1);
			}
			kf_strbuf_addch(sb, '\n');
		}
	}
	(void)v2;
}

/* The whole Kconfig of one case. */
static void rnd_tree(kf_strbuf *sb, bool v2)
{
	for (int i = 0; i < NSYM; i++) {
		uint32_t r = rnd(20);
		gs[i].type = r < 10 ? G_BOOL : r < 16 ? G_TRI : r < 17 ? G_INT : r < 18 ? G_HEX : G_STRING;
		gs[i].prompt = rnd(5) != 0;
		gs[i].member = false;
	}
	kf_strbuf_addstr(sb, "config MODULES\n\tbool \"modules\"\n\tmodules\n\tdefault y\n");
	int open_if = 0, open_menu = 0;
	for (int i = 1; i < NSYM; i++) {
		uint32_t r = rnd(24);
		if (r == 0 && i > 2 && !open_if && !open_menu) {
			kf_strbuf_addstr(sb, "if ");
			rnd_expr(sb, i, 1);
			kf_strbuf_addch(sb, '\n');
			open_if = 4 + (int)rnd(6);
		} else if (r == 1 && !open_menu && !open_if) {
			kf_strbuf_addf(sb, "menu \"m%d\"\n", i);
			if (i > 2 && rnd(2)) {
				kf_strbuf_addstr(sb, "\tvisible if ");
				rnd_expr(sb, i, 1);
				kf_strbuf_addch(sb, '\n');
			}
			if (i > 2 && rnd(2)) {
				kf_strbuf_addstr(sb, "\tdepends on ");
				rnd_expr(sb, i, 1);
				kf_strbuf_addch(sb, '\n');
			}
			open_menu = 3 + (int)rnd(6);
		} else if (r == 2 && i + 3 < NSYM) {
			/* a choice of 2 or 3 members */
			int n = 2 + (int)rnd(2);
			bool tri = !v2 && rnd(3) == 0; /* tristate choices went in 6.11 */
			kf_strbuf_addf(sb, "choice\n\tprompt \"c%d\"\n", i);
			if (tri)
				kf_strbuf_addstr(sb, "\ttristate\n");
			if (!v2 && rnd(4) == 0) /* gone in 6.11 */
				kf_strbuf_addstr(sb, "\toptional\n");
			if (i > 1 && rnd(2)) {
				kf_strbuf_addstr(sb, "\tdepends on ");
				rnd_expr(sb, i, 1);
				kf_strbuf_addch(sb, '\n');
			}
			if (rnd(2))
				kf_strbuf_addf(sb, "\tdefault S%d\n", i + 1 + (int)rnd((uint32_t)n - 1));
			int first = i;
			for (int k = 0; k < n; k++, i++) {
				gs[i].type = tri ? G_TRI : G_BOOL;
				gs[i].prompt = true;
				gs[i].member = true;
				kf_strbuf_addf(sb, "config S%d\n", i);
				rnd_body(sb, i, first, v2);
			}
			i--;
			kf_strbuf_addstr(sb, "endchoice\n");
			continue;
		}
		kf_strbuf_addf(sb, "config S%d\n", i);
		rnd_body(sb, i, i, v2);
		if (open_if && --open_if == 0)
			kf_strbuf_addstr(sb, "endif\n");
		if (open_menu && --open_menu == 0)
			kf_strbuf_addstr(sb, "endmenu\n");
	}
	if (open_if)
		kf_strbuf_addstr(sb, "endif\n");
	if (open_menu)
		kf_strbuf_addstr(sb, "endmenu\n");
}

/* ---- the walk ---- */

typedef struct undo {
	kc_sym *a, *b;      /* the symbol in tree A and tree B */
	kc_value da, db;    /* answers before */
	unsigned fa, fb;    /* flags before */
	unsigned edits;     /* A's calc_edits before */
	kc_sym **ma, **mb;  /* 6.11+ choice: member orders before */
} undo;

static int failed;

static void report(bool ok, const char *name, const char *fmt, ...) KF_PRINTF(3, 4);

static void report(bool ok, const char *name, const char *fmt, ...)
{
	printf("%s %s\n", ok ? "ok" : "not ok", name);
	if (!ok) {
		va_list ap;
		va_start(ap, fmt);
		fputs("  ", stdout);
		vprintf(fmt, ap);
		fputc('\n', stdout);
		va_end(ap);
		failed++;
	}
	fflush(stdout);
}

/*
 * Every symbol the same in both trees; the first difference in why.
 * settled: both trees were just invalidated whole and are calculated in
 * menu order, as conf writes a .config.  Otherwise the "written" flag of
 * a choice's member before 6.11 is not compared: the kernel sets it from
 * the choice's calculation when the member's visibility, as last
 * calculated, is not n, and the choice is calculated in the middle of
 * the member's own visibility (its members depend on it); so even a
 * whole recalculation gives a different flag depending on what was
 * calculated before (a member that went invisible stays "written" until
 * it is calculated once more).  When the values are settled, that last
 * calculation is the same in both.
 */
static bool same(kc_tree *a, kc_tree *b, bool settled, kf_strbuf *why)
{
	unsigned i;
	kc_sym *s;
	sym_calc_value(a, a->modules_sym);
	sym_calc_value(b, b->modules_sym);
	if (settled)
		for (kc_tree *t = a; t; t = t == a ? b : NULL)
			for (kc_menu *m = menu_next(&t->rootmenu, &t->rootmenu); m;
			     m = menu_next(m, &t->rootmenu))
				if (m->sym)
					sym_calc_value(t, m->sym);
	for_all_symbols(a, i, s)
	{
		if (!s->name || (s->flags & SYMBOL_CONST))
			continue;
		bool cmp_write = settled || a->sem == KC_SEM_V2 || !sym_is_choice_value_v1(s);
		kc_sym *o = sym_find(b, s->name);
		if (!o) {
			kf_strbuf_addf(why, "%s missing in tree B", s->name);
			return false;
		}
		sym_calc_value(a, s);
		sym_calc_value(b, o);
		const char *va = sym_get_string_value(a, s), *vb = sym_get_string_value(b, o);
		if (strcmp(va, vb) || s->visible != o->visible ||
		    (cmp_write && (s->flags & SYMBOL_WRITE) != (o->flags & SYMBOL_WRITE)) ||
		    s->curr.tri != o->curr.tri) {
			kf_strbuf_addf(why,
				       "%s: incremental %s (visible %d, written %d), full %s "
				       "(visible %d, written %d)",
				       s->name, va, s->visible, !!(s->flags & SYMBOL_WRITE), vb,
				       o->visible, !!(o->flags & SYMBOL_WRITE));
			return false;
		}
	}
	return true;
}

/* What tree A's symbols were at the last journal reset (by seq): a
 * symbol valid now and without a journal entry must still be that
 * (kc_journal_touched; solve.c skips re-checking such requirements). */
typedef struct was {
	bool set;
	kc_tri tri, visible;
	bool write;
	char *str;
} was;

static void remember(kc_tree *a, was *w, size_t n)
{
	unsigned i;
	kc_sym *s;
	for (size_t k = 0; k < n; k++) {
		free(w[k].str);
		w[k] = (was){0};
	}
	for_all_symbols(a, i, s)
	{
		if (!s->name || (s->flags & SYMBOL_CONST) || s->seq >= n)
			continue;
		sym_calc_value(a, s);
		w[s->seq] = (was){true, s->curr.tri, s->visible, !!(s->flags & SYMBOL_WRITE),
				  kf_xstrdup(sym_get_string_value(a, s))};
	}
}

static bool untouched_same(kc_tree *a, const was *w, size_t n, kf_strbuf *why)
{
	unsigned i;
	kc_sym *s;
	for_all_symbols(a, i, s)
	{
		if (!s->name || (s->flags & SYMBOL_CONST) || s->seq >= n || !w[s->seq].set ||
		    !sym_is_valid(a, s) || kc_journal_touched(a, s))
			continue;
		const was *x = &w[s->seq];
		bool cmp_write = a->sem == KC_SEM_V2 || !sym_is_choice_value_v1(s);
		const char *v = sym_get_string_value(a, s);
		if (s->curr.tri != x->tri || s->visible != x->visible || strcmp(v, x->str) ||
		    (cmp_write && !!(s->flags & SYMBOL_WRITE) != x->write)) {
			kf_strbuf_addf(why,
				       "%s: valid and not journaled since the reset, but %s "
				       "(visible %d, written %d) where it was %s (visible %d, "
				       "written %d)",
				       s->name, v, s->visible, !!(s->flags & SYMBOL_WRITE), x->str,
				       x->visible, x->write);
			return false;
		}
	}
	return true;
}

static void save_members(kc_sym *s, kc_sym ***out)
{
	*out = NULL;
	if (s->choice) {
		*out = kf_xmalloc(s->choice->nmembers * sizeof(kc_sym *));
		memcpy(*out, s->choice->members, s->choice->nmembers * sizeof(kc_sym *));
	}
}

static void put_members(kc_sym *s, kc_sym **m)
{
	if (m) {
		memcpy(s->choice->members, m, s->choice->nmembers * sizeof(kc_sym *));
		free(m);
	}
}

/* Give s (in both trees) a new answer, as solve.c's set_tri/set_str do. */
static void change(kc_tree *a, kc_tree *b, undo *u, size_t nlog, kc_sym *s, kc_sym *o,
		   kf_strbuf *what)
{
	u->a = s;
	u->b = o;
	u->da = s->def[S_DEF_USER];
	u->db = o->def[S_DEF_USER];
	u->fa = s->flags;
	u->fb = o->flags;
	u->edits = a->calc_edits;
	u->ma = u->mb = NULL;
	if (a->sem == KC_SEM_V2) {
		save_members(s, &u->ma);
		save_members(o, &u->mb);
	}
	a->jtag = nlog + 1;
	const char *sv = NULL;
	kc_tri tv = KC_NO;
	switch (s->type) {
	case S_BOOLEAN:
	case S_TRISTATE:
		tv = (kc_tri)rnd(s->type == S_TRISTATE ? 3 : 2);
		kf_strbuf_addf(what, " %s=%c", s->name, "nmy"[tv]);
		break;
	case S_INT:
		sv = kf_arena_printf(a->arena, "%d", (int)rnd(10));
		break;
	case S_HEX:
		sv = kf_arena_printf(a->arena, "0x%x", (unsigned)rnd(10));
		break;
	default:
		sv = rnd(2) ? "a" : "b";
		break;
	}
	if (sv)
		kf_strbuf_addf(what, " %s=%s", s->name, sv);
	kc_tree *tr[2] = {a, b};
	kc_sym *sy[2] = {s, o};
	for (int k = 0; k < 2; k++) {
		kc_sym *x = sy[k];
		if (sv)
			x->def[S_DEF_USER].val = kf_arena_strdup(tr[k]->arena, sv);
		else
			x->def[S_DEF_USER].tri = tv;
		x->flags |= SYMBOL_DEF_USER;
		if (tv == KC_YES && tr[k]->sem == KC_SEM_V2 && x->choice)
			choice_member_move_front(x->choice, x);
	}
	sym_invalidate(a, &s, 1);
	sym_clear_all_valid(b);
}

/* Take back the changes from mark on, as solve.c's rollback does. */
static void take_back(kc_tree *a, kc_tree *b, undo *log, size_t *nlog, size_t mark)
{
	if (*nlog == mark)
		return;
	bool put_back = log[mark].edits == a->calc_edits;
	kc_sym **undone = kf_xmalloc((*nlog - mark) * sizeof(*undone));
	size_t nundo = 0;
	while (*nlog > mark) {
		undo *u = &log[--*nlog];
		undone[nundo++] = u->a;
		u->a->def[S_DEF_USER] = u->da;
		u->a->flags = (u->a->flags & ~SYMBOL_DEF_USER) | (u->fa & SYMBOL_DEF_USER);
		u->b->def[S_DEF_USER] = u->db;
		u->b->flags = (u->b->flags & ~SYMBOL_DEF_USER) | (u->fb & SYMBOL_DEF_USER);
		put_members(u->a, u->ma);
		put_members(u->b, u->mb);
	}
	a->jtag = mark;
	if (put_back) {
		kc_journal_undo(a, mark);
	} else {
		kc_journal_drop(a, mark);
		sym_invalidate(a, undone, nundo);
	}
	free(undone);
	sym_clear_all_valid(b);
}

static bool has_prompt(kc_sym *s)
{
	kc_prop *p;
	for_all_prompts(s, p)
		return true;
	return false;
}

/* The top Makefile's toolchain probes: no command runs in this test. */
static char *no_shell(void *ctx, const char *cmd)
{
	(void)ctx;
	(void)cmd;
	return kf_xstrdup("");
}

static kc_tree *load(const char *dir, kf_diags *d)
{
	kc_load_opts o = {.srctree = dir, .arch = "x86_64", .shell_fn = no_shell};
	return kc_tree_load(&o, d);
}

#define STEPS 160

/* One random tree, one random walk: true when both trees agreed. */
static bool one_case(const char *dir, bool v2, bool lazy, unsigned seed, kf_strbuf *why)
{
	rng_state = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)seed << 17) ^ seed;
	kf_strbuf kc = KF_STRBUF_INIT;
	rnd_tree(&kc, v2);
	kf_diags d = KF_DIAGS_INIT;
	char *mk = kf_xasprintf("VERSION = 6\nPATCHLEVEL = %s\nSUBLEVEL = 0\nEXTRAVERSION =\n",
				v2 ? "12" : "1");
	char *p1 = kf_xasprintf("%s/Makefile", dir), *p2 = kf_xasprintf("%s/Kconfig", dir);
	bool ok = kf_write_file_atomic(p1, mk, strlen(mk), false, &d) == 0 &&
		  kf_write_file_atomic(p2, kf_strbuf_str(&kc), kc.len, false, &d) == 0;
	free(mk);
	free(p1);
	free(p2);
	kc_tree *a = ok ? load(dir, &d) : NULL, *b = ok ? load(dir, &d) : NULL;
	if (!a || !b || d.nerr) {
		kf_strbuf_addstr(why, "the random tree did not load:");
		for (size_t k = 0; k < d.n; k++)
			kf_strbuf_addf(why, "\n  %s:%d: %s", d.v[k].file ? d.v[k].file : "-",
				       d.v[k].line, d.v[k].msg);
		kf_strbuf_addf(why, "\n%s", kf_strbuf_str(&kc));
		ok = false;
		goto out;
	}
	kc_journal journal = {0};
	a->journal = &journal;
	a->calc_lazy = lazy; /* as the generate search calculates */
	a->jtag = 0;
	/* what can take an answer */
	kc_sym *cand[NSYM + 1];
	size_t ncand = 0;
	unsigned i;
	kc_sym *s;
	for_all_symbols(a, i, s)
	{
		if (s->name && !(s->flags & SYMBOL_CONST) && s->type != S_UNKNOWN &&
		    ncand < NSYM + 1 && has_prompt(s))
			cand[ncand++] = s;
	}
	undo log[STEPS];
	size_t nlog = 0;
	size_t marks[STEPS];
	size_t nmarks = 0;
	kf_strbuf what = KF_STRBUF_INIT;
	ok = same(a, b, false, why);
	size_t nwas = a->nsyms;
	was *w = kf_xcalloc(nwas ? nwas : 1, sizeof(*w));
	if (ok)
		remember(a, w, nwas);
	for (int step = 0; ok && step < STEPS && ncand; step++) {
		kf_strbuf_reset(&what);
		uint32_t r = rnd(10);
		if (r < 2 && nmarks) {
			/* take back to a mark */
			size_t m = marks[--nmarks];
			kf_strbuf_addf(&what, "take back %zu change(s)", nlog - m);
			take_back(a, b, log, &nlog, m);
		} else if (r < 3 && !nmarks) {
			/* the search's top: nothing before can be taken back
			 * (solve.c's journal_reset; the log and its tags go on) */
			journal.n = 0;
			remember(a, w, nwas);
			kf_strbuf_addstr(&what, "journal reset");
		} else if (nlog < STEPS) {
			if (rnd(3) == 0 && nmarks < STEPS)
				marks[nmarks++] = nlog;
			kc_sym *x = cand[rnd((uint32_t)ncand)];
			kf_strbuf_addstr(&what, "change");
			change(a, b, &log[nlog], nlog, x, sym_find(b, x->name), &what);
			nlog++;
		}
		if (getenv("RECALC_TRACE"))
			fprintf(stderr, "seed %u step %d: %s (nlog %zu, marks %zu, journal %zu)\n",
				seed, step, kf_strbuf_str(&what), nlog, nmarks, journal.n);
		bool settle = step % 16 == 15;
		if (settle) {
			sym_clear_all_valid(a);
			sym_clear_all_valid(b);
		}
		if (!untouched_same(a, w, nwas, why) || !same(a, b, settle, why)) {
			kf_strbuf_addf(why, "\n  after step %d (%s) of seed %u (%s); the tree:\n%s",
				       step, kf_strbuf_str(&what), seed, v2 ? "6.12" : "6.1",
				       kf_strbuf_str(&kc));
			ok = false;
		}
	}
	for (size_t k = 0; k < nlog; k++) {
		free(log[k].ma);
		free(log[k].mb);
	}
	kf_strbuf_release(&what);
	for (size_t k = 0; k < nwas; k++)
		free(w[k].str);
	free(w);
	a->journal = NULL;
	free(journal.v);
out:
	kc_tree_free(a);
	kc_tree_free(b);
	kf_diags_release(&d);
	kf_strbuf_release(&kc);
	return ok;
}

int main(int argc, char **argv)
{
	unsigned ncases = argc > 1 ? (unsigned)atoi(argv[1]) : 120;
	char tmpl[] = "/tmp/kfit-recalc.XXXXXX";
	char *dir = mkdtemp(tmpl);
	if (!dir) {
		printf("not ok setup\n  mkdtemp failed\n");
		return 1;
	}
	for (int run = 0; run < 4; run++) {
		bool v2 = run & 1, lazy = run & 2;
		unsigned bad = 0, seed_bad = 0;
		kf_strbuf why = KF_STRBUF_INIT;
		for (unsigned seed = 1; seed <= ncases; seed++) {
			kf_strbuf one = KF_STRBUF_INIT;
			if (!one_case(dir, v2, lazy, seed, &one)) {
				if (!bad++) {
					seed_bad = seed;
					kf_strbuf_add(&why, one.buf ? one.buf : "", one.len);
				}
			}
			kf_strbuf_release(&one);
		}
		static const char *const names[] = {
			"incremental-equals-full-6.1", "incremental-equals-full-6.12",
			"incremental-lazy-equals-full-6.1", "incremental-lazy-equals-full-6.12"};
		report(!bad, names[run], "%u of %u random trees differ; the first (seed %u): %s", bad, ncases,
		       seed_bad, kf_strbuf_str(&why));
		kf_strbuf_release(&why);
	}
	char *mk = kf_xasprintf("%s/Makefile", dir), *kc = kf_xasprintf("%s/Kconfig", dir);
	unlink(mk);
	unlink(kc);
	free(mk);
	free(kc);
	rmdir(dir);
	return failed ? 1 : 0;
}
