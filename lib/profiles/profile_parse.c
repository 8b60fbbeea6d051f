/*
 * profile_parse.c - read the profile language (docs/profiles.md) into a
 * prof_db.  The language is line oriented: a statement per line starting in
 * column 1, and indented `reason` / `source` lines attached to the
 * statement above.  Every error names file:line:col and is followed by the
 * line with a caret under the column.  Parsing never runs anything.
 */
#include "profile_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Grow an arena-backed array: room for one more element. */
static void *ar_grow(kf_arena *a, void *old, size_t n, size_t *alloc, size_t sz)
{
	if (n + 1 <= *alloc)
		return old;
	size_t na = *alloc ? *alloc * 2 : 4;
	void *nv = kf_arena_alloc(a, na * sz);
	if (n)
		memcpy(nv, old, n * sz);
	*alloc = na;
	return nv;
}

#define AR_PUSH(a, v, n, alloc, x)                                               \
	do {                                                                     \
		(v) = ar_grow((a), (v), (n), &(alloc), sizeof(*(v)));            \
		(v)[(n)++] = (x);                                                \
	} while (0)

/* One whitespace-separated token of a line. */
typedef struct tok {
	const char *s; /* start in the line */
	size_t len;    /* length */
	int col;       /* 1-based column */
} tok;

/* Parser state for one file. */
typedef struct pstate {
	prof_db *db;          /* where profiles go */
	kf_diags *d;          /* where errors go */
	const char *file;     /* file name in the arena */
	prof_file *pf;        /* the file's entry in db->files */
	int line;             /* current line number */
	const char *ltext;    /* current line */
	size_t llen;          /* its length without newline */
	int nerr;             /* errors in this file */
	prof_profile *prof;   /* profile being read, or NULL */
	size_t prof_stmt_alloc; /* capacity of prof->stmts */
	size_t prof_src_alloc;  /* capacity of prof->sources */
	/* the statement indented attribute lines attach to */
	const char **att_reason;  /* where a reason goes, NULL: none allowed */
	const char ***att_sources; /* where sources go */
	size_t *att_nsources;     /* their count */
	size_t att_srcalloc;      /* their capacity */
	prof_loc att_loc;         /* statement location, for missing-reason */
	bool att_need_reason;     /* reason mandatory */
	bool att_need_source;     /* source mandatory */
	bool local;               /* a user's local file: no source is a warning */
	const char *att_what;     /* "requirement", "drop", "rename" */
	bool att_skip;            /* the statement failed: ignore its attributes */
	prof_req *att_req;        /* the requirement attributes attach to, or NULL */
	size_t att_rlalloc;       /* capacity of att_req->reason_locs */
} pstate;

static void perr(pstate *ps, int col, const char *fmt, ...) KF_PRINTF(3, 4);

/* Report an error at col of the current line, with the caret line. */
static void perr(pstate *ps, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kf_diag_vadd(ps->d, KF_ERROR, ps->file, ps->line, col, fmt, ap);
	va_end(ap);
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, " ");
	for (size_t i = 0; i < ps->llen; i++)
		kf_strbuf_addch(&sb, ps->ltext[i] == '\t' ? ' ' : ps->ltext[i]);
	kf_strbuf_addstr(&sb, "\n ");
	for (int i = 1; i < col; i++)
		kf_strbuf_addch(&sb, ' ');
	kf_strbuf_addch(&sb, '^');
	kf_diag_raw(ps->d, KF_NOTE, "%s", kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	ps->nerr++;
}

/* Error at a remembered location (not the current line): no caret. */
static void perr_at(pstate *ps, prof_loc l, const char *fmt, ...) KF_PRINTF(3, 4);
static void perr_at(pstate *ps, prof_loc l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kf_diag_vadd(ps->d, KF_ERROR, l.file, l.line, l.col, fmt, ap);
	va_end(ap);
	ps->nerr++;
}

static bool tok_is(const tok *t, const char *s)
{
	return t->len == strlen(s) && !memcmp(t->s, s, t->len);
}

static char *tok_dup(pstate *ps, const tok *t)
{
	return kf_arena_strndup(ps->db->arena, t->s, t->len);
}

/*
 * Split the line from offset `from` into tokens; a quoted string (with \"
 * escapes) is part of its token; `#` at a token start ends the line.
 * Returns the number of tokens or -1 on an unterminated string.
 */
static int tokenize(pstate *ps, size_t from, tok *out, int max)
{
	int n = 0;
	size_t i = from;
	const char *s = ps->ltext;
	while (i < ps->llen) {
		while (i < ps->llen && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i >= ps->llen || s[i] == '#')
			break;
		size_t st = i;
		bool inq = false;
		while (i < ps->llen && (inq || (s[i] != ' ' && s[i] != '\t'))) {
			if (s[i] == '"')
				inq = !inq;
			else if (inq && s[i] == '\\' && i + 1 < ps->llen)
				i++;
			i++;
		}
		if (inq) {
			perr(ps, (int)st + 1, "unterminated string");
			return -1;
		}
		if (n == max) {
			perr(ps, (int)st + 1, "too many words on one line");
			return -1;
		}
		out[n].s = s + st;
		out[n].len = i - st;
		out[n].col = (int)st + 1;
		n++;
	}
	return n;
}

/* The rest of the line after a keyword, trimmed; NULL when empty. */
static const char *rest_text(pstate *ps, size_t from)
{
	size_t i = from, e = ps->llen;
	while (i < e && (ps->ltext[i] == ' ' || ps->ltext[i] == '\t'))
		i++;
	while (e > i && (ps->ltext[e - 1] == ' ' || ps->ltext[e - 1] == '\t'))
		e--;
	if (i == e)
		return NULL;
	return kf_arena_strndup(ps->db->arena, ps->ltext + i, e - i);
}

static bool valid_profile_name(const char *s, size_t n)
{
	if (!n || !(islower((unsigned char)s[0]) || isdigit((unsigned char)s[0])))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!(islower(c) || isdigit(c) || c == '-' || c == '.' || c == '_'))
			return false;
	}
	return s[n - 1] != '-' && s[n - 1] != '.';
}

/* Template names end in "-N" (systemd-N). */
static bool is_template_name(const char *s, size_t n)
{
	return n > 2 && s[n - 2] == '-' && s[n - 1] == 'N';
}

/* Check a symbol token; returns false after reporting an error. */
static bool check_sym(pstate *ps, const char *s, size_t n, int col)
{
	if (n >= 7 && !strncmp(s, "CONFIG_", 7)) {
		perr(ps, col, "write symbols without the CONFIG_ prefix");
		return false;
	}
	bool ok = n > 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!(isupper(c) || isdigit(c) || c == '_'))
			ok = false;
	}
	if (!ok) {
		perr(ps, col, "invalid symbol name '%.*s'", (int)n, s);
		return false;
	}
	return true;
}

/* "X.Y.Z" from a token part; reports and returns -1 when malformed. */
static int parse_kver_at(pstate *ps, const char *s, size_t n, int col, uint32_t *out)
{
	char buf[32];
	if (n >= sizeof(buf) || !n) {
		perr(ps, col, "invalid kernel version '%.*s' (expected X.Y.Z)", (int)n, s);
		return -1;
	}
	memcpy(buf, s, n);
	buf[n] = 0;
	if (kf_kver_parse(buf, out) < 0) {
		perr(ps, col, "invalid kernel version '%s' (expected X.Y.Z)", buf);
		return -1;
	}
	return 0;
}

static int parse_long_at(pstate *ps, const char *s, size_t n, int col, long *out)
{
	char buf[24];
	if (!n || n >= sizeof(buf)) {
		perr(ps, col, "invalid version number '%.*s'", (int)n, s);
		return -1;
	}
	memcpy(buf, s, n);
	buf[n] = 0;
	char *end;
	errno = 0;
	long v = strtol(buf, &end, 10);
	if (*end || errno || v < 0 || !isdigit((unsigned char)buf[0])) {
		perr(ps, col, "invalid version number '%s'", buf);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_alt(pstate *ps, const tok *t, int nt, int *i, prof_alt *alt);

/*
 * A qualifier: kernel>=V, kernel<V, arch=A[,B], boot, literal, if SYM, STEM>=N,
 * STEM<N.  *i indexes toks and is advanced past what was used.  Returns 0
 * or -1 after an error.
 */
static int parse_qual(pstate *ps, tok *t, int nt, int *i, prof_cond *c, bool *boot,
		      bool *literal)
{
	tok *q = &t[*i];
	const char *s = q->s;
	size_t n = q->len;
	if (tok_is(q, "boot") || tok_is(q, "literal")) {
		*(tok_is(q, "boot") ? boot : literal) = true;
		(*i)++;
		return 0;
	}
	if (tok_is(q, "if")) {
		if (*i + 1 >= nt) {
			perr(ps, q->col + 2, "'if' needs a symbol");
			return -1;
		}
		if (c->if_sym) {
			perr(ps, q->col, "only one 'if' per line");
			return -1;
		}
		prof_alt *a = kf_arena_alloc(ps->db->arena, sizeof(*a));
		int j = *i + 1;
		if (parse_alt(ps, t, nt, &j, a) < 0)
			return -1;
		c->if_sym = a->sym;
		c->if_alt = a;
		*i = j;
		return 0;
	}
	if (n > 5 && !strncmp(s, "arch=", 5)) {
		const char *p = s + 5, *e = s + n;
		while (p < e) {
			const char *comma = memchr(p, ',', (size_t)(e - p));
			const char *we = comma ? comma : e;
			if (we == p) {
				perr(ps, q->col + (int)(p - s), "empty architecture name");
				return -1;
			}
			for (const char *x = p; x < we; x++)
				if (!(islower((unsigned char)*x) || isdigit((unsigned char)*x) || *x == '_')) {
					perr(ps, q->col + (int)(p - s),
					     "invalid architecture '%.*s'", (int)(we - p), p);
					return -1;
				}
			/* a fresh array per name: lists are a few words long */
			const char **na = kf_arena_alloc(ps->db->arena, (c->narch + 1) * sizeof(*na));
			if (c->narch)
				memcpy(na, c->arch, c->narch * sizeof(*na));
			c->arch = na;
			c->arch[c->narch++] = kf_arena_strndup(ps->db->arena, p, (size_t)(we - p));
			p = comma ? comma + 1 : e;
		}
		(*i)++;
		return 0;
	}
	/* NAME>=V or NAME<V */
	const char *op = NULL;
	for (size_t k = 0; k < n; k++)
		if (s[k] == '>' || s[k] == '<') {
			op = s + k;
			break;
		}
	if (op) {
		size_t namelen = (size_t)(op - s);
		bool ge = op[0] == '>';
		if (ge && (op + 1 >= s + n || op[1] != '=')) {
			perr(ps, q->col + (int)namelen, "use '>=' or '<' in a range");
			return -1;
		}
		if (!ge && op + 1 < s + n && op[1] == '=') {
			perr(ps, q->col + (int)namelen, "use '>=' or '<' in a range");
			return -1;
		}
		const char *v = op + (ge ? 2 : 1);
		size_t vl = (size_t)(s + n - v);
		int vcol = q->col + (int)(v - s);
		if (namelen == 6 && !strncmp(s, "kernel", 6)) {
			uint32_t kv;
			if (parse_kver_at(ps, v, vl, vcol, &kv) < 0)
				return -1;
			if (ge)
				c->kmin = kv;
			else
				c->kmax = kv;
			if (c->kmin && c->kmax && c->kmin >= c->kmax) {
				perr(ps, q->col, "empty kernel version range");
				return -1;
			}
			(*i)++;
			return 0;
		}
		prof_profile *p = ps->prof;
		if (p && p->stem && strlen(p->stem) == namelen && !strncmp(s, p->stem, namelen)) {
			long pv;
			if (parse_long_at(ps, v, vl, vcol, &pv) < 0)
				return -1;
			if (ge)
				c->pmin = pv;
			else
				c->pmax = pv;
			if (c->pmin >= 0 && c->pmax >= 0 && c->pmin >= c->pmax) {
				perr(ps, q->col, "empty version range");
				return -1;
			}
			(*i)++;
			return 0;
		}
		perr(ps, q->col, "unknown range '%.*s' (expected kernel%s)", (int)namelen, s,
		     p && p->stem ? kf_arena_printf(ps->db->arena, " or %s", p->stem) : "");
		return -1;
	}
	perr(ps, q->col, "unknown qualifier '%.*s'", (int)n, s);
	return -1;
}

/* A list item: a word without commas or quotes (an LSM's name). */
static bool valid_item(const tok *t)
{
	for (size_t k = 0; k < t->len; k++) {
		unsigned char c = (unsigned char)t->s[k];
		if (!(isalnum(c) || c == '_' || c == '-' || c == '.' || c == '+'))
			return false;
	}
	return t->len > 0;
}

/*
 * Parse one alternative at t[*i] into alt and advance *i past it: SYM,
 * SYM=VALUE, SYM contains ITEM, SYM does not contain ITEM.
 */
static int parse_alt(pstate *ps, const tok *tv, int nt, int *i, prof_alt *alt)
{
	const tok *t = &tv[*i];
	const tok *nx = *i + 1 < nt ? &tv[*i + 1] : NULL;
	bool has = nx && tok_is(nx, "contains");
	bool lacks = nx && tok_is(nx, "does");
	if (has || lacks) {
		if (!check_sym(ps, t->s, t->len, t->col))
			return -1;
		int k = *i + 2;
		if (lacks && !(k + 1 < nt && tok_is(&tv[k], "not") && tok_is(&tv[k + 1], "contain"))) {
			perr(ps, nx->col, "expected 'does not contain ITEM'");
			return -1;
		}
		if (lacks)
			k += 2;
		if (k >= nt) {
			perr(ps, tv[k - 1].col + (int)tv[k - 1].len + 1,
			     "expected a list item after '%s'", has ? "contains" : "contain");
			return -1;
		}
		if (!valid_item(&tv[k])) {
			perr(ps, tv[k].col,
			     "invalid list item '%.*s' (one name: letters, digits, '_', '-', '.', '+')",
			     (int)tv[k].len, tv[k].s);
			return -1;
		}
		alt->sym = tok_dup(ps, t);
		alt->loc = (prof_loc){ps->file, ps->line, t->col};
		alt->want = has ? PROF_WANT_CONTAINS : PROF_WANT_LACKS;
		alt->value = tok_dup(ps, &tv[k]);
		*i = k + 1;
		if (has && k + 1 < nt && tok_is(&tv[k + 1], "before")) {
			const tok *b = k + 2 < nt ? &tv[k + 2] : NULL;
			if (!b) {
				perr(ps, tv[k + 1].col + 7, "expected a list item after 'before'");
				return -1;
			}
			if (!valid_item(b)) {
				perr(ps, b->col,
				     "invalid list item '%.*s' (one name: letters, digits, '_', '-', '.', '+')",
				     (int)b->len, b->s);
				return -1;
			}
			if (tok_is(b, alt->value)) {
				perr(ps, b->col, "'%s before %s': an item cannot come before itself",
				     alt->value, alt->value);
				return -1;
			}
			alt->before = tok_dup(ps, b);
			*i = k + 3;
		}
		return 0;
	}
	(*i)++;
	const char *eq = memchr(t->s, '=', t->len);
	size_t sl = eq ? (size_t)(eq - t->s) : t->len;
	if (!check_sym(ps, t->s, sl, t->col))
		return -1;
	alt->sym = kf_arena_strndup(ps->db->arena, t->s, sl);
	alt->loc = (prof_loc){ps->file, ps->line, t->col};
	alt->want = PROF_WANT_ENABLED;
	if (!eq)
		return 0;
	const char *v = eq + 1;
	size_t vl = t->len - sl - 1;
	int vcol = t->col + (int)sl + 1;
	if (vl == 1 && v[0] == 'y') {
		alt->want = PROF_WANT_BUILTIN;
	} else if (vl == 1 && v[0] == 'n') {
		alt->want = PROF_WANT_OFF;
	} else if (vl == 1 && v[0] == 'm') {
		perr(ps, vcol, "'=m' is not a requirement: write %s for y or m", alt->sym);
		return -1;
	} else if (vl >= 2 && v[0] == '"') {
		if (v[vl - 1] != '"') {
			perr(ps, vcol, "text after the closing quote");
			return -1;
		}
		char *out = kf_arena_alloc(ps->db->arena, vl);
		size_t o = 0;
		for (size_t k = 1; k + 1 < vl; k++) {
			if (v[k] == '\\' && k + 2 < vl)
				k++;
			out[o++] = v[k];
		}
		out[o] = 0;
		alt->want = PROF_WANT_STRING;
		alt->value = out;
	} else {
		char buf[40];
		if (!vl || vl >= sizeof(buf)) {
			perr(ps, vcol, "invalid value '%.*s' for %s (expected y, n, a \"string\" or a number)",
			     (int)vl, v, alt->sym);
			return -1;
		}
		memcpy(buf, v, vl);
		buf[vl] = 0;
		char *end;
		errno = 0;
		if (!strncmp(buf, "0x", 2) || !strncmp(buf, "0X", 2))
			(void)strtoull(buf + 2, &end, 16);
		else
			(void)strtoll(buf, &end, 10);
		if (*end || errno || !strcmp(buf, "0x") || !strcmp(buf, "-") ||
		    !(isdigit((unsigned char)buf[0]) || buf[0] == '-')) {
			perr(ps, vcol, "invalid value '%s' for %s (expected y, n, a \"string\" or a number)",
			     buf, alt->sym);
			return -1;
		}
		alt->want = PROF_WANT_NUMBER;
		alt->value = kf_arena_strdup(ps->db->arena, buf);
	}
	return 0;
}

static void cond_init(prof_cond *c)
{
	memset(c, 0, sizeof(*c));
	c->pmin = -1;
	c->pmax = -1;
}

/* Close the statement attributes attach to: check mandatory ones. */
static void attach_close(pstate *ps)
{
	if (ps->att_reason) {
		if (ps->att_need_reason && !*ps->att_reason)
			perr_at(ps, ps->att_loc, "%s has no reason", ps->att_what);
		else if (ps->att_need_source && !*ps->att_nsources && ps->local)
			kf_diag_add(ps->d, KF_WARNING, ps->att_loc.file, ps->att_loc.line,
				    ps->att_loc.col, "%s has no source (allowed in a local profile)",
				    ps->att_what);
		else if (ps->att_need_source && !*ps->att_nsources)
			perr_at(ps, ps->att_loc, "%s has no source", ps->att_what);
	}
	ps->att_reason = NULL;
	ps->att_sources = NULL;
	ps->att_nsources = NULL;
	ps->att_req = NULL;
}

static void attach_open(pstate *ps, const char **reason, const char ***sources,
			size_t *nsources, bool need_reason, bool need_source,
			const char *what, int col)
{
	ps->att_reason = reason;
	ps->att_sources = sources;
	ps->att_nsources = nsources;
	ps->att_srcalloc = 0;
	ps->att_need_reason = need_reason;
	ps->att_need_source = need_source;
	ps->att_what = what;
	ps->att_loc = (prof_loc){ps->file, ps->line, col};
	ps->att_req = NULL;
	ps->att_rlalloc = 0;
}

static prof_stmt *new_stmt(pstate *ps, prof_stmt_kind k, int col)
{
	prof_profile *p = ps->prof;
	p->stmts = ar_grow(ps->db->arena, p->stmts, p->nstmts, &ps->prof_stmt_alloc,
			   sizeof(*p->stmts));
	prof_stmt *st = &p->stmts[p->nstmts++];
	memset(st, 0, sizeof(*st));
	st->kind = k;
	st->loc = (prof_loc){ps->file, ps->line, col};
	cond_init(&st->cond);
	return st;
}

/* `drop SYM` and `absent SYM`: one symbol, then a reason (and for
 * absent a source) below it. */
static void parse_sym_stmt(pstate *ps, tok *t, int nt, prof_stmt_kind kind, bool need_source)
{
	const tok *kw = &t[0];
	const char *what = kind == PROF_ST_DROP ? "drop" : "absent";
	if (nt < 2) {
		perr(ps, kw->col + (int)kw->len, "expected a symbol after '%s'", what);
		return;
	}
	if (!check_sym(ps, t[1].s, t[1].len, t[1].col))
		return;
	if (nt > 2) {
		perr(ps, t[2].col, "'%s' takes one symbol and nothing else", what);
		return;
	}
	prof_stmt *st = new_stmt(ps, kind, kw->col);
	st->name = tok_dup(ps, &t[1]);
	st->name_loc = (prof_loc){ps->file, ps->line, t[1].col};
	attach_open(ps, &st->reason, &st->sources, &st->nsources, true, need_source, what,
		    kw->col);
}

/* require/recommend/override lines. */
static void parse_req(pstate *ps, tok *t, int nt, int first, prof_level level,
		      bool override, int stcol)
{
	const char *kw = override ? "override" : (level == PROF_REQUIRE ? "require" : "recommend");
	if (first >= nt) {
		perr(ps, (int)ps->llen + 1, "expected a symbol after '%s'", kw);
		return;
	}
	/* '(' and ')' around a group may touch its first and last word:
	 * "(NF_TABLES && NFT_COMPAT)" is five words */
	tok x[192];
	int nx = 0;
	for (int k = first; k < nt; k++) {
		tok w = t[k];
		while (w.len > 1 && w.s[0] == '(' && nx < 190) {
			x[nx++] = (tok){w.s, 1, w.col};
			w.s++;
			w.len--;
			w.col++;
		}
		size_t close = 0, quotes = 0;
		for (size_t j = 0; j < w.len; j++)
			quotes += w.s[j] == '"';
		while (w.len > 1 && w.s[w.len - 1] == ')' && quotes % 2 == 0 &&
		       !(w.len >= 2 && w.s[w.len - 2] == '\\')) {
			w.len--;
			close++;
		}
		if (nx + 1 + (int)close > (int)(sizeof(x) / sizeof(x[0]))) {
			perr(ps, t[k].col, "too many words on one line");
			return;
		}
		x[nx++] = w;
		for (size_t j = 0; j < close; j++)
			x[nx++] = (tok){w.s + w.len + j, 1, w.col + (int)(w.len + j)};
	}
	prof_req *r = kf_arena_alloc(ps->db->arena, sizeof(*r));
	r->level = level;
	r->override = override;
	cond_init(&r->cond);
	size_t altalloc = 0;
	unsigned group = 0;
	int open = 0;       /* column of the '(' of the group being read */
	bool start = true;  /* at the start of a group */
	int i = 0;
	for (;;) {
		while (i < nx && tok_is(&x[i], "(")) {
			if (!start || open) {
				perr(ps, x[i].col, "a group cannot hold another group or '||': "
				     "write each combination as its own group (A && B || A && C)");
				return;
			}
			open = x[i].col;
			if (++i >= nx) {
				perr(ps, x[i - 1].col + 1, "expected a symbol after '('");
				return;
			}
		}
		if (i < nx && (tok_is(&x[i], ")") || tok_is(&x[i], "&&") || tok_is(&x[i], "||"))) {
			perr(ps, x[i].col, "expected a symbol before '%.*s'", (int)x[i].len, x[i].s);
			return;
		}
		prof_alt a;
		memset(&a, 0, sizeof(a));
		if (parse_alt(ps, x, nx, &i, &a) < 0)
			return;
		a.group = group;
		AR_PUSH(ps->db->arena, r->alts, r->nalts, altalloc, a);
		start = false;
		if (i < nx && tok_is(&x[i], "&&")) {
			if (i + 1 >= nx) {
				perr(ps, x[i].col + 2, "expected a symbol after '&&'");
				return;
			}
			i++;
			continue;
		}
		if (open && !(i < nx && tok_is(&x[i], ")"))) {
			perr(ps, i < nx ? x[i].col : (int)ps->llen + 1,
			     "expected ')' to close the group opened at column %d (a group joins its "
			     "symbols with '&&')", open);
			return;
		}
		if (!open && i < nx && tok_is(&x[i], ")")) {
			perr(ps, x[i].col, "')' without '('");
			return;
		}
		if (open) {
			open = 0;
			i++;
		}
		if (i < nx && tok_is(&x[i], "||")) {
			if (i + 1 >= nx) {
				perr(ps, x[i].col + 2, "expected a symbol after '||'");
				return;
			}
			i++;
			group++;
			start = true;
			continue;
		}
		break;
	}
	while (i < nx)
		if (parse_qual(ps, x, nx, &i, &r->cond, &r->boot, &r->literal) < 0)
			return;
	for (size_t k = 0; k < r->nalts; k++)
		r->alts[k].literal = r->literal;
	if (r->boot)
		for (size_t k = 0; k < r->nalts; k++) {
			if (r->alts[k].want == PROF_WANT_BUILTIN) {
				perr(ps, r->alts[k].loc.col,
				     "'boot' decides between y and m by the initramfs: write %s, not %s=y",
				     r->alts[k].sym, r->alts[k].sym);
				return;
			}
			if (r->alts[k].want != PROF_WANT_ENABLED) {
				perr(ps, r->alts[k].loc.col,
				     "'boot' applies only to symbols that are enabled");
				return;
			}
		}
	r->loc = (prof_loc){ps->file, ps->line, stcol};
	r->profile = ps->prof->name;
	prof_stmt *st = new_stmt(ps, PROF_ST_REQ, stcol);
	st->req = r;
	attach_open(ps, &r->reason, &r->sources, &r->nsources, true, true,
		    override ? "override" : "requirement", stcol);
	ps->att_req = r;
}

/* Statements that only make sense inside a profile. */
static bool need_profile(pstate *ps, const tok *kw)
{
	if (ps->prof)
		return true;
	perr(ps, kw->col, "'%.*s' outside a profile (start one with 'profile NAME')",
	     (int)kw->len, kw->s);
	return false;
}

static void parse_profile_line(pstate *ps, tok *t, int nt)
{
	if (nt < 2) {
		perr(ps, t[0].col + (int)t[0].len, "expected a profile name after 'profile'");
		return;
	}
	if (nt > 2) {
		perr(ps, t[2].col, "unexpected '%.*s' after the profile name", (int)t[2].len, t[2].s);
		return;
	}
	if (!valid_profile_name(t[1].s, t[1].len) && !is_template_name(t[1].s, t[1].len)) {
		perr(ps, t[1].col,
		     "invalid profile name '%.*s' (lower case letters, digits, '-', '.' and '_')",
		     (int)t[1].len, t[1].s);
		return;
	}
	const char *name = tok_dup(ps, &t[1]);
	for (size_t i = 0; i < ps->db->n; i++) {
		const prof_profile *o = ps->db->profs[i];
		if (!strcmp(o->name, name)) {
			perr(ps, t[1].col, "profile '%s' is already defined at %s:%d", name,
			     o->loc.file, o->loc.line);
			return;
		}
	}
	prof_profile *p = kf_arena_alloc(ps->db->arena, sizeof(*p));
	p->name = name;
	p->kind = PROF_KIND_FEATURE;
	p->initramfs = PROF_INITRAMFS_UNKNOWN;
	p->vmax = -1;
	p->loc = (prof_loc){ps->file, ps->line, t[0].col};
	p->local = ps->local;
	if (is_template_name(t[1].s, t[1].len))
		p->stem = kf_arena_strndup(ps->db->arena, t[1].s, t[1].len - 2);
	ps->prof = p;
	ps->prof_stmt_alloc = 0;
	ps->prof_src_alloc = 0;
	PROF_PUSH(ps->db->profs, ps->db->n, ps->db->alloc, p);
	AR_PUSH(ps->db->arena, ps->pf->names, ps->pf->n, ps->pf->alloc, name);
}

/* A header key that takes one profile-name word. */
static const char *one_name(pstate *ps, tok *t, int nt)
{
	if (nt < 2) {
		perr(ps, t[0].col + (int)t[0].len, "expected a profile name after '%.*s'",
		     (int)t[0].len, t[0].s);
		return NULL;
	}
	if (nt > 2) {
		perr(ps, t[2].col, "unexpected '%.*s'", (int)t[2].len, t[2].s);
		return NULL;
	}
	if (!valid_profile_name(t[1].s, t[1].len)) {
		perr(ps, t[1].col, "invalid profile name '%.*s'", (int)t[1].len, t[1].s);
		return NULL;
	}
	return tok_dup(ps, &t[1]);
}

static void parse_rename(pstate *ps, tok *t, int nt)
{
	if (ps->prof) {
		perr(ps, t[0].col, "'rename' belongs outside profiles (in profiles/renames.kfit)");
		return;
	}
	if (nt < 3) {
		perr(ps, t[0].col + (int)t[0].len, "expected 'rename OLD NEW kernel>=X.Y.Z'");
		return;
	}
	if (!check_sym(ps, t[1].s, t[1].len, t[1].col) || !check_sym(ps, t[2].s, t[2].len, t[2].col))
		return;
	prof_rename rn;
	memset(&rn, 0, sizeof(rn));
	rn.old_name = tok_dup(ps, &t[1]);
	rn.new_name = tok_dup(ps, &t[2]);
	rn.loc = (prof_loc){ps->file, ps->line, t[0].col};
	for (int i = 3; i < nt; i++) {
		if (t[i].len > 8 && !strncmp(t[i].s, "kernel>=", 8)) {
			if (parse_kver_at(ps, t[i].s + 8, t[i].len - 8, t[i].col + 8, &rn.since) < 0)
				return;
		} else if (t[i].len > 12 && !strncmp(t[i].s, "old-removed=", 12)) {
			if (parse_kver_at(ps, t[i].s + 12, t[i].len - 12, t[i].col + 12,
					  &rn.old_gone) < 0)
				return;
		} else {
			perr(ps, t[i].col, "unknown qualifier '%.*s' (expected kernel>=X.Y.Z or old-removed=X.Y.Z)",
			     (int)t[i].len, t[i].s);
			return;
		}
	}
	if (!rn.since) {
		perr(ps, t[2].col + (int)t[2].len, "a rename needs kernel>=X.Y.Z, the first version with the new name");
		return;
	}
	for (size_t i = 0; i < ps->db->nren; i++)
		if (!strcmp(ps->db->renames[i].old_name, rn.old_name)) {
			perr(ps, t[1].col, "%s is already renamed at %s:%d", rn.old_name,
			     ps->db->renames[i].loc.file, ps->db->renames[i].loc.line);
			return;
		}
	KF_GROW(ps->db->renames, ps->db->nren + 1, ps->db->renalloc);
	ps->db->renames[ps->db->nren] = rn;
	prof_rename *r = &ps->db->renames[ps->db->nren++];
	/* renames grow by realloc: attach through indices would be safer, but the
	 * attributes are read before the next rename line can move the array */
	attach_open(ps, &r->reason, &r->sources, &r->nsources, true, true, "rename", t[0].col);
}

/* `symbol NAME first=V|first<=V [gone=V|gone>=V]`: where NAME is known to
 * exist (profiles/symbols.kfit); reason and source lines are optional. */
static void parse_symbol(pstate *ps, tok *t, int nt)
{
	if (ps->prof) {
		perr(ps, t[0].col, "'symbol' belongs outside profiles (in profiles/symbols.kfit)");
		return;
	}
	if (nt < 3) {
		perr(ps, t[0].col + (int)t[0].len, "expected 'symbol NAME first=X.Y.Z'");
		return;
	}
	if (!check_sym(ps, t[1].s, t[1].len, t[1].col))
		return;
	prof_symspan sp;
	memset(&sp, 0, sizeof(sp));
	sp.sym = tok_dup(ps, &t[1]);
	sp.loc = (prof_loc){ps->file, ps->line, t[0].col};
	static const struct {
		const char *w;
		bool first, exact;
	} keys[] = {{"first<=", true, false}, {"first=", true, true},
		    {"gone>=", false, false}, {"gone=", false, true}};
	for (int i = 2; i < nt; i++) {
		size_t k = 0, kn = sizeof(keys) / sizeof(keys[0]);
		while (k < kn && (t[i].len <= strlen(keys[k].w) ||
				  strncmp(t[i].s, keys[k].w, strlen(keys[k].w))))
			k++;
		if (k == kn) {
			perr(ps, t[i].col, "unknown qualifier '%.*s' (expected first=X.Y.Z, first<=X.Y.Z, "
			     "gone=X.Y.Z or gone>=X.Y.Z)", (int)t[i].len, t[i].s);
			return;
		}
		size_t wl = strlen(keys[k].w);
		uint32_t *v = keys[k].first ? &sp.first : &sp.gone;
		if (parse_kver_at(ps, t[i].s + wl, t[i].len - wl, t[i].col + (int)wl, v) < 0)
			return;
		*(keys[k].first ? &sp.first_exact : &sp.gone_exact) = keys[k].exact;
	}
	if (!sp.first) {
		perr(ps, t[1].col + (int)t[1].len, "a symbol needs first=X.Y.Z or first<=X.Y.Z");
		return;
	}
	if (sp.gone && sp.gone <= sp.first) {
		perr(ps, t[1].col + (int)t[1].len, "gone must come after first");
		return;
	}
	KF_GROW(ps->db->spans, ps->db->nspans + 1, ps->db->spanalloc);
	ps->db->spans[ps->db->nspans] = sp;
	prof_symspan *r = &ps->db->spans[ps->db->nspans++];
	attach_open(ps, &r->reason, &r->sources, &r->nsources, false, false, "symbol", t[0].col);
}

static void parse_statement(pstate *ps)
{
	tok t[64];
	int nt = tokenize(ps, 0, t, 64);
	if (nt <= 0)
		return;
	tok *kw = &t[0];
	attach_close(ps);
	if (tok_is(kw, "profile")) {
		parse_profile_line(ps, t, nt);
		return;
	}
	if (tok_is(kw, "rename")) {
		parse_rename(ps, t, nt);
		return;
	}
	if (tok_is(kw, "symbol")) {
		parse_symbol(ps, t, nt);
		return;
	}
	static const char *const known[] = {
		"title", "kind", "inherit", "include", "init", "lsm", "firewall",
		"initramfs", "kernel", "arch", "versions", "source", "require",
		"recommend", "override", "drop", "absent", "reason",
	};
	bool is_known = false;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (tok_is(kw, known[i]))
			is_known = true;
	if (!is_known) {
		perr(ps, kw->col, "unknown statement '%.*s'", (int)kw->len, kw->s);
		return;
	}
	if (tok_is(kw, "reason")) {
		perr(ps, kw->col, "'reason' must be indented under a requirement, drop, absent, include or rename");
		return;
	}
	if (!need_profile(ps, kw))
		return;
	prof_profile *p = ps->prof;
	if (tok_is(kw, "title")) {
		const char *txt = rest_text(ps, kw->len + (size_t)(kw->col - 1));
		if (!txt)
			perr(ps, kw->col + (int)kw->len, "expected a title after 'title'");
		else if (p->title)
			perr(ps, kw->col, "profile '%s' already has a title", p->name);
		else
			p->title = txt;
	} else if (tok_is(kw, "source")) {
		const char *txt = rest_text(ps, kw->len + (size_t)(kw->col - 1));
		if (!txt)
			perr(ps, kw->col + (int)kw->len, "expected a document after 'source'");
		else
			AR_PUSH(ps->db->arena, p->sources, p->nsources, ps->prof_src_alloc, txt);
	} else if (tok_is(kw, "kind")) {
		static const char *const kinds[] = {"distro", "init", "feature", "platform", "base"};
		if (nt != 2) {
			perr(ps, nt < 2 ? kw->col + 4 : t[2].col, "expected one kind after 'kind'");
			return;
		}
		for (int k = 0; k < 5; k++)
			if (tok_is(&t[1], kinds[k])) {
				p->kind = (prof_kind)k;
				return;
			}
		perr(ps, t[1].col, "unknown kind '%.*s' (expected distro, init, feature, platform or base)",
		     (int)t[1].len, t[1].s);
	} else if (tok_is(kw, "inherit")) {
		const char *n = one_name(ps, t, nt);
		if (!n)
			return;
		if (p->inherit) {
			perr(ps, kw->col, "a profile inherits from one profile only (already '%s')", p->inherit);
			return;
		}
		p->inherit = n;
		p->inherit_loc = (prof_loc){ps->file, ps->line, t[1].col};
	} else if (tok_is(kw, "include")) {
		const char *n = one_name(ps, t, nt);
		if (!n)
			return;
		prof_stmt *st = new_stmt(ps, PROF_ST_INCLUDE, kw->col);
		st->name = n;
		st->name_loc = (prof_loc){ps->file, ps->line, t[1].col};
		attach_open(ps, &st->reason, &st->sources, &st->nsources, false, false,
			    "include", kw->col);
	} else if (tok_is(kw, "init") || tok_is(kw, "lsm") || tok_is(kw, "firewall")) {
		int slot = tok_is(kw, "init") ? 0 : tok_is(kw, "lsm") ? 1 : 2;
		const char *n = one_name(ps, t, nt);
		if (!n)
			return;
		const char **dst = slot == 0 ? &p->init : slot == 1 ? &p->lsm : &p->firewall;
		if (*dst) {
			perr(ps, kw->col, "'%.*s' is already set to '%s'", (int)kw->len, kw->s, *dst);
			return;
		}
		*dst = n;
		p->slot_loc[slot] = (prof_loc){ps->file, ps->line, t[1].col};
	} else if (tok_is(kw, "initramfs")) {
		if (nt == 2 && tok_is(&t[1], "yes"))
			p->initramfs = PROF_INITRAMFS_YES;
		else if (nt == 2 && tok_is(&t[1], "no"))
			p->initramfs = PROF_INITRAMFS_NO;
		else
			perr(ps, nt < 2 ? kw->col + (int)kw->len : t[1].col,
			     "expected 'initramfs yes' or 'initramfs no'");
	} else if (tok_is(kw, "kernel") || tok_is(kw, "versions")) {
		bool isk = tok_is(kw, "kernel");
		if (!isk && !p->stem) {
			perr(ps, kw->col, "'versions' belongs in a template profile (NAME-N)");
			return;
		}
		if (nt < 2) {
			perr(ps, kw->col + (int)kw->len, isk ? "expected '>=X.Y.Z' and/or '<X.Y.Z'"
							   : "expected '>=N' and/or '<N'");
			return;
		}
		for (int i = 1; i < nt; i++) {
			bool ge = t[i].len > 2 && !strncmp(t[i].s, ">=", 2);
			bool lt = t[i].len > 1 && t[i].s[0] == '<' && t[i].s[1] != '=';
			if (!ge && !lt) {
				perr(ps, t[i].col, "expected '>=%s' or '<%s'", isk ? "X.Y.Z" : "N",
				     isk ? "X.Y.Z" : "N");
				return;
			}
			size_t off = ge ? 2 : 1;
			if (isk) {
				uint32_t v;
				if (parse_kver_at(ps, t[i].s + off, t[i].len - off, t[i].col + (int)off, &v) < 0)
					return;
				if (ge)
					p->kmin = v;
				else
					p->kmax = v;
			} else {
				long v;
				if (parse_long_at(ps, t[i].s + off, t[i].len - off, t[i].col + (int)off, &v) < 0)
					return;
				if (ge)
					p->vmin = v;
				else
					p->vmax = v;
			}
		}
		if ((isk && p->kmin && p->kmax && p->kmin >= p->kmax) ||
		    (!isk && p->vmax >= 0 && p->vmin >= p->vmax))
			perr(ps, t[1].col, isk ? "empty kernel version range" : "empty version range");
	} else if (tok_is(kw, "arch")) {
		if (nt < 2) {
			perr(ps, kw->col + 4, "expected architectures after 'arch'");
			return;
		}
		size_t alloc = p->narch; /* a second arch line appends: regrow */
		for (int i = 1; i < nt; i++)
			AR_PUSH(ps->db->arena, p->arch, p->narch, alloc, tok_dup(ps, &t[i]));
	} else if (tok_is(kw, "require") || tok_is(kw, "recommend")) {
		parse_req(ps, t, nt, 1, tok_is(kw, "require") ? PROF_REQUIRE : PROF_RECOMMEND,
			  false, kw->col);
	} else if (tok_is(kw, "override")) {
		if (nt < 2 || !(tok_is(&t[1], "require") || tok_is(&t[1], "recommend"))) {
			perr(ps, nt < 2 ? kw->col + (int)kw->len : t[1].col,
			     "expected 'require' or 'recommend' after 'override'");
			return;
		}
		parse_req(ps, t, nt, 2, tok_is(&t[1], "require") ? PROF_REQUIRE : PROF_RECOMMEND,
			  true, kw->col);
	} else if (tok_is(kw, "drop")) {
		parse_sym_stmt(ps, t, nt, PROF_ST_DROP, false);
	} else if (tok_is(kw, "absent")) {
		/* a release's own kernel lacks a symbol mainline has at its
		 * version (a backport removed it): reason and source */
		parse_sym_stmt(ps, t, nt, PROF_ST_ABSENT, true);
	}
}

static void parse_attribute(pstate *ps, size_t indent)
{
	tok t[2];
	/* only the keyword is tokenized: the rest is free text */
	size_t i = indent;
	size_t st = i;
	while (i < ps->llen && ps->ltext[i] != ' ' && ps->ltext[i] != '\t')
		i++;
	t[0].s = ps->ltext + st;
	t[0].len = i - st;
	t[0].col = (int)st + 1;
	if (t[0].s[0] == '#')
		return;
	bool is_reason = tok_is(&t[0], "reason");
	bool is_source = tok_is(&t[0], "source");
	bool is_unverified = tok_is(&t[0], "unverified");
	bool is_reviewed = tok_is(&t[0], "reviewed");
	if (!is_reason && !is_source && !is_unverified && !is_reviewed) {
		perr(ps, t[0].col,
		     "unknown attribute '%.*s' (indented lines are 'reason', 'source', "
		     "'unverified' or 'reviewed')",
		     (int)t[0].len, t[0].s);
		return;
	}
	const char *kw = is_reason ? "reason" : is_source ? "source"
		       : is_unverified ? "unverified" : "reviewed";
	if (!ps->att_reason) {
		perr(ps, t[0].col, "'%s' must follow a requirement, drop, absent, include or rename", kw);
		return;
	}
	if ((is_unverified || is_reviewed) && !ps->att_req) {
		perr(ps, t[0].col, "'%s' must follow a requirement", kw);
		return;
	}
	const char *txt = rest_text(ps, i);
	if (!txt) {
		perr(ps, t[0].col + (int)t[0].len, "expected text after '%s'", kw);
		return;
	}
	if (is_unverified || is_reviewed) {
		const char **dst = is_unverified ? &ps->att_req->unverified : &ps->att_req->reviewed;
		*dst = *dst ? kf_arena_printf(ps->db->arena, "%s\n%s", *dst, txt) : txt;
	} else if (is_reason) {
		/* each reason line is a paragraph of its own */
		if (*ps->att_reason)
			*ps->att_reason = kf_arena_printf(ps->db->arena, "%s\n%s", *ps->att_reason, txt);
		else
			*ps->att_reason = txt;
		if (ps->att_req) {
			prof_req *r = ps->att_req;
			prof_loc *v = ar_grow(ps->db->arena, (void *)r->reason_locs, r->nreason_locs,
					      &ps->att_rlalloc, sizeof(*v));
			size_t col = i;
			while (col < ps->llen && (ps->ltext[col] == ' ' || ps->ltext[col] == '\t'))
				col++;
			v[r->nreason_locs++] = (prof_loc){ps->file, ps->line, (int)col + 1};
			r->reason_locs = v;
		}
	} else {
		*ps->att_sources = ar_grow(ps->db->arena, *ps->att_sources, *ps->att_nsources,
					   &ps->att_srcalloc, sizeof(char *));
		(*ps->att_sources)[(*ps->att_nsources)++] = txt;
	}
}

static int add_text(prof_db *db, const char *name, const char *text, size_t len, bool local,
		    kf_diags *d)
{
	pstate ps;
	memset(&ps, 0, sizeof(ps));
	ps.db = db;
	ps.d = d;
	ps.local = local;
	ps.file = kf_arena_strdup(db->arena, name);
	KF_GROW(db->files, db->nfiles + 1, db->filesalloc);
	ps.pf = &db->files[db->nfiles++];
	memset(ps.pf, 0, sizeof(*ps.pf));
	ps.pf->path = ps.file;
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		ps.line++;
		ps.ltext = p;
		ps.llen = (size_t)(le - p);
		if (ps.llen && p[ps.llen - 1] == '\r')
			ps.llen--;
		size_t ind = 0;
		while (ind < ps.llen && (p[ind] == ' ' || p[ind] == '\t'))
			ind++;
		const char *nul = memchr(p, 0, ps.llen);
		if (nul) {
			/* binary data, not profile text */
			perr(&ps, (int)(nul - p) + 1, "NUL byte: not a text line");
			ps.att_skip = ind == 0 ? true : ps.att_skip;
		} else if (ind == ps.llen || p[ind] == '#') {
			/* blank or comment lines do not end a statement's attributes */
		} else if (ind > 0) {
			if (!ps.att_skip)
				parse_attribute(&ps, ind);
		} else {
			/* a rejected statement's reason/source lines are not errors too */
			attach_close(&ps);
			int before = ps.nerr;
			parse_statement(&ps);
			ps.att_skip = ps.nerr > before;
		}
		p = nl ? nl + 1 : end;
	}
	attach_close(&ps);
	return ps.nerr ? -1 : 0;
}

int prof_db_add_text(prof_db *db, const char *name, const char *text, size_t len,
		     kf_diags *d)
{
	return add_text(db, name, text, len, false, d);
}

static int add_file(prof_db *db, const char *path, bool local, kf_diags *d)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	if (kf_read_file(path, &sb, d) < 0) {
		kf_strbuf_release(&sb);
		return -1;
	}
	int rc = add_text(db, path, kf_strbuf_str(&sb), sb.len, local, d);
	kf_strbuf_release(&sb);
	return rc;
}

int prof_db_add_file(prof_db *db, const char *path, kf_diags *d)
{
	return add_file(db, path, false, d);
}

int prof_db_add_local(prof_db *db, const char *path, kf_diags *d)
{
	return add_file(db, path, true, d);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *prof_db_relpath(const prof_db *db, const char *file)
{
	if (!file || !db->root)
		return file;
	size_t l = strlen(db->root);
	if (!strncmp(file, db->root, l) && file[l] == '/' && file[l + 1])
		return file + l + 1;
	return file;
}

void prof_reason_oneline(const char *reason, kf_strbuf *sb)
{
	for (const char *p = reason ? reason : ""; *p; p++) {
		if (*p == '\n')
			kf_strbuf_addstr(sb, "; ");
		else
			kf_strbuf_addch(sb, *p);
	}
}

int prof_db_add_dir(prof_db *db, const char *dir, kf_diags *d)
{
	if (!db->root)
		db->root = kf_arena_strdup(db->arena, dir);
	DIR *dh = opendir(dir);
	if (!dh) {
		kf_diag_add(d, KF_ERROR, dir, 0, 0, "cannot open profile directory: %s", strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (de->d_name[0] == '.')
			continue;
		PROF_PUSH(names, n, alloc, kf_xasprintf("%s/%s", dir, de->d_name));
	}
	closedir(dh);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(names[i]);
		struct stat st;
		/* symlinked directories are not followed: a link loop would
		 * load the same files again and again */
		bool real_dir = lstat(names[i], &st) == 0 && S_ISDIR(st.st_mode);
		if (real_dir) {
			if (prof_db_add_dir(db, names[i], d) < 0)
				rc = -1;
		} else if (l > 5 && !strcmp(names[i] + l - 5, ".kfit")) {
			if (prof_db_add_file(db, names[i], d) < 0)
				rc = -1;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

prof_db *prof_db_new(void)
{
	prof_db *db = kf_xcalloc(1, sizeof(*db));
	/* the parsed database is ~1 MB: one 2 MB huge-page block instead of
	 * ~120 page faults of growing blocks */
	db->arena = kf_arena_new_large();
	return db;
}

void prof_db_free(prof_db *db)
{
	if (!db)
		return;
	free(db->profs);
	free(db->renames);
	free(db->spans);
	free(db->files);
	kf_arena_free(db->arena);
	free(db);
}

size_t prof_db_count(const prof_db *db)
{
	return db->n;
}

const prof_profile *prof_db_get(const prof_db *db, size_t i)
{
	return db->profs[i];
}

size_t prof_db_nrenames(const prof_db *db)
{
	return db->nren;
}

const prof_rename *prof_db_rename(const prof_db *db, size_t i)
{
	return &db->renames[i];
}

size_t prof_db_file_profiles(const prof_db *db, const char *path, const char ***names)
{
	for (size_t i = db->nfiles; i-- > 0;)
		if (!strcmp(db->files[i].path, path)) {
			*names = db->files[i].names;
			return db->files[i].n;
		}
	*names = NULL;
	return 0;
}
