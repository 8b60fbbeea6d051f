/*
 * kc_lex.h - what the Kconfig lexer (kc_lex.c), the parser (kc_parse.c)
 * and the error context (kc_diag.c) share: the tokens, the open files and
 * the reader's state while a tree is parsed.  Nothing else includes it.
 */
#ifndef KFIT_KC_LEX_H
#define KFIT_KC_LEX_H

#include "kc_internal.h"

/* The tokens of the kernel's lexer.l. */
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
	T_DEFCONFIG_LIST,
	T_ALLNOCONFIG_Y,
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
	/* kfit conf: bison's error recovery (kc_parse.c) */
	int errstatus;        /* yyerrstatus: 3 after an error, -1 a token shifted */
	int recover;          /* REC_*: an error to recover from at statement level */
	char *recover_word;   /* REC_UNKNOWN: the statement's first word */
	bool abort;           /* YYABORT: the end of input while recovering */
	bool shifted_any;     /* a token was shifted (mainmenu must come first) */
};

/* A file already sourced, for 7.x's "repeated inclusion" error. */
struct lx_seen {
	struct lx_seen *next; /* same bucket */
	const char *name;     /* as given to source */
	const char *parent;   /* file of the first source statement */
	int lineno;           /* its line */
};
#define LX_SEEN_BUCKETS 1024

/* Open file name for the reader (a source statement at src_lineno when
 * nested; relative: against the tree, as the kernel does); false when
 * it cannot be read (reported). */
bool kc_lex_open(kc_tree *t, const char *name, int src_lineno, bool optional);
/* Close the current file, back to its includer. */
void kc_lex_close(kc_tree *t);
/* A source/rsource/osource/orsource statement: the files name globs to. */
void kc_lex_source(kc_tree *t, enum tok kind, const char *name);
/* The next token; its text (T_WORD, T_WORD_QUOTE, T_ASSIGN_VAL) in lx->text. */
enum tok kc_lex(kc_tree *t);
/* The help text after a help line, indentation rules applied (malloc'd). */
char *kc_lex_help(kc_tree *t);
/* A token as messages name it: "end of line", "'&&'", the keyword. */
const char *kc_tok_name(enum tok k);

/* An error at the current statement's file:line and column col
 * (kc_diag.c); the parse goes on. */
void kc_parse_error(kc_tree *t, int col, const char *fmt, ...) KF_PRINTF(3, 4);

#endif
