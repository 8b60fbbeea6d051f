/*
 * kc_parse.c - the Kconfig parser.
 *
 * A hand-written recursive-descent equivalent of the kernel's bison
 * grammar (parser.y) over the tokens of kc_lex.c.  Errors are reported as
 * file:line:col (kc_diag.c) and parsing resynchronises at the next line,
 * as the kernel's error productions do.
 */
#include "kc_lex.h"

#include <stdlib.h>
#include <string.h>

/* Limits that keep hostile input from overflowing the stack in the
 * recursive expression and menu code (real trees stay far below them). */
#define KC_MAX_BLOCKS 256    /* nested if/menu/choice blocks */
#define KC_MAX_OPERANDS 4096 /* operands of one expression */
#define KC_MAX_DEPENDS 1024  /* depends-on lines of one entry */

static enum tok peek(kc_tree *t)
{
	struct kc_lexer *lx = t->lx;
	if (lx->look == T_NONE) {
		lx->look = kc_lex(t);
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

/* A token was shifted: bison counts three of them after an error before
 * it reports the next one. */
static void shifted(kc_tree *t)
{
	if (t->lx->errstatus)
		t->lx->errstatus--;
	t->lx->shifted_any = true;
}

/* Consume the lookahead; returns its text (caller owns) or NULL. */
static char *take(kc_tree *t)
{
	struct kc_lexer *lx = t->lx;
	peek(t);
	char *s = lx->look_text;
	lx->look_text = NULL;
	lx->look = T_NONE;
	shifted(t);
	return s;
}

/* Drop the lookahead without shifting it (error recovery). */
static void discard(kc_tree *t)
{
	struct kc_lexer *lx = t->lx;
	peek(t);
	free(lx->look_text);
	lx->look_text = NULL;
	lx->look = T_NONE;
}

static bool accept(kc_tree *t, enum tok k)
{
	if (peek(t) != k)
		return false;
	free(take(t));
	return true;
}

/* kfit conf: the line conf's bison prints (yyerror) before its error
 * recovery's own message, at the lookahead token; not within three
 * tokens of the last error (yyerrstatus). */
static void bison_error(kc_tree *t)
{
	if (!t->conf_errors || t->lx->fatal || t->lx->errstatus)
		return;
	t->nerrors++;
	bool eof = peek(t) == T_EOF;
	int plus = t->yyerror_next_line ? 1 : 0;
	const char *file = eof && plus ? "<none>" : kc_cur_file(t);
	kf_diag_add(t->diags, KF_ERROR, file, kc_cur_lineno(t) + plus, 0, "syntax error");
}

/*
 * kfit conf recovers from a syntax error as conf's bison does: the only
 * rules with the error token are 'stmt_list error T_EOL' ("invalid
 * statement"), 'stmt_list T_WORD error T_EOL' ("unknown statement") and
 * 'stmt_list_in_choice error T_EOL', so bison pops the entry being read
 * (its remaining attribute lines become statements of their own, each an
 * invalid one) back to the innermost statement list, which drops tokens
 * up to the end of the line (parse_stmt_list_body, recover_stmt).  The
 * parse functions return as soon as lx->recover is set.
 */
enum { REC_NONE, REC_INVALID, REC_UNKNOWN };

static bool recovering(kc_tree *t)
{
	return t->lx->recover || t->lx->abort || t->lx->fatal;
}

/* Syntax error at the lookahead.  kfit kconfig: report and skip to the
 * end of the statement line.  kfit conf: bison's yyerror, then unwind to
 * the statement list (see above). */
static void syntax_error(kc_tree *t, const char *what)
{
	if (recovering(t))
		return;
	enum tok k = peek(t);
	if (t->conf_errors) {
		bison_error(t);
		t->lx->recover = REC_INVALID;
		return;
	}
	kc_parse_error(t, t->lx->look_col, "syntax error: unexpected %s%s%s",
		    kc_tok_name(k), what ? ", expected " : "", what ? what : "");
	while ((k = peek(t)) != T_EOL && k != T_EOF)
		free(take(t));
	accept(t, T_EOL);
}

/* Every statement ends with a T_EOL; a file without a final newline
 * gets one from the lexer, except the top file from 6.12 on (kc_lex.c,
 * eof_eol), where conf's parser sees the end of input instead: a syntax
 * error. */
static bool expect_eol(kc_tree *t)
{
	if (accept(t, T_EOL))
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
		kc_parse_error(t, t->lx->look_col,
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
		kc_parse_error(t, t->lx->look_col,
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
	char *text = kc_lex_help(t);
	shifted(t);
	kc_menu *e = t->current_entry;
	const char *name = e->sym && e->sym->name ? e->sym->name : "<choice>";
	/* conf reports where the help text ended: the line after it (the
	 * next statement's, or the end of its file) */
	const char *file = kc_cur_file(t);
	int line = kc_lex_lineno(t);
	/* 5.10 and 6.1: the help text's token names the current file,
	 * none after the top file's end without a newline */
	if (t->yyerror_next_line && !t->lx->f)
		file = "<none>";
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
		kc_parse_error(t, 0, "more than %d 'depends on' lines for one entry",
			    KC_MAX_DEPENDS);
		t->lx->fatal = true;
		return false;
	}
	menu_add_dep(t, e, cond);
	return true;
}

static void option_modules(kc_tree *t)
{
	if (t->modules_sym)
		kc_parse_error(t, 0,
			       "symbol '%s' redefines option 'modules' already defined by symbol '%s'",
			       t->current_entry->sym->name, t->modules_sym->name);
	t->modules_sym = t->current_entry->sym;
}

/* "option ..." of kernels before 5.15 (docs/semantics.md): 5.0-5.14's
 * parser.y takes "option modules", and until 5.12 "option
 * defconfig_list" and "option allnoconfig_y", and nothing else; older
 * ones any name (KC_OPT_LIST). */
static void parse_option(kc_tree *t)
{
	enum tok k = peek(t);
	unsigned form = k == T_MODULES		? KC_OPT_MODULES
			: k == T_DEFCONFIG_LIST ? KC_OPT_DEFCONFIG_LIST
			: k == T_ALLNOCONFIG_Y	? KC_OPT_ALLNOCONFIG_Y
						: 0;
	char *w = NULL;
	if (!(t->opt_forms & KC_OPT_LIST)) {
		if (!(form & t->opt_forms)) {
			syntax_error(t, "modules, defconfig_list or allnoconfig_y");
			return;
		}
		free(take(t));
		if (!expect_eol(t))
			return;
		w = kf_xstrdup(kc_tok_name(k));
	} else if (form) {
		free(take(t));
		w = kf_xstrdup(kc_tok_name(k));
	} else if (k == T_WORD) {
		w = take(t);
	}
	if (!w) {
		syntax_error(t, "an option name");
		return;
	}
	if (!strcmp(w, "modules")) {
		option_modules(t);
	} else if (!strcmp(w, "defconfig_list")) {
		/* menu_add_option_defconfig_list(): the symbol whose
		 * defaults list the starting configs; never written */
		if (!t->defconfig_list_sym)
			t->defconfig_list_sym = t->current_entry->sym;
		else if (t->defconfig_list_sym != t->current_entry->sym)
			kc_parse_error(t, 0, "trying to redefine defconfig symbol");
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
	if (t->opt_forms & KC_OPT_LIST)
		expect_eol(t);
	free(w);
}

/* config/menuconfig options; returns at the first token that is not one. */
static void parse_config_options(kc_tree *t, bool in_choice_block)
{
	(void)in_choice_block;
	for (;;) {
		if (recovering(t))
			return;
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
				/* conf reduces prompt_stmt_opt (adding the
				 * prompt, with its warnings) at the token
				 * after it, before it checks for T_EOL */
				menu_add_prompt(t, P_PROMPT,
						kf_arena_strdup(t->arena, p), c,
						FILE_LINE);
				free(p);
				if (!expect_eol(t))
					break;
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
			if (!t->modules_attr)
				return; /* 5.10: only "option modules" */
			free(take(t));
			if (expect_eol(t))
				option_modules(t);
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
			shifted(t);
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

/* Parse the end of a block opened by `menu` (a menu node); false when
 * the block goes on (kfit conf: an error in its end line, recovered
 * from in the block's statement list, as bison does). */
static bool parse_block_end(kc_tree *t, kc_menu *block, const char *want)
{
	if (t->lx->fatal)
		return true; /* reported; the blocks around it are not the problem */
	enum tok k = peek(t);
	if (!t->lx->abort && (k == T_ENDMENU || k == T_ENDCHOICE || k == T_ENDIF)) {
		const char *got = end_name(k);
		free(take(t));
		expect_eol(t);
		if (t->lx->recover)
			return false;
		if (strcmp(got, want)) {
			kc_parse_error(t, 0, "unexpected '%s' within %s block", got,
				    want);
			return true;
		}
		/* conf compares current_menu's file (after an unexpected
		 * end it is not the block's) with the lexer's: 5.10 and 6.1
		 * current_file (the includer's, or none, once a file ended
		 * without a newline), later ones cur_filename (kc_lex.c) */
		const char *now = !t->yyerror_next_line ? kc_cur_file(t)
				  : t->lx->f		 ? t->lx->f->name
							 : "";
		const kc_menu *cm = t->current_menu;
		const char *mfile = cm && cm->file ? cm->file : "";
		if (strcmp(mfile, now)) {
			kc_parse_error(t, 0, "'%s' in different file than '%s'", got,
				    want);
			kf_diag_add(t->diags, KF_NOTE, *mfile ? mfile : "<none>",
				    cm ? cm->lineno : 0, 0, "location of the '%s'", want);
			return true;
		}
		menu_end_menu(t);
		return true;
	}
	/* end of file inside a block (kfit conf: the end of input while
	 * recovering, reported at the error; bison's destructor of each
	 * block left open, innermost first) */
	if (!t->lx->abort)
		bison_error(t);
	kf_diag_add(t->diags, KF_ERROR, block->file, block->lineno, 0,
		    "missing end statement for this entry");
	t->nerrors++;
	if (t->current_menu == block)
		menu_end_menu(t);
	return true;
}

/* The statements of a block up to its end statement. */
static void parse_block(kc_tree *t, kc_menu *block, int ctx, const char *want)
{
	do
		parse_stmt_list(t, ctx);
	while (!parse_block_end(t, block, want));
}

/* An error of parser.y's actions (fprintf "FILE:LINE: error: ..."), at
 * the entry's line (the caller counts it: yynerrs++). */
static void entry_error(kc_tree *t, const kc_menu *entry, const char *msg)
{
	if (t->conf_errors)
		kf_diag_raw(t->diags, KF_ERROR, "%s:%d: error: %s", entry->file,
			    entry->lineno, msg);
	else
		kf_diag_add(t->diags, KF_ERROR, entry->file, entry->lineno, 0,
			    "%s", msg);
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
	if (recovering(t))
		return; /* bison popped the entry: no config_stmt action */
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
			entry_error(t, entry, "choice member must have a prompt");
			t->nerrors++;
		}
		if (entry->sym->type != S_BOOLEAN) {
			entry_error(t, entry, "choice member must be bool");
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
		if (recovering(t))
			return; /* popped before choice_entry: not a block */
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
			/* V1's "bool PROMPT" is 'logic_type prompt_stmt_opt
			 * T_EOL': the prompt is added before T_EOL is checked
			 * (as for a config) */
			bool early = k != T_PROMPT && t->sem == KC_SEM_V1;
			if (early)
				menu_add_prompt(t, P_PROMPT,
						kf_arena_strdup(t->arena, p), c,
						FILE_LINE);
			if (expect_eol(t) && !early)
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
			shifted(t);
			parse_help(t);
		} else {
			break;
		}
	}
	kc_menu *entry = t->current_entry;
	if (t->sem == KC_SEM_V2 && !entry->prompt) {
		entry_error(t, entry, "choice must have a prompt");
		t->nerrors++;
	}
	kc_menu *block = menu_add_menu(t);
	kc_menu *saved_choice = t->current_choice;
	t->current_choice = block;
	for (;;) {
		parse_stmt_list(t, CTX_CHOICE);
		t->current_choice = saved_choice;
		if (t->sem == KC_SEM_V2)
			t->current_choice = NULL;
		if (parse_block_end(t, block, "choice"))
			break;
		t->current_choice = block; /* an error in its end line */
	}
}

static void parse_stmt_list_body(kc_tree *t, int ctx);

/* kfit conf: bison's recovery in a statement list after a syntax error:
 * shift the error token, drop tokens up to the end of the line (the end
 * of input: YYABORT), shift it and reduce with the rule's message. */
static void recover_stmt(kc_tree *t)
{
	struct kc_lexer *lx = t->lx;
	int rec = lx->recover;
	lx->recover = REC_NONE;
	lx->errstatus = 3;
	enum tok k;
	while ((k = peek(t)) != T_EOL) {
		if (k == T_EOF) {
			lx->abort = true;
			break;
		}
		discard(t);
	}
	if (!lx->abort) {
		free(take(t));
		if (rec == REC_UNKNOWN)
			kc_parse_error(t, 0, "unknown statement \"%s\"",
				       lx->recover_word);
		else
			kc_parse_error(t, 0, "invalid statement");
	}
	free(lx->recover_word);
	lx->recover_word = NULL;
}

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
		kc_parse_error(t, 0,
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
	bool conf = t->conf_errors;
	for (;;) {
		if (t->lx->fatal || t->lx->abort)
			return;
		if (t->lx->recover) {
			recover_stmt(t);
			continue;
		}
		enum tok k = peek(t);
		/* statements a choice block cannot hold (stmt_list_in_choice),
		 * and mainmenu after the first token: the keyword is the error */
		if (conf && ((in_choice && (k == T_MENUCONFIG || k == T_MENU ||
					    k == T_CHOICE || k == T_SOURCE ||
					    k == T_RSOURCE || k == T_OSOURCE ||
					    k == T_ORSOURCE || k == T_MAINMENU ||
					    k == T_WORD)) ||
			     (k == T_MAINMENU && t->lx->shifted_any))) {
			syntax_error(t, NULL);
			continue;
		}
		switch (k) {
		case T_EOF:
			if (conf && ctx != CTX_TOP) {
				/* bison: an error at the end of input inside a
				 * block, then YYABORT (parse_block_end) */
				bison_error(t);
				t->lx->abort = true;
			}
			return;
		case T_ENDMENU:
		case T_ENDCHOICE:
		case T_ENDIF:
			if (ctx == CTX_TOP && conf) {
				syntax_error(t, NULL);
				continue;
			}
			if (ctx == CTX_TOP) {
				/* an end without a block */
				bison_error(t);
				kc_parse_error(t, t->lx->look_col, "invalid statement");
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
				kc_parse_error(t, 0, "invalid statement");
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
			while (!recovering(t) && peek(t) == T_DEPENDS) {
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
			parse_block(t, block, in_choice ? CTX_IF_IN_CHOICE : CTX_IF,
				    "if");
			break;
		}
		case T_MENU: {
			free(take(t));
			if (in_choice) {
				kc_parse_error(t, 0, "invalid statement");
				syntax_error(t, NULL);
				break;
			}
			const char *p = quoted_line(t, "a quoted menu title");
			if (!p)
				break;
			menu_add_entry(t, NULL, FILE_LINE);
			menu_add_prompt(t, P_MENU, p, NULL, FILE_LINE);
			for (;;) {
				if (recovering(t))
					break;
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
			if (recovering(t))
				break; /* popped before menu_entry: not a block */
			kc_menu *block = menu_add_menu(t);
			parse_block(t, block, CTX_MENU, "menu");
			break;
		}
		case T_CHOICE:
			free(take(t));
			if (in_choice) {
				kc_parse_error(t, 0, "invalid statement");
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
				kc_parse_error(t, 0, "invalid statement");
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
			if (peek(t) != T_EOL) {
				free(p);
				syntax_error(t, "end of line");
				break;
			}
			t->lx->look = T_NONE;
			shifted(t);
			kc_lex_source(t, k, p);
			free(p);
			break;
		}
		case T_MAINMENU: {
			free(take(t));
			const char *p = quoted_line(t, "a quoted title");
			if (conf && t->lx->recover) {
				/* popped back to the start state, which has
				 * no error rule */
				t->lx->recover = REC_NONE;
				t->lx->abort = true;
			}
			if (!p)
				break;
			if (t->rootmenu.prompt || ctx != CTX_TOP || t->rootmenu.list) {
				kc_parse_error(t, 0, "invalid statement");
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
			if (conf) {
				/* 'stmt_list T_WORD error T_EOL' */
				t->lx->recover = REC_UNKNOWN;
				free(t->lx->recover_word);
				t->lx->recover_word = name;
				break;
			}
			kc_parse_error(t, col, "unknown statement \"%s\"", name);
			free(name);
			while (peek(t) != T_EOL && peek(t) != T_EOF)
				free(take(t));
			accept(t, T_EOL);
			break;
		}
		default:
			if (conf) {
				syntax_error(t, NULL);
				break;
			}
			bison_error(t);
			kc_parse_error(t, t->lx->look_col, "invalid statement");
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

	if (kc_lex_open(t, file, 0, false)) {
		lx.cur_file = lx.f->name;
		parse_stmt_list(t, CTX_TOP);
	}
	while (lx.f)
		kc_lex_close(t);
	free(lx.text);
	free(lx.look_text);
	free(lx.recover_word);
	bool fatal = lx.fatal || lx.abort;
	/* keep t->lx valid for error reporting until here */
	t->lx = NULL;
	if (fatal || t->nerrors)
		return -1;
	return 0;
}

