/*
 * detect_cpp.c - just enough of the C preprocessor to read driver device
 * ID tables: a token scanner, #define collection (object- and function-like,
 * # and ##), macro expansion with the kernel's own header macros
 * (PCI_DEVICE, USB_DEVICE, HID_USB_DEVICE, X86_MATCH_...), and an integer
 * and string expression evaluator for initializer values.  Conditionals are
 * ignored: every #define is taken, the last one wins.  Used by
 * detect_scan.c only.
 */
#include "detect_internal.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- tokens ---- */

static bool is_id_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool is_id_char(int c)
{
	return isalnum(c) || c == '_';
}

void dcpp_toks_release(dcpp_toks *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].s);
	free(t->v);
	t->v = NULL;
	t->n = t->alloc = 0;
}

static void toks_push(dcpp_toks *t, dcpp_kind k, const char *s, size_t n, int line)
{
	KF_GROW(t->v, t->n + 1, t->alloc);
	t->v[t->n].kind = k;
	t->v[t->n].s = kf_xstrndup(s, n);
	t->v[t->n].line = line;
	t->n++;
}

static void toks_push_tok(dcpp_toks *t, const dcpp_tok *k)
{
	toks_push(t, k->kind, k->s, strlen(k->s), k->line);
}

void dcpp_tokenize(const char *s, size_t n, int line, dcpp_toks *out)
{
	size_t i = 0;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n') {
			line++;
			i++;
			continue;
		}
		if (isspace(c) || c == '\\') {
			i++;
			continue;
		}
		size_t st = i;
		if (is_id_start(c)) {
			while (i < n && is_id_char((unsigned char)s[i]))
				i++;
			toks_push(out, DCPP_ID, s + st, i - st, line);
		} else if (isdigit(c) || (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
			while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '.'))
				i++;
			toks_push(out, DCPP_NUM, s + st, i - st, line);
		} else if (c == '"' || c == '\'') {
			i++;
			while (i < n && s[i] != (char)c) {
				if (s[i] == '\\' && i + 1 < n)
					i++;
				if (s[i] == '\n')
					line++;
				i++;
			}
			if (i < n)
				i++;
			toks_push(out, c == '"' ? DCPP_STR : DCPP_CHR, s + st, i - st, line);
		} else if (c == '#' && i + 1 < n && s[i + 1] == '#') {
			i += 2;
			toks_push(out, DCPP_PASTE, "##", 2, line);
		} else if (c == '#') {
			i++;
			toks_push(out, DCPP_HASH, "#", 1, line);
		} else {
			static const char *const two[] = {"<<", ">>", "->", "&&", "||", "==", "!=",
							  "<=", ">=", "..."};
			size_t len = 1;
			for (size_t k = 0; k < sizeof(two) / sizeof(two[0]); k++)
				if (!strncmp(s + i, two[k], strlen(two[k]))) {
					len = strlen(two[k]);
					break;
				}
			i += len;
			toks_push(out, DCPP_PUNCT, s + st, len, line);
		}
	}
}

/* ---- comments ---- */

/* Comments become spaces, as the compiler sees them (one space before
 * directives are read): a comment that spans lines does not end a
 * #define, so its newlines move to the end of the logical line
 * (quirks-table.h's QUIRK_RME_DIGIFACE has one inside its body).  The
 * length and the number of lines stay the same. */
void dcpp_strip_comments(char *s, size_t n)
{
	/* In place: the output never runs ahead of the input (k <= i), and
	 * they differ only while a comment's newlines wait (pending).  While
	 * they are equal, every byte but a quote or a slash is copied onto
	 * itself, so the loop skips straight to the next one of those. */
	size_t i = 0, k = 0, pending = 0;
	while (i < n) {
		if (k == i && !pending) {
			while (i < n && s[i] != '"' && s[i] != '\'' && s[i] != '/')
				i++;
			k = i;
			if (i >= n)
				break;
		}
		if (s[i] == '"' || s[i] == '\'') {
			char q = s[i];
			s[k++] = s[i++];
			while (i < n && s[i] != q && s[i] != '\n') {
				if (s[i] == '\\' && i + 1 < n)
					s[k++] = s[i++];
				s[k++] = s[i++];
			}
			if (i < n && s[i] == q)
				s[k++] = s[i++];
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
			while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
				if (s[i] == '\n')
					pending++;
				else
					s[k++] = ' ';
				i++;
			}
			for (int t = 0; t < 2 && i < n; t++, i++)
				s[k++] = ' ';
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n') {
				s[k++] = ' ';
				i++;
			}
		} else if (s[i] == '\n' && !(k > 0 && s[k - 1] == '\\')) {
			s[k++] = s[i++];
			for (; pending; pending--)
				s[k++] = '\n';
		} else {
			s[k++] = s[i++];
		}
	}
	for (; pending && k < n; pending--)
		s[k++] = '\n';
}

/* ---- macro table ---- */

typedef struct dcpp_macro {
	char *name;      /* macro name */
	int nparams;     /* -1: object-like, -2: #undef */
	char **params;   /* parameter names ("__VA_ARGS__" for ...) */
	char *body;      /* replacement text */
	size_t pos;      /* offset of the #define in the file (for limits) */
	struct dcpp_macro *prev; /* the definition this one replaced */
} dcpp_macro;

struct dcpp_defs {
	dcpp_macro *v;   /* macros */
	size_t n;        /* how many */
	size_t alloc;    /* capacity */
	kf_hindex index; /* v by name */
	const dcpp_defs *parent; /* looked up when a name is not here */
	size_t limit;    /* only definitions before this offset count */
	size_t undef_limit; /* only #undefs before this offset count */
	size_t pos_base; /* SIZE_MAX: record own offsets; else this one */
};

dcpp_defs *dcpp_defs_new(const dcpp_defs *parent)
{
	dcpp_defs *d = kf_xcalloc(1, sizeof(*d));
	d->parent = parent;
	d->limit = SIZE_MAX;
	d->undef_limit = SIZE_MAX;
	d->pos_base = SIZE_MAX;
	return d;
}

void dcpp_defs_set_parent(dcpp_defs *d, const dcpp_defs *parent)
{
	d->parent = parent;
}

void dcpp_defs_set_limit(dcpp_defs *d, size_t limit, size_t undef_limit)
{
	d->limit = limit;
	d->undef_limit = undef_limit;
}

size_t dcpp_defs_set_pos_base(dcpp_defs *d, size_t pos)
{
	size_t old = d->pos_base;
	d->pos_base = pos;
	return old;
}

static void macro_free(dcpp_macro *m)
{
	free(m->name);
	for (int k = 0; k < m->nparams; k++)
		free(m->params[k]);
	free(m->params);
	free(m->body);
}

void dcpp_defs_free(dcpp_defs *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		dcpp_macro *m = d->v[i].prev;
		while (m) {
			dcpp_macro *p = m->prev;
			macro_free(m);
			free(m);
			m = p;
		}
		macro_free(&d->v[i]);
	}
	free(d->v);
	kf_hindex_release(&d->index);
	free(d);
}

static bool macro_eq(const void *ctx, size_t i, const void *name)
{
	const dcpp_defs *d = ctx;
	return !strcmp(d->v[i].name, name);
}

static const dcpp_macro *defs_lookup(const dcpp_defs *d, const char *name)
{
	uint32_t hash = kf_hash_str(name);
	for (; d; d = d->parent) {
		size_t i = kf_hindex_find(&d->index, hash, macro_eq, d, name);
		if (i == KF_HINDEX_NONE)
			continue;
		const dcpp_macro *m = &d->v[i];
		/* definitions up to limit count; #undefs only before undef_limit
		   (a table whose body defines, uses and undefines macros) */
		while (m && (m->pos >= d->limit || (m->nparams == -2 && m->pos >= d->undef_limit)))
			m = m->prev;
		if (m)
			return m->nparams == -2 ? NULL : m;
	}
	return NULL;
}

static void defs_add(dcpp_defs *d, char *name, int nparams, char **params, char *body,
		     size_t pos)
{
	uint32_t hash = kf_hash_str(name);
	size_t i = kf_hindex_find(&d->index, hash, macro_eq, d, name);
	if (d->pos_base != SIZE_MAX)
		pos = d->pos_base;
	if (i != KF_HINDEX_NONE) {
		/* keep the older definition for lookups limited to before pos */
		dcpp_macro *m = &d->v[i];
		dcpp_macro *old = kf_xmalloc(sizeof(*old));
		*old = *m;
		*m = (dcpp_macro){name, nparams, params, body, pos, old};
		return;
	}
	KF_GROW(d->v, d->n + 1, d->alloc);
	d->v[d->n] = (dcpp_macro){name, nparams, params, body, pos, NULL};
	kf_hindex_add(&d->index, hash, d->n++);
}

/* enum { A, B = 4, C } as macros A=(0), B=(4), C=((4)+1): IDs and
 * constants drivers and headers define as enumerators. */
static void collect_enums(dcpp_defs *d, const char *s, size_t n)
{
	for (size_t i = 0; i + 5 < n; i++) {
		const char *e = memmem(s + i, n - i, "enum", 4);
		if (!e || (size_t)(e - s) + 5 >= n)
			break;
		i = (size_t)(e - s);
		if (s[i] != 'e' || strncmp(s + i, "enum", 4) || is_id_char((unsigned char)s[i + 4]) ||
		    (i > 0 && is_id_char((unsigned char)s[i - 1])))
			continue;
		size_t p = i + 4;
		while (p < n && (isspace((unsigned char)s[p]) || is_id_char((unsigned char)s[p])))
			p++;
		if (p >= n || s[p] != '{')
			continue;
		size_t enum_pos = i;
		p++;
		char *base = kf_xstrdup("0");
		long k = 0;
		while (p < n && s[p] != '}') {
			while (p < n && (isspace((unsigned char)s[p]) || s[p] == ','))
				p++;
			size_t ns = p;
			while (p < n && is_id_char((unsigned char)s[p]))
				p++;
			if (p == ns)
				break;
			char *name = kf_xstrndup(s + ns, p - ns);
			while (p < n && isspace((unsigned char)s[p]))
				p++;
			if (p < n && s[p] == '=') {
				p++;
				size_t vs = p;
				int depth = 0;
				while (p < n && (depth || (s[p] != ',' && s[p] != '}'))) {
					if (s[p] == '(')
						depth++;
					else if (s[p] == ')')
						depth--;
					p++;
				}
				free(base);
				base = kf_xstrndup(s + vs, p - vs);
				k = 0;
			}
			char *body = k ? kf_xasprintf("((%s)+%ld)", base, k) : kf_xasprintf("(%s)", base);
			k++;
			defs_add(d, name, -1, NULL, body, enum_pos);
			/* skip attributes or junk up to the next comma */
			while (p < n && s[p] != ',' && s[p] != '}')
				p++;
		}
		free(base);
		i = p;
	}
}

/* Collect the #defines of comment-stripped text s; quoted #includes are
 * reported through inc (may be NULL). */
void dcpp_collect(dcpp_defs *d, const char *s, size_t n,
		  void (*inc)(const char *name, bool angle, size_t pos, void *ctx), void *ctx)
{
	size_t i = 0;
	while (i < n) {
		/* at the start of a line */
		size_t p = i;
		while (p < n && (s[p] == ' ' || s[p] == '\t'))
			p++;
		if (p < n && s[p] == '#') {
			p++;
			while (p < n && (s[p] == ' ' || s[p] == '\t'))
				p++;
			/* the logical line: up to an unescaped newline */
			size_t e = p;
			while (e < n && !(s[e] == '\n' && (e == 0 || s[e - 1] != '\\')))
				e++;
			if (!strncmp(s + p, "define", 6) && (s[p + 6] == ' ' || s[p + 6] == '\t')) {
				p += 7;
				while (p < e && (s[p] == ' ' || s[p] == '\t'))
					p++;
				size_t ns = p;
				while (p < e && is_id_char((unsigned char)s[p]))
					p++;
				if (p > ns) {
					char *name = kf_xstrndup(s + ns, p - ns);
					int np = -1;
					char **params = NULL;
					if (p < e && s[p] == '(') {
						np = 0;
						size_t alloc = 0;
						p++;
						while (p < e && s[p] != ')') {
							while (p < e && (isspace((unsigned char)s[p]) || s[p] == ',' || s[p] == '\\'))
								p++;
							size_t as = p;
							if (p + 2 < e && !strncmp(s + p, "...", 3)) {
								p += 3;
								KF_GROW(params, (size_t)np + 1, alloc);
								params[np++] = kf_xstrdup("__VA_ARGS__");
								continue;
							}
							while (p < e && is_id_char((unsigned char)s[p]))
								p++;
							if (p > as) {
								KF_GROW(params, (size_t)np + 1, alloc);
								params[np++] = kf_xstrndup(s + as, p - as);
								if (p + 2 < e && !strncmp(s + p, "...", 3))
									p += 3; /* named variadic */
							} else if (p < e && s[p] != ')') {
								p++;
							}
						}
						if (p < e)
							p++;
					}
					defs_add(d, name, np, params, kf_xstrndup(s + p, e - p), i);
				}
			} else if (!strncmp(s + p, "undef", 5) && (s[p + 5] == ' ' || s[p + 5] == '\t')) {
				p += 6;
				while (p < e && (s[p] == ' ' || s[p] == '\t'))
					p++;
				size_t ns = p;
				while (p < e && is_id_char((unsigned char)s[p]))
					p++;
				if (p > ns)
					defs_add(d, kf_xstrndup(s + ns, p - ns), -2, NULL, kf_xstrdup(""), i);
			} else if (inc && !strncmp(s + p, "include", 7)) {
				p += 7;
				while (p < e && (s[p] == ' ' || s[p] == '\t'))
					p++;
				if (p < e && s[p] == '"') {
					size_t q = p + 1;
					while (q < e && s[q] != '"')
						q++;
					char *name = kf_xstrndup(s + p + 1, q - p - 1);
					inc(name, false, d->pos_base != SIZE_MAX ? d->pos_base : i, ctx);
					free(name);
				} else if (p < e && s[p] == '<') {
					size_t q = p + 1;
					while (q < e && s[q] != '>')
						q++;
					char *name = kf_xstrndup(s + p + 1, q - p - 1);
					inc(name, true, d->pos_base != SIZE_MAX ? d->pos_base : i, ctx);
					free(name);
				}
			}
			i = e;
		}
		const char *nl = i < n ? memchr(s + i, '\n', n - i) : NULL;
		i = nl ? (size_t)(nl - s) + 1 : n + 1;
	}
	collect_enums(d, s, n);
}

/* ---- expansion ---- */

typedef struct hideset {
	const char *names[64]; /* macros being expanded */
	int n;                 /* how many */
} hideset;

static bool hidden(const hideset *h, const char *name)
{
	for (int i = 0; i < h->n; i++)
		if (!strcmp(h->names[i], name))
			return true;
	return false;
}

static void expand(const dcpp_defs *d, const dcpp_toks *in, size_t from, size_t to,
		   hideset *hs, dcpp_toks *out, int depth);

/* Stringify tokens as # does (roughly: spaces between tokens). */
static char *stringify(const dcpp_toks *t, size_t a, size_t b)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addch(&sb, '"');
	for (size_t i = a; i < b; i++) {
		if (i > a)
			kf_strbuf_addch(&sb, ' ');
		for (const char *p = t->v[i].s; *p; p++) {
			if (*p == '"' || *p == '\\')
				kf_strbuf_addch(&sb, '\\');
			kf_strbuf_addch(&sb, *p);
		}
	}
	kf_strbuf_addch(&sb, '"');
	return kf_strbuf_detach(&sb);
}

/* Find the arguments of a call whose '(' is at in->v[i]; fills starts/ends
 * (token ranges) and returns the index after ')' or 0 when unbalanced. */
static size_t call_args(const dcpp_toks *in, size_t i, size_t to, size_t *as, size_t *ae,
			int *nargs, int max)
{
	int depth = 0;
	*nargs = 0;
	size_t st = i + 1;
	for (size_t k = i; k < to; k++) {
		const char *s = in->v[k].s;
		if (in->v[k].kind != DCPP_PUNCT)
			continue;
		if (!strcmp(s, "(") || !strcmp(s, "{") || !strcmp(s, "[")) {
			depth++;
		} else if (!strcmp(s, ")") || !strcmp(s, "}") || !strcmp(s, "]")) {
			depth--;
			if (depth == 0) {
				if (*nargs < max) {
					as[*nargs] = st;
					ae[*nargs] = k;
				}
				if (k > st || *nargs > 0)
					(*nargs)++;
				return k + 1;
			}
		} else if (!strcmp(s, ",") && depth == 1) {
			if (*nargs < max) {
				as[*nargs] = st;
				ae[*nargs] = k;
			}
			(*nargs)++;
			st = k + 1;
		}
	}
	return 0;
}

#define MAXARGS 32

static void expand_macro(const dcpp_defs *d, const dcpp_macro *m, const dcpp_toks *in,
			 size_t *as, size_t *ae, int nargs, hideset *hs, dcpp_toks *out,
			 int depth)
{
	dcpp_toks body = {0};
	dcpp_tokenize(m->body, strlen(m->body), 0, &body);
	/* substitute parameters; # and ## handled on the raw arguments */
	dcpp_toks sub = {0};
	for (size_t i = 0; i < body.n; i++) {
		dcpp_tok *t = &body.v[i];
		int pi = -1;
		if (t->kind == DCPP_ID)
			for (int k = 0; k < m->nparams; k++)
				if (!strcmp(m->params[k], t->s)) {
					pi = k;
					break;
				}
		if (t->kind == DCPP_HASH && m->nparams >= 0 && i + 1 < body.n &&
		    body.v[i + 1].kind == DCPP_ID) {
			int qi = -1;
			for (int k = 0; k < m->nparams; k++)
				if (!strcmp(m->params[k], body.v[i + 1].s))
					qi = k;
			if (qi >= 0) {
				char *s;
				if (qi < nargs && qi < MAXARGS)
					s = stringify(in, as[qi], ae[qi]);
				else
					s = kf_xstrdup("\"\"");
				toks_push(&sub, DCPP_STR, s, strlen(s), t->line);
				free(s);
				i++;
				continue;
			}
		}
		/* GNU ", ## __VA_ARGS__": the comma goes when there are no
		   variadic arguments, and nothing is pasted */
		if (t->kind == DCPP_PUNCT && !strcmp(t->s, ",") && i + 2 < body.n &&
		    body.v[i + 1].kind == DCPP_PASTE && body.v[i + 2].kind == DCPP_ID &&
		    m->nparams > 0 && !strcmp(body.v[i + 2].s, "__VA_ARGS__") &&
		    !strcmp(m->params[m->nparams - 1], "__VA_ARGS__")) {
			int vi = m->nparams - 1;
			if (vi < nargs && vi < MAXARGS && ae[nargs - 1 < MAXARGS ? nargs - 1 : MAXARGS - 1] > as[vi]) {
				toks_push_tok(&sub, t);
				expand(d, in, as[vi], ae[nargs - 1 < MAXARGS ? nargs - 1 : MAXARGS - 1], hs,
				       &sub, depth + 1);
			}
			i += 2;
			continue;
		}
		if (pi < 0) {
			toks_push_tok(&sub, t);
			continue;
		}
		bool raw = (i + 1 < body.n && body.v[i + 1].kind == DCPP_PASTE) ||
			   (i > 0 && body.v[i - 1].kind == DCPP_PASTE);
		size_t a0, a1;
		if (!strcmp(m->params[pi], "__VA_ARGS__") && pi < nargs && pi < MAXARGS) {
			a0 = as[pi];
			a1 = ae[nargs - 1 < MAXARGS ? nargs - 1 : MAXARGS - 1];
		} else if (pi < nargs && pi < MAXARGS) {
			a0 = as[pi];
			a1 = ae[pi];
		} else {
			continue;
		}
		if (raw) {
			for (size_t k = a0; k < a1; k++)
				toks_push_tok(&sub, &in->v[k]);
		} else {
			expand(d, in, a0, a1, hs, &sub, depth + 1);
		}
	}
	/* pasting */
	dcpp_toks pasted = {0};
	for (size_t i = 0; i < sub.n; i++) {
		if (sub.v[i].kind == DCPP_PASTE) {
			if (pasted.n && i + 1 < sub.n) {
				dcpp_tok *l = &pasted.v[pasted.n - 1];
				char *s = kf_xasprintf("%s%s", l->s, sub.v[i + 1].s);
				free(l->s);
				l->s = s;
				if (l->kind != DCPP_ID || !is_id_start((unsigned char)s[0]))
					l->kind = isdigit((unsigned char)s[0]) ? DCPP_NUM : l->kind;
				i++;
			}
			continue;
		}
		toks_push_tok(&pasted, &sub.v[i]);
	}
	if (hs->n < 64) {
		hs->names[hs->n++] = m->name;
		expand(d, &pasted, 0, pasted.n, hs, out, depth + 1);
		hs->n--;
	}
	dcpp_toks_release(&body);
	dcpp_toks_release(&sub);
	dcpp_toks_release(&pasted);
}

static void expand(const dcpp_defs *d, const dcpp_toks *in, size_t from, size_t to,
		   hideset *hs, dcpp_toks *out, int depth)
{
	for (size_t i = from; i < to; i++) {
		const dcpp_tok *t = &in->v[i];
		const dcpp_macro *m = NULL;
		if (t->kind == DCPP_ID && depth < 40 && !hidden(hs, t->s))
			m = defs_lookup(d, t->s);
		if (!m) {
			toks_push_tok(out, t);
			continue;
		}
		size_t before = out->n;
		if (m->nparams < 0) {
			size_t as[1], ae[1];
			expand_macro(d, m, in, as, ae, 0, hs, out, depth);
			for (size_t k = before; k < out->n; k++)
				out->v[k].line = t->line;
			continue;
		}
		if (i + 1 >= to || strcmp(in->v[i + 1].s, "(")) {
			toks_push_tok(out, t);
			continue;
		}
		size_t as[MAXARGS], ae[MAXARGS];
		int nargs;
		size_t next = call_args(in, i + 1, to, as, ae, &nargs, MAXARGS);
		if (!next) {
			toks_push_tok(out, t);
			continue;
		}
		expand_macro(d, m, in, as, ae, nargs, hs, out, depth);
		for (size_t k = before; k < out->n; k++)
			out->v[k].line = t->line;
		i = next - 1;
	}
}

void dcpp_expand(const dcpp_defs *d, const dcpp_toks *in, size_t from, size_t to,
		 dcpp_toks *out)
{
	hideset hs;
	hs.n = 0;
	expand(d, in, from, to, &hs, out, 0);
}

/* ---- evaluation ---- */

typedef struct evalst {
	const dcpp_toks *t; /* expanded tokens */
	size_t i;           /* position */
	size_t end;         /* end of the expression */
	bool bad;           /* something not understood */
} evalst;

static const char *peek(evalst *e)
{
	return e->i < e->end ? e->t->v[e->i].s : "";
}

static bool accept(evalst *e, const char *p)
{
	if (e->i < e->end && e->t->v[e->i].kind == DCPP_PUNCT && !strcmp(e->t->v[e->i].s, p)) {
		e->i++;
		return true;
	}
	return false;
}

static long long ev_ternary(evalst *e);

static bool is_type_word(const char *s)
{
	static const char *const w[] = {"u8", "u16", "u32", "u64", "__u8", "__u16", "__u32",
					"__u64", "unsigned", "int", "long", "char", "short",
					"kernel_ulong_t", "uint8_t", "uint16_t", "uint32_t",
					"size_t", "const", "void", "signed", "__le16", "__le32"};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(s, w[i]))
			return true;
	return false;
}

static long long ev_unary(evalst *e)
{
	if (accept(e, "-"))
		return -ev_unary(e);
	if (accept(e, "+"))
		return ev_unary(e);
	if (accept(e, "~"))
		return ~ev_unary(e);
	if (accept(e, "!"))
		return !ev_unary(e);
	if (accept(e, "(")) {
		/* a cast? */
		size_t k = e->i;
		bool cast = k < e->end && e->t->v[k].kind == DCPP_ID && is_type_word(e->t->v[k].s);
		if (cast) {
			while (k < e->end && (e->t->v[k].kind == DCPP_ID || !strcmp(e->t->v[k].s, "*")))
				k++;
			if (k < e->end && !strcmp(e->t->v[k].s, ")")) {
				e->i = k + 1;
				return ev_unary(e);
			}
		}
		long long v = ev_ternary(e);
		if (!accept(e, ")"))
			e->bad = true;
		return v;
	}
	if (e->i >= e->end) {
		e->bad = true;
		return 0;
	}
	const dcpp_tok *t = &e->t->v[e->i++];
	if (t->kind == DCPP_NUM) {
		char *endp;
		unsigned long long v = strtoull(t->s, &endp, 0);
		while (*endp == 'u' || *endp == 'U' || *endp == 'l' || *endp == 'L')
			endp++;
		if (*endp)
			e->bad = true;
		return (long long)v;
	}
	if (t->kind == DCPP_CHR && strlen(t->s) >= 3)
		return (unsigned char)t->s[1];
	/* floor(log2(x)): what the scanner defines const_ilog2 and ilog2 as
	   (the kernel's are __builtin_constant_p ternary chains) */
	if (t->kind == DCPP_ID && !strcmp(t->s, "__kfit_ilog2") && accept(e, "(")) {
		long long v = ev_ternary(e);
		if (!accept(e, ")") || v <= 0) {
			e->bad = true;
			return 0;
		}
		long long r = 0;
		for (unsigned long long u = (unsigned long long)v; u > 1; u >>= 1)
			r++;
		return r;
	}
	e->bad = true;
	return 0;
}

static long long ev_bin(evalst *e, int lvl)
{
	static const char *const ops[][4] = {
		{"||", NULL}, {"&&", NULL}, {"|", NULL}, {"^", NULL}, {"&", NULL},
		{"==", "!=", NULL}, {"<", ">", "<=", ">="}, {"<<", ">>", NULL},
		{"+", "-", NULL}, {"*", "/", "%"},
	};
	if (lvl == 10)
		return ev_unary(e);
	long long v = ev_bin(e, lvl + 1);
	for (;;) {
		const char *op = NULL;
		for (int k = 0; k < 4 && ops[lvl][k]; k++)
			if (e->i < e->end && e->t->v[e->i].kind == DCPP_PUNCT &&
			    !strcmp(peek(e), ops[lvl][k]))
				op = ops[lvl][k];
		if (!op)
			return v;
		e->i++;
		long long r = ev_bin(e, lvl + 1);
		if (!strcmp(op, "||")) v = v || r;
		else if (!strcmp(op, "&&")) v = v && r;
		else if (!strcmp(op, "|")) v |= r;
		else if (!strcmp(op, "^")) v ^= r;
		else if (!strcmp(op, "&")) v &= r;
		else if (!strcmp(op, "==")) v = v == r;
		else if (!strcmp(op, "!=")) v = v != r;
		else if (!strcmp(op, "<")) v = v < r;
		else if (!strcmp(op, ">")) v = v > r;
		else if (!strcmp(op, "<=")) v = v <= r;
		else if (!strcmp(op, ">=")) v = v >= r;
		else if (!strcmp(op, "<<")) v = (long long)((unsigned long long)v << (r & 63));
		else if (!strcmp(op, ">>")) v = (long long)((unsigned long long)v >> (r & 63));
		else if (!strcmp(op, "+")) v += r;
		else if (!strcmp(op, "-")) v -= r;
		else if (!strcmp(op, "*")) v *= r;
		else if (!strcmp(op, "/")) v = r ? v / r : (e->bad = true, 0);
		else if (!strcmp(op, "%")) v = r ? v % r : (e->bad = true, 0);
	}
}

static long long ev_ternary(evalst *e)
{
	long long c = ev_bin(e, 0);
	if (accept(e, "?")) {
		/* GNU x ?: y (aic7xxx's GETID) */
		if (accept(e, ":")) {
			long long b = ev_ternary(e);
			return c ? c : b;
		}
		long long a = ev_ternary(e);
		if (!accept(e, ":"))
			e->bad = true;
		long long b = ev_ternary(e);
		return c ? a : b;
	}
	return c;
}

bool dcpp_eval_int(const dcpp_toks *t, size_t from, size_t to, long long *v)
{
	evalst e = {t, from, to, false};
	*v = ev_ternary(&e);
	return !e.bad && e.i == to;
}

/* Append the body of string literal s (with quotes) to sb, unescaping the
 * simple escapes. */
static void add_literal(kf_strbuf *sb, const char *s)
{
	size_t n = strlen(s);
	for (size_t i = 1; i + 1 < n; i++) {
		if (s[i] == '\\' && i + 2 < n) {
			i++;
			switch (s[i]) {
			case 'n': kf_strbuf_addch(sb, '\n'); break;
			case 't': kf_strbuf_addch(sb, '\t'); break;
			default: kf_strbuf_addch(sb, s[i]); break;
			}
			continue;
		}
		kf_strbuf_addch(sb, s[i]);
	}
}

char *dcpp_eval_str(const dcpp_toks *t, size_t from, size_t to)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	size_t i = from;
	/* skip casts and parentheses around the literal */
	while (i < to && !strcmp(t->v[i].s, "("))
		i++;
	bool any = false;
	for (; i < to; i++) {
		if (t->v[i].kind == DCPP_STR) {
			add_literal(&sb, t->v[i].s);
			any = true;
		} else if (!strcmp(t->v[i].s, ")")) {
			continue;
		} else {
			kf_strbuf_release(&sb);
			return NULL;
		}
	}
	if (!any)
		return NULL;
	if (!sb.buf)
		return kf_xstrdup("");
	return kf_strbuf_detach(&sb);
}
