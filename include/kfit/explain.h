/*
 * explain.h - why a symbol has its value in a tree's current
 * configuration, in words (`kfit why`, `kfit diff -k`).  The resolver's
 * explanations of its own changes are in its result (solve.h).
 */
#ifndef KFIT_EXPLAIN_H
#define KFIT_EXPLAIN_H

#include "kfit/kconfig.h"
#include "kfit/solve.h"
#include "kfit/util.h"

/*
 * Why does SYMBOL have its value in the tree's current configuration?
 * Appends a human-readable explanation: value, what set it (user value,
 * select by X, imply, default and its condition), and what it would take
 * to change it.  Returns -1 when the tree has no such symbol.
 */
int kf_why(kc_tree *t, const char *sym, kf_strbuf *out);

/* One line: what gives SYMBOL its current value ("selected by X",
 * "default y if ..."), and the title of the menu it is in. */
int kf_why_short(kc_tree *t, const char *sym, kf_strbuf *why, const char **menu);

/* The same line for a symbol in hand (the resolver's explanations). */
void kf_why_line(kc_tree *t, kc_sym *s, kf_strbuf *out);

/*
 * For each change of a generation (res->changes, in order), the
 * requirement it serves: its own (changes[i].req), or for a change that
 * followed from others (a select, an imply, a default, a dependency) the
 * requirement of a changed symbol it follows from.  owner has
 * res->nchanges slots; a slot stays NULL when nothing traces it.  The
 * tree must hold the generation's result.
 */
void kf_explain_owners(kc_tree *t, const kf_gen_result *res, const prof_req **owner);

#endif
