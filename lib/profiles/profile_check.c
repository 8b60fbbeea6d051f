/*
 * profile_check.c - test a .config against a resolved requirement list:
 * renamed symbols looked up under the name the config's kernel version
 * uses, boot-critical requirements judged by the initramfs habit, and
 * must-be-off requirements on symbols a kernel no longer has held.
 */
#include "profile_internal.h"

#include <stdlib.h>
#include <string.h>

static bool is_on(const char *v)
{
	return v && (!strcmp(v, "y") || !strcmp(v, "m"));
}

bool prof_list_has(const char *list, const char *item)
{
	size_t n = strlen(item);
	for (const char *p = list ? list : ""; *p;) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		if (l == n && !memcmp(p, item, n))
			return true;
		if (!c)
			break;
		p = c + 1;
	}
	return false;
}

bool prof_list_before(const char *list, const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	for (const char *p = list ? list : ""; *p;) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		if (l == na && !memcmp(p, a, na))
			return true;
		if (l == nb && !memcmp(p, b, nb))
			return false;
		if (!c)
			break;
		p = c + 1;
	}
	return true;
}

bool prof_alt_holds(const prof_alt *alt, const char *v, bool boot, int initramfs)
{
	switch (alt->want) {
	case PROF_WANT_ENABLED:
		if (boot && initramfs == PROF_INITRAMFS_NO)
			return v && !strcmp(v, "y");
		return is_on(v);
	case PROF_WANT_BUILTIN:
		return v && !strcmp(v, "y");
	case PROF_WANT_OFF:
		return !v || !strcmp(v, "n");
	case PROF_WANT_STRING:
		/* an absent string symbol is invisible: its value is "" */
		return v ? !strcmp(v, alt->value) : !*alt->value;
	case PROF_WANT_CONTAINS:
		if (!prof_list_has(v, alt->value))
			return false;
		return !alt->before || prof_list_before(v, alt->value, alt->before);
	case PROF_WANT_LACKS:
		return !prof_list_has(v, alt->value);
	case PROF_WANT_NUMBER:
	case PROF_WANT_AT_LEAST:
		if (!v || !*v)
			return false;
		char *end;
		long long a = strtoll(v, &end, 0);
		if (*end)
			return false;
		if (alt->want == PROF_WANT_AT_LEAST)
			return a >= strtoll(alt->value, NULL, 0);
		return a == strtoll(alt->value, NULL, 0);
	}
	return false;
}

/* Does the requirement's `if` hold in cfg? */
static bool cond_holds(const prof_db *db, const prof_cond *c, const kf_dotconfig *cfg,
		       uint32_t kver)
{
	const char *v = kf_dotconfig_get(cfg, prof_sym_for_kver(db, c->if_sym, kver));
	if (!c->if_alt)
		return is_on(v);
	return prof_alt_holds(c->if_alt, v, false, PROF_INITRAMFS_YES);
}

bool prof_req_is_hard(const prof_req *r)
{
	return r->level == PROF_REQUIRE && !r->soft;
}

/* The `absent` of s that makes r not apply to kernel kver: every
 * alternative names a symbol the release's own kernels lack, and kver is
 * one of them; NULL otherwise. */
static const prof_absent *req_absent(const prof_db *db, const prof_set *s,
				     const prof_req *r, uint32_t kver)
{
	if (!s->nabsent || !kver || (s->kmin && kver < s->kmin) || (s->kmax && kver >= s->kmax))
		return NULL;
	const prof_absent *first = NULL;
	for (size_t k = 0; k < r->nalts; k++) {
		const char *nw = prof_sym_newest(db, r->alts[k].sym);
		const prof_absent *hit = NULL;
		for (size_t i = 0; i < s->nabsent && !hit; i++)
			if (!strcmp(s->absent[i].newest, nw))
				hit = &s->absent[i];
		if (!hit)
			return NULL;
		if (!first)
			first = hit;
	}
	return first;
}

size_t prof_check(const prof_db *db, prof_set *s, const kf_dotconfig *cfg,
		  const prof_check_opts *o, prof_result **out)
{
	prof_result *res = kf_xcalloc(s->n ? s->n : 1, sizeof(*res));
	int initramfs = o->initramfs != PROF_INITRAMFS_UNKNOWN ? o->initramfs : s->initramfs;
	size_t unmet = 0;
	for (size_t i = 0; i < s->n; i++) {
		const prof_req *r = s->reqs[i];
		prof_result *x = &res[i];
		x->req = r;
		kf_strbuf checked = KF_STRBUF_INIT, wanted = KF_STRBUF_INIT, found = KF_STRBUF_INIT;
		bool holds = false;
		/* one alternative: wanted "y or m", found "n"; several: each
		 * named, a group of several in parentheses when there are
		 * other groups ("A=y or m or (B=y or m and C=y)") */
		bool several = r->nalts > 1;
		bool groups = several && prof_group_end(r, 0) < r->nalts;
		for (size_t g = 0, e; g < r->nalts; g = e) {
			e = prof_group_end(r, g);
			bool all = true, paren = groups && e - g > 1;
			if (g) {
				kf_strbuf_addstr(&checked, " || ");
				kf_strbuf_addstr(&wanted, " or ");
			}
			if (paren) {
				kf_strbuf_addch(&checked, '(');
				kf_strbuf_addch(&wanted, '(');
			}
			for (size_t k = g; k < e; k++) {
				const prof_alt *al = &r->alts[k];
				const char *name = prof_alt_sym(db, al, o->kver);
				const char *v = kf_dotconfig_get(cfg, name);
				if (!prof_alt_holds(al, v, r->boot, initramfs))
					all = false;
				kf_strbuf_addf(&checked, "%s%s", k > g ? " && " : "", name);
				if (several) {
					kf_strbuf_addf(&wanted, "%s%s=%s", k > g ? " and " : "", name,
						       prof_alt_wanted(s->arena, al, r->boot, initramfs));
					kf_strbuf_addf(&found, "%s%s=", k ? ", " : "", name);
				} else {
					kf_strbuf_addstr(&wanted, prof_alt_wanted(s->arena, al, r->boot, initramfs));
				}
				if (!v)
					kf_strbuf_addstr(&found, "absent");
				else if (kf_dotconfig_is_string(cfg, name))
					kf_strbuf_addstr(&found, prof_quote(s->arena, v));
				else
					kf_strbuf_addstr(&found, v);
			}
			if (paren) {
				kf_strbuf_addch(&checked, ')');
				kf_strbuf_addch(&wanted, ')');
			}
			if (all)
				holds = true;
		}
		x->checked = kf_arena_strdup(s->arena, kf_strbuf_str(&checked));
		x->wanted = kf_arena_strdup(s->arena, kf_strbuf_str(&wanted));
		x->found = kf_arena_strdup(s->arena, kf_strbuf_str(&found));
		kf_strbuf_release(&checked);
		kf_strbuf_release(&wanted);
		kf_strbuf_release(&found);
		if (!prof_req_applies(r, o->kver, o->arch) ||
		    (r->cond.if_sym && !cond_holds(db, &r->cond, cfg, o->kver))) {
			x->outcome = PROF_NOT_APPLICABLE;
		} else if ((x->absent = req_absent(db, s, r, o->kver))) {
			x->outcome = PROF_NOT_APPLICABLE;
		} else if (r->shadowed_by) {
			x->outcome = PROF_SHADOWED;
		} else if (holds) {
			x->outcome = PROF_MET;
		} else {
			x->outcome = PROF_UNMET;
			if (prof_req_is_hard(r))
				unmet++;
		}
	}
	*out = res;
	return unmet;
}
