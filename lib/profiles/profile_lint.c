/*
 * profile_lint.c - check the profile database as a whole: each profile
 * resolves on its own, distro profiles carry their metadata, sources name
 * real documents, and (given kernel trees) every symbol exists in each tree
 * where the requirement's version range says it applies.
 */
#include "profile_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Add the diagnostics of src to d, skipping ones d already holds. */
static size_t merge_unique(kf_diags *d, const kf_diags *src)
{
	size_t added = 0;
	for (size_t i = 0; i < src->n; i++) {
		const kf_diag *x = &src->v[i];
		if (x->raw)
			continue;
		bool dup = false;
		for (size_t k = 0; k < d->n && !dup; k++) {
			const kf_diag *y = &d->v[k];
			if (y->raw || y->line != x->line || y->col != x->col || strcmp(y->msg, x->msg))
				continue;
			dup = (!y->file && !x->file) || (y->file && x->file && !strcmp(y->file, x->file));
		}
		if (dup)
			continue;
		kf_diag_add(d, x->sev, x->file, x->line, x->col, "%s", x->msg);
		if (x->sev == KF_ERROR)
			added++;
	}
	return added;
}

static bool source_ok(const char *s)
{
	return !strncmp(s, "https://", 8) || !strncmp(s, "http://", 7) || strchr(s, '/');
}

static void lint_sources(const prof_db *db, kf_diags *out)
{
	for (size_t i = 0; i < db->n; i++) {
		const prof_profile *p = db->profs[i];
		for (size_t k = 0; k < p->nsources; k++)
			if (!source_ok(p->sources[k]))
				kf_diag_add(out, KF_ERROR, p->loc.file, p->loc.line, p->loc.col,
					    "profile %s: source '%s' is not a URL or a document path",
					    p->name, p->sources[k]);
		for (size_t s = 0; s < p->nstmts; s++) {
			const prof_stmt *st = &p->stmts[s];
			const char *const *src = st->kind == PROF_ST_REQ ? st->req->sources : st->sources;
			size_t n = st->kind == PROF_ST_REQ ? st->req->nsources : st->nsources;
			for (size_t k = 0; k < n; k++)
				if (!source_ok(src[k]))
					kf_diag_add(out, KF_ERROR, st->loc.file, st->loc.line, st->loc.col,
						    "source '%s' is not a URL or a document path", src[k]);
		}
		if (!p->title)
			kf_diag_add(out, KF_ERROR, p->loc.file, p->loc.line, p->loc.col,
				    "profile %s has no title", p->name);
	}
	for (size_t i = 0; i < db->nren; i++)
		for (size_t k = 0; k < db->renames[i].nsources; k++)
			if (!source_ok(db->renames[i].sources[k]))
				kf_diag_add(out, KF_ERROR, db->renames[i].loc.file,
					    db->renames[i].loc.line, db->renames[i].loc.col,
					    "source '%s' is not a URL or a document path",
					    db->renames[i].sources[k]);
}

/*
 * Words in a reason that describe the other level: a `require` is for what
 * fails to boot or loses a core function, a `recommend` for what degrades,
 * warns or falls back (docs/profiles.md, "Rules the data follows").
 */
static const char *const require_contradictions[] = {
	"falls back", "fall back", "falling back", "ignores", "ignoring", "ignored",
	"optional", "degrades", "degraded", "still works", "only recommended", NULL,
};
static const char *const recommend_contradictions[] = {
	"fails to boot", "fail to boot", "cannot boot", "does not boot", "boot fails",
	"cannot mount", "will fail to work", NULL,
};
/* A reason states the userspace need in a document's words, not ours. */
static const char *const own_tools[] = {"kfit", "make e2e", "e2e", NULL};

/* Part of a word or a file name ("renames.kfit" is no mention of kfit). */
static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '/';
}

/* First case-insensitive whole-word occurrence of w in s, or NULL. */
static const char *find_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = s; *p; p++) {
		if (strncasecmp(p, w, n))
			continue;
		bool left = p == s || !(word_char(p[-1]) || p[-1] == '.');
		bool right = !word_char(p[n]) && !(p[n] == '.' && word_char(p[n + 1]));
		if (left && right)
			return p;
	}
	return NULL;
}

/* Where in the file the reason text at off (in r->reason) is. */
static prof_loc reason_loc_at(const prof_req *r, size_t off)
{
	size_t para = 0, start = 0;
	for (size_t i = 0; i < off; i++)
		if (r->reason[i] == '\n') {
			para++;
			start = i + 1;
		}
	if (para >= r->nreason_locs)
		return r->loc;
	prof_loc l = r->reason_locs[para];
	l.col += (int)(off - start);
	return l;
}

/* The first word of list in r's reason: its offset, or -1. */
static long first_word(const prof_req *r, const char *const *list, const char **which)
{
	long best = -1;
	for (size_t k = 0; list[k]; k++) {
		const char *p = find_word(r->reason, list[k]);
		if (p && (best < 0 || p - r->reason < best)) {
			best = p - r->reason;
			*which = list[k];
		}
	}
	return best;
}

/* Reasons that contradict their level, or that cite kfit's own tools. */
static void lint_words(prof_db *db, kf_diags *out)
{
	for (size_t i = 0; i < db->n; i++) {
		const prof_profile *p = db->profs[i];
		for (size_t s = 0; s < p->nstmts; s++) {
			const prof_stmt *st = &p->stmts[s];
			if (st->kind != PROF_ST_REQ || !st->req->reason)
				continue;
			const prof_req *r = st->req;
			const char *w = NULL;
			long off = first_word(r, own_tools, &w);
			if (off >= 0) {
				prof_loc l = reason_loc_at(r, (size_t)off);
				kf_diag_add(out, KF_ERROR, l.file, l.line, l.col,
					    "%s %s: the reason cites kfit's own tools ('%s'); state the "
					    "userspace need in the words of a document",
					    prof_level_name(r->level), prof_req_expr(db->arena, r), w);
			}
			if (r->reviewed)
				continue;
			bool req = r->level == PROF_REQUIRE;
			off = first_word(r, req ? require_contradictions : recommend_contradictions, &w);
			if (off < 0)
				continue;
			prof_loc l = reason_loc_at(r, (size_t)off);
			kf_diag_add(out, KF_ERROR, l.file, l.line, l.col,
				    "%s %s: the reason says '%s', words of a %s (change the level, "
				    "reword the reason, or say why it stands with 'reviewed TEXT')",
				    prof_level_name(r->level), prof_req_expr(db->arena, r), w,
				    req ? "recommend" : "require");
		}
	}
}

/* Distro profiles say what they run, directly or through inherit. */
static void lint_distro(prof_db *db, const prof_profile *p, const prof_set *s, kf_diags *out)
{
	if (p->kind != PROF_KIND_DISTRO)
		return;
	const char *missing = NULL;
	if (!s->init)
		missing = "init";
	else if (!s->lsm)
		missing = "lsm (write 'lsm none' when it has none)";
	else if (!s->firewall)
		missing = "firewall (write 'firewall none' when it has none)";
	else if (s->initramfs == PROF_INITRAMFS_UNKNOWN)
		missing = "initramfs";
	else if (!s->kmin)
		missing = "kernel";
	if (missing)
		kf_diag_add(out, KF_ERROR, p->loc.file, p->loc.line, p->loc.col,
			    "distro profile %s does not say its %s", p->name, missing);
	(void)db;
}

static bool sym_known_at(const prof_db *db, const char *sym, uint32_t v, bool *known);

/* Does any requirement of the database name sym (renames applied)? */
static bool db_names_sym(const prof_db *db, const char *newest)
{
	for (size_t i = 0; i < db->n; i++) {
		const prof_profile *p = db->profs[i];
		for (size_t k = 0; k < p->nstmts; k++) {
			const prof_req *r = p->stmts[k].kind == PROF_ST_REQ ? p->stmts[k].req : NULL;
			for (size_t a = 0; r && a < r->nalts; a++)
				if (!strcmp(prof_sym_newest(db, r->alts[a].sym), newest))
					return true;
		}
	}
	return false;
}

/* `absent SYM`: only a distro release says what its own kernel lacks,
 * about a symbol that mainline has at the release's first kernel (or it
 * says nothing) and that a requirement names (or it changes nothing). */
static void lint_absent(prof_db *db, const prof_profile *p, const prof_set *s, kf_diags *out)
{
	char vb[16];
	for (size_t i = 0; i < p->nstmts; i++) {
		const prof_stmt *st = &p->stmts[i];
		if (st->kind != PROF_ST_ABSENT)
			continue;
		const prof_loc *l = &st->name_loc;
		bool known;
		if (p->kind != PROF_KIND_DISTRO)
			kf_diag_add(out, KF_ERROR, st->loc.file, st->loc.line, st->loc.col,
				    "'absent' is for a distro release's kernel; %s is a %s profile",
				    p->name, prof_kind_name(p->kind));
		else if (!db->nspans || !s->kmin)
			; /* no history, or no kernel range (lint_distro says so) */
		else if (!sym_known_at(db, prof_sym_for_kver(db, st->name, s->kmin), s->kmin, &known) &&
			 !p->local)
			kf_diag_add(out, KF_ERROR, l->file, l->line, l->col,
				    known ? "absent %s: mainline %s has no %s either (profiles/symbols.kfit); "
					    "the statement says nothing"
					  : "absent %s: %s has no symbol history (add it to profiles/symbols.kfit)",
				    st->name, known ? kf_kver_format(s->kmin, vb) : st->name, st->name);
		if (!db_names_sym(db, prof_sym_newest(db, st->name)))
			kf_diag_add(out, KF_ERROR, l->file, l->line, l->col,
				    "absent %s: no requirement names it", st->name);
	}
}

/* Is alternative k a group of its own (not part of `A && B`)? */
static bool alone(const prof_req *r, size_t k)
{
	return (k == 0 || r->alts[k - 1].group != r->alts[k].group) && prof_group_end(r, k) == k + 1;
}

/* Is a wanted off (n, absent, or an empty string): a symbol that need
 * not exist for it to hold? */
static bool alt_wants_off(const prof_alt *a)
{
	return a->want == PROF_WANT_OFF || a->want == PROF_WANT_LACKS ||
	       (a->want == PROF_WANT_STRING && !*a->value);
}

static void lint_tree(prof_db *db, const prof_set *s, const prof_lint_tree *t, kf_diags *out)
{
	char vb[16];
	for (size_t i = 0; i < s->n; i++) {
		const prof_req *r = s->reqs[i];
		if (!prof_req_applies(r, t->kver, t->arch))
			continue;
		if (r->cond.if_sym) {
			const char *n = prof_sym_for_kver(db, r->cond.if_sym, t->kver);
			if (!t->exists(t->ctx, n))
				kf_diag_add(out, KF_ERROR, r->loc.file, r->loc.line, r->loc.col,
					    "if %s: %s does not exist in %s (%s)", r->cond.if_sym, n,
					    t->name, kf_kver_format(t->kver, vb));
		}
		/* a list item of an option that is no list */
		for (size_t k = 0; t->is_string && k <= r->nalts; k++) {
			const prof_alt *a = k < r->nalts ? &r->alts[k] : r->cond.if_alt;
			if (!a || (a->want != PROF_WANT_CONTAINS && a->want != PROF_WANT_LACKS))
				continue;
			const char *n = prof_alt_sym(db, a, t->kver);
			if (t->exists(t->ctx, n) && !t->is_string(t->ctx, n))
				kf_diag_add(out, KF_ERROR, a->loc.file, a->loc.line, a->loc.col,
					    "%s: '%s' reads the items of a comma-separated string, "
					    "and %s is not a string in %s (%s)",
					    prof_alt_expr(s->arena, a),
					    a->want == PROF_WANT_CONTAINS ? "contains" : "does not contain",
					    n, t->name, kf_kver_format(t->kver, vb));
		}
		/* `A || B` where B depends on A holds with A alone (only
		 * between groups: in `A && B` the dependency is the point) */
		for (size_t k = 0; t->depends && k < r->nalts; k++)
			for (size_t j = 0; j < r->nalts; j++) {
				const prof_alt *a = &r->alts[k], *b = &r->alts[j];
				if (j == k || !alone(r, k) || !alone(r, j) || a->want == PROF_WANT_OFF ||
				    b->want == PROF_WANT_OFF)
					continue;
				const char *an = prof_alt_sym(db, a, t->kver);
				const char *bn = prof_alt_sym(db, b, t->kver);
				if (t->depends(t->ctx, bn, an))
					kf_diag_add(out, KF_ERROR, a->loc.file, a->loc.line, a->loc.col,
						    "%s: %s depends on %s in %s (%s), so %s alone meets "
						    "it without %s",
						    prof_req_expr(s->arena, r), bn, an, t->name,
						    kf_kver_format(t->kver, vb), an, bn);
			}
		/* a group can hold when every symbol of it exists (or is
		 * wanted off); one such group is enough */
		bool any = false, all_off = true;
		for (size_t g = 0, e; g < r->nalts; g = e) {
			e = prof_group_end(r, g);
			bool all = true;
			for (size_t k = g; k < e; k++) {
				const prof_alt *a = &r->alts[k];
				bool off = alt_wants_off(a);
				if (!off)
					all_off = false;
				/* one symbol: it must exist, as before groups */
				if (!t->exists(t->ctx, prof_alt_sym(db, a, t->kver)) &&
				    !(off && e - g > 1))
					all = false;
			}
			if (all)
				any = true;
		}
		/* a must-be-off requirement on a symbol the tree lacks holds */
		if (any || all_off)
			continue;
		const prof_alt *a = &r->alts[0];
		const char *n = prof_alt_sym(db, a, t->kver);
		if (r->nalts == 1)
			kf_diag_add(out, KF_ERROR, a->loc.file, a->loc.line, a->loc.col,
				    "%s%s%s%s does not exist in %s (%s)", a->sym,
				    strcmp(n, a->sym) ? " (" : "", strcmp(n, a->sym) ? n : "",
				    strcmp(n, a->sym) ? ")" : "", t->name, kf_kver_format(t->kver, vb));
		else
			kf_diag_add(out, KF_ERROR, a->loc.file, a->loc.line, a->loc.col,
				    "none of %s exists in %s (%s)%s", prof_req_expr(s->arena, r),
				    t->name, kf_kver_format(t->kver, vb),
				    prof_req_has_groups(r) ? " (a group needs all of its symbols)" : "");
	}
}

/* Is sym known to exist in kernel v (profiles/symbols.kfit)?  *known: it
 * has a history at all. */
static bool sym_known_at(const prof_db *db, const char *sym, uint32_t v, bool *known)
{
	*known = false;
	for (size_t i = 0; i < db->nspans; i++) {
		const prof_symspan *sp = &db->spans[i];
		if (strcmp(sp->sym, sym))
			continue;
		*known = true;
		if (v >= sp->first && (!sp->gone || v < sp->gone))
			return true;
	}
	return false;
}

/* Does r name sym, under either name of a rename? */
static bool req_names(const prof_db *db, const prof_req *r, const char *sym)
{
	for (size_t k = 0; k < r->nalts; k++) {
		const char *a = r->alts[k].sym;
		if (!strcmp(a, sym))
			return true;
		for (size_t i = 0; i < db->nren; i++) {
			const prof_rename *rn = &db->renames[i];
			if ((!strcmp(rn->old_name, a) && !strcmp(rn->new_name, sym)) ||
			    (!strcmp(rn->new_name, a) && !strcmp(rn->old_name, sym)))
				return true;
		}
	}
	return false;
}

/* Kernel versions in [lo, hi) where r's answer may change: lo, and every
 * boundary of its symbols' spans and of the renames inside. */
static size_t hist_points(const prof_db *db, const prof_req *r, uint32_t lo, uint32_t hi,
			  uint32_t *pt, size_t max)
{
	size_t n = 0;
	pt[n++] = lo;
	for (size_t i = 0; i < db->nspans + db->nren; i++) {
		uint32_t b[2];
		if (i < db->nspans) {
			if (!req_names(db, r, db->spans[i].sym))
				continue;
			b[0] = db->spans[i].first;
			b[1] = db->spans[i].gone;
		} else {
			b[0] = db->renames[i - db->nspans].since;
			b[1] = db->renames[i - db->nspans].old_gone;
		}
		for (int k = 0; k < 2; k++)
			if (b[k] > lo && (!hi || b[k] < hi) && n < max)
				pt[n++] = b[k];
	}
	return n;
}

/* The oldest kernel any distro release ships: a profile that is not a
 * distro (a feature, a platform, an init) may run on any of them. */
static uint32_t oldest_kernel(const prof_db *db)
{
	uint32_t lo = 0;
	for (size_t i = 0; i < db->n; i++) {
		const prof_profile *p = db->profs[i];
		if (p->kind == PROF_KIND_DISTRO && p->kmin && (!lo || p->kmin < lo))
			lo = p->kmin;
	}
	return lo;
}

/* One requirement against the symbol history over the kernels [lo, hi)
 * the profile runs on (hi 0: no end): some way of it must exist at each. */
static void lint_req_history(prof_db *db, const prof_profile *p, const prof_set *s,
			     const prof_req *r, uint32_t lo, uint32_t hi, kf_diags *out)
{
	if (r->cond.kmin > lo)
		lo = r->cond.kmin;
	if (r->cond.kmax && (!hi || r->cond.kmax < hi))
		hi = r->cond.kmax;
	if (hi && hi <= lo)
		return;
	uint32_t pt[64];
	size_t np = hist_points(db, r, lo, hi, pt, sizeof(pt) / sizeof(pt[0]));
	char vb[16];
	for (size_t q = 0; q < np; q++) {
		bool any = false, all_off = true;
		const char *unknown = NULL;
		for (size_t g = 0, e; g < r->nalts && !any; g = e) {
			e = prof_group_end(r, g);
			bool all = true;
			for (size_t k = g; k < e; k++) {
				const prof_alt *a = &r->alts[k];
				bool off = alt_wants_off(a);
				if (!off)
					all_off = false;
				bool known;
				const char *n = prof_alt_sym(db, a, pt[q]);
				if (!sym_known_at(db, n, pt[q], &known) && !(off && e - g > 1))
					all = false;
				if (!known && !unknown)
					unknown = n;
			}
			any = all;
		}
		if (unknown) {
			kf_diag_add(out, KF_ERROR, r->loc.file, r->loc.line, r->loc.col,
				    "%s: %s has no symbol history (add it to profiles/symbols.kfit)",
				    prof_req_expr(s->arena, r), unknown);
			return;
		}
		if (any || all_off)
			continue;
		kf_diag_add(out, KF_ERROR, r->loc.file, r->loc.line, r->loc.col,
			    "%s: %s known to exist in %s (profiles/symbols.kfit), %s; bound the "
			    "requirement with kernel>= or kernel<",
			    prof_req_expr(s->arena, r), r->nalts > 1 ? "no way of it is" : "it is not",
			    kf_kver_format(pt[q], vb),
			    p->kind == PROF_KIND_DISTRO
				    ? kf_arena_printf(s->arena, "a kernel %s ships", p->name)
				    : kf_arena_printf(s->arena, "a kernel of a distro release %s may "
							"run on", p->name));
		return;
	}
}

/* Every requirement of s over the kernels its profile p runs on: a distro
 * release its own range, anything else every distro's.  The history
 * covers the database: a user's local profile is not held to it. */
static void lint_history(prof_db *db, const prof_profile *p, const prof_set *s, kf_diags *out)
{
	if (!db->nspans || p->local)
		return;
	uint32_t lo = p->kind == PROF_KIND_DISTRO ? s->kmin : oldest_kernel(db);
	uint32_t hi = p->kind == PROF_KIND_DISTRO ? s->kmax : 0;
	if (!lo)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (!s->reqs[i]->shadowed_by)
			lint_req_history(db, p, s, s->reqs[i], lo, hi, out);
}

size_t prof_lint(prof_db *db, const prof_lint_tree *trees, size_t ntrees, kf_diags *d)
{
	kf_diags all = KF_DIAGS_INIT;
	lint_sources(db, &all);
	lint_words(db, &all);
	for (size_t i = 0; i < db->n; i++) {
		const prof_profile *p = db->profs[i];
		/* templates: the first version and every boundary in their ranges */
		long params[64];
		size_t np = 0;
		if (p->stem) {
			params[np++] = p->vmin;
			for (size_t s = 0; s < p->nstmts && np < 62; s++) {
				const prof_stmt *st = &p->stmts[s];
				if (st->kind != PROF_ST_REQ)
					continue;
				long b[2] = {st->req->cond.pmin, st->req->cond.pmax};
				for (int k = 0; k < 2; k++) {
					bool dup = b[k] < 0;
					for (size_t q = 0; q < np && !dup; q++)
						dup = params[q] == b[k];
					if (!dup && b[k] >= p->vmin && (p->vmax < 0 || b[k] < p->vmax))
						params[np++] = b[k];
				}
			}
		} else {
			params[np++] = -1;
		}
		for (size_t q = 0; q < np; q++) {
			const char *name = params[q] >= 0
				? kf_arena_printf(db->arena, "%s-%ld", p->stem, params[q])
				: p->name;
			kf_diags tmp = KF_DIAGS_INIT;
			prof_set *s = prof_flatten(db, &name, 1, &tmp);
			if (s) {
				lint_distro(db, p, s, &tmp);
				lint_absent(db, p, s, &tmp);
				lint_history(db, p, s, &tmp);
				for (size_t t = 0; t < ntrees; t++)
					lint_tree(db, s, &trees[t], &tmp);
			}
			merge_unique(&all, &tmp);
			kf_diags_release(&tmp);
			prof_set_free(s);
		}
	}
	/* renames: the old name before, the new name from `since` */
	for (size_t t = 0; t < ntrees; t++)
		for (size_t i = 0; i < db->nren; i++) {
			const prof_rename *rn = &db->renames[i];
			const char *want = trees[t].kver >= rn->since ? rn->new_name : rn->old_name;
			char vb[16];
			if (!trees[t].exists(trees[t].ctx, want))
				kf_diag_add(&all, KF_ERROR, rn->loc.file, rn->loc.line, rn->loc.col,
					    "rename %s -> %s: %s does not exist in %s (%s)", rn->old_name,
					    rn->new_name, want, trees[t].name,
					    kf_kver_format(trees[t].kver, vb));
			if (rn->old_gone && trees[t].kver < rn->old_gone &&
			    trees[t].kver >= rn->since && !trees[t].exists(trees[t].ctx, rn->old_name))
				kf_diag_add(&all, KF_ERROR, rn->loc.file, rn->loc.line, rn->loc.col,
					    "rename %s -> %s: %s should still exist in %s (%s)",
					    rn->old_name, rn->new_name, rn->old_name, trees[t].name,
					    kf_kver_format(trees[t].kver, vb));
		}
	size_t nerr = merge_unique(d, &all);
	kf_diags_release(&all);
	return nerr;
}
