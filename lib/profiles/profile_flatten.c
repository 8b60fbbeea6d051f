/*
 * profile_flatten.c - turn profile names into one flat requirement list:
 * template instances (systemd-256 from systemd-N), inheritance with the
 * init/lsm/firewall slots, includes, drops and overrides, renames, and the
 * conflict and cycle checks.  Each resolved requirement is a copy that
 * knows the include chain that brought it in.
 */
#include "profile_internal.h"
#include "kfit/hashmap.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A requirement on its way up, tagged with the slot that brought it. */
typedef struct rentry {
	prof_req *r; /* the copy (in the set's arena); NULL once removed */
	int slot;    /* 0 init, 1 lsm, 2 firewall, -1 none */
} rentry;

/* A growing list of entries, each (requirement, slot) once, with an index
 * from symbol names to entries so that a drop or an override costs what
 * it removes, not the length of the list. */
typedef struct rlist {
	rentry *v;        /* entries, removed ones included */
	size_t n;         /* how many */
	size_t alloc;     /* capacity */
	kf_hindex have;   /* live entries by (requirement, slot) */
	kf_strmap syms;   /* newest symbol name -> its last link + 1 */
	size_t *link_ent; /* per link: an entry naming the symbol */
	size_t *link_prev; /* per link: the symbol's previous link + 1, 0: none */
	size_t nlink;     /* links */
	size_t alloc_ent; /* capacity of link_ent */
	size_t alloc_prev; /* capacity of link_prev */
} rlist;

/* One profile instance's collected list, kept to reuse when the same
 * profile is reached again (a diamond of includes). */
typedef struct rmemo {
	rentry *v; /* its live entries */
	size_t n;  /* how many */
	int rc;    /* what collecting it returned */
} rmemo;

/* Resolution state. */
typedef struct rctx {
	prof_db *db;       /* the database */
	kf_arena *arena;   /* the set's arena */
	kf_diags *d;       /* errors */
	int nerr;          /* errors added */
	size_t visits;     /* profiles collected so far (bounded) */
	kf_strmap done;    /* profile instance -> index in memo */
	rmemo *memo;       /* collected profiles */
	size_t nmemo;      /* how many */
	size_t alloc_memo; /* capacity of memo */
	char *edge;        /* per chain position: how it was reached ('i'
			      include or slot, 'h' inherit) */
} rctx;

/* Bounds on includes, so that a hostile database cannot recurse without
 * end: real chains are ten profiles deep; each profile instance is
 * collected once (a second route reuses its list). */
#define PROF_MAX_DEPTH 256
#define PROF_MAX_VISITS 4096

const char *prof_kind_name(prof_kind k)
{
	static const char *const n[] = {"distro", "init", "feature", "platform", "base"};
	return (unsigned)k < 5 ? n[k] : "?";
}

const char *prof_level_name(prof_level l)
{
	return l == PROF_REQUIRE ? "require" : "recommend";
}

const char *prof_sym_newest(const prof_db *db, const char *sym)
{
	const char *cur = sym;
	for (int guard = 0; guard < 16; guard++) {
		const char *next = NULL;
		for (size_t i = 0; i < db->nren; i++)
			if (!strcmp(db->renames[i].old_name, cur))
				next = db->renames[i].new_name;
		if (!next)
			break;
		cur = next;
	}
	return cur;
}

const char *prof_sym_for_kver(const prof_db *db, const char *sym, uint32_t kver)
{
	const char *cur = prof_sym_newest(db, sym);
	if (!kver)
		return cur;
	for (int guard = 0; guard < 16; guard++) {
		const char *prev = NULL;
		for (size_t i = 0; i < db->nren; i++)
			if (!strcmp(db->renames[i].new_name, cur) && kver < db->renames[i].since)
				prev = db->renames[i].old_name;
		if (!prev)
			break;
		cur = prev;
	}
	return cur;
}

const char *prof_alt_sym(const prof_db *db, const prof_alt *a, uint32_t kver)
{
	return a->literal ? a->sym : prof_sym_for_kver(db, a->sym, kver);
}

bool prof_arch_match(const char *const *list, size_t n, const char *arch)
{
	if (!n || !arch)
		return true;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(list[i], arch))
			return true;
		if (!strcmp(list[i], "x86") && (!strcmp(arch, "x86_64") || !strcmp(arch, "i386")))
			return true;
	}
	return false;
}

bool prof_req_applies(const prof_req *r, uint32_t kver, const char *arch)
{
	if (kver && r->cond.kmin && kver < r->cond.kmin)
		return false;
	if (kver && r->cond.kmax && kver >= r->cond.kmax)
		return false;
	return prof_arch_match(r->cond.arch, r->cond.narch, arch);
}

/* Do two architecture lists share an architecture? */
static bool arch_overlap(const prof_cond *a, const prof_cond *b)
{
	if (!a->narch || !b->narch)
		return true;
	for (size_t i = 0; i < a->narch; i++)
		for (size_t j = 0; j < b->narch; j++) {
			const char *x = a->arch[i], *y = b->arch[j];
			if (!strcmp(x, y))
				return true;
			if (!strcmp(x, "x86") && (!strcmp(y, "x86_64") || !strcmp(y, "i386")))
				return true;
			if (!strcmp(y, "x86") && (!strcmp(x, "x86_64") || !strcmp(x, "i386")))
				return true;
		}
	return false;
}

/* Can both conditions hold for one kernel? */
static bool cond_overlap(const prof_cond *a, const prof_cond *b)
{
	uint32_t lo = a->kmin > b->kmin ? a->kmin : b->kmin;
	uint32_t hia = a->kmax ? a->kmax : UINT32_MAX;
	uint32_t hib = b->kmax ? b->kmax : UINT32_MAX;
	uint32_t hi = hia < hib ? hia : hib;
	if (lo >= hi)
		return false;
	return arch_overlap(a, b);
}

/* Can one value satisfy both alts? */
static bool wants_compatible(const prof_alt *a, const prof_alt *b)
{
	/* list items: one list can hold any items, but not have and lack one */
	bool alist = a->want == PROF_WANT_CONTAINS || a->want == PROF_WANT_LACKS;
	bool blist = b->want == PROF_WANT_CONTAINS || b->want == PROF_WANT_LACKS;
	if (alist || blist) {
		const prof_alt *l = alist ? a : b, *o = alist ? b : a;
		bool has = l->want == PROF_WANT_CONTAINS;
		if (o->want == PROF_WANT_CONTAINS && l->want == PROF_WANT_CONTAINS)
			return !(o->before && l->before && !strcmp(o->before, l->value) &&
				 !strcmp(l->before, o->value));
		if (o->want == PROF_WANT_CONTAINS || o->want == PROF_WANT_LACKS)
			return o->want == l->want || strcmp(o->value, l->value);
		if (o->want == PROF_WANT_STRING)
			return prof_alt_holds(l, o->value, false, PROF_INITRAMFS_YES);
		if (o->want == PROF_WANT_OFF)
			return !has;
		return true;
	}
	bool aon = a->want == PROF_WANT_ENABLED || a->want == PROF_WANT_BUILTIN;
	bool bon = b->want == PROF_WANT_ENABLED || b->want == PROF_WANT_BUILTIN;
	if (aon && bon)
		return true;
	if ((aon && b->want == PROF_WANT_OFF) || (bon && a->want == PROF_WANT_OFF))
		return false;
	if (a->want == PROF_WANT_OFF && b->want == PROF_WANT_STRING)
		return !*b->value;
	if (b->want == PROF_WANT_OFF && a->want == PROF_WANT_STRING)
		return !*a->value;
	if (a->want == b->want && (a->want == PROF_WANT_STRING))
		return !strcmp(a->value, b->value);
	if (a->want == b->want && a->want == PROF_WANT_NUMBER)
		return strtoll(a->value, NULL, 0) == strtoll(b->value, NULL, 0);
	if ((a->want == PROF_WANT_OFF && b->want == PROF_WANT_NUMBER) ||
	    (b->want == PROF_WANT_OFF && a->want == PROF_WANT_NUMBER))
		return false;
	return true;
}

typedef struct rkey {
	const prof_req *r; /* the requirement */
	int slot;          /* its slot */
} rkey;

static uint32_t rkey_hash(const prof_req *r, int slot)
{
	return kf_hash_mem(&r, sizeof(r)) ^ (uint32_t)(slot + 1) * 0x9e3779b1u;
}

static bool rkey_eq(const void *ctx, size_t i, const void *key)
{
	const rlist *l = ctx;
	const rkey *k = key;
	return l->v[i].r == k->r && l->v[i].slot == k->slot;
}

static void rl_link(rlist *l, const char *newest, size_t ent)
{
	size_t prev = 0;
	kf_strmap_get(&l->syms, newest, &prev);
	KF_GROW(l->link_ent, l->nlink + 1, l->alloc_ent);
	KF_GROW(l->link_prev, l->nlink + 1, l->alloc_prev);
	l->link_ent[l->nlink] = ent;
	l->link_prev[l->nlink] = prev;
	l->nlink++;
	kf_strmap_put(&l->syms, newest, l->nlink);
}

/* Append (r, slot) unless the list holds it already. */
static void rl_push(const prof_db *db, rlist *l, prof_req *r, int slot)
{
	rkey k = {r, slot};
	uint32_t h = rkey_hash(r, slot);
	if (kf_hindex_find(&l->have, h, rkey_eq, l, &k) != KF_HINDEX_NONE)
		return;
	KF_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n].r = r;
	l->v[l->n].slot = slot;
	kf_hindex_add(&l->have, h, l->n);
	for (size_t i = 0; i < r->nalts; i++)
		rl_link(l, i ? prof_sym_newest(db, r->alts[i].sym) : r->key, l->n);
	l->n++;
}

static void rl_release(rlist *l)
{
	free(l->v);
	kf_hindex_release(&l->have);
	kf_strmap_release(&l->syms);
	free(l->link_ent);
	free(l->link_prev);
	memset(l, 0, sizeof(*l));
}

/* Remove entry i (it stays in the index, which then no longer matches). */
static bool rl_kill(rlist *l, size_t i)
{
	if (!l->v[i].r)
		return false;
	l->v[i].r = NULL;
	return true;
}

/* Remove entries naming sym (newest name) in any alternative; count them. */
static size_t rl_remove_sym(rlist *l, const char *newest)
{
	size_t removed = 0, link = 0;
	kf_strmap_get(&l->syms, newest, &link);
	for (; link; link = l->link_prev[link - 1])
		removed += rl_kill(l, l->link_ent[link - 1]);
	return removed;
}

/* Remove the entries a slot brought. */
static void rl_remove_slot(rlist *l, int slot)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].r && l->v[i].slot == slot)
			rl_kill(l, i);
}

/* Copy a requirement for the set, with chain and key. */
static prof_req *req_copy(rctx *c, const prof_req *src, const char *inst,
			  const char *const *chain, size_t nchain)
{
	prof_req *r = kf_arena_alloc(c->arena, sizeof(*r));
	*r = *src;
	r->profile = inst;
	r->chain = kf_arena_alloc(c->arena, (nchain ? nchain : 1) * sizeof(*r->chain));
	if (nchain)
		memcpy(r->chain, chain, nchain * sizeof(*chain));
	r->nchain = nchain;
	r->key = prof_sym_newest(c->db, src->alts[0].sym);
	return r;
}

const prof_profile *prof_db_find(const prof_db *db, const char *name, long *param,
				 kf_diags *d)
{
	*param = -1;
	for (size_t i = 0; i < db->n; i++)
		if (!db->profs[i]->stem && !strcmp(db->profs[i]->name, name))
			return db->profs[i];
	const char *dash = strrchr(name, '-');
	if (dash && dash[1]) {
		bool digits = true;
		for (const char *p = dash + 1; *p; p++)
			if (!isdigit((unsigned char)*p))
				digits = false;
		size_t sl = (size_t)(dash - name);
		for (size_t i = 0; digits && i < db->n; i++) {
			const prof_profile *p = db->profs[i];
			if (!p->stem || strlen(p->stem) != sl || strncmp(p->stem, name, sl))
				continue;
			long v = strtol(dash + 1, NULL, 10);
			if (v < p->vmin || (p->vmax >= 0 && v >= p->vmax)) {
				if (d) {
					if (p->vmax >= 0)
						kf_diag_add(d, KF_ERROR, NULL, 0, 0,
							    "profile '%s': %s covers versions %ld to %ld",
							    name, p->name, p->vmin, p->vmax - 1);
					else
						kf_diag_add(d, KF_ERROR, NULL, 0, 0,
							    "profile '%s': %s covers versions %ld and later",
							    name, p->name, p->vmin);
				}
				return NULL;
			}
			*param = v;
			return p;
		}
	}
	if (!d)
		return NULL;
	/* list the family: names sharing the part before the last dash */
	kf_strbuf sb = KF_STRBUF_INIT, near = KF_STRBUF_INIT;
	size_t fl = dash ? (size_t)(dash - name) : strlen(name);
	size_t nk = 0;
	for (size_t i = 0; i < db->n; i++) {
		const char *pn = db->profs[i]->name;
		if (!strncmp(pn, name, fl) && (pn[fl] == '-' || pn[fl] == 0)) {
			kf_strbuf_addstr(&sb, nk ? ", " : "");
			kf_strbuf_addstr(&sb, pn);
			nk++;
		}
	}
	const char *lo = prof_db_nearest(db, name, true), *hi = prof_db_nearest(db, name, false);
	if (nk && (lo || hi))
		kf_diag_add(d, KF_ERROR, NULL, 0, 0,
			    "unknown profile '%s' (did you mean %s%s%s? known: %s)", name,
			    lo ? lo : hi, lo && hi ? " or " : "", lo && hi ? hi : "",
			    kf_strbuf_str(&sb));
	else if (prof_db_similar(db, name, &near))
		kf_diag_add(d, KF_ERROR, NULL, 0, 0, "unknown profile '%s' (did you mean %s?%s%s)",
			    name, kf_strbuf_str(&near), nk ? " known: " : "", kf_strbuf_str(&sb));
	else if (nk)
		kf_diag_add(d, KF_ERROR, NULL, 0, 0, "unknown profile '%s' (known: %s)", name,
			    kf_strbuf_str(&sb));
	else
		kf_diag_add(d, KF_ERROR, NULL, 0, 0,
			    "unknown profile '%s' (run 'kfit profiles' for the list)", name);
	kf_strbuf_release(&sb);
	kf_strbuf_release(&near);
	return NULL;
}

/* The effective value of a slot along the inheritance chain. */
static const char *slot_value(const prof_db *db, const prof_profile *p, int slot, int depth)
{
	const char *v = slot == 0 ? p->init : slot == 1 ? p->lsm : p->firewall;
	if (v || !p->inherit || depth > 32)
		return v;
	long param;
	const prof_profile *parent = prof_db_find(db, p->inherit, &param, NULL);
	return parent ? slot_value(db, parent, slot, depth + 1) : NULL;
}

static int slot_initramfs(const prof_db *db, const prof_profile *p, int depth)
{
	if (p->initramfs != PROF_INITRAMFS_UNKNOWN || !p->inherit || depth > 32)
		return p->initramfs;
	long param;
	const prof_profile *parent = prof_db_find(db, p->inherit, &param, NULL);
	return parent ? slot_initramfs(db, parent, depth + 1) : PROF_INITRAMFS_UNKNOWN;
}

static void kernel_range(const prof_db *db, const prof_profile *p, uint32_t *lo,
			 uint32_t *hi, int depth)
{
	if (p->kmin || p->kmax || !p->inherit || depth > 32) {
		*lo = p->kmin;
		*hi = p->kmax;
		return;
	}
	long param;
	const prof_profile *parent = prof_db_find(db, p->inherit, &param, NULL);
	if (parent)
		kernel_range(db, parent, lo, hi, depth + 1);
}

/* The `absent` statements of a distro release, appended to s: its own
 * and, while it inherits its kernel range, those of the release it
 * inherits it from (they are about that kernel); oldest first. */
static void absent_collect(prof_db *db, const prof_profile *p, prof_set *s,
			   size_t *alloc, int depth)
{
	long param;
	const prof_profile *parent = !p->kmin && !p->kmax && p->inherit && depth < 32
					     ? prof_db_find(db, p->inherit, &param, NULL)
					     : NULL;
	if (parent)
		absent_collect(db, parent, s, alloc, depth + 1);
	for (size_t i = 0; i < p->nstmts; i++) {
		const prof_stmt *st = &p->stmts[i];
		if (st->kind != PROF_ST_ABSENT)
			continue;
		prof_absent *v = (prof_absent *)s->absent;
		KF_GROW(v, s->nabsent + 1, *alloc);
		v[s->nabsent++] = (prof_absent){
			.sym = st->name,
			.newest = prof_sym_newest(db, st->name),
			.profile = p->name,
			.reason = st->reason,
			.sources = st->sources,
			.nsources = st->nsources,
			.loc = st->loc,
		};
		s->absent = v;
	}
}

static int collect(rctx *c, const char *name, prof_loc via, const char **chain,
		   size_t nchain, rlist *out);

/* Report the loop closing at chain[i]: an inherit loop when every step of
 * it is an inherit, else an include cycle. */
static void report_loop(rctx *c, const char *name, prof_loc via, const char **chain,
			size_t nchain, size_t i, int tag)
{
	bool inherit = tag == -2;
	kf_strbuf sb = KF_STRBUF_INIT;
	for (size_t k = i; k < nchain; k++) {
		if (k > i && c->edge[k] != 'h')
			inherit = false;
		kf_strbuf_addf(&sb, "%s -> ", chain[k]);
	}
	kf_strbuf_addstr(&sb, name);
	kf_diag_add(c->d, KF_ERROR, via.file, via.line, via.col, "%s: %s",
		    inherit ? "inherit loop" : "include cycle", kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	c->nerr++;
}

/* Collect a referenced profile (include, inherit or slot) into out. */
static int collect_ref(rctx *c, const char *name, prof_loc via, const char **chain,
		       size_t nchain, rlist *out, int tag)
{
	for (size_t i = 0; i < nchain; i++)
		if (!strcmp(chain[i], name)) {
			report_loop(c, name, via, chain, nchain, i, tag);
			return -1;
		}
	if (nchain >= PROF_MAX_DEPTH) {
		kf_diag_add(c->d, KF_ERROR, via.file, via.line, via.col,
			    "include chain deeper than %d profiles at '%s'",
			    PROF_MAX_DEPTH, name);
		c->nerr++;
		return -1;
	}
	c->edge[nchain] = tag == -2 ? 'h' : 'i';
	rlist tmp = {0};
	int rc = collect(c, name, via, chain, nchain, &tmp);
	for (size_t i = 0; i < tmp.n; i++)
		if (tmp.v[i].r)
			rl_push(c->db, out, tmp.v[i].r, tag == -2 ? tmp.v[i].slot : tag);
	rl_release(&tmp);
	return rc;
}

static bool param_ok(const prof_cond *cd, long param)
{
	if (param < 0)
		return true;
	if (cd->pmin >= 0 && param < cd->pmin)
		return false;
	if (cd->pmax >= 0 && param >= cd->pmax)
		return false;
	return true;
}

/* Keep what collecting inst gave, for the next time it is reached. */
static void remember(rctx *c, const char *inst, const rlist *out, int rc)
{
	KF_GROW(c->memo, c->nmemo + 1, c->alloc_memo);
	rmemo *m = &c->memo[c->nmemo];
	m->v = kf_xmalloc((out->n ? out->n : 1) * sizeof(*m->v));
	m->n = 0;
	for (size_t i = 0; i < out->n; i++)
		if (out->v[i].r)
			m->v[m->n++] = out->v[i];
	m->rc = rc;
	kf_strmap_put(&c->done, inst, c->nmemo++);
}

static int collect(rctx *c, const char *name, prof_loc via, const char **chain,
		   size_t nchain, rlist *out)
{
	long param;
	kf_diags tmpd = KF_DIAGS_INIT;
	const prof_profile *p = prof_db_find(c->db, name, &param, &tmpd);
	if (!p) {
		for (size_t i = 0; i < tmpd.n; i++)
			kf_diag_add(c->d, KF_ERROR, via.file, via.line, via.col, "%s", tmpd.v[i].msg);
		kf_diags_release(&tmpd);
		c->nerr++;
		return -1;
	}
	kf_diags_release(&tmpd);
	const char *inst = param >= 0 ? kf_arena_printf(c->arena, "%s-%ld", p->stem, param)
				      : p->name;
	size_t m;
	if (kf_strmap_get(&c->done, inst, &m)) {
		/* reached before: the same list (its errors were reported) */
		for (size_t i = 0; i < c->memo[m].n; i++)
			rl_push(c->db, out, c->memo[m].v[i].r, c->memo[m].v[i].slot);
		return c->memo[m].rc;
	}
	if (++c->visits > PROF_MAX_VISITS) {
		if (c->visits == PROF_MAX_VISITS + 1) {
			kf_diag_add(c->d, KF_ERROR, via.file, via.line, via.col,
				    "includes expand to more than %d profiles (%s and what it includes)",
				    PROF_MAX_VISITS, nchain ? chain[0] : name);
			c->nerr++;
		}
		return -1;
	}
	const char **ch = kf_arena_alloc(c->arena, (nchain + 1) * sizeof(*ch));
	if (nchain)
		memcpy(ch, chain, nchain * sizeof(*ch));
	ch[nchain] = inst;
	size_t nch = nchain + 1;
	int rc = 0;

	if (p->inherit && collect_ref(c, p->inherit, p->inherit_loc, ch, nch, out, -2) < 0)
		rc = -1;
	for (int s = 0; s < 3; s++) {
		const char *own = s == 0 ? p->init : s == 1 ? p->lsm : p->firewall;
		if (!own)
			continue;
		rl_remove_slot(out, s);
		if (strcmp(own, "none") &&
		    collect_ref(c, own, p->slot_loc[s], ch, nch, out, s) < 0)
			rc = -1;
	}
	for (size_t i = 0; i < p->nstmts; i++) {
		const prof_stmt *st = &p->stmts[i];
		if (st->kind == PROF_ST_INCLUDE &&
		    collect_ref(c, st->name, st->name_loc, ch, nch, out, -1) < 0)
			rc = -1;
	}
	for (size_t i = 0; i < p->nstmts; i++) {
		const prof_stmt *st = &p->stmts[i];
		if (st->kind == PROF_ST_DROP) {
			const char *nw = prof_sym_newest(c->db, st->name);
			if (!rl_remove_sym(out, nw)) {
				kf_diag_add(c->d, KF_ERROR, st->name_loc.file, st->name_loc.line,
					    st->name_loc.col,
					    "drop of %s matches no inherited or included requirement",
					    st->name);
				c->nerr++;
				rc = -1;
			}
		} else if (st->kind == PROF_ST_REQ) {
			const prof_req *r = st->req;
			if (!param_ok(&r->cond, param))
				continue;
			if (r->override) {
				const char *nw = prof_sym_newest(c->db, r->alts[0].sym);
				if (!rl_remove_sym(out, nw)) {
					kf_diag_add(c->d, KF_ERROR, r->alts[0].loc.file,
						    r->alts[0].loc.line, r->alts[0].loc.col,
						    "override of %s matches no inherited or included requirement",
						    r->alts[0].sym);
					c->nerr++;
					rc = -1;
				}
			}
			rl_push(c->db, out, req_copy(c, r, inst, ch, nch), -1);
		}
	}
	remember(c, inst, out, rc);
	return rc;
}

static const char *loc_text(kf_arena *a, prof_loc l)
{
	return kf_arena_printf(a, "%s:%d:%d", l.file ? l.file : "?", l.line, l.col);
}

/* Group the set's requirements by key: member lists their indices group
 * after group, each group in order; start[j] is where j's group begins. */
static void key_groups(const prof_set *s, size_t **member, size_t **start)
{
	kf_strmap gid = {0};
	size_t *g = kf_xmalloc((s->n ? s->n : 1) * sizeof(*g));
	size_t ng = 0;
	for (size_t j = 0; j < s->n; j++)
		if (!kf_strmap_get(&gid, s->reqs[j]->key, &g[j]))
			kf_strmap_put(&gid, s->reqs[j]->key, g[j] = ng++);
	kf_strmap_release(&gid);
	size_t *off = kf_xcalloc(ng + 1, sizeof(*off));
	for (size_t j = 0; j < s->n; j++)
		off[g[j] + 1]++;
	for (size_t k = 0; k < ng; k++)
		off[k + 1] += off[k];
	*member = kf_xmalloc((s->n ? s->n : 1) * sizeof(**member));
	*start = kf_xmalloc((s->n ? s->n : 1) * sizeof(**start));
	size_t *fill = kf_xmalloc((ng ? ng : 1) * sizeof(*fill));
	memcpy(fill, off, ng * sizeof(*fill));
	for (size_t j = 0; j < s->n; j++) {
		(*member)[fill[g[j]]++] = j;
		(*start)[j] = off[g[j]];
	}
	free(fill);
	free(off);
	free(g);
}

/* Conflicts between requires; recommends a require contradicts are shadowed. */
static void find_conflicts(rctx *c, prof_set *s)
{
	/* pairs already reported, to report a conflict once */
	const prof_req **seen = NULL;
	size_t nseen = 0, seenalloc = 0;
	size_t *member = NULL, *start = NULL;
	key_groups(s, &member, &start);
	for (size_t j = 0; j < s->n; j++) {
		prof_req *b = s->reqs[j];
		if (b->nalts != 1)
			continue;
		/* only requirements on the same symbol can conflict: the earlier
		 * ones of b's group, in order */
		for (size_t g = start[j]; member[g] != j; g++) {
			prof_req *a = s->reqs[member[g]];
			if (a->nalts != 1 || !cond_overlap(&a->cond, &b->cond))
				continue;
			if (wants_compatible(&a->alts[0], &b->alts[0]))
				continue;
			if (a->level == PROF_RECOMMEND && b->level == PROF_REQUIRE) {
				a->shadowed_by = b;
				continue;
			}
			if (b->level == PROF_RECOMMEND) {
				if (a->level == PROF_REQUIRE)
					b->shadowed_by = a;
				continue;
			}
			bool dup = false;
			for (size_t k = 0; k + 1 < nseen; k += 2)
				if (seen[k]->loc.file == a->loc.file && seen[k]->loc.line == a->loc.line &&
				    seen[k + 1]->loc.file == b->loc.file && seen[k + 1]->loc.line == b->loc.line)
					dup = true;
			if (dup)
				continue;
			KF_GROW(seen, nseen + 2, seenalloc);
			seen[nseen++] = a;
			seen[nseen++] = b;
			kf_diag_add(c->d, KF_ERROR, b->alts[0].loc.file, b->alts[0].loc.line,
				    b->alts[0].loc.col,
				    "%s (profile %s) conflicts with %s (profile %s) at %s; "
				    "an 'override' in a profile that includes both decides",
				    prof_req_expr(c->arena, b), b->profile, prof_req_expr(c->arena, a),
				    a->profile, loc_text(c->arena, a->alts[0].loc));
			c->nerr++;
		}
	}
	free(seen);
	free(member);
	free(start);
}

/* The same statement of the same profile instance (file, line, level). */
static bool same_stmt(const prof_req *q, const prof_req *r)
{
	return q->loc.line == r->loc.line && q->level == r->level && q->loc.file &&
	       r->loc.file && !strcmp(q->loc.file, r->loc.file) && q->profile && r->profile &&
	       !strcmp(q->profile, r->profile);
}

static uint32_t stmt_hash(const prof_req *r)
{
	uint32_t h = r->loc.file ? kf_hash_str(r->loc.file) : 0;
	h ^= r->profile ? kf_hash_str(r->profile) * 31u : 0;
	return h ^ ((uint32_t)r->loc.line * 0x9e3779b1u) ^ (uint32_t)r->level;
}

static bool stmt_eq(const void *ctx, size_t i, const void *key)
{
	const prof_set *s = ctx;
	return same_stmt(s->reqs[i], key);
}

/* The set's requirements: a profile reached twice (debian-12 includes
 * systemd-252, and systemd-252 is named too) gives the same requirement
 * twice: keep the first, with its include chain. */
static void set_reqs(prof_set *s, const rlist *all)
{
	kf_hindex idx = {0};
	s->reqs = kf_arena_alloc(s->arena, (all->n ? all->n : 1) * sizeof(*s->reqs));
	for (size_t i = 0; i < all->n; i++) {
		prof_req *r = all->v[i].r;
		if (!r)
			continue;
		uint32_t h = stmt_hash(r);
		if (kf_hindex_find(&idx, h, stmt_eq, s, r) != KF_HINDEX_NONE)
			continue;
		kf_hindex_add(&idx, h, s->n);
		s->reqs[s->n++] = r;
	}
	kf_hindex_release(&idx);
}

prof_set *prof_flatten(prof_db *db, const char *const *names, size_t n, kf_diags *d)
{
	prof_set *s = kf_xcalloc(1, sizeof(*s));
	s->arena = kf_arena_new();
	s->initramfs = PROF_INITRAMFS_UNKNOWN;
	rctx c = {.db = db, .arena = s->arena, .d = d};
	c.edge = kf_xcalloc(PROF_MAX_DEPTH + 1, 1);
	rlist all = {0};
	s->names = kf_arena_alloc(s->arena, (n ? n : 1) * sizeof(*s->names));
	size_t absent_alloc = 0;
	for (size_t i = 0; i < n; i++) {
		long param;
		const prof_profile *p = prof_db_find(db, names[i], &param, d);
		if (!p) {
			c.nerr++;
			continue;
		}
		s->names[s->nnames++] = kf_arena_strdup(s->arena, names[i]);
		if (p->kind == PROF_KIND_DISTRO) {
			int ir = slot_initramfs(db, p, 0);
			if (s->initramfs == PROF_INITRAMFS_UNKNOWN)
				s->initramfs = ir;
			if (!s->kmin && !s->kmax) {
				/* the first release with a kernel range: what
				 * its own kernels lack goes with the range */
				kernel_range(db, p, &s->kmin, &s->kmax, 0);
				if (s->kmin || s->kmax)
					absent_collect(db, p, s, &absent_alloc, 0);
			}
			if (!s->init)
				s->init = slot_value(db, p, 0, 0);
			if (!s->lsm)
				s->lsm = slot_value(db, p, 1, 0);
			if (!s->firewall)
				s->firewall = slot_value(db, p, 2, 0);
		}
		prof_loc none = {NULL, 0, 0};
		collect_ref(&c, names[i], none, NULL, 0, &all, -2);
	}
	set_reqs(s, &all);
	rl_release(&all);
	for (size_t i = 0; i < c.nmemo; i++)
		free(c.memo[i].v);
	free(c.memo);
	kf_strmap_release(&c.done);
	free(c.edge);
	find_conflicts(&c, s);
	if (c.nerr) {
		prof_set_free(s);
		return NULL;
	}
	return s;
}

void prof_set_free(prof_set *s)
{
	if (!s)
		return;
	free((prof_absent *)s->absent);
	kf_arena_free(s->arena);
	free(s);
}

/* ---- text helpers ---- */

/* "text" with " and \ escaped, as the language and .config write strings. */
static const char *quoted(kf_arena *a, const char *v)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addch(&sb, '"');
	for (const char *p = v; *p; p++) {
		if (*p == '"' || *p == '\\')
			kf_strbuf_addch(&sb, '\\');
		kf_strbuf_addch(&sb, *p);
	}
	kf_strbuf_addch(&sb, '"');
	const char *out = kf_arena_strdup(a, kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	return out;
}

const char *prof_quote(kf_arena *a, const char *v)
{
	return quoted(a, v);
}

const char *prof_alt_wanted(kf_arena *a, const prof_alt *alt, bool boot, int initramfs)
{
	switch (alt->want) {
	case PROF_WANT_ENABLED:
		if (boot && initramfs == PROF_INITRAMFS_NO)
			return "y";
		return "y or m";
	case PROF_WANT_BUILTIN:
		return "y";
	case PROF_WANT_OFF:
		return "n";
	case PROF_WANT_STRING:
		return quoted(a, alt->value);
	case PROF_WANT_NUMBER:
		return alt->value;
	case PROF_WANT_AT_LEAST:
		return kf_arena_printf(a, ">=%s", alt->value);
	case PROF_WANT_CONTAINS:
		if (alt->before)
			return kf_arena_printf(a, "a list with %s before any %s", alt->value,
					       alt->before);
		return kf_arena_printf(a, "a list with %s", alt->value);
	case PROF_WANT_LACKS:
		return kf_arena_printf(a, "a list without %s", alt->value);
	}
	return "?";
}

/* One alternative as written, appended to sb. */
static void alt_expr(kf_arena *a, const prof_alt *al, kf_strbuf *sb)
{
	kf_strbuf_addstr(sb, al->sym);
	switch (al->want) {
	case PROF_WANT_ENABLED:
		break;
	case PROF_WANT_BUILTIN:
		kf_strbuf_addstr(sb, "=y");
		break;
	case PROF_WANT_OFF:
		kf_strbuf_addstr(sb, "=n");
		break;
	case PROF_WANT_STRING:
		kf_strbuf_addf(sb, "=%s", quoted(a, al->value));
		break;
	case PROF_WANT_NUMBER:
		kf_strbuf_addf(sb, "=%s", al->value);
		break;
	case PROF_WANT_AT_LEAST:
		kf_strbuf_addf(sb, ">=%s", al->value);
		break;
	case PROF_WANT_CONTAINS:
		kf_strbuf_addf(sb, " contains %s", al->value);
		if (al->before)
			kf_strbuf_addf(sb, " before %s", al->before);
		break;
	case PROF_WANT_LACKS:
		kf_strbuf_addf(sb, " does not contain %s", al->value);
		break;
	}
}

const char *prof_alt_expr(kf_arena *a, const prof_alt *alt)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	alt_expr(a, alt, &sb);
	const char *out = kf_arena_strdup(a, kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	return out;
}

size_t prof_group_end(const prof_req *r, size_t k)
{
	while (k + 1 < r->nalts && r->alts[k + 1].group == r->alts[k].group)
		k++;
	return k + 1;
}

bool prof_req_has_groups(const prof_req *r)
{
	for (size_t k = 0, e; k < r->nalts; k = e) {
		e = prof_group_end(r, k);
		if (e - k > 1)
			return true;
	}
	return false;
}

/* "A || B", "A && B", "A || (B && C)": a group in parentheses when it
 * is one of several */
const char *prof_req_expr(kf_arena *a, const prof_req *r)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	bool several = r->nalts && prof_group_end(r, 0) < r->nalts;
	for (size_t k = 0, e; k < r->nalts; k = e) {
		e = prof_group_end(r, k);
		if (k)
			kf_strbuf_addstr(&sb, " || ");
		bool paren = several && e - k > 1;
		if (paren)
			kf_strbuf_addch(&sb, '(');
		for (size_t i = k; i < e; i++) {
			if (i > k)
				kf_strbuf_addstr(&sb, " && ");
			alt_expr(a, &r->alts[i], &sb);
		}
		if (paren)
			kf_strbuf_addch(&sb, ')');
	}
	const char *out = kf_arena_strdup(a, kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	return out;
}

const char *prof_cond_text(kf_arena *a, const prof_cond *c)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	char b[16];
	if (c->kmin)
		kf_strbuf_addf(&sb, " kernel>=%s", kf_kver_format(c->kmin, b));
	if (c->kmax)
		kf_strbuf_addf(&sb, " kernel<%s", kf_kver_format(c->kmax, b));
	if (c->narch) {
		kf_strbuf_addstr(&sb, " arch=");
		for (size_t i = 0; i < c->narch; i++)
			kf_strbuf_addf(&sb, "%s%s", i ? "," : "", c->arch[i]);
	}
	if (c->if_alt) {
		kf_strbuf_addstr(&sb, " if ");
		alt_expr(a, c->if_alt, &sb);
	} else if (c->if_sym) {
		kf_strbuf_addf(&sb, " if %s", c->if_sym);
	}
	const char *out = kf_arena_strdup(a, sb.len ? kf_strbuf_str(&sb) + 1 : "");
	kf_strbuf_release(&sb);
	return out;
}
