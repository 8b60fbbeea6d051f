/*
 * kc_lex.c - the Kconfig lexer.
 *
 * A hand-written equivalent of the kernel's flex lexer (lexer.l): the
 * same tokens, the same statement-start line numbers, the same expansion
 * points for the preprocessor (words with '$' and quoted strings are
 * expanded while lexing; assignment values are kept raw), the same
 * help-text indentation rules; source statements open files here.
 */
#include "kc_lex.h"

#include <ctype.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Which keywords only older trees have (for a tree without lexer.l). */
enum kw_gate {
	KW_ALL,            /* every tree */
	KW_DEFCONFIG_LIST, /* t->kw_defconfig_list */
	KW_OPTION,         /* t->kw_option */
};

static const struct {
	const char *word; /* keyword text */
	enum tok tok;     /* its token */
	int min_sem;      /* 0: all; only in trees of this model or newer */
	int max_sem;      /* 0: all; only in trees of this model or older */
	enum kw_gate gate; /* without lexer.l: the kc_tree flag that keeps it */
} keywords[] = {
	{"allnoconfig_y", T_ALLNOCONFIG_Y, 0, 0, KW_DEFCONFIG_LIST},
	{"bool", T_BOOL, 0, 0, 0},
	{"choice", T_CHOICE, 0, 0, 0},
	{"comment", T_COMMENT, 0, 0, 0},
	{"config", T_CONFIG, 0, 0, 0},
	{"def_bool", T_DEF_BOOL, 0, 0, 0},
	{"def_tristate", T_DEF_TRISTATE, 0, 0, 0},
	{"default", T_DEFAULT, 0, 0, 0},
	{"defconfig_list", T_DEFCONFIG_LIST, 0, 0, KW_DEFCONFIG_LIST},
	{"depends", T_DEPENDS, 0, 0, 0},
	{"endchoice", T_ENDCHOICE, 0, 0, 0},
	{"endif", T_ENDIF, 0, 0, 0},
	{"endmenu", T_ENDMENU, 0, 0, 0},
	{"help", T_HELP, 0, 0, 0},
	{"hex", T_HEX, 0, 0, 0},
	{"if", T_IF, 0, 0, 0},
	{"imply", T_IMPLY, 0, 0, 0},
	{"int", T_INT, 0, 0, 0},
	{"mainmenu", T_MAINMENU, 0, 0, 0},
	{"menu", T_MENU, 0, 0, 0},
	{"menuconfig", T_MENUCONFIG, 0, 0, 0},
	{"modules", T_MODULES, 0, 0, 0},
	{"on", T_ON, 0, 0, 0},
	{"option", T_OPTION, 0, 0, KW_OPTION},
	{"optional", T_OPTIONAL, 0, KC_SEM_V1, 0},
	{"prompt", T_PROMPT, 0, 0, 0},
	{"range", T_RANGE, 0, 0, 0},
	{"select", T_SELECT, 0, 0, 0},
	{"source", T_SOURCE, 0, 0, 0},
	{"string", T_STRING, 0, 0, 0},
	{"transitional", T_TRANSITIONAL, 0, 0, 0},
	{"tristate", T_TRISTATE, 0, 0, 0},
	{"visible", T_VISIBLE, 0, 0, 0},
};

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

bool kc_lex_open(kc_tree *t, const char *name, int src_lineno,
		    bool optional)
{
	char *path;
	if (name[0] == '/')
		path = kf_xstrdup(name);
	else
		path = kf_xasprintf("%s/%s", t->srctree, name);
	kf_strbuf buf = KF_STRBUF_INIT;
	kf_diags tmp = KF_DIAGS_INIT;
	/* one open: a file missing, unreadable or a directory is not read */
	if (kf_read_file(path, &buf, &tmp) < 0) {
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

void kc_lex_close(kc_tree *t)
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
	struct stat st;
	bool r = stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
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
void kc_lex_source(kc_tree *t, enum tok kind, const char *name)
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
		kc_parse_error(t, 0, "source nesting deeper than 64 files at \"%s\"",
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
	if (strpbrk(want, "*?[") && t->source_glob) {
		/* old kernels: source accepted globs */
		char *pat = kf_xasprintf("%s/%s", t->srctree, want);
		glob_t g;
		if (glob(pat, 0, NULL, &g) == 0) {
			size_t plen = strlen(t->srctree) + 1;
			/* open in reverse so the first match is read first */
			for (size_t i = g.gl_pathc; i-- > 0;)
				kc_lex_open(t, g.gl_pathv[i] + plen, lx->cur_lineno,
					false);
		} else if (!optional) {
			kc_parse_error(t, 0, "\"%s\" does not match any file", want);
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
	kc_lex_open(t, want, lx->cur_lineno, optional);
	free(rel);
}

/* ---------------- tokens ---------------- */

void kc_lex_keywords(kc_tree *t, const char *lexer_l)
{
	_Static_assert(sizeof(keywords) / sizeof(keywords[0]) <= 64,
		       "kw_off is a 64-bit mask");
	t->kw_off = 0;
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		bool on;
		if (lexer_l) {
			/* a rule at the start of a line: "word"  return T_... */
			char pat[32];
			snprintf(pat, sizeof(pat), "\n\"%s\"", keywords[i].word);
			on = strstr(lexer_l, pat) != NULL;
		} else if (keywords[i].tok == T_TRANSITIONAL) {
			on = t->has_transitional; /* 6.18 */
		} else {
			on = !(keywords[i].max_sem &&
			       (int)t->sem > keywords[i].max_sem) &&
			     (keywords[i].gate != KW_DEFCONFIG_LIST ||
			      t->kw_defconfig_list) &&
			     (keywords[i].gate != KW_OPTION || t->kw_option);
		}
		if (!on)
			t->kw_off |= 1ull << i;
	}
}

static enum tok keyword(kc_tree *t, const char *w, size_t n)
{
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		if (strlen(keywords[i].word) == n &&
		    !memcmp(keywords[i].word, w, n))
			return t->kw_off & (1ull << i) ? T_NONE : keywords[i].tok;
	}
	/* "---help---" until 5.7 */
	if (t->help_dashes && n == 10 && !memcmp(w, "---help---", 10))
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
				kc_lex_close(t);
				/* 6.12+'s zconf_endfile() sets cur_filename
				 * back to the includer's (cur_lineno stays) */
				if (!t->yyerror_next_line)
					lx->cur_file = lx->f->name;
				return T_EOL;
			}
			/* conf's yylineno and file stay at the end of the
			 * top file: statements reported "at the next token"
			 * name that line */
			lx->eof_file = f->name;
			lx->eof_lineno = f->lineno;
			kc_lex_close(t);
			/* 5.10 and 6.1 close their top file with a T_EOL too
			 * (zconf_endfile(), then "return T_EOL"; the next
			 * call finds no file: the end of input) */
			if (t->eof_eol && lx->prev_token != T_EOL &&
			    lx->prev_token != T_HELPTEXT)
				return T_EOL;
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
enum tok kc_lex(kc_tree *t)
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
			/* 5.10 and 6.1: current_pos.file is current_file,
			 * none at the end ("<none>"); later cur_filename
			 * stays */
			lx->cur_lineno = lx->eof_lineno;
			lx->cur_file = t->yyerror_next_line ? NULL : lx->eof_file;
		}
	}
	if (lx->prev_prev_token == T_EOL && lx->prev_token == T_WORD &&
	    (token == T_EQUAL || token == T_COLON_EQUAL || token == T_PLUS_EQUAL))
		lx->state = ST_ASSIGN_VAL;
	lx->prev_prev_token = lx->prev_token;
	lx->prev_token = token;
	return token;
}

/* The rest of the line into sb, without its newline: what lx_get would
 * give, taken from the buffer a line at a time once no character is
 * pushed back. */
static void lx_line_into(struct lx_file *f, kf_strbuf *sb)
{
	int c;
	while (f->pushback.len && (c = lx_peek(f)) != '\n') {
		lx_get(f);
		kf_strbuf_addch(sb, c);
	}
	if (f->pushback.len)
		return; /* at a newline pushed back */
	const char *p = f->buf + f->pos;
	const char *nl = memchr(p, '\n', f->len - f->pos);
	size_t n = nl ? (size_t)(nl - p) : f->len - f->pos;
	kf_strbuf_add(sb, p, n);
	f->pos += n;
}

/* Help text after "help\n", with the kernel's indentation rules. */
char *kc_lex_help(kc_tree *t)
{
	struct kc_lexer *lx = t->lx;
	struct lx_file *f = lx->f;
	kf_strbuf sb = KF_STRBUF_INIT;
	int first_ts = 0, last_ts = 0;

	kf_strbuf_addstr(&sb, "");
	while (f && lx_peek(f) != EOF) {
		/* leading blanks */
		int ts = 0, nblank = 0;
		int c;
		while ((c = lx_peek(f)) == ' ' || c == '\t') {
			lx_get(f);
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
			if (c == EOF)
				break;
			lx_get(f);
			int n = lx_peek(f);
			if (n != ' ' && n != '\t' && n != '\n' && n != EOF)
				break;
			kf_strbuf_addch(&sb, '\n');
			continue;
		}
		/* a line without indentation: only the first one can be
		 * here (a newline before one ends the help), and it is help
		 * text, as in the kernel's lexer ("[^ \t\n].*" with first_ts
		 * 0): so are the lines after it, up to the next unindented
		 * one */
		last_ts = ts;
		if (first_ts) {
			if (ts < first_ts) {
				/* the text belongs to the next statement:
				 * blanks stay consumed */
				lx->prev_token = T_HELPTEXT;
				return kf_strbuf_detach(&sb);
			}
			for (int k = ts - first_ts; k > 0; k--)
				kf_strbuf_addch(&sb, ' ');
		}
		/* the text of the line, trailing blanks removed */
		size_t start = sb.len;
		lx_line_into(f, &sb);
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

const char *kc_tok_name(enum tok k)
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
