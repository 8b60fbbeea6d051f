/*
 * detect_cond.c - the #if conditions over CONFIG_ symbols a device table
 * or MODULE_ALIAS stands under: defined(), IS_ENABLED(), IS_BUILTIN(),
 * IS_MODULE(), !, && and the defined(X) || defined(X_MODULE) idiom; what
 * is not understood is dropped (the alias then holds more widely).
 */
#include "detect_scan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *skip_sp(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\\' || *p == '\n'))
		p++;
	return p;
}

/* A CONFIG_ name at p..e (whole): the literal; false otherwise. */
static bool config_name(const char *p, const char *e, char kind, bool neg, condlit *l)
{
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (e - p <= 7 || strncmp(p, "CONFIG_", 7))
		return false;
	for (const char *q = p; q < e; q++)
		if (!isalnum((unsigned char)*q) && *q != '_')
			return false;
	size_t n = (size_t)(e - p - 7);
	if (kind == 'y' && n > 7 && !strncmp(e - 7, "_MODULE", 7)) {
		kind = 'm';
		n -= 7;
	}
	if (n >= sizeof(l->sym))
		return false;
	memcpy(l->sym, p + 7, n);
	l->sym[n] = 0;
	l->kind = kind;
	l->neg = neg;
	return true;
}

/* One operand of && in an #if: 1 a literal, 0 not understood, 2 always
 * true, 3 always false. */
static int cond_operand(const char *p, const char *e, condlit *l)
{
	bool neg = false;
	for (;;) {
		p = skip_sp(p, e);
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (p < e && *p == '!') {
			neg = !neg;
			p++;
			continue;
		}
		/* (x) as a whole */
		if (p < e && *p == '(' && e[-1] == ')') {
			int depth = 0;
			const char *q = p;
			for (; q < e; q++) {
				if (*q == '(')
					depth++;
				else if (*q == ')' && --depth == 0)
					break;
			}
			if (q == e - 1) {
				p++;
				e--;
				continue;
			}
		}
		break;
	}
	if (e - p == 1 && (*p == '0' || *p == '1'))
		return (*p == '1') != neg ? 2 : 3;
	static const struct {
		const char *fn;
		char kind;
	} fns[] = {{"defined", 'y'},	{"IS_ENABLED", 'e'}, {"IS_REACHABLE", 'e'},
		   {"IS_BUILTIN", 'y'}, {"IS_MODULE", 'm'}};
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		size_t fl = strlen(fns[i].fn);
		if ((size_t)(e - p) <= fl || strncmp(p, fns[i].fn, fl) ||
		    isalnum((unsigned char)p[fl]) || p[fl] == '_')
			continue;
		const char *a = skip_sp(p + fl, e), *z = e;
		if (a < z && *a == '(' && z[-1] == ')') {
			a++;
			z--;
		} else if (i != 0) {
			return 0;
		}
		a = skip_sp(a, z);
		return config_name(a, z, fns[i].kind, neg, l) ? 1 : 0;
	}
	return config_name(p, e, 'y', neg, l) ? 1 : 0;
}

/* #if EXPR: a conjunction of understood operands (others dropped). */
static void cond_if(condframe *f, const char *p, const char *e)
{
	f->n = 0;
	f->known = true;
	f->dead = false;
	int depth = 0;
	for (const char *q = p; q + 1 < e; q++) {
		if (*q == '(')
			depth++;
		else if (*q == ')')
			depth--;
		else if (!depth && q[0] == '|' && q[1] == '|') {
			/* defined(CONFIG_X) || defined(CONFIG_X_MODULE): IS_ENABLED */
			condlit a, b;
			if (cond_operand(p, q, &a) == 1 && cond_operand(q + 2, e, &b) == 1 && !a.neg &&
			    !b.neg && !strcmp(a.sym, b.sym) && a.kind != b.kind && a.kind != 'e' &&
			    b.kind != 'e') {
				a.kind = 'e';
				f->lit[f->n++] = a;
			} else {
				f->known = false;
			}
			return;
		}
	}
	const char *st = p;
	depth = 0;
	for (const char *q = p;; q++) {
		bool end = q + 1 >= e;
		if (!end) {
			if (*q == '(')
				depth++;
			else if (*q == ')')
				depth--;
		}
		if (!end && !(depth == 0 && q[0] == '&' && q[1] == '&'))
			continue;
		condlit l;
		int r = cond_operand(st, end ? e : q, &l);
		if (r == 1 && f->n < 4)
			f->lit[f->n++] = l;
		else if (r == 3)
			f->dead = true;
		else if (r != 2)
			f->known = false;
		if (end)
			break;
		st = q + 2;
		q++;
	}
}

/* Apply one directive line (text after '#', up to e). */
void cond_directive(condstack *cs, const char *p, const char *e)
{
	p = skip_sp(p, e);
	const char *w = p;
	while (p < e && isalpha((unsigned char)*p))
		p++;
	size_t wl = (size_t)(p - w);
	condframe *top = cs->depth > 0 && cs->depth <= 16 ? &cs->f[cs->depth - 1] : NULL;
	if ((wl == 5 && !strncmp(w, "ifdef", 5)) || (wl == 6 && !strncmp(w, "ifndef", 6)) ||
	    (wl == 2 && !strncmp(w, "if", 2))) {
		cs->depth++;
		if (cs->depth > 16)
			return;
		condframe *f = &cs->f[cs->depth - 1];
		memset(f, 0, sizeof(*f));
		if (wl == 2) {
			cond_if(f, p, e);
			return;
		}
		const char *a = skip_sp(p, e), *z = a;
		while (z < e && (isalnum((unsigned char)*z) || *z == '_'))
			z++;
		f->known = config_name(a, z, 'y', wl == 6, &f->lit[0]);
		f->n = f->known;
	} else if (wl == 4 && !strncmp(w, "elif", 4)) {
		if (top)
			memset(top, 0, sizeof(*top));
	} else if (wl == 4 && !strncmp(w, "else", 4)) {
		if (!top)
			return;
		if (top->dead) {
			memset(top, 0, sizeof(*top));
		} else if (top->known && top->n == 0) {
			top->dead = true; /* #if 1 */
		} else if (top->known && top->n == 1) {
			top->lit[0].neg = !top->lit[0].neg;
		} else {
			memset(top, 0, sizeof(*top));
		}
	} else if (wl == 5 && !strncmp(w, "endif", 5)) {
		if (cs->depth > 0)
			cs->depth--;
	}
}

/* Process the directive lines of t[from, to) (from at a line start). */
static void cond_scan(condstack *cs, const char *t, size_t from, size_t to)
{
	size_t i = from;
	while (i < to) {
		size_t e = i;
		while (e < to && t[e] != '\n')
			e++;
		size_t p = i;
		while (p < e && (t[p] == ' ' || t[p] == '\t'))
			p++;
		if (p < e && t[p] == '#') {
			while (e < to && e > i && t[e - 1] == '\\') {
				e++;
				while (e < to && t[e] != '\n')
					e++;
			}
			cond_directive(cs, t + p + 1, t + e);
		}
		i = e + 1;
	}
}

/* The condition in effect: "SYM=y,!SYM2=e" (malloc'd) or NULL when none;
 * *dead when some level is #if 0. */
static char *cond_string(const condstack *cs, bool *dead)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	*dead = false;
	for (int i = 0; i < cs->depth && i < 16; i++) {
		const condframe *f = &cs->f[i];
		if (f->dead)
			*dead = true;
		for (int k = 0; k < f->n; k++)
			kf_strbuf_addf(&sb, "%s%s%s=%c", sb.len ? "," : "", f->lit[k].neg ? "!" : "",
				       f->lit[k].sym, f->lit[k].kind);
	}
	if (sb.len)
		return kf_strbuf_detach(&sb);
	kf_strbuf_release(&sb);
	return NULL;
}

/* The condition at offset pos of t. */
char *cond_at(const char *t, size_t pos, bool *dead)
{
	condstack cs;
	cs.depth = 0;
	cond_scan(&cs, t, 0, pos);
	return cond_string(&cs, dead);
}

/* Two conditions joined (either may be NULL); malloc'd or NULL. */
char *cond_join(const char *a, const char *b)
{
	if (!a || !*a)
		return b && *b ? kf_xstrdup(b) : NULL;
	if (!b || !*b)
		return kf_xstrdup(a);
	return kf_xasprintf("%s,%s", a, b);
}

void condlines_push(condlines *cl)
{
	if (!cl)
		return;
	KF_GROW(cl->v, cl->n + 1, cl->a);
	cl->v[cl->n].cond = cond_string(&cl->cs, &cl->v[cl->n].dead);
	cl->n++;
}

void condlines_release(condlines *cl)
{
	for (size_t i = 0; i < cl->n; i++)
		free(cl->v[i].cond);
	free(cl->v);
}
