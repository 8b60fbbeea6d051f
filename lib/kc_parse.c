/*
 * kc_parse.c - the Kconfig lexer and parser.
 *
 * A hand-written equivalent of the kernel's flex lexer (lexer.l) and bison
 * grammar (parser.y): the same tokens, the same statement-start line
 * numbers, the same expansion points for the preprocessor (words with '$'
 * and quoted strings are expanded while lexing; assignment values are
 * kept raw), the same help-text indentation rules.  Errors are reported
 * as file:line:col and parsing resynchronises at the next line, as the
 * kernel's error productions do.
 */
#include "kc_internal.h"

#include <ctype.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum tok {
	T_NONE = 0,
	T_EOF,
	T_EOL,
	T_WORD,
	T_WORD_QUOTE,
	T_ASSIGN_VAL,
	T_HELPTEXT,
	T_BOOL,
	T_CHOICE,
	T_COMMENT,
	T_CONFIG,
	T_DEF_BOOL,
	T_DEF_TRISTATE,
	T_DEFAULT,
	T_DEPENDS,
	T_ENDCHOICE,
	T_ENDIF,
	T_ENDMENU,
	T_HELP,
	T_HEX,
	T_IF,
	T_IMPLY,
	T_INT,
	T_MAINMENU,
	T_MENU,
	T_MENUCONFIG,
	T_MODULES,
	T_ON,
	T_OPTIONAL,
	T_PROMPT,
	T_RANGE,
	T_SELECT,
	T_SOURCE,
	T_STRING,
	T_TRISTATE,
	T_TRANSITIONAL,
	T_VISIBLE,
	T_OPTION,
	T_RSOURCE,
	T_OSOURCE,
	T_ORSOURCE,
	T_OR,
	T_AND,
	T_EQUAL,
	T_UNEQUAL,
	T_LESS,
	T_LESS_EQUAL,
	T_GREATER,
	T_GREATER_EQUAL,
	T_NOT,
	T_OPEN_PAREN,
	T_CLOSE_PAREN,
	T_COLON_EQUAL,
	T_PLUS_EQUAL,
};

static const struct {
	const char *word; /* keyword text */
	enum tok tok;     /* its token */
	int min_sem;      /* 0: all; only in trees of this model or newer */
	int max_sem;      /* 0: all; only in trees of this model or older */
} keywords[] = {
	{"bool", T_BOOL, 0, 0},
	{"choice", T_CHOICE, 0, 0},
	{"comment", T_COMMENT, 0, 0},
	{"config", T_CONFIG, 0, 0},
	{"def_bool", T_DEF_BOOL, 0, 0},
	{"def_tristate", T_DEF_TRISTATE, 0, 0},
	{"default", T_DEFAULT, 0, 0},
	{"depends", T_DEPENDS, 0, 0},
	{"endchoice", T_ENDCHOICE, 0, 0},
	{"endif", T_ENDIF, 0, 0},
	{"endmenu", T_ENDMENU, 0, 0},
	{"help", T_HELP, 0, 0},
	{"hex", T_HEX, 0, 0},
	{"if", T_IF, 0, 0},
	{"imply", T_IMPLY, 0, 0},
	{"int", T_INT, 0, 0},
	{"mainmenu", T_MAINMENU, 0, 0},
	{"menu", T_MENU, 0, 0},
	{"menuconfig", T_MENUCONFIG, 0, 0},
	{"modules", T_MODULES, 0, 0},
	{"on", T_ON, 0, 0},
	{"optional", T_OPTIONAL, 0, KC_SEM_V1},
	{"prompt", T_PROMPT, 0, 0},
	{"range", T_RANGE, 0, 0},
	{"select", T_SELECT, 0, 0},
	{"source", T_SOURCE, 0, 0},
	{"string", T_STRING, 0, 0},
	{"transitional", T_TRANSITIONAL, 0, 0},
	{"tristate", T_TRISTATE, 0, 0},
	{"visible", T_VISIBLE, 0, 0},
};

/* One open Kconfig file. */
struct lx_file {
	struct lx_file *parent; /* includer */
	const char *name;       /* name as given to source (kernel prints it) */
	char *buf;              /* whole content, NUL-terminated */
	size_t len;             /* content length */
	size_t pos;             /* read position */
	int lineno;             /* yylineno */
	int source_lineno;      /* statement line of the source statement */
	kf_strbuf pushback;     /* characters pushed back (unput) */
};

enum lx_state { ST_INITIAL, ST_ASSIGN_VAL };

struct kc_lexer {
	struct lx_file *f;   /* current file */
	enum lx_state state; /* start condition */
	enum tok prev_token; /* last token returned to the parser */
	enum tok prev_prev_token; /* the one before */
	const char *cur_file; /* file of the current statement */
	int cur_lineno;      /* line of the current statement */
	int tok_col;         /* column of the current token */
	char *text;          /* value of T_WORD/T_WORD_QUOTE/T_ASSIGN_VAL */
	enum tok look;       /* parser lookahead (T_NONE when empty) */
	char *look_text;     /* its text */
	int look_col;        /* its column */
	int depth;           /* nesting of source statements */
	bool fatal;          /* a fatal error stopped parsing */
	int blocks;          /* nesting of if/menu/choice blocks */
	int operands;        /* operands of the expression being parsed */
	kc_menu *deps_entry; /* entry the depends-on lines are counted for */
	int deps_count;      /* its depends-on lines so far */
	struct lx_seen **seen; /* 7.x: files sourced so far (arena) */
	const char *eof_file; /* the top file, once its end is reached */
	int eof_lineno;       /* its line count + 1 (conf's yylineno there) */
};

/* A file already sourced, for 7.x's "repeated inclusion" error. */
struct lx_seen {
	struct lx_seen *next; /* same bucket */
	const char *name;     /* as given to source */
	const char *parent;   /* file of the first source statement */
	int lineno;           /* its line */
};
#define LX_SEEN_BUCKETS 1024

/* Limits that keep hostile input from overflowing the stack in the
 * recursive expression and menu code (real trees stay far below them). */
#define KC_MAX_BLOCKS 256    /* nested if/menu/choice blocks */
#define KC_MAX_OPERANDS 4096 /* operands of one expression */
#define KC_MAX_DEPENDS 1024  /* depends-on lines of one entry */

const char *kc_cur_file(kc_tree *t)
{
	return t->lx && t->lx->cur_file ? t->lx->cur_file : "<none>";
}

int kc_cur_lineno(kc_tree *t)
{
	return t->lx ? t->lx->cur_lineno : 0;
}

int kc_lex_lineno(kc_tree *t)
{
	return t->lx && t->lx->f ? t->lx->f->lineno : 0;
}

bool kc_pp_failed(kc_tree *t)
{
	return t->lx && t->lx->fatal;
}

void kc_pp_error(kc_tree *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* before parsing: a command of the top Makefile's (CC_VERSION_TEXT) */
	char *mk = t->lx && t->lx->f ? NULL : kf_xasprintf("%s/Makefile", t->srctree);
	const char *file = mk ? mk : t->lx->f->name;
	kf_diag_add(t->diags, KF_ERROR, file, kc_lex_lineno(t), 0, "%s",
		    kf_strbuf_str(&sb));
	free(mk);
	kf_strbuf_release(&sb);
	if (t->lx)
		t->lx->fatal = true;
	t->nerrors++;
}

static void parse_error(kc_tree *t, int col, const char *fmt, ...)
	KF_PRINTF(3, 4);

static void parse_error(kc_tree *t, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	/* a tree newer than kfit may use syntax kfit does not know yet */
	if (kc_ver(t) > KC_VER_NEWEST)
		kf_strbuf_addf(&sb,
			       " (this tree is Linux %s, newer than the kernels kfit knows, up to %d.%d: it may use Kconfig syntax kfit does not support yet)",
			       t->kernelversion, KC_VER_NEWEST / 100,
			       KC_VER_NEWEST % 100);
	kf_diag_add(t->diags, KF_ERROR, kc_cur_file(t), kc_cur_lineno(t), col,
		    "%s", kf_strbuf_str(&sb));
	kf_strbuf_release(&sb);
	t->nerrors++;
}

/* ---------------- character level ---------------- */

static int lx_peek(struct lx_file *f)
{
	if (f->pushback.len)
		return (unsigned char)f->pushback.buf[f->pushback.len - 1];
	if (f->pos < f->len)
		return (unsigned char)f->buf[f->pos];
	return EOF;
}

static int lx_peek2(struct lx_file *f)
{
	/* the character after the next one */
	if (f->pushback.len >= 2)
		return (unsigned char)f->pushback.buf[f->pushback.len - 2];
	if (f->pushback.len == 1)
		return f->pos < f->len ? (unsigned char)f->buf[f->pos] : EOF;
	if (f->pos + 1 < f->len)
		return (unsigned char)f->buf[f->pos + 1];
	return EOF;
}

static int lx_get(struct lx_file *f)
{
	int c;
	if (f->pushback.len)
		c = (unsigned char)f->pushback.buf[--f->pushback.len];
	else if (f->pos < f->len)
		c = (unsigned char)f->buf[f->pos++];
	else
		return EOF;
	if (c == '\n')
		f->lineno++;
	return c;
}

/* Push back a string so that it is read next (like flex's unput). */
static void lx_unput_str(struct lx_file *f, const char *s)
{
	size_t n = strlen(s);
	while (n > 0) {
		n--;
		if (s[n] == '\n')
			f->lineno--;
		kf_strbuf_addch(&f->pushback, s[n]);
	}
}

/* Rest of the current line, without consuming the newline. */
static char *lx_rest_of_line(struct lx_file *f)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	int c;
	kf_strbuf_addstr(&sb, "");
	while ((c = lx_peek(f)) != EOF && c != '\n') {
		/* NUL bytes end the line's text, as input() does in flex */
		lx_get(f);
		if (c == 0)
			break;
		kf_strbuf_addch(&sb, c);
	}
	return kf_strbuf_detach(&sb);
}

static bool is_n(int c)
{
	return isalnum(c) || c == '_' || c == '-';
}

/* ---------------- files ---------------- */

static bool lx_open(kc_tree *t, const char *name, int src_lineno,
		    bool optional)
{
	char *path;
	if (name[0] == '/')
		path = kf_xstrdup(name);
	else
		path = kf_xasprintf("%s/%s", t->srctree, name);
	kf_strbuf buf = KF_STRBUF_INIT;
	kf_diags tmp = KF_DIAGS_INIT;
	int fd_ok = kf_exists(path) && !kf_is_dir(path);
	if (!fd_ok || kf_read_file(path, &buf, &tmp) < 0) {
		kf_diags_release(&tmp);
		kf_strbuf_release(&buf);
		free(path);
		if (optional)
			return false;
		if (t->lx->f)
			kf_diag_add(t->diags, KF_ERROR, kc_cur_file(t),
				    kc_cur_lineno(t), 0,
				    "can't open file \"%s\"", name);
		else
			kf_diag_add(t->diags, KF_ERROR, name, 0, 0,
				    "can't find file %s", name);
		t->lx->fatal = true;
		t->nerrors++;
		return false;
	}
	kf_diags_release(&tmp);
	free(path);

	kc_file_seen(t, name);
	struct lx_file *f = kf_xcalloc(1, sizeof(*f));
	f->name = kf_arena_strdup(t->arena, name);
	f->len = buf.len;
	f->buf = kf_strbuf_detach(&buf);
	f->lineno = 1;
	f->source_lineno = src_lineno;
	f->parent = t->lx->f;
	t->lx->f = f;
	t->lx->depth++;
	return true;
}

static void lx_close(kc_tree *t)
{
	struct lx_file *f = t->lx->f;
	t->lx->f = f->parent;
	t->lx->depth--;
	free(f->buf);
	kf_strbuf_release(&f->pushback);
	free(f);
}

/* Does the tree have this (sourced) file? */
static bool kf_exists_in_tree(kc_tree *t, const char *name)
{
	char *path = name[0] == '/' ? kf_xstrdup(name)
				    : kf_xasprintf("%s/%s", t->srctree, name);
	bool r = kf_exists(path) && !kf_is_dir(path);
	free(path);
	return r;
}

/*
 * 7.x (file_lookup() with a parent): a file sourced a second time is a
 * fatal error naming both source statements.  Records the first one.
 */
static bool repeated_inclusion(kc_tree *t, const char *name)
{
	struct kc_lexer *lx = t->lx;
	if (!lx->seen)
		lx->seen = kf_arena_alloc(t->arena,
					  LX_SEEN_BUCKETS * sizeof(*lx->seen));
	struct lx_seen **b = &lx->seen[kf_hash_str(name) % LX_SEEN_BUCKETS];
	for (struct lx_seen *e = *b; e; e = e->next) {
		if (strcmp(e->name, name))
			continue;
		/* util.c's exact text (kfit conf prints it as conf does) */
		kf_diag_raw(t->diags, KF_ERROR,
			    "%s:%d: error: repeated inclusion of %s\n"
			    "%s:%d: note: location of first inclusion of %s",
			    kc_cur_file(t), kc_cur_lineno(t), name, e->parent,
			    e->lineno, name);
		lx->fatal = true;
		t->nerrors++;
		return true;
	}
	struct lx_seen *e = kf_arena_alloc(t->arena, sizeof(*e));
	e->name = kf_arena_strdup(t->arena, name);
	e->parent = kf_arena_strdup(t->arena, kc_cur_file(t));
	e->lineno = kc_cur_lineno(t);
	e->next = *b;
	*b = e;
	return false;
}

/* source/rsource/osource/orsource: open a file (or glob) inside the tree. */
static void do_source(kc_tree *t, enum tok kind, const char *name)
{
	struct kc_lexer *lx = t->lx;
	char *rel = NULL;
	const char *want = name;

	if (kind == T_RSOURCE || kind == T_ORSOURCE) {
		/* relative to the directory of the current file */
		const char *cur = lx->f->name;
		const char *slash = strrchr(cur, '/');
		if (slash)
			rel = kf_xasprintf("%.*s/%s", (int)(slash - cur), cur,
					   name);
		else
			rel = kf_xstrdup(name);
		want = rel;
	}
	if (lx->depth > 64) {
		parse_error(t, 0, "source nesting deeper than 64 files at \"%s\"",
			    want);
		lx->fatal = true;
		free(rel);
		return;
	}
	/* recursive inclusion? */
	for (struct lx_file *f = lx->f; f; f = f->parent) {
		if (!strcmp(f->name, want)) {
			kf_strbuf sb = KF_STRBUF_INIT;
			kf_strbuf_addf(&sb,
				       "Recursive inclusion detected.\nInclusion path:\n  current file : %s",
				       want);
			int line = lx->cur_lineno;
			for (struct lx_file *g = lx->f; g; g = g->parent) {
				kf_strbuf_addf(&sb, "\n  included from: %s:%d",
					       g->name, line);
				line = g->source_lineno;
				if (!strcmp(g->name, want))
					break;
			}
			kf_diag_raw(t->diags, KF_ERROR, "%s", kf_strbuf_str(&sb));
			kf_strbuf_release(&sb);
			lx->fatal = true;
			t->nerrors++;
			free(rel);
			return;
		}
	}
	bool optional = kind == T_OSOURCE || kind == T_ORSOURCE;
	if (strpbrk(want, "*?[") && t->sem == KC_SEM_V1 && t->kver[0] < 5) {
		/* old kernels: source accepted globs */
		char *pat = kf_xasprintf("%s/%s", t->srctree, want);
		glob_t g;
		if (glob(pat, 0, NULL, &g) == 0) {
			size_t plen = strlen(t->srctree) + 1;
			/* open in reverse so the first match is read first */
			for (size_t i = g.gl_pathc; i-- > 0;)
				lx_open(t, g.gl_pathv[i] + plen, lx->cur_lineno,
					false);
		} else if (!optional) {
			parse_error(t, 0, "\"%s\" does not match any file", want);
		}
		globfree(&g);
		free(pat);
		free(rel);
		return;
	}
	if (t->has_repeated_inc && kf_exists_in_tree(t, want) &&
	    repeated_inclusion(t, want)) {
		free(rel);
		return;
	}
	lx_open(t, want, lx->cur_lineno, optional);
	free(rel);
}

/* ---------------- tokens ---------------- */

static enum tok keyword(kc_tree *t, const char *w, size_t n)
{
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		if (strlen(keywords[i].word) == n &&
		    !memcmp(keywords[i].word, w, n)) {
			if (keywords[i].max_sem && (int)t->sem > keywords[i].max_sem)
				return T_NONE;
			if (keywords[i].tok == T_TRANSITIONAL && !t->has_transitional)
				return T_NONE; /* a word before 6.18 */
			return keywords[i].tok;
		}
	}
	/* syntax of older trees: "option" until 5.14 ("modules" became a
	 * keyword of its own in 5.15), "---help---" until 5.7 */
	bool before_5_15 = t->kver[0] && (t->kver[0] < 5 ||
					  (t->kver[0] == 5 && t->kver[1] < 15));
	bool before_5_8 = t->kver[0] && (t->kver[0] < 5 ||
					 (t->kver[0] == 5 && t->kver[1] < 8));
	if (before_5_15 && n == 6 && !memcmp(w, "option", 6))
		return T_OPTION;
	if (before_5_8 && n == 10 && !memcmp(w, "---help---", 10))
		return T_HELP;
	return T_NONE;
}

static char *lex_string(kc_tree *t, struct lx_file *f, int quote)
{
	kf_strbuf sb = KF_STRBUF_INIT;
	kf_strbuf_addstr(&sb, "");
	for (;;) {
		int c = lx_peek(f);
		if (c == EOF) {
			break;
		}
		if (c == '$') {
			/* "$".*: expand one reference, push back the rest */
			lx_get(f);
			char *rest = lx_rest_of_line(f);
			const char *p = rest;
			char *res = pp_expand_dollar(t, &p);
			lx_unput_str(f, p);
			kf_strbuf_addstr(&sb, res);
			free(res);
			free(rest);
			if (kc_pp_failed(t))
				break;
			continue;
		}
		if (c == '\\') {
			lx_get(f);
			int d = lx_peek(f);
			if (d != EOF && d != '\n') {
				lx_get(f);
				kf_strbuf_addch(&sb, d);
			}
			continue;
		}
		if (c == '\'' || c == '"') {
			lx_get(f);
			if (c == quote)
				break;
			kf_strbuf_addch(&sb, c);
			continue;
		}
		if (c == '\n') {
			kf_strbuf w = KF_STRBUF_INIT;
			kf_strbuf_addf(&w, "%s:%d:warning: multi-line strings not supported",
				       kc_cur_file(t), kc_cur_lineno(t));
			kf_diag_raw(t->diags, KF_WARNING, "%s", kf_strbuf_str(&w));
			kf_strbuf_release(&w);
			break;
		}
		lx_get(f);
		/* a NUL ends the C string here as in the kernel's lexer */
		kf_strbuf_addch(&sb, c);
	}
	return kf_strbuf_detach(&sb);
}

/* First-stage lexer: one token from the current file. */
static enum tok lex1(kc_tree *t)
{
	struct kc_lexer *lx = t->lx;
	for (;;) {
		struct lx_file *f = lx->f;
		if (!f)
			return T_EOF;
		int c = lx_peek(f);
		lx->tok_col = (int)f->pos; /* refined below */
		if (c == EOF) {
			lx->state = ST_INITIAL;
			if (lx->prev_token != T_EOL && lx->prev_token != T_HELPTEXT) {
				kf_strbuf w = KF_STRBUF_INIT;
				kf_strbuf_addf(&w, "%s:%d:warning: no new line at end of file",
					       f->name, f->lineno);
				kf_diag_raw(t->diags, KF_WARNING, "%s",
					    kf_strbuf_str(&w));
				kf_strbuf_release(&w);
			}
			if (f->parent) {
				lx_close(t);
				return T_EOL;
			}
			/* conf's yylineno and file stay at the end of the
			 * top file: statements reported "at the next token"
			 * name that line */
			lx->eof_file = f->name;
			lx->eof_lineno = f->lineno;
			lx_close(t);
			return T_EOF;
		}
		if (lx->state == ST_ASSIGN_VAL) {
			if (c == '\n') {
				lx_get(f);
				lx->state = ST_INITIAL;
				return T_EOL;
			}
			if (c == ' ' || c == '\t') {
				lx_get(f);
				continue;
			}
			free(lx->text);
			lx->text = lx_rest_of_line(f);
			return T_ASSIGN_VAL;
		}
		/* column: count from the start of the line */
		{
			size_t p = f->pos;
			while (p > 0 && f->buf[p - 1] != '\n')
				p--;
			lx->tok_col = (int)(f->pos - p) + 1;
		}
		if (c == '#') {
			while ((c = lx_peek(f)) != EOF && c != '\n')
				lx_get(f);
			continue;
		}
		if (c == ' ' || c == '\t') {
			lx_get(f);
			continue;
		}
		if (c == '\\' && lx_peek2(f) == '\n') {
			lx_get(f);
			lx_get(f);
			continue;
		}
		if (c == '\n') {
			lx_get(f);
			return T_EOL;
		}
		if (c == '"' || c == '\'') {
			lx_get(f);
			free(lx->text);
			lx->text = lex_string(t, f, c);
			return T_WORD_QUOTE;
		}
		if (is_n(c) || c == '$') {
			kf_strbuf w = KF_STRBUF_INIT;
			bool dollar = false;
			while ((c = lx_peek(f)) != EOF && (is_n(c) || c == '$')) {
				if (c == '$')
					dollar = true;
				kf_strbuf_addch(&w, lx_get(f));
			}
			if (!dollar) {
				enum tok k = keyword(t, w.buf, w.len);
				if (k != T_NONE) {
					kf_strbuf_release(&w);
					return k;
				}
				free(lx->text);
				lx->text = kf_strbuf_detach(&w);
				return T_WORD;
			}
			/* expand_token: the whole rest of the line, expand one
			 * token, push back what was not used */
			char *rest = lx_rest_of_line(f);
			kf_strbuf_addstr(&w, rest);
			free(rest);
			const char *p = w.buf;
			char *out = pp_expand_one_token(t, &p);
			lx_unput_str(f, p);
			kf_strbuf_release(&w);
			if (kc_pp_failed(t)) {
				free(out);
				return T_EOF;
			}
			if (out[0]) {
				free(lx->text);
				lx->text = out;
				return T_WORD;
			}
			free(out);
			continue;
		}
		/* operators */
		lx_get(f);
		int d = lx_peek(f);
		switch (c) {
		case '|':
			if (d == '|') {
				lx_get(f);
				return T_OR;
			}
			break;
		case '&':
			if (d == '&') {
				lx_get(f);
				return T_AND;
			}
			break;
		case '=':
			return T_EQUAL;
		case '!':
			if (d == '=') {
				lx_get(f);
				return T_UNEQUAL;
			}
			return T_NOT;
		case '<':
			if (d == '=') {
				lx_get(f);
				return T_LESS_EQUAL;
			}
			return T_LESS;
		case '>':
			if (d == '=') {
				lx_get(f);
				return T_GREATER_EQUAL;
			}
			return T_GREATER;
		case '(':
			return T_OPEN_PAREN;
		case ')':
			return T_CLOSE_PAREN;
		case ':':
			if (d == '=') {
				lx_get(f);
				return T_COLON_EQUAL;
			}
			break;
		case '+':
			if (d == '=') {
				lx_get(f);
				return T_PLUS_EQUAL;
			}
			break;
		}
		kf_strbuf w = KF_STRBUF_INIT;
		/* flex warns about NUL too, printing the raw byte; a message
		 * here is a C string, so it shows as \0 */
		kf_strbuf_addf(&w, c ? "%s:%d:warning: ignoring unsupported character '%c'"
				     : "%s:%d:warning: ignoring unsupported character '\\0'",
			       f->name, f->lineno, c);
		kf_diag_raw(t->diags, KF_WARNING, "%s", kf_strbuf_str(&w));
		kf_strbuf_release(&w);
	}
}

/* Second-stage lexer: drops redundant EOLs, tracks statement lines. */
static enum tok lex(kc_tree *t)
{
	struct kc_lexer *lx = t->lx;
	enum tok token;

	if (lx->fatal)
		return T_EOF;
repeat:
	token = lex1(t);
	if (lx->fatal)
		return T_EOF;
	if (lx->prev_token == T_EOL || lx->prev_token == T_HELPTEXT) {
		if (token == T_EOL)
			goto repeat;
		if (lx->f) {
			lx->cur_lineno = lx->f->lineno;
			lx->cur_file = lx->f->name;
		} else if (lx->eof_file) {
			lx->cur_lineno = lx->eof_lineno;
			lx->cur_file = lx->eof_file;
		}
	}
	if (lx->prev_prev_token == T_EOL && lx->prev_token == T_WORD &&
	    (token == T_EQUAL || token == T_COLON_EQUAL || token == T_PLUS_EQUAL))
		lx->state = ST_ASSIGN_VAL;
	lx->prev_prev_token = lx->prev_token;
	lx->prev_token = token;
	return token;
}

/* Help text after "help\n", with the kernel's indentation rules. */
static char *lex_help(kc_tree *t)
{
	struct kc_lexer *lx = t->lx;
	struct lx_file *f = lx->f;
	kf_strbuf sb = KF_STRBUF_INIT;
	int first_ts = 0, last_ts = 0;

	kf_strbuf_addstr(&sb, "");
	while (f && lx_peek(f) != EOF) {
		/* leading blanks */
		int ts = 0, nblank = 0;
		size_t save_pos = f->pos;
		(void)save_pos;
		int c;
		kf_strbuf blanks = KF_STRBUF_INIT;
		while ((c = lx_peek(f)) == ' ' || c == '\t') {
			kf_strbuf_addch(&blanks, lx_get(f));
			nblank++;
			if (c == '\t')
				ts = (ts & ~7) + 8;
			else
				ts++;
		}
		c = lx_peek(f);
		if (c == '\n' || c == EOF) {
			/* blank line: ends the help when the next line starts
			 * with a non-blank character */
			if (c == EOF) {
				kf_strbuf_release(&blanks);
				break;
			}
			lx_get(f);
			int n = lx_peek(f);
			kf_strbuf_release(&blanks);
			if (n != ' ' && n != '\t' && n != '\n' && n != EOF)
				break;
			kf_strbuf_addch(&sb, '\n');
			continue;
		}
		if (nblank) {
			last_ts = ts;
			if (first_ts) {
				if (ts < first_ts) {
					/* the text belongs to the next
					 * statement: blanks stay consumed */
					kf_strbuf_release(&blanks);
					lx->prev_token = T_HELPTEXT;
					return kf_strbuf_detach(&sb);
				}
				for (int k = ts - first_ts; k > 0; k--)
					kf_strbuf_addch(&sb, ' ');
			}
		} else {
			/* a line without indentation always ends help */
			kf_strbuf_release(&blanks);
			break;
		}
		kf_strbuf_release(&blanks);
		/* the text of the line, trailing blanks removed */
		size_t start = sb.len;
		while ((c = lx_peek(f)) != EOF && c != '\n') {
			lx_get(f);
			kf_strbuf_addch(&sb, c);
		}
		while (sb.len > start &&
		       (sb.buf[sb.len - 1] == ' ' || sb.buf[sb.len - 1] == '\t'))
			sb.buf[--sb.len] = 0;
		if (!first_ts)
			first_ts = last_ts;
		/* the newline: ends help when the next line is unindented */
		if (lx_peek(f) == '\n') {
			lx_get(f);
			int n = lx_peek(f);
			if (n != ' ' && n != '\t' && n != '\n' && n != EOF)
				break;
			kf_strbuf_addch(&sb, '\n');
		}
	}
	lx->prev_token = T_HELPTEXT;
	return kf_strbuf_detach(&sb);
}

/* ---------------- parser ---------------- */

static enum tok peek(kc_tree *t)
{
	struct kc_lexer *lx = t->lx;
	if (lx->look == T_NONE) {
		lx->look = lex(t);
		free(lx->look_text);
		lx->look_text = NULL;
		if (lx->look == T_WORD || lx->look == T_WORD_QUOTE ||
		    lx->look == T_ASSIGN_VAL) {
			lx->look_text = lx->text;
			lx->text = NULL;
		}
		lx->look_col = lx->tok_col;
	}
	return lx->look;
}

/* Consume the lookahead; returns its text (caller owns) or NULL. */
static char *take(kc_tree *t)
{
	struct kc_lexer *lx = t->lx;
	peek(t);
	char *s = lx->look_text;
	lx->look_text = NULL;
	lx->look = T_NONE;
	return s;
}

static bool accept(kc_tree *t, enum tok k)
{
	if (peek(t) != k)
		return false;
	free(take(t));
	return true;
}

static const char *tok_name(enum tok k)
{
	switch (k) {
	case T_EOF:
		return "end of file";
	case T_EOL:
		return "end of line";
	case T_WORD:
		return "a word";
	case T_WORD_QUOTE:
		return "a quoted string";
	default:
		break;
	}
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (keywords[i].tok == k)
			return keywords[i].word;
	switch (k) {
	case T_OR:
		return "'||'";
	case T_AND:
		return "'&&'";
	case T_EQUAL:
		return "'='";
	case T_UNEQUAL:
		return "'!='";
	case T_NOT:
		return "'!'";
	case T_OPEN_PAREN:
		return "'('";
	case T_CLOSE_PAREN:
		return "')'";
	default:
		return "a token";
	}
}

/* kfit conf: the line conf's bison prints (yyerror) before its error
 * recovery's own message, at the lookahead token. */
static void bison_error(kc_tree *t)
{
	if (!t->conf_errors || t->lx->fatal)
		return;
	bool eof = peek(t) == T_EOF;
	int plus = t->yyerror_next_line ? 1 : 0;
	const char *file = eof && plus ? "<none>" : kc_cur_file(t);
	kf_diag_add(t->diags, KF_ERROR, file, kc_cur_lineno(t) + plus, 0, "syntax error");
}

/* Syntax error: report and skip to the end of the statement line.  As
 * conf, kfit conf says "invalid statement" at the line it skips to (its
 * grammar recovers at 'stmt_list error T_EOL'). */
static void syntax_error(kc_tree *t, const char *what)
{
	if (t->lx->fatal)
		return;
	enum tok k = peek(t);
	if (t->conf_errors) {
		bison_error(t);
		while ((k = peek(t)) != T_EOL && k != T_EOF)
			free(take(t));
		parse_error(t, 0, "invalid statement");
		accept(t, T_EOL);
		return;
	}
	parse_error(t, t->lx->look_col, "syntax error: unexpected %s%s%s",
		    tok_name(k), what ? ", expected " : "", what ? what : "");
	while ((k = peek(t)) != T_EOL && k != T_EOF)
		free(take(t));
	accept(t, T_EOL);
}

static bool expect_eol(kc_tree *t)
{
	if (accept(t, T_EOL) || peek(t) == T_EOF)
		return true;
	syntax_error(t, "end of line");
	return false;
}

static kc_expr *parse_expr(kc_tree *t, int depth);

static kc_sym *parse_symbol(kc_tree *t, bool allow_const)
{
	enum tok k = peek(t);
	if (k == T_WORD) {
		char *s = take(t);
		kc_sym *sym = sym_lookup(t, s, 0);
		free(s);
		return sym;
	}
	if (k == T_WORD_QUOTE && allow_const) {
		char *s = take(t);
		kc_sym *sym = sym_lookup(t, s, SYMBOL_CONST);
		free(s);
		return sym;
	}
	return NULL;
}

static kc_expr *parse_unary(kc_tree *t, int depth)
{
	if (depth > 256) {
		parse_error(t, t->lx->look_col,
			    "expression nested deeper than 256 levels");
		t->lx->fatal = true;
		return NULL;
	}
	enum tok k = peek(t);
	if (k == T_NOT) {
		free(take(t));
		kc_expr *e = parse_unary(t, depth + 1);
		return e ? expr_alloc_one(t, E_NOT, e) : NULL;
	}
	if (k == T_OPEN_PAREN) {
		free(take(t));
		kc_expr *e = parse_expr(t, depth + 1);
		if (!e)
			return NULL;
		if (!accept(t, T_CLOSE_PAREN))
			return NULL;
		return e;
	}
	if (++t->lx->operands > KC_MAX_OPERANDS) {
		parse_error(t, t->lx->look_col,
			    "expression with more than %d operands",
			    KC_MAX_OPERANDS);
		t->lx->fatal = true;
		return NULL;
	}
	kc_sym *s1 = parse_symbol(t, true);
	if (!s1)
		return NULL;
	enum kc_expr_type ty = E_NONE;
	switch (peek(t)) {
	case T_EQUAL:
		ty = E_EQUAL;
		break;
	case T_UNEQUAL:
		ty = E_UNEQUAL;
		break;
	case T_LESS:
		ty = E_LTH;
		break;
	case T_LESS_EQUAL:
		ty = E_LEQ;
		break;
	case T_GREATER:
		ty = E_GTH;
		break;
	case T_GREATER_EQUAL:
		ty = E_GEQ;
		break;
	default:
		return expr_alloc_symbol(t, s1);
	}
	free(take(t));
	kc_sym *s2 = parse_symbol(t, true);
	if (!s2)
		return NULL;
	return expr_alloc_comp(t, ty, s1, s2);
}

static kc_expr *parse_and(kc_tree *t, int depth)
{
	kc_expr *e = parse_unary(t, depth);
	while (e && peek(t) == T_AND) {
		free(take(t));
		kc_expr *r = parse_unary(t, depth);
		if (!r)
			return NULL;
		e = expr_alloc_two(t, E_AND, e, r);
	}
	return e;
}

static kc_expr *parse_expr(kc_tree *t, int depth)
{
	if (depth == 0)
		t->lx->operands = 0;
	kc_expr *e = parse_and(t, depth);
	while (e && peek(t) == T_OR) {
		free(take(t));
		kc_expr *r = parse_and(t, depth);
		if (!r)
			return NULL;
		e = expr_alloc_two(t, E_OR, e, r);
	}
	return e;
}

/* Optional "if EXPR"; *ok false on a syntax error. */
static kc_expr *parse_if_expr(kc_tree *t, bool *ok)
{
	*ok = true;
	if (!accept(t, T_IF))
		return NULL;
	kc_expr *e = parse_expr(t, 0);
	if (!e)
		*ok = false;
	return e;
}

#define FILE_LINE kc_cur_file(t), kc_cur_lineno(t)

/* A warning of conf's parser ("FILE:LINE: warning: ..."), or with err
 * the error 7.x made of it. */
static void help_problem(kc_tree *t, bool err, const char *file, int line,
			 const char *fmt, ...) KF_PRINTF(5, 6);

static void help_problem(kc_tree *t, bool err, const char *file, int line,
			 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (err) {
		kf_diag_vadd(t->diags, KF_ERROR, file, line, 0, fmt, ap);
		t->nerrors++;
	} else {
		kf_strbuf sb = KF_STRBUF_INIT;
		kf_strbuf_addf(&sb, "%s:%d: warning: ", file, line);
		kf_strbuf_vaddf(&sb, fmt, ap);
		kf_diag_raw(t->diags, KF_WARNING, "%s", kf_strbuf_str(&sb));
		kf_strbuf_release(&sb);
	}
	va_end(ap);
}

static void parse_help(kc_tree *t)
{
	/* "help" EOL already consumed by the caller */
	char *text = lex_help(t);
	kc_menu *e = t->current_entry;
	const char *name = e->sym && e->sym->name ? e->sym->name : "<choice>";
	/* conf reports where the help text ended: the line after it (the
	 * next statement's, or the end of its file) */
	const char *file = kc_cur_file(t);
	int line = kc_lex_lineno(t);
	/* 7.x made both warnings errors */
	bool err = t->parse_errors_7x;
	if (e->help)
		help_problem(t, err, file, line, err ?
			     "'%s' defined with more than one help text" :
			     "'%s' defined with more than one help text -- only the last one will be used",
			     name);
	if (text[strspn(text, " \f\n\r\t\v")] == '\0')
		help_problem(t, err, file, line,
			     "'%s' defined with blank help text", name);
	e->help = kf_arena_strdup(t->arena, text);
	free(text);
}

static bool parse_depends(kc_tree *t)
{
	/* T_DEPENDS consumed */
	if (!accept(t, T_ON)) {
		syntax_error(t, "'on'");
		return false;
	}
	kc_expr *e = parse_expr(t, 0);
	if (!e) {
		syntax_error(t, "an expression");
		return false;
	}
	/* "depends on X if Y" (7.x) */
	kc_expr *cond = NULL;
	if (t->has_depends_if) {
		bool ok;
		cond = parse_if_expr(t, &ok);
		if (!ok) {
			syntax_error(t, "an expression");
			return false;
		}
	}
	if (!expect_eol(t))
		return false;
	if (t->lx->deps_entry != t->current_entry) {
		t->lx->deps_entry = t->current_entry;
		t->lx->deps_count = 0;
	}
	if (++t->lx->deps_count > KC_MAX_DEPENDS) {
		parse_error(t, 0, "more than %d 'depends on' lines for one entry",
			    KC_MAX_DEPENDS);
		t->lx->fatal = true;
		return false;
	}
	menu_add_dep(t, e, cond);
	return true;
}

/* "option ..." of kernels before 5.13 (docs/semantics.md). */
static void parse_option(kc_tree *t)
{
	char *w = NULL;
	if (peek(t) == T_MODULES) {
		free(take(t));
		w = kf_xstrdup("modules");
	} else if (peek(t) == T_WORD)
		w = take(t);
	if (!w) {
		syntax_error(t, "an option name");
		return;
	}
	if (!strcmp(w, "modules")) {
		if (t->modules_sym)
			parse_error(t, 0,
				    "symbol '%s' redefines option 'modules' already defined by symbol '%s'",
				    t->current_entry->sym->name, t->modules_sym->name);
		t->modules_sym = t->current_entry->sym;
	} else if (!strcmp(w, "defconfig_list")) {
		/* menu_add_option_defconfig_list(): the symbol whose
		 * defaults list the starting configs; never written */
		if (!t->defconfig_list_sym)
			t->defconfig_list_sym = t->current_entry->sym;
		else if (t->defconfig_list_sym != t->current_entry->sym)
			parse_error(t, 0, "trying to redefine defconfig symbol");
		t->defconfig_list_sym->flags |= SYMBOL_NO_WRITE;
	} else if (!strcmp(w, "allnoconfig_y")) {
		t->current_entry->sym->flags |= SYMBOL_ALLNOCONFIG_Y;
	} else if (!strcmp(w, "env") && accept(t, T_EQUAL) &&
		   peek(t) == T_WORD_QUOTE) {
		char *v = take(t);
		const char *val = pp_getenv(t, v);
		if (val)
			menu_add_expr(t, P_DEFAULT,
				      expr_alloc_symbol(t, sym_lookup(t, val,
								      SYMBOL_CONST)),
				      NULL, FILE_LINE);
		free(v);
	} else {
		/* other names: accepted, no effect */
		if (peek(t) == T_EQUAL) {
			free(take(t));
			free(take(t));
		}
	}
	free(w);
	expect_eol(t);
}

/* config/menuconfig options; returns at the first token that is not one. */
static void parse_config_options(kc_tree *t, bool in_choice_block)
{
	(void)in_choice_block;
	for (;;) {
		enum tok k = peek(t);
		bool ok;
		switch (k) {
		case T_BOOL:
		case T_TRISTATE:
		case T_INT:
		case T_HEX:
		case T_STRING: {
			free(take(t));
			int type = k == T_BOOL	       ? S_BOOLEAN
				   : k == T_TRISTATE ? S_TRISTATE
				   : k == T_INT	       ? S_INT
				   : k == T_HEX	       ? S_HEX
						       : S_STRING;
			if (peek(t) == T_WORD_QUOTE) {
				char *p = take(t);
				kc_expr *c = parse_if_expr(t, &ok);
				if (!ok) {
					free(p);
					syntax_error(t, "an expression");
					break;
				}
				if (!expect_eol(t)) {
					free(p);
					break;
				}
				menu_add_prompt(t, P_PROMPT,
						kf_arena_strdup(t->arena, p), c,
						FILE_LINE);
				free(p);
			} else if (!expect_eol(t))
				break;
			menu_set_type(t, type);
			break;
		}
		case T_PROMPT: {
			free(take(t));
			if (peek(t) != T_WORD_QUOTE) {
				syntax_error(t, "a quoted prompt");
				break;
			}
			char *p = take(t);
			kc_expr *c = parse_if_expr(t, &ok);
			if (!ok || !expect_eol(t)) {
				free(p);
				if (!ok)
					syntax_error(t, "an expression");
				break;
			}
			menu_add_prompt(t, P_PROMPT, kf_arena_strdup(t->arena, p),
					c, FILE_LINE);
			free(p);
			break;
		}
		case T_DEFAULT:
		case T_DEF_BOOL:
		case T_DEF_TRISTATE: {
			free(take(t));
			kc_expr *e = parse_expr(t, 0);
			if (!e) {
				syntax_error(t, "an expression");
				break;
			}
			kc_expr *c = parse_if_expr(t, &ok);
			if (!ok) {
				syntax_error(t, "an expression");
				break;
			}
			if (!expect_eol(t))
				break;
			menu_add_expr(t, P_DEFAULT, e, c, FILE_LINE);
			if (k != T_DEFAULT)
				menu_set_type(t, k == T_DEF_BOOL ? S_BOOLEAN
								 : S_TRISTATE);
			break;
		}
		case T_SELECT:
		case T_IMPLY: {
			free(take(t));
			kc_sym *s = parse_symbol(t, false);
			if (!s) {
				syntax_error(t, "a symbol");
				break;
			}
			kc_expr *c = parse_if_expr(t, &ok);
			if (!ok) {
				syntax_error(t, "an expression");
				break;
			}
			if (!expect_eol(t))
				break;
			menu_add_symbol(t, k == T_SELECT ? P_SELECT : P_IMPLY, s, c,
					FILE_LINE);
			break;
		}
		case T_RANGE: {
			free(take(t));
			kc_sym *a = parse_symbol(t, true);
			kc_sym *b = a ? parse_symbol(t, true) : NULL;
			if (!b) {
				syntax_error(t, "two symbols");
				break;
			}
			kc_expr *c = parse_if_expr(t, &ok);
			if (!ok) {
				syntax_error(t, "an expression");
				break;
			}
			if (!expect_eol(t))
				break;
			menu_add_expr(t, P_RANGE, expr_alloc_comp(t, E_RANGE, a, b),
				      c, FILE_LINE);
			break;
		}
		case T_TRANSITIONAL:
			free(take(t));
			if (expect_eol(t))
				t->current_entry->sym->flags |= SYMBOL_TRANS;
			break;
		case T_MODULES:
			free(take(t));
			if (!expect_eol(t))
				break;
			if (t->modules_sym)
				parse_error(t, 0,
					    "symbol '%s' redefines option 'modules' already defined by symbol '%s'",
					    t->current_entry->sym->name,
					    t->modules_sym->name);
			t->modules_sym = t->current_entry->sym;
			break;
		case T_OPTION:
			free(take(t));
			parse_option(t);
			break;
		case T_DEPENDS:
			free(take(t));
			parse_depends(t);
			break;
		case T_HELP:
			free(take(t));
			if (peek(t) != T_EOL) {
				syntax_error(t, "end of line");
				break;
			}
			/* consume EOL without reading ahead into the help */
			t->lx->look = T_NONE;
			parse_help(t);
			break;
		default:
			return;
		}
	}
}

static void parse_stmt_list(kc_tree *t, int ctx);

enum { CTX_TOP, CTX_MENU, CTX_IF, CTX_CHOICE, CTX_IF_IN_CHOICE };

static const char *end_name(enum tok k)
{
	return k == T_ENDMENU ? "menu" : k == T_ENDCHOICE ? "choice" : "if";
}

/* Parse the end of a block opened by `menu` (a menu node). */
static void parse_block_end(kc_tree *t, kc_menu *block, const char *want)
{
	if (t->lx->fatal)
		return; /* reported; the blocks around it are not the problem */
	enum tok k = peek(t);
	if (k == T_ENDMENU || k == T_ENDCHOICE || k == T_ENDIF) {
		const char *got = end_name(k);
		free(take(t));
		expect_eol(t);
		if (strcmp(got, want)) {
			parse_error(t, 0, "unexpected '%s' within %s block", got,
				    want);
			return;
		}
		if (strcmp(block->file, kc_cur_file(t))) {
			parse_error(t, 0, "'%s' in different file than '%s'", got,
				    want);
			kf_diag_add(t->diags, KF_NOTE, block->file, block->lineno,
				    0, "location of the '%s'", want);
			return;
		}
		menu_end_menu(t);
		return;
	}
	/* end of file inside a block */
	bison_error(t);
	kf_diag_add(t->diags, KF_ERROR, block->file, block->lineno, 0,
		    "missing end statement for this entry");
	t->nerrors++;
	if (t->current_menu == block)
		menu_end_menu(t);
}

static void parse_config(kc_tree *t, bool menuconfig, int ctx)
{
	kc_sym *sym = parse_symbol(t, false);
	if (!sym) {
		syntax_error(t, "a symbol name");
		return;
	}
	if (!expect_eol(t))
		return;
	if (t->sem == KC_SEM_V1)
		sym->flags |= SYMBOL_OPTIONAL;
	menu_add_entry(t, sym, FILE_LINE);
	kc_menu *entry = t->current_entry;
	parse_config_options(t, ctx == CTX_CHOICE || ctx == CTX_IF_IN_CHOICE);
	if (menuconfig) {
		if (entry->prompt)
			entry->prompt->type = P_MENU;
		else
			/* where conf's parser is: at the next statement */
			help_problem(t, t->parse_errors_7x, FILE_LINE,
				     "menuconfig statement without prompt");
	}
	if (t->sem == KC_SEM_V2 && t->current_choice) {
		if (!entry->prompt) {
			kf_diag_add(t->diags, KF_ERROR, entry->file, entry->lineno,
				    0, "choice member must have a prompt");
			t->nerrors++;
		}
		if (entry->sym->type != S_BOOLEAN) {
			kf_diag_add(t->diags, KF_ERROR, entry->file, entry->lineno,
				    0, "choice member must be bool");
			t->nerrors++;
		}
		if (!entry->sym->choice) {
			kc_menu *c = t->current_choice;
			if (c->nmembers + 1 > c->amembers) {
				/* in the arena, as the tree's other lists */
				size_t na = c->amembers ? c->amembers * 2 : 8;
				kc_sym **nm = kf_arena_alloc(t->arena, na * sizeof(*nm));
				if (c->nmembers)
					memcpy(nm, c->members,
					       c->nmembers * sizeof(*nm));
				c->members = nm;
				c->amembers = na;
			}
			c->members[c->nmembers++] = entry->sym;
			entry->sym->choice = c;
		}
	}
}

static void parse_choice(kc_tree *t)
{
	char *name = NULL;
	if (t->sem == KC_SEM_V1 && peek(t) == T_WORD)
		name = take(t);
	if (!expect_eol(t)) {
		free(name);
		return;
	}
	kc_sym *sym;
	if (t->sem == KC_SEM_V1) {
		sym = sym_lookup(t, name, SYMBOL_CHOICE);
		sym->flags |= SYMBOL_NO_WRITE;
		menu_add_entry(t, sym, FILE_LINE);
		menu_add_expr(t, P_CHOICE, NULL, NULL, FILE_LINE);
	} else {
		sym = sym_lookup(t, NULL, 0);
		sym->flags |= SYMBOL_CHOICE;
		menu_add_entry(t, sym, FILE_LINE);
		menu_set_type(t, S_BOOLEAN);
	}
	free(name);
	/* choice options */
	for (;;) {
		enum tok k = peek(t);
		bool ok;
		if (k == T_PROMPT ||
		    ((k == T_BOOL || k == T_TRISTATE) && t->sem == KC_SEM_V1) ||
		    (k == T_BOOL && t->sem == KC_SEM_V2 &&
		     !t->choice_rules_7x)) {
			free(take(t));
			if (k != T_PROMPT && t->sem == KC_SEM_V1)
				menu_set_type(t, k == T_BOOL ? S_BOOLEAN : S_TRISTATE);
			if (peek(t) != T_WORD_QUOTE) {
				if (k != T_PROMPT && t->sem == KC_SEM_V1) {
					expect_eol(t);
					continue;
				}
				syntax_error(t, "a quoted prompt");
				continue;
			}
			char *p = take(t);
			kc_expr *c = parse_if_expr(t, &ok);
			if (!ok) {
				free(p);
				syntax_error(t, "an expression");
				continue;
			}
			if (expect_eol(t))
				menu_add_prompt(t, P_PROMPT,
						kf_arena_strdup(t->arena, p), c,
						FILE_LINE);
			free(p);
		} else if (k == T_OPTIONAL && t->sem == KC_SEM_V1) {
			free(take(t));
			if (expect_eol(t))
				t->current_entry->sym->flags |= SYMBOL_OPTIONAL;
		} else if (k == T_DEFAULT) {
			free(take(t));
			kc_sym *s = parse_symbol(t, false);
			if (!s) {
				syntax_error(t, "a symbol");
				continue;
			}
			kc_expr *c = parse_if_expr(t, &ok);
			if (!ok) {
				syntax_error(t, "an expression");
				continue;
			}
			if (expect_eol(t))
				menu_add_symbol(t, P_DEFAULT, s, c, FILE_LINE);
		} else if (k == T_DEPENDS) {
			free(take(t));
			parse_depends(t);
		} else if (k == T_HELP) {
			free(take(t));
			if (peek(t) != T_EOL) {
				syntax_error(t, "end of line");
				continue;
			}
			t->lx->look = T_NONE;
			parse_help(t);
		} else {
			break;
		}
	}
	kc_menu *entry = t->current_entry;
	if (t->sem == KC_SEM_V2 && !entry->prompt) {
		kf_diag_add(t->diags, KF_ERROR, entry->file, entry->lineno, 0,
			    "choice must have a prompt");
		t->nerrors++;
	}
	kc_menu *block = menu_add_menu(t);
	kc_menu *saved_choice = t->current_choice;
	t->current_choice = block;
	parse_stmt_list(t, CTX_CHOICE);
	t->current_choice = saved_choice;
	if (t->sem == KC_SEM_V2)
		t->current_choice = NULL;
	parse_block_end(t, block, "choice");
}

static void parse_stmt_list_body(kc_tree *t, int ctx);

/* The statements of a block (or the top level), with a bound on nesting. */
/* The quoted text of "KEYWORD \"text\"" up to the end of the line, in
 * the arena; NULL after reporting a syntax error (comment, menu,
 * mainmenu). */
static const char *quoted_line(kc_tree *t, const char *what)
{
	if (peek(t) != T_WORD_QUOTE) {
		syntax_error(t, what);
		return NULL;
	}
	char *p = take(t);
	if (!expect_eol(t)) {
		free(p);
		return NULL;
	}
	const char *r = kf_arena_strdup(t->arena, p);
	free(p);
	return r;
}

static void parse_stmt_list(kc_tree *t, int ctx)
{
	if (ctx != CTX_TOP && ++t->lx->blocks > KC_MAX_BLOCKS) {
		parse_error(t, 0,
			    "blocks (if, menu, choice) nested deeper than %d levels",
			    KC_MAX_BLOCKS);
		t->lx->fatal = true;
		t->lx->blocks--;
		return;
	}
	parse_stmt_list_body(t, ctx);
	if (ctx != CTX_TOP)
		t->lx->blocks--;
}

static void parse_stmt_list_body(kc_tree *t, int ctx)
{
	bool in_choice = ctx == CTX_CHOICE || ctx == CTX_IF_IN_CHOICE;
	for (;;) {
		if (t->lx->fatal)
			return;
		enum tok k = peek(t);
		switch (k) {
		case T_EOF:
		case T_ENDMENU:
		case T_ENDCHOICE:
		case T_ENDIF:
			if (ctx == CTX_TOP && k != T_EOF) {
				/* an end without a block */
				bison_error(t);
				parse_error(t, t->lx->look_col, "invalid statement");
				free(take(t));
				while (peek(t) != T_EOL && peek(t) != T_EOF)
					free(take(t));
				accept(t, T_EOL);
				continue;
			}
			return;
		case T_CONFIG:
		case T_MENUCONFIG:
			free(take(t));
			if (k == T_MENUCONFIG && in_choice) {
				parse_error(t, 0, "invalid statement");
				syntax_error(t, NULL);
				break;
			}
			parse_config(t, k == T_MENUCONFIG, ctx);
			break;
		case T_COMMENT: {
			free(take(t));
			const char *p = quoted_line(t, "a quoted comment");
			if (!p)
				break;
			menu_add_entry(t, NULL, FILE_LINE);
			menu_add_prompt(t, P_COMMENT, p, NULL, FILE_LINE);
			while (peek(t) == T_DEPENDS) {
				free(take(t));
				parse_depends(t);
			}
			break;
		}
		case T_IF: {
			free(take(t));
			kc_expr *e = parse_expr(t, 0);
			if (!e) {
				syntax_error(t, "an expression");
				break;
			}
			if (!expect_eol(t))
				break;
			menu_add_entry(t, NULL, FILE_LINE);
			menu_add_dep(t, e, NULL);
			kc_menu *block = menu_add_menu(t);
			parse_stmt_list(t, in_choice ? CTX_IF_IN_CHOICE : CTX_IF);
			parse_block_end(t, block, "if");
			break;
		}
		case T_MENU: {
			free(take(t));
			if (in_choice) {
				parse_error(t, 0, "invalid statement");
				syntax_error(t, NULL);
				break;
			}
			const char *p = quoted_line(t, "a quoted menu title");
			if (!p)
				break;
			menu_add_entry(t, NULL, FILE_LINE);
			menu_add_prompt(t, P_MENU, p, NULL, FILE_LINE);
			for (;;) {
				if (peek(t) == T_DEPENDS) {
					free(take(t));
					parse_depends(t);
				} else if (peek(t) == T_VISIBLE) {
					free(take(t));
					bool ok;
					kc_expr *c = parse_if_expr(t, &ok);
					if (!ok) {
						syntax_error(t, "an expression");
						continue;
					}
					if (expect_eol(t))
						menu_add_visibility(t, c);
				} else
					break;
			}
			kc_menu *block = menu_add_menu(t);
			parse_stmt_list(t, CTX_MENU);
			parse_block_end(t, block, "menu");
			break;
		}
		case T_CHOICE:
			free(take(t));
			if (in_choice) {
				parse_error(t, 0, "invalid statement");
				syntax_error(t, NULL);
				break;
			}
			parse_choice(t);
			break;
		case T_SOURCE:
		case T_RSOURCE:
		case T_OSOURCE:
		case T_ORSOURCE: {
			free(take(t));
			if (in_choice) {
				parse_error(t, 0, "invalid statement");
				syntax_error(t, NULL);
				break;
			}
			if (peek(t) != T_WORD_QUOTE) {
				syntax_error(t, "a quoted file name");
				break;
			}
			char *p = take(t);
			/* the EOL must be consumed before switching files,
			 * but without reading the next token */
			if (peek(t) != T_EOL && peek(t) != T_EOF) {
				free(p);
				syntax_error(t, "end of line");
				break;
			}
			t->lx->look = T_NONE;
			do_source(t, k, p);
			free(p);
			break;
		}
		case T_MAINMENU: {
			free(take(t));
			const char *p = quoted_line(t, "a quoted title");
			if (!p)
				break;
			if (t->rootmenu.prompt || ctx != CTX_TOP || t->rootmenu.list) {
				parse_error(t, 0, "invalid statement");
				break;
			}
			kc_menu *save = t->current_entry;
			t->current_entry = &t->rootmenu;
			menu_add_prompt(t, P_MENU, p, NULL, FILE_LINE);
			t->current_entry = save;
			break;
		}
		case T_WORD: {
			char *name = take(t);
			int col = t->lx->look_col;
			enum tok op = peek(t);
			if (!in_choice && (op == T_EQUAL || op == T_COLON_EQUAL ||
					   op == T_PLUS_EQUAL)) {
				free(take(t));
				char *val = peek(t) == T_ASSIGN_VAL ? take(t)
								    : kf_xstrdup("");
				if (expect_eol(t))
					pp_variable_add(t, name, val,
							op == T_EQUAL	      ? VAR_RECURSIVE
							: op == T_COLON_EQUAL ? VAR_SIMPLE
									      : VAR_APPEND);
				free(val);
				free(name);
				break;
			}
			bison_error(t);
			parse_error(t, col, "unknown statement \"%s\"", name);
			free(name);
			while (peek(t) != T_EOL && peek(t) != T_EOF)
				free(take(t));
			accept(t, T_EOL);
			break;
		}
		default:
			bison_error(t);
			parse_error(t, t->lx->look_col, "invalid statement");
			while (peek(t) != T_EOL && peek(t) != T_EOF)
				free(take(t));
			accept(t, T_EOL);
			break;
		}
	}
}

int kc_parse(kc_tree *t, const char *file)
{
	struct kc_lexer lx;
	memset(&lx, 0, sizeof(lx));
	lx.prev_token = T_EOL;
	lx.prev_prev_token = T_EOL;
	t->lx = &lx;
	menu_init(t);

	if (lx_open(t, file, 0, false)) {
		lx.cur_file = lx.f->name;
		parse_stmt_list(t, CTX_TOP);
	}
	while (lx.f)
		lx_close(t);
	free(lx.text);
	free(lx.look_text);
	bool fatal = lx.fatal;
	/* keep t->lx valid for error reporting until here */
	t->lx = NULL;
	if (fatal || t->nerrors)
		return -1;
	return 0;
}
